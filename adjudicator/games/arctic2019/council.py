"""Phase 9, the end of the turn: Norway's admission to the EU, the Arctic Council's vote (a new law re-marks
control and settles platforms), and the end of the game."""

from __future__ import annotations

from typing import Any

from adjudicator.outcome import SUCCEEDS

from .context import Context, ships_text
from .control import remark
from .fleet import ANY
from .movement import Outcome
from .state import controller, joiner, voting_countries, votes_of
from .steps import EndTurn


def end_turn(ctx: Context, step: EndTurn) -> Outcome:
    """Do Phase 9's steps in order, then start the next turn (or end the game)."""
    board, state = ctx.board, ctx.state
    notes: list[str] = []
    j = joiner(board)
    if j and not state.norway_in_eu and state.norway_eu_support >= 2:
        notes += join(ctx, j)
    notes += council_vote(ctx)
    cause: dict[str, Any] = {"law": state.law}
    holder = controller(board, state, board.pole)  # P17: after the Council
    if holder is not None and not board.countries[holder].arctic:
        state.ended = True
        notes.append(f"{ctx.name(holder)} controls the pole: the game ends")
    elif state.turn >= board.last_turn:
        state.ended = True
        notes.append(f"turn {state.turn} was the last: the game ends")
    else:
        state.turn += 1
        notes.append(f"turn {state.turn} begins")
    ctx.fleet.reset()
    cause["turn"] = state.turn
    cause["ended"] = state.ended
    ctx.trace.append(notes[-1])
    return SUCCEEDS, "; ".join(notes), cause


def council_vote(ctx: Context) -> list[str]:
    """A law with a majority of the markers becomes (or remains) the applicable law; a new one re-marks control."""
    board, state = ctx.board, ctx.state
    tally = {law: 0 for law in board.laws}
    for country in voting_countries(board, state):
        tally[state.council[country]] += votes_of(board, state, country)
    total = sum(tally.values())
    winners = [law for law, n in tally.items() if n >= board.majority]  # P16
    if len(winners) != 1:
        note = f"no law has {board.majority} of {total} votes: law {state.law} remains"
        ctx.trace.append(note)
        return [note]
    law = winners[0]
    if law == state.law:
        note = f"law {law} has {tally[law]} of {total} votes and remains"
        ctx.trace.append(note)
        return [note]
    state.law = law
    note = f"law {law} ({board.laws[law].name}) has {tally[law]} of {total} votes: it becomes the applicable law"
    ctx.trace.append(note)
    return [note] + remark(ctx)


def join(ctx: Context, j: str) -> list[str]:
    """Norway joins the EU: its ships and sea control markers become the EU's, its treasury goes to the bank,
    its vote joins the EU's, its lobbyists' protection ends (and its conflicts end, P13)."""
    board, state, fleet = ctx.board, ctx.state, ctx.fleet
    eu = board.countries[j].joins
    assert eu is not None  # (`joiner` is the country whose `joins` names another: the board loader checks it)
    state.norway_in_eu = True
    on_board = sum(fleet.count(s, eu) for s in fleet.sectors_of(eu))
    room = board.countries[eu].ships - on_board
    replaced = lost = 0
    for sector in board.sectors:
        k = fleet.count(sector, j)
        if not k:
            continue
        fleet.take(sector, j, k, ANY)
        kept = min(k, room)
        if kept:
            fleet.put(sector, eu, {(False, False): kept})
        room -= kept
        replaced += kept
        lost += k - kept
    for sector, who in state.control.items():
        if who == j:
            state.control[sector] = eu
    state.treasury[j] = 0
    state.council.pop(j, None)
    for p in state.platforms.values():
        if p.protected_by == j:
            p.unprotect()
    state.conflicts.pop(j, None)
    for c, target in state.conflicts.items():
        if target == j:
            state.conflicts[c] = None
    note = (f"{ctx.name(j)} joins {ctx.name(eu)}: {ships_text(replaced, ctx.adjective(j))} replaced by "
            f"{ctx.adjective(eu)} ships" + (f" ({lost} more removed: no {ctx.adjective(eu)} ship left)" if lost else "")
            + f"; its sea control markers and its vote become {ctx.name(eu)}'s, its treasury goes to the bank")
    ctx.trace.append(note)
    return [note]
