"""Hosted games at scale (issue 31): the whole deployment on one machine, driven, timed and (optionally) profiled.

It starts a throw-away PostgreSQL server, `adjudicator serve` instances (one, then two) and haproxy in front
(`deploy/haproxy.cfg`), drives them with wrk (`deploy/requests.lua`) and prints:

- the table: req/s and p99 at concurrency 1 / 8 / 32 (and 128 for hosted PUT) of the stateless
  `POST /v1/adjudicate` (standard Spring 1901, 22 orders) and of hosted `PUT /v1/games/{id}/orders` (one power's
  orders of the same phase, over 200 games) on SQLite and on PostgreSQL, for one and two instances;
- the flat-cost ratios: a submission, a game view and a judgement in a game's 1st phase against its 300th, and
  with 10 games stored against 10,000 (PostgreSQL, one instance);
- the deadlines: 1,000 games due within the same minute judged by `adjudicator games tick` processes (one,
  two at once, two with one killed mid-batch): how long, how many judged twice, the webhooks sent;
- with `--profile`, where an instance's CPU goes under the hosted PUT workload, and a tick batch's (py-spy).

    python benchmarks/hosted_load.py --profile                    # everything (17 minutes on a busy 2-core machine)
    python benchmarks/hosted_load.py --parts table --seconds 3  # a quick look
    python benchmarks/hosted_load.py --parts profile              # the profiles alone
    python benchmarks/hosted_load.py --parts deadlines,tick-profile  # the deadlines and a tick's profile

Needs haproxy, wrk and the PostgreSQL server binaries (`apt-get install haproxy wrk postgresql`), py-spy for
`--profile` (`pip install py-spy`), and root or the postgres user's rights to run the throw-away server.
Every server it starts is stopped when it ends. Clients and servers share this machine's cores.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import random
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import requests
from sqlalchemy import create_engine, func, insert, select, text

import cluster
import spy
from adjudicator.hosted.models import Game, PhaseRecord, Seat, Submission
from adjudicator.hosted.service import Service
from adjudicator.hosted.storage import normalise_url, open_store
from adjudicator.hosted.tokens import new_id
from adjudicator.hosted.webhooks import configured_policy
from load_api import STANDARD_ORDERS

LUA = cluster.DEPLOY / "requests.lua"
Row = dict[str, Any]


# --- games, made fast --------------------------------------------------------------------------------------
def new_database(server: str, name: str) -> str:
    """A new, empty database on the benchmark's PostgreSQL server (one a run before left is dropped first: a
    server given with --server outlives the run); its URL."""
    engine = create_engine(normalise_url(server), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return server.rsplit("/", 1)[0] + "/" + name


def create_games(url: str, count: int, **kw: Any) -> list[dict[str, Any]]:
    """`count` standard games created by the service itself (each answer holds the tokens)."""
    svc = Service(open_store(normalise_url(url)), policy=configured_policy())  # the webhook allow-list too
    return [svc.create_game("standard", **kw) for _ in range(count)]


def submit_all(url: str, game: dict[str, Any]) -> None:
    """Every power's Spring 1901 orders sent to a game, for its current phase (so that its judgement judges 22
    orders)."""
    svc = Service(open_store(normalise_url(url)))
    phase_no = svc.game_view(svc.authenticate(game["id"], game["game_master_token"]))["phase_no"]
    for power, token in game["tokens"].items():
        svc.submit(svc.authenticate(game["id"], token), STANDARD_ORDERS[power], phase_no=phase_no)


def _row(obj: Any, leave: tuple[str, ...] = ()) -> dict[str, Any]:
    return {c.key: getattr(obj, c.key) for c in obj.__table__.columns if c.key not in leave}


def settle(store: Any) -> None:
    """VACUUM ANALYZE after a bulk insert: what autovacuum does in a running service, whose games come over
    days, not 10,000 in a second (the planner then knows the tables' sizes)."""
    with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM ANALYZE")


def clone_games(url: str, template: str, count: int, **values: Any) -> list[str]:
    """`count` copies of a game (seats, pending orders, judged phases) inserted in bulk through the storage layer:
    set-up only, so 10,000 games take seconds. Copies keep the template's token hashes (its tokens work)."""
    store = open_store(normalise_url(url))
    ids = [new_id() for _ in range(count)]
    with store.transaction() as session:
        game = _row(session.get(Game, template)) | values
        seats = [_row(s) for s in session.scalars(select(Seat).where(Seat.game_id == template))]
        subs = [_row(s) for s in session.scalars(select(Submission).where(Submission.game_id == template))]
        phases = [_row(p, ("id",)) for p in session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == template))]
        for start in range(0, count, 500):
            chunk = ids[start:start + 500]
            session.execute(insert(Game), [game | {"id": i} for i in chunk])
            for model, rows in ((Seat, seats), (Submission, subs), (PhaseRecord, phases)):
                if rows:
                    session.execute(insert(model), [r | {"game_id": i} for i in chunk for r in rows])
    return ids


