"""Orders as written (names resolved to province ids, nothing yet checked against the position)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board, join_location

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


class Order:
    """One order as written: each kind is its own class below (`Move`, `Support`...), matched by type. Every
    order has its unit (None for a waive), its power, its text and line, and how an ambiguous name was settled
    (`notes`); `kind` names the class in JSON (`"move"`)."""

    __slots__ = ()
    kind: ClassVar[str]
    unit: UnitRef | None
    power: str | None
    text: str
    line: int | None
    notes: tuple[str, ...]

    def describe(self) -> str:
        """A canonical spelling, e.g. `F nth S A yor - bel`."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.describe()


def _at(dest: str, coast: str | None) -> str:
    return join_location(dest, coast)


@dataclass(frozen=True, slots=True)
class Hold(Order):
    """`A par H`."""

    kind: ClassVar[str] = "hold"
    unit: UnitRef
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move(Order):
    """`A par - bur`; `path`: the seas a convoyed move names (`A yor - nth - bel`: DATC 4.A.6)."""

    kind: ClassVar[str] = "move"
    unit: UnitRef
    dest: str
    dest_coast: str | None = None
    via_convoy: bool = False
    path: tuple[str, ...] = ()
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        return (f"{self.unit} - {''.join(p + ' - ' for p in self.path)}{_at(self.dest, self.dest_coast)}"
                f"{' via convoy' if self.via_convoy else ''}")


@dataclass(frozen=True, slots=True)
class Support(Order):
    """`F nth S A yor - bel`; with no `dest`, a support of the target's hold."""

    kind: ClassVar[str] = "support"
    unit: UnitRef
    target: UnitRef
    dest: str | None = None
    dest_coast: str | None = None
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        return f"{self.unit} S {self.target}" + (f" - {_at(self.dest, self.dest_coast)}" if self.dest else "")


@dataclass(frozen=True, slots=True)
class Convoy(Order):
    """`F nth C A yor - bel`."""

    kind: ClassVar[str] = "convoy"
    unit: UnitRef
    target: UnitRef
    dest: str
    dest_coast: str | None = None
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        return f"{self.unit} C {self.target} - {_at(self.dest, self.dest_coast)}"


@dataclass(frozen=True, slots=True)
class Retreat(Order):
    """`A par R bur`."""

    kind: ClassVar[str] = "retreat"
    unit: UnitRef
    dest: str
    dest_coast: str | None = None
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        return f"{self.unit} R {_at(self.dest, self.dest_coast)}"


@dataclass(frozen=True, slots=True)
class Disband(Order):
    """`Disband A par` (a dislodged unit, or a removal written so)."""

    kind: ClassVar[str] = "disband"
    unit: UnitRef
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        return f"Disband {self.unit}"


@dataclass(frozen=True, slots=True)
class Remove(Order):
    """`Remove A par`."""

    kind: ClassVar[str] = "remove"
    unit: UnitRef
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        return f"Remove {self.unit}"


@dataclass(frozen=True, slots=True)
class Build(Order):
    """`Build F stp/nc`: `unit` is the new unit."""

    kind: ClassVar[str] = "build"
    unit: UnitRef
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        return f"Build {self.unit}"


