"""The game interface's end (issue 36, adjudicator/game.py): every game answers phase_kind, game_year, survivors,
natural_end, end_as and scores; the defaults serve a game without centres, whose end records its own result; an
end record with a result is checked and read back as written."""

from __future__ import annotations

import pytest

from adjudicator.game import GAMES, PHASE_KINDS, GameRules, end_by_ranking, get_rules, ranked_by_points
from adjudicator.game_end import EndError, EndKind, GameEnd, PowerAtEnd
from adjudicator.catalogue import load_variant

VARIANT = {"diplomacy": "standard", "arctic2019": "arctic2019", "arctic-race": "arctic-race", "arctica": "arctica"}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_answers_the_end_interface(game):
    rules = get_rules(game)
    board = load_variant(VARIANT[game])
    state = rules.new_game(board, seed=3) if game == "arctic-race" else rules.initial_state(board)
    assert rules.phase_kind(state) in PHASE_KINDS
    assert isinstance(rules.game_year(state), int)
    assert rules.natural_end(board, state) is None
    assert rules.scored_by_centres is (game == "diplomacy")
    if game != "arctic-race":  # (a game at its set-up has no players yet)
        assert rules.survivors(board, state) == rules.players(board, state)
        stopped = rules.end_as(board, state, EndKind.STOPPED)
        assert stopped.kind is EndKind.STOPPED and stopped.has_centres is (game == "diplomacy")
        assert GameEnd.from_json(stopped.to_json()) == stopped


def test_a_game_at_its_set_up_has_nothing_to_end():
    rules, board = get_rules("arctic-race"), load_variant("arctic-race")
    with pytest.raises(EndError, match="no players yet"):
        rules.end_as(board, rules.initial_state(board), EndKind.ABANDONED)


def test_the_defaults_are_a_game_without_phases_or_years():
    rules: GameRules = GameRules()
    assert rules.phase_kind(object()) == "movement" and rules.game_year(object()) is None
    assert rules.natural_end(object(), object()) is None and not rules.scored_by_centres


def test_rankings_by_points_and_the_end_they_give():
    ranking = ranked_by_points({"A": 3, "B": 5, "C": 5, "D": 1}, ["A", "B", "C", "D"])
    assert ranking == [["B", "C"], "A", "D"]
    assert end_by_ranking(ranking) == (EndKind.DRAW, ("B", "C"))
    assert end_by_ranking(["A", "B"]) == (EndKind.SOLO, ("A",))


def result_end(**changes):
    fields = {"kind": EndKind.SOLO, "powers": ("Red",), "standing": (PowerAtEnd("Red", 0), PowerAtEnd("Blue", 0)),
              "year": 3, "first_year": 1, "total_centres": 0, "victory": 0,
              "result": {"points": {"Red": 9, "Blue": 4}, "ranking": ["Red", "Blue"]}}
    return GameEnd(**{**fields, **changes})


def test_an_end_with_a_result_reads_back_as_written():
    end = result_end()
    assert end.to_json()["board"] is None and end.to_json()["result"]["points"] == {"Red": 9, "Blue": 4}
    assert GameEnd.from_json(end.to_json()) == end


@pytest.mark.parametrize("changes, words", [
    ({"total_centres": 34}, "an end with the game's own result has no board centres"),
    ({"result": {"ranking": []}}, "the game's result gives each player's points"),
    ({"result": {"points": {"Green": 1}}}, "the result's points name 'Green', not a player of the game"),
    ({"standing": (PowerAtEnd("Red", 2), PowerAtEnd("Blue", 0))}, "Red: a game without centres gives no centres"),
    ({"powers": ("Green",)}, "the solo names 'Green', not a power of the game"),
    ({"kind": EndKind.DRAW, "powers": ("Red",)}, "a draw names at least two powers"),
])
def test_an_impossible_result_end_is_refused(changes, words):
    with pytest.raises(EndError) as caught:
        result_end(**changes)
    assert words in str(caught.value)


def test_a_result_end_record_with_a_board_is_refused():
    data = result_end().to_json() | {"board": {"centres": 34, "victory": 18}}
    with pytest.raises(EndError, match="write board: null"):
        GameEnd.from_json(data)
