"""`adjudicator replay` measured on the games the `diplomacy` package played (tests/data/package_games.jsonl.gz, 200
games on four maps; larger sets are those games repeated, each copy with a fresh id):

- one core: phases replayed per second, each game from its JSON line (read, converted, every phase judged and
  compared, a difference classified), against the package replaying and validating the same game from its JSON
  line (`json.loads` and `diplomacy.utils.export.is_valid_saved_game`), the two taking turns of 10 games in this
  process, so that the machine's drift weighs on both alike; ours by the default rules (the package's
  VIA-overland phases differ and are classified) and by `datc-2.4` (the package's rules: every phase agrees);
- 2 local worker processes (`replay_all(..., workers=2)`) against 1, and a Dask LocalCluster of 2 worker
  processes (`--cluster local:2`'s road) against the 2 local workers, in turns, round by round;
- memory: the peak RSS of a child process (`adjudicator replay FILE -o /dev/null`) replaying 1,000 and 10,000
  games, its high-water mark (VmHWM, Linux) read by the child as it exits;
- the time 156,000 games (the human dataset's size, about 40 phases each) would take on 16 cores, extrapolated
  from the measured one-core rate and the measured 2-worker efficiency.

    python benchmarks/replay.py [--games 600] [--memory 1000,10000] [--parts one-core,workers,memory]
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "package_games.jsonl.gz"
PARTS = ("one-core", "workers", "memory")
HUMAN_GAMES, HUMAN_PHASES, CORES = 156_000, 40, 16  # the human dataset (~156,000 games of ~40 phases), 16 cores
GOAL_RATIO, GOAL_RSS_MB = 10.0, 300


def fixture_lines(path: Path = FIXTURE) -> list[str]:
    """The games of a JSONL file (plain or .gz), each its JSON line."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def write_games(lines: list[str], count: int, path: Path) -> Path:
    """`count` games in a gzip JSONL file: the given games in turn, each copy past the first with a fresh id."""
    games = [json.loads(line) for line in lines]
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as f:
        for i in range(count):
            data = games[i % len(games)]
            copy = i // len(games)
            f.write(json.dumps({**data, "id": f"{data['id']}-copy{copy}"} if copy else data) + "\n")
    return path


def warming_items(lines: list[str]) -> list[Any]:
    """A game of each map of the fixture, as items: replayed first, so that no timed run loads a map."""
    from adjudicator.games.diplomacy.records.dataset import Item

    firsts: dict[str, Any] = {}
    for i, line in enumerate(lines):
        firsts.setdefault(json.loads(line).get("map", ""), Item("warm.jsonl", i + 1, line))
    return list(firsts.values())


BLOCK = 10  # games a side replays in one turn: turns short enough for the machine's drift to weigh on both alike


def one_core(lines: list[str], peer_games: int) -> dict[str, float]:
    """Ours (default rules, and datc-2.4) and the package's validating replay, in turns of BLOCK games, each turn
    after a collection of the heap (untimed): no side pays for the other's garbage, nor finds the processor's
    caches full of the other's data on more than a turn's first game. The ratio is over the games both replayed."""
    from diplomacy.utils.export import is_valid_saved_game

    from adjudicator.games.diplomacy.records.dataset import Item, replay_item

    items = [Item("games.jsonl", i + 1, line) for i, line in enumerate(lines)]
    for item in warming_items(lines):  # (each map loaded, its routes and the readers warm, on both sides)
        replay_item(item)
        replay_item(item, "datc-2.4")
        is_valid_saved_game(json.loads(item.text or ""))
    out = dict.fromkeys(("ours", "ours_pkg", "peer", "phases", "valid", "differ", "shared_ours", "shared_pkg",
                         "shared_phases"), 0.0)

    def turn(call: Any, block: list[Any]) -> tuple[float, list[Any]]:
        gc.collect()
        start = time.perf_counter()
        results = [call(item) for item in block]
        return time.perf_counter() - start, results

    for first in range(0, len(items), BLOCK):
        block = items[first:first + BLOCK]
        seconds, records = turn(replay_item, block)
        pkg_seconds, _ = turn(lambda item: replay_item(item, "datc-2.4"), block)
        phases = sum(r[-1]["phases"] for r in records)
        out["ours"] += seconds
        out["ours_pkg"] += pkg_seconds
        out["phases"] += phases
        out["differ"] += sum(len(r) - 1 for r in records)
        shared = block[:max(0, peer_games - first)]
        if shared:
            peer_seconds, valid = turn(lambda item: is_valid_saved_game(json.loads(item.text or "")), shared)
            out["peer"] += peer_seconds
            out["valid"] += sum(map(bool, valid))
            share = len(shared) / len(block)  # (a block the package replays only in part: ours pro rata)
            out["shared_ours"] += seconds * share
            out["shared_pkg"] += pkg_seconds * share
            out["shared_phases"] += sum(r[-1]["phases"] for r in records[:len(shared)])
    out["peer_games"] = min(peer_games, len(items))
    return out


