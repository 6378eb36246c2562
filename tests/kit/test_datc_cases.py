"""Every case of the project's own case files, and of the shared DATC files when they are present."""

from __future__ import annotations

import pytest

from adjudicator.games.diplomacy.cases.datc import read_cases
from adjudicator.case_files import collect_files
from adjudicator.games.diplomacy.cases.runner import run_case
from adjudicator.game_cases import read_yaml_cases, run_game_case
from tests.helpers import ROOT, SHARED_DATC


def _cases(folder):
    out = []
    for path in collect_files([folder]):
        if path.suffix == ".txt":
            for case in read_cases(path):
                out.append(pytest.param(case, id=f"{path.parent.name}/{path.stem}:{case.name}"))
    return out


OWN = _cases(ROOT / "datc_cases")
GAME_CASES = [pytest.param(c, id=f"{p.parent.name}/{p.stem}:{c.name}")
              for p in collect_files([ROOT / "datc_cases"]) if p.suffix in (".yaml", ".yml") for c in read_yaml_cases(p)]
SHARED = _cases(SHARED_DATC) if SHARED_DATC.is_dir() else []


@pytest.mark.parametrize("case", OWN)
def test_own_case(case):
    outcome = run_case(case)
    assert outcome.passed, "\n".join(outcome.problems + outcome.notes)


@pytest.mark.parametrize("case", GAME_CASES or [pytest.param(None, marks=pytest.mark.skip(reason="no game cases"))])
def test_game_case(case):
    outcome = run_game_case(case)
    assert outcome.passed, "\n".join(outcome.problems + outcome.notes)


@pytest.mark.skipif(not SHARED, reason="../shared/datc is not present beside the project")
@pytest.mark.parametrize("case", SHARED or [None])
def test_shared_case(case):
    outcome = run_case(case)
    assert outcome.passed, "\n".join(outcome.problems + outcome.notes)


def test_every_chapter_6_case_is_in_the_project():
    names = {c.values[0].name.split()[0].rstrip(".") for c in OWN if c.values[0].variant.lower() == "standard"}
    sections = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}
    missing = [f"6.{s}.{i}" for s, n in sections.items() for i in range(1, n + 1) if f"6.{s}.{i}" not in names]
    assert missing == []
