"""How Arctica ends (issue 36): after the last round's End of Round steps, the player with the most Biodiversity
Points wins (the tied share the victory); an end declared before records the points so far."""

from __future__ import annotations

from adjudicator.catalogue import load_variant
from adjudicator.game import get_rules
from adjudicator.game_end import EndKind

RULES = get_rules("arctica")
BOARD = load_variant("arctica")


def position(**data):
    return RULES.state_from_data(BOARD, data, "arctica")


def test_the_end_of_the_last_round_ends_the_game():
    done = [f"majority {r}" for r in BOARD.regions]
    players = {"Remi": {"bp": 79}, "Joelle": {"bp": 84}, "Samson": {"bp": 80}}
    assert RULES.natural_end(BOARD, position(round=4, end_steps=done[:-1])) is None
    assert RULES.natural_end(BOARD, position(round=3, end_steps=["melt"] + done)) is None
    state = position(round=4, end_steps=done)
    for name, counters in players.items():
        state.me(name).bp = counters["bp"]
    end = RULES.natural_end(BOARD, state)
    assert end is not None and end.kind is EndKind.SOLO and end.powers == ("Joelle",) and end.year == 4
    assert end.result["points"] == {"Remi": 79, "Joelle": 84, "Samson": 80}
    assert end.result["ranking"] == ["Joelle", "Samson", "Remi"]
    state.me("Samson").bp = 84
    tied = RULES.natural_end(BOARD, state)
    assert tied.kind is EndKind.DRAW and tied.powers == ("Joelle", "Samson")


def test_a_declared_end_records_the_points_so_far():
    state = position()
    end = RULES.end_as(BOARD, state, EndKind.DRAW)
    assert end.powers == ("Remi", "Joelle", "Samson") and end.year == 1
    assert RULES.scores(end, None) == {"Remi": 0, "Joelle": 0, "Samson": 0}
