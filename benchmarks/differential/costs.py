"""What a phase costs besides its time: each engine's peak memory (tracemalloc), each engine's time split into
its parts (--breakdown), and a profile of this engine's cold movement phases (--profile).

Part of benchmarks/compare_peer.py (the command line)."""

from __future__ import annotations

import gc
import time
import tracemalloc
from typing import Any

from adjudicator.games.diplomacy.board import Board
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.orders.structured import orders_from_objects
from adjudicator.games.diplomacy.phase import adjudicate

from caches import Caches
from peer_side import run_peer
from timing import best_of, own_time_by_file, profile_cold
from .phase_input import PhaseInput, peer_position
from .timed_runs import run_ours

def peak_memory(board: Board, inputs: list[PhaseInput], caches: Caches | None = None) -> tuple[int, int]:
    """The largest tracemalloc peak of one phase, for each engine (bytes), over these phases (ours cold)."""
    best_ours = best_peer = 0
    for inp in inputs:
        game = peer_position(board, inp)
        gc.collect()
        tracemalloc.start()
        tracemalloc.reset_peak()
        run_peer(game, inp.peer_orders())
        best_peer = max(best_peer, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        if caches is not None:
            caches.empty()
        gc.collect()
        tracemalloc.start()
        run_ours(board, inp)
        best_ours = max(best_ours, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return best_ours, best_peer


def breakdown(board: Board, inputs: list[PhaseInput], caches: Caches | None = None, rounds: int = 3) -> list[str]:
    """Where each engine spends a phase: ms per phase by part (best of `rounds`; the garbage collector paused so
    that the parts add up; ours cold: every cache emptied before each phase, which the figure includes)."""
    from adjudicator.games.diplomacy.judge.movement import MovementJudge
    from adjudicator.games.diplomacy.orders.validate import every_unit_command, movement_commands
    from adjudicator.games.diplomacy.state import check_position

    caches = caches if caches is not None else Caches()

    def cold(fn):
        def run():
            for inp in inputs:
                caches.empty()
                fn(inp)
        return run

    parsed = [[parse_order(board, t, power=p) for p, t in inp.orders] for inp in inputs]
    by_input = {id(inp): os for inp, os in zip(inputs, parsed)}
    parts: dict[str, Any] = {
        "ours: read orders from text (cold)": cold(lambda inp: [parse_order(board, t, power=p) for p, t in inp.orders]),
        "ours: read orders from objects": lambda: [orders_from_objects(board, inp.objects) for inp in inputs],
        "ours: adjudicate (all, cold)": cold(lambda inp: adjudicate(board, inp.state, by_input[id(inp)])),
        "ours:   check_position": lambda: [check_position(board, inp.state) for inp in inputs],
    }
    if inputs and inputs[0].state.phase.type == "Movement":
        commands = []
        for inp, os in zip(inputs, parsed):
            commands.append((inp.state.phase.season, every_unit_command(board, inp.state, os)[0]))
        parts["ours:   validation (movement_commands)"] = cold(
            lambda inp: movement_commands(board, inp.state, by_input[id(inp)]))
        parts["ours:   judge (MovementJudge.run)"] = lambda: [MovementJudge(board, season, c).run()
                                                            for season, c in commands]
    out = []
    n = max(1, len(inputs))
    measured = {}
    for label, fn in parts.items():
        measured[label] = best_of(fn, rounds) / n
        out.append(f"  {label:<44} {1000 * measured[label]:7.3f} ms")
    if "ours:   judge (MovementJudge.run)" in measured:
        rest = measured["ours: adjudicate (all, cold)"] - sum(
            measured[k] for k in ("ours:   check_position", "ours:   validation (movement_commands)",
                                  "ours:   judge (MovementJudge.run)"))
        out.append(f"  {'ours:   the rest (next position, calendar)':<44} {1000 * rest:7.3f} ms")
    set_time = process_time = 0.0
    for inp in inputs:
        game = peer_position(board, inp)
        gc.disable()
        try:
            t0 = time.perf_counter()
            for power, texts in inp.peer_orders().items():
                game.set_orders(power, texts)
            t1 = time.perf_counter()
            game.process()
            t2 = time.perf_counter()
        finally:
            gc.enable()
        set_time += t1 - t0
        process_time += t2 - t1
    out.append(f"  {'peer: set_orders (reading and validation)':<44} {1000 * set_time / n:7.3f} ms")
    out.append(f"  {'peer: process':<44} {1000 * process_time / n:7.3f} ms")
    return out


def profile_table(board: Board, inputs: list[PhaseInput], caches: Caches, top: int = 15) -> list[str]:
    """cProfile of this engine's cold phases (every cache emptied before each): own time by file, and the
    functions with the most own time."""
    import io

    stats = profile_cold(inputs, lambda inp: run_ours(board, inp), caches.empty)
    lines = ["  own time by file (cProfile, cold): " + own_time_by_file(stats)]
    stream = io.StringIO()
    stats.stream = stream  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(top)
    body = stream.getvalue().splitlines()
    start = next((i for i, line in enumerate(body) if line.strip().startswith("ncalls")), 0)
    lines += ["  " + line for line in body[start:start + top + 1] if line.strip()]
    return lines
