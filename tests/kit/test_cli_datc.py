"""`adjudicator datc`: the report, the closing line, exit status, and clear errors for bad files."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from adjudicator.cli import main
from tests.helpers import ROOT

GOOD = """VARIANT_ALL Standard
CASE good
PRESTATE
    England: A lvp
ORDERS
    England: A lvp-edi
POSTSTATE
    England: A edi
END
"""
BAD_EXPECTATION = GOOD.replace("CASE good", "CASE wrong").replace("England: A edi", "England: A yor")


def _run(*args):
    return CliRunner().invoke(main, list(args))


def test_passing_file(tmp_path):
    f = tmp_path / "c.txt"
    f.write_text(GOOD)
    r = _run("datc", str(f))
    assert r.exit_code == 0
    assert r.output.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_failing_case_shows_expected_and_actual(tmp_path):
    f = tmp_path / "c.txt"
    f.write_text(GOOD + "\n" + BAD_EXPECTATION)
    r = _run("datc", str(f))
    assert r.exit_code == 1
    assert "FAIL wrong" in r.output
    assert "expected, not found: England: A yor" in r.output and "found, not expected: England: A edi" in r.output
    assert r.output.strip().splitlines()[-1] == "1 passed, 1 failed"


def test_malformed_case_file_names_file_and_line(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("VARIANT_ALL Standard\nCASE x\nPRESTATE\n    England A\nEND\n")
    r = _run("datc", str(f))
    assert r.exit_code == 1
    assert f"{f}:4: cannot read the unit 'A'" in r.output
    assert "Traceback" not in r.output


def test_missing_end_and_unknown_keyword(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("VARIANT_ALL Standard\nCASE x\nPRESTATES\n")
    r = _run("datc", str(f))
    assert "unknown keyword 'PRESTATES'" in r.output and ":3:" in r.output


def test_unknown_place_in_a_case_is_reported_with_its_line(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text(GOOD.replace("England: A lvp\nORDERS", "England: A lxp\nORDERS"))
    r = _run("datc", str(f))
    assert r.exit_code == 1
    assert f"{f}:4: unknown place 'lxp'" in r.output and "Liverpool" in r.output and "Traceback" not in r.output


def test_unreadable_order_fails_its_case_not_a_crash(tmp_path):
    f = tmp_path / "c.txt"
    f.write_text(GOOD.replace("England: A lvp-edi", "England: A lvp-edi\n    England: F qqq - lon"))
    r = _run("datc", "-v", str(f))
    assert r.exit_code == 1 and "an order could not be read" in r.output and "unknown place 'qqq'" in r.output
    assert "Traceback" not in r.output


def test_missing_file(tmp_path):
    r = _run("datc", str(tmp_path / "nope.txt"))
    assert r.exit_code == 2 and "no such file" in r.output  # a file that cannot be read: 2
    # it is no failed case (issue 34): nothing ran, and the closing line says so
    assert r.output.strip().splitlines()[-1] == "0 passed, 0 failed; 1 file(s) could not be read, their cases not run"
    good = tmp_path / "c.txt"
    good.write_text(GOOD)
    r = _run("datc", str(good), str(tmp_path / "nope.txt"))
    assert r.exit_code == 2
    assert r.output.strip().splitlines()[-1] == "1 passed, 0 failed; 1 file(s) could not be read, their cases not run"


def _readme_modules() -> list[str]:
    """Every module the README runs with `python -m` (pip and pytest aside)."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return sorted(set(re.findall(r"python -m\s+(adjudicator[\w.]*)", text)))


