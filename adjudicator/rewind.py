"""Every judged step can be undone: each history entry the game master's tool writes keeps the position the phase
was judged from (and the digest of its sheet), so `adjudicator rewind` puts the game back as it was before its
last judged phase, or before any phase named, for every game alike.
"""

from __future__ import annotations

from typing import Any

from adjudicator.errors import StateError
from adjudicator.game import rules_of


def keep_for_rewind(board: Any, state: Any, next_state: Any, digest: str | None) -> None:
    """Record in `next_state`'s newest history entry what undoing it needs: the phase it judged, the position it
    was judged from (without that position's own history, which the entries before hold) and the sheet's digest
    (None when judged with no sheet)."""
    rules = rules_of(board)
    entry = next_state.history[-1]
    phase = rules.phase_name(state)
    if phase and not entry.get("phase"):
        entry["phase"] = phase
    position = rules.state_to_data(board, state)
    position.pop("history", None)
    entry["sheet"] = digest
    entry["position"] = position


def phase_label(entry: Any, index: int) -> str:
    """How a history entry is named to a person: its phase, else its place in the history."""
    return str(entry.get("phase") or f"step {index + 1}") if isinstance(entry, dict) else f"step {index + 1}"


def rewind(board: Any, state: Any, to: str | None = None, file: str | None = None) -> tuple[Any, str]:
    """(the position before the last judged phase, or before the phase named `to`, with the history before it;
    that phase's name). A StateError names the phases that can be rewound to when `to` is none of them, and says
    so when the entry keeps no position (written before positions were kept, or by another program)."""
    rules = rules_of(board)
    history = list(getattr(state, "history", None) or [])
    if not history:
        raise StateError("the game has no judged phase to rewind: its history is empty", file=file)
    index = len(history) - 1
    if to is not None:
        wanted = " ".join(to.split()).casefold()
        matches = [i for i, e in enumerate(history) if " ".join(phase_label(e, i).split()).casefold() == wanted]
        if not matches:
            known = ", ".join(phase_label(e, i) for i, e in enumerate(history))
            raise StateError(f"no judged phase {to!r} in the game's history; it holds: {known}", file=file)
        index = matches[-1]
    entry = history[index]
    label = phase_label(entry, index)
    position = entry.get("position") if isinstance(entry, dict) else None
    if not isinstance(position, dict):
        raise StateError(f"the history entry of {label} keeps no position to go back to (it was written by an older "
                         f"version, or by another program): restore the game from a backup", file=file,
                         pointer=f"/history/{index}")
    data = {**position, "history": history[:index]}
    return rules.state_from_data(board, data, file), label
