"""A seat's orders checked on arrival, and the phase's orders read seat by seat, as data.

A submission is checked by its game without judging the board (`GameRules.line_statuses`,
adjudicator/arrival.py): each line is `unreadable` (with why, column and suggestions), `illegal`, `void`,
`ignored` (with why) or `ok`, as `/v1/adjudicate` would judge it with every other unit without orders. An `ok`
order's outcome (succeeds, fails) is not shown: it depends on the other powers' orders, which stay secret; so
is a `void` that hangs on them (a support of another power's move is `ok` until the phase is judged).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.arrival import GM, LinesRefused
from adjudicator.game import rules_of
from adjudicator.refusals import Kind, Refusal
from adjudicator.sheets import Sheet


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
    """Each line's status on arrival, as the board's game checks the seat's lines without judging the board
    (`GameRules.line_statuses`); Refused when they cannot be checked at all."""
    try:
        return [s.to_json() for s in rules_of(board).line_statuses(board, state, power, lines)]
    except LinesRefused as exc:
        raise Refused(exc.reason, []) from None
