"""Hosted games under pressure: racing threads, two server processes on one database, a process killed in the
middle of an adjudication, deadlines, and webhooks delivered off the request with bounded retries."""

from __future__ import annotations

import http.server
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest
import requests
from click.testing import CliRunner
from sqlalchemy import func, select
from tests.api_helpers import free_port
from tests.hosted.helpers import OPENING, Clock, postgres_url, receiver

from adjudicator.cli import main
from adjudicator.hosted import service as service_module
from adjudicator.hosted import webhooks
from adjudicator.hosted.models import Delivery, PhaseRecord, Submission
from adjudicator.hosted.service import HostedError, Service
from adjudicator.hosted.storage import Store, normalise_url, open_store
from api.problems import STATUS

LOOPBACK = webhooks.Egress.parse("127.0.0.1")  # the tests' receivers listen on loopback: the operator allows it


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return normalise_url(postgres_url())


def _game(svc: Service, **kw):
    created = svc.create_game("arctic", **kw)
    seats = {p: svc.authenticate(created["id"], t) for p, t in created["tokens"].items()}
    return created, seats, svc.authenticate(created["id"], created["game_master_token"])


def _records(store: Store, game_id: str) -> list[PhaseRecord]:
    with store.sessions() as session:
        return list(session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game_id)
                                    .order_by(PhaseRecord.phase_no)))


# --- threads -----------------------------------------------------------------------------------------------
def test_parallel_submissions_then_parallel_adjudications_from_threads(db_url):
    svc = Service(open_store(db_url))
    created, seats, gm = _game(svc)
    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(lambda p: svc.submit(seats[p], OPENING[p], phase_no=1), OPENING))
    assert all(a["phase_no"] == 1 for a in answers)

    def judge(_):
        try:
            return svc.adjudicate(gm, phase_no=1)
        except HostedError as exc:
            return STATUS[exc.kind]

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(judge, range(8)))
    judged = [o for o in outcomes if isinstance(o, dict)]
    assert len(judged) == 1 and sorted(o for o in outcomes if not isinstance(o, dict)) == [409] * 7
    (record,) = _records(svc.store, created["id"])
    assert record.orders == OPENING  # nothing lost
    assert svc.game_view(gm)["phase"] == "Winter 2010 Movement"


def test_everyone_ready_at_once_judges_the_phase_once(db_url):
    svc = Service(open_store(db_url))
    created, seats, gm = _game(svc)
    with ThreadPoolExecutor(5) as pool:
        answers = list(pool.map(lambda p: svc.submit(seats[p], OPENING[p], ready=True, phase_no=1), OPENING))
    assert sum(a["adjudicated"] is not None for a in answers) <= 1
    (record,) = _records(svc.store, created["id"])  # whoever came last judged it, exactly once
    assert record.trigger == "ready" and record.orders == OPENING


def test_submissions_racing_an_adjudication_are_judged_or_refused_never_lost_nor_moved_on(db_url):
    svc = Service(open_store(db_url))
    created, seats, gm = _game(svc)
    results: dict[str, object] = {}

    def send(power):
        try:
            results[power] = svc.submit(seats[power], OPENING[power], phase_no=1)
        except HostedError as exc:
            results[power] = STATUS[exc.kind]

    with ThreadPoolExecutor(6) as pool:
        futures = [pool.submit(send, p) for p in OPENING] + [pool.submit(svc.adjudicate, gm, phase_no=1)]
        for f in futures:
            f.result()
    (record,) = _records(svc.store, created["id"])
    with svc.store.sessions() as session:
        pending = {s.power: s for s in session.scalars(select(Submission).where(Submission.game_id == created["id"]))}
    for power, answer in results.items():
        if answer == 409:
            assert power not in record.orders  # told the phase moved on: nothing kept, for either phase
        else:
            assert answer["phase_no"] == 1 and record.orders.get(power) == OPENING[power], power  # judged
    # Phase 1's orders never become phase 2's (the phase checked in the write's transaction, on the locked row).
    assert pending == {}


