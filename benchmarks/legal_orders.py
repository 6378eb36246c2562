"""Legal-order listing on full boards: `adjudicator.games.diplomacy.legal` against the plain generate-and-validate
listing it replaced (every candidate order of every unit offered to the validator), in the same run.

    python benchmarks/legal_orders.py --repeat 3

A full board has a unit on every space a unit can stand on (75 units on the standard map, 49 on the Arctic
map in Fall), powers dealt round-robin. Both listings must give the same orders in the same order; the
script prints each one's best time for all powers and the ratio. The reference is kept here, not in the
package: it is the peer the speed is measured against (and the tests check the two agree).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board, split_location  # noqa: E402
from adjudicator.catalogue import load_variant  # noqa: E402
from adjudicator.games.diplomacy import legal  # noqa: E402
from adjudicator.games.diplomacy.orders.model import Convoy, Hold, Move, Order, Support, UnitRef  # noqa: E402
from adjudicator.games.diplomacy.orders.validate import Illegal, movement_command  # noqa: E402
from adjudicator.games.diplomacy.state import GameState, Phase, Unit  # noqa: E402


def full_state(name: str, season_index: int = 0) -> tuple[Board, GameState]:
    """A movement position with a unit on every space that can hold one (armies on land, fleets on sea)."""
    board = load_variant(name)
    season = board.calendar[season_index % len(board.calendar)].season
    powers = list(board.powers)
    units = {}
    for i, province in enumerate(sorted(board.provinces)):
        surface = board.surface(province, season)
        if surface in ("sea", "land"):
            units[province] = Unit(powers[i % len(powers)], FLEET if surface == "sea" else ARMY, province)
    return board, GameState(board.name, Phase(season, 1901, "Movement"), units, board.initial_owners())


def reference_movement_orders(board: Board, state: GameState, unit: Unit) -> list[Order]:
    """Every candidate order of a unit, each offered to the validator (the listing before issue 16)."""
    season = state.phase.season
    fleets = board.season(season).sea.intersection(u.province for u in state.units.values() if u.type == FLEET)
    me = UnitRef(unit.type, unit.province, unit.coast, unit.power)
    ref = lambda u: UnitRef(u.type, u.province, u.coast, u.power)  # noqa: E731
    candidates: list[Order] = [Hold(me)]
    graph = board.army_moves(season) if unit.type == ARMY else board.fleet_moves(season)
    for loc in sorted(graph.successors(unit.location)) if unit.location in graph else []:
        province, coast = split_location(loc)
        candidates.append(Move(me, province, coast))
    if unit.type == ARMY and board.convoy_origin_ok(unit.province, season):
        for dest in sorted(board.provinces):
            if dest != unit.province and board.convoy_route_exists(unit.province, dest, season, fleets):
                candidates.append(Move(me, dest, via_convoy=True))
    reach = [p for p in board.provinces if p != unit.province and board.can_support_into(unit.type, unit.location, p, season)]
    for other in state.units.values():
        if other.province == unit.province:
            continue
        if other.province in reach:
            candidates.append(Support(me, ref(other)))
        candidates.extend(Support(me, ref(other), d) for d in reach if d != other.province)
    if unit.type == FLEET and board.surface(unit.province, season) == "sea":
        for army in state.units.values():
            if army.type == ARMY:
                for dest in sorted(board.provinces):
                    if dest != army.province and unit.province in board.convoy_fleets_on_routes(
                            army.province, dest, season, fleets):
                        candidates.append(Convoy(me, ref(army), dest))
    out = []
    for order in candidates:
        try:
            movement_command(board, state, unit, order, frozenset(fleets))
        except Illegal:
            continue
        out.append(order)
    return out


def reference_legal_orders(board: Board, state: GameState, power: str) -> dict[str, list[str]]:
    """The reference listing of a power's movement orders, keyed like `legal_orders`."""
    return {f"{u.type} {u.location}": [o.describe() for o in reference_movement_orders(board, state, u)]
            for u in state.units_of(power)}


def main() -> None:
    """Time both listings on each full board and print the ratio."""
    from timing import best_of

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs (default 3)")
    args = parser.parse_args()
    for name in ("standard", "arctic"):
        board, state = full_state(name)

        def ours() -> list:
            legal._CACHE.clear()  # a new position each run: nothing carried over from the run before
            return [legal.legal_orders(board, state, p) for p in board.powers]

        def reference() -> list:
            return [reference_legal_orders(board, state, p) for p in board.powers]

        assert ours() == reference(), f"{name}: the listings differ"
        count = sum(len(v) for lists in ours() for v in lists.values())
        t_ours = best_of(ours, args.repeat)
        t_ref = best_of(reference, args.repeat)
        print(f"{name}: {len(state.units)} units, {count} legal orders; reference {t_ref:.3f} s, "
              f"ours {t_ours:.3f} s: {t_ref / t_ours:.1f}x faster")


if __name__ == "__main__":
    main()
