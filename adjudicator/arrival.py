"""A seat's lines as they stand when they arrive alone (hosted games): each read, refused, void or ok.

What a seat sees of its own orders before the phase is judged is what can be known without the other seats'
orders, which stay secret: a line that is not an order (`unreadable`, with why, column and suggestions), an
order that is refused (`illegal`, `ignored`, with why), an order `void` whatever the others order, or `ok`.
An `ok` order's outcome is not shown: it depends on the others. Each game writes the lines of its check
(`GameRules.arrival_report`) and this module turns them into a status per line, the same way for every game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.outcome import IGNORED, ILLEGAL, VOID, OrderResult
from adjudicator.refusals import Kind, Refusal
from adjudicator.sheets import Sheet

OK, UNREADABLE = "ok", "unreadable"  # the two statuses of a line that are no report's
REFUSED = frozenset({ILLEGAL, VOID, IGNORED})  # a report line's statuses a seat is shown on arrival
GM = ""  # the seat key of the game master's steps (orders without a power, e.g. `melt`, `next round`)


class LinesRefused(Refusal):
    """A seat's lines that cannot be checked as a whole (orders for another kind of phase, too many lines)."""

    kind = Kind.REFUSED

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class SeatItem:
    """One order of a seat's text body: the line it stands on in the text, and its text (`GameRules.seat_items`)."""

    line: int
    text: str


@dataclass(frozen=True)
class LineStatus:
    """One line of a seat's submission as it stands on arrival."""

    line: int  # its place in the seat's list, from 1
    order: str  # the line as sent (stripped)
    status: str  # ok, unreadable, illegal, void or ignored
    reason: str | None = None  # why, when it is not ok
    column: int | None = None  # where an unreadable line stops being an order
    suggestions: tuple[str, ...] = field(default_factory=tuple)  # an unreadable line's "did you mean"
    understood_as: str | None = None  # the order in canonical form, when it was read

    def to_json(self) -> dict[str, Any]:
        """The status as the hosted service stores and shows it."""
        data: dict[str, Any] = {"line": self.line, "order": self.order, "status": self.status}
        if self.status == UNREADABLE:
            data.update(reason=self.reason, column=self.column, suggestions=list(self.suggestions))
        elif self.reason is not None:
            data["reason"] = self.reason
        if self.understood_as:
            data["understood_as"] = self.understood_as
        return data


def statuses(lines: Sequence[str], sheet: Sheet, report: Sequence[OrderResult], seat: str,
             void_known: Callable[[Any], bool]) -> list[LineStatus]:
    """Each of `seat`'s lines: unreadable as its sheet problem says, else the first refused status of its
    report lines (only the seat's own are looked at; the game master's steps are no seat's), a `void` shown
    only when `void_known(order)` says it is void whatever the others order, else ok."""
    problems = {p.line: p for p in sheet.problems}
    entries: dict[int, list[OrderResult]] = {}
    for r in report:
        if r.line and (seat == GM or r.power in (seat, None)):
            entries.setdefault(int(r.line), []).append(r)
    out = []
    for number, text in enumerate(lines, 1):
        p = problems.get(number)
        if p is not None:
            out.append(LineStatus(number, text, UNREADABLE, p.reason, p.column, tuple(p.suggestions)))
            continue
        found = entries.get(number, [])
        bad = next((r for r in found if r.status in REFUSED), None)
        if bad is not None and bad.status == VOID and not void_known(bad.order):
            bad = None
        understood = next((u for u in (r.order.describe() for r in found if r.order is not None) if u), None)
        if bad is not None:
            out.append(LineStatus(number, text, bad.status, bad.reason, understood_as=understood))
        else:
            out.append(LineStatus(number, text, OK, understood_as=understood))
    return out
