"""Issue 31, deadlines at scale: tickers started together share a batch of due games (each claims one game at a
time, skipping those another holds), each phase judged exactly once; a ticker killed mid-batch loses nothing;
tickers racing ready submissions still judge each phase once. Each test has a database of its own (`db_url`):
a tick judges every due game it can see."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError
from tests.hosted.helpers import OPENING, own_database, receiver  # noqa: F401 - own_database: the fixture db_url

from adjudicator.hosted import service as service_module
from adjudicator.hosted import webhooks
from adjudicator.hosted.limits import Limits
from adjudicator.hosted.models import Delivery, Game, PhaseRecord
from adjudicator.hosted.service import HostedError, Service
from adjudicator.hosted.storage import Store, open_store
from api.problems import STATUS

NOWHERE = "http://127.0.0.1:9/hook"  # a queued webhook shows in the outbox; the tests send none


def _service(url: str) -> Service:
    return Service(open_store(url), policy=webhooks.Policy(egress=webhooks.Egress.parse("127.0.0.1")),
                   background=False)


def _due_games(svc: Service, count: int, **kw) -> list[str]:
    """`count` Arctic games whose first deadline passed a moment ago (the next ones an hour away)."""
    ids = [svc.create_game("arctic", settings={"phase_seconds": 3600}, **kw)["id"] for _ in range(count)]
    _make_due(svc, ids)
    return ids


def _make_due(svc: Service, ids: list[str]) -> None:
    with svc.store.transaction() as session:
        session.execute(update(Game).where(Game.id.in_(ids)).values(deadline_at=time.time() - 1, wake_at=time.time() - 1))


def _judged(svc: Service, ids: list[str]) -> Counter[tuple[str, int]]:
    """How many times each (game, phase number) was recorded as judged."""
    with svc.store.sessions() as session:
        rows = session.execute(select(PhaseRecord.game_id, PhaseRecord.phase_no).where(PhaseRecord.game_id.in_(ids)))
        return Counter(tuple(r) for r in rows)


def _spy_on_judgements(monkeypatch, hold: threading.Event | None = None,
                       release: threading.Event | None = None) -> Counter[str]:
    """Count the games each thread judges; with `hold`, the thread named "A" stops before its first commit,
    holding its claim, until `release`."""
    judged_by: Counter[str] = Counter()
    real = service_module._before_commit

    def spy(session, game, *rest):
        real(session, game, *rest)
        judged_by[threading.current_thread().name] += 1
        if hold is not None and threading.current_thread().name == "A" and not hold.is_set():
            hold.set()
            assert release.wait(30)

    monkeypatch.setattr(service_module, "_before_commit", spy)
    return judged_by


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_two_tickers_on_one_due_batch_split_it(db_url, monkeypatch):  # noqa: F811
    """Deterministic: ticker A holds its first game, uncommitted, while ticker B runs a whole tick. B must pass
    that game over, not wait for it, and judge every other; A then commits its one and finds nothing left."""
    svc = _service(db_url)
    ids = _due_games(svc, 6)
    hold, release = threading.Event(), threading.Event()
    judged_by = _spy_on_judgements(monkeypatch, hold, release)
    lines: dict[str, int] = {}

    def tick() -> None:
        judged, _ = _service(db_url).tick()
        lines[threading.current_thread().name] = len(judged)

    a = threading.Thread(target=tick, name="A")
    b = threading.Thread(target=tick, name="B")
    try:
        a.start()
        assert hold.wait(30)
        b.start()
        b.join(20)
        b_waited = b.is_alive()
    finally:
        release.set()
        a.join(30)
        b.join(30)
    assert not b_waited, "ticker B waited for the game ticker A holds instead of passing it over"
    assert lines == {"A": 1, "B": 5} and judged_by == {"A": 1, "B": 5}
    assert _judged(svc, ids) == {(i, 1): 1 for i in ids}  # together all, none twice


def test_a_phase_that_cannot_be_judged_is_reported_passed_over_and_the_rest_judged(db_url):  # noqa: F811
    svc = Service(open_store(db_url), limits=Limits(max_phases=1), background=False)
    long_game, *others = _due_games(svc, 3)
    with svc.store.transaction() as session:  # a game judged as often as the limit allows
        session.execute(update(Game).where(Game.id == long_game).values(phase_no=1))
    judged, _ = svc.tick()
    (refused,) = [j for j in judged if "refused" in j]
    assert refused == {"game_id": long_game, "phase_no": 2, "refused": "a hosted game is judged at most 1 times"}
    assert len(judged) == 3 and _judged(svc, [long_game, *others]) == {(i, 1): 1 for i in others}


def _tick_then_die_in_the_third(url: str) -> None:
    """In a child process: tick, and be killed (SIGKILL) in the middle of the third judgement, all its writes
    made, before its commit."""
    count = [0]
    real = service_module._before_commit

    def die_in_the_third(*args):
        real(*args)
        count[0] += 1
        if count[0] == 3:
            os.kill(os.getpid(), signal.SIGKILL)

    service_module._before_commit = die_in_the_third
    Service(Store(url), background=False).tick()


def _wait_for_locks_to_go(svc: Service, ids: list[str]) -> None:
    """The database notices a killed client's closed connection and rolls its transaction back a moment later."""
    deadline = time.monotonic() + 10
    while True:
        try:
            with svc.store.transaction() as session:
                session.execute(select(Game.id).where(Game.id.in_(ids)).with_for_update(nowait=True)).all()
            return
        except OperationalError:
            assert time.monotonic() < deadline, "the killed ticker's lock was never released"
            time.sleep(0.05)


