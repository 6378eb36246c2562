"""Every legal order of every unit (or build and removal) of a power in the current phase.

Candidates are generated from the board's graphs and kept only when the validator accepts them, so this
list and the judge never disagree. What costs (which armies a convoy could carry where, and which fleets
lie on those routes) is found once per position and shared by every unit and power, and candidates are
generated only where they can be legal, so a full board (75 units) answers in a fraction of a second.
Where the rules require a convoyed move to name its path (DATC 4.A.6 `required`), each destination is offered
along one shortest path, not along every path (their number grows exponentially with the fleets).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board, join_location, split_location
from adjudicator.games.diplomacy.judge.adjustment import adjustment_due, buildable_units
from adjudicator.games.diplomacy.judge.retreat import retreat_options
from adjudicator.games.diplomacy.orders.model import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat,
                                                      Support, UnitRef, Waive, destination_of, target_of)
from adjudicator.games.diplomacy.orders.commands import Command
from adjudicator.games.diplomacy.orders.validate import Illegal, movement_checker
from adjudicator.games.diplomacy.state import GameState, Unit


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.province, unit.coast, unit.power)


@dataclass
class _Position:
    """What every unit's list needs of one movement position, computed once."""

    board: Board
    state: GameState
    season: str
    fleets: frozenset[str]  # fleets on open sea or an archipelago: the only ones that convoy
    moves: dict[str, list[str]] = field(default_factory=dict)  # unit province -> locations it moves to directly
    by_convoy: dict[str, list[str]] = field(default_factory=dict)  # army province -> provinces a convoy reaches
    reach: dict[str, set[str]] = field(default_factory=dict)  # unit province -> provinces it could move to
    convoys: dict[str, list[Order]] = field(default_factory=dict)  # fleet province -> its legal convoy orders
    refs: dict[str, UnitRef] = field(default_factory=dict)  # unit province -> the unit as orders name it
    check: Callable[[Unit, Order], Command] | None = None  # the validator, on this position

    def legal(self, unit: Unit, order: Order) -> bool:
        """The validator's verdict (the judge's own rules)."""
        if self.check is None:
            self.check = movement_checker(self.board, self.state, self.fleets)
        try:
            self.check(unit, order)
        except Illegal:
            return False
        return True


def _convoy_candidates(board: Board, fleets: frozenset[str], origin: str) -> set[str]:
    """Provinces beside the fleets reachable from `origin` over fleet-held water: a superset of a convoy's
    destinations (the board decides each one)."""
    frontier = [f for f in board.water_adj[origin] if f in fleets]
    seen = set(frontier)
    found: set[str] = set()
    while frontier:
        sea = frontier.pop()
        for nxt in board.water_adj[sea]:
            found.add(nxt)
            if nxt in fleets and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    found.discard(origin)
    return found - fleets


def _position(board: Board, state: GameState) -> _Position:
    season = state.phase.season
    fleets = frozenset(board.season(season).convoy_spaces.intersection(  # (as the validator's)
        u.province for u in state.units.values() if u.type == FLEET))
    pos = _Position(board, state, season, fleets)
    pos.refs = {province: _ref(unit) for province, unit in state.units.items()}
    for unit in state.units.values():
        graph = board.army_moves(season) if unit.type == ARMY else board.fleet_moves(season)
        pos.moves[unit.province] = sorted(graph.successors(unit.location)) if unit.location in graph else []
        reach = {split_location(loc)[0] for loc in pos.moves[unit.province]}
        if unit.type == ARMY and fleets and board.convoy_origin_ok(unit.province, season):
            # (each candidate has a route: the search that found it walked one; the board decides what lands)
            dests = sorted(d for d in _convoy_candidates(board, fleets, unit.province)
                           if board.convoy_destination_ok(d, season))
            pos.by_convoy[unit.province] = dests
            reach.update(dests)
            for dest in dests:  # the fleets on this army's routes, found once for every fleet that asks
                me = pos.refs[unit.province]
                for sea in sorted(board.convoy_fleets_on_routes(unit.province, dest, season, fleets)):
                    fleet = state.units.get(sea)
                    if fleet is None:
                        continue
                    order = Convoy(pos.refs[sea], me, dest, power=fleet.power)
                    if pos.legal(fleet, order):
                        pos.convoys.setdefault(sea, []).append(order)
        pos.reach[unit.province] = reach
    return pos


# One position is asked about once per power (and again by the next request for the same position): the
# last few are kept, keyed by everything the lists depend on. Bounded; built outside the lock.
_CACHE: dict[tuple, _Position] = {}
_CACHE_SIZE = 4
_LOCK = threading.Lock()


def _position_for(board: Board, state: GameState) -> _Position:
    key = (id(board), state.phase, frozenset(state.units.values()), state.rule_options(board))
    with _LOCK:
        pos = _CACHE.get(key)
    if pos is not None and pos.board is board:
        return pos
    pos = _position(board, state)
    with _LOCK:
        while len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = pos
    return pos


