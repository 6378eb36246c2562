"""Webhooks that cannot delay each other: an honest game's delivery while another game's receiver is silent.

One service process, as a server runs it (the background sender, woken by each judgement), on SQLite or on
PostgreSQL. Game S's receiver (127.0.0.2) accepts every connection and never answers; S has `--silent-phases`
judged phases waiting, and one more is judged before each of the honest game's rounds. Game H's receiver
(127.0.0.1) answers 200 at once. Each round judges one phase of H and times, at the receiver, how long after the
judgement's commit its delivery arrived. The same rounds run first with no silent receiver (the baseline of the
same run), and, with `--one-sender`, with a policy of one sender per process and a 2 s timeout (deliveries one
at a time, as before issue 34, but in this sender's fair order: the honest delivery waits for the attempt in
flight, at most a timeout; before, it waited behind every due one, the silent game's phases times the timeout). `--silent-hosts N`: N
silent games, each on a host of its own (127.0.0.2, .3, ...), as one attacker with many names would set up; the
senders past half full give each receiver one at a time, so up to half the senders' count of such hosts leaves
room. `--gevent`: threads are greenlets, as in gunicorn's gevent worker. What it leaves out: the network (every
receiver is on loopback), and name lookups (addresses are written as such).

Goal (issue 34): every honest delivery within 2 s of its judgement while the silent receiver holds its share.

    python benchmarks/webhooks.py [--database postgresql://...] [--rounds 12] [--gap 1] [--silent-phases 8]
                                  [--silent-hosts 1] [--one-sender] [--gevent]
"""

from __future__ import annotations

import argparse
import http.server
import json
import secrets
import socket
import statistics
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, make_url

from adjudicator.hosted import storage, webhooks
from adjudicator.hosted.egress import Egress
from adjudicator.hosted.service import Service
from adjudicator.hosted.storage import open_store

GOAL = 2.0  # seconds from a judgement to its delivery's arrival


class Honest:
    """A receiver that answers 200 at once and notes when each delivery arrived."""

    def __init__(self) -> None:
        arrived: dict[str, float] = {}
        self.arrived = arrived

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                arrived.setdefault(json.loads(body)["delivery_id"], time.monotonic())
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"


class Silent:
    """A receiver that accepts every connection, reads what comes and never answers; notes how many connections
    it holds at most (one is let go when the sender closes it)."""

    def __init__(self, host: str = "127.0.0.2") -> None:
        self.server = socket.create_server((host, 0))
        self.lock = threading.Lock()
        self.open = self.most = 0
        threading.Thread(target=self._serve, daemon=True).start()
        self.url = f"http://{host}:{self.server.getsockname()[1]}/hook"

    def _serve(self) -> None:
        while True:
            conn, _ = self.server.accept()
            with self.lock:
                self.open += 1
                self.most = max(self.most, self.open)
            threading.Thread(target=self._hold, args=(conn,), daemon=True).start()

    def _hold(self, conn: socket.socket) -> None:
        with conn:
            try:
                while conn.recv(65536):
                    pass
            except OSError:
                pass
        with self.lock:
            self.open -= 1


@contextmanager
def database(url: str | None):
    """A fresh database: a SQLite file in a temporary folder, or a schema of its own on the PostgreSQL server."""
    if url is None or url.startswith("sqlite"):
        with tempfile.TemporaryDirectory() as folder:
            yield url or f"sqlite:///{Path(folder) / 'webhooks.sqlite3'}"
        return
    base = make_url(storage.normalise_url(url))
    schema = f"bench_webhooks_{secrets.token_hex(4)}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    try:
        yield base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    finally:
        for store in list(storage._stores.values()):
            store.dispose()
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


def game(svc: Service, url: str):
    created = svc.create_game("arctic", webhook_url=url, settings={"disorder_after": 0})  # (judged without orders)
    return created, svc.authenticate(created["id"], created["game_master_token"])


