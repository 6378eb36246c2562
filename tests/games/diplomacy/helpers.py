"""Helpers of the Diplomacy board tests: a tiny variant to edit, and the board-feature case files run against
their test boards (datc_cases/features/)."""

from __future__ import annotations

import shutil
from pathlib import Path

from adjudicator.case_files import run_files
from tests.helpers import ROOT

# A tiny sound variant: two powers, three land provinces and a sea; each test edits one thing into it.
BASE = """name: tiny
powers: {Red: {}, Blue: {}}
terrain: {land: {default: land}, sea: {default: sea}}
calendar:
  start: {season: Spring, year: 1, type: Movement}
  phases: [{season: Spring, type: Movement}, {season: Spring, type: Retreat, centres: true}]
provinces:
  - {id: a, name: Aland, kind: land, centre: true, home: Red}
  - {id: b, name: Bland, kind: land, centre: true, home: Blue}
  - {id: c, name: Cland, kind: land}
  - {id: s, name: Sea, kind: sea}
borders:
  - a - b : coast
  - b - c : land
  - a - s : water
  - b - s : water
start:
  Red: [A a]
  Blue: [F b]
"""

FEATURES = ROOT / "datc_cases" / "features"
BOARDS = FEATURES / "boards"


def feature_outcomes(tmp_path: Path, board: str, cases: str, edit=None) -> dict[str, bool]:
    """Run a feature case file against its test board, edited as given (board text -> board text)."""
    (tmp_path / "boards").mkdir(exist_ok=True)
    text = (BOARDS / f"{board}.yaml").read_text()
    if edit is not None:
        changed = edit(text)
        assert changed != text, "the edit must take the feature out"
        text = changed
    (tmp_path / "boards" / f"{board}.yaml").write_text(text)
    shutil.copy(FEATURES / cases, tmp_path / cases)
    outcomes, errors = run_files([tmp_path / cases])
    assert not errors
    return {o.case.name.split(" ")[0]: o.passed for o in outcomes}


def failing_cases(outcomes: dict[str, bool]) -> set[str]:
    """The names of the cases that failed."""
    return {name for name, passed in outcomes.items() if not passed}
