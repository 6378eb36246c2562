"""Messages for people (issue 27): each reason says each thing once, no word of an order is dropped, suggestions
come ranked by closeness and kind of place, and an illegal move hears of the place it may have meant."""

from __future__ import annotations

from adjudicator.catalogue import load_variant
from adjudicator.games.diplomacy.orders.sheet import read_sheet
from adjudicator.games.diplomacy.phase import adjudicate
from adjudicator.games.diplomacy.state import opening_state


def judged(variant: str, text: str):
    """The report lines of the opening phase of `variant` judged with the sheet `text`."""
    board = load_variant(variant)
    state = opening_state(board)
    sheet = read_sheet(board, text, state=state)
    return sheet, adjudicate(board, state, sheet.orders).report


def line_of(report, text: str):
    return next(r for r in report if r.text == text)


def said_twice(reason: str) -> list[str]:
    """The clauses of a reason (between semicolons) that it says more than once."""
    clauses = [c.strip() for c in reason.split(";")]
    return sorted({c for c in clauses if clauses.count(c) > 1})


def test_each_reason_says_each_thing_once():
    # Finding 7: "...; the unit holds; the unit holds". An illegal move, several different orders, an illegal
    # order of a unit then dislodged: each on the standard and the Arctic board.
    _, report = judged("standard", """
France: A Par - Mun
France: A Mar - Bur
France: A Mar - Spa
Germany: F Kie - Ber
Germany: F Kie - Hol
Germany: A Mun - Par
Italy: A Ven - Mun
Austria: A Vie - Tyr
""")
    assert line_of(report, "A Par - Mun").reason == ("Munich is not adjacent to Paris, and no fleets could convoy it "
                                                     "there; the unit holds")
    assert line_of(report, "A Mar - Spa").reason == ("the unit was given several different orders, 'A Mar - Bur' and "
                                                     "'A Mar - Spa': none is used (DATC 4.D.3: hold); it holds (and "
                                                     "may receive hold support)")
    _, arctic = judged("arctic", "Norway: F Osl - NWG\nRussia: A Arc - Kam\n")
    for r in [*report, *arctic]:
        assert not said_twice(r.reason), r.reason


def test_a_removal_at_a_movement_phase_is_refused_naming_the_phase_not_read_as_a_hold():
    # Finding 6: `- F Lon` (a removal, as webDiplomacy writes it) was read as `F Lon H`, its `-` dropped.
    sheet, report = judged("standard", "England:\n- F Lon\n- A Lvp - Yor\n* F Edi - Nth\n+ A Lvp\n")
    assert [o.kind for o in sheet.orders] == ["remove", "move", "move", "build"]  # a bullet before a whole order
    removal = line_of(report, "- F Lon")
    assert removal.status == "illegal"
    assert "a removal is ordered at an adjustment phase; the game is at Spring 1901 Movement" in removal.reason
    assert "build is ordered at an adjustment phase" in line_of(report, "+ A Lvp").reason


def test_an_adjustment_order_at_a_movement_phase_is_a_report_line_not_a_traceback():
    _, report = judged("standard", "France: waive\nGermany: Build A Ruh\nFrance: A Par - Bur\n")
    assert line_of(report, "waive").reason.startswith("a waived build is ordered at an adjustment phase")
    assert line_of(report, "Build A Ruh").reason.endswith("; it is ignored")  # no German unit stands there
    assert line_of(report, "A Par - Bur").status == "succeeds"


def test_an_illegal_move_hears_of_the_adjacent_place_spelt_like_its_destination():
    # Finding 9: `F Osl - NWG` (Northwest Greenland) was "not adjacent", with no word of Nwg (Norwegian Sea).
    _, report = judged("arctic", "Norway: F Osl - NWG\nRussia: A Arc - Kam\n")
    assert line_of(report, "F Osl - NWG").reason == ("Northwest Greenland is not adjacent to Oslo, but Nwg (Norwegian "
                                                     "Sea) is: did you mean it?; the unit holds")
    assert "did you mean" not in line_of(report, "A Arc - Kam").reason  # nothing there is spelt like Kamchatka
    _, standard = judged("standard", "France: A Par - Mun\n")
    assert "did you mean" not in line_of(standard, "A Par - Mun").reason


def suggestions(variant: str, line: str) -> list[str]:
    board = load_variant(variant)
    (problem,) = read_sheet(board, line, state=opening_state(board)).problems
    return problem.suggestions


def test_suggestions_are_ranked_by_closeness_and_kind_of_place():
    # Finding 9: `Uar` suggested Europe before Ural Mountains (two letters swapped are one slip, not two).
    assert suggestions("arctic", "Russia: A Arc - Uar")[0] == "Ural Mountains (Ura)"
    assert suggestions("arctic", "Russia: A Pev - Uar")[0] == "Ural Mountains (Ura)"
    # the kind of place, when none is within reach: for an army, land before a sea spelt as closely
    assert suggestions("standard", "Russia: A Ukr - Bxr")[0] == "Berlin (ber)"
    assert suggestions("standard", "Russia: F Sev - Bxr")[0] == "Barents Sea (bar)"


