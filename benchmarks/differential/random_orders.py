"""Seeded random orders for a phase: every unit's order drawn from the legal ones, and now and then one odd
order per power (illegal, foreign, repeated, badly written: DATC chapter 4).

Part of benchmarks/compare_peer.py (the command line)."""

from __future__ import annotations

import random
from collections import defaultdict

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board, split_location
from adjudicator.games.diplomacy.judge.adjustment import adjustment_due
from adjudicator.games.diplomacy.judge.retreat import retreat_options
from adjudicator.games.diplomacy.legal import legal_orders
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.orders.structured import order_object
from adjudicator.games.diplomacy.state import GameState

from .phase_input import PhaseInput, peer_order

    
def _kind(text: str) -> str:
    t = f" {text} "
    if " S " in t:
        return "support"
    if " C " in t:
        return "convoy"
    if " - " in t:
        return "move"
    return "hold"


def _movement_orders(board: Board, state: GameState, rng: random.Random) -> tuple[list[tuple[str, str]], dict]:
    """Random legal orders, coordinated enough to make supports, convoys and paradoxes happen."""
    options: dict[str, tuple[str, dict[str, list[str]]]] = {}  # unit location -> (power, kind -> orders)
    for power in board.powers:
        for unit, texts in legal_orders(board, state, power).items():
            by_kind: dict[str, list[str]] = defaultdict(list)
            for t in texts:
                by_kind[_kind(t)].append(t)
            options[unit.split()[1]] = (power, by_kind)
    chosen: dict[str, str] = {}
    wants: dict[str, str] = {}
    for loc, (power, by_kind) in options.items():
        r = rng.random()
        kind = ("hold" if r < 0.08 else "move" if r < 0.55 else "support" if r < 0.88 else "convoy")
        if kind == "convoy" and not by_kind.get("convoy"):
            kind = "move" if rng.random() < 0.5 else "support"
        if not by_kind.get(kind):
            kind = "hold"
        wants[loc] = kind
        if kind in ("hold", "move"):
            chosen[loc] = rng.choice(by_kind[kind])
    # Convoys: pick one, and (mostly) make the army go where it is convoyed.
    for loc, kind in wants.items():
        if kind != "convoy":
            continue
        power, by_kind = options[loc]
        text = rng.choice(by_kind["convoy"])
        chosen[loc] = text
        army_loc, dest = text.split(" C ")[1].split()[1], text.split(" - ")[-1]
        if army_loc in options and rng.random() < 0.8:
            moves = [t for t in options[army_loc][1].get("move", ()) if t.split(" - ")[1].split()[0] == dest]
            if moves and wants.get(army_loc) != "convoy":
                move = rng.choice(moves)
                if move.endswith(" via convoy") and rng.random() < 0.5:
                    # Either spelling: to a province the army cannot reach by land the route is by sea anyway.
                    if not board.can_move(ARMY, army_loc, dest, state.phase.season):
                        move = move[: -len(" via convoy")]
                chosen[army_loc] = move
                wants[army_loc] = "move"
    # Supports: mostly for what the supported unit does.
    for loc, kind in wants.items():
        if kind != "support":
            continue
        power, by_kind = options[loc]
        matching = []
        for t in by_kind["support"]:
            target_loc = t.split(" S ")[1].split()[1]
            target_order = chosen.get(target_loc)
            if target_order is None:
                continue
            if " - " in t.split(" S ")[1]:
                if _kind(target_order) == "move" and target_order.split(" - ")[1].split()[0].split("/")[0] == \
                        t.split(" - ")[-1].split("/")[0]:
                    matching.append(t)
            elif _kind(target_order) != "move":
                matching.append(t)
        chosen[loc] = rng.choice(matching) if matching and rng.random() < 0.75 else rng.choice(by_kind["support"])
    out = []
    for loc, text in chosen.items():
        if rng.random() < 0.03:
            continue  # now and then a unit gets no order
        out.append((options[loc][0], text))
    return out, options


