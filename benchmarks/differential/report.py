"""The report: phases per second of each mode beside the peer's, latency and memory, differences classified.

Part of benchmarks/compare_peer.py (the command line)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from adjudicator.games.diplomacy.board import Board

from caches import Caches
from .cases import _file_name, case_text
from .classifier import BUGS_HERE, EXPLAINED, explained
from .phase_input import PHASE_TYPES
from .timed_runs import MODE_WORDS, MODES, Stats

def _ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return 1000 * s[min(len(s) - 1, int(q * len(s)))]


GOALS = {("Movement", "cold"): 10.0, ("Movement", "structured"): 15.0, ("Retreat", "cold"): 5.0,
         ("Adjustment", "cold"): 5.0}


def _rate(values: list[float]) -> float:
    return len(values) / sum(values) if values and sum(values) else float("nan")


def report(board: Board, stats: Stats, out: Path | None, memory: dict[str, tuple[int, int]],
           caches: Caches | None = None) -> list[str]:
    """The report: phases per second of each mode beside the peer's, latency and memory, differences."""
    lines = [f"games: {stats.games}"]
    gc_off = any(stats.ours_gc_off.values())
    head = (f"{'phase type':<11} {'phases':>7} {'peer/s':>8} {'cold/s':>8} {'ratio':>6} {'game/s':>8} {'ratio':>6} "
            f"{'struct/s':>9} {'ratio':>6}")
    if gc_off:
        head += f" | {'GC paused: cold/s':>17} {'peer/s':>7} {'ratio':>6}"
    lines.append(head + f" {'differ':>7}")
    ratios: dict[tuple[str, str], float] = {}
    for kind in PHASE_TYPES:
        p = stats.peer.get(kind, [])
        if not p:
            continue
        peer_rate = _rate(p)
        row = f"{kind:<11} {len(p):>7} {peer_rate:>8.0f}"
        for mode in MODES:
            rate = _rate(stats.times(mode).get(kind, []))
            ratios[(kind, mode)] = rate / peer_rate
            row += f" {rate:>{9 if mode == 'structured' else 8}.0f} {rate / peer_rate:>5.1f}x"
        if gc_off:
            ours_off, peer_off = _rate(stats.ours_gc_off.get(kind, [])), _rate(stats.peer_gc_off.get(kind, []))
            row += f" | {ours_off:>17.0f} {peer_off:>7.0f} {ours_off / peer_off:>5.1f}x"
        lines.append(row + f" {sum(stats.differences[kind].values()):>7}")
    lines.append("")
    lines.append(f"{'phase type':<11} {'cold med':>9} {'cold p99':>9} {'game med':>9} {'struct med':>10} "
                 f"{'peer med':>9} {'peer p99':>9} {'ours peak':>10} {'peer peak':>10}")
    for kind in PHASE_TYPES:
        o, p = stats.ours.get(kind, []), stats.peer.get(kind, [])
        if not o:
            continue
        mem = memory.get(kind)
        mo = f"{mem[0] / 1024:.0f} KiB" if mem else "-"
        mp = f"{mem[1] / 1024:.0f} KiB" if mem else "-"
        lines.append(f"{kind:<11} {_ms(o, .5):>7.3f}ms {_ms(o, .99):>7.3f}ms {_ms(stats.game[kind], .5):>7.3f}ms "
                     f"{_ms(stats.structured[kind], .5):>8.3f}ms {_ms(p, .5):>7.3f}ms {_ms(p, .99):>7.3f}ms "
                     f"{mo:>10} {mp:>10}")
    lines.append("")
    for mode in MODES:
        lines.append(f"{mode}: {MODE_WORDS[mode]}")
    found = stats.caches_found or (caches.describe() if caches is not None else "")
    if found:
        lines.append(f"caches emptied for cold (found by benchmarks/caches.py): {found}")
    if stats.where:
        lines.append(f"timed: {stats.where}")
    lines.append("the peer: its game built from the position untimed; timed: set_orders() of every power (its text "
                 "reading and validation) and process(). The garbage collector runs normally"
                 + ("; the GC-paused columns time ours cold and the peer again with it paused" if gc_off else ""))
    if stats.collections is not None:
        lines.append(stats.collections.describe())
    if stats.frozen:
        lines.append(f"--gc-freeze: {stats.frozen:,} objects that existed before the first game (the timing "
                     "processes' imports and boards) were frozen (gc.freeze); the collector ran normally over "
                     "everything made after")
    if stats.flush_mb:
        lines.append(f"--flush: before every timed run of either engine, {stats.flush_mb} MiB of other memory were "
                     "read, so that no run found its own data in the processor's caches")
    goals = []
    for (kind, mode), goal in GOALS.items():
        if (kind, mode) in ratios:
            got = ratios[(kind, mode)]
            goals.append(f"{kind.lower()} {mode} {got:.1f}x (goal {goal:.0f}x: "
                         f"{'met' if got >= goal else f'missed by {goal - got:.1f}x'})")
    if goals:
        lines.append("goals: " + "; ".join(goals))
        medians = [f"{kind.lower()} {mode} {_ms(stats.peer[kind], .5) / _ms(stats.times(mode)[kind], .5):.1f}x"
                   for kind, mode in GOALS if stats.times(mode).get(kind) and stats.peer.get(kind)]
        lines.append("the same by the median phase of each side (the rates above are totals, in which a full "
                     "collection of the garbage collector weighs on whichever run it lands in): " + "; ".join(medians))
    if stats.mode_mismatch:
        lines.append(f"PHASES WHOSE RESULT DEPENDS ON THE MODE (a bug here): {dict(stats.mode_mismatch)}")
    lines.append("")
    lines.append("differences by class:")
    total = Counter()
    for kind in PHASE_TYPES:
        for cls, n in sorted(stats.differences[kind].items()):
            total[cls] += n
            lines.append(f"  {kind:<11} {cls:<44} {n:>6}  ({'explained' if explained(cls) else 'UNEXPLAINED'})")
    if not total:
        lines.append("  (none)")
    if out is not None and stats.examples:
        out.mkdir(parents=True, exist_ok=True)
        for cls, examples in stats.examples.items():
            for i, (inp, result, diff) in enumerate(examples, 1):
                name = f"{cls} {i} ({inp.state.phase})"
                odd = [f"odd order ({label}): {inp.orders[j][0]}: {inp.orders[j][1]}" for j, label in sorted(inp.odd.items())]
                why = "; ".join(EXPLAINED.get(part) or BUGS_HERE.get(part) or f"{part}: not explained"
                                for part in cls.split("+"))
                comments = [f"Difference with the diplomacy package ({cls}): {why}.",
                            "POSTSTATE is this engine's result; the peer's differs by:"] + [f"  {d}" for d in diff] + odd
                (out / f"{_file_name(cls)}_{i}.txt").write_text(case_text(board, inp, result, name, comments), encoding="utf-8")
        lines.append(f"case files of the first differences of each class: {out}")
    lines.append(f"unexplained differences: {stats.unexplained}")
    return lines
