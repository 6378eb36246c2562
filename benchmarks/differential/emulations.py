"""The rule differences and peer bugs emulated, one function each: the phase's orders rewritten the way the
peer reads them (or the orders this engine refuses taken from the peer), to be adjudicated again.

Part of benchmarks/compare_peer.py (the command line)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board, split_location
from adjudicator.games.diplomacy.orders.model import Order
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.phase import PhaseResult, adjudicate
from adjudicator.games.diplomacy.state import GameState, Unit

from peer_side import Outcome, peer_outcome, peer_power, peer_unit, run_peer
from .phase_input import PhaseInput, peer_position

def _parsed(board: Board, orders: list[tuple[int, str, str]]) -> list[tuple[int, str, Order]]:
    return [(i, power, parse_order(board, text)) for i, power, text in orders]


def ours_with(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]]) -> PhaseResult:
    """This engine on the input's position with other orders ((index, power, text) triples)."""
    parsed = [parse_order(board, text, line=i, power=power) for i, power, text in orders]
    return adjudicate(board, inp.state, parsed)


def peer_with(board: Board, inp: PhaseInput, keep: set[int] | None) -> Outcome:
    game = peer_position(board, inp)
    run_peer(game, inp.peer_orders(keep))
    return peer_outcome(game)


def peer_refused(board: Board, inp: PhaseInput) -> set[int]:
    """The orders the peer refuses when given, each alone, on this position."""
    refused = set()
    for i, ((power, _), text) in enumerate(zip(inp.orders, inp.peer)):
        if text == "WAIVE":
            continue
        game = peer_position(board, inp)
        game.set_orders(peer_power(power), [text])
        if not game.get_orders(peer_power(power)):
            refused.add(i)
    return refused


def our_refused(result: PhaseResult) -> set[int]:
    """The orders (by index, from `ours_with`) this engine refuses: illegal, or not for a unit of the power (an
    order that is one of several different orders to a unit, or that comes after another order of the unit, is
    not refused in itself; nor is a removal beyond the number due: DATC 4.D.6, both engines carry out the first
    removals ordered and leave the rest, though the peer, offered such an order alone, accepts it)."""
    not_refused = ("several different orders", "already has a retreat order", "the same order was given twice",
                   "needs to remove only")
    return {r.line for r in result.report if r.line is not None and r.status in ("illegal", "ignored")
            and not any(why in r.reason for why in not_refused)}


