"""Board pictures: what a picture costs, as a ratio to judging the same phase, in one process, warm.

The phase: the standard board at Fall 1901 with sixteen orders (moves, supports, convoys, failures). Judging it
is what `/v1/adjudicate` does without HTTP: the sheet read, the phase judged, the report made as JSON. A
picture is `rules.render(board, state, report, fmt, width)`: the SVG, or the PNG 1000 px wide. Judgements and
pictures alternate, round after round (so a slow moment of the machine lands on both), and each figure is the
best round (the garbage collector paused), by the clock and in CPU time (the process's own, which other
processes on a busy machine disturb less); each ratio is of two bests.

Then, each in a fresh process: the first picture of each shipped board (imports, fonts, the board's stored
drawing, the rasteriser: everything the picture needs beyond the board and the position), as CPU time, and
of two boards edited by a hair, whose geometry is computed (a game master's own board with no drawing); and
the peak memory of one API worker (`adjudicator serve --workers 1`, gevent) while eight 4000 px pictures are
requested at once.

    python benchmarks/pictures.py                 # all three
    python benchmarks/pictures.py --rounds 50 --skip-server
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

POSITION = {
    "variant": "standard", "phase": "Fall 1901 Movement",
    "centres": {"England": ["lon", "edi", "lvp"], "France": ["par", "bre", "mar"], "Austria": ["vie", "bud", "tri"],
                "Italy": ["rom", "nap", "ven"], "Russia": ["mos", "war", "sev", "stp"]},
    "units": {"England": ["F nth", "A yor", "F nrg"], "France": ["A bur", "F mid", "A spa"],
              "Germany": ["A ruh", "F den"], "Austria": ["A ser", "F alb", "A gal"],
              "Italy": ["F ion", "A apu"], "Russia": ["F bot", "F bla", "F stp/nc"], "Turkey": ["A bul"]},
}
SHEET = """England: F nth C A yor - bel
England: A yor - bel
England: F nrg - nwy
France: A bur - bel
France: F mid - por
France: A spa S F mid - por
Germany: A ruh S A bur - bel
Germany: F den - swe
Austria: A ser - gre
Austria: F alb S A ser - gre
Austria: A gal - rum
Italy: F ion C A apu - tun
Italy: A apu - tun
Russia: F bot - swe
Russia: F bla - rum
Turkey: A bul - gre
"""


def warm_ratios(rounds: int) -> dict[str, dict[str, float]]:
    """Best judgement, SVG and PNG times (ms) over alternating rounds, by the clock and in CPU time."""
    from adjudicator.catalogue import load_variant
    from adjudicator.gamefile import state_from_data
    from adjudicator.games import rules_of
    from adjudicator.turn import play_turn, read_sheet

    board = load_variant("standard")
    state = state_from_data(POSITION, board=board)
    rules = rules_of(board)

    def judge() -> dict:
        return play_turn(board, state, read_sheet(board, state, SHEET)).report_json()

    report = judge()
    assert len(report["orders"]) >= 16  # (and a line for the unit left without an order)
    jobs = {"judge": judge, "svg": lambda: rules.render(board, state, report, "svg", 1000),
            "png": lambda: rules.render(board, state, report, "png", 1000)}
    for job in jobs.values():  # warm: the board's layers made, the fonts read
        job()
    best = {clock: {name: float("inf") for name in jobs} for clock in ("wall", "cpu")}
    for _ in range(rounds):
        for name, job in jobs.items():
            repeat = 20 if name == "judge" else 1  # a judgement is short: time twenty, take the mean
            gc.collect()
            gc.disable()
            try:
                t0, c0 = time.perf_counter(), time.process_time()
                for _ in range(repeat):
                    job()
                best["wall"][name] = min(best["wall"][name], (time.perf_counter() - t0) / repeat)
                best["cpu"][name] = min(best["cpu"][name], (time.process_time() - c0) / repeat)
            finally:
                gc.enable()
    return {clock: {**{f"{k} ms": v * 1000 for k, v in b.items()}, "png / judgement": b["png"] / b["judge"],
                    "svg / judgement": b["svg"] / b["judge"]} for clock, b in best.items()}


_FIRST = """
import json, sys, time
from adjudicator.board import board_from_data
from adjudicator.catalogue import load_variant
from adjudicator.games import rules_of
board = load_variant(sys.argv[1])
if len(sys.argv) > 2:  # the board's data changed by a hair: its stored drawing no longer fits, so none is used
    data = dict(board.raw, title=board.title + " (edited)")
    board = board_from_data(data)
