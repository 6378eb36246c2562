"""The steps of an order sheet, as understood: what each asks for, before any rule is checked."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Step:
    """A step as written: its text (without the country prefix), line, and the country it is for."""

    text: str = ""
    line: int | None = None
    country: str | None = None


@dataclass(frozen=True, kw_only=True)
class Header(Step):
    """`USA:` alone: the start of a country's action (an action with no step does nothing and is refused)."""


@dataclass(frozen=True, kw_only=True)
class Move(Step):
    """Move ships of the country from one sector to an adjacent one."""

    ships: int = 1
    source: str
    dest: str


@dataclass(frozen=True, kw_only=True)
class ShipAttack(Step):
    """Ships of the country attack ships of another country in a sector, one for one."""

    sector: str
    target: str
    ships: int = 1


@dataclass(frozen=True, kw_only=True)
class PlatformAttack(Step):
    """Ships of the country destroy the platform of a sector (None: every ship able to attack it)."""

    sector: str
    ships: int | None = None


@dataclass(frozen=True, kw_only=True)
class AutoMove(Step):
    """China's automatic move: every Chinese ship one sector north (Phase 5)."""


@dataclass(frozen=True, kw_only=True)
class Declare(Step):
    """Diplomacy: put the target's marker on the country's conflict space (replacing any other)."""

    target: str


@dataclass(frozen=True, kw_only=True)
class EndConflict(Step):
    """Diplomacy: clear the country's conflict space."""

    target: str | None = None


@dataclass(frozen=True, kw_only=True)
class Vote(Step):
    """Diplomacy: move the country's Council marker(s) to a law."""

    law: str


@dataclass(frozen=True, kw_only=True)
class SupportJoin(Step):
    """Diplomacy (in Norway): one more marker supporting Norway's admission to the EU."""

    target: str


@dataclass(frozen=True, kw_only=True)
class Keep(Step):
    """A platform owner's standing decision: pay the fee to keep a protected platform (or not) if its sector
    changes hands. `player`, when written, must be the owner."""

    sector: str
    pay: bool = True
    player: str | None = None


@dataclass(frozen=True, kw_only=True)
class Protect(Step):
    """Lobbyist Reassignment III: a lobbyist of the country protects the platform of a sector (P20)."""

    sector: str


@dataclass(frozen=True, kw_only=True)
class EndTurn(Step):
    """Phase 9: Norway's accession, the Council's vote, control re-marked under a new law; then the next turn."""


SHIP_STEPS = (Move, ShipAttack, PlatformAttack)
DIPLOMACY_STEPS = (Declare, EndConflict, Vote, SupportJoin)
