"""The board-format features real maps need (variants/FORMAT.md): each feature's case file fails when the
feature is taken out of its test board, and the rules behind them, unit by unit."""

from __future__ import annotations

import re
import shutil
import time

import pytest
import yaml

from adjudicator.games.diplomacy.board import NEUTRAL
from adjudicator.games.diplomacy.board_file import board_from_data, options_from_data, parse_border_text
from adjudicator.games.diplomacy.rulebook import Rulebook, Victory
from adjudicator.case_files import run_files
from adjudicator.catalogue import board_from_path
from adjudicator.errors import AdjudicatorError
from adjudicator.gamefile import game_from_data, game_to_data
from adjudicator.games.diplomacy.judge.adjustment import civil_disorder_order
from adjudicator.games.diplomacy.phase import adjudicate, winner
from adjudicator.games.diplomacy.state import GameState, Phase, Unit, opening_state
from adjudicator.variant_check import check_variant_file
from adjudicator.yamlio import load_yaml_text
from tests.games.diplomacy.helpers import BOARDS, FEATURES, failing_cases, feature_outcomes
from tests.helpers import ROOT

def test_every_feature_case_passes_and_every_test_board_is_sound():
    outcomes, errors = run_files([FEATURES])
    assert not errors and outcomes and all(o.passed for o in outcomes), [o.problems for o in outcomes if not o.passed]
    for board in BOARDS.glob("*.yaml"):
        assert check_variant_file(board) == [], board


@pytest.mark.parametrize("edit, failing", [
    (lambda t: t.replace(": canal", ": water"), {"W.2"}),  # a water border lets the army through
    (lambda t: t.replace("rap > low", "rap - low"), {"W.6", "W.7"}),
    (lambda t: t.replace(", convoys: true", ""), {"W.4"}),
    (lambda t: t.replace(", river: true, river_builds: true", "").replace(", river: true", ""), {"W.8", "W.9", "W.11"}),
    (lambda t: t.replace(", river_builds: true", ""), {"W.11"}),
], ids=["canal", "one-way", "archipelago", "river", "river-builds"])
def test_waterway_cases_fail_without_their_feature(tmp_path, edit, failing):
    assert failing_cases(feature_outcomes(tmp_path, "waterways", "waterways.txt", edit)) == failing


@pytest.mark.parametrize("edit, failing", [
    (lambda t: t.replace("  year_step: 5\n", ""), {"C.4"}),
    (lambda t: t.replace(", victory: false", ""), {"C.3"}),
    (lambda t: t.replace("victory: {rule: lead, lead: 2}", ""), {"C.4"}),
    (lambda t: t.replace("    - {season: Spring, type: Movement}\n",
                         "    - {season: Spring, type: Movement}\n    - {season: Spring, type: Retreat}\n"), {"C.2"}),
], ids=["year-step", "victory-step", "lead", "spring-retreat"])
def test_calendar_cases_fail_without_their_feature(tmp_path, edit, failing):
    assert failing_cases(feature_outcomes(tmp_path, "calendar", "calendar.txt", edit)) == failing


def test_neutral_cases_fail_without_rebuilding_or_the_default_victory(tmp_path):
    assert failing_cases(feature_outcomes(tmp_path, "neutrals", "neutrals.txt", lambda t: t.replace("rebuilt: true", "rebuilt: false"))) == {"N.6"}
    assert failing_cases(feature_outcomes(tmp_path, "neutrals", "neutrals.txt", lambda t: t + "\nvictory: 4\n")) == {"N.8"}


@pytest.mark.parametrize("edit, failing", [
    (lambda t: t.replace("start_owners:\n  Red: [exe]\n", ""), {"B.2"}),
    (lambda t: t.replace("build_sites:\n  Blue: [{province: stk, units: [A], needs_ownership: false}]\n", ""), {"B.3"}),
    (lambda t: t.replace('4.D.8: "2023"', "4.D.8: home-centres"), {"B.4"}),
    (lambda t: t.replace("builds: home", "builds: owned"), {"B.1"}),
], ids=["start-owners", "build-site", "civil-disorder", "builds-owned"])
def test_build_cases_fail_without_their_feature(tmp_path, edit, failing):
    assert failing_cases(feature_outcomes(tmp_path, "builds", "builds.txt", edit)) == failing


