"""Scoring systems as data (issue 36, adjudicator/scoring.py and scoring.yaml): every worked example of
../shared/scoring/SCORING.md and a hand-computed case of each system, as exact rationals; scores shown are
rounded half up to two places. A choice names a system and overrides its parameters; anything else is refused
naming what is valid. `adjudicator score` prints them for a tournament director."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction as F

import pytest

from adjudicator.game_end import GameEnd
from adjudicator.scoring import ScoringError, choice_of, choose, load_systems, rounded, score_json
from tests.helpers import ROOT, cli

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
EXAMPLE = ROOT / "examples" / "end-draw.yaml"


def end(kind: str, centres: list[int], powers: list[str] | None = None, eliminated: dict | None = None,
        year: int = 1910) -> GameEnd:
    data = {"kind": kind, "year": year, "first_year": 1901, "board": {"centres": 34, "victory": 18},
            "centres": dict(zip(POWERS, centres)), "eliminated": eliminated or {}}
    if powers is not None:
        data["powers"] = powers
    return GameEnd.from_json(data)


def scores(system, the_end: GameEnd) -> dict[str, F]:
    return choose(system).scores(the_end)


def shown(values: dict[str, F]) -> dict[str, str]:
    return {p: str(rounded(v)) for p, v in values.items()}


# SCORING.md's worked examples


def test_sum_of_squares_worked_example():
    """A 3-way draw with 12, 10 and 6 centres: 51.43, 35.71, 12.86."""
    draw = end("draw", [0, 12, 10, 6, 0, 3, 3], ["England", "France", "Germany"], {"Austria": 1905, "Italy": 1908})
    got = scores("sum-of-squares", draw)
    assert got == {"Austria": 0, "England": F(360, 7), "France": F(250, 7), "Germany": F(90, 7), "Italy": 0,
                   "Russia": 0, "Turkey": 0}
    assert shown(got) == {"Austria": "0.00", "England": "51.43", "France": "35.71", "Germany": "12.86",
                               "Italy": "0.00", "Russia": "0.00", "Turkey": "0.00"}


@pytest.mark.parametrize("kind", ["draw", "stopped"])
def test_c_diplo_worked_example(kind):
    """A 4, E 0, F 9, G 7, I 7, R 3, T 4 -> A 5, E 1, F 48, G 18.5, I 18.5, R 4, T 5 (whoever is in the draw)."""
    the_end = end(kind, [4, 0, 9, 7, 7, 3, 4], ["France", "Germany"] if kind == "draw" else None, {"England": 1906})
    got = scores("c-diplo", the_end)
    assert got == {"Austria": 5, "England": 1, "France": 48, "Germany": F(37, 2), "Italy": F(37, 2), "Russia": 4,
                   "Turkey": 5}
    assert sum(got.values()) == 100


# Draw size


def test_draw_size_splits_equally_among_the_draw():
    three = end("draw", [0, 12, 10, 6, 0, 3, 3], ["England", "France", "Germany"], {"Austria": 1905, "Italy": 1908})
    assert scores("draw-size", three) == {"Austria": 0, "England": F(100, 3), "France": F(100, 3),
                                          "Germany": F(100, 3), "Italy": 0, "Russia": 0, "Turkey": 0}
    two = end("draw", [0, 17, 17, 0, 0, 0, 0], ["England", "France"],
              {"Austria": 1905, "Germany": 1908, "Italy": 1906, "Russia": 1909, "Turkey": 1909})
    assert scores("dss", two) == {"Austria": 0, "England": 50, "France": 50, "Germany": 0, "Italy": 0,
                                  "Russia": 0, "Turkey": 0}
    seven = end("draw", [5, 5, 5, 5, 5, 5, 4])
    assert scores("draw-size", seven) == {p: F(100, 7) for p in POWERS}
    assert shown(scores("draw-size", seven))["Turkey"] == "14.29"


def test_draw_size_scores_a_solo_a_concession_and_a_stopped_game():
    solo = end("solo", [0, 18, 10, 6, 0, 0, 0], ["England"],
               {"Austria": 1905, "Italy": 1908, "Russia": 1909, "Turkey": 1909})
    assert scores("draw-size", solo) == {p: 100 if p == "England" else 0 for p in POWERS}
    conceded = end("concession", [4, 14, 10, 6, 0, 0, 0], ["France"], {"Italy": 1908, "Russia": 1909, "Turkey": 1909})
    assert scores("draw-size", conceded) == {p: 100 if p == "France" else 0 for p in POWERS}
    stopped = end("stopped", [4, 14, 10, 6, 0, 0, 0], None, {"Italy": 1908, "Russia": 1909, "Turkey": 1909})
    assert scores("draw-size", stopped) == {p: 25 if p in ("Austria", "England", "France", "Germany") else 0
                                            for p in POWERS}  # a DIAS draw of the four survivors
    assert scores({"system": "draw-size", "share_points": 1}, stopped)["Austria"] == F(1, 4)  # Calhamer's 1/N


# Sum of squares


def test_sum_of_squares_seven_way_two_way_and_solo():
    seven = scores("sos", end("draw", [5, 5, 5, 5, 5, 5, 4]))  # 6 x 25 + 16 = 166
    assert seven == {p: F(1600, 166) if p == "Turkey" else F(2500, 166) for p in POWERS}
    assert sum(seven.values()) == 100
    two = scores("sum-of-squares", end("draw", [0, 20, 10, 4, 0, 0, 0], ["England", "France"],
                                       {"Austria": 1905, "Italy": 1906, "Russia": 1909, "Turkey": 1909}))
    assert (two["England"], two["France"], two["Germany"]) == (80, 20, 0)  # 400 and 100 of 500; Germany not in it
    solo = scores("sum-of-squares", end("solo", [0, 18, 10, 6, 0, 0, 0], ["England"],
                                        {"Austria": 1905, "Italy": 1908, "Russia": 1909, "Turkey": 1909}))
    assert solo == {p: 100 if p == "England" else 0 for p in POWERS}


# C-Diplo


def test_c_diplo_ties_share_the_bonuses_of_the_places_they_cover():
    first = scores("c-diplo", end("stopped", [8, 0, 9, 9, 4, 2, 2], eliminated={"England": 1907}))
    assert first == {"Austria": 16, "England": 1, "France": 36, "Germany": 36, "Italy": 5, "Russia": 3,
                     "Turkey": 3}  # (38 + 14) / 2 each, Austria third's 7
    second = scores("c-diplo", end("stopped", [3, 0, 10, 6, 6, 6, 3], eliminated={"England": 1907}))
    assert second == {"Austria": 4, "England": 1, "France": 49, "Germany": 14, "Italy": 14, "Russia": 14,
                      "Turkey": 4}  # (14 + 7 + 0) / 3 = 7 each
    assert sum(first.values()) == sum(second.values()) == 100


def test_c_diplo_solo_and_the_73_house_rule():
    solo = end("solo", [0, 18, 10, 6, 0, 0, 0], ["England"],
               {"Austria": 1905, "Italy": 1908, "Russia": 1909, "Turkey": 1909})
    assert scores("c-diplo", solo) == {p: 100 if p == "England" else 0 for p in POWERS}
    assert scores({"system": "c-diplo", "solo": 73}, solo) == {p: 73 if p == "England" else 0 for p in POWERS}


# Carnage


def test_carnage_ranks_by_centres_then_later_elimination_ties_split():
    got = scores("carnage", end("stopped", [0, 0, 12, 12, 0, 6, 4], eliminated={"Austria": 1904, "England": 1907,
                                                                                  "Italy": 1907}))
    assert got == {"France": 6512, "Germany": 6512,  # (7000 + 6000) / 2 + 12
                   "Russia": 5006, "Turkey": 4004,
                   "England": 2500, "Italy": 2500,  # eliminated the same year: (3000 + 2000) / 2
                   "Austria": 1000}  # eliminated first: last
    assert sum(got.values()) == 28034


def test_carnage_later_elimination_ranks_higher_and_a_solo_takes_all():
    got = scores("carnage", end("stopped", [0, 0, 14, 10, 0, 6, 4], eliminated={"Austria": 1908, "England": 1903,
                                                                                  "Italy": 1905}))
    assert (got["Austria"], got["Italy"], got["England"]) == (3000, 2000, 1000)
    solo = end("solo", [0, 18, 10, 6, 0, 0, 0], ["England"],
               {"Austria": 1905, "Italy": 1908, "Russia": 1909, "Turkey": 1909})
    assert scores("carnage", solo) == {p: 28034 if p == "England" else 0 for p in POWERS}


# ManorCon


def test_manorcon_with_eliminated_powers():
    got = scores("manorcon", end("draw", [0, 0, 12, 10, 0, 6, 6], ["France", "Germany"],
                                 {"Austria": 1903, "England": 1905, "Italy": 1908}))
    # P = c^2 + 4c + 16: 208, 156, 76, 76 and 16 for each eliminated power: 564 over all seven
    assert got == {"France": F(20800, 564), "Germany": F(15600, 564), "Russia": F(7600, 564),
                   "Turkey": F(7600, 564),  # survivors out of the draw score too
                   "Austria": F(3, 10), "England": F(5, 10), "Italy": F(8, 10)}  # 0.1 a year played, 1901 on
    assert shown(got) == {"France": "36.88", "Germany": "27.66", "Russia": "13.48", "Turkey": "13.48",
                          "Austria": "0.30", "England": "0.50", "Italy": "0.80"}


def test_manorcon_seven_survivors_and_a_solo():
    got = scores("manorcon", end("draw", [5, 5, 5, 5, 5, 5, 4]))  # 6 x 61 + 48 = 414
    assert got == {p: F(4800, 414) if p == "Turkey" else F(6100, 414) for p in POWERS}
    solo = scores("manorcon", end("solo", [0, 18, 10, 6, 0, 0, 0], ["England"],
                                  {"Austria": 1905, "Italy": 1908, "Russia": 1909, "Turkey": 1909}, year=1909))
    assert solo == {"England": 75, "France": F(9, 10), "Germany": F(9, 10),  # as if eliminated in 1909
                    "Austria": F(5, 10), "Italy": F(8, 10), "Russia": F(9, 10), "Turkey": F(9, 10)}


# Rounding, choices and refusals


def test_scores_are_rounded_half_up_to_two_places():
    assert rounded(F(1, 8)) == Decimal("0.13")  # half up, not half even (0.12)
    assert rounded(F(100, 3)) == Decimal("33.33") and rounded(F(200, 3)) == Decimal("66.67")


def test_a_choice_overrides_only_what_it_names():
    chosen = choose({"system": "c-diplo", "solo": 73})
    assert chosen.solo == 73 and chosen.rank_points == (38, 14, 7)
    assert choose("c-diplo").solo == 100  # the shipped system is unchanged
    assert choose({"system": "manorcon", "eliminated_per_year": 0.2}).eliminated_per_year == F(1, 5)
    assert choice_of("c-diplo", ("solo=73", "rank_points=[50, 20, 10]")) == {
        "system": "c-diplo", "solo": 73, "rank_points": [50, 20, 10]}


@pytest.mark.parametrize("choice, words", [
    ("sum-of-cubes", "unknown scoring system 'sum-of-cubes'; the systems: c-diplo, carnage, draw-size, manorcon, "
                     "sum-of-squares"),
    ({"solo": 73}, "no scoring system is named; the systems: c-diplo"),
    ({"system": "draw-size", "rank_points": [1]}, "draw-size takes no parameter 'rank_points'; its parameters: "
                                                  "solo, share_points, share_weight, share_over"),
    ({"system": "c-diplo", "solo": "lots"}, "c-diplo: solo must be a number of at least 0, not 'lots'"),
    ({"system": "c-diplo", "solo": True}, "c-diplo: solo must be a number of at least 0, not True"),
    ({"system": "c-diplo", "rank_by": "luck"}, "c-diplo: rank_by must be one of centres, centres_then_elimination"),
    ({"system": "sum-of-squares", "share_weight": [0, 0, 0]}, "share_weight must be three numbers"),
    ({"system": "manorcon", "eliminated_per_year": None}, "solo_others: eliminated needs eliminated_per_year"),
])
def test_a_bad_choice_is_refused_naming_the_valid(choice, words):
    with pytest.raises(ScoringError) as caught:
        choose(choice)
    assert words in str(caught.value)


def test_a_league_variant_is_data(tmp_path):
    path = tmp_path / "league.yaml"
    path.write_text("league:\n  title: Our league\n  aliases: [ours]\n  parameters:\n    solo: 60\n"
                    "    per_centre: 0.5\n    rank_points: [30, 20, 10]\n    rank_by: centres\n", encoding="utf-8")
    league = load_systems(path)
    got = choose("ours", league).scores(end("stopped", [3, 0, 10, 6, 6, 6, 3], eliminated={"England": 1907}))
    assert got == {"Austria": F(3, 2), "England": 0, "France": 35, "Germany": 13, "Italy": 13, "Russia": 13,
                   "Turkey": F(3, 2)}  # 30 + 5; (20 + 10 + 0) / 3 + 3
    for text, words in [
        ("league:\n  parameters:\n    solo: 60\n    bonus: 3\n",
         "league: unknown parameter 'bonus'; the parameters: solo"),
        ("league:\n  paramaters:\n    solo: 60\n", "must be a mapping with its title and parameters"),
        ("league:\n  parameters: {solo: 60}\n  alias: [x]\n", "league: unknown key 'alias'; a system gives title, "
                                                               "aliases, parameters"),
        ("league:\n  parameters: {solo: 60}\n  aliases: ours\n", "league: aliases must be a list of names"),
        ("a:\n  parameters: {solo: 60}\nb:\n  aliases: [a]\n  parameters: {solo: 50}\n", "two systems are named 'a'"),
        ("[1, 2]\n", "a scoring file is a mapping of systems by name"),
    ]:
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ScoringError) as caught:
            load_systems(path)
        assert str(caught.value).startswith(f"{path}") and words in str(caught.value), (text, str(caught.value))


def test_the_shipped_systems_and_their_aliases():
    systems = load_systems()
    assert {s.name for s in systems.values()} == {"draw-size", "sum-of-squares", "c-diplo", "carnage", "manorcon"}
    assert systems["sos"] is systems["sum-of-squares"] and systems["dss"] is systems["draw-size"]


def test_score_json_holds_rounded_and_exact_scores():
    draw = end("draw", [0, 12, 10, 6, 0, 3, 3], ["England", "France", "Germany"], {"Austria": 1905, "Italy": 1908})
    data = json.loads(json.dumps(score_json(draw, choose("sum-of-squares"))))
    assert data["scores"]["England"] == 51.43 and data["exact"]["England"] == "360/7"
    assert GameEnd.from_json(data["end"]) == draw
    assert data["parameters"] == {"solo": 100, "share_points": 100, "share_weight": [1, 0, 0], "share_over": "draw"}


# The command


def test_the_command_prints_a_table():
    r = cli("score", EXAMPLE, "--system", "sum-of-squares")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "Sum of squares (sum-of-squares): a draw of England, France, Germany in 1910"
    assert lines[2].split() == ["England", "12", "51.43"]
    assert lines[-1] == "scores rounded half up to 2 places; total 100.00"


def test_the_command_prints_json_with_overrides():
    r = cli("score", EXAMPLE, "--system", "c-diplo", "--set", "solo=73", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["parameters"]["solo"] == 73
    assert data["scores"] == {"Austria": 1, "England": 51, "France": 25, "Germany": 14, "Italy": 1, "Russia": 4,
                              "Turkey": 4}


@pytest.mark.parametrize("args, words", [
    (("--system", "sos-2"), "error: unknown scoring system 'sos-2'; the systems: c-diplo"),
    (("--system", "sos", "--set", "solo"), "error: a parameter is set as KEY=VALUE"),
    (("--system", "sos", "--set", "bonus=3"), "error: sum-of-squares takes no parameter 'bonus'"),
])
def test_the_command_refuses_a_bad_choice(args, words):
    r = cli("score", EXAMPLE, *args)
    assert r.exit_code == 2 and words in r.output


def test_the_command_refuses_a_bad_end_file(tmp_path):
    path = tmp_path / "end.json"
    path.write_text(json.dumps({"kind": "solo", "year": 1910, "first_year": 1901, "powers": [],
                                "board": {"centres": 34, "victory": 18}, "centres": {"England": 18}}),
                    encoding="utf-8")
    r = cli("score", path, "--system", "draw-size")
    assert r.exit_code == 2 and f"error: {path}:1: a solo names one power (the soloist), not 0" in r.output