def cpu_seconds(pids: Iterable[int] = ()) -> tuple[float, float]:
    """CPU seconds (user and system) of this process, and of the others: its children already waited for (a
    pool's workers, once shut down) and the running processes `pids` (a Dask cluster's workers)."""
    import psutil

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    others = children.ru_utime + children.ru_stime
    for pid in pids:
        times = psutil.Process(pid).cpu_times()
        others += times.user + times.system
    return own.ru_utime + own.ru_stime, others


def timed_run(paths: list[str], workers: int = 1, client: Any = None) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds of this process (the reader: with a cluster, the client and a LocalCluster's
    scheduler) and of the workers, and phases, of one replay of the files: by `workers` local processes, or on a
    Dask client's cluster."""
    from adjudicator.games.diplomacy.records.cluster import replay_on
    from adjudicator.games.diplomacy.records.dataset import replay_all

    pids = list(client.run(os.getpid).values()) if client is not None else []
    (own, others), start = cpu_seconds(pids), time.perf_counter()
    runs = replay_on(client, paths) if client is not None else replay_all(paths, workers=workers)
    phases = sum(r["phases"] for records in runs for r in records if r["verdict"] == "game")
    wall = time.perf_counter() - start
    own_after, others_after = cpu_seconds(pids)
    return wall, own_after - own, others_after - others, phases


@dataclass
class Rounds:
    """The wall and CPU seconds (all, and the reader's) of each round's runs (1 worker, local workers, Dask), and
    the cluster's start."""

    wall: dict[str, list[float]] = field(default_factory=lambda: {"one": [], "local": [], "dask": []})
    cpu: dict[str, list[float]] = field(default_factory=lambda: {"one": [], "local": [], "dask": []})
    reader: dict[str, list[float]] = field(default_factory=lambda: {"one": [], "local": [], "dask": []})
    phases: int = 0
    dask_start: float = 0.0
    dask_first: float = 0.0


def workers_and_cluster(lines: list[str], path: Path, rounds: int, workers: int) -> Rounds:
    """Rounds of 1 local worker, `workers` local workers, and a Dask LocalCluster of `workers` processes (started
    once, and warmed by a first run of a few games, neither counted)."""
    from adjudicator.games.diplomacy.records.cluster import Target, connect, replay_batch
    from adjudicator.games.diplomacy.records.dataset import replay_item

    out = Rounds()
    with ExitStack() as stack:
        start = time.perf_counter()
        client = connect(Target(None, workers), stack)
        out.dask_start = time.perf_counter() - start
        start = time.perf_counter()
        client.run(replay_batch, warming_items(lines), None, False)  # (every worker's maps loaded, once)
        out.dask_first = time.perf_counter() - start
        for item in warming_items(lines):  # (and here, for the local workers, which are forked from this process)
            replay_item(item)
        for _ in range(rounds):
            for road, options in (("one", {"workers": 1}), ("local", {"workers": workers}), ("dask", {"client": client})):
                wall, own, others, out.phases = timed_run([str(path)], **options)
                out.wall[road].append(wall)
                out.cpu[road].append(own + others)
                out.reader[road].append(own)
    return out


# The child's own high-water mark, read by it as it exits: its rusage's ru_maxrss would not do, as a child
# started by fork (or vfork) and exec keeps its parent's peak from before the exec (Linux: /proc/self/status).
_CHILD = """import atexit, os
def _peak():
    with open('/proc/self/status') as status, open(os.environ['REPLAY_PEAK_FILE'], 'w') as out:
        out.write(next(line.split()[1] for line in status if line.startswith('VmHWM:')))
atexit.register(_peak)
from adjudicator.cli import main
main()
"""


