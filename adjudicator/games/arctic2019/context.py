"""What a step works on: the board, the position being built, the ships' bookkeeping, and the owners'
decisions; and the refusal a step raises before it changes anything."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.refusals import StepRefused

from .board import Board
from .fleet import Fleet
from .state import State
from .steps import Keep


class Refused(StepRefused):
    """A step the rules do not allow: refused with its reason (and what caused it), it changes nothing."""

    def __init__(self, code: str, message: str, **cause: Any):
        super().__init__(code, message)
        self.cause = {"refusal": code, **cause}


@dataclass
class Context:
    """The working position of one adjudication (a copy: the input state is never touched)."""

    board: Board
    state: State
    fleet: Fleet
    decisions: dict[str, Keep] = field(default_factory=dict)  # sector -> the owner's decision
    used: dict[str, list[tuple[bool, str]]] = field(default_factory=dict)  # sector -> (done as asked, what)
    trace: list[str] = field(default_factory=list)

    def snapshot(self) -> tuple:
        """Everything a step may change, to restore when it is refused."""
        return self.state.copy(), self.fleet.copy(), len(self.trace), {k: list(v) for k, v in self.used.items()}

    def restore(self, snap: tuple) -> None:
        """Undo a refused step."""
        self.state, self.fleet, n, self.used = snap[0], snap[1], snap[2], snap[3]
        del self.trace[n:]

    def name(self, country: str | None) -> str:
        """A country's display name."""
        return self.board.country_name(country)

    def adjective(self, country: str) -> str:
        """`Russian`."""
        return self.board.countries[country].adjective

    def lobbyist(self, country: str) -> str:
        """`a Russian lobbyist`, `an American lobbyist`."""
        adjective = self.adjective(country)
        return f"{'an' if adjective[:1].lower() in 'aeiou' else 'a'} {adjective} lobbyist"


def ships_text(n: int, adjective: str | None = None) -> str:
    """`1 Russian ship`, `2 ships`."""
    return f"{n} {adjective + ' ' if adjective else ''}ship{'s' if n != 1 else ''}"
