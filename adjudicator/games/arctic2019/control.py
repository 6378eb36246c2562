"""Conflicts and control: who may attack whom, who controls a sector, and what happens to a platform when its
sector changes hands ("The Arctic Council"; board document §1.8, B17-B19)."""

from __future__ import annotations

from typing import Iterable

from .board import Board
from .context import Context
from .state import State, controller, law_b_controller, merged, non_coastal, sea_control_now


def in_conflict(board: Board, state: State, a: str | None, b: str | None, sector: str | None = None) -> bool:
    """Whether two countries are in conflict: either declared it, one is China, or they meet at the pole."""
    if a == b or a is None or b is None:
        return False
    if not board.countries[a].arctic or not board.countries[b].arctic:
        return True  # "all 5 Arctic region countries are considered to be in constant conflict with China"
    if sector is not None and board.sectors[sector].is_polar:
        return True  # "In that specific sector all the countries are in permanent conflict with each other"
    return state.conflicts.get(a) == b or state.conflicts.get(b) == a


def by_ships(board: Board, state: State, sector: str) -> bool:
    """Whether ships decide a sector's control now: the pole always, sea sectors under law C."""
    s = board.sectors[sector]
    return s.is_polar or (s.kind == "sea" and sea_control_now(board, state) == "ships")


def settle(ctx: Context, sectors: Iterable[str]) -> list[str]:
    """After a step: each sector (left or entered) holding ships of exactly one country that is not its
    controller passes to that country at once (B17: empty or mixed sectors keep their controller)."""
    notes: list[str] = []
    seen: list[str] = []
    for sector in sectors:
        if sector in seen or not by_ships(ctx.board, ctx.state, sector):
            continue
        seen.append(sector)
        present = ctx.fleet.countries(sector)
        if len(present) == 1 and present[0] != ctx.state.control.get(sector):
            notes += change_control(ctx, sector, present[0])
    return notes


def change_control(ctx: Context, sector: str, new: str | None) -> list[str]:
    """Set a sector's control marker and settle its platform; returns what happened, also traced."""
    old = ctx.state.control.get(sector)
    ctx.state.control[sector] = new
    notes = [f"{sector} control: {ctx.name(old)} -> {ctx.name(new)}"]
    notes += platform_after_change(ctx, sector, old, new)
    ctx.trace.extend(notes)
    return notes


def platform_after_change(ctx: Context, sector: str, old: str | None, new: str | None) -> list[str]:
    """A platform whose sector changes controller: flipped to illegal when the sector loses control; destroyed
    under a new controller unless protected; a protected one becomes legal, free when the protecting lobbyist
    is the new controller's, else only if its owner pays the fee (to the bank if the new controller is China)."""
    state, board = ctx.state, ctx.board
    p = state.platforms.get(sector)
    if p is None or old == new:
        return []
    if new is None:
        if p.legal:
            p.legal = False
            return [f"{p.owner}'s platform in {sector} is now in an uncontrolled sector: it turns illegal"]
        return []
    if p.protected_by is None:
        del state.platforms[sector]
        return [f"{p.owner}'s platform in {sector} is destroyed: {ctx.name(new)} takes the sector and the platform "
                f"is not protected"]
    if merged(board, state, p.protected_by) == new:
        p.legal = True
        return [f"{p.owner}'s platform in {sector} is protected by {ctx.lobbyist(p.protected_by)}: it "
                f"becomes legal under {ctx.name(new)}, free"]
    fee = board.takeover_fee
    decision = ctx.decisions.get(sector)
    cash = state.cash.get(p.owner, 0)
    if decision is not None and decision.pay and cash >= fee:
        state.cash[p.owner] = cash - fee
        payee = f"{ctx.name(new)}'s treasury"
        if new in state.treasury:
            state.treasury[new] += fee
        else:
            payee = "the bank (China has no treasury)"  # "all payments to China go to the bank" (B19)
        p.legal = True
        note = f"{p.owner} pays ${fee} to {payee}: the protected platform in {sector} becomes legal under {ctx.name(new)}"
        ctx.used.setdefault(sector, []).append((True, note))
        return [note]
    if decision is None:  # P12: no payment without the owner's word
        why = f"{p.owner} did not say to keep it ('keep platform in {sector}' pays ${fee})"
    elif not decision.pay:
        why = f"{p.owner} declines to pay ${fee}"
    else:
        why = f"{p.owner} cannot pay ${fee} (has ${cash})"
    del state.platforms[sector]
    note = (f"{p.owner}'s protected platform in {sector} is destroyed: {ctx.name(new)} takes the sector and {why}")
    if decision is not None:  # carried out when declined, failed when the owner could not pay
        ctx.used.setdefault(sector, []).append((not decision.pay, note))
    return [note]


def remark(ctx: Context) -> list[str]:
    """A new law comes into effect: re-mark every non-polar sea sector first, then settle each platform (B19)."""
    board, state = ctx.board, ctx.state
    kind = sea_control_now(board, state)
    old = dict(state.control)
    for sector in non_coastal(board):
        if board.sectors[sector].is_polar:
            continue  # the Council's laws have no effect on the polar sector
        if kind == "coastline":
            state.control[sector] = law_b_controller(board, state, sector)
        elif kind == "ships":
            present = ctx.fleet.countries(sector)
            state.control[sector] = present[0] if len(present) == 1 else None
        else:
            state.control[sector] = None
    marked = [f"{s} {ctx.name(state.control[s])}" for s in non_coastal(board)
              if not board.sectors[s].is_polar and state.control[s] is not None]
    notes = [f"control re-marked under law {state.law}: " + (", ".join(marked) if marked else "no sea sector controlled")]
    for sector in board.sectors:
        if sector in old and old[sector] != state.control[sector]:
            notes += platform_after_change(ctx, sector, old[sector], state.control[sector])
    ctx.trace.extend(notes)
    return notes


def controller_name(ctx: Context, sector: str) -> str:
    """Who controls a sector, for messages."""
    return ctx.name(controller(ctx.board, ctx.state, sector))
