"""Orders as written (names resolved to province ids, nothing yet checked against the position)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board, join_location

ORDER_KINDS = ("hold", "move", "support", "convoy", "retreat", "disband", "remove", "build", "waive")


@dataclass(frozen=True, slots=True)
class UnitRef:
    """A unit as an order names it: the type and nationality may be missing (DATC 4.C: they are ignored)."""

    type: str | None
    province: str
    coast: str | None = None
    power: str | None = None

    @property
    def location(self) -> str:
        """`stp/nc` or `par`."""
        return join_location(self.province, self.coast)

    def __str__(self) -> str:
        return f"{self.type + ' ' if self.type else ''}{self.location}"


@dataclass(frozen=True, slots=True)
class Order:
    """One order. `dest` is a province (with `dest_coast`); `target` is the supported or convoyed unit.

    A support with no `dest` supports a hold. A `build` names the new unit in `unit`.
    """

    kind: str
    unit: UnitRef | None = None
    target: UnitRef | None = None
    dest: str | None = None
    dest_coast: str | None = None
    via_convoy: bool = False
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)  # how an ambiguous name was settled
    path: tuple[str, ...] = ()  # the seas a convoyed move names (`A yor - nth - bel`: DATC 4.A.6)

    def describe(self) -> str:
        """A canonical spelling, e.g. `F nth S A yor - bel`."""
        dest = join_location(self.dest, self.dest_coast) if self.dest else None
        if self.kind == "hold":
            return f"{self.unit} H"
        if self.kind == "move":
            return f"{self.unit} - {''.join(p + ' - ' for p in self.path)}{dest}{' via convoy' if self.via_convoy else ''}"
        if self.kind == "retreat":
            return f"{self.unit} R {dest}"
        if self.kind == "support":
            return f"{self.unit} S {self.target}" + (f" - {dest}" if dest else "")
        if self.kind == "convoy":
            return f"{self.unit} C {self.target} - {dest}"
        if self.kind in ("disband", "remove"):
            return f"{'Remove' if self.kind == 'remove' else 'Disband'} {self.unit}"
        if self.kind == "build":
            return f"Build {self.unit}"
        return "Waive"

    def __str__(self) -> str:
        return self.describe()


# The readers' hot path makes its Orders and UnitRefs as plain slotted objects of the same layout and then gives
# them their class: a frozen dataclass's `__init__` sets each field through `object.__setattr__` and costs three
# times as much. (Slots, not a `__dict__`: one object the collector tracks per order instead of two.)
class _OrderSlots:
    __slots__ = ("kind", "unit", "target", "dest", "dest_coast", "via_convoy", "power", "text", "line", "notes",
                 "path")

    def __init__(self, kind: str, unit: UnitRef | None, target: UnitRef | None, dest: str | None,
                 dest_coast: str | None, via_convoy: bool, power: str | None, text: str, line: int | None,
                 notes: tuple[str, ...], path: tuple[str, ...]) -> None:
        self.kind, self.unit, self.target, self.dest, self.dest_coast = kind, unit, target, dest, dest_coast
        self.via_convoy, self.power, self.text, self.line, self.notes = via_convoy, power, text, line, notes
        self.path = path


class _UnitRefSlots:
    __slots__ = ("type", "province", "coast", "power")

    def __init__(self, unit_type: str | None, province: str, coast: str | None, power: str | None) -> None:
        self.type, self.province, self.coast, self.power = unit_type, province, coast, power


def new_order(kind: str, unit: UnitRef | None, target: UnitRef | None, dest: str | None, dest_coast: str | None,
              via_convoy: bool, power: str | None, text: str, line: int | None, notes: tuple[str, ...],
              path: tuple[str, ...] = ()) -> Order:
    """`Order(...)` for the readers' hot path: the same value, made without the frozen dataclass's `__init__`."""
    order = _OrderSlots(kind, unit, target, dest, dest_coast, via_convoy, power, text, line, notes, path)
    order.__class__ = Order  # type: ignore[assignment]
    return order  # type: ignore[return-value]


def new_unit_ref(unit_type: str | None, province: str, coast: str | None, power: str | None) -> UnitRef:
    """`UnitRef(...)` for the readers' hot path, as `new_order`."""
    ref = _UnitRefSlots(unit_type, province, coast, power)
    ref.__class__ = UnitRef  # type: ignore[assignment]
    return ref  # type: ignore[return-value]


@functools.lru_cache(maxsize=8)
def unit_refs(board: Board) -> dict[tuple, UnitRef]:
    """The UnitRef of every unit an order may name without a power, by (type or None, province, coast or None,
    None): made once per board, so that reading orders makes none (eight boards at most, as `parser_for`)."""
    return {(unit_type, province.id, coast, None): new_unit_ref(unit_type, province.id, coast, None)
            for province in board.provinces.values() for coast in (None, *province.coasts)
            for unit_type in (None, ARMY, FLEET)}


@functools.lru_cache(maxsize=8)
def unit_refs_by_text(board: Board) -> dict[str, UnitRef]:
    """The same UnitRefs by their canonical text (`A par`, `F stp/nc`, `stp/nc`): what order objects name."""
    return {str(ref): ref for ref in unit_refs(board).values()}