def _odd_movement(board: Board, state: GameState, rng: random.Random, power: str, options: dict,
                  chosen: dict[str, str]) -> tuple[str, str] | None:
    """One odd order of a power (DATC chapter 4 situations): (label, text), or None when none fits."""
    season = state.phase.season
    mine = [u for u in state.units.values() if u.power == power]
    if not mine:
        return None
    unit = rng.choice(mine)
    kind = rng.choice(["other-power", "twice", "omitted-coast", "impossible-coast", "army-coast",
                       "wrong-unit-type", "support-coast", "no-unit", "via-no-fleet"])
    if kind == "other-power":
        others = [loc for loc, (p, _) in options.items() if p != power]
        if others:
            loc = rng.choice(others)
            texts = [t for ts in options[loc][1].values() for t in ts]
            return kind, rng.choice(texts)
    elif kind == "twice":
        texts = [t for ts in options[unit.location][1].values() for t in ts if t != chosen.get(unit.location)]
        if texts:
            return kind, rng.choice(texts)
    elif kind in ("omitted-coast", "impossible-coast") and unit.type == FLEET:
        for dest in ("spa", "stp", "bul"):
            reach = board.reachable_locations(FLEET, unit.location, dest, season)
            if kind == "omitted-coast" and len(reach) == 2:
                return kind, f"F {unit.location} - {dest}"
            if kind == "impossible-coast" and len(reach) == 1:
                other = [c for c in board.provinces[dest].coasts if f"{dest}/{c}" not in reach]
                return kind, f"F {unit.location} - {dest}/{other[0]}"
    elif kind == "army-coast" and unit.type == ARMY:
        for dest in ("spa", "stp", "bul"):
            if board.can_move(ARMY, unit.location, dest, season):
                return kind, f"A {unit.location} - {dest}/{rng.choice(board.provinces[dest].coasts)}"
    elif kind == "wrong-unit-type":
        moves = options[unit.location][1].get("move") or options[unit.location][1]["hold"]
        text = rng.choice(moves)
        return kind, ("F" if unit.type == ARMY else "A") + text[1:]
    elif kind == "support-coast":
        # A support naming a coast, right or wrong (DATC 4.B.4, 6.B.9).
        for u in state.units.values():
            if u.type != FLEET or u.province == unit.province:
                continue
            for dest in ("spa", "stp", "bul"):
                reach = board.reachable_locations(FLEET, u.location, dest, season)
                if reach and board.can_support_into(unit.type, unit.location, dest, season) and dest != unit.province:
                    coast = rng.choice(board.provinces[dest].coasts)
                    return kind, f"{unit.type} {unit.location} S F {u.location} - {dest}/{coast}"
    elif kind == "no-unit":
        empty = [p for p in board.provinces if p not in state.units]
        return kind, f"A {rng.choice(empty)} H"
    elif kind == "via-no-fleet" and unit.type == ARMY:
        for dest in sorted(board.army_moves(season).successors(unit.location)):
            if not board.convoy_route_exists(unit.province, dest, season,
                                             [u.province for u in state.units.values() if u.type == FLEET]):
                return kind, f"A {unit.location} - {dest} via convoy"
    return None


def _retreat_orders(board: Board, state: GameState, rng: random.Random, odd: float) -> tuple[list, dict[int, str]]:
    out: list[tuple[str, str]] = []
    oddities: dict[int, str] = {}
    season = state.phase.season
    for power in board.powers:
        for unit, texts in legal_orders(board, state, power).items():
            r = rng.random()
            if r < 0.08:
                pass  # no order: disbanded
            else:
                retreats = [t for t in texts if " R " in t]
                out.append((power, texts[-1] if r < 0.25 or not retreats else rng.choice(retreats)))
            if rng.random() < odd:
                d = state.dislodged[split_location(unit.split()[1])[0]]
                graph = board.army_moves(season) if d.unit.type == ARMY else board.fleet_moves(season)
                bad = [loc for loc in graph.successors(d.unit.location) if f"{unit} R {loc}" not in texts]
                choice = rng.random()
                if bad and choice < 0.5:
                    label, text = "retreat-not-allowed", f"{unit} R {rng.choice(sorted(bad))}"
                elif choice < 0.75:
                    label, text = "retreat-twice", rng.choice(texts)
                else:
                    label, text = "retreat-hold", f"{unit} H"
                # before or after the unit's other order (if it has one)
                where = len(out) - 1 if out and out[-1][1].split()[:2] == text.split()[:2] and rng.random() < 0.5 \
                    else len(out)
                oddities = {(j + 1 if j >= where else j): lab for j, lab in oddities.items()}
                oddities[where] = label
                out.insert(where, (power, text))
    return out, oddities


