"""What a hosted game needs when its time comes (`Game.wake_at`): a paused game's cap resumes it, a deadline's
reminder is sent, a passed deadline gives its grace and NMR extensions to powers that have sent nothing, or the
phase is judged. The ticker and the first request after the time both ask (`Service` acts on the answer under
the game's row lock, so several instances act once).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.hosted.models import Game
from adjudicator.hosted.settings import Settings


@dataclass(frozen=True)
class Due:
    """What is due: `resume`, `remind`, `extend` (to `deadline`, `grace` or an NMR extension), `judge`, or nothing."""

    action: str
    deadline: float | None = None
    grace: bool = False


NOTHING = Due("")


def due(game: Game, settings: Settings, now: float, missing: bool) -> Due:
    """What the game needs at `now`; `missing`: a power that must act has sent nothing."""
    if game.status == "paused":
        return Due("resume") if game.paused_until is not None and now >= game.paused_until else NOTHING
    if game.status != "active" or game.deadline_at is None:
        return NOTHING
    if now >= game.deadline_at:
        if missing:
            extended = settings.extended(game.deadline_at, game.extensions_used, game.grace_used)
            if extended is not None:
                deadline, what = extended
                return Due("extend", deadline, what == "grace")
        return Due("judge")
    reminder = settings.reminder_at(game.deadline_at, game.phase_started_at)
    if not game.reminded and reminder is not None and now >= reminder:
        return Due("remind")
    return NOTHING


def next_wake(settings: Settings, status: str, deadline: float | None, started: float, reminded: bool = False,
              paused_until: float | None = None) -> float | None:
    """The next time a game needs the ticker: its pause's cap, its deadline's reminder, or its deadline."""
    if status == "paused":
        return paused_until
    if status != "active" or deadline is None:
        return None
    reminder = None if reminded else settings.reminder_at(deadline, started)
    return min(deadline, reminder) if reminder is not None else deadline


def wake_of(game: Game, settings: Settings) -> float | None:
    """`next_wake` of a game as it stands."""
    return next_wake(settings, game.status, game.deadline_at, game.phase_started_at, game.reminded, game.paused_until)
