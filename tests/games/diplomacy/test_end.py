"""How a game of Diplomacy ends (issue 36, adjudicator/games/diplomacy/ending.py): the solo its judge reaches, the
ends declared at a position, and each power's year of elimination recorded by the judge and in the game file."""

from __future__ import annotations

from fractions import Fraction

import pytest

from adjudicator.catalogue import load_variant
from adjudicator.errors import StateError
from adjudicator.game import rules_of
from adjudicator.game_end import EndError, EndKind
from adjudicator.gamefile import dump_game, game_from_data, read_game_file
from adjudicator.scoring import choose, rounded
from adjudicator.turn import play_turn, read_sheet
from adjudicator.yamlio import load_yaml_text

BOARD = load_variant("standard")
RULES = rules_of(BOARD)

# SCORING.md's sum-of-squares example: a draw of 12, 10 and 6 centres (England, France, Germany), Austria and
# Italy eliminated, Russia and Turkey surviving on 3 each: 34 centres in all.
DRAW_1906 = """variant: standard
phase: Spring 1906 Movement
centres:
  England: [lon, lvp, edi, nwy, swe, den, hol, bel, kie, ber, stp, mos]
  France: [par, bre, mar, spa, por, mun, ven, rom, nap, tun]
  Germany: [vie, bud, tri, ser, gre, bul]
  Russia: [war, sev, rum]
  Turkey: [con, ank, smy]
units: {England: [A lon], France: [A par], Germany: [A vie], Russia: [A war], Turkey: [A con]}
eliminated: {Austria: 1903, Italy: 1905}
"""


def game(text: str = DRAW_1906):
    return game_from_data(load_yaml_text(text, "game.yaml"), "game.yaml")


def test_the_interface_reads_the_phase():
    board, state = game()
    assert RULES.phase_kind(state) == "movement" and RULES.game_year(state) == 1906
    assert RULES.survivors(board, state) == ["England", "France", "Germany", "Russia", "Turkey"]
    start = RULES.initial_state(BOARD)
    assert RULES.survivors(BOARD, start) == list(BOARD.powers) and RULES.natural_end(BOARD, start) is None
    assert RULES.scored_by_centres


def test_a_named_draw_scores_sum_of_squares_as_scoring_md_says():
    board, state = game()
    end = RULES.end_as(board, state, EndKind.DRAW, ["eng", "France", "Germany"])
    assert end.powers == ("England", "France", "Germany")
    assert end.year == 1905  # the year of the last judged phase: Spring 1906 is not judged yet
    assert end.power("Austria").eliminated == 1903 and end.power("Italy").eliminated == 1905
    scores = RULES.scores(end, choose("sum-of-squares"))
    assert [str(rounded(scores[p])) for p in ("England", "France", "Germany")] == ["51.43", "35.71", "12.86"]
    assert scores["Russia"] == 0
    assert RULES.scores(end, None)["England"] == Fraction(100, 3)  # draw size by default


def test_a_dias_draw_names_every_survivor():
    board, state = game()
    end = RULES.end_as(board, state, EndKind.DRAW)
    assert end.powers == ("England", "France", "Germany", "Russia", "Turkey")


@pytest.mark.parametrize("kind, powers, words", [
    (EndKind.DRAW, ["England", "Prussia"], "unknown power 'Prussia': not a power of Standard Diplomacy; the powers: "
                                           "Austria, England, France"),
    (EndKind.DRAW, ["England", "Austria"], "Austria is out of the game (eliminated in 1903); the survivors: England"),
    (EndKind.DRAW, ["England"], "a draw names at least two survivors"),
    (EndKind.DRAW, ["England", "eng"], "England is named twice"),
    (EndKind.CONCESSION, [], "a concession names the one power conceded to, not 0"),
    (EndKind.STOPPED, ["England"], "a stopped game names no powers"),
    (EndKind.SOLO, [], "no power holds the centres a solo needs at this position"),
])
def test_an_end_that_cannot_be_is_refused_saying_why(kind, powers, words):
    board, state = game()
    with pytest.raises(EndError) as caught:
        RULES.end_as(board, state, kind, powers)
    assert words in str(caught.value)


def test_a_concession_and_a_stopped_game():
    board, state = game()
    conceded = RULES.end_as(board, state, EndKind.CONCESSION, ["France"])
    assert conceded.powers == ("France",) and RULES.scores(conceded, choose("sos"))["France"] == 100
    stopped = RULES.end_as(board, state, EndKind.STOPPED)
    assert stopped.sharers() == ("England", "France", "Germany", "Russia", "Turkey")


