"""How a game of Arctic Race ends (issue 36): game over is a solo of the first ranked (R24, R26, R27), an end
declared before it records the points so far, and the centre-based scoring systems are refused."""

from __future__ import annotations

from fractions import Fraction

import pytest

from adjudicator.catalogue import load_variant
from adjudicator.game import get_rules
from adjudicator.game_end import EndError, EndKind, GameEnd
from adjudicator.scoring import ScoringError, choose
from adjudicator.sheets import Sheet

RULES = get_rules("arctic-race")
BOARD = load_variant("arctic-race")
# The rulebook's scoring example (E2, datc_cases/arctic-race/02_rulebook_scoring.yaml): Orange to play, Green has
# three racers home, so the game ends after this round.
E2 = {"players": ["Yellow", "Purple", "Green", "Blue", "Red", "Orange"], "start_token": "Yellow", "to_play": "Orange",
      "river": ["T01", "T02", "T03", "T04", "T05"], "pile": [],
      "finished": {1: ["Yellow"], 3: ["Green", "Yellow", "Red"], 4: ["Red", "Purple", "Orange", "Green"],
                   5: ["Blue", "Green", "Purple"]}}
POINTS = {"Yellow": 10, "Purple": 5, "Green": 9, "Blue": 5, "Red": 7, "Orange": 2}


def over():
    state = RULES.state_from_data(BOARD, E2, "e2")
    return RULES.adjudicate(BOARD, state, Sheet(orders=RULES.parse_orders(BOARD, "Orange: 2 move", None))).next_state


def test_game_over_is_a_solo_of_the_winner_with_the_points():
    assert RULES.natural_end(BOARD, RULES.state_from_data(BOARD, E2, "e2")) is None
    end = over() and RULES.natural_end(BOARD, over())
    assert end is not None and end.kind is EndKind.SOLO and end.powers == ("Yellow",)
    assert end.result["points"] == POINTS and end.result["reason"] == "three-home"
    assert end.result["ranking"] == ["Yellow", "Green", "Red", "Purple", "Blue", "Orange"]
    assert RULES.scores(end, None) == {p: Fraction(n) for p, n in POINTS.items()}
    assert RULES.game_year(over()) == 1 and RULES.phase_kind(over()) == "movement"


def test_an_end_with_its_result_round_trips_through_json():
    end = RULES.natural_end(BOARD, over())
    data = end.to_json()
    assert data["board"] is None and data["centres"] == {p: 0 for p in POINTS} and data["result"]["points"] == POINTS
    assert GameEnd.from_json(data) == end


def test_a_tie_after_the_tie_break_is_a_draw_of_the_tied():
    state = RULES.state_from_data(BOARD, {"players": ["Red", "Blue"], "phase": "over", "river": ["T01", "T02", "T03",
                                  "T04", "T05"], "game_over": {"reason": "tiles"}}, "tie")
    end = RULES.natural_end(BOARD, state)
    assert end.kind is EndKind.DRAW and end.powers == ("Red", "Blue")


def test_a_declared_end_records_the_points_so_far():
    state = RULES.state_from_data(BOARD, E2, "e2")
    assert RULES.survivors(BOARD, state) == E2["players"]
    draw = RULES.end_as(BOARD, state, EndKind.DRAW, ["yellow", "Green"])
    assert draw.powers == ("Yellow", "Green") and draw.result["points"] == POINTS
    assert RULES.end_as(BOARD, state, EndKind.DRAW).powers == tuple(E2["players"])
    assert RULES.end_as(BOARD, state, EndKind.CONCESSION, ["Red"]).powers == ("Red",)
    with pytest.raises(EndError, match="'Pink' is not a power of the game; the powers: Yellow, Purple"):
        RULES.end_as(BOARD, state, EndKind.DRAW, ["Pink", "Red"])
    with pytest.raises(EndError, match="no power has won"):
        RULES.end_as(BOARD, state, EndKind.SOLO, ["Red"])


def test_the_centre_based_systems_are_refused():
    assert not RULES.scored_by_centres
    end = RULES.end_as(BOARD, RULES.state_from_data(BOARD, E2, "e2"), EndKind.STOPPED)
    with pytest.raises(ScoringError, match="arctic-race is scored by its own result .* not by sum-of-squares"):
        RULES.scores(end, choose("sum-of-squares"))
    with pytest.raises(ScoringError, match="scores by supply centres, and this game has none"):
        choose("sum-of-squares").scores(end)
