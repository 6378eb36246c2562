"""The command line's end of a game (issue 36): `adjudicator end` records a declared end in the game file,
`adjudicator score` scores a game file (its end, or as if it ended now), the judge records the rules' own end
(a solo, an Arctic game over), an ended game is refused by the judge, and a malformed `end` is a located error."""

from __future__ import annotations

import json

import pytest
import yaml

from adjudicator.cli import EXIT_STATUS
from adjudicator.gamefile import read_game
from adjudicator.refusals import Kind
from tests.helpers import cli

# SCORING.md's sum-of-squares example: England 12, France 10, Germany 6 (Russia and Turkey 3 each).
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
# SCORING.md's C-Diplo example: A 4, E 0, F 9, G 7, I 7, R 3, T 4 (England eliminated).
CDIPLO = """variant: standard
phase: Spring 1908 Movement
centres:
  Austria: [vie, bud, tri, ser]
  France: [par, bre, mar, spa, por, bel, hol, lon, lvp]
  Germany: [ber, kie, mun, den, swe, nwy, edi]
  Italy: [rom, nap, ven, tun, gre, bul, rum]
  Russia: [mos, war, stp]
  Turkey: [con, ank, smy, sev]
units: {Austria: [A vie], France: [A par], Germany: [A ber], Italy: [A rom], Russia: [A mos], Turkey: [A con]}
eliminated: {England: 1906}
"""


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(DRAW_1906, encoding="utf-8")
    return path


def scores_of(output: str) -> dict[str, str]:
    rows = [line.split() for line in output.splitlines()]
    return {row[0]: row[2] for row in rows if len(row) >= 3 and row[1].isdigit()}


def test_end_then_score_gives_scoring_mds_sum_of_squares(game):
    r = cli("end", game, "--draw", "England, France, Germany", "--scoring", "sos")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "The game ended: a draw of England, France, Germany in 1905."
    assert f"wrote {game} (backup: {game}.bak)" in r.output
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    assert data["end"]["kind"] == "draw" and data["end"]["powers"] == ["England", "France", "Germany"]
    assert data["end"]["eliminated"] == {"Austria": 1903, "Italy": 1905} and data["end"]["year"] == 1905
    assert data["end"]["scoring"] == {"system": "sum-of-squares"}  # by its name, not the alias typed
    assert data["end"]["scores"]["England"] == 51.43
    r = cli("score", game)
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Sum of squares (sum-of-squares): a draw of England, France, Germany in 1905")
    got = scores_of(r.output)
    assert (got["England"], got["France"], got["Germany"], got["Russia"]) == ("51.43", "35.71", "12.86", "0.00")
    r = cli("score", game, "--system", "draw-size", "--json")  # another system over the recorded one
    assert json.loads(r.output)["scores"]["England"] == 33.33 and json.loads(r.output)["how"] == "recorded"
    assert read_game(game).end.end.powers == ("England", "France", "Germany")