@dataclass(frozen=True, slots=True)
class Waive(Order):
    """`Waive`: a build not taken."""

    kind: ClassVar[str] = "waive"
    unit: None = None
    power: str | None = None
    text: str = ""
    line: int | None = None
    notes: tuple[str, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        return "Waive"


ORDER_CLASSES: dict[str, type[Order]] = {cls.kind: cls for cls in (Hold, Move, Support, Convoy, Retreat, Disband,
                                                                    Remove, Build, Waive)}
ORDER_KINDS = tuple(ORDER_CLASSES)
def target_of(order: Order) -> UnitRef | None:
    """The unit a support or convoy is for (None for the other kinds)."""
    return order.target if isinstance(order, (Support, Convoy)) else None


def destination_of(order: Order) -> tuple[str, str | None] | None:
    """(province, coast or None) a move, retreat, convoy or support names (None for the other kinds, and for a
    support of a hold)."""
    if isinstance(order, (Move, Support, Convoy, Retreat)) and order.dest is not None:
        return order.dest, order.dest_coast
    return None


# The readers' hot path makes its orders and UnitRefs as plain slotted objects of the same layout and then gives
# them their class: a frozen dataclass's `__init__` sets each field through `object.__setattr__` and costs three
# times as much. (Slots, not a `__dict__`: one object the collector tracks per order instead of two.) Each
# order class has its twin, made from the class's own slots; the twins all take the readers' whole reading.
def _twin(cls: type[Order]) -> Callable[..., Order]:
    slots = cls.__slots__
    own = [s for s in ("unit", "target", "dest", "dest_coast", "via_convoy", "power", "text", "line", "notes", "path")
           if s in slots]
    assert sorted(own) == sorted(slots), cls  # (every field of every order class is one the readers read)
    body = "".join(f"    self.{s} = {s}\n" for s in own)
    source = (f"def __init__(self, unit, target, dest, dest_coast, via_convoy, power, text, line, notes, path):\n"
              f"{body}")
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # (one store per field and no more: the point of the twin)
    twin = type(f"_{cls.__name__}Slots", (Order,), {"__slots__": slots, "__init__": namespace["__init__"]})

    def make(unit: UnitRef | None, target: UnitRef | None, dest: str | None, dest_coast: str | None,
             via_convoy: bool, power: str | None, text: str, line: int | None, notes: tuple[str, ...],
             path: tuple[str, ...]) -> Order:
        order = twin(unit, target, dest, dest_coast, via_convoy, power, text, line, notes, path)
        order.__class__ = cls
        return order  # type: ignore[no-any-return]

    return make


_MAKERS = {kind: _twin(cls) for kind, cls in ORDER_CLASSES.items()}


def new_order(kind: str, unit: UnitRef | None, target: UnitRef | None, dest: str | None, dest_coast: str | None,
              via_convoy: bool, power: str | None, text: str, line: int | None, notes: tuple[str, ...],
              path: tuple[str, ...] = ()) -> Order:
    """The order of this kind from a reader's whole reading (the fields its kind has no use for are dropped):
    the same value as `Move(...)` and the others, made without the frozen dataclass's `__init__`."""
    return _MAKERS[kind](unit, target, dest, dest_coast, via_convoy, power, text, line, notes, path)


class _UnitRefSlots:
    __slots__ = ("type", "province", "coast", "power")

    def __init__(self, unit_type: str | None, province: str, coast: str | None, power: str | None) -> None:
        self.type, self.province, self.coast, self.power = unit_type, province, coast, power


def new_unit_ref(unit_type: str | None, province: str, coast: str | None, power: str | None) -> UnitRef:
    """`UnitRef(...)` for the readers' hot path, as `new_order`."""
    ref = _UnitRefSlots(unit_type, province, coast, power)
    ref.__class__ = UnitRef  # type: ignore[assignment]
    return ref  # type: ignore[return-value]


@functools.lru_cache(maxsize=8)
def unit_refs(board: Board) -> dict[tuple[str | None, str, str | None, None], UnitRef]:
    """The UnitRef of every unit an order may name without a power, by (type or None, province, coast or None,
    None): made once per board, so that reading orders makes none (eight boards at most, as `parser_for`)."""
    return {(unit_type, province.id, coast, None): new_unit_ref(unit_type, province.id, coast, None)
            for province in board.provinces.values() for coast in (None, *province.coasts)
            for unit_type in (None, ARMY, FLEET)}


@functools.lru_cache(maxsize=8)
def unit_refs_by_text(board: Board) -> dict[str, UnitRef]:
    """The same UnitRefs by their canonical text (`A par`, `F stp/nc`, `stp/nc`): what order objects name."""
    return {str(ref): ref for ref in unit_refs(board).values()}
