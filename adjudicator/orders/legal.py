"""Every legal order of every unit (or build and removal) of a power in the current phase.

Candidates are generated from the board's graphs and kept only when the validator accepts them, so this
list and the judge never disagree.
"""

from __future__ import annotations

from adjudicator.board import ARMY, FLEET, Board, split_location
from adjudicator.judge.adjustment import adjustment_due, buildable_units
from adjudicator.judge.retreat import retreat_options
from adjudicator.orders.model import Order, UnitRef
from adjudicator.orders.validate import Illegal, _movement_command
from adjudicator.state import GameState, Unit


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.type, unit.province, unit.coast, unit.power)


def _movement_orders(board: Board, state: GameState, unit: Unit) -> list[Order]:
    season = state.phase.season
    fleets = board.season(season).sea.intersection(u.province for u in state.units.values() if u.type == FLEET)
    me = _ref(unit)
    candidates = [Order("hold", me)]
    graph = board.army_moves(season) if unit.type == ARMY else board.fleet_moves(season)
    adjacent = set(graph.successors(unit.location)) if unit.location in graph else set()
    for loc in sorted(adjacent):
        province, coast = split_location(loc)
        candidates.append(Order("move", me, dest=province, dest_coast=coast))
    if unit.type == ARMY and board.convoy_origin_ok(unit.province, season):
        for dest in sorted(board.provinces):
            if dest != unit.province and board.convoy_route_exists(unit.province, dest, season, fleets):
                candidates.append(Order("move", me, dest=dest, via_convoy=True))
    reach = [p for p in board.provinces if p != unit.province
             and board.can_support_into(unit.type, unit.location, p, season)]
    for other in state.units.values():
        if other.province == unit.province:
            continue
        target = _ref(other)
        if other.province in reach:
            candidates.append(Order("support", me, target=target))
        for dest in reach:
            if dest != other.province:
                candidates.append(Order("support", me, target=target, dest=dest))
    if unit.type == FLEET and board.surface(unit.province, season) == "sea":
        for army in state.units.values():
            if army.type == ARMY:
                for dest in sorted(board.provinces):
                    if dest != army.province and unit.province in board.convoy_fleets_on_routes(
                            army.province, dest, season, fleets):
                        candidates.append(Order("convoy", me, target=_ref(army), dest=dest))
    legal = []
    for order in candidates:
        try:
            _movement_command(board, state, season, unit, order, fleets)
        except Illegal:
            continue
        legal.append(order)
    return legal


def legal_orders(board: Board, state: GameState, power: str) -> dict[str, list[str]]:
    """Legal orders keyed by unit (`A par`), or by `builds` / `removals` in an adjustment phase."""
    kind = state.phase.type
    out: dict[str, list[str]] = {}
    if kind == "Movement":
        for unit in state.units_of(power):
            out[f"{unit.type} {unit.location}"] = [o.describe() for o in _movement_orders(board, state, unit)]
    elif kind == "Retreat":
        occupied = set(state.units)
        for d in sorted(state.dislodged.values(), key=lambda d: d.unit.location):
            if d.unit.power != power:
                continue
            options = retreat_options(board, state.phase.season, d, occupied, state.contested)
            name = f"{d.unit.type} {d.unit.location}"
            out[name] = [f"{name} R {loc}" for loc in options] + [f"Disband {name}"]
    else:
        due = adjustment_due(state, power)
        if due > 0:
            out["builds"] = [f"Build {u.type} {u.location}" for u in buildable_units(board, state, power)] + ["Waive"]
        elif due < 0:
            out["removals"] = [f"Remove {u.type} {u.location}" for u in state.units_of(power)]
    return out