def test_an_unknown_variant_gets_a_did_you_mean():
    import pytest

    from adjudicator.errors import AdjudicatorError

    with pytest.raises(AdjudicatorError) as caught:
        load_variant("artic")
    assert caught.value.suggestions[0] == "arctic"
    with pytest.raises(AdjudicatorError) as caught:
        load_variant("standrad")
    assert caught.value.suggestions == ["standard"]


STATE = {"variant": "standard", "phase": "Spring 1901 Movement", "units": {"France": ["A Par"]}}


def test_the_apis_schema_errors_are_told_in_words():
    # Finding 13: `/orders: {'France': 'A Par - Bur'} is not valid under any of the given schemas`.
    from api import create_app

    client = create_app().test_client()
    cases = [
        ({"state": STATE, "orders": {"France": "A Par - Bur"}}, "/orders",
         '/orders: expected a string, an object mapping names to lists of strings or a list of order objects, '
         'but came an object: {"France": "A Par - Bur"}; /orders/France: expected a list of strings, but came a '
         'string: "A Par - Bur"'),
        ({"state": {"phase": "Spring 1901 Movement"}}, "/state", "/state: the field `variant` or `board` is missing"),
        ({"orders": []}, "", "the body: the field `state` is missing"),
        ({"state": STATE, "lenient": "yes"}, "/lenient", '/lenient: expected true or false, but came a string: "yes"'),
        ({"state": STATE, "colour": 1}, "", "the body: unknown field `colour`; the fields are `history`, `lenient`, "
                                             "`orders`, `rules`, `state`"),
    ]
    for body, pointer, detail in cases:
        answer = client.post("/v1/adjudicate", json=body).get_json()
        assert (answer["status"], answer["pointer"], answer["detail"]) == (400, pointer, detail)
        assert "{'" not in answer["detail"]  # no Python repr


# --- issue 34, finding 9: reasons that say what happened -------------------------------------------------------

def test_a_build_at_a_movement_phase_says_what_stands_in_its_place_not_that_the_unit_holds():
    _, report = judged("arctic", "Norway:\n  F Osl - Nwg\n  Build A Osl\n")
    build = line_of(report, "Build A Osl")
    assert build.status == "illegal" and "the unit holds" not in build.reason
    assert build.reason.startswith("a build is ordered at an adjustment phase; the game is at Fall 2010 Movement")
    assert "Oslo is occupied by F Osl" in build.reason
    assert line_of(report, "F Osl - Nwg").status == "succeeds"
    _, report = judged("arctic", "Norway:\n  F Osl - Nwg\n  Remove F Osl\n  Remove F Tro\n")
    assert "the unit holds" not in line_of(report, "Remove F Osl").reason  # F Osl moved
    assert line_of(report, "Remove F Tro").reason.endswith("; the unit holds")  # F Tro has no other order
    assert not any(r.text == "F Tro H" for r in report)  # (the refusal is F Tro's line)


def test_a_movement_order_at_an_adjustment_phase_is_refused_naming_the_phase():
    from adjudicator.games.diplomacy.state import GameState, Phase, Unit

    board = load_variant("standard")
    units = {"bur": Unit("France", "A", "bur"), "mar": Unit("France", "F", "mar"),
             "mun": Unit("Germany", "A", "mun"), "kie": Unit("Germany", "F", "kie"),
             "ber": Unit("Germany", "A", "ber")}
    owners = {"par": "France", "bre": "France", "mar": "France", "mun": "Germany", "kie": "Germany",
              "ber": "Germany"}
    state = GameState("standard", Phase("Fall", 1901, "Adjustment"), units, owners)
    sheet = read_sheet(board, "France: Build A Par\nFrance: A Bur - Mun\nGermany: A Mun - Ruh\n", state=state)
    report = adjudicate(board, state, sheet.orders).report
    for text in ("A Bur - Mun", "A Mun - Ruh"):  # one power due a build, one due nothing
        line = line_of(report, text)
        assert line.status == "illegal", line
        assert line.reason == "a move is ordered at a movement phase; the game is at Fall 1901 Adjustment; it is ignored"
    assert line_of(report, "Build A Par").status == "succeeds"


def test_a_line_that_is_no_order_with_a_comma_is_said_to_be_no_order():
    board = load_variant("standard")
    (problem,) = read_sheet(board, "France:\nCheers, Bob\n", state=opening_state(board)).problems
    assert "unexpected ','" not in problem.reason and problem.column == 1
    assert problem.reason.startswith("not an order: 'Cheers, Bob'") and "a comma separates orders" in problem.reason
    (problem,) = read_sheet(board, "France: A Par - Bur, Pic\n", state=opening_state(board)).problems
    assert "unexpected ','" in problem.reason  # an order, then no order after its comma: the comma is reported


