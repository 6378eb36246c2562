"""Issue 28, the case reader: what a case expects is read as strictly as its position (a line that cannot be read
fails its own case, located), position lines end with a full stop as orders may, and jDip's names (a unique
prefix of a full name) are read in case files only. The case files are datc_cases/formats/."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from adjudicator.games.diplomacy.cases.datc import parse_cases
from adjudicator.case_files import run_files
from adjudicator.games.diplomacy.cases.runner import run_case
from adjudicator.catalogue import load_variant
from adjudicator.cli import main
from adjudicator.errors import OrderError, StateError
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.state import parse_unit_text
from tests.helpers import ROOT

STANDARD = load_variant("standard")


def _case(name: str, after: str, phase: str = "Spring 1901, Movement") -> str:
    return (f"CASE {name}\nPRESTATE_SETPHASE {phase}\nPRESTATE\n  England: F lon\n  France: A par\nORDERS\n"
            f"  England: F lon - nth\n{after}END\n")


GOOD_AFTER = "POSTSTATE\n  England: F nth\n  France: A par\n"


@pytest.mark.parametrize("after, says", [  # `# bad` marks the line the problem must name
    ("POSTSTATE\n  England: F xyz  # bad\n  France: A par\n", "unknown place 'xyz'"),
    ("POSTSTATE\n  England: F nth\n  Freedonia: A par  # bad\n", "unknown power 'Freedonia'"),
    (GOOD_AFTER + "POSTSTATE_DISLODGED\n  France: A Nowhere  # bad\n", "unknown place 'Nowhere'"),
    (GOOD_AFTER + "POSTSTATE_SUPPLYCENTER_OWNERS\n  England: xyz  # bad\n", "unknown place 'xyz'"),
    (GOOD_AFTER + "POSTSTATE_SUPPLYCENTER_OWNERS\n  England: nth  # bad\n", "North Sea is not a supply centre"),
    (GOOD_AFTER + "POSTSTATE_RESULTS\n  SUCCESS: England: F lon - xyz  # bad\n", "unknown place 'xyz'"),
    (GOOD_AFTER + "POSTSTATE_RESULTS\n  SUCCESS: England: F lon nth nth  # bad\n", "unexpected"),
    (GOOD_AFTER + "POSTSTATE_SETPHASE Summer 1901, Movement  # bad\n", "unknown season 'Summer'"),
    (GOOD_AFTER + "POSTSTATE_WINNER Freedonia  # bad\n", "unknown power 'Freedonia'"),
])
def test_an_unreadable_expectation_fails_its_own_case_located(tmp_path, after, says):
    text = "VARIANT_ALL Standard\n" + _case("first", GOOD_AFTER) + _case("broken", after) + _case("last", GOOD_AFTER)
    f = tmp_path / "cases.txt"
    f.write_text(text)
    bad_line = next(i for i, line in enumerate(text.splitlines(), 1) if "# bad" in line)
    outcomes, errors = run_files([f])
    assert errors == []
    assert [(o.case.name, o.passed) for o in outcomes] == [("first", True), ("broken", False), ("last", True)]
    (problem,) = outcomes[1].problems
    assert f"{f}:{bad_line}" in problem and says in problem, problem
    r = CliRunner().invoke(main, ["datc", str(f)])
    assert r.exit_code == 1 and "2 passed, 1 failed" in r.output and "Traceback" not in r.output


def test_the_case_files_of_the_readers_pass():
    outcomes, errors = run_files([ROOT / "datc_cases" / "formats"])
    assert errors == [] and len(outcomes) >= 7
    assert all(o.passed for o in outcomes), [o.problems for o in outcomes if not o.passed]
    prefixed = [n for o in outcomes if o.case.name.startswith("J.") for n in o.notes]
    assert any("read 'Portuga' as Portugal (por), by jDip's rule" in n for n in prefixed)


@pytest.mark.parametrize("text, location", [
    ("F Bulgaria (south coast).", "bul/sc"),
    ("F stp/nc.", "stp/nc"),
    ("Army Paris.", "par"),
    ("F Spa/N.C.", "spa/nc"),
])
def test_a_position_line_may_end_with_a_full_stop(text, location):
    assert parse_unit_text(STANDARD, text, "France").location == location


def test_a_wrong_coast_is_named_plainly():
    with pytest.raises(StateError) as err:
        parse_unit_text(STANDARD, "F Bulgaria (north side)", "Turkey")
    assert err.value.message == "Bulgaria has no coast 'north side'; its coasts are bul/ec, bul/sc"


AMBIGUOUS = ("ambiguous place 'Nort': it starts the full names of North Africa (naf), North Atlantic Ocean (nat), "
             "North Sea (nth)")


@pytest.mark.parametrize("section, line", [
    ("PRESTATE\n  England: F Nort\nORDERS\nPOSTSTATE_SAME\n", 4),
    ("PRESTATE\n  England: F nth\nORDERS\nPOSTSTATE_SAME\nPOSTSTATE_RESULTS\n  SUCCESS: England: F Nort H\n", 8),
])
def test_an_ambiguous_prefix_names_every_place_it_starts(section, line):
    (case,) = parse_cases(f"VARIANT_ALL Standard\nCASE x\n{section}END\n", "f.txt")
    outcome = run_case(case)
    assert not outcome.passed and f"f.txt:{line}" in outcome.problems[0] and AMBIGUOUS in outcome.problems[0]


def test_an_ambiguous_prefix_in_an_order_fails_the_case_located_unless_expected():
    text = "VARIANT_ALL Standard\nCASE x\nPRESTATE\n  England: F nth\nORDERS\n  England: F Nort - nwy\nPOSTSTATE_SAME\n"
    (case,) = parse_cases(text + "END\n", "f.txt")
    outcome = run_case(case)  # an order the suite cannot read fails its case (issue 27, finding 14)
    assert not outcome.passed
    assert any("f.txt:6:14" in p and AMBIGUOUS in p for p in outcome.problems), outcome.problems
    (case,) = parse_cases(text + "POSTSTATE_RESULTS\n  UNREADABLE: England: F Nort - nwy\nEND\n", "f.txt")
    outcome = run_case(case)
    assert outcome.passed, outcome.problems
    assert any("f.txt:6:14" in n and AMBIGUOUS in n for n in outcome.notes), outcome.notes


def test_prefixes_are_read_in_case_files_only():
    with pytest.raises(OrderError, match="unknown place 'Burgund'"):
        parse_order(STANDARD, "A Paris - Burgund")  # a player's sheet, the API: refused with suggestions
    (case,) = parse_cases("VARIANT_ALL Standard\nCASE x\nPRESTATE\n  France: A Paris\nORDERS\n  France: A Paris - Burgund\n"
                          "POSTSTATE\n  France: A Burgund\nEND\n", "f.txt")
    outcome = run_case(case)
    assert outcome.passed and any("read 'A Paris - Burgund' as A par - bur" in n for n in outcome.notes)


def test_the_winner_is_a_power_in_any_case():
    (case,) = parse_cases("VARIANT_ALL Standard\nCASE x\nPRESTATE\n  England: F nth\nORDERS\nPOSTSTATE_SAME\n"
                          "POSTSTATE_WINNER none\nEND\n", "f.txt")
    assert run_case(case).passed
    case.expected_winner = "england"
    outcome = run_case(case)
    assert not outcome.passed and outcome.problems == ["winner differs: expected England, got None"]
