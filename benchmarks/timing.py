"""Timing shared by the benchmark scripts: best of a few rounds, the garbage collector paused while timing."""

from __future__ import annotations

import cProfile
import gc
import pstats
import time
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
