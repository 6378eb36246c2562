"""Commands: what each unit executes in a movement phase, once its order is checked against the position (one
class per kind, matched by type)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from adjudicator.games.diplomacy.orders.model import Order
from adjudicator.games.diplomacy.state import Unit


class Command:
    """A validated order of one unit: what the engine executes, one class per kind (`MoveCommand`...), matched by
    type; `order` is the order it was read from (None: a unit without one holds). Slots: one is made for every
    unit of every phase."""

    __slots__ = ()
    kind: ClassVar[str]
    unit: Unit
    order: Order | None

    @property
    def province(self) -> str:
        """Where the unit stands."""
        return self.unit.province


@dataclass(slots=True)
class HoldCommand(Command):
    """The unit holds (ordered to, or given no order)."""

    kind: ClassVar[str] = "hold"
    unit: Unit
    order: Order | None = None


@dataclass(slots=True)
class MoveCommand(Command):
    """A move to `dest` (a province), arriving at `dest_location` (its coast, for a fleet)."""

    kind: ClassVar[str] = "move"
    unit: Unit
    dest: str
    dest_location: str
    via_convoy: bool  # (settled for the whole phase: DATC 4.A.3)
    order: Order | None = None


@dataclass(slots=True)
class SupportCommand(Command):
    """A support of the unit in `target`: of its hold (`dest` None) or of its move to `dest`; `target_coast` is
    the coast the support names for that move (it must match the move's if given)."""

    kind: ClassVar[str] = "support"
    unit: Unit
    target: str
    dest: str | None
    target_coast: str | None
    order: Order | None = None


@dataclass(slots=True)
class ConvoyCommand(Command):
    """A convoy of the army in `target` to `dest`."""

    kind: ClassVar[str] = "convoy"
    unit: Unit
    target: str
    dest: str
    order: Order | None = None
