"""A game's end as data (issue 36, adjudicator/game_end.py): checked when made, each impossible end refused with
what is wrong, and read back from its JSON as it was written."""

from __future__ import annotations

import dataclasses
import json

import pytest

from adjudicator.game_end import EndError, EndKind, GameEnd, read_end_file
from tests.helpers import ROOT

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def record(kind: str, centres: list[int], powers: list[str] | None = None, eliminated: dict | None = None,
           year: int = 1910, **extra) -> dict:
    data = {"kind": kind, "year": year, "first_year": 1901, "board": {"centres": 34, "victory": 18},
            "centres": dict(zip(POWERS, centres)), "eliminated": eliminated or {}, **extra}
    if powers is not None:
        data["powers"] = powers
    return data


def test_an_end_reads_its_fields():
    end = GameEnd.from_json(record("draw", [0, 12, 10, 6, 0, 3, 3], ["England", "France", "Germany"],
                                   {"Austria": 1905, "Italy": 1908}))
    assert end.kind is EndKind.DRAW
    assert end.powers == ("England", "France", "Germany")
    assert end.centres("England") == 12
    assert end.power("Austria").eliminated == 1905 and not end.power("Austria").survived
    assert end.survivors() == ("England", "France", "Germany", "Russia", "Turkey")
    assert end.years_played("Austria") == 5 and end.years_played("Russia") == 10  # 1901 to 1905; to 1910
    assert (end.year, end.first_year, end.total_centres, end.victory) == (1910, 1901, 34, 18)


def test_a_draw_without_powers_is_a_draw_of_every_survivor():
    end = GameEnd.from_json(record("draw", [0, 12, 10, 6, 0, 3, 3], None, {"Austria": 1905, "Italy": 1908}))
    assert end.powers == ("England", "France", "Germany", "Russia", "Turkey")


def test_stopped_and_abandoned_games_share_among_every_survivor():
    for kind in ("stopped", "abandoned"):
        end = GameEnd.from_json(record(kind, [0, 12, 10, 6, 0, 3, 3], None, {"Austria": 1905, "Italy": 1908}))
        assert end.powers == () and end.sharers() == end.survivors()


@pytest.mark.parametrize("data", [
    record("draw", [0, 12, 10, 6, 0, 3, 3], ["England", "France"], {"Austria": 1905, "Italy": 1908}),
    record("solo", [0, 18, 10, 6, 0, 0, 0], ["England"], {"Austria": 1905, "Italy": 1908, "Russia": 1909,
                                                          "Turkey": 1909}),
    record("concession", [4, 14, 10, 6, 0, 0, 0], ["England"], {"Italy": 1908, "Russia": 1909, "Turkey": 1909}),
    record("stopped", [5, 5, 5, 5, 5, 5, 4], year=1907),
])
def test_an_end_round_trips_through_json(data):
    end = GameEnd.from_json(data)
    assert GameEnd.from_json(json.loads(json.dumps(end.to_json()))) == end
    assert end.to_json()["centres"] == data["centres"]


def test_an_end_is_frozen():
    end = GameEnd.from_json(record("stopped", [5, 5, 5, 5, 5, 5, 4]))
    with pytest.raises(dataclasses.FrozenInstanceError):
        end.kind = EndKind.DRAW  # type: ignore[misc]