def test_a_power_without_centres_survives_on_its_units():
    board, state = game(DRAW_1906.replace("Turkey: [con, ank, smy]", "Turkey: [con, ank]")
                        .replace("units: {", "units: {Italy: [A smy], ").replace(", Italy: 1905", ""))
    assert "Italy" not in state.eliminated
    end = RULES.end_as(board, state, EndKind.DRAW)
    assert "Italy" in end.powers and end.power("Italy").units == 1 and end.power("Italy").survived
    assert end.to_json()["units"] == {"Italy": 1}


def test_a_solo_is_the_natural_end():
    owned = {"England": "lon lvp edi nwy swe den hol bel kie ber stp mos war sev rum con ank smy".split(),
             "France": "par bre mar spa por mun ven rom nap tun".split()}
    text = ("variant: standard\nphase: Winter 1910 Adjustment\ncentres:\n"
            + "".join(f"  {p}: [{', '.join(c)}]\n" for p, c in owned.items())
            + "units: {England: [A lon], France: [A par], Germany: [A vie]}\n")
    board, state = game(text)
    end = RULES.natural_end(board, state)
    assert end is not None and end.kind is EndKind.SOLO and end.powers == ("England",) and end.year == 1910
    assert end.power("Austria").eliminated == 1910  # nothing left, and no year recorded: the end's year
    assert RULES.end_as(board, state, EndKind.SOLO).powers == ("England",)
    assert RULES.scores(end, choose("c-diplo"))["England"] == 100


def test_the_judge_records_the_year_a_power_is_eliminated(tmp_path):
    text = ("variant: standard\nphase: Winter 1903 Adjustment\ncentres: {England: [lon, lvp, edi], "
            "France: [par, bre, mar]}\nunits: {England: [F nth, A bel], France: [A par], Germany: [A hol]}\n")
    board, state = game(text)
    assert RULES.survivors(board, state) == ["England", "France", "Germany"]  # Germany on its unit alone
    assert RULES.phase_kind(state) == "adjustment"
    sheet = read_sheet(board, state, "England: build A lon\n")
    after = play_turn(board, state, sheet).next_state  # Germany's unit is removed: no centre keeps it
    assert after.eliminated == {"Austria": 1903, "Germany": 1903, "Italy": 1903, "Russia": 1903, "Turkey": 1903}
    path = tmp_path / "game.yaml"
    path.write_text(dump_game(board, after, path), encoding="utf-8")
    assert "eliminated:\n  Austria: 1903\n  Germany: 1903\n" in path.read_text(encoding="utf-8")
    _, again = read_game_file(path)
    assert again.eliminated == after.eliminated


def test_a_game_file_without_eliminations_writes_none():
    board, state = game(DRAW_1906.replace("eliminated: {Austria: 1903, Italy: 1905}\n", ""))
    assert state.eliminated == {} and "eliminated" not in dump_game(board, state)


@pytest.mark.parametrize("line, words", [
    ("eliminated: [Austria]", "eliminated must map each eliminated power to its year"),
    ("eliminated: {Prussia: 1903}", "unknown power 'Prussia'"),
    ("eliminated: {Austria: 1907}", "Austria is eliminated in 1907, after the game's phase (Spring 1906 Movement)"),
    ("eliminated: {Austria: soon}", "the year must be a whole number"),
    ("eliminated: {England: 1903}", "England is recorded as eliminated in 1903, but it holds 12 centre(s)"),
])
def test_a_bad_elimination_record_is_a_located_error(line, words):
    text = DRAW_1906.replace("eliminated: {Austria: 1903, Italy: 1905}", line)
    with pytest.raises(StateError) as caught:
        game(text)
    assert words in str(caught.value)
    assert caught.value.file == "game.yaml" and caught.value.line == 10 and "/eliminated" in (caught.value.pointer or "")


def test_a_bad_year_in_a_block_mapping_names_its_own_line():
    text = DRAW_1906.replace("eliminated: {Austria: 1903, Italy: 1905}", "eliminated:\n  Austria: 1903\n  Italy: 1907")
    with pytest.raises(StateError) as caught:
        game(text)
    assert caught.value.line == 12 and "Italy is eliminated in 1907" in str(caught.value)
