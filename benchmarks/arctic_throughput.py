"""Phases per second on random Arctic games (variant `arctic`), per phase type.

    python benchmarks/arctic_throughput.py                   # 20 games of 10 years
    python benchmarks/arctic_throughput.py --games 50 --years 20 --seed 3

No other adjudicator plays the Arctic variant, so the figure stands on its own (compare it with the standard
board's in benchmarks/compare_peer.py). The games are played like compare_peer's: seeded random legal orders
for every unit (`adjudicator.orders.legal.legal_orders`, coordinated so that supports and convoys happen),
random retreats and adjustments (sometimes missing, for civil disorder); the four seasons bring the Arctic's
freezing and melting, units stranded by the ice, and the summer and winter adjustments. What is timed is what
a game master's tool does for a phase: parsing every order from its text and `adjudicate()`.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import random
import sys
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adjudicator.catalogue import load_variant  # noqa: E402
from adjudicator.state import opening_state  # noqa: E402


def _compare_peer():
    """The random-order generator and the timed run of compare_peer.py (the peer itself is not needed)."""
    spec = importlib.util.spec_from_file_location("compare_peer", Path(__file__).with_name("compare_peer.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("compare_peer", module)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="arctic")
    ap.add_argument("--memory-sample", type=int, default=50, help="phases of each type measured for peak memory")
    args = ap.parse_args(argv)
    cp = _compare_peer()
    board = load_variant(args.variant)
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = defaultdict(list)
    samples: dict[str, list] = defaultdict(list)
    events = defaultdict(int)
    started = time.perf_counter()
    for _ in range(args.games):
        state = opening_state(board)
        last = state.phase.year + args.years - 1
        while state.phase.year <= last:
            inp = cp.random_orders(board, state, rng)
            result, seconds = cp.run_ours(board, inp)
            kind = state.phase.type
            times[kind].append(seconds)
            if len(samples[kind]) < args.memory_sample:
                samples[kind].append(inp)
            events["dislodged"] += len(result.dislodged)
            events["disbanded by the terrain"] += len(result.disbanded_by_terrain)
            events["built"] += len(result.built)
            events["removed"] += len(result.removed)
            if result.winner:
                events["won"] += 1
                break
            state = result.next_state
    wall = time.perf_counter() - started
    peaks = {}
    for kind, inputs in samples.items():
        best = 0
        for inp in inputs:
            gc.collect()
            tracemalloc.start()
            cp.run_ours(board, inp)
            best = max(best, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        peaks[kind] = best
    print(f"{board.title}: {args.games} games of up to {args.years} years, seed {args.seed}")
    print(f"{'phase type':<11} {'phases':>7} {'phases/s':>9} {'median':>9} {'p99':>9} {'peak':>9}")
    for kind in ("Movement", "Retreat", "Adjustment"):
        values = times.get(kind)
        if not values:
            continue
        s = sorted(values)
        print(f"{kind:<11} {len(s):>7} {len(s) / sum(s):>9.0f} {1000 * s[len(s) // 2]:>7.2f}ms "
              f"{1000 * s[min(len(s) - 1, int(0.99 * len(s)))]:>7.2f}ms {peaks.get(kind, 0) / 1024:>6.0f} KiB")
    print("events: " + ", ".join(f"{k} {v}" for k, v in events.items()))
    print(f"(wall time {wall:.0f} s, most of it choosing the random legal orders)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
