"""Issue 28, variant fidelity: years a calendar reaches (0 and negative too), the checker's warnings and reasons,
a board's own coast ids in orders, and the board features godip's variants need (a strait, a home centre
nobody owns at the start, a year that grows inside the cycle), each of whose case files fails without it."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from adjudicator.games.diplomacy.board_file import board_from_data
from adjudicator.catalogue import board_from_path
from adjudicator.cli import main
from adjudicator.errors import AdjudicatorError, StateError
from adjudicator.gamefile import game_from_data, read_game_file
from adjudicator.games.diplomacy.legal import legal_orders
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.variant_check import check_variant_file
from adjudicator.yamlio import load_yaml_text
from tests.helpers import ROOT
from tests.games.diplomacy.helpers import BASE, BOARDS, failing_cases, feature_outcomes

# ----- the features, each case file failing without its feature -----------------------------------------------


@pytest.mark.parametrize("board, edit, failing", [
    ("straits", lambda t: t.replace(": strait ", ": canal "), {"S.4", "S.5"}),  # no convoy over it
    ("straits", lambda t: t.replace(": strait ", ": water "), {"S.1"}),  # armies walk it
    ("minors", lambda t: t.replace("start_unowned: [tri]", ""), {"M.1", "M.2"}),
    ("hundred", lambda t: t.replace(", advance: 5", ""), {"Y.1", "Y.5"}),
], ids=["strait-as-canal", "strait-as-water", "start-unowned", "advance"])
def test_feature_cases_fail_without_their_feature(tmp_path, board, edit, failing):
    assert failing_cases(feature_outcomes(tmp_path, board, f"{board}.txt")) == set()
    assert failing_cases(feature_outcomes(tmp_path, board, f"{board}.txt", edit)) == failing


def test_legal_orders_offer_the_convoy_over_a_strait_that_the_judge_carries_out():
    board = board_from_path(BOARDS / "straits.yaml")[0]
    game = {"variant": "straits", "phase": {"season": "Spring", "year": 1901, "type": "Movement"},
            "units": {"Blue": ["A sad", "F bal"]}}
    legal = legal_orders(board, game_from_data(game, board=board)[1], "Blue")
    assert "A sad - spn via convoy" in legal["A sad"] and "F bal C A sad - spn" in legal["F bal"]
    assert "A sad - bal" not in legal["A sad"] and "F bal - sad" in legal["F bal"]


def test_the_format_reference_names_the_new_keys():
    doc = (ROOT / "variants" / "FORMAT.md").read_text()
    for key in ("strait", "start_unowned", "advance"):
        assert re.search(rf"`{key}\b", doc), key


# ----- years ----------------------------------------------------------------------------------------------------


def _board_file(tmp_path, start_year: int, name: str = "tiny") -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(BASE.replace("name: tiny", f"name: {name}").replace("year: 1,", f"year: {start_year},"))
    return str(path)


@pytest.mark.parametrize("start", [0, -10])
def test_year_zero_and_negative_years_are_played(tmp_path, start):
    board = _board_file(tmp_path, start)
    runner = CliRunner()
    game = tmp_path / "g.yaml"
    r = runner.invoke(main, ["new", "--variant", board, "-o", str(game)])
    assert r.exit_code == 0, r.output
    assert read_game_file(str(game))[1].phase.year == start  # refused before: "a whole number from 1 to 99999"
    orders = tmp_path / "o.txt"
    orders.write_text("Red: Army Aland - Bland\nBlue: F Bland - Sea\n")
    r = runner.invoke(main, ["adjudicate", str(game), str(orders), "-o", str(tmp_path / "n.yaml")])
    assert r.exit_code == 0, r.output
    moved = read_game_file(str(tmp_path / "n.yaml"))[1]
    assert moved.phase.year == start + 1 and [u.location for u in moved.units.values() if u.power == "Red"] == ["b"]


def test_a_year_the_calendar_never_reaches_is_refused_naming_the_years(tmp_path):
    hundred = board_from_path(BOARDS / "hundred.yaml")[0]
    data = {"variant": "hundred", "phase": {"season": "Spring", "year": 1345, "type": "Movement"}, "units": {}}
    with pytest.raises(StateError) as err:
        game_from_data(data, board=hundred)
    assert ("the Hundred (test board) calendar never comes to Spring 1345 Movement: from its start (Spring 1340 "
            "Movement) it comes to Spring Movement in 1340, 1350, 1360 and so on") in err.value.message
    assert err.value.pointer == "/phase/year"
    assert hundred.reaches("Fall", 1345, "Movement") and hundred.reaches("Fall", 1355, "Retreat")
    assert not hundred.reaches("Fall", 1340, "Movement") and not hundred.reaches("Spring", 1330, "Movement")


def test_years_before_the_start_are_refused_and_text_years_may_be_negative(tmp_path):
    board = board_from_data(load_yaml_text(open(_board_file(tmp_path, -10)).read()))
    base = {"variant": "tiny", "units": {}}
    for year, ok in ((-10, True), ("-9", True), (-11, False), (0, True), ("-", False), (10**6, False)):
        data = {**base, "phase": {"season": "Spring", "year": year, "type": "Movement"}}
        if ok:
            assert game_from_data(data, board=board)[1].phase.year == int(year)
        else:
            with pytest.raises(StateError):
                game_from_data(data, board=board)


def test_a_case_file_may_start_in_a_negative_year_and_names_a_year_never_reached(tmp_path):
    _board_file(tmp_path, -10)
    cases = tmp_path / "cases.txt"
    cases.write_text("VARIANT_ALL tiny.yaml\nCASE ok\nPRESTATE_SETPHASE Spring -9, Movement\nPRESTATE\n  Red: A a\n"
                     "ORDERS\n  Red: Army Aland - Bland\nPOSTSTATE\n  Red: A b\nPOSTSTATE_SETPHASE Spring -8, Movement\nEND\n"
                     "CASE never\nPRESTATE_SETPHASE Spring -20, Movement\nPRESTATE\n  Red: A a\nORDERS\nPOSTSTATE_SAME\n"
                     "END\n")
    r = CliRunner().invoke(main, ["datc", str(cases)])
    assert r.exit_code == 1 and "1 passed, 1 failed" in r.output, r.output
    assert f"{cases}:13: the tiny calendar never comes to Spring -20 Movement" in r.output


def test_advance_is_whole_and_not_on_the_first_phase():
    bad_first = BASE.replace("{season: Spring, type: Movement}, ", "{season: Spring, type: Movement, advance: 2}, ")
    bad_value = BASE.replace("{season: Spring, type: Retreat, centres: true}",
                             "{season: Spring, type: Retreat, centres: true, advance: -1}")
    for text in (bad_first, bad_value):
        with pytest.raises(AdjudicatorError, match="`advance` is a whole number of years"):
            board_from_data(load_yaml_text(text))


# ----- the checker ------------------------------------------------------------------------------------------------


def _checked(tmp_path, text: str) -> list:
    path = tmp_path / "tiny.yaml"
    path.write_text(text)
    return check_variant_file(path)


def test_a_one_way_border_with_no_way_back_is_a_warning_and_the_board_is_played(tmp_path):
    text = BASE.replace("  - b - c : land\n", "  - b - c : land\n  - c > d : land\n").replace(
        "  - {id: s,", "  - {id: d, name: Dland, kind: land}\n  - {id: s,")
    (warning,) = _checked(tmp_path, text)
    assert warning.warning and "no way leads back from d to c" in warning.message
    assert str(warning).endswith(": warning: one-way border c > d: no way leads back from d to c (a unit that "
                                 "crosses can never return)")
    r = CliRunner().invoke(main, ["variant", "check", str(tmp_path / "tiny.yaml")])
    assert r.exit_code == 0 and "tiny.yaml: OK (1 warning)" in r.output and "problem" not in r.output
    assert board_from_path(tmp_path / "tiny.yaml")[0].provinces["d"]  # the loader does not refuse it


def test_an_unreached_coast_names_why(tmp_path):
    onto_but_not_coastal = BASE.replace("  - {id: c, name: Cland, kind: land}",
                                        "  - {id: c, name: Cland, kind: land, coasts: [river, nc]}").replace(
        "  - b - c : land\n", "  - b - c/river : coast\n  - b - c : land\n  - s - c/nc : water\n")
    (problem,) = _checked(tmp_path, onto_but_not_coastal)
    assert problem.message == ("coast c/river: no fleet can reach it in any season: it is neither coastal (no water "
                               "border joins it to open sea) nor marked `river`, so no fleet can stand on it, though "
                               "borders from b lead onto it; mark it `river: [river]` on c if fleets sail up to it")
    fixed = onto_but_not_coastal.replace("coasts: [river, nc]}", "coasts: [river, nc], river: [river]}")
    assert _checked(tmp_path, fixed) == []
    nothing_onto = onto_but_not_coastal.replace("  - b - c/river : coast\n", "")
    (problem,) = _checked(tmp_path, nothing_onto)
    assert "no water, coast, canal or strait border leads onto it" in problem.message


def test_a_boards_own_coast_ids_are_words_of_its_orders(tmp_path):
    text = BASE.replace("  - {id: c, name: Cland, kind: land}",
                        "  - {id: c, name: Cland, kind: land, coasts: [river, nc], river: [river]}").replace(
        "  - b - c : land\n", "  - b - c/river : coast\n  - b - c : land\n  - s - c/nc : water\n")
    assert _checked(tmp_path, text) == []
    board = board_from_path(tmp_path / "tiny.yaml")[0]
    order = parse_order(board, "F b - c/river")
    assert (order.dest, order.dest_coast) == ("c", "river")
    assert parse_order(board, "F c (river) - b").unit.location == "c/river"


def test_a_coast_id_orders_cannot_name_is_a_problem(tmp_path):
    text = BASE.replace("  - {id: c, name: Cland, kind: land}",
                        "  - {id: c, name: Cland, kind: land, coasts: [north_east, nc]}").replace(
        "  - b - c : land\n", "  - s - c/nc : water\n  - b - c : land\n  - s - c/north_east : water\n")
    messages = [p.message for p in _checked(tmp_path, text)]
    assert any(re.match(r"coast c/north_east: orders cannot name it \('F c/north_east' is refused: unexpected '_'", m)
               for m in messages), messages


def test_every_shipped_board_passes_the_checker_with_nothing_to_say():
    for path in sorted((ROOT / "variants").glob("*.yaml")):
        assert check_variant_file(path) == [], path


def test_a_start_phase_the_calendar_does_not_have_is_a_problem(tmp_path):
    text = BASE.replace("type: Movement}\n  phases", "type: Adjustment}\n  phases")
    (problem,) = _checked(tmp_path, text)
    assert problem.message == ("the calendar's start: Spring Adjustment is not a phase of the tiny calendar "
                               "(Spring Movement, Spring Retreat)")
