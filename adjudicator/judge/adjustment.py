"""Adjustment phase: builds, removals, waives and civil disorder (2023 rules, DATC v3.0 preferences).

Orders are executed top to bottom per power, skipping those that cannot be: the first legal builds or
removals count. Builds not ordered are waived; removals not ordered are made by civil disorder: the unit
farthest from its power's nearest owned supply centre (moves over any border), fleets before armies,
then by the English name of the province.
"""

from __future__ import annotations

from adjudicator.board import ARMY, FLEET, Board, join_location
from adjudicator.judge.outcome import DEFAULT, SUCCEEDS, OrderResult
from adjudicator.orders.model import Order
from adjudicator.orders.validate import Illegal, ignored, illegal
from adjudicator.state import GameState, Unit


def adjustment_due(state: GameState, power: str) -> int:
    """Builds (positive) or removals (negative) a power is due: centres owned minus units."""
    return len(state.centres_of(power)) - len(state.units_of(power))


def build_sites(board: Board, state: GameState, power: str) -> dict[str, tuple[str, ...]]:
    """Unoccupied places a power may build in now, with the unit types allowed there."""
    sites: dict[str, tuple[str, ...]] = {}
    for province in board.home_centres(power):
        if state.owners.get(province) == power and province not in state.units:
            sites[province] = (ARMY, FLEET)
    for site in board.build_sites:
        if site.power != power or site.province in state.units:
            continue
        if site.needs_ownership and state.owners.get(site.province) != power:
            continue
        sites[site.province] = tuple(sorted(set(sites.get(site.province, ())) | set(site.unit_types)))
    return sites


def buildable_units(board: Board, state: GameState, power: str) -> list[Unit]:
    """Every unit a power could build this phase."""
    season = state.phase.season
    out = []
    for province, types in sorted(build_sites(board, state, power).items()):
        for t in types:
            for loc in (board.locations(province) if t == FLEET else (province,)):
                if board.can_stand(t, loc, season):
                    out.append(Unit(power, t, loc))
    return out


def _build(board: Board, state: GameState, power: str, order: Order, used: set[str]) -> Unit:
    season = state.phase.season
    ref = order.unit
    province = ref.province
    name = board.provinces[province].name
    sites = build_sites(board, state, power)
    if province in used:
        raise Illegal(f"a unit is already being built in {name}")
    if province not in sites:
        p = board.provinces[province]
        if province in state.units:
            raise Illegal(f"{name} is occupied")
        if p.home != power and not any(s.province == province and s.power == power for s in board.build_sites):
            raise Illegal(f"{name} is not a home centre of {power}")
        raise Illegal(f"{power} does not own {name}")
    unit_type = ref.type
    p = board.provinces[province]
    if unit_type is None:  # DATC 4.C.3: army inland, fleet where a coast is given, otherwise it fails
        if ref.coast in p.coasts:
            unit_type = FLEET
        elif not any(board.coastal(loc, season) for loc in board.locations(province)):
            unit_type = ARMY
        else:
            raise Illegal(f"the build in {name} does not say army or fleet")
    if unit_type not in sites[province]:
        raise Illegal(f"{power} may not build {'an army' if unit_type == ARMY else 'a fleet'} in {name}")
    if unit_type == FLEET:
        if p.coasts and ref.coast not in p.coasts:
            raise Illegal(f"a fleet built in {name} needs a coast: {', '.join(board.locations(province))}")
        loc = join_location(province, ref.coast if p.coasts else None)
        if not board.fleet_can_stand(loc, season):
            raise Illegal(f"a fleet cannot be built in {loc}: it has no open sea in {season}")
        return Unit(power, FLEET, loc)
    if not board.army_can_stand(province, season):
        raise Illegal(f"an army cannot be built in {name}")
    return Unit(power, ARMY, province)


def civil_disorder_order(board: Board, state: GameState, power: str, candidates: list[Unit]) -> list[Unit]:
    """The units of a power in the order civil disorder removes them."""
    owned = state.centres_of(power)
    distance = board.distances_from(owned) if owned else {}
    far = len(board.provinces) + 1
    return sorted(candidates, key=lambda u: (-distance.get(u.province, far), u.type != FLEET,
                                             board.provinces[u.province].name))


def adjudicate_adjustments(board: Board, state: GameState, orders: list[Order]) -> tuple[dict[str, Unit], list[Unit], list[OrderResult]]:
    """Resolve an adjustment phase: (built units by province, removed units, report)."""
    report: list[OrderResult] = []
    built: dict[str, Unit] = {}
    removed: list[Unit] = []
    for power in board.powers:
        due = adjustment_due(state, power)
        mine = [o for o in orders if o.power == power]
        if due > 0:
            left = due
            for order in mine:
                if order.kind == "waive":
                    if left > 0:
                        left -= 1
                        report.append(OrderResult(power, order.text or "waive", SUCCEEDS, "build waived", order=order,
                                                  line=order.line))
                    else:
                        report.append(ignored(order, f"{power} has no builds left to waive"))
                    continue
                if order.kind != "build":
                    report.append(illegal(order, None, f"{power} is due {due} build(s), not removals", "ignored"))
                    continue
                if left == 0:
                    report.append(ignored(order, f"{power} may build only {due} unit(s)"))
                    continue
                try:
                    unit = _build(board, state, power, order, set(built))
                except Illegal as exc:
                    report.append(illegal(order, None, str(exc), "no unit is built"))
                    continue
                built[unit.province] = unit
                left -= 1
                report.append(OrderResult(power, order.text or order.describe(), SUCCEEDS, f"builds {unit.type} {unit.location}",
                                          unit=unit, order=order, line=order.line))
            for _ in range(left):
                report.append(OrderResult(power, "waive", DEFAULT, "build not ordered: waived"))
        elif due < 0:
            left = -due
            gone: set[str] = set()
            for order in mine:
                if order.kind not in ("remove", "disband"):
                    report.append(illegal(order, None, f"{power} must remove {-due} unit(s); a {order.kind} order does nothing",
                                          "ignored"))
                    continue
                unit = state.units.get(order.unit.province)
                if left == 0:
                    report.append(ignored(order, f"{power} needs to remove only {-due} unit(s)"))
                elif unit is None or unit.power != power:
                    report.append(illegal(order, unit, f"{power} has no unit in {order.unit.province}", "ignored"))
                elif unit.province in gone:
                    report.append(ignored(order, "that unit is already removed"))
                else:
                    gone.add(unit.province)
                    removed.append(unit)
                    left -= 1
                    report.append(OrderResult(power, order.text or order.describe(), SUCCEEDS, f"removes {unit.type} {unit.location}",
                                              unit=unit, order=order, line=order.line))
            remaining = [u for u in state.units_of(power) if u.province not in gone]
            for unit in civil_disorder_order(board, state, power, remaining)[:left]:
                removed.append(unit)
                report.append(OrderResult(power, f"remove {unit.type} {unit.location}", DEFAULT,
                                          "removal not ordered: removed by civil disorder (farthest from its centres)",
                                          unit=unit))
        else:
            for order in mine:
                report.append(ignored(order, f"{power} has as many units as centres: no builds or removals"))
    return built, removed, report