def test_per_game_options_are_what_the_yaml_cases_test(tmp_path):
    text = (FEATURES / "builds-options.yaml").read_text()
    (tmp_path / "boards").mkdir()
    shutil.copy(BOARDS / "builds.yaml", tmp_path / "boards" / "builds.yaml")
    (tmp_path / "o.yaml").write_text("\n".join(line for line in text.splitlines() if "options:" not in line
                                               or "poststate" in line))
    outcomes, errors = run_files([tmp_path / "o.yaml"])
    assert not errors
    assert {o.case.name.split(" ")[0] for o in outcomes if not o.passed} == {"O.1", "O.2", "O.3"}


# ----- the rules, unit by unit ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def waterways():
    return board_from_path(BOARDS / "waterways.yaml")[0]


def test_border_entries_are_read_by_splitting():
    assert parse_border_text("a - b : water") == parse_border_text("a-b:water")
    one_way = parse_border_text("rap > low : land")
    assert (one_way.a, one_way.b, one_way.one_way) == ("rap", "low", True)
    coast = parse_border_text("lon - wal : coast [eng, iri] (B12)")
    assert coast.seas == ("eng", "iri") and coast.kind == "coast"
    for bad in ("a b : land", "a - b", "a - b : coast [eng", "a - b : two words", "a ~ b : land"):
        assert parse_border_text(bad) is None, bad
    hostile = "a-" * 100_000 + " : " + " " * 100_000 + "x"
    start = time.perf_counter()
    assert parse_border_text(hostile) is None and parse_border_text("-" * 200_000 + ":land") is None
    assert time.perf_counter() - start < 0.5  # linear: no backtracking


def test_a_canal_carries_fleets_between_land_provinces_but_no_army(waterways):
    assert waterways.can_move("F", "aaa", "bbb", "Spring") and waterways.can_move("F", "bbb", "aaa", "Spring")
    assert not waterways.can_move("A", "aaa", "bbb", "Spring")


def test_a_one_way_border_is_directed(waterways):
    assert waterways.can_move("A", "rap", "low", "Fall") and not waterways.can_move("A", "low", "rap", "Fall")


def test_a_river_coast_carries_fleets_and_no_fleet_move_lands_where_a_fleet_cannot_stand(waterways):
    view = waterways.season("Spring")
    assert "riv" in view.fleet_stand and "riv" not in view.coastal
    assert all(d in view.fleet_stand for _, d in view.fleet.edges)  # never accepted, then "disbanded by the ice"
    data = load_yaml_text((BOARDS / "waterways.yaml").read_text())
    for p in data["provinces"]:
        p.pop("river", None)
    plain = board_from_data(data)  # the same board without river coasts: the move is refused, not accepted
    state = GameState("waterways", Phase("Spring", 1901, "Movement"), {"ddd": Unit("Blue", "F", "ddd")})
    sheet_orders = __import__("adjudicator.games.diplomacy.orders.sheet", fromlist=["read_sheet"]).read_sheet(plain, "Blue: F ddd - riv").orders
    result = adjudicate(plain, state, sheet_orders)
    assert result.report[0].status == "illegal" and not result.disbanded_by_terrain
    assert result.next_state.units == state.units


def test_the_archipelago_is_a_convoy_space_only_while_it_is_land(waterways):
    assert waterways.can_convoy_from("isl", "Spring") and not waterways.can_convoy_from("ddd", "Spring")


def test_neutral_units_start_on_the_board_and_round_trip_in_game_files():
    board = board_from_path(BOARDS / "neutrals.yaml")[0]
    start = opening_state(board)
    assert start.units["neu"] == Unit(NEUTRAL, "A", "neu")
    data = game_to_data(board, start)
    assert data["units"]["Neutral"] == ["A neu"]
    again = game_from_data({**data, "variant": "neutrals"}, None, board)[1]
    assert again.units == start.units
    assert "neu" not in start.owners


def test_options_are_read_with_clear_errors():
    base = Rulebook()
    assert options_from_data({"builds": "owned"}, None, base).builds == "owned"
    assert options_from_data({"victory": 7}, None, base).victory == Victory("centres", 7, 0)
    assert options_from_data({"victory": {"lead": 2}}, None, base).victory == Victory("lead", 0, 2)
    for raw, words in (({"builds": "anywhere"}, "home, owned, any-home"), ({"speed": 1}, "unknown key 'speed'"),
                       ({"civil_disorder": "random"}, "2023, home-centres, godip"),
                       ({"victory": {"rule": "lead"}}, "lead of at least 1"), ({"victory": True}, "number of centres")):
        with pytest.raises(AdjudicatorError, match=words):
            options_from_data(raw, "f.yaml", base)


