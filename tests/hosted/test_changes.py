"""A game's changes as an open page hears of them (`GET /v1/games/<id>/events`, adjudicator/hosted/changes.py):
the long poll answers once what the caller may see changes, within the watcher's interval; never tells a seat
of another's private readiness; holds no database connection while it waits; caps its waiters; reads the
database, so a change made by another process (another instance, a ticker) is seen."""

from __future__ import annotations

import threading
import time

import pytest

from adjudicator.hosted import changes
from adjudicator.hosted.storage import open_store
from tests.hosted.helpers import make_api

SECONDS = 2.5


@pytest.fixture
def api(db_url):
    return make_api(db_url, ADJUDICATOR_EVENT_SECONDS=SECONDS)


def poll(api, game_id: str, token: str, since: str = "") -> tuple[dict, float]:
    started = time.monotonic()
    response = api.call("get", "/v1/games/{game_id}/events", token, query=f"?since={since}" if since else "",
                        game_id=game_id)
    assert response.status_code == 200, response.get_json()
    return response.get_json(), time.monotonic() - started


def in_background(call, *args) -> dict:
    out: dict = {}
    thread = threading.Thread(target=lambda: out.setdefault("answer", call(*args)), daemon=True)
    thread.start()
    out["thread"] = thread
    return out


def test_a_seat_hears_of_readiness_and_a_judgement_at_once_and_never_of_what_it_may_not_see(api):
    game = api.create(variant="arctic")
    gid, gm, tokens = game["id"], game["game_master_token"], game["tokens"]
    russia, _ = poll(api, gid, tokens["Russia"])
    master, _ = poll(api, gid, gm)
    assert russia["changed"] and master["changed"] and russia["version"] != master["version"]  # (what each sees)
    waiting = [in_background(poll, api, gid, tokens["Russia"], russia["version"]),
               in_background(poll, api, gid, gm, master["version"])]
    time.sleep(0.3)
    answer = api.call("put", "/v1/games/{game_id}/orders", tokens["Norway"], game_id=gid,
                      json={"orders": ["F Osl H"], "ready": True, "phase_no": 1})
    assert answer.status_code == 200
    for w in waiting:
        w["thread"].join(SECONDS + 5)
    (seat, seat_took), (gm_saw, gm_took) = (w["answer"] for w in waiting)
    assert gm_saw["changed"] and gm_took < 2.0  # the game master sees who is ready: told within the interval
    assert not seat_took < SECONDS - 0.5 and not seat["changed"]  # Norway's readiness is private: Russia waits on
    assert seat["version"] == russia["version"]

    waiting = in_background(poll, api, gid, tokens["Russia"], russia["version"])
    time.sleep(0.3)
    assert api.call("post", "/v1/games/{game_id}/adjudicate", gm, game_id=gid, json={"phase_no": 1}).status_code == 200
    waiting["thread"].join(SECONDS + 5)
    judged, took = waiting["answer"]
    assert judged["changed"] and took < 2.0  # a judgement: every seat hears of it


def test_public_readiness_and_a_pause_are_heard_by_every_seat(api):
    game = api.create(variant="arctic", settings={"public_readiness": True})
    gid, gm, tokens = game["id"], game["game_master_token"], game["tokens"]
    first, _ = poll(api, gid, tokens["Canada"])
    waiting = in_background(poll, api, gid, tokens["Canada"], first["version"])
    time.sleep(0.3)
    api.call("put", "/v1/games/{game_id}/ready", tokens["USA"], game_id=gid, json={"ready": True, "phase_no": 1})
    waiting["thread"].join(SECONDS + 5)
    ready, took = waiting["answer"]
    assert ready["changed"] and took < 2.0
    waiting = in_background(poll, api, gid, tokens["Canada"], ready["version"])
    time.sleep(0.3)
    assert api.call("post", "/v1/games/{game_id}/pause", gm, game_id=gid, json={"phase_no": 1}).status_code == 200
    waiting["thread"].join(SECONDS + 5)
    paused, took = waiting["answer"]
    assert paused["changed"] and took < 2.0


def test_a_wait_holds_no_connection_and_the_waiters_are_capped(db_url):
    api = make_api(db_url, ADJUDICATOR_EVENT_SECONDS=2, ADJUDICATOR_EVENT_WAITERS=2)
    game = api.create(variant="arctic")
    gid, token = game["id"], game["tokens"]["Russia"]
    first, _ = poll(api, gid, token)
    pool = open_store(db_url).engine.pool
    waiting = [in_background(poll, api, gid, token, first["version"]) for _ in range(2)]
    time.sleep(0.5)
    if hasattr(pool, "checkedout"):  # (PostgreSQL's pool: SQLite's has no count)
        assert pool.checkedout() <= 1  # the watcher's read, at most: no waiter holds one
    third, took = poll(api, gid, token, first["version"])
    assert took < 1.0 and not third["changed"] and third["retry_ms"] > 0  # two wait already: asked to come back
    for w in waiting:
        w["thread"].join(5)
        assert not w["answer"][0]["changed"] and 1.5 < w["answer"][1] < 4  # no change: answered after its wait


def test_a_change_made_elsewhere_is_read_from_the_database(db_url):
    """Two apps on one database stand for two instances: a change through one is heard by the other's waiter."""
    one, other = make_api(db_url, ADJUDICATOR_EVENT_SECONDS=SECONDS), make_api(db_url)
    game = one.create(variant="arctic", settings={"public_readiness": True})
    gid, tokens = game["id"], game["tokens"]
    first, _ = poll(one, gid, tokens["Russia"])
    waiting = in_background(poll, one, gid, tokens["Russia"], first["version"])
    time.sleep(0.3)
    other.call("put", "/v1/games/{game_id}/orders", tokens["Denmark"], game_id=gid,
               json={"orders": ["F Cop H"], "phase_no": 1})
    waiting["thread"].join(SECONDS + 5)
    answer, took = waiting["answer"]
    assert answer["changed"] and took < 2.0


def test_the_watcher_reads_every_waiters_games_in_one_pass_and_stops_when_none_waits(db_url):
    store = open_store(db_url)
    reads: list[set[str]] = []

    def read(s, ids):
        reads.append(set(ids))
        return changes.read_snapshots(s, ids)

    watcher = changes.Watcher(store, interval=0.05, read=read)
    threads = [threading.Thread(target=watcher.wait, args=(gid, None, "x" * 20, 0.5)) for gid in ("a", "b", "c")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # ("gone" differs from the version waited for: each waiter is answered at the first pass that sees it)
    assert reads and all(len(r) <= 3 for r in reads) and set().union(*reads) == {"a", "b", "c"}
    time.sleep(0.2)
    count = len(reads)
    time.sleep(0.2)
    assert len(reads) == count and watcher.waiting == 0  # nobody waits: no reads


def test_a_closed_watcher_answers_its_waiters_at_once_and_every_later_wait(db_url):
    """A worker stopping gracefully closes its watchers (`api/server.py`): no long poll keeps it waiting."""
    watcher = changes.Watcher(open_store(db_url), interval=0.05, read=lambda s, ids: {})
    got: list = []
    thread = threading.Thread(target=lambda: got.append(watcher.wait("g", None, "gone", 30)))
    thread.start()
    time.sleep(0.2)
    started = time.monotonic()
    changes.close_all()
    thread.join(5)
    assert got == ["gone"] and time.monotonic() - started < 1.0
    started = time.monotonic()
    assert watcher.wait("g", None, "gone", 30) == "gone" and time.monotonic() - started < 0.1
