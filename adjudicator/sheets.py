"""What reading an order sheet gives, for every game: the orders, and each line that is not one.

The contract (the same for all four games): `GameRules.read_sheet` never raises for a bad line; it reports
the line with its column, reason and suggestions, and reads the rest. A shell then judges the readable
orders (the default) or, when strict, refuses a sheet with any problem and writes nothing: the one policy,
`turn.sheet_refusal`, used by the CLI, the API and hosted games.

Orders given as lists per seat (`GameRules.read_order_lists`) are data, not a sheet: each item is read alone
as one order of its seat (`read_items`), never joined into text with another item to be read again, so
nothing in one seat's list can become another seat's order (issue 26).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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
    power: str | None = None  # the power the line was read for, when one was known

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", column {self.column}" if self.column else "")
        where += f" ({self.power})" if self.power else ""
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
        if self.power is not None:
            data["power"] = self.power
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
    header_lines: dict[int, int] = field(default_factory=dict)  # a line read for a header's power -> the header's line
    hints: dict[int, str] = field(default_factory=dict)  # line -> why its order is not for the unit it names

    def read_for(self, data: dict[str, Any]) -> dict[str, Any]:
        """An order's JSON as `parse` shows it: with `header_line`, the header whose power its line was read for
        (None: the power was on the line itself, or the orders came as lists), and the line's `hint`, if any."""
        line = data.get("line")
        out = {**data, "header_line": self.header_lines.get(line) if line is not None else None}
        if line in self.hints:
            out["hint"] = self.hints[line]
        return out


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


# Every character `str.splitlines` ends a line at: a sheet reader would read what follows one as a line of
# its own, so a list item holding one is refused.
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


def char_name(ch: str) -> str:
    """`U+2028 LINE SEPARATOR`: a character as an error message names it (control characters have no name)."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def one_order_problem(text: str) -> tuple[int, str] | None:
    """Why a list item is not one order on one line: (its 1-based column, the reason), or None when it is."""
    for at, ch in enumerate(text):
        if ch in LINE_BREAKS:
            return at + 1, (f"a line break ({char_name(ch)}) inside a list item: an item holds one order, on one "
                            "line; send each order as an item of its own")
        if ch == ";":
            return at + 1, ("';' inside a list item: ';' separates orders on a sheet, but an item holds one order; "
                            "send each order as an item of its own")
    return None


def read_items(orders: Mapping[str, Sequence[Any]], read: Callable[[str, str, int], Any],
               add: Callable[[Sheet, str, int, str, Any], None] | None = None) -> Sheet:
    """Orders given as lists per seat: each item read alone by `read(seat, text, number)` as one order of that
    seat (an OrderError when it is not); an item that is not one order on one line, or that `read` refuses, is
    a problem on its line (its place in the list, from 1) pointing at it (`/Red/0`). `add(sheet, seat, number,
    text, order)` puts a read order in the sheet (by default at the end)."""
    sheet = Sheet()
    count = sum(len(items) for items in orders.values())
    if count > MAX_LINES:
        sheet.refusal = f"{count:,} orders were sent; at most {MAX_LINES:,} are read: send them in parts"
        return sheet
    with suggestion_budget(MAX_SUGGESTED):
        for seat, items in orders.items():
            for i, item in enumerate(items):
                text = str(item)
                bad = one_order_problem(text)
                try:
                    if bad is not None:
                        raise OrderError(bad[1], column=bad[0])
                    order = read(seat, text, i + 1)
                except OrderError as exc:
                    sheet.problems.append(SheetProblem(i + 1, exc.column, text, exc.message, list(exc.suggestions),
                                                       json_pointer(seat, i), power=seat or None))
                    continue
                if add is None:
                    sheet.orders.append(order)
                else:
                    add(sheet, seat, i + 1, text, order)
    return sheet
