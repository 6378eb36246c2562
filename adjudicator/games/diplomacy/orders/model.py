"""Orders as written (names resolved to province ids, nothing yet checked against the position)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, ClassVar

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

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as its fields (a worker process's jobs and results): a slotted frozen dataclass's own pickling
        # walks its fields one by one, several times slower.
        return new_unit_ref, (self.type, self.province, self.coast, self.power)


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

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as its kind and fields (as UnitRef's), made again by `new_order`.
        get = lambda name, default=None: getattr(self, name, default)  # noqa: E731  # (each kind has some)
        return new_order, (self.kind, self.unit, get("target"), get("dest"), get("dest_coast"), get("via_convoy", False),
                           self.power, self.text, self.line, self.notes, get("path", ()))


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
# times as much. (Slots, not a `__dict__`: one object the collector tracks per order instead of two.) A twin has
# the slots of the classes it stands for (the same names: `__class__` may be assigned between them) and takes
# the readers' whole reading.
class _PlainSlots(Order):  # Hold, Disband, Remove, Build, Waive
    __slots__ = Hold.__slots__

    def __init__(self, unit: UnitRef | None, target: UnitRef | None, dest: str | None, dest_coast: str | None,
                 via_convoy: bool, power: str | None, text: str, line: int | None, notes: tuple[str, ...],
                 path: tuple[str, ...]) -> None:
        self.unit, self.power, self.text, self.line, self.notes = unit, power, text, line, notes


class _MoveSlots(Order):
    __slots__ = Move.__slots__

    def __init__(self, unit: UnitRef, target: UnitRef | None, dest: str, dest_coast: str | None, via_convoy: bool,
                 power: str | None, text: str, line: int | None, notes: tuple[str, ...],
                 path: tuple[str, ...]) -> None:
        self.unit, self.dest, self.dest_coast, self.via_convoy, self.path = unit, dest, dest_coast, via_convoy, path
        self.power, self.text, self.line, self.notes = power, text, line, notes


class _AimedSlots(Order):  # Support, Convoy
    __slots__ = Support.__slots__

    def __init__(self, unit: UnitRef, target: UnitRef, dest: str | None, dest_coast: str | None, via_convoy: bool,
                 power: str | None, text: str, line: int | None, notes: tuple[str, ...],
                 path: tuple[str, ...]) -> None:
        self.unit, self.target, self.dest, self.dest_coast = unit, target, dest, dest_coast
        self.power, self.text, self.line, self.notes = power, text, line, notes


class _RetreatSlots(Order):
    __slots__ = Retreat.__slots__

    def __init__(self, unit: UnitRef, target: UnitRef | None, dest: str, dest_coast: str | None, via_convoy: bool,
                 power: str | None, text: str, line: int | None, notes: tuple[str, ...],
                 path: tuple[str, ...]) -> None:
        self.unit, self.dest, self.dest_coast = unit, dest, dest_coast
        self.power, self.text, self.line, self.notes = power, text, line, notes


# kind -> (its twin, its class)
_TWINS: dict[str, tuple[type[Order], type[Order]]] = {
    "hold": (_PlainSlots, Hold), "move": (_MoveSlots, Move), "support": (_AimedSlots, Support),
    "convoy": (_AimedSlots, Convoy), "retreat": (_RetreatSlots, Retreat), "disband": (_PlainSlots, Disband),
    "remove": (_PlainSlots, Remove), "build": (_PlainSlots, Build), "waive": (_PlainSlots, Waive)}


def new_order(kind: str, unit: UnitRef | None, target: UnitRef | None, dest: str | None, dest_coast: str | None,
              via_convoy: bool, power: str | None, text: str, line: int | None, notes: tuple[str, ...],
              path: tuple[str, ...] = ()) -> Order:
    """The order of this kind from a reader's whole reading (the fields its kind has no use for are dropped):
    the same value as `Move(...)` and the others, made without the frozen dataclass's `__init__`."""
    twin, cls = _TWINS[kind]
    order = twin(unit, target, dest, dest_coast, via_convoy, power, text, line, notes, path)  # type: ignore[call-arg]
    order.__class__ = cls
    return order


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