def test_score_of_a_c_diplo_position_gives_scoring_mds_figures(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(CDIPLO, encoding="utf-8")
    r = cli("end", path, "--dias", "--scoring", "c-diplo")
    assert r.exit_code == 0, r.output
    got = scores_of(r.output)
    assert got == {"France": "48.00", "Germany": "18.50", "Italy": "18.50", "Austria": "5.00", "Turkey": "5.00",
                   "Russia": "4.00", "England": "1.00"}


def test_score_of_a_game_not_ended_is_as_if_it_ended_now(game):
    r = cli("score", game, "--system", "sum-of-squares")
    assert r.exit_code == 0, r.output
    first, second = r.output.splitlines()[:2]
    assert first == "The game has not ended: the scores if it ended now, as a draw of every survivor (DIAS)."
    assert second.endswith("a draw of England, France, Germany, Russia, Turkey in 1905")
    assert scores_of(r.output)["England"] == "48.32"  # 144 / 298
    data = json.loads(cli("score", game, "--json").output)
    assert data["system"] == "draw-size" and data["ended"] is False and data["scores"]["Turkey"] == 20


def test_an_ended_game_is_refused_by_the_judge(game):
    assert cli("end", game, "--stopped").exit_code == 0
    before = game.read_text(encoding="utf-8")
    r = cli("adjudicate", game, "--no-orders", "--in-place")
    assert r.exit_code == EXIT_STATUS[Kind.CONFLICT] == 2
    assert "the game has ended (stopped (scored as a draw of every survivor) in 1905): it is judged no more" in r.output
    assert "delete the file's `end:` key" in r.output
    assert game.read_text(encoding="utf-8") == before
    r = cli("end", game, "--dias")
    assert r.exit_code == 2 and "the game has already ended" in r.output
    r = cli("show", game)  # its position stays readable, with its end
    assert r.exit_code == 0 and "The game ended: stopped" in r.output and "England: 12 centres" in r.output


@pytest.mark.parametrize("args, words", [
    (("--draw", "England,Prussia"), "unknown power 'Prussia': not a power of Standard Diplomacy; the powers: "
                                    "Austria, England, France, Germany, Italy, Russia, Turkey"),
    (("--draw", "England,Austria"), "Austria is out of the game (eliminated in 1903); the survivors: England, "
                                    "France, Germany, Russia, Turkey"),
    (("--draw", "England"), "a draw names at least two survivors"),
    (("--concede-to", "Italy"), "Italy is out of the game (eliminated in 1905)"),
    (("--stopped", "--dias"), "say how the game ended with one of --draw A,B,C, --dias, --concede-to POWER, "
                              "--stopped, --abandoned (not --dias and --stopped)"),
    ((), "say how the game ended with one of"),
    (("--dias", "--scoring", "sos-2"), "unknown scoring system 'sos-2'"),
    (("--dias", "--set", "solo=73"), "--set changes a system's parameters: name the system with --scoring"),
])
def test_a_bad_end_is_refused_writing_nothing(game, args, words):
    r = cli("end", game, *args)
    assert r.exit_code == 2 and words in r.output, r.output
    assert game.read_text(encoding="utf-8") == DRAW_1906 and not game.with_suffix(".yaml.bak").exists()


def test_end_writes_to_another_file_with_o(game, tmp_path):
    out = tmp_path / "ended.yaml"
    r = cli("end", game, "--concede-to", "fra", "-o", out)
    assert r.exit_code == 0, r.output
    assert game.read_text(encoding="utf-8") == DRAW_1906
    assert read_game(out).end.end.powers == ("France",) and f"wrote {out}\n" in r.output
    assert cli("end", game, "--dias", "-o", out).exit_code == 2  # exists: --force


SOLO_1910 = """variant: standard
phase: Fall 1910 Movement
centres:
  England: [lon, lvp, edi, nwy, swe, den, hol, bel, kie, ber, stp, mos, war, sev, rum, con, ank]
  France: [par, bre, mar, spa, por]
  Turkey: [smy]
units: {England: [A arm, F lon], France: [A par], Turkey: [A syr]}
eliminated: {Austria: 1907}
"""


def test_the_judge_writes_the_solo_it_reaches_into_the_game_file(tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text(SOLO_1910, encoding="utf-8")
    sheet = tmp_path / "orders.txt"
    sheet.write_text("England: A arm - smy\n", encoding="utf-8")
    r = cli("adjudicate", game, sheet, "--in-place")
    assert r.exit_code == 0, r.output
    assert "WINNER: England" in r.output and "The game ended: a solo by England in 1910." in r.output
    ended = read_game(game)
    assert ended.end is not None and ended.end.end.kind.value == "solo" and ended.end.end.year == 1910
    assert ended.end.end.power("Austria").eliminated == 1907
    assert ended.end.end.power("Germany").eliminated == 1910  # (a file set up by hand: the judge's first phase)
    turkey = ended.end.end.power("Turkey")  # no centre left, its army not yet removed: a survivor
    assert turkey.survived and turkey.centres == 0 and turkey.units == 1
    assert cli("score", game, "--system", "c-diplo", "--json").output.count('"England": 100') == 1
    assert cli("adjudicate", game, "--no-orders").exit_code == 2
    r = cli("rewind", game)  # back before the phase that ended it: the end goes with it
    assert r.exit_code == 0 and "the game's recorded end is undone with it" in r.output
    assert read_game(game).end is None and read_game(game).state.eliminated == {"Austria": 1907}


def test_the_json_report_carries_the_end(tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text(SOLO_1910, encoding="utf-8")
    r = cli("adjudicate", game, "-", "--json", "-o", tmp_path / "next.yaml", stdin="England: A arm - smy\n")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["end"]["kind"] == "solo"


@pytest.mark.parametrize("change, line, words", [
    (("  kind: stopped", "  kind: won"), 3, "the end's kind must be one of solo, draw, concession"),
    (("  scoring: {system: draw-size}", "  scoring: {system: sos2}"), 17, "unknown scoring system 'sos2'"),
    (("    Austria: 0", "    Prussia: 0"), 16, "eliminated names 'Austria', which has no centres entry"),
    (("end:\n", "end: 3\nxend:\n"), 2, "end must be a mapping"),
])
def test_a_malformed_end_is_a_located_error(game, change, line, words):
    assert cli("end", game, "--stopped", "--scoring", "draw-size").exit_code == 0
    text = game.read_text(encoding="utf-8")
    assert change[0] in text
    game.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    r = cli("show", game)
    assert r.exit_code == 2 and f"error: {game}:{line}: {words}" in r.output, r.output


def test_an_arctic_race_game_over_is_recorded_with_its_points(tmp_path):
    game = tmp_path / "race.yaml"
    game.write_text("variant: arctic-race\nplayers: [Yellow, Purple, Green, Blue, Red, Orange]\nstart_token: Yellow\n"
                    "to_play: Orange\nriver: [T01, T02, T03, T04, T05]\npile: []\nfinished: {1: [Yellow], "
                    "3: [Green, Yellow, Red], 4: [Red, Purple, Orange, Green], 5: [Blue, Green, Purple]}\n",
                    encoding="utf-8")
    r = cli("score", game, "--system", "sum-of-squares")
    assert r.exit_code == 2 and "arctic-race is scored by its own result" in r.output
    r = cli("adjudicate", game, "-", "--in-place", stdin="Orange: 2 move\n")
    assert r.exit_code == 0, r.output
    assert "The game ended: a solo by Yellow in round 1." in r.output
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    assert data["end"]["board"] is None and data["end"]["result"]["points"]["Yellow"] == 10
    assert data["end"]["scores"] == {"Yellow": 10, "Purple": 5, "Green": 9, "Blue": 5, "Red": 7, "Orange": 2}
    r = cli("score", game)
    assert r.exit_code == 0 and r.output.startswith("The game's own result: a solo by Yellow in round 1"), r.output
    assert cli("end", game, "--dias", "--scoring", "sos").exit_code == 2


def test_manorcon_counts_the_years_each_eliminated_power_played(game):
    # P = c^2 + 4c + 16: England 208, France 156, Germany 76, Russia and Turkey 37, Austria and Italy 16; sum 546.
    # Austria, eliminated in 1903, played 1901-1903: 0.3; Italy, in 1905: 0.5 (the game file's years).
    assert cli("end", game, "--dias", "--scoring", "manorcon").exit_code == 0
    got = scores_of(cli("score", game).output)
    assert (got["England"], got["Russia"], got["Austria"], got["Italy"]) == ("38.10", "6.78", "0.30", "0.50")