def old_game(url: str, phases: int) -> dict[str, Any]:
    """A game judged (no orders: every unit holds) until its current phase is the first Spring movement phase at or
    after `phases`: the opening position again, with that many phases behind it."""
    svc = Service(open_store(normalise_url(url)))
    game = svc.create_game("standard", settings={"disorder_after": 0})  # (no orders: every seat misses)
    gm = svc.authenticate(game["id"], game["game_master_token"])
    while True:
        view = svc.game_view(gm)
        if view["phase_no"] >= phases and view["phase"].startswith("Spring") and view["phase"].endswith("Movement"):
            return game | {"phase_no": view["phase_no"], "phase": view["phase"]}
        svc.adjudicate(gm, phase_no=view["phase_no"])


# --- load with wrk -----------------------------------------------------------------------------------------
def request_file(folder: Path, name: str, lines: list[tuple[str, str, str, Any]]) -> Path:
    """The requests wrk sends in turn: (method, path, token, JSON body) a line."""
    path = folder / f"{name}.tsv"
    path.write_text("".join(f"{m}\t{p}\t{t}\t{json.dumps(b, separators=(',', ':'))}\n" for m, p, t, b in lines))
    return path


def wrk(base: str, requests_file: Path, seconds: float, concurrency: int) -> Row:
    """Requests for `seconds` from `concurrency` connections of one wrk thread; req/s and latency figures.
    (wrk runs for a duration: a thread stopped after a count still waits out the duration.)"""
    out = subprocess.run(["wrk", "-t", "1", "-c", str(concurrency), "-d", f"{seconds:g}s", "--timeout", "30s",
                          "-s", str(LUA), base, "--", str(requests_file)],
                         capture_output=True, text=True, check=True).stdout
    row = json.loads(out[out.rindex('{"requests"'):])
    row["rps"] = row["requests"] / row["seconds"]
    return row


def warm(base: str, requests_file: Path) -> None:
    """Send requests until every worker has answered some: the first ones open the store, build the parser and
    fill the board caches (seconds on a busy machine), which no row should time."""
    for _ in range(10):
        if wrk(base, requests_file, 3, 8)["requests"] >= 100:
            return


def workloads(base: str, games: list[dict[str, Any]], folder: Path) -> dict[str, Path]:
    """The stateless phase and the hosted submissions (each power of each game in turn, shuffled) as request files."""
    state = requests.get(base + "/v1/variants/standard/start", timeout=30).json()
    stateless = [("POST", "/v1/adjudicate", "", {"state": state, "orders": STANDARD_ORDERS})]
    puts = [("PUT", f"/v1/games/{g['id']}/orders", token, {"orders": STANDARD_ORDERS[power], "phase_no": 1})
            for g in games for power, token in g["tokens"].items()]
    random.Random(31).shuffle(puts)  # neighbours in the file are other games, as with many players at once
    return {"stateless": request_file(folder, "stateless", stateless), "put": request_file(folder, "put", puts)}


