"""`adjudicator variant check`: everything that makes a variant file wrong, each with its line; each game checks
its own boards (`GameRules.check_board`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from adjudicator.catalogue import check_name, wrong_kinds
from adjudicator.errors import AdjudicatorError, BoardWarning
from adjudicator.game import get_rules
from adjudicator.yamlio import load_yaml_file


@dataclass
class Problem:
    """One thing wrong with a variant file."""

    file: str
    line: int | None
    message: str
    warning: bool = False  # allowed by the rules, likely not meant: reported, and the board is still played

    def __str__(self) -> str:
        message = f"warning: {self.message}" if self.warning else self.message
        return f"{self.file}:{self.line}: {message}" if self.line else f"{self.file}: {message}"


def check_variant_file(path: str | Path) -> list[Problem]:
    """Every problem found in a variant file (an empty list when it is sound)."""
    path = str(path)
    try:
        data = load_yaml_file(path)
        check_name(data, path)
        rules = get_rules(str(data.get("rules", "diplomacy")), path)
    except AdjudicatorError as exc:
        return [Problem(path, exc.line, exc.message)]
    try:  # a value of a kind no rule expected is the file's fault: reported, never a traceback
        found = wrong_kinds(lambda: rules.check_board(data, path), path)
    except AdjudicatorError as exc:
        return [Problem(path, exc.line, exc.message)]
    return [Problem(path, e.line, e.message, isinstance(e, BoardWarning)) for e in found]
