"""Reader for DATC-style plain-text case files (see `datc_cases/README.md` for the format and extensions)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.errors import AdjudicatorError, CaseFileError
from adjudicator.textio import read_text

SECTIONS = (
    "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE_DISLODGED", "PRESTATE_RESULTS", "PRESTATE",
    "ORDERS", "POSTSTATE_DISLODGED", "POSTSTATE_SUPPLYCENTER_OWNERS", "POSTSTATE_RESULTS", "POSTSTATE",
)
SINGLE = ("POSTSTATE_SAME", "END")
VALUE = ("PRESTATE_SETPHASE", "POSTSTATE_SETPHASE", "POSTSTATE_WINNER", "VARIANT_ALL", "CASE")


@dataclass
class Line:
    """A data line: the power and the rest, with its line number."""

    power: str
    text: str
    line: int
    status: str | None = None  # SUCCESS / FAILURE in results sections
    column: int = 1  # where `text` starts


@dataclass
class Case:
    """One CASE ... END block."""

    name: str
    variant: str
    file: str
    line: int
    setphase: tuple[str, int, str] | None = None
    sections: dict[str, list[Line]] = field(default_factory=dict)
    same: bool = False
    expected_phase: tuple[str, int, str] | None = None
    expected_winner: str | None = None

    def has(self, section: str) -> bool:
        """Whether the case wrote this section (even empty)."""
        return section in self.sections

    def get(self, section: str) -> list[Line]:
        """The lines of a section (empty if absent)."""
        return self.sections.get(section, [])


_PHASE_RE = re.compile(r"^\s*(\w+)\s+(\d+)\s*,?\s*(\w+)?\s*$")
_DATA_RE = re.compile(r"^(?:(SUCCESS|FAILURE)\s*:\s*)?([^:]+?)\s*:\s*(.*)$", re.IGNORECASE)


def parse_phase(text: str, file: str, line: int) -> tuple[str, int, str]:
    """`Spring 1901, Movement` -> ('Spring', 1901, 'Movement')."""
    m = _PHASE_RE.match(text)
    if not m:
        raise CaseFileError(f"cannot read the phase {text.strip()!r}; write it like 'Spring 1901, Movement'",
                            file=file, line=line)
    season, year, kind = m.group(1), int(m.group(2)), (m.group(3) or "Movement")
    kinds = {"movement": "Movement", "retreat": "Retreat", "retreats": "Retreat", "adjustment": "Adjustment",
             "adjustments": "Adjustment", "build": "Adjustment", "builds": "Adjustment"}
    if kind.lower() not in kinds:
        raise CaseFileError(f"unknown phase type {kind!r}; use Movement, Retreat or Adjustment", file=file, line=line)
    return season.capitalize(), year, kinds[kind.lower()]


def _strip_comment(raw: str) -> str:
    return raw.split("#", 1)[0].rstrip()


def read_cases(path: str | Path) -> list[Case]:
    """Every case of a file; a malformed file gives a CaseFileError with the line and the reason."""
    try:
        text = read_text(path)
    except AdjudicatorError as exc:
        raise CaseFileError(exc.message, file=str(path), line=exc.line) from None
    return parse_cases(text, str(path))


def parse_cases(text: str, file: str = "<cases>") -> list[Case]:
    """Parse case-file text."""
    cases: list[Case] = []
    variant = "Standard"
    current: Case | None = None
    section: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        content = _strip_comment(raw)
        if not content.strip():
            continue
        if not raw[0].isspace():
            keyword, _, rest = content.strip().partition(" ")
            keyword = keyword.strip()
            rest = rest.strip()
            if "\t" in keyword:
                keyword, _, more = keyword.partition("\t")
                rest = (more + " " + rest).strip()
            if keyword == "VARIANT_ALL":
                if not rest:
                    raise CaseFileError("VARIANT_ALL needs a variant name", file=file, line=number)
                variant = rest
                continue
            if keyword == "CASE":
                if current is not None:
                    raise CaseFileError(f"CASE {rest!r} starts before case {current.name!r} has its END",
                                        file=file, line=number)
                current = Case(rest or f"line {number}", variant, file, number)
                section = None
                continue
            if current is None:
                raise CaseFileError(f"{keyword!r} outside a CASE ... END block", file=file, line=number)
            if keyword == "END":
                cases.append(current)
                current, section = None, None
            elif keyword == "PRESTATE_SETPHASE":
                current.setphase = parse_phase(rest, file, number)
            elif keyword == "POSTSTATE_SETPHASE":
                current.expected_phase = parse_phase(rest, file, number)
            elif keyword == "POSTSTATE_WINNER":
                current.expected_winner = rest or None
            elif keyword == "POSTSTATE_SAME":
                current.same = True
                section = None
            elif keyword in SECTIONS:
                section = keyword
                current.sections.setdefault(section, [])
            else:
                known = ", ".join(("VARIANT_ALL", "CASE", "PRESTATE_SETPHASE", *SECTIONS, "POSTSTATE_SAME",
                                   "POSTSTATE_SETPHASE", "POSTSTATE_WINNER", "END"))
                raise CaseFileError(f"unknown keyword {keyword!r}; known keywords: {known}", file=file, line=number)
            continue
        if current is None or section is None:
            raise CaseFileError("a data line must follow a section keyword inside a CASE", file=file, line=number)
        m = _DATA_RE.match(content.strip())
        if not m:
            raise CaseFileError(f"cannot read {content.strip()!r}; write '<Power>: <unit or order>'",
                                file=file, line=number)
        status = m.group(1).upper() if m.group(1) else None
        if section in ("PRESTATE_RESULTS", "POSTSTATE_RESULTS") and status is None:
            raise CaseFileError("a results line must start with SUCCESS: or FAILURE:", file=file, line=number)
        column = len(raw) - len(raw.lstrip()) + content.strip().find(m.group(3)) + 1
        current.sections[section].append(Line(m.group(2).strip(), m.group(3).strip(), number, status, column))
    if current is not None:
        raise CaseFileError(f"case {current.name!r} has no END", file=file, line=current.line)
    return cases