STATELESS = "POST /v1/adjudicate, standard Spring 1901, 22 orders"
Table = dict[tuple[str, int], list[Row]]  # (workload, instances) -> a run per concurrency


def table(server: str, args: argparse.Namespace) -> Table:
    """The issue's table for each instance count: stateless and hosted PUT on SQLite and on PostgreSQL."""
    rows: Table = {}
    with tempfile.TemporaryDirectory(prefix="adjudicator-bench.") as tmp:
        folder = Path(tmp)
        databases = {"SQLite": f"sqlite:///{folder / 'games.sqlite3'}", "PostgreSQL": new_database(server, "load")}
        games = {name: create_games(url, 200) for name, url in databases.items()}
        for count in args.instances:
            for name, url in databases.items():
                with cluster.deployment(url, count, args.workers) as dep:
                    files = workloads(dep.base, games[name], folder)
                    for path in files.values():
                        warm(dep.base, path)
                    if name == "PostgreSQL":  # the stateless endpoint beside the hosted one, in the same minutes
                        rows[STATELESS, count] = [wrk(dep.base, files["stateless"], args.seconds, c)
                                                  for c in (1, 8, 32)]
                        print_row(STATELESS, count, rows[STATELESS, count])
                    key = f"hosted PUT orders, {name}"
                    rows[key, count] = [wrk(dep.base, files["put"], args.seconds, c) for c in (1, 8, 32, 128)]
                    print_row(key, count, rows[key, count])
    return rows


def print_row(name: str, instances: int, runs: list[Row]) -> None:
    """One line of the table (figures as wrk printed them)."""
    rps = " / ".join(f"{r['rps']:.0f}" for r in runs)
    p99 = " / ".join(f"{r['p99_ms']:.1f}" for r in runs)
    failed = Counter[str]()
    for r in runs:
        failed.update({f"HTTP {k}": v for k, v in r["failed"].items()} | {"socket errors": r["socket_errors"]})
    bad = ", ".join(f"{n} {what}" for what, n in failed.items() if n) or "0"
    print(f"| {name} | {instances} | {rps} | {p99} | {runs[-1]['max_ms']:.0f} | {bad} |", flush=True)


def print_goals(rows: Table) -> None:
    """The throughput goals against the stateless endpoint measured in the same deployment."""
    for n in sorted({n for _, n in rows}):
        stateless, hosted = rows.get((STATELESS, n)), rows.get(("hosted PUT orders, PostgreSQL", n))
        if not stateless or not hosted:
            continue
        rates = " / ".join(f"{h['rps'] / s['rps']:.2f}" for h, s in zip(hosted, stateless))
        print(f"{n} instance(s): hosted PUT on PostgreSQL / stateless req/s at 1 / 8 / 32: {rates} (goal >= 0.5); "
              f"p99 at 32: {hosted[2]['p99_ms'] / stateless[2]['p99_ms']:.1f}x the stateless p99 (goal <= 3x); "
              f"slowest at 128: {hosted[3]['max_ms'] / 1000:.2f} s (goal < 2 s)")


# --- flat cost ---------------------------------------------------------------------------------------------
class Client:
    """Timed requests to the balancer, one at a time (keep-alive)."""

    def __init__(self, base: str):
        self.base = base
        self.session = requests.Session()

    def timed(self, method: str, path: str, token: str, body: Any = None) -> float:
        """One request's time in ms (it must succeed)."""
        t0 = time.perf_counter()
        r = self.session.request(method, self.base + path, json=body, headers={"Authorization": f"Bearer {token}"},
                                 timeout=60)
        elapsed = (time.perf_counter() - t0) * 1000
        if r.status_code != 200:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return elapsed


