"""Ship Movement ("IV - Ship Movement") and China's automatic move (Phase 5), one step at a time.

Each function checks everything first and raises `Refused` before changing anything; on success it returns
the report's reason and its structured cause.
"""

from __future__ import annotations

from typing import Any

from adjudicator.outcome import SUCCEEDS, VOID

from .context import Context, Refused, country_of, ships_text
from .control import in_conflict, settle
from .fleet import ANY, ARRIVED, ATTACK_FIRST, MOVE_FIRST, can_attack, unmoved
from .state import controller
from .steps import AutoMove, Move, PlatformAttack, ShipAttack

Outcome = tuple[str, str, dict[str, Any]]  # status, reason, cause


def _have(ctx: Context, country: str, sector: str, n: int) -> int:
    """The country's ships in the sector, refusing when there are fewer than n."""
    total = ctx.fleet.count(sector, country)
    if n < 1:
        raise Refused("no_ships", "a step uses at least 1 ship")
    if total < n:
        raise Refused("no_ships", f"no ships: {ctx.name(country)} has {ships_text(total)} in "
                                  f"{ctx.board.sector_name(sector)}, not {n}", have=total, wanted=n)
    return total


def move(ctx: Context, step: Move) -> Outcome:
    """Move ships to an adjacent sector (a ship moves once per turn); at the pole, arriving ships attack the
    controller's ships one for one (B23); then control follows ships where it does (B17)."""
    board, fleet, c = ctx.board, ctx.fleet, country_of(step)
    src, dst, n = step.source, step.dest, step.ships
    if src == dst or not board.adjacent(src, dst):
        raise Refused("not_adjacent", f"not adjacent: {board.sector_name(src)} and {board.sector_name(dst)} share "
                                      f"no side or corner; a ship moves to an adjacent sector", source=src, dest=dst)
    total = _have(ctx, c, src, n)
    free = fleet.count(src, c, unmoved)
    if free < n:
        raise Refused("already_moved", f"already moved: only {free} of {ctx.name(c)}'s {ships_text(total)} in "
                                       f"{src} {'has' if free == 1 else 'have'} not moved this turn; a ship moves only "
                                       f"one sector per turn", unmoved=free, wanted=n)
    taken = fleet.take(src, c, n, MOVE_FIRST)
    fleet.put(dst, c, {(True, attacked): k for (_, attacked), k in taken.items()})
    notes = [f"{ships_text(n, ctx.adjective(c))} {src} -> {dst} ({board.adjacency_kind(src, dst)})"]
    cause: dict[str, Any] = {"moved": n, "from": src, "to": dst}
    holder = controller(board, ctx.state, dst)
    if board.sectors[dst].is_polar and holder is not None and holder != c:  # Chinese ships too (P9)
        k = min(n, fleet.count(dst, holder))
        if k:  # "attacks are mandatory in the polar sector" (no conflict needed; control unchanged by the attack)
            fleet.take(dst, c, k, ARRIVED)
            fleet.take(dst, holder, k, ANY)
            notes.append(f"mandatory attack at the pole: {ships_text(k, ctx.adjective(c))} and "
                         f"{ships_text(k, ctx.adjective(holder))} destroyed")
            cause["pole_attacks"] = k
    ctx.trace.extend(notes)
    notes += settle(ctx, [src, dst])
    return SUCCEEDS, "; ".join(notes), cause


def ship_attack(ctx: Context, step: ShipAttack) -> Outcome:
    """Ships attack ships of a country in conflict, one for one: both destroyed."""
    board, fleet, c, d, s, n = ctx.board, ctx.fleet, country_of(step), step.target, step.sector, step.ships
    if d == c:
        raise Refused("own_ships", f"{ctx.name(c)} does not attack its own ships")
    total = _have(ctx, c, s, n)
    targets = fleet.count(s, d)
    if targets < n:
        raise Refused("no_target", f"no target: there {'is' if targets == 1 else 'are'} "
                                   f"{ships_text(targets, ctx.adjective(d))} in {board.sector_name(s)}, not {n}",
                      targets=targets)
    if not in_conflict(board, ctx.state, c, d, s):
        raise Refused("not_in_conflict", f"not in conflict: {ctx.name(c)} and {ctx.name(d)} are not in conflict "
                                         f"(neither has declared a conflict against the other)", target=d)
    able = fleet.count(s, c, can_attack)
    if able < n:
        raise Refused("already_attacked", f"already attacked: only {able} of {ctx.name(c)}'s {ships_text(total)} "
                                          f"in {s} may still attack; each ship attacks once per turn",
                      able=able, wanted=n)
    fleet.take(s, c, n, ATTACK_FIRST)
    fleet.take(s, d, n, ANY)
    notes = [f"{ships_text(n, ctx.adjective(c))} and {ships_text(n, ctx.adjective(d))} destroyed in {s}"]
    ctx.trace.extend(notes)
    notes += settle(ctx, [s])
    return SUCCEEDS, "; ".join(notes), {"destroyed": {c: n, d: n}, "sector": s}


