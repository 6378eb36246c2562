"""A seat's orders judged on arrival, and the phase's orders read seat by seat, as data.

A submission is judged by the stateless machinery alone (its power's orders, every other unit without orders),
so each line's status is what `/v1/adjudicate` would give it: `unreadable` (with why, column and suggestions),
`illegal`, `void`, `ignored` (with why) or `ok`. An `ok` order's outcome (succeeds, fails) is not shown: it
depends on the other powers' orders, which stay secret; so is a `void` that hangs on them (a support of
another power's move is `ok` until the phase is judged).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.game import rules_of
from adjudicator.refusals import Kind, Refusal
from adjudicator.sheets import Sheet
from adjudicator.turn import play_turn

GM = ""  # the seat key of the game master's game steps (orders without a power, e.g. `melt`, `next round`)
_REFUSED = {"illegal", "void", "ignored"}


@dataclass
class Refused(Refusal):
    """A submission that cannot be judged as a whole (orders for another kind of phase, or a refused sheet)."""

    kind = Kind.REFUSED
    reason: str
    problems: list[dict[str, Any]]


def read_orders(board: Any, state: Any, orders: dict[str, list[str]]) -> Sheet:
    """The phase's sheet: each seat's list read as that seat's orders, item by item (never joined into text),
    in the given order; the game master's steps (key GM) come last."""
    lists = {p: lines for p, lines in orders.items() if p != GM and lines}
    if orders.get(GM):
        lists[GM] = orders[GM]
    return rules_of(board).read_order_lists(board, state, lists)


def judge_submission(board: Any, state: Any, power: str, lines: list[str]) -> list[dict[str, Any]]:
    """Each line's status as the stateless judge gives it (Refused when the sheet cannot be judged at all); a
    `void` that depends on the other seats' orders, which are secret, is shown as `ok` (it may not be void)."""
    rules = rules_of(board)
    state = rules.submission_state(board, state, power) if power != GM else state
    sheet = read_orders(board, state, {power: lines})
    if sheet.refusal:
        raise Refused(sheet.refusal, [])
    problems = {p.line: p for p in sheet.problems}
    read = {getattr(o, "line", None): o for o in sheet.orders}  # a list item is one order: one per line
    report = play_turn(board, state, sheet).report_json() if sheet.orders else {"orders": []}
    # Only this seat's own lines are looked at: the rest of the report is every other unit's default.
    entries: dict[int, list[dict[str, Any]]] = {}
    for entry in report.get("orders", []):
        if entry.get("line") and (entry.get("power") in (power, None) if power != GM else True):
            entries.setdefault(int(entry["line"]), []).append(entry)
    statuses = []
    for number, text in enumerate(lines, 1):
        status: dict[str, Any] = {"line": number, "order": text}
        if number in problems:
            p = problems[number]
            status.update(status="unreadable", reason=p.reason, column=p.column, suggestions=list(p.suggestions))
        else:
            found = entries.get(number, [])
            bad = next((e for e in found if e.get("status") in _REFUSED), None)
            if bad is not None and bad["status"] == "void" and not rules.void_known_on_arrival(
                    board, state, power, read.get(number)):
                bad = None
            if bad is not None:
                status.update(status=bad["status"], reason=bad.get("reason", ""))
            else:
                status["status"] = "ok"
            understood = next((e.get("understood_as") for e in found if e.get("understood_as")), None)
            if understood:
                status["understood_as"] = understood
        statuses.append(status)
    return statuses
