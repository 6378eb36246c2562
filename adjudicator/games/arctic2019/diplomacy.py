"""Diplomacy ("I - Diplomacy"): the conflict space, the Council vote, support for Norway's admission to the EU.
These are the inputs the ship rules and the end of the turn read (P14, P15)."""

from __future__ import annotations

from adjudicator.outcome import SUCCEEDS

from .context import Context, Refused, country_of
from .movement import Outcome
from .state import active_countries, voting_countries
from .steps import Declare, EndConflict, SupportJoin, Vote


def declare(ctx: Context, step: Declare) -> Outcome:
    """Put another country's marker on the country's conflict space, removing the one there (at most one)."""
    board, state, c, d = ctx.board, ctx.state, country_of(step), step.target
    if d == c:
        raise Refused("no_effect", "a country cannot declare a conflict against itself")
    if not board.countries[d].arctic:
        raise Refused("no_effect", f"no effect: every Arctic country is always in conflict with {ctx.name(d)}")
    if d not in active_countries(board, state):
        raise Refused("no_effect", f"{ctx.name(d)} has joined {ctx.name(board.countries[d].joins)}")
    previous = state.conflicts.get(c)
    if previous == d:
        raise Refused("no_effect", f"no effect: {ctx.name(c)} has already declared a conflict against {ctx.name(d)}")
    state.conflicts[c] = d
    ended = f", ending its conflict with {ctx.name(previous)}" if previous else ""
    note = f"{ctx.name(c)} declares a conflict against {ctx.name(d)}{ended}"
    ctx.trace.append(note)
    return SUCCEEDS, note, {"conflict": [c, d]}


def end_conflict(ctx: Context, step: EndConflict) -> Outcome:
    """Remove the marker from the country's conflict space."""
    state, c = ctx.state, country_of(step)
    previous = state.conflicts.get(c)
    if previous is None:
        raise Refused("no_effect", f"no effect: {ctx.name(c)} has declared no conflict")
    if step.target is not None and step.target != previous:
        raise Refused("no_effect", f"no effect: {ctx.name(c)}'s declared conflict is with {ctx.name(previous)}, "
                                   f"not {ctx.name(step.target)}")
    state.conflicts[c] = None
    note = f"{ctx.name(c)} ends its conflict with {ctx.name(previous)}"
    ctx.trace.append(note)
    return SUCCEEDS, note, {"ended": [c, previous]}


def vote(ctx: Context, step: Vote) -> Outcome:
    """Move all the country's Council markers to a law."""
    board, state, c = ctx.board, ctx.state, country_of(step)
    if c not in voting_countries(board, state):
        raise Refused("no_vote", f"{ctx.name(c)} has no vote in the Arctic Council")
    if state.council[c] == step.law:
        raise Refused("no_effect", f"no effect: {ctx.name(c)} already supports law {step.law}")
    state.council[c] = step.law
    note = f"{ctx.name(c)} now supports law {step.law} ({board.laws[step.law].name})"
    ctx.trace.append(note)
    return SUCCEEDS, note, {"vote": [c, step.law]}


def support_join(ctx: Context, step: SupportJoin) -> Outcome:
    """In Norway: one more EU marker on Norway's two special spaces (it joins at the end of a turn with two)."""
    board, state, c = ctx.board, ctx.state, country_of(step)
    joins = board.countries[c].joins
    if joins is None or joins != step.target:
        raise Refused("not_here", "support for joining the EU is an action in Norway only" if joins is None else
                      f"{ctx.name(c)} may only join {ctx.name(joins)}")
    if state.norway_in_eu:
        raise Refused("no_effect", f"no effect: {ctx.name(c)} has already joined {ctx.name(joins)}")
    if state.norway_eu_support >= 2:
        raise Refused("no_effect", f"no effect: both spaces already hold a marker; {ctx.name(c)} joins "
                                   f"{ctx.name(joins)} at the end of the turn")
    state.norway_eu_support += 1
    note = f"support for {ctx.name(c)} joining {ctx.name(joins)}: {state.norway_eu_support} of 2"
    ctx.trace.append(note)
    return SUCCEEDS, note, {"support": state.norway_eu_support}