# --- two server processes ----------------------------------------------------------------------------------
@contextmanager
def _servers(url: str, count: int = 2):
    """`adjudicator serve` processes on one database; yields their base URLs."""
    env = {**os.environ, "ADJUDICATOR_DATABASE_URL": url}
    procs, bases = [], []
    try:
        for _ in range(count):
            port = free_port()
            procs.append(subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--host", "127.0.0.1",
                                           "--port", str(port), "--workers", "1"], env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            bases.append(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 30
        for proc, base in zip(procs, bases):
            while True:
                try:
                    if requests.get(base + "/healthz", timeout=1).ok:
                        break
                except requests.RequestException:  # not listening yet, or the worker still booting
                    pass
                assert proc.poll() is None and time.monotonic() < deadline, "a server did not start"
                time.sleep(0.1)
        yield bases
    finally:
        for proc in procs:
            proc.kill()  # everything the test checks is committed; a graceful stop would only cost seconds
            proc.wait(timeout=10)


def test_two_server_processes_on_one_postgresql_database_judge_each_phase_once():
    with _servers(normalise_url(postgres_url())) as (a, b):
        created = requests.post(a + "/v1/games", json={"variant": "arctic"}, timeout=30).json()
        gid, tokens = created["id"], created["tokens"]
        auth = lambda t: {"Authorization": f"Bearer {t}"}  # noqa: E731

        def ready(i_power):
            i, power = i_power
            base = (a, b)[i % 2]
            return requests.put(f"{base}/v1/games/{gid}/orders", json={"orders": OPENING[power], "ready": True,
                                                                       "phase_no": 1},
                                headers=auth(tokens[power]), timeout=30)

        with ThreadPoolExecutor(5) as pool:
            answers = list(pool.map(ready, enumerate(OPENING)))
        assert [r.status_code for r in answers] == [200] * 5
        gm = auth(created["game_master_token"])
        with ThreadPoolExecutor(8) as pool:
            races = list(pool.map(lambda i: requests.post(f"{(a, b)[i % 2]}/v1/games/{gid}/adjudicate",
                                                          json={"phase_no": 2}, headers=gm, timeout=30), range(8)))
        assert sorted(r.status_code for r in races) == [200] + [409] * 7
        phases = requests.get(f"{b}/v1/games/{gid}/phases", headers=gm, timeout=30).json()
        assert [p["phase_no"] for p in phases] == [1, 2] and [p["trigger"] for p in phases] == ["ready", "gm"]
        first = requests.get(f"{a}/v1/games/{gid}/phases/1", headers=gm, timeout=30).json()
        assert first["orders"] == OPENING


# --- a kill in the middle of an adjudication ---------------------------------------------------------------
def _adjudicate_then_die(url: str, game_id: str) -> None:
    """In a child process: judge the phase, and be killed (SIGKILL) after every write, just before the commit."""
    def die(*_args, **_kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    service_module._before_commit = die
    Service(Store(url))._adjudicate(game_id, "gm", 0)


def test_a_kill_in_the_middle_of_an_adjudication_leaves_the_previous_phase(db_url, tmp_path):
    store = open_store(db_url)
    svc = Service(store, policy=webhooks.Policy(egress=LOOPBACK))
    receiver = "http://127.0.0.1:9/never"  # a queued webhook would show in the outbox
    created, seats, gm = _game(svc, webhook_url=receiver)
    svc.submit(seats["Russia"], OPENING["Russia"], ready=True, phase_no=1)
    child = multiprocessing.get_context("fork").Process(target=_adjudicate_then_die, args=(db_url, created["id"]))
    child.start()
    child.join(30)
    assert child.exitcode == -signal.SIGKILL
    view = svc.game_view(gm)
    assert view["phase"] == "Fall 2010 Movement" and view["phases_judged"] == 0
    assert svc.own_orders(seats["Russia"])["orders"][0]["order"] == "A Arc - Ura"  # the orders are still there
    assert _records(store, created["id"]) == []
    with store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Delivery)
                              .where(Delivery.game_id == created["id"])) == 0
    svc.set_webhook(gm, None)
    judged = svc.adjudicate(gm, phase_no=1)  # and the phase is judged once, afterwards
    assert judged["phase_no"] == 1
    assert _records(store, created["id"])[0].orders == {"Russia": OPENING["Russia"]}


