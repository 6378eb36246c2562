"""Speed and agreement against the `diplomacy` package (the peer): seeded random standard games.

Every movement, retreat and adjustment phase of N random games is adjudicated by both engines, from the same
position and the same orders: by this engine (`adjudicator.games.diplomacy.phase.adjudicate`, its orders parsed from text) and by
the peer (`diplomacy.Game`: the position set on a fresh game, the orders set, `game.process()`), both in this
process (or, with `--own-processes`, each in a process of its own that holds only it). The game then goes on
from this engine's result, so both engines always start from identical positions.

    python benchmarks/compare_peer.py --phases 10000 --seed 1      # 10,000 movement phases (and the rest)
    python benchmarks/compare_peer.py --games 20 --years 10        # 20 games of 10 years
    python benchmarks/compare_peer.py --odd 0 --phases 2000        # legal orders only (default: 10% odd ones)
    python benchmarks/compare_peer.py --games 6 --breakdown        # and each engine's time split into parts
    python benchmarks/compare_peer.py --cases benchmarks/peer_bugs/   # case files through both engines

It prints, per phase type: phases per second of each engine and their ratio, median and p99 time per phase,
peak memory per phase (tracemalloc, in a separate run over a sample, never while timing), and the phases whose
resulting positions differ, classified (see benchmarks/README.md); the first differences of each class are
written as case files (the project's DATC-style format) to `--out` (default benchmarks/out/), their expected
position this engine's, the peer's differences in comments. The last line of the report is
"unexplained differences: N". A difference is explained when one of the documented rule differences or peer
bugs, emulated, accounts for all of it (see `classify`).

What is timed, each phase, one run right after the other (benchmarks/README.md, "What is timed"): this
engine *cold* (every cache it keeps between calls emptied first: benchmarks/caches.py finds them), in the *game*
(the caches as this game's earlier phases left them) and *structured* (the orders given as objects, no text),
each reading every order and `adjudicate()`; the peer's `set_orders()` for every power and `process()`. The
garbage collector runs normally; `--gc-off` also times ours cold and the peer with it paused. Building the
peer's position from ours (and reading its result back) is not timed, nor is choosing the random orders. A
timed run's result is kept only as a fingerprint of its outcome (a string), so that the next run does not start
with its young objects; the phase is adjudicated once more, untimed, for the classifier and the next position.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))
if str(ROOT / "benchmarks") not in sys.path:  # the shared timing helper, when imported by the tests
    sys.path.insert(0, str(ROOT / "benchmarks"))

from adjudicator.catalogue import load_variant  # noqa: E402
from adjudicator.games.diplomacy.board import Board  # noqa: E402
from adjudicator.games.diplomacy.orders.parse import parse_order  # noqa: E402, F401
from adjudicator.games.diplomacy.state import opening_state  # noqa: E402, F401
from caches import Caches, find_caches  # noqa: E402
from peer_side import Outcome, peer_outcome, peer_power, run_peer  # noqa: E402, F401
from timing import CacheFlush, FullCollections, objects_held  # noqa: E402
from workers import serve  # noqa: E402

# The parts, one module each in benchmarks/differential/ (what each measures or decides is in its first lines).
# Their names are this module's too, as the tests and the other benchmarks call them (compare_peer.<name>).
from differential.phase_input import (PHASE_TYPES, PhaseInput, our_outcome, peer_order,  # noqa: E402, F401
                                      peer_phase_code, peer_position, peer_spec)
from differential.random_orders import random_orders  # noqa: E402, F401
from differential.emulations import (_fallback, _reduced_swaps, _support_coast_dropped,  # noqa: E402, F401
                                     old_civil_disorder, our_refused, ours_with, peer_refused,
                                     peer_with)
from differential.classifier import (_TRANSFORMS, BUGS_HERE, EXPLAINED, PeerRuns, _Context,  # noqa: E402, F401
                                     classify, explained)
from differential.timed_runs import (MODE_WORDS, MODES, HereRuns, OurTimer, OwnProcesses, Stats,  # noqa: E402, F401
                                     _OursChild, play, probe, run_ours)
from differential.costs import breakdown, peak_memory, profile_table  # noqa: E402, F401
from differential.cases import case_text, check_cases  # noqa: E402, F401
from differential.report import GOALS, _ms, report  # noqa: E402, F401


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None, help="number of games (default: as many as --phases needs)")
    ap.add_argument("--phases", type=int, default=None, help="stop after this many movement phases")
    ap.add_argument("--years", type=int, default=10, help="years per game (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--odd", type=float, default=0.1,
                    help="chance per power and phase of one odd order (illegal, foreign, repeated, badly written; "
                         "DATC chapter 4) besides the legal ones (default 0.1; 0: legal orders only)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out", help="where difference cases go")
    ap.add_argument("--memory-sample", type=int, default=100,
                    help="phases of each type measured for peak memory (separately from timing; 0: skip)")
    ap.add_argument("--breakdown", action="store_true",
                    help="also split each engine's time per phase into its parts (on the memory sample)")
    ap.add_argument("--profile", action="store_true",
                    help="also profile this engine's cold movement phases (cProfile, on the memory sample)")
    ap.add_argument("--gc-off", action="store_true",
                    help="also time ours cold and the peer with the garbage collector paused (extra columns)")
    ap.add_argument("--flush", type=int, default=0, metavar="MB",
                    help="before every timed run of either engine, read MB megabytes of other memory (64 evicts the "
                         "processor's caches here), so that each run starts with none of its data cached")
    ap.add_argument("--gc-freeze", action="store_true",
                    help="move every object that exists before the first game (each timing process's imports and "
                         "board) into the collector's permanent generation (gc.freeze), so that a full collection "
                         "costs what the games' own objects cost; the collector still runs")
    ap.add_argument("--own-processes", action="store_true",
                    help="time each engine in a process of its own that holds only it (benchmarks/workers.py), "
                         "instead of both in this one: a full collection then costs what one engine holds, but "
                         "this process's work between phases evicts each engine's data from the processor's caches")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="print a progress line to stderr every N games (default: none)")
    ap.add_argument("--cases", nargs="+", metavar="PATH",
                    help="instead: run these case files through both engines and show where the peer differs")
    ap.add_argument("--serve-ours", action="store_true", help=argparse.SUPPRESS)  # the process OwnProcesses starts
    args = ap.parse_args(argv)
    if args.serve_ours:
        serve(_OursChild().handlers())
        return 0
    if args.cases:
        check_cases(args.cases)
        return 0
    if args.games is None and args.phases is None:
        args.games = 10
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("the diplomacy package is not installed: pip install '.[bench]'", file=sys.stderr)
        return 2
    board = load_variant("standard")
    caches = find_caches(probe(board))  # (here for the memory, breakdown and profile runs)
    rng = random.Random(args.seed)
    stats = Stats(flush_mb=args.flush)
    runs = timed_runs(board, caches, stats, args)
    started = time.perf_counter()
    try:
        while True:
            if args.games is not None and stats.games >= args.games:
                break
            if args.phases is not None and len(stats.ours["Movement"]) >= args.phases:
                break
            play(board, stats, rng, args.years, args.phases, odd=args.odd, memory_sample=args.memory_sample,
                 runs=runs, gc_off=args.gc_off)
            if args.progress and stats.games % args.progress == 0:
                print(f"... {stats.games} games, {len(stats.ours['Movement'])} movement phases, unexplained "
                      f"{stats.unexplained}, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        stats.collections = runs.counted()  # (the games' collections only)
    finally:
        runs.close()
    memory = {k: peak_memory(board, v, caches) for k, v in stats.samples.items() if v}
    elapsed = time.perf_counter() - started
    for line in report(board, stats, args.out, memory, caches):
        print(line)
    if args.breakdown:
        for kind, inputs in stats.samples.items():
            orders = sum(len(inp.orders) for inp in inputs) / max(1, len(inputs))
            print(f"time per {kind.lower()} phase, by part ({len(inputs)} phases, {orders:.0f} orders each; "
                  "GC paused):")
            for line in breakdown(board, inputs, caches):
                print(line)
    if args.profile and stats.samples.get("Movement"):
        print(f"profile of {len(stats.samples['Movement'])} cold movement phases:")
        for line in profile_table(board, stats.samples["Movement"], caches):
            print(line)
    print(f"(wall time {elapsed:.0f} s, seed {args.seed}, {_commit()}, load average {_load()})")
    return 0


def timed_runs(board: Board, caches: Caches, stats: Stats, args: argparse.Namespace) -> HereRuns | OwnProcesses:
    """Where the timed runs happen (this process, or with `--own-processes` one per engine), set up, and said in
    `stats.where`."""
    if not args.own_processes:
        tracked, stats.frozen = objects_held(args.gc_freeze)
        stats.collections = FullCollections()  # (from here: the games' collections only)
        stats.where = (f"both engines in this process, which holds {tracked:,} objects the collector tracks before "
                       "the first game (about 925,000 of them from the peer's import)")
        stats.caches_found = caches.describe()
        return HereRuns(board, caches, CacheFlush(args.flush) if args.flush else None, stats.collections)
    runs = OwnProcesses(args.flush, args.gc_freeze)
    ours, peer = runs.held["ours"], runs.held["peer"]
    if ours["peer"] or peer["ours"]:
        runs.close()
        raise RuntimeError("a timing process holds the other engine too")
    stats.frozen = ours["frozen"] + peer["frozen"]
    stats.where = (f"each engine in a process of its own that holds only it (--own-processes; before the first game "
                   f"this engine's holds {ours['tracked']:,} objects the collector tracks, the peer's "
                   f"{peer['tracked']:,}); positions, orders and outcomes pass between them pickled, untimed")
    stats.caches_found = ours["caches"]
    return runs


def _load() -> str:
    """The machine's load average (1, 5, 15 minutes): other processes share the cores and stretch both engines'
    times (the ratios, timed in the same run, one run after the other, stretch much less)."""
    import os

    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _commit() -> str:
    """The commit measured (and whether the tree had changes), for the README."""
    import subprocess

    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        head, dirty = "", ""
    if not head:  # an exported snapshot (git archive) is no repository: its commit is given as BENCH_COMMIT
        import os

        return f"commit {os.environ.get('BENCH_COMMIT', 'unknown')}"
    return f"commit {head}" + (" with uncommitted changes" if dirty else "")


if __name__ == "__main__":
    sys.exit(main())
