"""Latency tails under load (issue 34): mean, median, p99 and p99/mean of wrk runs, before the fix and after.

Two `adjudicator serve` instances of `--workers` workers each on the same database: one with
`ADJUDICATOR_FAIR_SERVICE=0` (the old order: a kept-alive connection whose next request is already there is
served again at once), one as shipped (requests in arrival order, `api/fairness.py`). Their runs alternate
(old, fair, old, fair...), so both see the same machine. Workloads, each at concurrency 8 and 32:

- stateless `POST /v1/adjudicate` (standard Spring 1901, all 22 units ordered);
- hosted: `GET /v1/games/{id}` (a seat's view) and `PUT /v1/games/{id}/orders` (its Spring 1901 orders)
  in turn, over 200 games, on SQLite and (with `--postgres URL`) on PostgreSQL.

    python benchmarks/tails.py                                   # SQLite only, 10 s a run
    python benchmarks/tails.py --postgres postgresql://postgres@127.0.0.1:55432/adj_fair --seconds 10

Figures are wrk's (`deploy/requests.lua`): wrk corrects for coordinated omission (a request that waited long
also counts the requests its connection could not send meanwhile), mean and percentiles alike. The
"mean (sent)" column is the plain mean of the requests sent: connections x seconds / requests. The goal
(p99 at most 3x the mean) is checked against both means. Needs wrk (`apt-get install wrk`).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import requests

import cluster
from hosted_load import Row, create_games, request_file, wrk
from load_api import STANDARD_ORDERS

MODES = ("old", "fair")  # ADJUDICATOR_FAIR_SERVICE=0, and the default
CONCURRENCY = (8, 32)
GOAL = 3.0  # p99 at most this many times the mean


@contextmanager
def server(database: str, fair: bool, workers: int) -> Iterator[str]:
    """`adjudicator serve` on a free loopback port, the old order or the fair one; its base URL."""
    env = cluster.database_env(database) | {"ADJUDICATOR_FAIR_SERVICE": "1" if fair else "0"}
    port = cluster.free_port()
    args = [sys.executable, "-m", "adjudicator", "serve", "--host", "127.0.0.1", "--port", str(port),
            "--workers", str(workers)]
    with cluster.running(cluster.start(args, env)) as proc:
        base = f"http://127.0.0.1:{port}"
        cluster.wait_healthy(base, proc)
        yield base


def workloads(base: str, games: list[dict[str, Any]], folder: Path, prefix: str) -> dict[str, Path]:
    """The stateless phase, and the hosted views and submissions (each seat of each game, shuffled)."""
    state = requests.get(base + "/v1/variants/standard/start", timeout=30).json()
    stateless = [("POST", "/v1/adjudicate", "", {"state": state, "orders": STANDARD_ORDERS})]
    hosted = []
    for g in games:
        for power, token in g["tokens"].items():
            hosted.append(("GET", f"/v1/games/{g['id']}", token, None))
            hosted.append(("PUT", f"/v1/games/{g['id']}/orders", token, {"orders": STANDARD_ORDERS[power],
                                                                          "phase_no": g["phase_no"]}))
    pairs = [hosted[i:i + 2] for i in range(0, len(hosted), 2)]
    random.Random(34).shuffle(pairs)  # neighbours in the file are other games; a seat's view, then its orders
    return {"stateless": request_file(folder, f"{prefix}-stateless", stateless),
            "hosted": request_file(folder, f"{prefix}-hosted", [line for pair in pairs for line in pair])}


def warm(base: str, path: Path) -> None:
    """A few seconds of load first: every worker's caches filled, no row times a cold start."""
    wrk(base, path, 3, 8)


def measure(bases: dict[str, str], path: Path, seconds: float) -> dict[tuple[str, int], Row]:
    """Each concurrency, the old server then the fair one."""
    rows = {}
    for c in CONCURRENCY:
        for mode in MODES:
            row = wrk(bases[mode], path, seconds, c)
            row["concurrency"] = c
            row["sent_mean_ms"] = c * row["seconds"] * 1000 / max(row["requests"], 1)
            rows[mode, c] = row
    return rows


def print_rows(name: str, rows: dict[tuple[str, int], Row]) -> list[str]:
    """The table's lines for one workload; the goals missed (by the fair server)."""
    missed = []
    for (mode, c), r in rows.items():
        ratio, sent_ratio = r["p99_ms"] / r["mean_ms"], r["p99_ms"] / r["sent_mean_ms"]
        failed = r["non_2xx"] + r["socket_errors"]
        print(f"| {name} | {mode} | {c} | {r['rps']:.0f} | {r['mean_ms']:.1f} | {r['sent_mean_ms']:.1f} | "
              f"{r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['max_ms']:.1f} | {ratio:.1f} | {sent_ratio:.1f} | "
              f"{failed} |", flush=True)
        if mode == "fair" and max(ratio, sent_ratio) > GOAL:
            missed.append(f"{name}, concurrency {c}: p99/mean {ratio:.1f} (sent: {sent_ratio:.1f})")
    return missed


def main() -> None:
    """Start the servers, run every workload at each concurrency on both, print the table and the goal."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds a run lasts (default 10)")
    ap.add_argument("--workers", type=int, default=2, help="gunicorn workers per server (default 2)")
    ap.add_argument("--postgres", help="a PostgreSQL database URL for the hosted rows on PostgreSQL too "
                                       "(games are added to it)")
    ap.add_argument("--games", type=int, default=200, help="hosted games (default 200)")
    ap.add_argument("--workloads", default="stateless,hosted", help="stateless, hosted or both (the default)")
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (apt-get install wrk)")
    print(f"{os.cpu_count()} cores; {args.workers} workers a server; {args.seconds:g} s a run\n")
    print("| workload | order | concurrency | req/s | mean ms | mean (sent) ms | median ms | p99 ms | max ms "
          "| p99/mean | p99/mean (sent) | failed |\n|---|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
    missed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="adjudicator-tails.") as tmp:
        folder = Path(tmp)
        databases = {"SQLite": f"sqlite:///{folder / 'games.sqlite3'}"}
        if args.postgres:
            databases["PostgreSQL"] = args.postgres
        for i, (name, url) in enumerate(databases.items()):
            games = create_games(url, args.games)
            with ExitStack() as stack:
                bases = {mode: stack.enter_context(server(url, mode == "fair", args.workers)) for mode in MODES}
                files = workloads(bases["fair"], games, folder, name)
                names = {"hosted": f"hosted GET view + PUT orders, {name}"}
                if i == 0:  # the stateless endpoint touches no database: measured once
                    names = {"stateless": "stateless POST /v1/adjudicate"} | names
                for key, label in names.items():
                    if key not in args.workloads.split(","):
                        continue
                    for base in bases.values():
                        warm(base, files[key])
                    missed += print_rows(label, measure(bases, files[key], args.seconds))
    print()
    if missed:
        print("goal missed (fair order, p99 at most 3x the mean):\n- " + "\n- ".join(missed))
    else:
        print("goal met: with requests in arrival order, p99 is at most 3x the mean in every row")


if __name__ == "__main__":
    main()