def operations(client: Client, game: dict[str, Any]) -> dict[str, Callable[[], float]]:
    """A submission and a game view of one game (France's token), each a timed call."""
    gid, france = game["id"], game["tokens"]["France"]
    body = {"orders": STANDARD_ORDERS["France"], "phase_no": game.get("phase_no", 1)}
    return {"submission": lambda: client.timed("PUT", f"/v1/games/{gid}/orders", france, body),
            "game view": lambda: client.timed("GET", f"/v1/games/{gid}", france)}


def judgement(client: Client, game: dict[str, Any], gid: str) -> float:
    """The game master judges a copy of `game` (its 22 orders pending) at the copy's current phase."""
    return client.timed("POST", f"/v1/games/{gid}/adjudicate", game["game_master_token"],
                        {"phase_no": game.get("phase_no", 1)})


Side = tuple[Client, dict[str, Any], list[str]]  # a deployment's client, a game on it, copies of it to judge


def medians(sides: dict[str, Side], reps: int) -> dict[str, dict[str, float]]:
    """Median ms of each operation on each side, the sides' requests interleaved so drift hits both alike."""
    times: dict[str, dict[str, list[float]]] = {s: {} for s in sides}
    for i in range(reps):
        for side, (client, game, copies) in sides.items():
            for op, call in operations(client, game).items():
                times[side].setdefault(op, []).append(call())
            if i < len(copies):
                times[side].setdefault("judgement", []).append(judgement(client, game, copies[i]))
    return {s: {op: statistics.median(v) for op, v in ops.items()} for s, ops in times.items()}


def flat_cost(server: str, args: argparse.Namespace) -> None:
    """Submission, game view and judgement: a game's 1st phase against its 300th; 10 games stored against 10,000."""
    url = new_database(server, "flat")
    young = create_games(url, 1)[0]
    submit_all(url, young)
    old = old_game(url, args.age)
    submit_all(url, old)
    copies = {"young": clone_games(url, young["id"], args.judgements), "old": clone_games(url, old["id"], args.judgements)}
    with cluster.deployment(url, 1, args.workers) as dep:
        client = Client(dep.base)
        medians({"warm": (client, young, [])}, 20)
        age = medians({"young": (client, young, copies["young"]), "old": (client, old, copies["old"])}, args.reps)
    print_ratios(f"phase 1 against phase {old['phase_no']} ({old['phase']})", age["young"], age["old"])

    # Number of games: two databases on the one server, 10 games and 10,000, each behind an instance of its own,
    # their requests interleaved (measured one after the other, the machine's drift between them showed as
    # growth: up to 1.3x between two measures of the same small database).
    made, counts = {}, []
    for side, stored in (("small", 10), ("large", args.stored)):
        url = new_database(server, f"count_{side}")
        game = create_games(url, 1)[0]
        submit_all(url, game)
        judged = create_games(url, 1)[0]  # the fillers are games with one phase judged and the next one's orders sent
        submit_all(url, judged)
        store = open_store(normalise_url(url))
        Service(store).adjudicate(Service(store).authenticate(judged["id"], judged["game_master_token"]), phase_no=1)
        submit_all(url, judged)
        clone_games(url, judged["id"], max(0, stored - 2 - args.judgements))
        sample = clone_games(url, game["id"], args.judgements)
        settle(store)
        with store.sessions() as session:
            counts.append(session.scalar(select(func.count()).select_from(Game)))
        made[side] = (url, game, sample)
    with (cluster.deployment(made["small"][0], 1, args.workers) as small,
          cluster.deployment(made["large"][0], 1, args.workers) as large):
        sides = {side: (Client(dep.base), made[side][1], made[side][2]) for side, dep in (("small", small),
                                                                                          ("large", large))}
        medians({side: (client, game, []) for side, (client, game, _) in sides.items()}, 20)  # warm both
        figures = medians(sides, args.reps)
    print_ratios(f"{counts[0]} games stored against {counts[1]}", figures["small"], figures["large"])


