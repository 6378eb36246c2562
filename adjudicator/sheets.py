"""What reading an order sheet gives, for every game: the orders, and each line that is not one.

The contract (the same for all four games): `GameRules.read_sheet` never raises for a bad line; it reports
the line with its column, reason and suggestions, and reads the rest. A shell then judges the readable
orders (the default) or, when strict, refuses a sheet with any problem and writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from adjudicator.errors import OrderError
from adjudicator.names import suggestion_budget


SHOWN_TEXT = 120  # characters of a bad line quoted in a text report


@dataclass
class SheetProblem:
    """A line of the sheet that is not an order."""

    line: int
    column: int | None
    text: str
    reason: str
    suggestions: list[str] = field(default_factory=list)
    pointer: str | None = None  # where the order was in a request's lists (`/France/2`), when it came from one
    unknown_name: bool = False  # it names a place or power the board does not have (many: another board's sheet)

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", column {self.column}" if self.column else "")
        hint = f"; did you mean {', '.join(repr(s) for s in self.suggestions)}?" if self.suggestions else ""
        shown = self.text.strip()
        if len(shown) > SHOWN_TEXT:  # a report quotes the line, not a megabyte of it
            shown = shown[:SHOWN_TEXT] + f"... ({len(shown):,} characters)"
        return f"{where}: {self.reason}{hint}: {shown!r}"

    def as_error(self, file: str | None = None) -> OrderError:
        """The problem as the OrderError a strict reading raises."""
        return OrderError(self.reason, file=file, line=self.line, column=self.column, suggestions=self.suggestions)

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        data = {"line": self.line, "column": self.column, "text": self.text, "reason": self.reason,
                "suggestions": self.suggestions}
        if self.pointer is not None:
            data["pointer"] = self.pointer
        return data


@dataclass
class Sheet:
    """The orders read from a sheet, the lines that were not orders, and notes on how names were read.

    `refusal` is set when the sheet as a whole cannot be judged (orders for another kind of phase): a shell
    reports it and writes nothing, lenient or not."""

    orders: list[Any] = field(default_factory=list)
    problems: list[SheetProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    text: str = ""
    refusal: str | None = None


def json_pointer(*parts: object) -> str:
    """A JSON pointer (RFC 6901) to the given keys and indexes."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


MAX_LINES = 10_000  # lines read from one sheet (a 10,000-space board with a unit on every space still fits)
MAX_SUGGESTED = 50  # "did you mean" searches made for one sheet; later problems are reported without


def read_bounded(read: Callable[[], Sheet], text: str, budget: bool = True) -> Sheet:
    """Run a game's sheet reader within the limits every sheet has: at most MAX_LINES lines (a longer sheet is
    refused whole), and "did you mean" for the first MAX_SUGGESTED searches (the sheet's notes then say so);
    `budget` False for a reader that counts its problems itself."""
    lines = text.count("\n") + 1
    if lines > MAX_LINES:
        return Sheet(text=text, refusal=f"the sheet has {lines:,} lines; at most {MAX_LINES:,} are read: send it in parts")
    if budget:
        with suggestion_budget(MAX_SUGGESTED):
            sheet = read()
    else:
        sheet = read()
    if len(sheet.problems) > MAX_SUGGESTED:
        sheet.notes.append(f"suggestions were worked out for the first {MAX_SUGGESTED} problems only")
    return sheet
