"""How adjudication time grows with the board: generated boards of 100 to 10,000 spaces.

    python benchmarks/growth.py                          # sizes 100, 200, 1000, 2000, 10000
    python benchmarks/growth.py --sizes 100 1000 --phases 5

Each board is variant data built here and loaded with `adjudicator.games.diplomacy.board_file.board_from_data`: a square grid of
land crossed by sea lanes (every fourth row is sea, with land bridges between the lanes), four-neighbour
borders (`land` between land spaces, `water` wherever a sea is involved), seven powers and a supply centre on
every tenth land space. Half of the spaces get a unit (armies on land, fleets on the seas and on some coasts)
and every unit a random order: moves, holds, support webs (supports for the moves and holds of neighbours,
and supports of supports), and long convoy chains (an army carried along a sea lane by up to 40 fleets, each
ordered to convoy it, sometimes with a rival fleet attacking the chain).

For each size it reports the time per movement phase, cold (every cache the engine keeps emptied first, as
found by benchmarks/caches.py; parsing every order from its text and adjudicating, as a game master's tool
would), its parts (parsing, validation, resolution), the time per unit, and the ratio
of the time per phase when the number of units doubles (from one size to the next, scaled to a doubling:
(t2 / t1) ** (1 / log2(n2 / n1))). The goal is near-linear growth: at most a bit more than 2x per doubling.

Run time is bounded: building the parser and the graphs of a 10,000-space board takes a while, so a size
whose first phase exceeds `--budget` seconds is measured once and the larger sizes are skipped.
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board
from adjudicator.games.diplomacy.board_file import board_from_data  # noqa: E402
from adjudicator.games.diplomacy.orders.parse import parse_order  # noqa: E402
from adjudicator.games.diplomacy.orders.validate import movement_commands  # noqa: E402
from adjudicator.games.diplomacy.phase import adjudicate  # noqa: E402
from caches import Caches, find_caches  # noqa: E402
from adjudicator.games.diplomacy.state import GameState, Phase, Unit  # noqa: E402

POWERS = ["Red", "Blue", "Green", "Gold", "Grey", "Pink", "Teal"]


def grid_variant(spaces: int) -> dict:
    """Variant data for a board of about `spaces` spaces (a square grid)."""
    side = max(4, round(math.sqrt(spaces)))
    width, height = side, max(4, spaces // side)

    def pid(x: int, y: int) -> str:
        return f"g{x}x{y}"

    def is_sea(x: int, y: int) -> bool:
        return y % 4 == 2 and x % 9 != 4  # sea lanes, crossed by a land bridge every nine columns

    provinces, borders = [], []
    n_land = 0
    for y in range(height):
        for x in range(width):
            sea = is_sea(x, y)
            entry = {"id": pid(x, y), "name": f"Grid {x} {y}", "kind": "sea" if sea else "land"}
            if not sea:
                n_land += 1
                if n_land % 10 == 0:
                    entry["centre"] = True
            provinces.append(entry)
            for dx, dy in ((1, 0), (0, 1)):
                nx, ny = x + dx, y + dy
                if nx < width and ny < height:
                    kind = "water" if sea or is_sea(nx, ny) else "land"
                    borders.append(f"{pid(x, y)} - {pid(nx, ny)} : {kind}")
    return {
        "name": f"grid{width * height}",
        "title": f"Grid of {width * height} spaces",
        "powers": {p: {} for p in POWERS},
        "terrain": {"land": {"default": "land"}, "sea": {"default": "sea"}},
        "calendar": {"start": {"season": "Spring", "year": 1901, "type": "Movement"},
                     "phases": [{"season": "Spring", "type": "Movement"}, {"season": "Spring", "type": "Retreat"},
                                {"season": "Fall", "type": "Movement"},
                                {"season": "Fall", "type": "Retreat", "centres": True},
                                {"season": "Fall", "type": "Adjustment"}]},
        "provinces": provinces,
        "borders": borders,
    }


def random_position(board: Board, rng: random.Random) -> GameState:
    """Units on half of the spaces, of random powers (in blocks, so neighbours are often allies)."""
    season = "Spring"
    units: dict[str, Unit] = {}
    ids = list(board.provinces)
    for p in rng.sample(ids, len(ids) // 2):
        x, y = (int(v) for v in p[1:].split("x"))
        power = POWERS[(x // 6 + 3 * (y // 6)) % len(POWERS)] if rng.random() < 0.8 else rng.choice(POWERS)
        if board.surface(p, season) == "sea" or board.coastal(p, season) and rng.random() < 0.3:
            units[p] = Unit(power, FLEET, p)
        else:
            units[p] = Unit(power, ARMY, p)
    owners = {c: POWERS[i % len(POWERS)] for i, c in enumerate(board.centres)}
    return GameState(board.name, Phase("Spring", 1901, "Movement"), units, owners)


def random_orders(board: Board, state: GameState, rng: random.Random) -> list[tuple[str, str]]:
    """Orders for every unit: convoy chains first, then moves and holds, then support webs."""
    season = state.phase.season
    army_graph, fleet_graph = board.army_moves(season), board.fleet_moves(season)
    units = state.units
    orders: dict[str, str] = {}
    moving_to: dict[str, str] = {}

    # Long convoy chains: an army on a coast is carried along the sea lane by the fleets on it.
    armies = [u for u in units.values() if u.type == ARMY and board.coastal(u.location, season)]
    for army in rng.sample(armies, len(armies) // 12):
        if army.province in orders:
            continue
        start = [s for s in board.water_adj[army.province] if s in units and units[s].type == FLEET
                 and s not in orders and board.surface(s, season) == "sea"]
        if not start:
            continue
        chain = [rng.choice(start)]
        while len(chain) < 40:
            nxt = [s for s in board.water_adj[chain[-1]] if s in units and units[s].type == FLEET and s not in chain
                   and s not in orders and board.surface(s, season) == "sea"]
            if not nxt or (len(chain) > 3 and rng.random() < 0.08):
                break
            chain.append(rng.choice(nxt))
        shores = [p for p in board.water_adj[chain[-1]] if board.surface(p, season) == "land"
                  and p != army.province and p not in board.water_adj[army.province]]
        if not shores:
            continue
        dest = rng.choice(shores)
        orders[army.province] = (f"A {army.location} - {dest}" + (" via convoy" if rng.random() < 0.5 else ""))
        moving_to[army.province] = dest
        for s in chain:
            orders[s] = f"F {s} C A {army.location} - {dest}"
        # Sometimes a rival fleet next to the chain attacks it.
        for s in chain[1:]:
            rivals = [r for r in board.water_adj[s] if r in units and units[r].type == FLEET and r not in orders
                      and units[r].power != army.power]
            if rivals and rng.random() < 0.3:
                r = rng.choice(rivals)
                orders[r] = f"F {r} - {s}"
                moving_to[r] = s
                break

    # Moves and holds.
    for p, u in units.items():
        if p in orders:
            continue
        r = rng.random()
        graph = army_graph if u.type == ARMY else fleet_graph
        targets = sorted(graph.successors(u.location)) if u.location in graph else []
        if r < 0.5 and targets:
            dest = rng.choice(targets)
            orders[p] = f"{u.type} {u.location} - {dest}"
            moving_to[p] = dest
        elif r < 0.6:
            orders[p] = f"{u.type} {u.location} H"

    # Support webs: supports for neighbours' moves and holds (including other supporters).
    for p, u in units.items():
        if p in orders:
            continue
        graph = army_graph if u.type == ARMY else fleet_graph
        reach = set(graph.successors(u.location)) if u.location in graph else set()
        options = []
        for q in reach:
            if q in units:
                v = units[q]
                if q not in moving_to:
                    options.append(f"{u.type} {u.location} S {v.type} {v.location}")
        for q, dest in moving_to.items():
            if dest in reach and dest != p:
                v = units[q]
                options.append(f"{u.type} {u.location} S {v.type} {v.location} - {dest}")
        orders[p] = rng.choice(options) if options else f"{u.type} {u.location} H"
    return [(units[p].power, text) for p, text in orders.items()]


def measure(board: Board, state: GameState, orders: list[tuple[str, str]], caches: Caches | None = None) -> dict[str, float]:
    """Seconds for one phase, cold (every cache emptied first): parsing, validation alone, and the whole (parse +
    adjudicate)."""
    if caches is not None:
        caches.empty()
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter()
        parsed = [parse_order(board, text, power=power) for power, text in orders]
        t1 = time.perf_counter()
        result = adjudicate(board, state, parsed)
        t2 = time.perf_counter()
        movement_commands(board, state, parsed)
        t3 = time.perf_counter()
    finally:
        gc.enable()
    return {"parse": t1 - t0, "adjudicate": t2 - t1, "validate": t3 - t2, "total": t2 - t0,
            "dislodged": len(result.dislodged)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 1000, 2000, 10000])
    ap.add_argument("--phases", type=int, default=5, help="phases measured per size (best and median kept)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=60.0,
                    help="seconds one phase may take before the larger sizes are skipped")
    ap.add_argument("--profile", action="store_true", help="profile one phase of the largest size")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    rows = []
    print(f"{'spaces':>7} {'units':>6} {'orders':>6} {'setup s':>8} {'phase ms':>10} {'parse ms':>9} "
          f"{'validate ms':>11} {'judge ms':>9} {'us/unit':>8} {'per doubling':>13}")
    for size in sorted(args.sizes):
        t0 = time.perf_counter()
        board = board_from_data(grid_variant(size), source=f"<grid {size}>")
        state = random_position(board, rng)
        first_orders = random_orders(board, state, rng)
        parse_order(board, first_orders[0][1])  # the parser of this board is built once, not per phase
        board.army_moves("Spring"), board.fleet_moves("Spring")
        setup = time.perf_counter() - t0
        def probe(probe_rng: random.Random, board=board, state=state) -> None:
            fresh = random_orders(board, state, probe_rng)
            some = probe_rng.sample(fresh, min(len(fresh), 200))
            adjudicate(board, state, [parse_order(board, text, power=power) for power, text in some])

        caches = find_caches(probe, warm_up=1, rounds=2)
        for _ in range(5):  # Lark compiles each parser state's scanner on its first use: a once-per-board cost
            caches.empty()
            [parse_order(board, text, power=power) for power, text in first_orders]
        samples = []
        for i in range(args.phases):
            orders = first_orders if i == 0 else random_orders(board, state, rng)
            samples.append(measure(board, state, orders, caches))
            if samples[-1]["total"] > args.budget:
                break
        med = sorted(samples, key=lambda s: s["total"])[len(samples) // 2]
        units = len(state.units)
        judge = med["adjudicate"] - med["validate"]
        row = (len(board.provinces), units, med["total"])
        growth = ""
        if rows:
            _, u1, t1 = rows[-1]
            factor = (med["total"] / t1) ** (1 / math.log2(units / u1))
            growth = f"{factor:.2f}x"
        rows.append(row)
        print(f"{len(board.provinces):>7} {units:>6} {len(first_orders):>6} {setup:>8.1f} {1000 * med['total']:>10.1f} "
              f"{1000 * med['parse']:>9.1f} {1000 * med['validate']:>11.1f} {1000 * judge:>9.1f} "
              f"{1e6 * med['total'] / units:>8.1f} {growth:>13}", flush=True)
        if med["total"] > args.budget:
            print(f"(one phase took over {args.budget:.0f} s: larger sizes skipped)")
            break
        if args.profile and size == max(args.sizes):
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            measure(board, state, first_orders, caches)
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    if len(rows) > 1:
        (_, u1, t1), (_, u2, t2) = rows[0], rows[-1]
        overall = (t2 / t1) ** (1 / math.log2(u2 / u1))
        print(f"overall: {u1} -> {u2} units, time per phase x{t2 / t1:.1f}; per doubling of units "
              f"{overall:.2f}x (goal: near-linear, at most a bit more than 2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
