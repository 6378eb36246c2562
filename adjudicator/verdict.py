"""The verdict on one case, whatever the case format or game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class CaseOutcome:
    """Whether a case passed, what differed, and warnings met on the way."""

    case: Any  # has name, file and line
    passed: bool
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    result: Any = None

    @property
    def where(self) -> str:
        """`file:line` of the case."""
        return f"{self.case.file}:{self.case.line}" if self.case.line else str(self.case.file)
