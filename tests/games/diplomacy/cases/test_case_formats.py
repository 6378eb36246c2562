"""Case files as other tools write them (issue 15 item 4), a problem confined to its case, and linear reading
of hostile case files (issue 16)."""

from __future__ import annotations


import pytest

from adjudicator.games.diplomacy.cases.datc import parse_cases, parse_phase
from adjudicator.case_files import run_files
from adjudicator.games.diplomacy.cases.runner import run_case
from adjudicator.errors import CaseFileError
from tests.helpers import best_time

# godip's reader trims every line, so nothing needs indenting, and its unit pattern makes the colon after the
# power optional; unit letters in any case.
GODIP = """VARIANT_ALL Standard
CASE godip style: a bounce
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
Austria A vie
Italy: a ven
ORDERS
Austria A vie - tyr
Italy: A ven - tyr
POSTSTATE
Austria A vie
Italy a ven
END
CASE godip style: a retreat after a result
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
Germany A bur
PRESTATE_DISLODGED
France A bel
PRESTATE_RESULTS
SUCCESS: Germany A ruh - bur
ORDERS
France A bel - pic
POSTSTATE
Germany A bur
France A pic
END
"""

# jDip: keywords in column 0, data lines indented with tabs, full names, no spaces around the dash.
JDIP = """VARIANT_ALL Standard
CASE 6.A.1 jDip style
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE
\tEngland: F North Sea
\tFrance: F Brest
ORDERS
\tEngland: F North Sea-Picardy
\tFrance: F Brest-English Channel
POSTSTATE
\tEngland: F North Sea
\tFrance: F English Channel
END
"""


def test_godip_cases_run_as_godip_reads_them():
    cases = parse_cases(GODIP, "godip.txt")
    assert [c.problem for c in cases] == [None, None]
    assert cases[0].get("PRESTATE")[0].power == "Austria" and cases[0].get("PRESTATE")[1].text == "a ven"
    outcomes = [run_case(c) for c in cases]
    assert all(o.passed for o in outcomes), [o.problems for o in outcomes]


def test_jdip_cases_run_as_jdip_writes_them():
    outcomes = [run_case(c) for c in parse_cases(JDIP, "jdip.txt")]
    assert [o.passed for o in outcomes] == [True], [o.problems for o in outcomes]


@pytest.mark.parametrize("text, phase", [
    ("Spring 1901, Movement", ("Spring", 1901, "Movement")),
    ("Fall 1901 Retreat", ("Fall", 1901, "Retreat")),
    ("Fall, 1901 (Adjustment)", ("Fall", 1901, "Adjustment")),
    ("S1901M", ("Spring", 1901, "Movement")),
    ("F1902R", ("Fall", 1902, "Retreat")),
    ("W1903A", ("Winter", 1903, "Adjustment")),
])
def test_phases_as_tools_write_them(text, phase):
    assert parse_phase(text, "f", 1) == phase


@pytest.mark.parametrize("text", ["Spring", "Spring 19x1, Movement", "Spring 1901, Moving", "Spring " + "9" * 5000])
def test_an_unreadable_phase_is_located(text):
    with pytest.raises(CaseFileError) as err:
        parse_phase(text, "f.txt", 7)
    assert err.value.line == 7 and len(err.value.message) < 200


def _good(name: str) -> str:
    return f"CASE {name}\nPRESTATE\n  England: F lon\nORDERS\n  England: F lon - nth\nPOSTSTATE\n  England: F nth\nEND\n"


@pytest.mark.parametrize("bad, line, says", [
    ("CASE broken\nPRESTATE_SETPHASE Sprung nineteen-oh-one\nPRESTATE\n  England: F lon\nEND\n", 11, "phase"),
    ("CASE broken\nPRESTATE\n  England\nEND\n", 12, "cannot read"),
    ("CASE broken\nPRESTATE\n  England: F lon\nPOSTSTATE_DISLODGE\nEND\n", 13, "unknown keyword"),
    ("CASE broken\nPRESTATE\n  England: F lon\nPOSTSTATE_RESULTS\n  England: F lon H\nEND\n", 14, "SUCCESS"),
])
def test_a_case_with_a_problem_fails_alone_located(tmp_path, bad, line, says):
    f = tmp_path / "cases.txt"
    f.write_text("VARIANT_ALL Standard\n" + _good("first") + bad + _good("last"), encoding="utf-8")
    outcomes, errors = run_files([f])
    assert errors == []
    assert [(o.case.name, o.passed) for o in outcomes] == [("first", True), ("broken", False), ("last", True)]
    problem = outcomes[1].problems[0]
    assert f"{f}:{line}:" in problem and says in problem


def test_a_case_without_end_fails_and_the_next_case_still_runs():
    text = "VARIANT_ALL Standard\nCASE open\nPRESTATE\n  England: F lon\n" + _good("next")
    cases = parse_cases(text, "f.txt")
    assert [c.name for c in cases] == ["open", "next"]
    assert cases[0].problem is not None and "END" in cases[0].problem.message and cases[1].problem is None


def test_a_text_with_no_readable_case_is_refused_whole():
    with pytest.raises(CaseFileError) as err:
        parse_cases("VARIANT_ALL Standard\nCASE x\nBOGUS\n", "f.txt")
    assert err.value.line == 3


def _seconds(text: str) -> float:
    def read() -> None:
        try:
            parse_cases(text, "f.txt")
        except CaseFileError:
            pass

    return best_time(read)


HOSTILE = {
    "spaces in a data line": lambda n: "CASE x\nPRESTATE\n  England:" + " " * n + "F lon\nEND\n",
    "spaces before a colon": lambda n: "CASE x\nPRESTATE\n  England" + " " * n + "\nEND\n",
    "tabs in a phase": lambda n: "CASE x\nPRESTATE_SETPHASE Spring" + "\t" * n + "1901,\t\tMovement\nEND\n",
    "spaces and commas in a phase": lambda n: "CASE x\nPRESTATE_SETPHASE Spring 1901" + " ," * (n // 2) + "\nEND\n",
    "a long keyword": lambda n: "CASE x\n" + "PRESTATE_" * (n // 9) + "\nEND\n",
    "results junk": lambda n: "CASE x\nPOSTSTATE_RESULTS\n  SUCCESS:" + " :" * (n // 2) + "\nEND\n",
    "a line of blanks": lambda n: "CASE x\n" + " \t" * (n // 2) + "\nEND\n",
    "comments": lambda n: "CASE x\n" + "# " * (n // 2) + "\nEND\n",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_the_case_reader_is_linear_on_hostile_lines(kind):
    make = HOSTILE[kind]
    _seconds(make(1000))
    small, large = _seconds(make(10_000)), _seconds(make(100_000))
    ratio = large / max(small, 1e-6)
    print(f"case reader, {kind}: 10k {1e3 * small:.2f} ms, 100k {1e3 * large:.2f} ms, ratio {ratio:.1f}")
    assert ratio < 30 or large < 0.01  # linear is ~10; quadratic would be ~100