def test_a_game_file_overrides_the_victory_option():
    board = board_from_path(BOARDS / "builds.yaml")[0]
    data = {"phase": "Fall 1901 Adjustment", "centres": {"Red": ["r1", "r2"]}, "units": {"Red": ["A r1", "A r2"]}}
    _, plain = game_from_data({"variant": "builds", **data}, None, board)
    assert winner(board, plain) is None  # 2 of 6 centres; more than half is 4
    _, own = game_from_data({"variant": "builds", **data, "options": {"victory": {"centres": 2}}}, None, board)
    assert winner(board, own) == "Red"
    assert game_to_data(board, own)["options"] == {"victory": {"rule": "centres", "centres": 2, "lead": 0}}
    with pytest.raises(AdjudicatorError) as exc:
        game_from_data({"variant": "builds", **data, "options": {"builds": "nowhere"}}, "g.yaml", board)
    assert exc.value.pointer == "/options"


def test_the_two_civil_disorder_rules_pick_different_units():
    board = board_from_path(BOARDS / "builds.yaml")[0]
    units = [Unit("Red", "A", "p1"), Unit("Red", "A", "p3")]
    state = GameState("builds", Phase("Fall", 1901, "Adjustment"), {u.province: u for u in units}, {"far": "Red"})
    assert civil_disorder_order(board, state, "Red", units)[0].province == "p1"  # farthest from Far (owned)
    state.options = Rulebook(civil_disorder="home-centres")
    assert civil_disorder_order(board, state, "Red", units)[0].province == "p3"  # farthest from Redholm (home)


def _board_text(**changes: str) -> str:
    text = (BOARDS / "waterways.yaml").read_text()
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("old, new, message", [
    ("  - riv - upr : coast        # and on up the river\n", "", "river coast upr: no fleet can reach it"),
    ("  - hil - rap : land\n", "  - hil - rap : land\n  - hil > pit : land\n", "no way leads back from pit to hil"),
    ("start:\n", "build_sites:\n  Red: [{province: hil}]\nstart:\n", "build site hil of Red is not a supply centre"),
    ("start:\n", "start_owners:\n  Red: [hil]\nstart:\n", "start_owners: Red is given 'hil'"),
    ("start:\n", "neutral: {units: [F hil]}\nstart:\n", "neutral unit F hil cannot stand"),
    ("{id: bbb, name: Bayside, kind: land}", "{id: bbb, name: Bayside, kind: land, coasts: [nc, sc]}",
     "coast bbb/nc: no fleet can reach it"),
], ids=["unreachable-river", "one-way-trap", "build-site", "start-owner", "neutral-unit", "unreachable-coast"])
def test_checker_rules_for_the_new_features(tmp_path, old, new, message):
    path = tmp_path / "waterways.yaml"
    text = _board_text(**{old: new}) if old != "start:\n" else (BOARDS / "waterways.yaml").read_text().replace(old, new, 1)
    if "pit" in new:
        text = text.replace("provinces:\n", "provinces:\n  - {id: pit, name: Pit, kind: land}\n")
    path.write_text(text)
    problems = check_variant_file(path)
    assert any(message in p.message for p in problems), [p.message for p in problems]
    assert all(p.line for p in problems if message in p.message)


def test_board_file_format_reference_names_every_key():
    doc = " ".join(re.findall(r"`([^`\n]+)`", (ROOT / "variants" / "FORMAT.md").read_text()))  # the code spans
    keys = {"name", "title", "rules", "powers", "terrain", "calendar", "provinces", "borders", "start",
            "start_owners", "neutral", "build_sites", "victory", "options", "coast_names", "drawing", "year_step",
            "convoys", "river", "river_builds", "canal", "civil_disorder", "builds", "needs_ownership", "rebuilt",
            "default_builds", "by_year", "set"}
    for key in keys:
        assert re.search(rf"\b{key}\b", doc), key
    for board in ("standard", "arctic"):
        data = yaml.safe_load((ROOT / "variants" / f"{board}.yaml").read_text())
        assert all(re.search(rf"\b{k}\b", doc) for k in data), board