def print_ratios(title: str, before: dict[str, float], after: dict[str, float]) -> None:
    """Median ms before and after, and their ratio (goal: within 1.2x)."""
    print(f"flat cost, {title}:")
    for op in before:
        print(f"  {op}: {before[op]:.1f} ms -> {after[op]:.1f} ms, {after[op] / before[op]:.2f}x (goal <= 1.2x)")


# --- deadlines ---------------------------------------------------------------------------------------------
@contextmanager
def receiver() -> Iterator[tuple[str, Counter[tuple[str, int]]]]:
    """A webhook receiver on loopback that counts deliveries by (game, phase)."""
    got: Counter[tuple[str, int]] = Counter()
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with lock:
                got[(body["game_id"], body["phase_no"])] += 1
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/hook", got
        finally:
            server.shutdown()


def tick_batch(url: str, template: str, games: int, tickers: int, kill_after: int | None) -> tuple[str, float]:
    """`games` copies of the template due within the last minute, judged by `tickers` `games tick` processes started
    together (the first killed with SIGKILL once `kill_after` phases are judged); a line of figures, and the time."""
    now = time.time()
    ids = clone_games(url, template, games, deadline_at=now - 30, wake_at=now - 30)
    store = open_store(normalise_url(url))
    with store.transaction() as session:  # spread the deadlines over one minute
        for i, gid in enumerate(ids):
            due = now - 60 * i / games
            session.execute(Game.__table__.update().where(Game.id == gid).values(deadline_at=due, wake_at=due))
    command = [sys.executable, "-m", "adjudicator", "games", "tick", "--database", url]
    logs = [tempfile.TemporaryFile("w+") for _ in range(tickers)]  # files, not pipes: nothing blocks on output
    load = Path("/proc/loadavg").read_text().split()[0]  # the machine is shared: how busy it was
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    procs = [cluster.start(command, stdout=log) for log in logs]
    judged_ids = PhaseRecord.game_id.in_(ids)
    killed = ""
    try:
        while kill_after is not None and procs[0].poll() is None:
            with store.sessions() as session:
                done = session.scalar(select(func.count()).select_from(PhaseRecord).where(judged_ids))
            if done >= kill_after:
                procs[0].send_signal(signal.SIGKILL)
                killed = f", ticker 1 killed at {done} judged ({time.perf_counter() - t0:.1f} s)"
                break
            time.sleep(0.05)
        for p in procs:
            p.wait(timeout=900)
    finally:
        for p in procs:
            cluster.stop(p)
    elapsed = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # the tickers' CPU (this script's only children here)
    cpu = cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime
    outputs = []
    for log in logs:
        log.seek(0)
        outputs.append(log.read())
        log.close()
    claimed = [int(m.group(1)) if (m := re.search(r"(\d+) phase\(s\) judged", out or "")) else 0 for out in outputs]
    with store.sessions() as session:
        records = session.execute(select(PhaseRecord.game_id, func.count()).where(judged_ids)
                                  .group_by(PhaseRecord.game_id)).all()
    # A phase judged twice would show as a second record, or as tickers claiming more judgements than recorded.
    twice = sum(n - 1 for _, n in records) + max(0, sum(claimed) - len(records))
    return (f"{games} games, {tickers} ticker(s){killed}: {elapsed:.1f} s, {len(records)} judged, "
            f"{games - len(records)} left, judged twice {twice}; each ticker's count {claimed} "
            f"(exit {[p.returncode for p in procs]}); tickers' CPU {cpu:.1f} s, load average {load} at the start"), elapsed