@functools.lru_cache(maxsize=8)
def _province_index(board: Board) -> dict[str, int]:
    """Each province's place in the board's order (the order supports are listed in), once per board."""
    return {province: i for i, province in enumerate(board.provinces)}


def _movement_orders(pos: _Position, unit: Unit) -> list[Order]:
    board, state, season = pos.board, pos.state, pos.season
    me, power = pos.refs[unit.province], unit.power
    candidates: list[Order] = [Hold(me, power=power)]
    for loc in pos.moves[unit.province]:
        province, coast = split_location(loc)
        candidates.append(Move(me, province, coast, power=power))
    path_required = state.rule_options(board).convoy_path == "required"  # DATC 4.A.6: the move names its seas
    for dest in pos.by_convoy.get(unit.province, ()):
        path = _shortest_path(board, pos.fleets, unit.province, dest) if path_required else ()
        candidates.append(Move(me, dest, via_convoy=True, path=path, power=power))
    # The provinces it may support into (the season's, as `Board.can_support_into`), in the board's order.
    into = board.season(season).support[unit.type].get(unit.location, frozenset()) - {unit.province}
    support_into = sorted(into, key=_province_index(board).__getitem__)
    for other in state.units.values():
        if other.province == unit.province:
            continue
        target = pos.refs[other.province]
        if other.province in into:
            candidates.append(Support(me, target, power=power))
        could = pos.reach[other.province]
        if into.isdisjoint(could):
            continue
        for dest in support_into:
            if dest != other.province and dest in could:
                candidates.append(Support(me, target, dest, power=power))
    legal = [order for order in candidates if pos.legal(unit, order)]
    return legal + pos.convoys.get(unit.province, [])


def _shortest_path(board: Board, fleets: frozenset[str], origin: str, dest: str) -> tuple[str, ...]:
    """The fewest fleet-held seas a convoy from `origin` to `dest` steps through (ties: the first by name),
    as a move must name them under DATC 4.A.6 `required`; () when none leads there."""
    before: dict[str, str] = {}
    layer = [sea for sea in sorted(board.water_adj.get(origin, ())) if sea in fleets]
    seen = set(layer)
    while layer:
        for sea in layer:
            if dest in board.water_adj.get(sea, ()):
                path = [sea]
                while path[-1] in before:
                    path.append(before[path[-1]])
                return tuple(reversed(path))
        following = []
        for sea in layer:
            for there in sorted(board.water_adj.get(sea, ())):
                if there in fleets and there not in seen:
                    seen.add(there)
                    before[there] = sea
                    following.append(there)
        layer = following
    return ()


def legal_order_lists(board: Board, state: GameState, power: str) -> dict[str, list[Order]]:
    """Legal orders as order values (each with its power), keyed by unit (`A par`), or by `builds` / `removals`
    in an adjustment phase: what a program chooses among, with no text to read back."""
    kind = state.phase.type
    out: dict[str, list[Order]] = {}
    if kind == "Movement":
        pos = _position_for(board, state)
        for unit in state.units_of(power):
            out[f"{unit.type} {unit.location}"] = _movement_orders(pos, unit)
    elif kind == "Retreat":
        occupied = set(state.units)
        for d in sorted(state.dislodged.values(), key=lambda d: d.unit.location):
            if d.unit.power != power:
                continue
            options = retreat_options(board, state.phase.season, d, occupied, state.contested, state.rule_options(board))
            me = _ref(d.unit)
            out[f"{d.unit.type} {d.unit.location}"] = [Retreat(me, *split_location(loc), power=power) for loc in options] \
                + [Disband(me, power=power)]
    else:
        due = adjustment_due(state, power)
        if due > 0:
            out["builds"] = [Build(_ref(u), power=power) for u in buildable_units(board, state, power)] \
                + [Waive(power=power)]
        elif due < 0:
            out["removals"] = [Remove(_ref(u), power=power) for u in state.units_of(power)]
    return out


def legal_orders(board: Board, state: GameState, power: str) -> dict[str, list[str]]:
    """Legal orders keyed by unit (`A par`), or by `builds` / `removals` in an adjustment phase, as text."""
    return {key: [order.describe() for order in orders] for key, orders in legal_order_lists(board, state, power).items()}


def order_parts(order: Order) -> dict[str, object]:
    """An order's parts as a page picks it on the map: its text, kind, the unit's location and type, the unit it
    supports or convoys, where it goes and the seas a convoyed move names (`path`), and whether it goes by convoy."""
    unit, target, where = order.unit, target_of(order), destination_of(order)
    return {"order": order.describe(), "kind": order.kind,
            "unit": None if unit is None else {"type": unit.type, "location": unit.location},
            "target": None if target is None else {"type": target.type, "location": target.location},
            "destination": join_location(*where) if where else None,
            "path": list(getattr(order, "path", ())), "via_convoy": bool(getattr(order, "via_convoy", False))}


def legal_order_parts(board: Board, state: GameState, power: str) -> dict[str, list[dict[str, object]]]:
    """`legal_orders` with each order's parts (`order_parts`): the same lists, in the same order."""
    return {key: [order_parts(order) for order in orders] for key, orders in legal_order_lists(board, state, power).items()}