def _adjustment_orders(board: Board, state: GameState, rng: random.Random, odd: float) -> tuple[list, dict[int, str]]:
    out: list[tuple[str, str]] = []
    oddities: dict[int, str] = {}
    for power in board.powers:
        due = adjustment_due(state, power)
        options = legal_orders(board, state, power)
        if due > 0:
            builds = [t for t in options.get("builds", []) if t != "Waive"]
            rng.shuffle(builds)
            used: set[str] = set()
            for _ in range(due):
                r = rng.random()
                if r < 0.1:
                    out.append((power, "Waive"))
                    continue
                if r < 0.2:
                    continue  # not ordered: waived
                pick = next((b for b in builds if b.split()[2].split("/")[0] not in used), None)
                if pick is None:
                    break
                used.add(pick.split()[2].split("/")[0])
                out.append((power, pick))
        elif due < 0:
            removals = list(options.get("removals", []))
            rng.shuffle(removals)
            ordered = -due if rng.random() < 0.6 else rng.randrange(0, -due)  # sometimes civil disorder
            out += [(power, t) for t in removals[:ordered]]
        if due != 0 and rng.random() < odd:
            label, text = _odd_adjustment(board, state, rng, power, due)
            oddities[len(out)] = label
            out.append((power, text))
    return out, oddities


def _odd_adjustment(board: Board, state: GameState, rng: random.Random, power: str, due: int) -> tuple[str, str]:
    season = state.phase.season
    homes = list(board.home_centres(power))
    kind = rng.choice(["build-occupied", "build-not-owned", "build-not-home", "build-no-coast", "build-no-type",
                       "build-fleet-inland", "extra-build", "remove-foreign", "remove-in-build", "build-in-removal",
                       "build-same-province"])
    if kind == "build-occupied":
        occupied = [h for h in homes if h in state.units]
        if occupied:
            return kind, f"Build A {rng.choice(occupied)}"
    if kind == "build-not-owned":
        lost = [h for h in homes if state.owners.get(h) != power and h not in state.units]
        if lost:
            return kind, f"Build A {rng.choice(lost)}"
    if kind == "build-not-home":
        owned = [c for c, o in state.owners.items() if o == power and c not in homes and c not in state.units]
        if owned:
            return kind, f"Build A {rng.choice(owned)}"
    if kind == "build-no-coast":
        return kind, f"Build F {rng.choice(['stp', 'spa', 'bul'])}"
    if kind == "build-no-type":
        return kind, f"Build {rng.choice(homes)}"
    if kind == "build-fleet-inland":
        inland = [h for h in homes if not board.coastal(h, season)]
        if inland:
            return kind, f"Build F {rng.choice(inland)}"
    if kind == "remove-foreign":
        foreign = [u for u in state.units.values() if u.power != power]
        if foreign:
            u = rng.choice(foreign)
            return kind, f"Remove {u.type} {u.location}"
    if kind == "remove-in-build" or (due > 0 and kind == "extra-build"):
        mine = state.units_of(power)
        if mine and kind == "remove-in-build":
            u = rng.choice(mine)
            return kind, f"Remove {u.type} {u.location}"
    if kind == "build-same-province":
        free = [h for h in homes if h not in state.units]
        if free:
            h = rng.choice(free)
            return kind, f"Build {rng.choice(['A', 'F'])} {h}"
    free = [h for h in homes if h not in state.units]
    if free:
        return "extra-build", f"Build A {rng.choice(free)}"
    return "build-occupied", f"Build A {rng.choice(homes)}"


def random_orders(board: Board, state: GameState, rng: random.Random, odd: float = 0.0) -> PhaseInput:
    """Random legal orders for every unit (or build/removal) of every power in the state's phase; with
    probability `odd` per power, one odd order too (illegal, foreign, repeated, badly written: DATC chapter 4)."""
    kind = state.phase.type
    oddities: dict[int, str] = {}
    if kind == "Movement":
        texts, options = _movement_orders(board, state, rng)
        if odd:
            chosen = {t.split()[1]: t for _, t in texts}
            for power in board.powers:
                if rng.random() < odd:
                    extra = _odd_movement(board, state, rng, power, options, chosen)
                    if extra:
                        oddities[len(texts)] = extra[0]
                        texts.append((power, extra[1]))
        order = list(range(len(texts)))
        rng.shuffle(order)
        texts = [texts[i] for i in order]
        oddities = {order.index(i): label for i, label in oddities.items()}
    elif kind == "Retreat":
        texts, oddities = _retreat_orders(board, state, rng, odd)
    else:
        texts, oddities = _adjustment_orders(board, state, rng, odd)
    parsed = [parse_order(board, text, power=power) for power, text in texts]
    peer = [peer_order(o) for o in parsed]
    retreats = {}
    if kind == "Retreat":
        occupied = set(state.units)
        for p, d in state.dislodged.items():
            retreats[p] = retreat_options(board, state.phase.season, d, occupied, state.contested)
    return PhaseInput(state, texts, peer, retreats, oddities, [order_object(o) for o in parsed])
