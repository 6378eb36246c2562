"""A hosted game begun from a recorded one: its past phases stored as judged phases (trigger `imported`), each
with the position it was played from, the orders as recorded, this project's report of them, and the recorded
position after it (the record is what happened; where this judge reads a phase otherwise, the phase's report
says so, in its notes, never silently)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.game import rules_of
from adjudicator.gamefile import game_to_data
from adjudicator.hosted.errors import HostedError
from adjudicator.hosted.orders import read_orders
from adjudicator.loading import position_of
from adjudicator.refusals import Kind
from adjudicator.turn import SheetRefused, play_turn

TRIGGER = "imported"


@dataclass(frozen=True)
class ImportedPhase:
    """One recorded phase to store: the positions before and after it (a game file's data), the orders each
    power sent (as recorded), and what differs between the record and this judge."""

    orders: dict[str, list[str]]
    before: dict[str, Any]
    after: dict[str, Any]
    notes: tuple[str, ...] = ()


def imported_rows(board: Any, phases: list[ImportedPhase], now: float, pointer: str = "/record") \
        -> list[dict[str, Any]]:
    """The judged-phase rows (PhaseRecord's columns but the game's id and the phase number) of recorded phases."""
    rules = rules_of(board)
    rows: list[dict[str, Any]] = []
    for i, phase in enumerate(phases):
        at = f"{pointer}/phases/{i}"
        _, before = position_of(board, {**phase.before, "variant": board.name}, pointer=at, located=False,
                                to_judge=True)
        _, after = position_of(board, {**phase.after, "variant": board.name}, pointer=at, located=False)
        try:
            turn = play_turn(board, before, read_orders(board, before, phase.orders))
        except SheetRefused as exc:
            raise HostedError(Kind.BAD_INPUT, "Bad record", f"phase {i + 1}'s orders cannot be judged together: "
                              f"{exc.message}", pointer=at) from None
        report = turn.report_json()
        text = turn.report_text()
        if phase.notes:
            report["imported"] = {"notes": list(phase.notes)}
            text = text.rstrip() + "\n\nAs recorded, not as judged here: " + "; ".join(phase.notes) + "\n"
        rows.append({"name": rules.phase_name(before) or f"phase {i + 1}", "trigger": TRIGGER,
                     "orders": {p: list(o) for p, o in phase.orders.items()},
                     "given_by": {p: p for p in phase.orders}, "report": report, "report_text": text,
                     "state_before": _data(board, before), "state_after": _data(board, after), "history": None,
                     "adjudicated_at": now, "drawn": turn.drawn(), "missed": []})
    return rows


def _data(board: Any, state: Any) -> dict[str, Any]:
    """A position as a hosted game stores it (its history lives in the judged phases)."""
    data = game_to_data(board, state)
    data.pop("history", None)
    return data
