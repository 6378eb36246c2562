"""Issue 13: one game interface. The shells never ask which game it is; every game keeps the sheet contract
(a bad line is reported and the rest judged, --strict refuses and writes nothing); text is read one way;
and what game masters hit: wrong-phase sheets, the position block, 'beaten' against 'bounced', one report
line per refused order, -o without --force."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from adjudicator.catalogue import load_variant
from adjudicator.game import GAMES, LEGAL_ORDERS, PICTURES, GameRules, NotAvailable, get_rules, rules_of
from adjudicator.textio import decode_text
from tests.helpers import ENCODINGS, ROOT, cli, judge, report_of

SHEET = "France:\nA Par - Bur\nF Bre - Mxd\nA Mar H\n"  # line 3 is unreadable


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.yaml"
    assert cli("new", "--variant", "standard", "-o", path).exit_code == 0
    return path


def test_no_shell_asks_which_game_it_is():
    found = subprocess.run(["grep", "-rn", "is_diplomacy", "adjudicator", "api"], cwd=ROOT, capture_output=True,
                           text=True).stdout.splitlines()
    assert [f for f in found if not f.startswith("adjudicator/games/")] == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_is_a_game_rules(name):
    rules = get_rules(name)
    assert isinstance(rules, GameRules) and rules.name == name


def test_capabilities_are_declared_and_a_missing_one_is_a_clear_error():
    assert {LEGAL_ORDERS, PICTURES} <= get_rules("diplomacy").capabilities
    board = load_variant("arctic2019")
    rules = rules_of(board)
    assert LEGAL_ORDERS not in rules.capabilities
    with pytest.raises(NotAvailable, match="not available for"):
        rules.legal_orders(board, rules.initial_state(board), None)


def test_lenient_by_default_the_bad_line_is_reported_and_the_rest_judged(game, tmp_path):
    sheet = tmp_path / "orders.txt"
    sheet.write_text(SHEET)
    out = tmp_path / "next.yaml"
    r = cli("adjudicate", game, sheet, "-o", out)
    assert r.exit_code == 0, r.output
    assert "Lines that are not orders:" in r.output and "line 3, column 9" in r.output
    assert "A bur" in yaml.safe_load(out.read_text())["units"]["France"]


def test_strict_refuses_the_sheet_and_writes_nothing(game, tmp_path):
    sheet = tmp_path / "orders.txt"
    sheet.write_text(SHEET)
    out = tmp_path / "next.yaml"
    before = game.read_text()
    r = cli("adjudicate", game, sheet, "-o", out, "--strict")
    assert r.exit_code == 2 and "orders.txt:3" in r.output and "strict" in r.output
    assert not out.exists() and game.read_text() == before
    r = cli("adjudicate", game, sheet, "--in-place", "--strict")
    assert r.exit_code == 2 and game.read_text() == before and not Path(str(game) + ".bak").exists()


def test_help_says_what_the_readme_says():
    text = cli("adjudicate", "--help").output
    assert "reported" in text and "--strict" in text and "nothing is written" in text.replace("\n", " ")
    readme = (ROOT / "README.md").read_text()
    assert "`--strict` refuses the sheet" in readme and '"lenient": false' in readme


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_sheets_and_game_files_in_every_encoding_read_the_same(game, tmp_path, encoding):
    encode = ENCODINGS[encoding]
    text = "France: A Par - Bur\nGermany: A Mun - Ruh\n"
    sheet = tmp_path / "orders.txt"
    sheet.write_bytes(encode(text))
    coded_game = tmp_path / "coded.yaml"
    coded_game.write_bytes(encode(game.read_text()))
    out = tmp_path / "next.yaml"
    r = cli("adjudicate", coded_game, sheet, "-o", out, "--strict")
    assert r.exit_code == 0, r.output
    units = yaml.safe_load(out.read_text())["units"]
    assert "A bur" in units["France"] and "A ruh" in units["Germany"]  # the first power's orders are not lost


def test_bytes_that_are_not_text_give_one_clear_error(game, tmp_path):
    sheet = tmp_path / "orders.txt"
    sheet.write_bytes(b"France: A Par - Bur\n\xff\xfe\x00garbage\x81\n")
    r = cli("adjudicate", game, sheet)
    assert r.exit_code == 2 and "orders.txt" in r.output and "UTF-8" in r.output and "Traceback" not in r.output
    with pytest.raises(Exception, match="UTF-8"):
        decode_text(b"\x00\x01\x02", "x.bin")


def test_a_sheet_for_another_kind_of_phase_is_refused_naming_the_phase(game, tmp_path):
    sheet = tmp_path / "builds.txt"
    sheet.write_text("France: Build A Par\nGermany: waive\n")
    r = cli("adjudicate", game, sheet, "-o", tmp_path / "next.yaml")
    assert r.exit_code == 2 and "Spring 1901 Movement" in r.output and "adjustment orders" in r.output
    assert not (tmp_path / "next.yaml").exists()


def test_the_position_block_shows_builds_only_where_an_adjustment_is_due(game, tmp_path):
    sheet = tmp_path / "s.txt"
    sheet.write_text("France: A Par - Bur\n")
    r = cli("adjudicate", game, sheet, "-o", tmp_path / "f.yaml")  # Spring: France is due nothing yet
    assert r.exit_code == 0 and "builds" not in r.output and "removes" not in r.output
    fall = tmp_path / "f.yaml"
    sheet.write_text("France: A Bur - Bel\n")
    r = cli("adjudicate", fall, sheet, "-o", tmp_path / "w.yaml")
    assert r.exit_code == 0 and "Next phase: Fall 1901 Adjustment" in r.output
    assert "builds 1" in r.output


def test_a_move_beaten_by_a_stronger_one_is_not_bounced():
    outcome = judge("""
