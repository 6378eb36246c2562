"""Timing shared by the benchmark scripts: best of a few rounds, the garbage collector paused while timing."""

from __future__ import annotations

import gc
import time
from typing import Callable


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