def defence(ctx: Context, sector: str, attacker: str) -> tuple[int, str, dict[str, int]]:
    """A platform's defence strength: 0 illegal, 1 legal, +1 per neutral ship, i.e. a ship of neither the
    attacker nor the controller whose country is not in conflict with the controller (B22)."""
    board, state = ctx.board, ctx.state
    p = state.platforms[sector]
    holder = controller(board, state, sector)
    base = 1 if p.legal else 0
    neutral: dict[str, int] = {}
    if holder is not None:  # an illegal platform has no country defending its sector, hence no neutral ships
        for country in ctx.fleet.countries(sector):
            # P8: judged in the sector
            if country not in (attacker, holder) and not in_conflict(board, state, country, holder, sector):
                neutral[country] = ctx.fleet.count(sector, country)
    parts = [f"{'legal' if p.legal else 'illegal'} platform {base}"]
    parts += [ships_text(k, "neutral " + ctx.adjective(country)) for country, k in neutral.items()]
    return base + sum(neutral.values()), " + ".join(parts), neutral


def platform_attack(ctx: Context, step: PlatformAttack) -> Outcome:
    """Ships destroy a platform, before or after their move (not both): only an illegal one, or a legal one in a
    sector controlled by a country in conflict with them; never in their own sector, never a protected one;
    the controller's ships there first destroyed; attack strength greater than defence strength."""
    board, state, fleet, c, s = ctx.board, ctx.state, ctx.fleet, country_of(step), step.sector
    p = state.platforms.get(s)
    if p is None:
        raise Refused("no_platform", f"no platform: there is no platform in {board.sector_name(s)}")
    if p.protected_by is not None:
        raise Refused("protected", f"protected: {p.owner}'s platform in {s} is protected by "
                                   f"{ctx.lobbyist(p.protected_by)} and may not be attacked by anyone")
    holder = controller(board, state, s)
    if holder == c:
        raise Refused("own_sector", f"own sector: {ctx.name(c)} controls {board.sector_name(s)}, so its ships may "
                                    f"not attack a platform there")
    if p.legal and not in_conflict(board, state, c, holder, s):
        raise Refused("controller_not_in_conflict",
                      f"controller not in conflict: {p.owner}'s platform in {s} is legal and {ctx.name(holder)}, "
                      f"which controls {s}, is not in conflict with {ctx.name(c)}", controller=holder)
    total = fleet.count(s, c)
    able = fleet.count(s, c, can_attack)
    n = step.ships if step.ships is not None else able  # P6: without a number, every able ship
    if total == 0 or (step.ships is not None and total < step.ships):
        raise Refused("no_ships", f"no ships: {ctx.name(c)} has {ships_text(total)} in {board.sector_name(s)}"
                      + (f", not {step.ships}" if step.ships is not None else ""), have=total)
    if n < 1 or able < n:
        raise Refused("platform_attack_used",
                      f"already attacked: only {able} of {ctx.name(c)}'s {ships_text(total)} in {s} may still attack "
                      f"a platform; a ship attacks a platform before or after its move, not both", able=able)
    defenders = fleet.count(s, holder) if holder is not None else 0  # P7: cleared by ship attacks first
    if defenders and holder is not None:
        raise Refused("defenders_present",
                      f"defenders present: {ships_text(defenders, ctx.adjective(holder))} in {s} must first be "
                      f"attacked and destroyed (one attacking ship lost for each)", defenders=defenders)
    strength, parts, neutral = defence(ctx, s, c)
    cause = {"attack": n, "defence": strength, "neutral": neutral, "legal": p.legal}
    if n <= strength:
        raise Refused("too_weak", f"too weak: attack strength {n} is not greater than defence strength {strength} "
                                  f"({parts})", **cause)
    taken = fleet.take(s, c, n, ATTACK_FIRST)
    fleet.put(s, c, {(moved, True): k for (moved, _), k in taken.items()})
    del state.platforms[s]
    note = (f"{p.owner}'s {'legal' if p.legal else 'illegal'} platform in {s} destroyed: attack strength {n} > "
            f"defence strength {strength} ({parts})")
    ctx.trace.append(note)
    return SUCCEEDS, note, cause


def china_auto(ctx: Context, step: AutoMove) -> Outcome:
    """Every Chinese ship one sector north, north-east on a tie (`north[-1]`); at the pole it stays. All move
    at once and make no attacks, even entering the pole (B24); then control follows ships (B17)."""
    board, fleet, cn = ctx.board, ctx.fleet, country_of(step)
    if cn != board.china:
        raise Refused("not_china", f"only {ctx.name(board.china)}'s ships move automatically")
    stacks = [s for s in board.sectors if fleet.count(s, cn)]
    if any(fleet.count(s, cn, lambda t: t != (False, False)) for s in stacks):
        raise Refused("already_moved", f"already moved: {ctx.name(cn)}'s ships have already acted this turn")
    if not stacks:
        return VOID, f"no {ctx.adjective(cn)} ship on the board: nothing moves", {}
    moves = [(s, fleet.take(s, cn, fleet.count(s, cn), ANY)) for s in stacks]
    notes, touched = [], []
    for src, taken in moves:
        north = board.sectors[src].north
        dst = north[-1] if north else src
        k = sum(taken.values())
        fleet.put(dst, cn, {(True, False): k})
        touched += [src, dst]
        notes.append(f"{src} -> {dst}" + (f" ({k} ships)" if k > 1 else "") if dst != src else f"{src} stays")
    ctx.trace.append(f"{ctx.adjective(cn)} ships move north: " + ", ".join(notes))
    notes = [f"{ctx.adjective(cn)} ships move north: " + ", ".join(notes) + "; no attacks"]
    notes += settle(ctx, touched)
    return SUCCEEDS, "; ".join(notes), {"moves": {src: (board.sectors[src].north or (src,))[-1] for src, _ in moves}}
