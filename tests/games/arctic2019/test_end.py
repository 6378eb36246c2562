"""How 2019: The ARCTIC ends (issue 36): after the ninth turn, or a turn in which China controls the pole, its
rules stop the game; the final score is counted at the table, so the end records no points."""

from __future__ import annotations

import pytest

from adjudicator.catalogue import load_variant
from adjudicator.game import get_rules
from adjudicator.game_end import EndError, EndKind

RULES = get_rules("arctic2019")
BOARD = load_variant("arctic2019")
COUNTRIES = ["Russia", "Norway", "EU", "Canada", "USA"]


def test_the_ninth_turn_ends_the_game():
    state = RULES.state_from_data(BOARD, {"turn": 9, "ships": {"KOL": {"RU": 1}}}, "t9")
    assert RULES.natural_end(BOARD, state) is None and RULES.game_year(state) == 9
    after = RULES.adjudicate(BOARD, state, RULES.read_sheet(BOARD, state, "end of turn")).next_state
    end = RULES.natural_end(BOARD, after)
    assert end is not None and end.kind is EndKind.STOPPED and end.powers == () and end.year == 9
    assert [p.name for p in end.standing] == COUNTRIES and end.result["points"] == {}
    assert RULES.scores(end, None) == {}  # counted at the table


def test_a_declared_draw_names_countries():
    state = RULES.initial_state(BOARD)
    assert RULES.survivors(BOARD, state) == COUNTRIES
    assert RULES.end_as(BOARD, state, EndKind.DRAW, ["russia", "USA"]).powers == ("Russia", "USA")
    with pytest.raises(EndError, match="'China' is not a power of the game; the powers: Russia, Norway, EU"):
        RULES.end_as(BOARD, state, EndKind.CONCESSION, ["China"])
