"""Timing shared by the benchmark scripts: best of a few rounds (the garbage collector paused), profiles, the
collector's collections counted by the timed run they land in, and a flush of the processor's caches."""

from __future__ import annotations

import cProfile
import gc
import pstats
import statistics
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable


def best_of(fn: Callable[[], object], rounds: int) -> float:
    """The shortest of `rounds` runs of `fn`, in seconds (its pauses would otherwise land on whatever runs)."""
    best = float("inf")
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
    return best


def profile_cold(items: Iterable[Any], call: Callable[[Any], object], empty: Callable[[], None]) -> pstats.Stats:
    """cProfile of `call(item)` for each item, every cache emptied (`empty`, not profiled) before each."""
    prof = cProfile.Profile()
    for item in items:
        empty()
        prof.enable()
        call(item)
        prof.disable()
    return pstats.Stats(prof)


def own_time_by_file(stats: pstats.Stats, lark_files: bool = False, builtins: str = "builtins") -> str:
    """Each file's share of the own time (2 % and more), largest first: this project's files by path, Lark as
    one entry (or file by file with `lark_files`), everything else by file name."""
    by_file: dict[str, float] = {}
    for (file, _, _), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        if "/lark/" in file or (not lark_files and "/lark" in file):
            key = "lark/" + file.split("/lark/")[1] if lark_files else "lark"
        elif "adjudicator/" in file:
            key = "adjudicator/" + file.split("adjudicator/")[-1]
        else:
            key = builtins if file == "~" else Path(file).name
        by_file[key] = by_file.get(key, 0.0) + tottime
    whole = sum(by_file.values()) or 1.0
    return ", ".join(f"{k} {100 * v / whole:.0f}%" for k, v in sorted(by_file.items(), key=lambda kv: -kv[1])
                     if v / whole >= 0.02)


def objects_held(freeze: bool) -> tuple[int, int]:
    """Before the first game: a full collection, then the objects the collector tracks, and with `freeze` those
    moved into its permanent generation (gc.freeze): (tracked, frozen)."""
    gc.collect()
    tracked = len(gc.get_objects())
    if freeze:
        gc.freeze()
    return tracked, gc.get_freeze_count()


class FullCollections:
    """The garbage collector's collections, counted with their seconds by the timed run they land in (`timing`).
    Those of the whole heap (generation 2) cost what the process holds: in one that holds the peer (about 925,000
    objects from its import) each costs about as much as hundreds of this engine's phases, so a few of them move
    a column's total. The young ones (generations 0 and 1) apart: they fall in whichever run allocates when the
    count of new objects passes the threshold, and each scans every young object, whoever made it. Each process
    that times runs keeps its own; `merge` adds another process's."""

    def __init__(self, watch: bool = True) -> None:
        self.count: Counter = Counter()
        self.seconds: Counter = Counter()
        self.young: Counter = Counter()  # (run, generation) -> collections of generation 0 or 1
        self.young_seconds: Counter = Counter()
        self.starts: dict[str, list[int]] = defaultdict(list)  # run -> the count of young objects it started at
        self.run: str | None = None
        self._start = 0.0
        if watch:  # (a process that times nothing only adds up the others')
            gc.callbacks.append(self._event)

    def close(self) -> None:
        """Stop watching."""
        if self._event in gc.callbacks:
            gc.callbacks.remove(self._event)

    def merge(self, other: FullCollections) -> None:
        """Add the collections another process counted (its runs are named apart from this one's)."""
        self.count.update(other.count)
        self.seconds.update(other.seconds)
        self.young.update(other.young)
        self.young_seconds.update(other.young_seconds)
        for run, starts in other.starts.items():
            self.starts[run].extend(starts)

    def _event(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        where, generation = self.run or "untimed", info["generation"]
        seconds = time.perf_counter() - self._start
        if generation == 2:
            self.count[where] += 1
            self.seconds[where] += seconds
        else:
            self.young[where, generation] += 1
            self.young_seconds[where] += seconds

    def timing(self, run: str, call: Callable[[], Any]) -> Any:
        """`call()`, its collections counted as the run's."""
        self.starts[run].append(gc.get_count()[0])  # (a young collection falls due when it passes 700)
        self.run = run
        try:
            return call()
        finally:
            self.run = None

    def describe(self) -> str:
        """Two lines: count and seconds of the collections of the whole heap in each run, and in all; the same
        of the young collections, and the count of young objects each run starts at."""
        runs = [r for r in RUNS if r in self.count]
        parts = [f"{r} {self.count[r]} ({self.seconds[r]:.1f} s)" for r in runs]
        young = [f"{r} {self.young[r, 0]} + {self.young[r, 1]} ({1000 * self.young_seconds[r]:.0f} ms)"
                 for r in RUNS if r in self.young_seconds]
        return (f"collections of the whole heap: {sum(self.count.values())} in all, "
                f"{sum(self.seconds.values()):.1f} s; by the run they landed in: " + ", ".join(parts or ["none"])
                + "\nyoung collections (generation 0 + generation 1) by the run they landed in: "
                + ", ".join(young or ["none"])
                + f"; the count of new objects at the start of each run (median; a collection at "
                  f"{gc.get_threshold()[0]}): "
                + ", ".join(f"{r} {statistics.median(self.starts[r]):.0f}" for r in RUNS if self.starts.get(r)))


RUNS = ("cold", "game", "structured", "peer", "untimed")  # the runs `play` times, and the time between them


class CacheFlush:
    """Reads `megabytes` of memory that neither engine uses, so that the timed run after it starts with none of
    its own data in the processor's caches (as at a server that did other work between two phases). Reading
    64 MiB evicts every cache level of this machine."""

    def __init__(self, megabytes: int):
        self.buffer = bytearray(megabytes << 20)

    def __call__(self) -> None:
        bytes(self.buffer)  # a copy reads every line (and is freed at once)