# --- deadlines ---------------------------------------------------------------------------------------------
def test_the_first_request_after_the_deadline_judges_the_phase(tmp_path):
    clock = Clock()
    svc = Service(open_store(f"sqlite:///{tmp_path / 'deadline.sqlite3'}"), clock=clock)
    created, seats, gm = _game(svc, settings={"phase_seconds": 3600})
    svc.submit(seats["Russia"], OPENING["Russia"], phase_no=1)
    clock.now += 3599
    assert svc.authenticate(created["id"], created["tokens"]["USA"]) and svc.phases(gm) == []
    clock.now += 2
    svc.authenticate(created["id"], created["tokens"]["USA"])  # any request
    (phase,) = svc.phases(gm)
    assert phase["trigger"] == "deadline"
    view = svc.game_view(gm)
    assert view["phase"] == "Winter 2010 Movement" and view["deadline"] is not None  # the next phase's deadline


def test_games_tick_judges_every_phase_past_its_deadline(tmp_path):
    url = f"sqlite:///{tmp_path / 'tick.sqlite3'}"
    svc = Service(open_store(url))
    late, _, gm_late = _game(svc, settings={"phase_seconds": 1})
    _, _, gm_open = _game(svc, settings={"phase_seconds": 3600})
    time.sleep(1.05)
    result = CliRunner().invoke(main, ["games", "tick", "--database", url])
    assert result.exit_code == 0, result.output
    assert "1 phase(s) judged" in result.output and "Fall 2010 Movement" in result.output
    with svc.store.sessions() as session:
        assert session.scalar(select(func.count()).select_from(PhaseRecord)) == 1


# --- webhooks ----------------------------------------------------------------------------------------------
def _wait(predicate, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_webhooks_are_signed_retried_and_never_block_the_request(tmp_path):
    policy = webhooks.Policy(attempts=4, base_delay=0.05, timeout=5, egress=LOOPBACK)
    svc = Service(open_store(f"sqlite:///{tmp_path / 'hooks.sqlite3'}"), policy=policy)
    with receiver([(1.0, 503), (0.0, 200)]) as (url, got):
        created, seats, gm = _game(svc, webhook_url=url)
        svc.submit(seats["Norway"], OPENING["Norway"], phase_no=1)
        started = time.monotonic()
        svc.adjudicate(gm, phase_no=1)
        assert time.monotonic() - started < 0.9  # the slow receiver is not waited for
        _wait(lambda: len(got) >= 2)
    (h1, b1, t1), (h2, b2, t2) = got
    secret = created["webhook_secret"]
    assert b1 == b2 and webhooks.verify(secret, h2[webhooks.SIGNATURE_HEADER], b2)
    assert not webhooks.verify("another secret", h2[webhooks.SIGNATURE_HEADER], b2)
    assert not webhooks.verify(secret, h2[webhooks.SIGNATURE_HEADER], b2 + b" ")
    body = json.loads(b2)
    assert body["phase"] == "Fall 2010 Movement" and body["next_phase"] == "Winter 2010 Movement"
    assert any(o["order"] == "F Tro - Bar" for o in body["report"]["orders"])
    _wait(lambda: svc.webhook_status(gm)["deliveries"][0]["delivered"])
    assert svc.webhook_status(gm)["deliveries"][0]["attempts"] == 2


def test_a_receiver_that_keeps_failing_is_given_up_after_the_last_attempt(tmp_path):
    policy = webhooks.Policy(attempts=3, base_delay=0.02, timeout=2, egress=LOOPBACK)
    svc = Service(open_store(f"sqlite:///{tmp_path / 'hooks.sqlite3'}"), policy=policy)
    with receiver([(0.0, 500)]) as (url, got):
        created, seats, gm = _game(svc, webhook_url=url)
        svc.adjudicate(gm, phase_no=1)
        _wait(lambda: svc.webhook_status(gm)["deliveries"][0]["given_up"])
        time.sleep(0.2)
        assert len(got) == 3
    (delivery,) = svc.webhook_status(gm)["deliveries"]
    assert delivery["attempts"] == 3 and not delivery["delivered"]
    assert delivery["last_error"] == "HTTP 500; given up after 3 attempts" == "HTTP 500; " + delivery["state"]
    assert [(a["attempt"], a["status"]) for a in delivery["attempt_log"]] == [(1, 500), (2, 500), (3, 500)]
    assert policy.delay(1) == 0.02 and policy.delay(3) == 0.08 and webhooks.Policy().delay(30) == 300.0
