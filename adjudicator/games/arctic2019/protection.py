"""Lobbyists' protection of platforms ("Lobbyist Reassignment", III): given by a country's `protect` step in
phase 6, it lasts "throughout the rest of the current turn and until the end of this country's actions in
phase 6 of the following turn" (P19, P20 in variants/arctic2019.md)."""

from __future__ import annotations

from adjudicator.outcome import SUCCEEDS

from .context import Context, Refused, country_of
from .movement import Outcome
from .state import PROTECTION_PHASE
from .steps import EndTurn, Keep, Protect, Step


def protect(ctx: Context, step: Protect) -> Outcome:
    """A lobbyist of the country protects a platform (anyone's, legal or not); at most one per platform."""
    board, state, c, s = ctx.board, ctx.state, country_of(step), step.sector
    p = state.platforms.get(s)
    if p is None:
        raise Refused("no_platform", f"no platform: there is no platform in {board.sector_name(s)}")
    if not board.countries[c].arctic:
        raise Refused("no_display", f"{ctx.name(c)} has no lobbyists' track: only Arctic region countries protect "
                                    f"platforms")
    if p.protected_by is not None:
        raise Refused("already_protected", f"already protected: {p.owner}'s platform in {s} is protected by "
                                           f"{ctx.lobbyist(p.protected_by)} (a platform may be protected by only 1 "
                                           f"lobbyist)", protector=p.protected_by)
    p.protected_by, p.protected_since = c, state.turn
    note = (f"{ctx.lobbyist(c)} protects {p.owner}'s platform in {s} until the end of "
            f"{ctx.name(c)}'s actions in phase {PROTECTION_PHASE} of turn {state.turn + 1}")
    ctx.trace.append(note)
    return SUCCEEDS, note, {"protected_by": c, "sector": s, "until_turn": state.turn + 1}


def expire(ctx: Context, step: Step, acted: set[str]) -> None:
    """Before a step: end every protection given last turn whose protector's phase-6 actions are now over.

    They are over at `end of turn` (phase 6 is done), at a step of another Arctic country once the protector
    has taken a step this turn (a country completes all its actions before the next begins), and at a step of
    an Arctic country that comes after the protector in the phase-6 order (`acted`: the countries that have
    taken a step this turn). China's steps (phase 5) and the owners' decisions end nothing."""
    board, state = ctx.board, ctx.state
    if isinstance(step, Keep):
        return
    order = board.arctic_countries
    other = step.country if step.country in order else None
    for sector, p in state.platforms.items():
        x = p.protected_by
        if x is None or p.protected_since is None or p.protected_since >= state.turn:
            continue
        if isinstance(step, EndTurn):
            why = f"phase {PROTECTION_PHASE} is over"
        elif other is None or other == x:
            continue
        elif x in acted:
            why = f"{ctx.name(x)}'s actions are over ({ctx.name(other)} acts next)"
        elif order.index(other) > order.index(x):
            why = f"{ctx.name(x)}'s turn in phase {PROTECTION_PHASE} is over ({ctx.name(other)}, after it, acts)"
        else:
            continue
        ctx.trace.append(f"{p.owner}'s platform in {sector} is no longer protected: the {ctx.adjective(x)} "
                         f"lobbyist (since turn {p.protected_since}) returns, {why}")
        p.unprotect()
