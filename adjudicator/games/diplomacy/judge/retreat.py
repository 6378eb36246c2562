"""Retreat phase: where each dislodged unit may go, and what its order does."""

from __future__ import annotations

from typing import Literal

from adjudicator.games.diplomacy.board import Board, split_location
from adjudicator.outcome import DEFAULT, FAILS, SUCCEEDS, OrderResult
from adjudicator.games.diplomacy.orders.model import Build, Disband, Move, Order, Remove, Retreat, Waive
from adjudicator.games.diplomacy.orders.validate import Illegal, ignored, illegal, resolve_destination, several_orders, wrong_phase
from adjudicator.games.diplomacy.rulebook import DEFAULT_RULES, Rulebook
from adjudicator.games.diplomacy.state import Dislodged, GameState, Unit, moved_unit


def retreat_options(board: Board, season: str, dislodged: Dislodged, occupied: set[str],
                    contested: set[str] | frozenset[str], rules: Rulebook = DEFAULT_RULES) -> list[str]:
    """The locations a dislodged unit may retreat to: reachable without convoy, empty, not left empty by a
    standoff, and not where its attacker came from (unless the attacker came by convoy: DATC 4.A.5)."""
    unit = dislodged.unit
    view = board.season(season)
    options = []
    for loc in (view.army_next if unit.type == "A" else view.fleet_next).get(unit.location, ()):
        if _closed(split_location(loc)[0], dislodged, occupied, contested, rules) is None:
            options.append(loc)
    return sorted(options)


Closed = Literal["occupied", "standoff", "attacker"]  # why a place next to a dislodged unit is no retreat


def _closed(province: str, dislodged: Dislodged, occupied: set[str], contested: set[str] | frozenset[str],
            rules: Rulebook) -> Closed | None:
    """Why a dislodged unit may not retreat to a province it reaches, or None: it may."""
    if province in occupied:
        return "occupied"
    if province in contested:
        return "standoff"
    if province == dislodged.attacker_origin and not (
            dislodged.by_convoy and rules.retreat_to_convoy_origin == "if-convoyed"):  # DATC 4.A.5
        return "attacker"
    return None


def adjudicate_retreats(board: Board, state: GameState, orders: list[Order]) -> tuple[dict[str, Unit], list[OrderResult]]:
    """Resolve a retreat phase: the units that arrive (by province) and a report line for every order and unit."""
    season = state.phase.season
    rules = state.rule_options(board)
    occupied = set(state.units)
    report: list[OrderResult] = []
    legal: dict[str, list[tuple[str | None, Order]]] = {}  # dislodged province -> (destination or None, order)
    refused: dict[str, OrderResult] = {}  # dislodged province -> the last report line of a refused order
    for order in orders:
        if isinstance(order, (Build, Waive)):  # an adjustment phase's order: refused naming the phase
            report.append(illegal(order, None, wrong_phase(order, state), "it is ignored"))
            continue
        d = state.dislodged.get(order.unit.province) if order.unit else None
        if d is None:
            report.append(ignored(order, f"there is no dislodged unit in {order.unit.province if order.unit else '?'}"))
            continue
        if order.power is not None and d.unit.power != order.power:
            report.append(ignored(order, f"the dislodged unit in {d.unit.province} belongs to {d.unit.power}"))
            continue
        p = d.unit.province
        if isinstance(order, (Disband, Remove)):
            legal.setdefault(p, []).append((None, order))
            continue
        if not isinstance(order, (Move, Retreat)):
            report.append(illegal(order, d.unit, f"a dislodged unit can only retreat or disband, not {order.kind}",
                                  "the order is ignored"))
            refused[p] = report[-1]
            continue
        options = retreat_options(board, season, d, occupied, state.contested, rules)
        try:
            loc = resolve_destination(board, d.unit.type, d.unit.location, order.dest, order.dest_coast, season, rules)
            if loc not in options:
                raise Illegal(_why_not(board, d, order.dest, occupied, state.contested, rules))
        except Illegal as exc:  # ignored (DATC 4.E.1): a legal order for the same unit still counts
            report.append(illegal(order, d.unit, str(exc), "the order is ignored"))
            refused[p] = report[-1]
            continue
        legal.setdefault(p, []).append((loc, order))

    chosen: dict[str, tuple[str, Order]] = {}  # dislodged province -> (destination location, order)
    disbanding: dict[str, Order | None] = {}
    for p, entries in legal.items():
        if len({loc for loc, _ in entries}) > 1:  # several different orders (DATC 4.D.3)
            if rules.several_orders == "hold":  # none is carried out
                for _, order in entries:
                    report.append(illegal(order, state.dislodged[p].unit,
                                          several_orders([o for _, o in entries], None, rules), "it is disbanded"))
                disbanding[p] = None
                continue
            kept = entries[0] if rules.several_orders == "first" else entries[-1]
            for entry in entries:
                if entry is not kept:
                    report.append(ignored(entry[1], several_orders([o for _, o in entries], kept[1], rules)))
            entries = [kept]
        for _, extra in entries[1:]:
            report.append(ignored(extra, "the same order was given twice; it counts once"))
        to, order = entries[0]
        if to is None:
            disbanding[p] = order
        else:
            chosen[p] = (to, order)

    arrivals: dict[str, Unit] = {}
    by_dest: dict[str, list[str]] = {}
    for p, (loc, _) in chosen.items():
        by_dest.setdefault(split_location(loc)[0], []).append(p)
    for dest, ps in by_dest.items():
        for p in ps:
            loc, order = chosen[p]
            unit = state.dislodged[p].unit
            if len(ps) > 1:
                others = ", ".join(str(state.dislodged[q].unit) for q in ps if q != p)
                report.append(OrderResult(unit.power, order.text or order.describe(), FAILS,
                                          f"bounced with {others} retreating to {dest}; the unit is disbanded",
                                          unit=unit, order=order, line=order.line))
            else:
                arrivals[dest] = moved_unit(unit, loc)
                report.append(OrderResult(unit.power, order.text or order.describe(), SUCCEEDS, f"retreats to {loc}",
                                          unit=unit, order=order, line=order.line))
    for p, disband in disbanding.items():
        unit = state.dislodged[p].unit
        if disband is not None:
            report.append(OrderResult(unit.power, disband.text or disband.describe(), SUCCEEDS, "disbanded", unit=unit,
                                      order=disband, line=disband.line))
    for p, d in state.dislodged.items():
        if p in refused and p not in chosen and p not in disbanding:
            refused[p].reason += "; the unit is disbanded"  # one line for the unit: the refusal says it all
        elif p not in chosen and p not in disbanding:
            report.append(OrderResult(d.unit.power, f"{d.unit.type} {d.unit.location} disband", DEFAULT,
                                      "no retreat order: the unit is disbanded", unit=d.unit))
    return arrivals, report


def _why_not(board: Board, d: Dislodged, dest: str, occupied: set[str], contested: set[str] | frozenset[str],
             rules: Rulebook) -> str:
    """Why a dislodged unit may not retreat to `dest`, as `retreat_options` found."""
    name = board.provinces[dest].name
    match _closed(dest, d, occupied, contested, rules):
        case "occupied":
            return f"{name} is occupied"
        case "standoff":
            return f"{name} was left empty by a standoff"
        case "attacker":
            return f"{name} is where the attacker came from" + (" (by convoy: DATC 4.A.5, never)" if d.by_convoy else "")
    return f"cannot retreat to {name}"