def test_a_plain_line_under_a_header_naming_another_powers_unit_is_told_which_header_it_was_read_for():
    from adjudicator.games.diplomacy.report import with_hints

    board = load_variant("standard")
    state = opening_state(board)
    sheet = read_sheet(board, "France:\nA Par - Bur\nGermany: A Mun - Ruh\nF Kie - Hol\n", state=state)
    report = with_hints(adjudicate(board, state, sheet.orders), sheet)  # (as every report of the phase is written)
    line = line_of(report, "F Kie - Hol")
    assert line.status == "ignored" and line.power == "France"
    assert line.reason == ("the unit in kie belongs to Germany, not France: this line is read for France (the header "
                           "on line 1); the `Germany:` on line 3 applies to its own line only")
    assert sheet.header_lines == {2: 1, 4: 1}  # line 3 named its own power


def test_parse_shows_the_power_each_line_was_read_for(tmp_path):
    import json

    from click.testing import CliRunner

    from adjudicator.cli import main
    from api import create_app

    game, orders = tmp_path / "g.yaml", tmp_path / "o.txt"
    assert CliRunner().invoke(main, ["new", "--variant", "standard", "-o", str(game)]).exit_code == 0
    text = "France:\nA Par - Bur\nGermany: A Mun - Ruh\nF Kie - Hol\nA Mar - Bxr\n"
    orders.write_text(text)
    out = CliRunner().invoke(main, ["parse", str(game), str(orders)]).output
    assert "line 2 (France, the header on line 1): A par - bur" in out
    assert "line 3 (Germany): A mun - ruh" in out
    assert "line 4 (France, the header on line 1): F kie - hol  [this line is read for France" in out
    assert "line 5, column 9 (France): unknown place 'Bxr'" in out
    data = json.loads(CliRunner().invoke(main, ["parse", str(game), str(orders), "--json"]).output)
    assert [(o["line"], o["power"], o["header_line"]) for o in data["orders"]] == [
        (2, "France", 1), (3, "Germany", None), (4, "France", 1)]
    assert data["sheet_problems"][0]["power"] == "France"
    answer = create_app().test_client().post("/v1/orders/parse", json={"variant": "standard", "orders": text})
    assert answer.status_code == 200
    assert [(o["power"], o["header_line"]) for o in answer.get_json()["orders"]] == [
        ("France", 1), ("Germany", None), ("France", 1)]


def test_unreadable_lines_name_their_power_and_lists_of_two_powers_do_not_collide():
    from adjudicator.games.diplomacy.orders.sheet import orders_from_lists

    board = load_variant("standard")
    sheet = orders_from_lists(board, {"France": ["A Par - Bxr"], "Germany": ["A Mun - Bxr"]}, opening_state(board))
    assert [(p.line, p.power) for p in sheet.problems] == [(1, "France"), (1, "Germany")]
    assert [str(p).split(":")[0] for p in sheet.problems] == ["line 1, column 9 (France)", "line 1, column 9 (Germany)"]
    assert [p.to_json()["power"] for p in sheet.problems] == ["France", "Germany"]


def test_the_text_report_keeps_the_sheets_order_within_each_power():
    from adjudicator.games.diplomacy.report import result_text

    board = load_variant("arctic")
    state = opening_state(board)
    sheet = read_sheet(board, "Norway:\n  F Osl - Nwg\n  Build A Osl\n  F Tro - Bar\n", state=state)
    text = result_text(board, adjudicate(board, state, sheet.orders), sheet)
    norway = text.split("Norway:\n")[1].split("\n\n")[0].splitlines()
    assert [line.strip()[:11].strip() for line in norway] == ["F Osl - Nwg", "Build A Osl", "F Tro - Bar", "A Lyb H"]


def test_two_orders_for_one_unit_say_which_is_used_by_the_rule_that_chose():
    board = load_variant("standard")
    for rules, used in (("datc-3.0", None), ("4.D.3: first", "A Par - Bur"), ("4.D.3: last", "A Par - Pic")):
        state = opening_state(board)
        state.set_rules(board, rules)
        sheet = read_sheet(board, "France: A Par - Bur\nFrance: A Par - Pic\n", state=state)
        report = adjudicate(board, state, sheet.orders).report
        given = "'A Par - Bur' and 'A Par - Pic'"
        if used is None:  # the project's policy (DATC v3.0's preference): neither is used, the unit holds
            for text in ("A Par - Bur", "A Par - Pic"):
                assert line_of(report, text).reason.startswith(f"the unit was given several different orders, "
                                                               f"{given}: none is used (DATC 4.D.3: hold)")
        else:
            other = next(r for r in report if r.text in ("A Par - Bur", "A Par - Pic") and r.text != used)
            assert other.status == "ignored"
            assert f"the {rules[-5:].strip()}, '{used}', is used (DATC 4.D.3: " in other.reason
            assert line_of(report, used).status == "succeeds"