def deadlines(server: str, args: argparse.Namespace) -> None:
    """1,000 games due in the same minute, ticked by one, two, and two processes of which one is killed."""
    url = new_database(server, "deadlines")
    os.environ["ADJUDICATOR_WEBHOOK_ALLOW"] = "127.0.0.1"  # the receiver is on loopback (the tickers inherit it)
    with receiver() as (hook, got):
        template = create_games(url, 1, webhook_url=hook, settings={"phase_seconds": 86400})[0]
        submit_all(url, template)
        times = []
        for tickers, kill in ((1, None), (2, None), (2, args.games // 4)):
            got.clear()
            line, elapsed = tick_batch(url, template["id"], args.games, tickers, kill)
            times.append(elapsed)
            time.sleep(1.0)  # the last deliveries' answers
            twice = sum(n > 1 for n in got.values())
            print(f"deadlines: {line}; webhooks received {len(got)}, twice {twice}", flush=True)
        print(f"deadlines: 2 tickers / 1 ticker time: {times[1] / times[0]:.2f} (goal: about 1/2 on 2 cores); "
              f"2 with one killed / 1: {times[2] / times[0]:.2f}", flush=True)


# --- where the time goes -----------------------------------------------------------------------------------
COSTS = {
    "the statuses per submission (judge_submission -> line_statuses: checked, not judged)": ("judge_submission",),
    "position read from JSON per request (_board_state -> game_from_data)": ("_board_state",),
    "token check: game + seats read, hashes compared (authenticate)": ("authenticate (",),
    "SQLAlchemy ORM and Core (all statements)": ("sqlalchemy/",),
    "psycopg (driver: send, wait, parse rows)": ("psycopg/",),
    "connection check-out ping (pool_pre_ping)": ("_do_ping", "do_ping"),
    "new database connections": ("connect (psycopg/",),
    "schema migration (Alembic)": ("alembic/",),
    "request schema check (jsonschema)": ("jsonschema/",),
    "JSON encode/decode": ("json/",),
    "gunicorn access log": ("glogging",),
}
TICK_COSTS = {
    "judgement (play_turn)": ("play_turn",),
    "report JSON and text": ("report_json", "report_text"),
    "position to and from JSON (game_from_data, game_to_data)": ("game_from_data", "game_to_data", "_stored_state"),
    "seats and pending orders read (two statements)": ("_seats_and_orders",),
    "webhook queued with the judgement": ("queue (",),
    "SQLAlchemy ORM and Core (all statements)": ("sqlalchemy/",),
    "psycopg (driver)": ("psycopg/",),
    "webhook deliveries (claim, send, record)": ("run_due", "_loop"),
}


def print_profile(title: str, stacks: Counter[str], costs: dict[str, tuple[str, ...]]) -> None:
    """Named costs and the project's own functions (inclusive shares of the CPU samples), then self time by
    package."""
    print(f"profile, {title} ({sum(stacks.values())} samples):")
    for name, share in sorted(spy.shares(stacks, costs).items(), key=lambda x: -x[1]):
        print(f"  {share:6.1%}  {name}")
    print("  the project's functions, inclusive:")
    for frame, share in spy.top_functions(stacks, "adjudicator/", 16):
        print(f"  {share:6.1%}  {frame}")
    print("  self time by package: " + ", ".join(f"{name} {share:.1%}" for name, share in spy.packages(stacks)))


IN_PROCESS = {  # (file part, function) -> what it stands for, for the in-process profile of one hosted PUT
    ("api/hosted.py", "submit"): "the whole PUT (the route)",
    ("api/hosted.py", "_caller"): "  the token check (rate limit, authenticate, deadline check)",
    ("hosted/limits.py", "wait"): "    the rate limit (its upsert)",
    ("hosted/service.py", "authenticate"): "    authenticate (the game and the token's seat: one SELECT since issue 31)",
    ("api/routes.py", "_body"): "  the request's schema check",
    ("hosted/service.py", "submit"): "  Service.submit",
    ("hosted/service.py", "_board_state"): "    the position read from its JSON (cache misses since issue 31)",
    ("hosted/orders.py", "judge_submission"): "    the statuses: the game's arrival check (judge_submission)",
    ("hosted/storage.py", "transaction"): "    the write transaction (lock, read, write, commit; baseline only)",
    ("sqlalchemy/orm/session.py", "commit"): "  COMMIT (every one of the request's)",
    ("sqlalchemy/engine/default.py", "_do_ping_w_event"): "  pool pre-ping round trips (one per check-out; baseline only)",
    ("psycopg/connection.py", "wait"): "  waiting on PostgreSQL (every round trip)",
}


def request_profile(url: str, count: int = 200) -> None:
    """One hosted PUT at a time in process (Flask's test client, the same database): the statements it sends,
    and cProfile's wall-clock time per request of the parts named in IN_PROCESS."""
    import cProfile
    import pstats

    from sqlalchemy import event

    from api import create_app

    games = create_games(url, count // 7 + 1)
    seats = [(g["id"], p, t) for g in games for p, t in g["tokens"].items()][:count]
    client = create_app({"ADJUDICATOR_DATABASE_URL": url}).test_client()

    def put(seat: tuple[str, str, str]) -> None:
        gid, power, token = seat
        answer = client.put(f"/v1/games/{gid}/orders", json={"orders": STANDARD_ORDERS[power], "phase_no": 1},
                            headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.get_data(as_text=True)

    put(seats[0])  # opens the store (the migration check) and builds the parser, once per process
    engine = open_store(normalise_url(url)).engine
    seen = Counter[str]()
    listen = [(engine, "before_cursor_execute", lambda *a, **k: seen.update([a[2].split()[0].upper()])),
              (engine, "commit", lambda *a: seen.update(["COMMIT"])),
              (engine.pool, "checkout", lambda *a: seen.update(["check-outs"])),
              (engine.pool, "reset", lambda *a: seen.update(["ROLLBACK on check-in"]))]
    for target, name, fn in listen:
        event.listen(target, name, fn)
    put(seats[1])
    for target, name, fn in listen:
        event.remove(target, name, fn)
    print("one hosted PUT (in process, PostgreSQL): " + ", ".join(f"{n} {what}" for what, n in seen.most_common()))
    prof = cProfile.Profile()
    prof.enable()
    for seat in seats:
        put(seat)
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    print(f"profile, {len(seats)} hosted PUTs one at a time in process (cProfile, wall clock), ms per request:")
    for (part, function), label in IN_PROCESS.items():
        total = sum(v[3] for (file, _, name), v in stats.items()
                    if part in file and name == function)
        print(f"  {1000 * total / len(seats):7.2f}  {label}")
    print(f"without the profiler, ms: a PUT {1000 * timed_each(lambda: [put(seat) for seat in seats], len(seats)):.2f}; "
          f"its statuses alone (judge_submission, a power's Spring 1901 orders) {1000 * statuses_alone():.2f}")


def timed_each(run: Callable[[], Any], count: int) -> float:
    """Seconds per item of one run of `count` items."""
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) / count


def statuses_alone(rounds: int = 30) -> float:
    """Seconds per `judge_submission` of one power's standard Spring 1901 orders (in process, warm)."""
    from adjudicator.catalogue import load_variant
    from adjudicator.game import rules_of
    from adjudicator.hosted.orders import judge_submission

    board = load_variant("standard")
    state = rules_of(board).initial_state(board)
    judge = lambda: [judge_submission(board, state, p, o) for p, o in STANDARD_ORDERS.items()]  # noqa: E731
    judge()
    return timed_each(lambda: [judge() for _ in range(rounds)], rounds * len(STANDARD_ORDERS))


def profile(server: str, args: argparse.Namespace) -> None:
    """py-spy profiles: one instance's workers under the hosted PUT workload on PostgreSQL, and a tick batch."""
    if not spy.available():
        sys.exit("--profile needs py-spy: pip install py-spy")
    url = new_database(server, "profile")
    games = create_games(url, 200)
    request_profile(url)
    with tempfile.TemporaryDirectory(prefix="adjudicator-bench.") as tmp, cluster.deployment(url, 1, args.workers) as dep:
        put = workloads(dep.base, games, Path(tmp))["put"]
        warm(dep.base, put)
        with spy.spying(dep.instances[0].proc.pid) as out:
            row = wrk(dep.base, put, args.seconds * 2, 8)
        print_profile(f"an instance ({args.workers} workers) under hosted PUT on PostgreSQL, concurrency 8, "
                      f"{row['requests']} requests at {row['rps']:.0f} req/s", spy.read(out), COSTS)
    tick_profile(server, args)


def tick_profile(server: str, args: argparse.Namespace) -> None:
    """A py-spy profile of one `games tick` judging a fifth of `--games` due games (no webhooks)."""
    if not spy.available():
        sys.exit("the profiles need py-spy: pip install py-spy")
    url = new_database(server, "tick_profile")
    template = create_games(url, 1, settings={"phase_seconds": 86400})[0]
    submit_all(url, template)
    ids = clone_games(url, template["id"], args.games // 5, deadline_at=time.time() - 1, wake_at=time.time() - 1)
    stacks = spy.record([sys.executable, "-m", "adjudicator", "games", "tick", "--database", url])
    ticking = spy.within(stacks, "tick (adjudicator/hosted/service.py")  # the batch, without the start-up
    print(f"`games tick`: start-up (imports, store, migration check) {1 - sum(ticking.values()) / sum(stacks.values()):.0%} "
          "of its samples; the batch alone:")
    print_profile(f"`games tick` judging {len(ids)} due games (22 orders each), alone", ticking, TICK_COSTS)


# --- main --------------------------------------------------------------------------------------------------
def main() -> None:
    """Parse the arguments, start the PostgreSQL server, run the parts asked for, stop everything."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parts", default="table,flat,deadlines",
                    help="any of table, flat, deadlines, profile (requests and a tick), tick-profile (a tick alone)")
    ap.add_argument("--profile", action="store_true", help="also run the profile part")
    ap.add_argument("--seconds", type=float, default=8.0, help="seconds a row of the table runs")
    ap.add_argument("--instances", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2],
                    help="instance counts of the table (default 1,2)")
    ap.add_argument("--workers", type=int, default=2, help="gunicorn workers per instance")
    ap.add_argument("--age", type=int, default=300, help="the old game's phase for the flat-cost ratios")
    ap.add_argument("--stored", type=int, default=10_000, help="games stored for the flat-cost ratios")
    ap.add_argument("--reps", type=int, default=40, help="timed requests per operation and side (flat cost)")
    ap.add_argument("--judgements", type=int, default=8, help="timed judgements per side (flat cost)")
    ap.add_argument("--games", type=int, default=1000, help="games due at once (deadlines)")
    ap.add_argument("--server", help="a running PostgreSQL server's URL (its databases made there) instead of the "
                    "throw-away one, which runs with fsync off: e.g. one with its default durability")
    args = ap.parse_args()
    parts = set(args.parts.split(",")) | ({"profile"} if args.profile else set())
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (apt-get install wrk)")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a SIGTERM unwinds the with-blocks: servers stop
    with nullcontext(args.server) if args.server else cluster.postgres() as server:
        if "table" in parts:
            print("| workload | instances | req/s at concurrency 1 / 8 / 32 (/ 128) | p99 ms | max ms at the last "
                  "| failed |\n|---|---|---|---|---|---|", flush=True)
            print_goals(table(server, args))
        if "flat" in parts:
            flat_cost(server, args)
        if "deadlines" in parts:
            deadlines(server, args)
        if "profile" in parts:
            profile(server, args)
        elif "tick-profile" in parts:
            tick_profile(server, args)


if __name__ == "__main__":
    main()