@pytest.mark.parametrize("data, words", [
    (record("draw", [0, 12, 10, 6, 0, 3, 3], ["England", "Prussia"], {"Austria": 1905, "Italy": 1908}),
     "the draw names 'Prussia', not a power of the game; the powers: Austria, England"),
    (record("draw", [0, 12, 10, 6, 0, 3, 3], ["England", "Austria"], {"Austria": 1905, "Italy": 1908}),
     "the draw names Austria, which was eliminated"),
    (record("draw", [0, 12, 10, 6, 0, 3, 3], ["England"], {"Austria": 1905, "Italy": 1908}),
     "a draw names at least two powers"),
    (record("draw", [0, 12, 10, 6, 0, 3, 3], ["England", "England"], {"Austria": 1905, "Italy": 1908}),
     "names a power twice"),
    (record("solo", [0, 18, 10, 6, 0, 0, 0], [], {"Austria": 1905, "Italy": 1908, "Russia": 1909, "Turkey": 1909}),
     "a solo names one power (the soloist), not 0"),
    (record("solo", [0, 18, 10, 6, 0, 0, 0], None, {"Austria": 1905, "Italy": 1908, "Russia": 1909, "Turkey": 1909}),
     "a solo names one power (the soloist), not 0"),
    (record("solo", [0, 17, 11, 6, 0, 0, 0], ["England"], {"Austria": 1905, "Italy": 1908, "Russia": 1909,
                                                           "Turkey": 1909}),
     "England holds 17 centres, fewer than the 18 a solo needs"),
    (record("concession", [4, 14, 10, 6, 0, 0, 0], ["England", "France"], {"Italy": 1908, "Russia": 1909,
                                                                          "Turkey": 1909}),
     "a concession names one power (the power conceded to), not 2"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 4], ["England"]), "a stopped game names no powers"),
    (record("abandoned", [5, 5, 5, 5, 5, 5, 4], ["England"]), "an abandoned game names no powers"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 0]), "Turkey has no centres: give the year it was eliminated"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 4], eliminated={"Turkey": 1905}),
     "Turkey holds 4 centres, so it was not eliminated"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 0], eliminated={"Turkey": 1911}),
     "Turkey is eliminated in 1911, after the game ended (1910)"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 0], eliminated={"Turkey": 1900}),
     "Turkey's year of elimination must be a whole number of at least 1901"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 5]), "the powers hold 35 centres, more than the board's 34"),
    (record("stopped", [5, 5, 5, 5, 5, 5, -1]), "Turkey's centres must be a whole number of at least 0, not -1"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 4], year=1900), "the year the game ended must be a whole number of at "
                                                          "least 1901"),
    (record("won", [5, 5, 5, 5, 5, 5, 4]), "the end's kind must be one of solo, draw, concession, abandoned, "
                                           "stopped, not 'won'"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 4]) | {"board": {"centres": 34, "victory": 35}},
     "the victory condition (35) is more than the board's 34 centres"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 4], scores={}), "unknown key 'scores' in the end record; the keys:"),
    ({k: v for k, v in record("stopped", [5, 5, 5, 5, 5, 5, 4]).items() if k != "year"},
     "the end record has no 'year'"),
    (record("stopped", [5, 5, 5, 5, 5, 5, 0], eliminated={"Turkey": 1905, "Prussia": 1905}),
     "eliminated names 'Prussia', which has no centres entry"),
    (record("stopped", []), "the end names no power of the game"),
    (record("stopped", [0] * 7, eliminated={p: 1905 for p in POWERS}), "every power is eliminated"),
    ([1, 2], "an end record must be a mapping"),
])
def test_an_impossible_end_is_refused_saying_why(data, words):
    with pytest.raises(EndError) as caught:
        GameEnd.from_json(data)
    assert words in str(caught.value)


def test_made_directly_an_end_is_checked_too():
    good = GameEnd.from_json(record("stopped", [5, 5, 5, 5, 5, 5, 4]))
    with pytest.raises(EndError, match="the draw names 'Prussia', not a power of the game"):
        dataclasses.replace(good, kind=EndKind.DRAW, powers=("England", "Prussia"))
    with pytest.raises(EndError, match="the end's kind must be one of"):
        dataclasses.replace(good, kind="draw")


def test_a_file_problem_names_the_file_and_line(tmp_path):
    path = tmp_path / "end.yaml"
    path.write_text("kind: draw\nyear: 1910\nfirst_year: 1901\nboard: {centres: 34, victory: 18}\n"
                    "centres: {England: 17, France: 17}\npowers: [England, Wales]\n", encoding="utf-8")
    with pytest.raises(EndError) as caught:
        read_end_file(str(path))
    assert str(caught.value).startswith(f"{path}:")
    assert "the draw names 'Wales', not a power of the game; the powers: England, France" in str(caught.value)


def test_the_example_end_file_reads():
    end = read_end_file(str(ROOT / "examples" / "end-draw.yaml"))
    assert end.kind is EndKind.DRAW and end.powers == ("England", "France", "Germany")
