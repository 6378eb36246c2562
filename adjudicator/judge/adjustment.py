"""Adjustment phase: builds, removals, waives and civil disorder (2023 rules, DATC v3.0 preferences).

Orders are executed top to bottom per power, skipping those that cannot be: the first legal builds or
removals count. Builds not ordered are waived; removals not ordered are made by civil disorder: by default (the 2023
rulebook, DATC v3.0) the unit farthest from its power's nearest owned supply centre (moves over any border),
fleets before armies, then by the English name of the province; the variant or game option
`civil_disorder: distance-from-home` measures instead from the power's home centres, fleets moving as fleets
and armies over any border (the pre-2023 practice, DATC 4.D.8). Where a power may build is the `builds`
option: its home centres (default), any owned centre, or any owned home centre of any power; `build_sites`
adds places.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from adjudicator.board import ARMY, FLEET, NEUTRAL, Board, join_location
from adjudicator.judge.outcome import DEFAULT, SUCCEEDS, OrderResult
from adjudicator.orders.model import Order
from adjudicator.orders.validate import Illegal, ignored, illegal
from adjudicator.state import GameState, Unit, parse_unit_text


def adjustment_due(state: GameState, power: str) -> int:
    """Builds (positive) or removals (negative) a power is due: centres owned minus units."""
    return adjustments_due(state, (power,))[power]


def adjustments_due(state: GameState, powers: Iterable[str]) -> dict[str, int]:
    """`adjustment_due` of each of these powers, counted in one pass over the centres and the units."""
    owned = Counter(state.owners.values())
    units = Counter(u.power for u in state.units.values())
    return {power: owned[power] - units[power] for power in powers}


def build_sites(board: Board, state: GameState, power: str) -> dict[str, tuple[str, ...]]:
    """Unoccupied places a power may build in now, with the unit types allowed there."""
    sites: dict[str, tuple[str, ...]] = {}
    rule = state.rule_options(board).builds
    if rule == "home":
        candidates = board.home_centres(power)
    elif rule == "any-home":
        candidates = tuple(p for p in board.centres if board.provinces[p].home)
    else:
        candidates = board.centres
    for province in candidates:
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
                if board.can_stand(t, loc, season) and (t == ARMY or board.fleet_build_ok(loc)):
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
        if not any(s.province == province and s.power == power for s in board.build_sites):
            rule = state.rule_options(board).builds
            if rule == "home" and p.home != power:
                raise Illegal(f"{name} is not a home centre of {power}")
            if rule == "any-home" and not (p.centre and p.home):
                raise Illegal(f"{name} is not a home centre of any power")
            if not p.centre:
                raise Illegal(f"{name} is not a supply centre")
        raise Illegal(f"{power} does not own {name}")
    unit_type = ref.type
    p = board.provinces[province]
    if unit_type is None:  # DATC 4.C.3: army inland, fleet where a coast is given, otherwise it fails
        if ref.coast in p.coasts:
            unit_type = FLEET
        elif not any(board.fleet_can_stand(loc, season) and board.fleet_build_ok(loc) for loc in board.locations(province)):
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
        if not board.fleet_build_ok(loc):
            raise Illegal(f"a fleet cannot be built in {loc}: it is a river coast, and the board allows no fleet "
                          f"builds there (`river_builds`)")
        return Unit(power, FLEET, loc)
    if not board.army_can_stand(province, season):
        raise Illegal(f"an army cannot be built in {name}")
    return Unit(power, ARMY, province)


def civil_disorder_order(board: Board, state: GameState, power: str, candidates: list[Unit]) -> list[Unit]:
    """The units of a power in the order civil disorder removes them (the game's `civil_disorder` option)."""
    far = len(board.provinces) + 1
    if state.rule_options(board).civil_disorder == "home-centres":  # DATC 4.D.8
        homes = board.home_centres(power)
        army = board.distances_from(homes)
        fleet = _fleet_distances(board, homes, state.phase.season)
        distance = lambda u: (fleet if u.type == FLEET else army).get(u.province, far)  # noqa: E731
    else:
        owned = state.centres_of(power)
        nearest = board.distances_from(owned, (u.province for u in candidates)) if owned else {}
        distance = lambda u: nearest.get(u.province, far)  # noqa: E731
    return sorted(candidates, key=lambda u: (-distance(u), u.type != FLEET, board.provinces[u.province].name))


def _fleet_distances(board: Board, sources: tuple[str, ...], season: str) -> dict[str, int]:
    """Fleet moves from the nearest source province (as fleets move this season; provinces, any coast)."""
    graph = board.fleet_moves(season)
    back: dict[str, set[str]] = {}  # province -> provinces a fleet reaches it from (distance *to* the sources)
    for o, d in graph.edges:
        back.setdefault(d.partition("/")[0], set()).add(o.partition("/")[0])
    distance = {s: 0 for s in sources}
    frontier = list(distance)
    while frontier:
        following = []
        for here in frontier:
            for there in back.get(here, ()):
                if there not in distance:
                    distance[there] = distance[here] + 1
                    following.append(there)
        frontier = following
    return distance


def neutral_rebuilds(board: Board, state: GameState) -> list[Unit]:
    """The neutral units rebuilt now: where one stood at the start, the place is empty and (a centre) unowned."""
    if not board.neutral_rebuilt:
        return []
    out = []
    for text in board.neutral_units:
        unit = parse_unit_text(board, text, NEUTRAL)
        if unit.province not in state.units and unit.province not in state.owners:
            out.append(unit)
    return out


def adjudicate_adjustments(board: Board, state: GameState, orders: list[Order]) -> tuple[dict[str, Unit], list[Unit], list[OrderResult]]:
    """Resolve an adjustment phase: (built units by province, removed units, report)."""
    report: list[OrderResult] = []
    built: dict[str, Unit] = {}
    removed: list[Unit] = []
    dues = adjustments_due(state, board.powers)
    for power in board.powers:
        due = dues[power]
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
            remaining = [u for u in state.units_of(power) if u.province not in gone] if left else []
            for unit in civil_disorder_order(board, state, power, remaining)[:left] if left else ():
                removed.append(unit)
                report.append(OrderResult(power, f"remove {unit.type} {unit.location}", DEFAULT,
                                          "removal not ordered: removed by civil disorder (farthest from its centres)",
                                          unit=unit))
        else:
            for order in mine:
                report.append(ignored(order, f"{power} has as many units as centres: no builds or removals"))
    return built, removed, report
