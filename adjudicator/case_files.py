"""Case files of every game, named or found in folders: DATC plain text (`*.txt`, run by the Diplomacy rules)
and YAML (`*.yaml`, any game's), each case's outcome a `CaseOutcome`."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from adjudicator.errors import AdjudicatorError
from adjudicator.game import get_rules
from adjudicator.game_cases import read_yaml_cases, run_game_case
from adjudicator.verdict import CaseOutcome


def collect_files(paths: Iterable[str | Path]) -> list[Path]:
    """Case files named, or found in folders (`*.txt` and `*.yaml`, recursively)."""
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():  # in a folder, only files that look like case files (a folder may hold other texts)
            files += sorted(x for x in p.rglob("*") if x.is_file() and _looks_like_cases(x))
        else:
            files.append(p)
    return files


def _looks_like_cases(path: Path) -> bool:
    if path.suffix not in (".txt", ".yaml", ".yml"):
        return False
    try:
        head = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True  # let the reader report it
    if path.suffix == ".txt":
        return any(line.startswith(("CASE ", "VARIANT_ALL")) for line in head.splitlines())
    return "cases:" in head


def run_files(paths: Iterable[str | Path], rules: str | None = None) -> tuple[list[CaseOutcome], list[AdjudicatorError]]:
    """Run every case of every file (`rules`: rule options for every case, under what the files say); files that
    cannot be read are returned as errors."""
    outcomes: list[CaseOutcome] = []
    errors: list[AdjudicatorError] = []
    for path in collect_files(paths):
        if not path.exists():
            errors.append(AdjudicatorError("no such file or folder", file=str(path)))
            continue
        try:
            if path.suffix in (".yaml", ".yml"):
                outcomes += [run_game_case(c, rules) for c in read_yaml_cases(path)]
            else:  # DATC plain text, the Diplomacy rules' case format
                outcomes += get_rules("diplomacy").text_cases(path, rules)
        except AdjudicatorError as exc:
            errors.append(exc)
    return outcomes, errors