def peak_rss(path: Path) -> tuple[float, float, int]:
    """Peak RSS (MB), wall seconds and exit status of a child process replaying the file to /dev/null."""
    peak = path.with_suffix(".peak")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _CHILD, "replay", str(path), "-o", os.devnull],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env={**os.environ, "REPLAY_PEAK_FILE": str(peak)})
    seconds = time.perf_counter() - start
    kib = int(peak.read_text()) if peak.exists() else 0
    return kib / 1024, seconds, done.returncode


def _rate(phases: float, seconds: float) -> float:
    return phases / seconds if seconds else 0.0


def main(argv: Iterable[str] | None = None) -> int:
    """Measure the parts asked for and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixture", type=Path, default=FIXTURE, help="the games (JSONL, plain or .gz)")
    parser.add_argument("--peer-games", type=int, default=200, help="games the package validates (the slow side)")
    parser.add_argument("--games", type=int, default=600, help="games of the workers' and cluster's runs")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the workers' and cluster's runs")
    parser.add_argument("--workers", type=int, default=2, help="local workers and Dask workers")
    parser.add_argument("--memory", default="1000,10000", help="games of each memory run, comma-separated")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"which parts, of {', '.join(PARTS)}")
    args = parser.parse_args(None if argv is None else list(argv))
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    if unknown := sorted(set(parts) - set(PARTS)):
        parser.error(f"unknown parts: {', '.join(unknown)} (known: {', '.join(PARTS)})")
    sizes = [int(s) for s in args.memory.split(",") if s.strip()]
    if min([args.peer_games, args.games, args.rounds, args.workers, *sizes]) < 1:
        parser.error("--peer-games, --games, --rounds, --workers and --memory's sizes must be at least 1")
    lines = fixture_lines(args.fixture)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "?"
    print(f"games: {len(lines)} from {args.fixture.name}; machine: {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; commit {commit}")
    wall = time.perf_counter()
    rate = efficiency = None
    with tempfile.TemporaryDirectory() as tmp:
        if "one-core" in parts:
            r = one_core(lines, args.peer_games)
            rate, pkg_rate = _rate(r["phases"], r["ours"]), _rate(r["phases"], r["ours_pkg"])
            peer_rate = _rate(r["shared_phases"], r["peer"])
            ratio, pkg_ratio = (_rate(r["shared_phases"], r[key]) / peer_rate if peer_rate else 0.0
                                for key in ("shared_ours", "shared_pkg"))
            print(f"\none core, each game from its JSON line, in turns of {BLOCK} games ({int(r['phases'])} phases, "
                  f"{len(lines)} games; the package on the first {int(r['peer_games'])}: {int(r['shared_phases'])} "
                  "phases)")
            print(f"ours, default rules (differences classified)  {rate:9.0f} phases/s  ({int(r['differ'])} phase "
                  "records: differences, each classified)")
            print(f"ours, --rules datc-2.4 (every phase agrees)   {pkg_rate:9.0f} phases/s")
            print(f"the package: json.loads + is_valid_saved_game  {peer_rate:9.0f} phases/s  "
                  f"({int(r['valid'])} of {int(r['peer_games'])} games valid)")
            print(f"ratio on the same games: {ratio:.1f}x by the default rules, {pkg_ratio:.1f}x by datc-2.4 (goal "
                  f"{GOAL_RATIO:g}x: {'met' if ratio >= GOAL_RATIO else 'not met'})")
        if "workers" in parts:
            path = write_games(lines, args.games, Path(tmp) / "games.jsonl.gz")
            w = workers_and_cluster(lines, path, args.rounds, args.workers)
            one, local, dask = (min(w.wall[road]) for road in ("one", "local", "dask"))
            cpu = {road: min(w.cpu[road]) / w.phases * 1000 for road in w.cpu}
            speedup = one / local
            efficiency = speedup / args.workers
            rounds = lambda times: ", ".join(f"{t:.2f}" for t in times)  # noqa: E731
            print(f"\n{args.games} games ({w.phases} phases), best of {args.rounds} rounds in turns (each round: "
                  f"1 worker, {args.workers} local workers, a Dask LocalCluster of {args.workers} workers); CPU: every "
                  "process of the run, per 1,000 phases")
            print(f"1 local worker      {one:7.2f} s  {_rate(w.phases, one):6.0f} phases/s  CPU {cpu['one']:5.2f} s  "
                  f"(rounds: {rounds(w.wall['one'])})")
            print(f"{args.workers} local workers     {local:7.2f} s  {_rate(w.phases, local):6.0f} phases/s  CPU "
                  f"{cpu['local']:5.2f} s  (rounds: {rounds(w.wall['local'])})  speed-up {speedup:.2f}x over 1, "
                  f"efficiency {efficiency:.0%}")
            print(f"Dask, {args.workers} workers      {dask:7.2f} s  {_rate(w.phases, dask):6.0f} phases/s  CPU "
                  f"{cpu['dask']:5.2f} s  (rounds: {rounds(w.wall['dask'])})  {local / dask:.2f}x the local "
                  "workers' speed")
            print(f"CPU per phase against 1 worker: {args.workers} local workers {cpu['local'] / cpu['one']:.2f}x, "
                  f"Dask {cpu['dask'] / cpu['one']:.2f}x (the work each road adds: copies, pickling, the scheduler)")
            reader = {road: min(w.reader[road]) / args.games * 1000 for road in ("local", "dask")}
            print(f"the reader's CPU per game (this process: reading the file, sending the games, taking the records "
                  f"back): local workers' parent {reader['local']:.2f} ms, Dask client with the LocalCluster's "
                  f"scheduler {reader['dask']:.2f} ms")
            print(f"(not counted: the LocalCluster's start {w.dask_start:.2f} s, and a game of each map replayed on "
                  f"every worker first, to load the maps, {w.dask_first:.2f} s)")
        if "memory" in parts:
            print("\nmemory: a child process `adjudicator replay FILE -o /dev/null` (one process), peak RSS")
            peaks = []
            for size in sizes:
                path = write_games(lines, size, Path(tmp) / f"memory-{size}.jsonl.gz")
                mb, seconds, status = peak_rss(path)
                path.unlink()
                peaks.append(mb)
                print(f"{size:>7} games  peak RSS {mb:7.1f} MB  ({seconds:.1f} s, exit status {status})")
            flat = max(peaks) / min(peaks)
            print(f"largest / smallest: {flat:.2f} (goal: flat, under {GOAL_RSS_MB} MB: "
                  f"{'met' if max(peaks) < GOAL_RSS_MB and flat < 1.1 else 'not met'})")
    if rate:
        per_game = r["phases"] / len(lines)
        total = HUMAN_GAMES * HUMAN_PHASES
        eff = efficiency if efficiency else 1.0
        workers_minutes = total / (rate * CORES * eff) / 60
        print(f"\nextrapolated: {HUMAN_GAMES:,} games x {HUMAN_PHASES} phases = {total:,} phases (these games: "
              f"{per_game:.1f} phases each) at {rate:.0f} phases/s a core (default rules) x {CORES} cores x {eff:.0%} "
              f"efficiency ({'measured at ' + str(args.workers) + ' workers' if efficiency else 'not measured: 100% assumed'})"
              f" = {workers_minutes:.1f} minutes of the workers")
        if efficiency:
            scale = HUMAN_PHASES / per_game  # (a game's text, and so its reading, taken to grow with its phases)
            bound = {road: HUMAN_GAMES * ms * scale / 1000 / 60 for road, ms in reader.items()}
            print(f"one reader feeds them: {HUMAN_GAMES:,} games of {HUMAN_PHASES} phases at the reader's CPU per game "
                  f"x {scale:.2f} take at least {bound['dask']:.1f} minutes of the Dask client (with the scheduler), "
                  f"{bound['local']:.1f} of the local workers' parent; so on 16 cores: Dask "
                  f"{max(workers_minutes, bound['dask']):.1f} minutes, local workers "
                  f"{max(workers_minutes, bound['local']):.1f} minutes (the larger of the two bounds)")
    print(f"(wall time {time.perf_counter() - wall:.0f} s, load average "
          f"{'/'.join(f'{x:.1f}' for x in os.getloadavg())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
