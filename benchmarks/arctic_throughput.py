"""Phases per second on random Arctic games (variant `arctic`), per phase type.

    python benchmarks/arctic_throughput.py                   # 20 games of 10 years
    python benchmarks/arctic_throughput.py --games 50 --years 20 --seed 3

No other adjudicator plays the Arctic variant, so the figure stands on its own (compare it with the standard
board's in benchmarks/compare_peer.py). The games are played like compare_peer's: seeded random legal orders
for every unit (`adjudicator.games.diplomacy.legal.legal_orders`, coordinated so that supports and convoys happen),
random retreats and adjustments (sometimes missing, for civil disorder); the four seasons bring the Arctic's
freezing and melting, units stranded by the ice, and the summer and winter adjustments. What is timed is what
a game master's tool does for a phase: reading every order and `adjudicate()`, in the three modes of
compare_peer.py: *cold* (every cache emptied before the phase), *game* (the caches hold what the game's earlier
phases left), *structured* (the orders given as objects, no text). The garbage collector runs normally
(`--gc-off` adds the cold figure with it paused). Since the peer cannot play the Arctic, the same run then plays
`--peer-phases` standard movement phases with both engines and prints their ratios, as the reference.
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

if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))

from adjudicator.catalogue import load_variant  # noqa: E402
from adjudicator.games.diplomacy.state import opening_state  # noqa: E402
from caches import find_caches  # noqa: E402


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
    ap.add_argument("--gc-off", action="store_true",
                    help="also time the cold run with the garbage collector paused (an extra column)")
    ap.add_argument("--peer-phases", type=int, default=300,
                    help="movement phases of standard games played by both engines in the same run, as the "
                         "reference beside the peer (0: skip; needs the diplomacy package)")
    args = ap.parse_args(argv)
    cp = _compare_peer()
    board = load_variant(args.variant)
    caches = find_caches(cp.probe(board, odd=0))
    rng = random.Random(args.seed)
    times: dict[str, dict[str, list[float]]] = {m: defaultdict(list) for m in (*cp.MODES, "gc-off")}
    samples: dict[str, list] = defaultdict(list)
    events: dict[str, int] = defaultdict(int)
    mismatches = 0
    started = time.perf_counter()
    timer = cp.OurTimer(board, caches, lambda: None, lambda run, call: call())
    for _ in range(args.games):
        state = opening_state(board)
        last = state.phase.year + args.years - 1
        timer.new_game()
        while state.phase.year <= last:
            inp = cp.random_orders(board, state, rng)
            kind = state.phase.type
            seconds, paused, fingerprints = timer.run(inp, args.gc_off)
            for mode, t in zip(cp.MODES, seconds):
                times[mode][kind].append(t)
            if args.gc_off:
                times["gc-off"][kind].append(paused)
            result, _ = cp.run_ours(board, inp)  # (untimed: the events below)
            mismatches += any(f != cp.our_outcome(result).fingerprint() for f in fingerprints)
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
            caches.empty()
            gc.collect()
            tracemalloc.start()
            cp.run_ours(board, inp)
            best = max(best, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        peaks[kind] = best
    print(f"{board.title}: {args.games} games of up to {args.years} years, seed {args.seed}")
    head = f"{'phase type':<11} {'phases':>7} {'cold/s':>8} {'game/s':>8} {'struct/s':>9}"
    head += f" {'GC paused: cold/s':>18}" if args.gc_off else ""
    print(head + f" {'cold med':>9} {'cold p99':>9} {'struct med':>10} {'peak':>8}")
    for kind in ("Movement", "Retreat", "Adjustment"):
        cold = times["cold"].get(kind)
        if not cold:
            continue
        row = f"{kind:<11} {len(cold):>7}"
        for mode, width in (("cold", 8), ("game", 8), ("structured", 9)):
            row += f" {_rate(times[mode][kind]):>{width}.0f}"
        if args.gc_off:
            row += f" {_rate(times['gc-off'][kind]):>18.0f}"
        print(row + f" {_ms(cold, .5):>7.3f}ms {_ms(cold, .99):>7.3f}ms {_ms(times['structured'][kind], .5):>8.3f}ms "
              f"{peaks.get(kind, 0) / 1024:>4.0f} KiB")
    print("events: " + ", ".join(f"{k} {v}" for k, v in events.items()))
    print(f"caches emptied for cold: {caches.describe()}")
    if mismatches:
        print(f"PHASES WHOSE RESULT DEPENDS ON THE MODE (a bug here): {mismatches}")
    print(f"(wall time {wall:.0f} s, most of it choosing the random legal orders)")
    if args.peer_phases:
        _peer_reference(cp, args)
    return 0


def _rate(values: list[float]) -> float:
    return len(values) / sum(values) if values and sum(values) else float("nan")


def _ms(values: list[float], q: float) -> float:
    s = sorted(values)
    return 1000 * s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def _peer_reference(cp, args) -> None:
    """No peer plays the Arctic: the same run also plays standard games with both engines, for the ratios."""
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("(no peer reference: the diplomacy package is not installed)")
        return
    standard = load_variant("standard")
    caches = find_caches(cp.probe(standard))
    stats = cp.Stats()
    rng = random.Random(args.seed)
    runs = cp.HereRuns(standard, caches)  # (as compare_peer.py times them)
    while len(stats.ours["Movement"]) < args.peer_phases:
        cp.play(standard, stats, rng, args.years, args.peer_phases, odd=0.1, runs=runs, gc_off=args.gc_off)
    print(f"\nin the same run, the standard board against the peer ({args.peer_phases} movement phases, seed "
          f"{args.seed}):")
    for line in cp.report(standard, stats, None, {}, caches)[1:]:
        if line.startswith("differences by class"):
            break
        print(line)


if __name__ == "__main__":
    sys.exit(main())
