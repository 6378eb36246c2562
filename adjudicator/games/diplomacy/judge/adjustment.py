"""Adjustment phase: builds, removals, waives and civil disorder (by default the 2023 rules, DATC v3.0 preferences).

Orders are executed top to bottom per power, skipping those that cannot be: the first legal builds or
removals count (DATC 4.D.4-4.D.6 choose otherwise). Builds not ordered are waived (or made by the board's
`default_builds`); removals not ordered are made by civil disorder (DATC 4.D.8): by default (the 2023
rulebook, DATC v3.0) the unit farthest from its power's nearest owned supply centre (moves over any border),
fleets before armies, then by the English name of the province; `home-centres` measures instead from the
power's home centres, fleets moving as fleets (from their own coast) and armies over any border (the pre-2023
practice); `home-centres-codes` as `home-centres`, with ties broken by the place codes of the game's records
(`A CAR` before `A GAU`: the diplomacy package's unit names) rather than the English names; `godip` as godip
counts (`godip_distances`; ties fleets first, then by province id). Where a power may build is the `builds`
option: its home centres (default), any owned centre, or any owned home centre of any power; `build_sites`
adds places.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Iterable

from adjudicator.games.diplomacy.board import ARMY, FLEET, NEUTRAL, Board, join_location
from adjudicator.games.diplomacy.codes import place_codes
from adjudicator.outcome import DEFAULT, SUCCEEDS, OrderResult
from adjudicator.games.diplomacy.orders.model import Build, Disband, Order, Remove, Waive
from adjudicator.games.diplomacy.orders.validate import Illegal, ignored, illegal, wrong_phase
from adjudicator.games.diplomacy.rulebook import Rulebook
from adjudicator.games.diplomacy.state import GameState, Unit, parse_unit_text


_ADJUSTMENT_ORDERS = (Build, Waive, Remove, Disband)


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


def _build(board: Board, state: GameState, power: str, order: Build, used: set[str]) -> Unit:
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
    rules = state.rule_options(board)
    inland = not any(board.fleet_can_stand(loc, season) and board.fleet_build_ok(loc) for loc in board.locations(province))
    if unit_type is None:  # DATC 4.C.3: by default an army inland, a fleet where a coast is given, else it fails
        if ref.coast in p.coasts and rules.build_without_type == "army-or-fleet-by-coast":
            unit_type = FLEET
        elif inland and rules.build_without_type != "fails":
            unit_type = ARMY
        else:
            raise Illegal(f"the build in {name} does not say army or fleet (DATC 4.C.3: {rules.build_without_type})")
    if unit_type == FLEET and inland and not any(board.fleet_can_stand(loc, season) for loc in board.locations(province)) \
            and rules.fleet_build_on_land == "army":  # DATC 4.C.4: a fleet ordered on land is built as an army
        unit_type = ARMY
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
    rule = state.rule_options(board).civil_disorder
    if rule == "godip":  # a board's answer to DATC 4.D.8: godip's count (see `godip_distances`); ties as godip's
        distances = godip_distances(board, board.home_centres(power))  # remoteUnitSlice.Less: fleets, then the id
        return sorted(candidates, key=lambda u: (-distances.get(u.province, 0), u.type != FLEET, u.location))
    if rule in ("home-centres", "home-centres-codes"):  # DATC 4.D.8
        homes = board.home_centres(power)
        army = board.distances_from(homes)
        fleet = _fleet_distances(board, homes, state.phase.season)
        distance: Callable[[Unit], int] = lambda u: (fleet.get(u.location, far) if u.type == FLEET  # noqa: E731
                                                     else army.get(u.province, far))
    else:
        owned = state.centres_of(power)
        nearest = board.distances_from(owned, (u.province for u in candidates)) if owned else {}
        distance = lambda u: nearest.get(u.province, far)  # noqa: E731
    if rule == "home-centres-codes":  # ties by the place codes the game's records write (the diplomacy package's)
        codes = place_codes(board)
        return sorted(candidates, key=lambda u: (-distance(u), u.type != FLEET, codes[u.location]))
    return sorted(candidates, key=lambda u: (-distance(u), u.type != FLEET, board.provinces[u.province].name))


def _fleet_distances(board: Board, sources: tuple[str, ...], season: str) -> dict[str, int]:
    """Fleet moves from each location (a coast its own: a fleet on spa/nc moves as from spa/nc) to the nearest
    source province, as fleets move this season."""
    graph = board.fleet_moves(season)
    back: dict[str, set[str]] = {}  # location -> locations a fleet reaches it from (distance *to* the sources)
    for o, d in graph.edges:
        back.setdefault(d, set()).add(o)
    homes = set(sources)
    return _distances_to(tuple(loc for loc in graph.nodes if loc.partition("/")[0] in homes), back)


def _distances_to(sources: tuple[str, ...], back: dict[str, set[str]]) -> dict[str, int]:
    """Steps from each province to the nearest source, `back` giving the provinces each one is reached from."""
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


def godip_distances(board: Board, sources: tuple[str, ...]) -> dict[str, int]:
    """Moves from each province to the nearest source, as godip counts them for civil disorder: over every
    border for armies and fleets alike, a one-way border only in its direction; a province with no path to
    any source is left out (it counts 0)."""
    back: dict[str, set[str]] = {}  # province -> the provinces a border leads to it from
    for b in board.borders:
        a, z = b.a.partition("/")[0], b.b.partition("/")[0]
        back.setdefault(z, set()).add(a)
        if not b.one_way:
            back.setdefault(a, set()).add(z)
    return _distances_to(sources, back)


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
    rules = state.rule_options(board)
    dues = adjustments_due(state, board.powers)
    for power in board.powers:
        due = dues[power]
        mine: list[Order] = []
        for order in orders:
            if order.power != power:
                continue
            if isinstance(order, _ADJUSTMENT_ORDERS):
                mine.append(order)
            else:  # a move, support, convoy or retreat: another kind of phase's order, whatever the power is due
                report.append(illegal(order, None, wrong_phase(order, state), "it is ignored"))
        if due > 0:
            _builds(board, state, rules, power, due, mine, built, report)
        elif due < 0:
            _removals(board, state, rules, power, -due, mine, removed, report)
        else:
            for order in mine:
                report.append(ignored(order, f"{power} has as many units as centres: no builds or removals"))
    return built, removed, report


def _builds(board: Board, state: GameState, rules: Rulebook, power: str, due: int, mine: list[Order],
            built: dict[str, Unit], report: list[OrderResult]) -> None:
    """A power's builds: each legal build or waive in turn, as the rules choose among too many (DATC 4.D.4) and
    among several in one place (4.D.5); a waive as 4.D.7 allows; builds left over by the board's rule."""
    chosen: list[tuple[Order, Unit | None]] = []  # legal builds (and waives, None), in the order given
    for order in mine:
        if isinstance(order, Waive):
            if rules.waiving == "not-allowed":  # DATC 4.D.7
                report.append(illegal(order, None, "builds may not be waived (DATC 4.D.7: not-allowed)", "ignored"))
            else:
                chosen.append((order, None))
            continue
        if not isinstance(order, Build):
            report.append(illegal(order, None, f"{power} is due {due} build(s), not removals", "ignored"))
            continue
        try:
            unit = _build(board, state, power, order, set())
        except Illegal as exc:
            report.append(illegal(order, None, str(exc), "no unit is built"))
            continue
        twin = next((i for i, (_, u) in enumerate(chosen) if u is not None and u.province == unit.province), None)
        if twin is None:
            chosen.append((order, unit))
        elif rules.two_builds_one_place == "last":  # DATC 4.D.5: the later build in the place counts
            report.append(ignored(chosen.pop(twin)[0], f"a later build in {unit.province} replaces it (DATC 4.D.5: last)"))
            chosen.append((order, unit))
        elif rules.two_builds_one_place == "none":  # DATC 4.D.5: neither build in the place counts
            report.append(illegal(chosen.pop(twin)[0], None, f"two builds in {unit.province} (DATC 4.D.5: none)",
                                  "no unit is built"))
            report.append(illegal(order, None, f"two builds in {unit.province} (DATC 4.D.5: none)", "no unit is built"))
        else:
            report.append(illegal(order, None, f"a unit is already being built in {board.provinces[unit.province].name}",
                                  "no unit is built"))
    if len(chosen) > due:  # DATC 4.D.4: too many builds (a waive counts as one)
        if rules.too_many_builds == "none":
            for order, _ in chosen:
                report.append(illegal(order, None, f"{power} ordered {len(chosen)} builds for {due} (DATC 4.D.4: none)",
                                      "no unit is built"))
            chosen = []
        else:
            keep = chosen[:due] if rules.too_many_builds == "first" else chosen[-due:]
            for order, _ in chosen:
                if all(order is not k for k, _ in keep):
                    report.append(ignored(order, f"{power} may build only {due} unit(s)"
                                          + ("" if rules.too_many_builds == "first" else " (DATC 4.D.4: the last count)")))
            chosen = keep
    for order, new in chosen:
        if new is None:
            report.append(OrderResult(power, order.text or "waive", SUCCEEDS, "build waived", order=order, line=order.line))
        else:
            built[new.province] = new
            report.append(OrderResult(power, order.text or order.describe(), SUCCEEDS, f"builds {new.type} {new.location}",
                                      unit=new, order=order, line=order.line))
    left = due - len(chosen)
    if left and rules.default_builds == "armies":  # the board's rule: an army on each buildable centre left
        for unit in default_builds(board, state, power, set(built), left):
            built[unit.province] = unit
            left -= 1
            report.append(OrderResult(power, f"build {unit.type} {unit.location}", DEFAULT,
                                      "build not ordered: an army is built (the board's default builds)", unit=unit))
    for _ in range(left):
        report.append(OrderResult(power, "waive", DEFAULT, "build not ordered: waived"))