def test_every_module_the_readme_runs_has_help_and_exit_codes_and_no_warning(tmp_path):
    modules = _readme_modules()
    assert "adjudicator.games.diplomacy.picture.stored" in modules and "adjudicator.games.diplomacy.importers.shipped" in modules
    for module in modules:
        run = lambda *args: subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-m", module, *args],  # noqa: E731
                                           capture_output=True, text=True, cwd=tmp_path, timeout=120)
        helped = run("--help")
        assert helped.returncode == 0 and "usage:" in helped.stdout.lower(), (module, helped.stderr)
        assert helped.stderr == "" and "Traceback" not in helped.stdout, (module, helped.stderr)
        wrong = run("--no-such-option")
        assert wrong.returncode == 2 and "Traceback" not in wrong.stderr, (module, wrong.stderr)
    stored = subprocess.run([sys.executable, "-m", "adjudicator.games.diplomacy.picture.stored", "nosuch"], capture_output=True,
                            text=True, cwd=tmp_path, timeout=120)
    assert stored.returncode == 2 and stored.stderr.startswith("error: unknown variant 'nosuch'"), stored.stderr
    assert "Traceback" not in stored.stderr and "RuntimeWarning" not in stored.stderr
    shipped = subprocess.run([sys.executable, "-m", "adjudicator.games.diplomacy.importers.shipped", str(tmp_path / "none")],
                             capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert shipped.returncode == 2 and "no such folder" in shipped.stderr and "Traceback" not in shipped.stderr


def test_module_entry_point_runs_the_suite():
    out = subprocess.run([sys.executable, "-m", "adjudicator", "datc", str(ROOT / "datc_cases" / "standard")],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    assert out.stdout.strip().splitlines()[-1].endswith(" passed, 0 failed")


def test_bad_season_impossible_unit_and_unknown_territory_in_an_arctic_case(tmp_path):
    for body, message in [
        ("PRESTATE_SETPHASE Autumm 2011, Movement\nPRESTATE\n    Russia: A Arc\n", "unknown season 'Autumm'"),
        ("PRESTATE_SETPHASE Fall 2011, Movement\nPRESTATE\n    Russia: F Alp\n", "a fleet cannot stand on Alpha Ridge"),
        ("PRESTATE_SETPHASE Fall 2011, Movement\nPRESTATE\n    Russia: A Atlantis\n", "unknown place 'Atlantis'"),
    ]:
        f = tmp_path / "c.txt"
        f.write_text(f"VARIANT_ALL Arctic\nCASE x\n{body}ORDERS\nPOSTSTATE_SAME\nEND\n")
        r = _run("datc", str(f))
        assert r.exit_code == 1 and message in r.output and "Traceback" not in r.output, r.output


UNREADABLE_ORDER = """VARIANT_ALL Standard
CASE a misspelt order
PRESTATE
    England: F lon
ORDERS
    England: F lon - nrth seaa
POSTSTATE_SAME
END
"""


def test_a_case_with_an_unreadable_order_fails_unless_it_expects_it(tmp_path):
    # Issue 27, finding 14: the case passed, the order shown only under -v as a note.
    f = tmp_path / "c.txt"
    f.write_text(UNREADABLE_ORDER)
    r = _run("datc", str(f))
    assert r.exit_code == 1 and "an order could not be read" in r.output and "UNREADABLE: England" in r.output
    expected = UNREADABLE_ORDER.replace("POSTSTATE_SAME", "POSTSTATE_SAME\nPOSTSTATE_RESULTS\n"
                                                          "    UNREADABLE: England: F Lon -  NRTH seaa")
    f.write_text(expected)
    assert _run("datc", str(f)).exit_code == 0
    f.write_text(GOOD.replace("POSTSTATE\n", "POSTSTATE_RESULTS\n    UNREADABLE: England: A lvp-edi\nPOSTSTATE\n"))
    r = _run("datc", str(f))
    assert r.exit_code == 1 and "expected unreadable, but England: A lvp-edi was read" in r.output


def test_a_case_on_a_board_the_checker_refuses_fails_alone_naming_the_problem(tmp_path):
    board = (ROOT / "datc_cases/features/boards/waterways.yaml").read_text()
    bad = board.replace("name: waterways", "name: bad").replace("  - aaa - hil : land", "  - aaa - zzz : land")
    (tmp_path / "bad.yaml").write_text(bad)
    f = tmp_path / "c.txt"
    f.write_text("VARIANT_ALL bad.yaml\nCASE on a bad board\nPRESTATE\nORDERS\nPOSTSTATE_SAME\nEND\n\n" + GOOD)
    r = _run("datc", str(f))
    assert r.exit_code == 1, r.output  # (a traceback before: the board's error could not be placed in the case)
    assert "FAIL on a bad board" in r.output and "unknown space 'zzz'" in r.output
    assert r.output.strip().splitlines()[-1] == "1 passed, 1 failed"
