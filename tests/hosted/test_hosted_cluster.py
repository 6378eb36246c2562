"""The hosted deployment of issue 31 in small: two `adjudicator serve` instances behind haproxy on one PostgreSQL
database (started as `benchmarks/hosted_load.py` starts them), racing requests and tickers judging each phase once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from tests.helpers import benchmark
from sqlalchemy import select, update
from tests.hosted.helpers import own_postgres_schema, postgres_url

from adjudicator.hosted.models import Game, PhaseRecord
from adjudicator.hosted.service import Service
from adjudicator.hosted.storage import normalise_url, open_store

cluster = benchmark("cluster")
ORDERS = benchmark("load_api").STANDARD_ORDERS


def _haproxy() -> None:
    if cluster.haproxy_path() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must run the multi-instance test: .ci/run installs haproxy")
        pytest.skip("haproxy is not installed (apt-get install haproxy): the multi-instance test needs a balancer")


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def deployment():
    """Two instances of one worker each behind haproxy on a schema of their own of the test database (the
    tickers judge every due game of their database), started once for this file."""
    postgres_url()
    _haproxy()
    with own_postgres_schema("cluster") as url, cluster.deployment(url, instances=2, workers=1) as dep:
        yield dep


def test_tickers_and_requests_racing_at_deadlines_judge_each_phase_once(deployment):
    svc = Service(open_store(normalise_url(deployment.database)))
    games = [svc.create_game("standard", settings={"phase_seconds": 3600}) for _ in range(12)]
    ids = [g["id"] for g in games]
    with svc.store.transaction() as session:  # every deadline passed a moment ago; the next ones are an hour away
        session.execute(update(Game).where(Game.id.in_(ids)).values(deadline_at=time.time() - 1, wake_at=time.time() - 1))
    tick = [sys.executable, "-m", "adjudicator", "games", "tick", "--database", deployment.database]
    tickers = [subprocess.Popen(tick, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    with ThreadPoolExecutor(6) as pool:  # the first request after a deadline judges the phase too
        views = list(pool.map(lambda g: requests.get(f"{deployment.base}/v1/games/{g['id']}",
                                                     headers=_auth(g["game_master_token"]), timeout=30), games))
    outputs = [t.communicate(timeout=60)[0] for t in tickers]
    assert [t.returncode for t in tickers] == [0, 0], outputs
    assert [r.status_code for r in views] == [200] * 12
    claimed = sum(int(out.split()[-3]) for out in outputs)  # "N phase(s) judged", the tickers' last lines
    with svc.store.sessions() as session:
        records = session.execute(select(PhaseRecord.game_id, PhaseRecord.phase_no, PhaseRecord.trigger)
                                  .where(PhaseRecord.game_id.in_(ids))).all()
    assert sorted(records) == sorted((i, 1, "deadline") for i in ids)  # each game's phase judged once
    assert claimed <= 12, outputs


def test_two_instances_behind_haproxy_judge_each_phase_once_and_survive_a_killed_instance(deployment):
    """Last in the file: it kills one of the module's two instances."""
    lb = deployment.base
    created = requests.post(lb + "/v1/games", json={"variant": "standard"}, timeout=30).json()
    gid, tokens = created["id"], created["tokens"]

    def ready(power: str) -> requests.Response:
        body = {"orders": ORDERS[power], "ready": True, "phase_no": 1}
        return requests.put(f"{lb}/v1/games/{gid}/orders", json=body, headers=_auth(tokens[power]), timeout=30)

    with ThreadPoolExecutor(7) as pool:
        answers = list(pool.map(ready, ORDERS))
    assert [r.status_code for r in answers] == [200] * 7
    assert sum(r.json()["adjudicated"] is not None for r in answers) == 1  # the last to be ready judged it

    gm = _auth(created["game_master_token"])
    with ThreadPoolExecutor(8) as pool:
        races = list(pool.map(lambda _: requests.post(f"{lb}/v1/games/{gid}/adjudicate", json={"phase_no": 2},
                                                      headers=gm, timeout=30), range(8)))
    assert sorted(r.status_code for r in races) == [200] + [409] * 7
    assert {r.headers["X-Served-By"] for r in answers + races} == {"instance1", "instance2"}  # both served
    phases = requests.get(f"{lb}/v1/games/{gid}/phases", headers=gm, timeout=30).json()
    assert [(p["phase_no"], p["trigger"]) for p in phases] == [(1, "ready"), (2, "gm")]
    first = requests.get(f"{lb}/v1/games/{gid}/phases/1", headers=gm, timeout=30).json()
    assert first["orders"] == ORDERS  # every power's orders, judged once, nothing lost

    cluster.stop(deployment.instances[0].proc, grace=0)  # killed: the balancer sends its requests to the other
    views = [requests.get(f"{lb}/v1/games/{gid}", headers=gm, timeout=30) for _ in range(6)]
    assert [(r.status_code, r.headers["X-Served-By"]) for r in views] == [(200, "instance2")] * 6
    assert views[0].json()["phase_no"] == 3