def default_builds(board: Board, state: GameState, power: str, taken: set[str], count: int) -> list[Unit]:
    """Armies on the power's buildable centres not already built on, by province id, `count` at most (the
    `default_builds: armies` rule, as the Chaos variant plays)."""
    season = state.phase.season
    out: list[Unit] = []
    for province, types in sorted(build_sites(board, state, power).items()):
        if len(out) < count and province not in taken and ARMY in types and board.army_can_stand(province, season):
            out.append(Unit(power, ARMY, province))
    return out


def _removals(board: Board, state: GameState, rules: Rulebook, power: str, due: int, mine: list[Order],
              removed: list[Unit], report: list[OrderResult]) -> None:
    """A power's removals: each legal removal in turn, as the rules choose among too many (DATC 4.D.6); the
    rest by civil disorder (4.D.8)."""
    chosen: list[tuple[Order, Unit]] = []
    for order in mine:
        if not isinstance(order, (Remove, Disband)):
            report.append(illegal(order, None, f"{power} must remove {due} unit(s); a {order.kind} order does nothing",
                                  "ignored"))
            continue
        unit = state.units.get(order.unit.province)
        if unit is None or unit.power != power:
            report.append(illegal(order, unit, f"{power} has no unit in {order.unit.province}", "ignored"))
        elif any(u.province == unit.province for _, u in chosen):
            report.append(ignored(order, "that unit is already removed"))
        else:
            chosen.append((order, unit))
    if len(chosen) > due:  # DATC 4.D.6: too many removals
        rule = rules.too_many_removals
        if rule == "civil-disorder":  # the civil disorder rule chooses among the units ordered removed
            first = civil_disorder_order(board, state, power, [u for _, u in chosen])[:due]
            keep = [(o, u) for o, u in chosen if u in first]
        else:
            keep = chosen[:due] if rule == "first" else chosen[-due:]
        for order, _ in chosen:
            if all(order is not k for k, _ in keep):
                report.append(ignored(order, f"{power} needs to remove only {due} unit(s)"
                                      + ("" if rule == "first" else f" (DATC 4.D.6: {rule})")))
        chosen = keep
    for order, unit in chosen:
        removed.append(unit)
        report.append(OrderResult(power, order.text or order.describe(), SUCCEEDS, f"removes {unit.type} {unit.location}",
                                  unit=unit, order=order, line=order.line))
    left = due - len(chosen)
    gone = {u.province for _, u in chosen}
    remaining = [u for u in state.units_of(power) if u.province not in gone] if left else []
    for unit in civil_disorder_order(board, state, power, remaining)[:left] if left else ():
        removed.append(unit)
        report.append(OrderResult(power, f"remove {unit.type} {unit.location}", DEFAULT,
                                  "removal not ordered: removed by civil disorder (farthest from its centres)",
                                  unit=unit))