PRESTATE
	Germany: A Mun
	Germany: A Ber
	Austria: A Boh
ORDERS
	Germany: A Mun - Sil
	Germany: A Ber S A Mun - Sil
	Austria: A Boh - Sil
""")
    reason = report_of(outcome, "Austria", "A Boh").reason
    assert reason == "beaten by Germany A mun, 1 against 2"
    outcome = judge("""
PRESTATE
	Germany: A Mun
	Austria: A Boh
ORDERS
	Germany: A Mun - Sil
	Austria: A Boh - Sil
""")
    assert report_of(outcome, "Austria", "A Boh").reason == "bounced in sil with Germany A mun, 1 against 1"


def test_a_refused_order_gets_one_report_line():
    outcome = judge("""
PRESTATE
	France: A Par
	France: F Bre
ORDERS
	France: A Par - Lon
	France: F Bre - Eng
""")
    lines = [r for r in outcome.result.report if r.unit is not None and r.unit.province == "par"]
    assert len(lines) == 1 and lines[0].status == "illegal" and "the unit holds" in lines[0].reason


def test_output_is_not_overwritten_without_force(game, tmp_path):
    out = tmp_path / "next.yaml"
    out.write_text("keep me\n")
    r = cli("adjudicate", game, "-o", out)
    assert r.exit_code == 2 and "--force" in r.output and out.read_text() == "keep me\n"
    assert cli("adjudicate", game, "--no-orders", "-o", out, "--force").exit_code == 0 and "variant: standard" in out.read_text()
    picture = tmp_path / "board.svg"
    picture.write_text("x")
    assert cli("render", game, "-o", picture).exit_code == 2 and picture.read_text() == "x"


def test_servers_do_not_share_a_control_socket():
    from api.server import server_options

    for worker_class in ("gevent", "gthread"):  # (serve() itself would patch this process for gevent)
        assert server_options("127.0.0.1", 8123, 2, 1, 30, worker_class, 100)["control_socket_disable"] is True


@pytest.mark.parametrize("variant", ["standard", "arctic", "arctic2019", "arctica", "arctic-race"])
def test_new_show_and_the_api_take_one_road_for_every_game(tmp_path, variant):
    from api import create_app

    path = tmp_path / "g.yaml"
    assert cli("new", "--variant", variant, "-o", path).exit_code == 0
    shown = cli("show", path)
    assert shown.exit_code == 0 and load_variant(variant).title in shown.output
    client = create_app().test_client()
    start = client.get(f"/v1/variants/{variant}/start").get_json()
    r = client.post("/v1/adjudicate", json={"state": start, "orders": "", "history": False})
    assert r.status_code == 200 and "history" not in r.get_json()["next_state"]
    assert json.dumps(r.get_json())  # JSON all the way


def test_a_refused_retreat_gets_one_report_line():
    outcome = judge("""
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
	France: A Bur
PRESTATE_DISLODGED
	France: A Par
ORDERS
	France: A Par - Lon
POSTSTATE
	France: A Bur
