"""What decided each order of a movement phase: one small record per kind of outcome, found by the judge's own
deciding code (`MovementJudge.settled`), from which the reason sentence and the `cause` of the report are
written."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.outcome import OrderResult


@dataclass(frozen=True, slots=True)
class HoldFact:
    """A hold: nothing to decide (what befalls the unit is said apart)."""


@dataclass(frozen=True, slots=True)
class NoConvoy:
    """A move by convoy that no fleet was ordered to convoy."""


@dataclass(frozen=True, slots=True)
class ConvoyParadox:
    """A move by convoy whose convoy failed in a convoy paradox (DATC 4.A.2)."""


@dataclass(frozen=True, slots=True)
class ConvoyDisrupted:
    """A move by convoy with no route of fleets left that succeed: the missing path."""


@dataclass(frozen=True, slots=True)
class OwnUnit:
    """A move against a unit of its own power in `where`, which stays (attack strength 0)."""

    where: str


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """A move that met the unit in `opponent` head-to-head and did not beat its `defence`."""

    opponent: str
    defence: int


Blocked = NoConvoy | ConvoyParadox | ConvoyDisrupted | OwnUnit | HeadToHead


@dataclass(frozen=True, slots=True)
class Opposition:
    """What a move had to overcome and did not: the unit holding its destination (`holding`), or another move
    there (its prevent strength)."""

    province: str
    holding: bool
    strength: int


@dataclass(slots=True)  # (not frozen, as `Supported`)
class Moved:
    """A move that succeeded: its attack `strength` beat everything at its destination; it arrives at `to`."""

    strength: int
    to: str


@dataclass(slots=True)
class MoveFact:
    """A move to `dest` that failed: its attack `strength`, what `blocked` it outright, or everything that
    `opposed` it at least as strong."""

    dest: str
    strength: int = 0
    blocked: Blocked | None = None
    opposed: list[Opposition] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SupportVoid:
    """A support of the unit in `target` (its hold, or its move to `dest`) that the unit did not act on;
    `moved_to` and `coast` when it moved there but to another coast than the one the support names (DATC 6.B.9)."""

    target: str
    dest: str | None
    moved_to: str | None = None
    coast: str | None = None


@dataclass(slots=True)  # (not frozen: one is made for most orders of a report, and a frozen dataclass's `__init__` costs
class Supported:  # three times as much)
    """A support given: of the unit in `target`, its hold or its move to `dest`."""

    target: str
    dest: str | None


@dataclass(slots=True)
class SupportFact:
    """A support of the unit in `target` (its hold, or its move to `dest`) that failed: the units that cut it
    (none: its unit was dislodged, or the rules settled it)."""

    target: str
    dest: str | None
    cut_by: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ConvoyVoid:
    """A convoy of an army not ordered to move to `dest` by convoy."""

    target: str
    dest: str


@dataclass(frozen=True, slots=True)
class ConvoyFact:
    """A convoy of the army in `target` to `dest`; `paradox`: part of a convoy paradox (DATC 4.A.2)."""

    target: str
    dest: str
    paradox: bool = False


Fact = HoldFact | Moved | MoveFact | Supported | SupportVoid | SupportFact | ConvoyVoid | ConvoyFact


@dataclass(slots=True)
class UnitLine:
    """A unit's report line, and what befell the unit beyond its order (`dislodged by ...`), each said after the
    reason: kept apart so that a refused order's line can say it too."""

    result: OrderResult
    befell: tuple[str, ...]