def rounds(svc: Service, honest: Honest, count: int, silent: dict | None = None, gap: float = 0.0,
           wait: float = 120.0) -> list[float]:
    """Judge `count` phases of a fresh honest game (one more phase of each silent game before each, when given:
    its caller and judged phases); the delay of each delivery from its judgement's commit to its arrival."""
    created, gm = game(svc, honest.url)
    delays = []
    for n in range(1, count + 1):
        for silent_gm, judged in (silent or {}).items():
            svc.adjudicate(silent_gm, phase_no=judged + 1)
            silent[silent_gm] = judged + 1
        svc.adjudicate(gm, phase_no=n)
        judged = time.monotonic()
        key = webhooks.delivery_id(created["id"], n)
        while key not in honest.arrived and time.monotonic() - judged < wait:
            time.sleep(0.005)
        delays.append(honest.arrived.get(key, float("inf")) - judged)
        time.sleep(gap)
    return delays


def shown(delays: list[float]) -> str:
    return (f"median {statistics.median(delays):.3f} s, max {max(delays):.3f} s "
            f"({', '.join(f'{d:.2f}' for d in delays)})")


def measure(url: str, policy: webhooks.Policy, label: str, args, count: int) -> list[float]:
    svc = Service(open_store(url), policy=policy, background=True)
    honest = Honest()
    silent = [Silent(f"127.0.0.{2 + i}") for i in range(args.silent_hosts)]
    quiet = rounds(svc, honest, count, gap=0.2)
    judged = {}
    for receiver in silent:
        _, silent_gm = game(svc, receiver.url)
        for n in range(1, args.silent_phases + 1):
            svc.adjudicate(silent_gm, phase_no=n)
        judged[silent_gm] = args.silent_phases
    time.sleep(0.5)  # the sender has taken the silent games' first deliveries
    started = time.monotonic()
    loaded = rounds(svc, honest, count, judged, gap=args.gap)
    took = time.monotonic() - started
    print(f"{label}: senders {policy.senders}, per receiver {policy.per_receiver}, timeout {policy.timeout:g} s")
    print(f"  quiet (no silent receiver): {shown(quiet)}")
    print(f"  {args.silent_hosts} silent receiver host(s), a game each with {args.silent_phases}+{count} phases "
          f"pending, each holding at most {max(r.most for r in silent)} connection(s), over {took:.1f} s: "
          f"{shown(loaded)}")
    print(f"  loaded/quiet median ratio {statistics.median(loaded) / statistics.median(quiet):.1f}; "
          f"goal every delivery within {GOAL:g} s: {'met' if max(loaded) <= GOAL else 'MISSED'}")
    return loaded


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", help="a PostgreSQL URL (a schema of its own is made and dropped)")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--silent-phases", type=int, default=8)
    parser.add_argument("--silent-hosts", type=int, default=1,
                        help="silent receivers, each on a host of its own (127.0.0.2, .3, ...), a game each")
    parser.add_argument("--gap", type=float, default=1.0,
                        help="seconds between the loaded rounds (10 rounds of 1 s outlast a 10 s timeout)")
    parser.add_argument("--one-sender", action="store_true",
                        help="also measure one sender per process (no concurrency), 3 rounds, a 2 s timeout")
    args = parser.parse_args()
    allow = Egress.parse("127.0.0.0/8")
    with database(args.database) as url:
        print(f"database: {make_url(url).get_backend_name()}; {args.rounds} rounds, {args.silent_hosts} silent "
              f"host(s), {args.silent_phases} silent phases each judged first")
        loaded = measure(url, webhooks.Policy(egress=allow), "this sender", args, args.rounds)
    if args.one_sender:
        with database(args.database) as url:
            measure(url, webhooks.Policy(egress=allow, senders=1, per_receiver=1, timeout=2.0),
                    "one sender", args, 3)  # each round waits out the silent game's phases
    return 0 if max(loaded) <= GOAL else 1


if __name__ == "__main__":
    if "--gevent" in sys.argv:  # as gunicorn's gevent worker runs the sender: threads are greenlets
        from gevent import monkey

        monkey.patch_all()
        sys.argv.remove("--gevent")
    sys.exit(main())