""")
    assert outcome.passed, outcome.problems
    (line,) = [r for r in outcome.result.report if r.unit is not None and r.unit.province == "par"]
    assert line.status == "illegal" and line.reason.endswith("the order is ignored; the unit is disbanded")


def test_parse_reads_a_sheet_against_the_position_and_writes_nothing(game, tmp_path):
    sheet = tmp_path / "orders.txt"
    sheet.write_text(SHEET)
    before = game.read_text()
    r = cli("parse", game, sheet)
    assert r.exit_code == 1 and "line 2 (France, the header on line 1): A par - bur" in r.output and "orders.txt:line 3" in r.output
    assert "2 order(s) read, 1 line(s) not read" in r.output and game.read_text() == before
    sheet.write_text("France: A Par - Bur\n")
    r = cli("parse", game, sheet, "--json")
    assert r.exit_code == 0 and json.loads(r.output)["orders"][0]["destination"] == "bur"


GAME_CASES = {"arctic2019": "01_moves.yaml", "arctica": "migration.yaml", "arctic-race": "01_rulebook_movement.yaml"}


@pytest.mark.parametrize("variant", sorted(GAME_CASES))
def test_every_game_keeps_the_sheet_contract(variant):
    """A junk line among good ones: reported with its line, and the rest judged as without it; strict refuses."""
    from dataclasses import replace

    from adjudicator.game_cases import read_yaml_cases, run_game_case
    from adjudicator.turn import SheetRefused, play_turn

    case = next(c for c in read_yaml_cases(ROOT / "datc_cases" / variant / GAME_CASES[variant]) if c.poststate)
    assert run_game_case(case).passed
    orders = case.orders.rstrip("\n") + "\nzzqx 7 frobnicate\n"
    junk_line = orders.count("\n")
    outcome = run_game_case(replace(case, orders=orders, problems=[{"line": junk_line}]))
    assert outcome.passed, outcome.problems
    board = load_variant(variant)
    rules = rules_of(board)
    state = rules.initial_state(board) if case.prestate is None else rules.state_from_data(board, case.prestate, None)
    sheet = rules.read_sheet(board, state, orders)
    assert [p.line for p in sheet.problems] == [junk_line] and sheet.problems[0].column == 1
    with pytest.raises(SheetRefused, match="strict"):
        play_turn(board, state, sheet, strict=True)


def test_problems_in_order_lists_point_at_their_item_for_every_game():
    from api import create_app

    client = create_app().test_client()
    start = client.get("/v1/variants/arctic2019/start").get_json()
    orders = {"Russia": ["move 1 ship from KOL to BAR", "zzqx 2 ships"]}
    r = client.post("/v1/adjudicate", json={"state": start, "orders": orders})
    assert r.status_code == 200 and [p["pointer"] for p in r.get_json()["sheet_problems"]] == ["/orders/Russia/1"]
    r = client.post("/v1/adjudicate", json={"state": start, "orders": orders, "lenient": False})
    assert r.status_code == 400 and r.get_json()["pointer"] == "/orders/Russia/1"


def test_arctic_race_refuses_a_sheet_for_another_phase_naming_it(tmp_path):
    game = tmp_path / "race.yaml"
    assert cli("new", "--variant", "arctic-race", "-o", game).exit_code == 0
    sheet = tmp_path / "turns.txt"
    sheet.write_text("Red: 5 move\n")
    r = cli("adjudicate", game, sheet, "-o", tmp_path / "next.yaml")
    assert r.exit_code == 2 and "the game is at its set-up" in r.output and not (tmp_path / "next.yaml").exists()


def test_a_yaml_case_can_expect_a_refused_sheet_and_fails_when_it_is_read():
    from dataclasses import replace

    from adjudicator.game_cases import read_yaml_cases, run_game_case

    case = next(c for c in read_yaml_cases(ROOT / "datc_cases" / "arctic-race" / "06_setup.yaml")
                if c.refusal is not None)
    assert run_game_case(case).passed
    assert not run_game_case(replace(case, refusal="something else")).passed
    assert not run_game_case(replace(case, orders="Red: 5 move")).passed  # read, not refused


def test_strict_names_the_first_problem_once(game, tmp_path):
    sheet = tmp_path / "orders.txt"
    sheet.write_text(SHEET)
    r = cli("adjudicate", game, sheet, "--strict")
    last = r.output.strip().splitlines()[-1]
    assert last.startswith("error:") and "orders.txt:3:" in last and last.count("did you mean") == 1


def test_show_and_the_report_list_neutral_units(tmp_path):
    board = ROOT / "datc_cases" / "features" / "boards" / "neutrals.yaml"
    game = tmp_path / "g.yaml"
    assert cli("new", "--variant", board, "-o", game).exit_code == 0, "new"
    shown = cli("show", game)
    assert shown.exit_code == 0 and "Neutral units: A neu" in shown.output
    r = cli("adjudicate", game, "--no-orders")
    assert r.exit_code == 0 and "  Neutral units: A neu" in r.output


@pytest.mark.parametrize("variant,line", [("arctica", "Remi: migrate fsh from S3"), ("arctic-race", "Red: 5 mvoe"),
                                          ("arctic2019", "Russia: move KOL to Barentz"),
                                          ("standard", "France: A Par - Burgandy")])
def test_every_game_bounds_a_sheet_lines_and_suggestions(variant, line):
    from adjudicator.sheets import MAX_LINES, MAX_SUGGESTED

    board = load_variant(variant)
    rules = rules_of(board)
    state = rules.initial_state(board)
    sheet = rules.read_sheet(board, state, "\n".join([line] * (MAX_SUGGESTED + 30)))
    assert len(sheet.problems) == MAX_SUGGESTED + 30
    assert sum(1 for p in sheet.problems if p.suggestions) == MAX_SUGGESTED
    assert any("first 50 problems" in n for n in sheet.notes)
    assert rules.read_sheet(board, state, "\n".join([line] * (MAX_LINES + 1))).refusal


def test_a_report_quotes_a_huge_bad_line_only_in_part():
    from adjudicator.sheets import SHOWN_TEXT, SheetProblem

    shown = str(SheetProblem(3, 1, "[" * 100_000, "no power for this order"))
    assert len(shown) < SHOWN_TEXT + 100 and "100,000 characters" in shown
    assert str(SheetProblem(3, 1, "A Mxr H", "unknown place")).endswith("'A Mxr H'")
