"""What happened to each order, with a reason a player understands, and the structured cause behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class Order(Protocol):
    """An order as a game read it: it can say itself in canonical form."""

    def describe(self) -> str:
        """The order in canonical form."""
        ...


class Unit(Protocol):
    """A piece on a board: its kind, where it stands, whose it is (read only: a game's units may be frozen)."""

    @property
    def type(self) -> str: ...

    @property
    def location(self) -> str: ...

    @property
    def power(self) -> str: ...

# Status of an order in the report.
SUCCEEDS = "succeeds"  # carried out (moved, supported, convoyed, held, built, retreated...)
FAILS = "fails"  # a legal order that did not succeed (bounced, cut, disrupted, dislodged...)
VOID = "void"  # legal when written but with nothing to act on (support for a move not made)
ILLEGAL = "illegal"  # impossible order: ignored, the unit holds (or, retreating, is disbanded)
IGNORED = "ignored"  # not an order for a unit of this power (no such unit, another power's unit...)
DEFAULT = "default"  # no order given: hold, disband, waive, or civil disorder


@dataclass
class OrderResult:
    """One line of the judge's report."""

    power: str | None
    text: str  # the order as written, or the default order for a unit without one
    status: str
    reason: str
    unit: Unit | None = None
    order: Order | None = None  # the order as understood (canonical), when it was read
    line: int | None = None
    cause: dict[str, Any] = field(default_factory=dict)

    @property
    def applied(self) -> bool:
        """Whether this order was the one the unit executed (even if it failed)."""
        return self.status in (SUCCEEDS, FAILS, VOID, DEFAULT)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out: dict[str, Any] = {
            "power": self.power,
            "order": self.text,
            "status": self.status,
            "reason": self.reason,
        }
        if self.order is not None:
            out["understood_as"] = self.order.describe()
        if self.unit is not None:
            out["unit"] = {"type": self.unit.type, "location": self.unit.location, "power": self.unit.power}
        if self.line is not None:
            out["line"] = self.line
        if self.cause:
            out["cause"] = self.cause
        return out