def _fallback(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """The peer's reading of 4.A.3: an army that could go by land goes by convoy only when the fleets ordered to
    convoy it form a whole route; otherwise it moves over land ('via convoy' dropped, and the convoy orders of its
    own fleets, which show intent in DATC v3.0, read as holds)."""
    season = inp.state.phase.season
    parsed = _parsed(board, orders)
    fallback: set[tuple[str, str]] = set()
    refused = ctx.our_refused if ctx is not None else set()
    disrupted: set[int] | None = None  # the moves (by index) whose convoy this engine finds disrupted
    for i, power, o in parsed:
        if i in refused:
            continue  # e.g. 'via convoy' where no fleet could ever carry the army: both engines refuse it
        if o.kind != "move" or (o.unit.type or ARMY) != ARMY or not board.can_move(ARMY, o.unit.province, o.dest, season):
            continue
        army = inp.state.units.get(o.unit.province)
        if army is None or army.type != ARMY or army.power != power:
            continue
        fleets, own_intent = [], False
        for _, p, c in parsed:
            unit = inp.state.units.get(c.unit.province) if c.unit else None
            if c.kind == "convoy" and c.target.province == o.unit.province and c.dest == o.dest \
                    and unit is not None and unit.power == p and unit.type == FLEET:
                fleets.append(c.unit.province)
                own_intent = own_intent or unit.power == army.power
        if (o.via_convoy or own_intent) and not board.convoy_route_exists(o.unit.province, o.dest, season, fleets):
            fallback.add((o.unit.province, o.dest))
        elif own_intent and not o.via_convoy:
            # Without VIA the peer does not read its own fleet's convoy order as intent: it moves the army by the
            # convoy while the route holds (as this engine does: a swap with the unit in the destination works),
            # and over land when the convoy is disrupted (the fleet dislodged), so the army still arrives there.
            # Only the second case differs: the army whose convoy this engine finds disrupted falls back.
            if disrupted is None:
                disrupted = {r.line for r in ours_with(board, inp, orders).report
                             if r.line is not None and r.cause.get("convoy_disrupted")}
            if i in disrupted:
                fallback.add((o.unit.province, o.dest))
    if not fallback:
        return None
    out = []
    for (i, power, text), (_, _, o) in zip(orders, parsed):
        if o.kind == "move" and (o.unit.province, o.dest) in fallback:
            text = text.replace(" via convoy", "")
        elif o.kind == "convoy" and (o.target.province, o.dest) in fallback:
            text = f"{o.unit.type or FLEET} {o.unit.location} H"
        out.append((i, power, text))
    return out


def _last_order(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """The peer's reading of 4.D.3: of several orders to one unit, the last one it accepts counts in a movement
    phase, the first one in a retreat phase (this engine, DATC choice c: none counts; the unit holds, or, in a
    retreat phase, is disbanded)."""
    kind = inp.state.phase.type
    if kind not in ("Movement", "Retreat"):
        return None
    units = inp.state.units if kind == "Movement" else {p: d.unit for p, d in inp.state.dislodged.items()}
    refused = ctx.peer_refused
    kept: dict[tuple[str, str], int] = {}
    count: Counter = Counter()
    parsed = _parsed(board, orders)
    for (i, power, text), (_, _, o) in zip(orders, parsed):
        unit = units.get(o.unit.province) if o.unit else None
        if unit is None or unit.power != power:
            continue
        key = (power, o.unit.province)
        count[key] += 1
        if i not in refused and (kind == "Movement" or key not in kept):
            kept[key] = i
    keys = {k for k, n in count.items() if n > 1}
    if not keys:
        return None
    out = []
    for (i, power, text), (_, _, o) in zip(orders, parsed):
        key = (power, o.unit.province) if o.unit else None
        if key in keys and kept.get(key) != i:
            continue
        out.append((i, power, text))
    return out


def old_civil_disorder(board: Board, state: GameState, power: str, candidates: list[Unit]) -> list[Unit]:
    """The units a power loses in civil disorder by the peer's (pre-2023) rule, worked out independently here:
    farthest from any of its home centres (owned or not) first, armies counting moves over any border and fleets
    only fleet moves; on a tie fleets first, then by the peer's unit name (`A BUD` < `A VIE`)."""
    season = state.phase.season
    homes = set(board.home_centres(power))

    def distance(unit: Unit) -> int:
        if not homes:
            return 99999
        graph = board.army_moves(season) if unit.type == ARMY else board.fleet_moves(season)
        if unit.type == ARMY:
            neighbours = lambda loc: board.graph.adj[loc]  # noqa: E731
        else:
            neighbours = graph.successors
        seen, frontier, d = {unit.location}, [unit.location], 0
        while frontier:
            if any(split_location(loc)[0] in homes for loc in frontier):
                return d
            nxt = []
            for loc in frontier:
                for n in neighbours(loc):
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            frontier, d = nxt, d + 1
        return 99999

    return sorted(candidates, key=lambda u: (-distance(u), u.type != FLEET, peer_unit(u.type, u.location)))


def _civil_disorder(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """The removals the peer made by its civil-disorder rule, ordered explicitly, when they are exactly what that
    rule (worked out independently by `old_civil_disorder`) removes."""
    if inp.state.phase.type != "Adjustment":
        return None
    result = ours_with(board, inp, orders)
    defaulted = Counter(r.unit.power for r in result.report if r.status == "default" and r.text.startswith("remove"))
    if not defaulted:
        return None
    peer_units = set(ctx.peer.units)
    by_order = {u.province for u in result.removed} - {r.unit.province for r in result.report
                                                       if r.status == "default" and r.unit is not None}
    extra = []
    for power, missing in defaulted.items():
        left = [u for u in inp.state.units_of(power) if u.province not in by_order]
        expected = set(old_civil_disorder(board, inp.state, power, left)[:missing])
        removed_by_peer = {u for u in left if (u.power, u.type, u.location) not in peer_units}
        if removed_by_peer != expected:
            return None  # the peer did something its own rule does not say
        extra += [(-1, power, f"Remove {u.type} {u.location}") for u in sorted(expected)]
    return orders + extra


def _drop_peer_refused(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: dict) -> list | None:
    """The orders the peer refuses, taken away from this engine's orders too."""
    drop = ctx.peer_refused - ctx.our_refused
    if not drop:
        return None
    return [(i, p, t) for i, p, t in orders if i not in drop]


def _reduced_swaps(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """Peer bug 3 as the peer's code has it (`Game._resolve_moves`, step 6): in a swap of unequal full strengths
    each attack is compared with the other attack, both without the supports given by the power they attack,
    and those supports are void. This engine gives the same verdict with those supports taken out of its
    orders (a swap of equal full strengths bounces under both rules, and then no phase differs)."""
    h2h = {i for i, kind in _self_supports(board, inp).items() if kind == "h2h"}
    if not h2h:
        return None
    return [(i, p, t) for i, p, t in orders if i not in h2h]


def _retreat_illegal_first(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """Bug here 1 (benchmarks/README.md): an illegal retreat order hides a later legal one for the same unit;
    emulated by taking the illegal order out (DATC 4.E.1: it is ignored entirely)."""
    if inp.state.phase.type != "Retreat":
        return None
    parsed = _parsed(board, orders)
    count = Counter((p, o.unit.province) for _, p, o in parsed if o.unit is not None)
    refused = {i for i, p, t in orders if count[(p, parse_order(board, t).unit.province)] > 1 if t}
    refused = {i for i in refused if i in our_refused(ours_with(board, inp, [x for x in orders if x[0] == i]))}
    seen_legal: set[tuple[str, str]] = set()
    drop = set()
    for i, power, o in parsed:
        if o.unit is None or count[(power, o.unit.province)] < 2:
            continue
        key = (power, o.unit.province)
        if i in refused and key not in seen_legal:
            if any(j not in refused for j, p2, o2 in parsed if j > i and o2.unit is not None
                   and (p2, o2.unit.province) == key):
                drop.add(i)
        elif i not in refused:
            seen_legal.add(key)
    if not drop:
        return None
    return [(i, p, t) for i, p, t in orders if i not in drop]


def _support_coast_dropped(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """Peer bug 5 (benchmarks/README.md): the peer drops the coast a support names and gives it the supported
    fleet's, so a support naming the wrong coast counts (DATC 6.B.9: it is void). Emulated by taking the coast
    out of the supports whose supported fleet is ordered to the same province at another coast (a support
    without coast matches the move: DATC 6.B.7)."""
    if inp.state.phase.type != "Movement":
        return None
    parsed = _parsed(board, orders)
    moves: dict[tuple[str, str], set] = defaultdict(set)  # (unit, destination) -> coasts its own moves name
    for _, power, o in parsed:
        unit = inp.state.units.get(o.unit.province) if o.unit else None
        if o.kind == "move" and unit is not None and unit.power == power:
            moves[(o.unit.province, o.dest)].add(o.dest_coast)
    out, changed = [], False
    for (i, power, text), (_, _, o) in zip(orders, parsed):
        named = f"{o.dest}/{o.dest_coast}" if o.kind == "support" and o.dest_coast else None
        if named and named in text and moves.get((o.target.province, o.dest), set()) - {o.dest_coast, None}:
            text, changed = text.replace(named, o.dest), True
        out.append((i, power, text))
    return out if changed else None


def _self_supports(board: Board, inp: PhaseInput) -> dict[int, str]:
    """Supports given by the power whose unit stands in the supported move's destination (they may not help to
    dislodge it: DATC 6.D.10-12, 6.E.2-3), where the peer gets that rule wrong, by index and bug:
    `via` the move is written with VIA (peer bug 1), `h2h` the unit attacked moves back at the attacker
    (peer bug 3), `convoyer` the unit attacked is a fleet ordered to convoy (peer bug 4)."""
    parsed = [parse_order(board, t) for _, t in inp.orders]
    state = inp.state
    moves: dict[str, tuple[str, bool]] = {}  # province -> (destination, written with VIA) of its owner's move
    convoying: set[str] = set()
    for (power, _), o, pt in zip(inp.orders, parsed, inp.peer):
        unit = state.units.get(o.unit.province) if o.unit else None
        if unit is None or unit.power != power:
            continue
        if o.unit.type and o.unit.type != unit.type:
            continue  # the peer refuses an order naming the wrong unit type: the unit's other order is its own
        if o.kind == "move":
            moves[o.unit.province] = (o.dest, pt.endswith(" VIA"))
        elif o.kind == "convoy":
            convoying.add(o.unit.province)
    out = {}
    for i, ((power, _), o) in enumerate(zip(inp.orders, parsed)):
        if o.kind != "support" or not o.dest:
            continue
        defender, supporter = state.units.get(o.dest), state.units.get(o.unit.province)
        if defender is None or supporter is None or not supporter.power == power == defender.power:
            continue
        dest, via = moves.get(o.target.province, (None, False))
        if dest != o.dest:
            continue
        if via:
            out[i] = "via"
        elif moves.get(o.dest, (None, False))[0] == o.target.province:
            out[i] = "h2h"
        elif o.dest in convoying:
            out[i] = "convoyer"
    return out
