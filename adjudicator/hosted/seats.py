"""A hosted game's seats after each judged phase: who missed their orders (NMR) and who falls into civil disorder.

A power missed a phase when it had a choice to make (`GameRules.choosers`: a forced disband, or a power with
nothing to order, is not a choice) and sent no orders; a seat the game master gave orders for did not miss. A seat
falls into civil disorder once it has missed the game's `disorder_after` movement phases in a row (0: never); it
leaves it when it sends orders again or is handed to a new player.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatCount:
    """A seat's record before a phase is judged: its missed phases, those in a row, and its civil disorder."""

    power: str
    missed: int
    missed_in_row: int
    civil_disorder: bool


@dataclass(frozen=True)
class AfterPhase:
    """What a judged phase does to the seats: who missed it, each changed seat's new record, who fell into civil
    disorder now."""

    missed: list[str]
    changed: list[SeatCount]
    into_disorder: list[str]


def after_phase(seats: Sequence[SeatCount], choosers: Collection[str], ordered: Collection[str], movement: bool,
                disorder_after: int) -> AfterPhase:
    """The seats' records after a phase in which `choosers` had a choice to make and `ordered` sent orders."""
    missed = [s.power for s in seats if s.power in choosers and s.power not in ordered]
    changed, into = [], []
    for seat in seats:
        row = seat.missed_in_row
        if movement and seat.power in choosers:
            row = row + 1 if seat.power in missed else 0
        disorder = seat.civil_disorder or (disorder_after > 0 and row >= disorder_after)
        new = SeatCount(seat.power, seat.missed + (seat.power in missed), row, disorder)
        if new != seat:
            changed.append(new)
        if disorder and not seat.civil_disorder:
            into.append(seat.power)
    return AfterPhase(missed, changed, into)
