"""Reader for DATC-style plain-text case files (see `datc_cases/README.md` for the format and extensions).

The files other tools write are read as those tools' own readers read them:
- jDip: keywords in column 0, data lines indented, `Power: unit` and `SUCCESS: Power: order`;
- godip: every line trimmed first, so keywords and data lines may be indented or not; the colon after the
  power is optional (`England F lon`, `SUCCESS: England F lon - nth`); unit letters in any case.
A problem inside a case (an unreadable line or phase, an unknown keyword) makes that case fail alone, at its
line, and the file's other cases still run (a text none of whose cases can be read is refused as a whole). Lines are split, never matched by a regular expression, so any
line costs time linear in its length.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.errors import AdjudicatorError, CaseFileError
from adjudicator.games.diplomacy.rulebook import rulebook_from_text
from adjudicator.textio import read_text

SECTIONS = (
    "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE_DISLODGED", "PRESTATE_RESULTS", "PRESTATE",
    "ORDERS", "POSTSTATE_DISLODGED", "POSTSTATE_SUPPLYCENTER_OWNERS", "POSTSTATE_RESULTS", "POSTSTATE",
)
SINGLE = ("POSTSTATE_SAME", "END")
UNREADABLE = "UNREADABLE"  # a POSTSTATE_RESULTS status: an order of the case that must not be read (a project extension)
RESULT_STATUSES = ("SUCCESS", "FAILURE", UNREADABLE)
VALUE = ("PRESTATE_SETPHASE", "POSTSTATE_SETPHASE", "POSTSTATE_WINNER", "VARIANT_ALL", "CASE", "RULES")
KEYWORDS = frozenset(SECTIONS + SINGLE + VALUE)
_KNOWN = ", ".join(("VARIANT_ALL", "RULES", "CASE", "PRESTATE_SETPHASE", *SECTIONS, "POSTSTATE_SAME", "POSTSTATE_SETPHASE",
                    "POSTSTATE_WINNER", "END"))
_PHASE_KINDS = {"movement": "Movement", "retreat": "Retreat", "retreats": "Retreat", "adjustment": "Adjustment",
                "adjustments": "Adjustment", "build": "Adjustment", "builds": "Adjustment",
                "m": "Movement", "r": "Retreat", "a": "Adjustment", "b": "Adjustment"}
_SEASON_LETTERS = {"s": "Spring", "f": "Fall", "w": "Winter", "u": "Summer"}
_MAX_YEAR_DIGITS = 6


@dataclass
class Line:
    """A data line: the power and the rest, with its line number."""

    power: str
    text: str
    line: int
    status: str | None = None  # SUCCESS / FAILURE (/ UNREADABLE) in results sections
    column: int = 1  # where `text` starts


@dataclass
class Case:
    """One CASE ... END block. A case that could not be read keeps its first `problem`: asking for its
    `variant` (the first thing running a case does) raises it, so the case fails alone, located."""

    name: str
    board_name: str
    file: str
    line: int
    setphase: tuple[str, int, str] | None = None
    sections: dict[str, list[Line]] = field(default_factory=dict)
    same: bool = False
    expected_phase: tuple[str, int, str] | None = None
    expected_winner: str | None = None
    problem: CaseFileError | None = None
    lines: dict[str, int] = field(default_factory=dict)  # the line of each keyword the case writes
    rules: tuple[str, ...] = ()  # RULES lines in force, the file's then the case's (`1971, 4.A.2: szykman`)

    @property
    def variant(self) -> str:
        """The board the case is played on (the case's problem, when it has one, is raised here)."""
        if self.problem is not None:
            raise self.problem
        return self.board_name

    def has(self, section: str) -> bool:
        """Whether the case wrote this section (even empty)."""
        return section in self.sections

    def get(self, section: str) -> list[Line]:
        """The lines of a section (empty if absent)."""
        return self.sections.get(section, [])


def parse_phase(text: str, file: str, line: int) -> tuple[str, int, str]:
    """`Spring 1901, Movement`, `Spring 1901 Movement`, `Spring, 1901 (Movement)` or `S1901M` ->
    ('Spring', 1901, 'Movement')."""
    words = text.replace(",", " ").replace("(", " ").replace(")", " ").split()
    if len(words) == 1 and len(words[0]) >= 3 and words[0][0].isalpha() and words[0][1:-1].isdigit():
        short = words[0]  # godip and jDip short names: S1901M, F1901R, W1901A
        season = _SEASON_LETTERS.get(short[0].lower())
        words = [season or short[0], short[1:-1], short[-1]] if short[-1].isalpha() else words
    if (len(words) not in (2, 3) or not words[1].removeprefix("-").isdigit() or len(words[1]) > _MAX_YEAR_DIGITS
            or not words[0].isalpha()):  # (year 0 and negative years: a calendar may reach them)
        raise CaseFileError(f"cannot read the phase {text.strip()[:80]!r}; write it like 'Spring 1901, Movement'",
                            file=file, line=line)
    season, year, kind = words[0], int(words[1]), (words[2] if len(words) == 3 else "Movement")
    if kind.lower() not in _PHASE_KINDS:
        raise CaseFileError(f"unknown phase type {kind[:40]!r}; use Movement, Retreat or Adjustment", file=file,
                            line=line)
    return season.capitalize(), year, _PHASE_KINDS[kind.lower()]


def _strip_comment(raw: str) -> str:
    return raw.split("#", 1)[0].rstrip()


def read_cases(path: str | Path) -> list[Case]:
    """Every case of a file; a file that cannot be read gives a CaseFileError; a case with a problem keeps it."""
    try:
        text = read_text(path)
    except AdjudicatorError as exc:
        raise CaseFileError(exc.message, file=str(path), line=exc.line) from None
    return parse_cases(text, str(path))


def data_line(content: str, number: int, raw: str) -> Line | str:
    """`England: F lon`, `England F lon`, `SUCCESS: England: F lon - nth`: a Line, or why it cannot be read."""
    text = content.strip()
    status = None
    head, colon, tail = text.partition(":")
    if colon and head.strip().upper() in RESULT_STATUSES:
        status, text = head.strip().upper(), tail.strip()
    head, colon, tail = text.partition(":")
    if colon and head.strip() and " " not in head.strip():
        power, rest = head.strip(), tail.strip()
    else:  # godip: the colon after the power is optional
        parts = text.split(None, 1)
        if len(parts) != 2 or ":" in parts[0]:
            return f"cannot read {text[:80]!r}; write '<Power>: <unit or order>'"
        power, rest = parts[0], parts[1].strip()
        if colon and power.endswith(":"):
            power = power[:-1]
    if not rest:
        return f"cannot read {text[:80]!r}: nothing after the power; write '<Power>: <unit or order>'"
    column = raw.find(rest) + 1 if rest else 1
    return Line(power, rest, number, status, column or 1)


def parse_cases(text: str, file: str = "<cases>") -> list[Case]:
    """Parse case-file text: every case, each with its first problem if it has one."""
    cases: list[Case] = []
    variant = "Standard"
    file_rules: tuple[str, ...] = ()  # RULES lines before the first case
    current: Case | None = None
    section: str | None = None

    def trouble(message: str, number: int) -> None:
        """A problem of the case being read (or, outside any case, a case of its own that fails)."""
        error = CaseFileError(message, file=file, line=number)
        if current is None:
            cases.append(Case(f"line {number}", variant, file, number, problem=error))
        elif current.problem is None:
            current.problem = error

    for number, raw in enumerate(text.splitlines(), start=1):
        content = _strip_comment(raw)
        stripped = content.strip()
        if not stripped:
            continue
        parts = stripped.split(None, 1)
        keyword, rest = parts[0], (parts[1].strip() if len(parts) > 1 else "")
        is_keyword = keyword in KEYWORDS
        # An unknown keyword: an upper-case word at the start of a line, alone or with an underscore
        # (`POSTSTATE_DISLODGE`, `ORDER`); `ENGLAND F LON` is a data line.
        looks_like_keyword = (not raw[0].isspace() and keyword.isupper() and keyword.replace("_", "").isalpha()
                              and ":" not in stripped and ("_" in keyword or not rest))
        if not is_keyword and looks_like_keyword:
            trouble(f"unknown keyword {keyword[:40]!r}; known keywords: {_KNOWN}", number)
            continue
        if is_keyword:
            if keyword == "VARIANT_ALL":
                if not rest:
                    trouble("VARIANT_ALL needs a variant name", number)
                    continue
                variant = rest
                continue
            if keyword == "RULES":  # the rule options: for the file before its first case, else for the case
                try:
                    rulebook_from_text(rest or " ", what="RULES")
                except AdjudicatorError as exc:
                    trouble(exc.message, number)
                    continue
                if current is None:
                    file_rules += (rest,)
                else:
                    current.rules += (rest,)
                continue
            if keyword == "CASE":
                if current is not None:
                    trouble(f"CASE {rest[:80]!r} starts before case {current.name!r} has its END", number)
                    cases.append(current)
                current = Case(rest or f"line {number}", variant, file, number, rules=file_rules)
                section = None
                continue
            if current is None:
                trouble(f"{keyword!r} outside a CASE ... END block", number)
                continue
            current.lines[keyword] = number
            try:
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
                else:
                    section = keyword
                    current.sections.setdefault(section, [])
            except CaseFileError as exc:
                trouble(exc.message, number)
            continue
        if current is None or section is None:
            trouble("a data line must follow a section keyword inside a CASE", number)
            continue
        line = data_line(content, number, raw)
        if isinstance(line, str):
            trouble(line, number)
            continue
        if section in ("PRESTATE_RESULTS", "POSTSTATE_RESULTS") and line.status is None:
            trouble("a results line must start with SUCCESS: or FAILURE:" + (
                " (or UNREADABLE:, for an order the case gives unreadable on purpose)"
                if section == "POSTSTATE_RESULTS" else ""), number)
            continue
        if line.status == UNREADABLE and section != "POSTSTATE_RESULTS":
            trouble("UNREADABLE: lines belong in POSTSTATE_RESULTS (the orders a case expects not to be read)", number)
            continue
        current.sections[section].append(line)
    if current is not None:
        trouble(f"case {current.name!r} has no END", current.line)
        cases.append(current)
    first = cases[0].problem if cases else None
    if first is not None and all(c.problem is not None for c in cases):
        raise first  # nothing in the text can run: the file itself is malformed
    return cases