def test_a_ticker_killed_mid_batch_loses_nothing_and_another_finishes(db_url):  # noqa: F811
    svc = _service(db_url)
    ids = _due_games(svc, 5, webhook_url=NOWHERE)
    child = multiprocessing.get_context("fork").Process(target=_tick_then_die_in_the_third, args=(db_url,))
    child.start()
    child.join(60)
    assert child.exitcode == -signal.SIGKILL
    _wait_for_locks_to_go(svc, ids)
    assert sum(_judged(svc, ids).values()) == 2  # the third judgement rolled back with the killed ticker
    judged, _ = svc.tick()
    assert len(judged) == 3 and all("refused" not in j for j in judged)
    assert _judged(svc, ids) == {(i, 1): 1 for i in ids}
    with svc.store.sessions() as session:  # one webhook queued per judged phase, none lost, none twice
        hooks = Counter(session.scalars(select(Delivery.game_id).where(Delivery.game_id.in_(ids))))
    assert hooks == {i: 1 for i in ids}


def test_tickers_racing_ready_submissions_judge_each_phase_once(db_url, monkeypatch):  # noqa: F811
    """Two tickers and every power's ready orders arrive together at six games past their deadlines: each
    judgement is made once, by a ticker or by the last power to be ready, and every one is accounted for."""
    svc = _service(db_url)
    games = [svc.create_game("arctic", settings={"phase_seconds": 3600}) for _ in range(6)]
    seats = [(svc.authenticate(g["id"], g["tokens"][p]), p) for g in games for p in OPENING]
    ids = [g["id"] for g in games]
    _make_due(svc, ids)  # after the seats' authentication, which would judge a due phase itself
    judged_by = _spy_on_judgements(monkeypatch)

    def ready(seat) -> int:
        caller, power = seat
        try:
            return svc.submit(caller, OPENING[power], ready=True, phase_no=1)["adjudicated"] is not None
        except HostedError as exc:  # the phase was judged while the orders were read, or they fit no longer
            assert STATUS[exc.kind] in (409, 422), exc.detail
            return 0

    with ThreadPoolExecutor(8) as pool:
        tickers = [pool.submit(lambda: len(_service(db_url).tick()[0])) for _ in range(2)]
        by_ready = sum(pool.map(ready, seats))
        by_tickers = sum(t.result() for t in tickers)
    judged = _judged(svc, ids)
    assert set(judged.values()) == {1}  # no phase judged twice
    assert {(i, 1) for i in ids} <= set(judged)  # every game's first phase judged
    assert by_tickers + by_ready == sum(judged.values()) == sum(judged_by.values())


def test_a_delivery_being_sent_keeps_its_short_lease_and_is_sent_once(db_url):  # noqa: F811
    """The sender renews its claim while a slow receiver answers, so another process's sender, looking after
    the first lease has run out, does not send it again; the delivery is sent once, one attempt counted."""
    policy = webhooks.Policy(lease=1.0, egress=webhooks.Egress.parse("127.0.0.1"))
    with receiver([(2.5, 200)]) as (url, got):
        first, second = (Service(open_store(db_url), policy=policy, background=False) for _ in range(2))
        created = first.create_game("arctic", webhook_url=url)
        gm = first.authenticate(created["id"], created["game_master_token"])
        first.adjudicate(gm, phase_no=1)
        sending = threading.Thread(target=first.deliverer.run_due)
        sending.start()
        time.sleep(1.5)  # the first lease has run out; the holder has renewed it since
        assert second.deliverer.run_due().delivered == 0
        sending.join(30)
    (delivery,) = first.webhook_status(gm)["deliveries"]
    assert len(got) == 1 and delivery["delivered"] and [a["status"] for a in delivery["attempt_log"]] == [200]
