"""Board pictures: what a picture costs, as a ratio to judging the same phase, in one process, warm.

The phase: the standard board at Fall 1901 with sixteen orders (moves, supports, convoys, failures). Judging it
is what `/v1/adjudicate` does without HTTP: the sheet read, the phase judged, the report made as JSON. A
picture is `rules.render(board, state, report, fmt, width)`: the SVG, or the PNG 1000 px wide. Judgements and
pictures alternate, round after round (so a slow moment of the machine lands on both), and each figure is the
best round (the garbage collector paused), by the clock and in CPU time (the process's own, which other
processes on a busy machine disturb less); each ratio is of two bests.

Then, each in a fresh process: the first picture of each shipped board (imports, fonts, the board's stored
drawing, the rasteriser: everything the picture needs beyond the board and the position), as CPU time, and
of two boards edited by a hair and a 250-space chain, whose geometry is computed (a game master's own board
with no drawing). Then the same first pictures cold in a warm process, as a server's drawing process makes
them (imports and fonts loaded at its start; every cache emptied before each: boards, drawings, layers).
Then, against a real `adjudicator serve` (gunicorn, gevent, two workers): the peak memory of one worker while
eight 4000 px pictures are requested at once, and how long `/healthz` takes while eight worst-case pictures
run (4000 px PNGs of the largest board the limits allow: a 4,900-space chain, 9,799 spaces and borders).

    python benchmarks/pictures.py                 # all of them
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
    from adjudicator.games.diplomacy.state_file import state_from_data
    from adjudicator.game import rules_of
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


def chain_board(n: int, title: str = "Chain") -> dict:
    """A board of n land spaces in a row, each bordering the next, without drawing positions (as the review's)."""
    width = len(str(n - 1))
    ids = [f"p{i:0{width}d}" for i in range(n)]
    provinces = [{"id": pid, "name": f"Place {i}", "kind": "land", **({"centre": True, "home": "AB"[i % 2]}
                                                                      if i < 4 else {})} for i, pid in enumerate(ids)]
    return {"name": f"chain{n}", "title": title, "rules": "diplomacy",
            "powers": {"A": {"colour": "#D62728"}, "B": {"colour": "#1F77B4"}},
            "terrain": {"land": {"default": "land"}, "sea": {"default": "sea"}},
            "calendar": {"start": {"season": "Spring", "year": 1901, "type": "Movement"},
                         "phases": [{"season": "Spring", "type": "Movement"}, {"season": "Fall", "type": "Movement"},
                                    {"season": "Fall", "type": "Adjustment"}]},
            "victory": 3, "provinces": provinces, "borders": [f"{a} - {b} : land" for a, b in zip(ids, ids[1:])],
            "start": {"A": [f"A {ids[0]}"], "B": [f"A {ids[1]}"]}}


def board_of(name: str, edited: bool) -> object:
    """A shipped board (edited by a hair: its stored drawing no longer fits), or `chainN`."""
    from adjudicator.games.diplomacy.board_file import board_from_data
    from adjudicator.catalogue import board_from_inline, load_variant

    if name.startswith("chain"):
        return board_from_inline(chain_board(int(name[5:]), f"Chain {time.time_ns()}"))
    board = load_variant(name)
    return board_from_data(dict(board.raw, title=f"{board.title} (edited {time.time_ns()})")) if edited else board


_FIRST = """
import json, sys, time
sys.path.insert(0, sys.argv[3])
from pictures import board_of
from adjudicator.game import rules_of
board = board_of(sys.argv[1], sys.argv[2] == "edited")
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
    for name, edited in [(n, False) for n in variant_names()] + EDITED:
        argv = [sys.executable, "-c", _FIRST, name, "edited" if edited else "-", str(ROOT / "benchmarks")]
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        out[name + (" (edited)" if edited else "")] = json.loads(done.stdout)
    return out


EDITED = [("standard", True), ("world", True), ("chain250", True)]


def cold_in_a_warm_process() -> dict[str, float]:
    """The first PNG (1000 px) of each edited board in a process whose imports and fonts are loaded, as a server's
    drawing process holds them, every cache emptied before each: CPU seconds, and the geometry's share."""
    from adjudicator import catalogue, pictures
    from adjudicator.game import rules_of
    from adjudicator.games.diplomacy.picture import stored
    from adjudicator.render import raster

    geometry_module = sys.modules["adjudicator.games.diplomacy.picture.geometry"]
    pictures._warm()
    out = {}
    for name, _ in EDITED:
        catalogue._boards.clear()
        stored.forget()
        for kept in (raster._drawn, raster._read, raster._strips):
            kept.clear()
        board = board_of(name, True)
        rules = rules_of(board)
        state = rules.initial_state(board)
        gc.collect()
        cpu = time.process_time()
        geo = geometry_module._build_geometry(board)
        geometry_cpu = time.process_time() - cpu
        board.__dict__.setdefault("_render_cache", {})["geometry"] = geometry_module.to_picture(geo)
        rules.render(board, state, None, "png", 1000)
        out[name] = {"cpu": time.process_time() - cpu, "geometry": geometry_cpu, "method": geo.method,
                     "spaces": len(board.provinces)}
    return out


def healthz_under_pictures(pictures: int = 8, width: int = 4000, spaces: int = 4900) -> dict:
    """`/healthz` latency (s) of a real server while `pictures` PNGs `width` px wide of a `spaces`-space chain are
    asked at once (the first computes the board's drawing), and what those requests were answered."""
    import os

    import requests
    from load_api import _free_port

    port = _free_port()
    env = dict(os.environ, ADJUDICATOR_PICTURE_UNITS_PER_MINUTE="1000000",
               ADJUDICATOR_DATABASE=str(Path("/tmp") / f"pictures-bench-{os.getpid()}.sqlite3"))
    env.pop("ADJUDICATOR_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--port", str(port)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if requests.get(base + "/healthz", timeout=1).ok:
                    break
            except requests.ConnectionError:
                time.sleep(0.1)
        board = chain_board(spaces, f"Chain {time.time_ns()}")
        items = len(board["provinces"]) + len(board["borders"])
        state = requests.post(base + "/v1/start", json={"board": board}, timeout=60).json()
        body = {"state": {**state, "board": board}, "format": "png", "width": width}
        codes: list[int] = []
        senders = [threading.Thread(target=lambda: codes.append(
            requests.post(base + "/v1/render", json=body, timeout=120).status_code)) for _ in range(pictures)]
        t0 = time.perf_counter()
        for s in senders:
            s.start()
        latencies = []
        while any(s.is_alive() for s in senders):
            t = time.perf_counter()
            requests.get(base + "/healthz", timeout=30).raise_for_status()
            latencies.append(time.perf_counter() - t)
            time.sleep(0.05)
        for s in senders:
            s.join()
        return {"items": items, "bytes": len(json.dumps(board)), "healthz max": max(latencies),
                "healthz median": sorted(latencies)[len(latencies) // 2], "asked": len(latencies),
                "seconds": time.perf_counter() - t0, "codes": {c: codes.count(c) for c in sorted(set(codes))}}
    finally:
        proc.terminate()
        proc.wait(timeout=30)


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

        def peak(pid: int = worker) -> float:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
            return float("nan")

        def drawer() -> float:  # the worker's drawing process (adjudicator/pictures.py)
            kids = Path(f"/proc/{worker}/task/{worker}/children").read_text().split()
            return sum(peak(int(k)) for k in kids)

        before = peak()
        codes: list[int] = []
        threads = [threading.Thread(target=lambda: codes.append(
            requests.post(base + "/v1/render", json=body, timeout=120).status_code)) for _ in range(pictures)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return {"peak MB after one": before, "peak MB after eight at once": peak(), "drawing process MB": drawer(),
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
    print("first picture cold in a warm drawing process (every cache emptied; goal: under 1 s of CPU):")
    for name, f in cold_in_a_warm_process().items():
        print(f"  {name + ' (edited)':<21} {f['cpu']:.2f} s CPU, of which the geometry {f['geometry']:.2f} s "
              f"({f['spaces']} spaces, {f['method']}): {'met' if f['cpu'] < 1 else 'MISSED'}")
    if not args.skip_server:
        h = healthz_under_pictures()
        print(f"/healthz while eight 4000 px PNGs of the largest board allowed ({h['items']} spaces and borders, "
              f"{h['bytes'] // 1024} KiB) are asked at once (goal: within 1 s): slowest {h['healthz max']:.3f} s, "
              f"median {h['healthz median']:.3f} s over {h['asked']} asks in {h['seconds']:.1f} s "
              f"({'met' if h['healthz max'] < 1 else 'MISSED'}); the pictures answered {h['codes']}")
        m = worker_memory()
        print(f"one API worker, eight 4000 px PNGs requested at once (goal: under 300 MB): peak "
              f"{m['peak MB after eight at once']:.0f} MB (after one: {m['peak MB after one']:.0f} MB) and its drawing "
              f"process's {m['drawing process MB']:.0f} MB, "
              f"{m['seconds for the eight']:.1f} s, all answered 200: {m['all 200']}")


if __name__ == "__main__":
    main()
