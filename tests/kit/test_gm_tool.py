"""The game master's tool end to end: a whole Arctic year and a whole standard year through the CLI,
each step's output file feeding the next, and bad input that leaves every file untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.helpers import ROOT, cli

DATA = ROOT / "tests" / "data"


def step(game: Path, sheet: Path, out: Path) -> dict:
    r = cli("adjudicate", game, sheet, "-o", out, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def outcome(report: dict, power: str, order: str) -> dict:
    for o in report["orders"]:
        if o["power"] == power and o["order"] == order:
            return o
    raise AssertionError(f"{power}: {order} not in {[o['order'] for o in report['orders']]}")


def units(path: Path) -> dict:
    return yaml.safe_load(path.read_text())["units"]


def test_arctic_year_fall_2010_to_fall_2011(tmp_path):
    games = [tmp_path / f"g{i}.yaml" for i in range(9)]
    assert cli("new", "--variant", "arctic", "-o", games[0]).exit_code == 0
    sheets = sorted((DATA / "arctic_year").glob("*.txt"))
    reports = [step(games[i], sheet, games[i + 1]) for i, sheet in enumerate(sheets)]
    fall10, winter10, winter_adj, spring11, spring_ret, summer11, summer_adj, fall11 = reports

    assert fall10["phase"]["name"] == "Fall 2010 Movement"
    assert outcome(fall10, "Norway", "F Osl - Nwg")["status"] == "fails"
    assert "Denmark F Tor" in outcome(fall10, "Norway", "F Osl - Nwg")["reason"]
    assert outcome(fall10, "Norway", "A Lyb - Yer")["status"] == "succeeds"  # onto Fall ice
    assert fall10["skipped"][0]["name"] == "Fall 2010 Retreat" and fall10["centre_changes"] == []
    assert fall10["next_phase"]["name"] == "Winter 2010 Movement"

    assert outcome(winter10, "Russia", "A Ura - Kar")["status"] == "succeeds"
    assert outcome(winter10, "Canada", "A Yuk - McK")["status"] == "fails"
    changes = {c["centre"]: c["to"] for c in winter10["centre_changes"]}
    assert changes == {"Bar": "Norway", "Chk": "USA", "Bea": "USA", "Lap": "Russia", "Kam": "Russia", "QEI": "Denmark"}
    assert winter10["next_phase"]["name"] == "Winter 2010 Adjustment"

    assert outcome(winter_adj, "Russia", "Build F Pev")["status"] == "illegal"  # A11: not coastal in Winter
    assert {u["location"] for u in winter_adj["built"]} == {"Arc", "Mag", "Tro", "Nrd", "Brw"}
    assert [o["reason"] for o in winter_adj["orders"] if o["power"] == "USA" and o["status"] == "default"] == \
        ["build not ordered: waived"]

    assert spring11["dislodged"] == [{"power": "Canada", "type": "A", "location": "NWP", "attacker_origin": "QEI",
                                      "by_convoy": False, "retreats": ["BfI", "Chu", "Vic"]}]
    assert spring11["disbanded_by_terrain"] == [{"power": "USA", "type": "A", "location": "Chk"}]
    assert spring11["next_phase"]["name"] == "Spring 2011 Retreat"
    assert outcome(spring_ret, "Canada", "A NWP - Vic")["status"] == "succeeds"

    assert summer11["disbanded_by_terrain"] == [{"power": "Russia", "type": "A", "location": "Lap"}]
    assert outcome(summer11, "Norway", "F GrS - Yer")["status"] == "succeeds"  # Yermak is sea in Summer
    assert {c["centre"]: (c["from"], c["to"]) for c in summer11["centre_changes"]} == \
        {"Chk": ("USA", "Russia"), "WSi": (None, "Russia")}
    assert summer11["next_phase"]["name"] == "Summer 2011 Adjustment"
    assert outcome(summer_adj, "Russia", "Build F Pev")["status"] == "succeeds"  # coastal in Summer

    assert outcome(fall11, "Russia", "F Chk - Bea")["status"] == "illegal"
    assert outcome(fall11, "Canada", "F NWP - Hud")["status"] == "succeeds"
    assert fall11["next_phase"]["name"] == "Winter 2011 Movement"
    final = yaml.safe_load(games[8].read_text())
    assert final["phase"] == {"season": "Winter", "year": 2011, "type": "Movement"}
    assert final["units"]["Norway"] == ["F Bar", "F Kar", "A NP", "F Whi"]
    assert len(final["history"]) == 8 and final["history"][0]["phase"] == "Fall 2010 Movement"


def test_standard_year_spring_1901_to_spring_1902(tmp_path):
    games = [tmp_path / f"s{i}.yaml" for i in range(5)]
    assert cli("new", "-o", games[0]).exit_code == 0
    sheets = sorted((DATA / "standard_year").glob("*.txt"))
    spring, fall, retreat, adjust = [step(games[i], s, games[i + 1]) for i, s in enumerate(sheets)]
    assert outcome(spring, "Russia", "A war - gal")["status"] == "fails"
    assert outcome(spring, "Turkey", "F ank - bla")["status"] == "fails"
    assert spring["next_phase"]["name"] == "Fall 1901 Movement"
    assert outcome(fall, "England", "A yor - nwy")["status"] == "succeeds"
    assert fall["dislodged"][0]["location"] == "bur" and "pic" in fall["dislodged"][0]["retreats"]
    assert "ruh" not in fall["dislodged"][0]["retreats"]
    assert fall["centre_changes"] == [] and fall["next_phase"]["name"] == "Fall 1901 Retreat"
    assert outcome(retreat, "France", "A bur - pic")["status"] == "succeeds"
    assert {c["centre"] for c in retreat["centre_changes"]} == {"bul", "den", "gre", "nwy", "por", "rum", "ser", "spa", "swe", "tun"}
    assert retreat["next_phase"]["name"] == "Fall 1901 Adjustment"
    assert outcome(adjust, "Germany", "Build A ber")["status"] == "ignored"
    assert len(adjust["built"]) == 10
    final = yaml.safe_load(games[4].read_text())
    assert final["phase"] == {"season": "Spring", "year": 1902, "type": "Movement"}
    assert final["units"]["Russia"] == ["A mos", "A rum", "F sev", "F stp/nc", "F swe", "A war"]


def test_text_report_has_every_part(tmp_path):
    game = tmp_path / "g.yaml"
    cli("new", "--variant", "arctic", "-o", game)
    r = cli("adjudicate", game, ROOT / "examples" / "arctic-fall-2010-orders.txt")
    assert r.exit_code == 0
    for part in ("Arctic Diplomacy: Fall 2010 Movement", "Norway:", "bounced in Nwg with Denmark F Tor",
                 "Skipped Fall 2010 Retreat", "Position:", "Next phase: Winter 2010 Movement"):
        assert part in r.output


def test_sheet_problems_are_reported_and_strict_refuses(tmp_path):
    game = tmp_path / "g.yaml"
    cli("new", "--variant", "arctic", "-o", game)
    sheet = tmp_path / "o.txt"
    sheet.write_text("Russia:\n  A Arc - Ura\nplease adjudicate quickly\nRusia: F Okh - Kam\nNarnia: A Arc H\n"
                     "Norway: F Tro - Barentz Sea\nUSA: A Arc - Fin\nUSA: A Brw - Bea\nUSA: A Brw - Bea\n")
    r = cli("adjudicate", game, sheet)
    assert r.exit_code == 0
    assert "line 3, column 1 (Russia): unknown place 'please'" in r.output
    assert "line 5, column 1: 'Narnia' is not a power" in r.output
    assert "line 6, column 17 (Norway): unknown place 'Barentz'" in r.output and "Barents Sea" in r.output
    assert "read power 'Rusia' as 'Russia'" in r.output
    assert "the unit in Arc belongs to Russia, not USA" in r.output
    assert "the same order was given twice" in r.output
    before = game.read_text()
    r = cli("adjudicate", game, sheet, "--strict", "-o", tmp_path / "next.yaml")
    assert r.exit_code == 2 and not (tmp_path / "next.yaml").exists() and game.read_text() == before


def test_in_place_keeps_a_backup_and_output_never_overwrites_input(tmp_path):
    game = tmp_path / "g.yaml"
    cli("new", "-o", game)
    original = game.read_text()
    sheet = tmp_path / "o.txt"
    sheet.write_text("France: A par - bur\n")
    r = cli("adjudicate", game, sheet, "-o", game)
    assert r.exit_code == 2 and "--in-place" in r.output and game.read_text() == original
    r = cli("adjudicate", game, sheet, "--in-place")
    assert r.exit_code == 0
    assert (tmp_path / "g.yaml.bak").read_text() == original
    assert yaml.safe_load(game.read_text())["phase"]["season"] == "Fall"


@pytest.mark.parametrize("content, message", [
    ("variant: standard\nphase: {season: Spring, year: 1901, type: Movement}\nunits: {France: [A par, F par]}\n",
     "two units in Paris"),
    ("variant: standard\nphase: {season: Spring, year: 1901, type: Movement}\nunits: {France: [A nth]}\n",
     "an army cannot stand on North Sea"),
    ("variant: standard\nphase: {season: Sprung, year: 1901, type: Movement}\n", "unknown season 'Sprung'"),
    ("variant: narnia\nphase: {season: Spring, year: 1901, type: Movement}\n", "unknown variant 'narnia'"),
    ("variant: standard\nphase: {season: Spring, year: 1901, type: Movement}\nunits: {France: [A Pxris]}\n",
     "unknown place 'Pxris'"),
    ("variant: standard\nphase: [unclosed\n", "not valid YAML"),
    ("variant: arctic\nphase: {season: Summer, year: 2011, type: Movement}\nunits: {Russia: [F Alp]}\n",
     "a fleet cannot stand on Alpha Ridge"),
])
def test_bad_game_files_give_clear_errors_and_touch_nothing(tmp_path, content, message):
    game = tmp_path / "bad.yaml"
    game.write_text(content)
    sheet = tmp_path / "o.txt"
    sheet.write_text("")
    r = cli("adjudicate", game, sheet, "-o", tmp_path / "next.yaml")
    assert r.exit_code == 2, r.output
    assert message in r.output and str(game) in r.output and "Traceback" not in r.output
    assert game.read_text() == content and not (tmp_path / "next.yaml").exists()


def test_unreadable_files(tmp_path):
    r = cli("adjudicate", tmp_path / "missing.yaml")
    assert r.exit_code == 2 and "cannot read the file" in r.output
    game = tmp_path / "g.yaml"
    cli("new", "-o", game)
    r = cli("adjudicate", game, tmp_path / "missing.txt")
    assert r.exit_code == 2 and "missing.txt: cannot read the file" in r.output


def test_show_and_orders(tmp_path):
    game = tmp_path / "g.yaml"
    cli("new", "--variant", "arctic", "-o", game)
    r = cli("show", game)
    assert "Russia: 3 centres" in r.output and "A Arc" in r.output
    r = cli("orders", game, "--power", "Denmark", "--json")
    data = json.loads(r.output)["Denmark"]
    assert "A Nrd - QEI" in data["A Nrd"] and "A Nrd - Yer" in data["A Nrd"]
    assert "F Nuu - Nrd/ec" in data["F Nuu"] and not any("Nrd/wc" in o for o in data["F Nuu"])
    r = cli("orders", game, "--power", "Narnia")
    assert r.exit_code == 2 and "unknown power 'Narnia'" in r.output


def test_new_refuses_to_overwrite(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text("keep me")
    r = cli("new", "-o", game)
    assert r.exit_code == 2 and game.read_text() == "keep me"


@pytest.mark.parametrize("variant", ["arctic2019", "arctic-race", "arctica"])
def test_other_games_show_and_orders_do_not_crash(tmp_path, variant):
    game = tmp_path / "g.yaml"
    assert cli("new", "--variant", variant, "-o", game).exit_code == 0
    r = cli("show", game)  # the position in words under the game's title (issue 27: no longer raw YAML)
    title = yaml.safe_load(game.read_text())["variant"]
    assert r.exit_code == 0 and r.output.split(":")[0] == {"arctic2019": "2019", "arctic-race": "Arctic Race",
                                                          "arctica": "Arctica (reference board)"}[title]
    r = cli("orders", game)
    assert r.exit_code == 2 and "not available" in r.output and "Traceback" not in r.output


def test_render_command(tmp_path):
    game = tmp_path / "g.yaml"
    cli("new", "--variant", "arctic", "-o", game)
    report = tmp_path / "r.json"
    r = cli("adjudicate", game, ROOT / "examples" / "arctic-fall-2010-orders.txt", "--json")
    report.write_text(r.output)
    assert cli("render", game, "--orders", report, "-o", tmp_path / "b.png", "--width", "500").exit_code == 0
    assert (tmp_path / "b.png").read_bytes().startswith(b"\x89PNG")
    assert cli("render", game, "-o", tmp_path / "b.svg").exit_code == 0
    assert (tmp_path / "b.svg").read_text().count('id="unit-') == 15
    r = cli("render", game, "-o", tmp_path / "b.gif")
    assert r.exit_code == 2 and ".png or .svg" in r.output