rules = rules_of(board)
state = rules.initial_state(board)
cpu, wall = time.process_time(), time.perf_counter()
png = rules.render(board, state, None, "png", 1000)
print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall, "bytes": len(png)}))
"""


def first_pictures() -> dict[str, dict]:
    """For each shipped board, in a fresh process: the first PNG's CPU and wall time (s); and for two boards
    edited by a hair (no stored drawing fits), the same with the geometry computed."""
    from adjudicator.catalogue import variant_names

    out = {}
    for name, edited in [(n, False) for n in variant_names()] + [("standard", True), ("world", True)]:
        argv = [sys.executable, "-c", _FIRST, name] + (["edited"] if edited else [])
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        out[name + (" (edited)" if edited else "")] = json.loads(done.stdout)
    return out


def worker_memory(pictures: int = 8, width: int = 4000) -> dict[str, float]:
    """Peak resident memory (MB) of one API worker while `pictures` PNGs `width` px wide are asked at once."""
    import requests
    from load_api import _start_server

    proc, base = _start_server(1)
    try:
        state = requests.get(base + "/v1/variants/standard/start", timeout=10).json()
        body = {"state": state, "orders": {"France": ["A par - bur", "F bre - mid"], "Germany": ["A mun - ruh"]},
                "format": "png", "width": width}
        requests.post(base + "/v1/render", json=body, timeout=60).raise_for_status()  # warm
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        worker = int(children[0])

        def peak() -> float:
            for line in Path(f"/proc/{worker}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
            return float("nan")

        before = peak()
        codes: list[int] = []
        threads = [threading.Thread(target=lambda: codes.append(
            requests.post(base + "/v1/render", json=body, timeout=120).status_code)) for _ in range(pictures)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return {"peak MB after one": before, "peak MB after eight at once": peak(),
                "seconds for the eight": time.perf_counter() - t0, "all 200": all(c == 200 for c in codes)}
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--skip-server", action="store_true", help="leave out the worker-memory figure")
    args = parser.parse_args()
    warm = warm_ratios(args.rounds)
    print(f"warm, one process, best of {args.rounds} rounds (standard Fall 1901, 16 orders):")
    for clock, w in warm.items():
        print(f"  {'by the clock' if clock == 'wall' else 'in CPU time'}: judging the phase (read, judge, report) "
              f"{w['judge ms']:.3f} ms; SVG {w['svg ms']:.2f} ms = {w['svg / judgement']:.1f} judgements (goal: at "
              f"most 5); PNG 1000 px {w['png ms']:.2f} ms = {w['png / judgement']:.1f} judgements (goal: at most 30)")
    print("first picture of a board in a fresh process (PNG 1000 px; goal: under a second of work):")
    for name, f in first_pictures().items():
        print(f"  {name:<21} {f['cpu']:.2f} s CPU, {f['wall']:.2f} s wall, {f['bytes'] // 1024} KiB")
    if not args.skip_server:
        m = worker_memory()
        print(f"one API worker, eight 4000 px PNGs requested at once (goal: under 300 MB): peak "
              f"{m['peak MB after eight at once']:.0f} MB (after one: {m['peak MB after one']:.0f} MB), "
              f"{m['seconds for the eight']:.1f} s, all answered 200: {m['all 200']}")


if __name__ == "__main__":
    main()
