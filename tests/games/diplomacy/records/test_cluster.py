"""Issue 37: `adjudicator replay` on a Dask cluster (the cluster extra). On a LocalCluster of 2 worker processes,
named by its scheduler's address, the package's 200 games give the same records, in the same order, and the same
summary as the local replay; a worker killed mid-run costs only its batches, redone elsewhere, and the result is
still whole and the same; game files and unreadable lines are handled in their place; an address where no
scheduler answers, or something else does, is one clear error within the timeout."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from contextlib import ExitStack

import pytest

from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.records import cluster as on_cluster
from adjudicator.games.diplomacy.records.dataset import Item, Summary, replay_all
from tests.games.diplomacy.records.helpers import FIXTURE, package_games
from tests.helpers import cli


@pytest.fixture(scope="module")
def local_cluster():
    """A LocalCluster of 2 worker processes (one thread each) for the module's tests."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0") as cluster:
        yield cluster


@pytest.fixture(scope="module")
def local_records():
    """The fixture's records replayed in this process (what every cluster run must give)."""
    return _flat(replay_all([str(FIXTURE)]))


def _flat(runs) -> list[dict]:
    return [record for records in runs for record in records]


def _summary(records: list[dict]) -> Summary:
    summary = Summary()
    for record in records:
        summary.add(record)
    return summary


def test_the_fixture_on_two_workers_gives_the_local_records_and_summary(local_cluster, local_records):
    records = _flat(on_cluster.replay_cluster(local_cluster.scheduler_address, [str(FIXTURE)]))
    assert records == local_records  # (the same records in the dataset's order)
    summary = _summary(records)
    assert summary == _summary(local_records) and summary.games == 200 and summary.errors == 0


def test_a_worker_killed_mid_run_costs_only_its_share(local_cluster, local_records):
    from distributed import Client

    with Client(local_cluster) as client:
        client.wait_for_workers(2, timeout=60)
        records: list[dict] = []
        killed: tuple = ()
        for i, game in enumerate(on_cluster.replay_on(client, [str(FIXTURE)], batch=4)):
            records += game
            if i == 8:  # (well into the run: 200 games in 50 batches, at most 8 of them out)
                processing = client.processing()
                victim = max(processing, key=lambda w: len(processing[w]))
                killed = (victim, processing[victim])
                client.run(os._exit, 1, workers=[victim], on_error="ignore")  # (a crash: no goodbye)
        assert killed[1], "the killed worker was replaying no batch"
        assert killed[0] not in client.nthreads()  # (gone: its nanny starts a new one, at a new address)
        assert records == local_records  # its batches redone by another worker: whole, and the same
        client.wait_for_workers(2, timeout=60)  # (the next test has both again)


def test_records_as_they_complete_are_the_same_records(local_cluster, local_records, tmp_path):
    path = tmp_path / "some.jsonl"
    path.write_text("".join(package_games()[:20]), encoding="utf-8")
    from distributed import Client

    with Client(local_cluster) as client:
        records = _flat(on_cluster.replay_on(client, [str(path)], batch=3, ordered=False))
    ordered = _flat(replay_all([str(path)]))
    key = lambda r: json.dumps(r, sort_keys=True)  # noqa: E731
    assert sorted(records, key=key) == sorted(ordered, key=key) and len(records) == len(ordered)


def test_stopping_early_cancels_the_batches_out(local_cluster):
    """What Ctrl-C does (the reader stops): the run's batches still out are cancelled, the scheduler keeps none."""
    from distributed import Client

    def tasks(dask_scheduler) -> int:
        return sum(key.startswith("replay-") for key in dask_scheduler.tasks)

    with Client(local_cluster) as client:
        runs = on_cluster.replay_on(client, [str(FIXTURE)], batch=2)
        assert next(runs)[-1]["verdict"] == "game"
        assert client.run_on_scheduler(tasks) > 0
        runs.close()
        deadline = time.monotonic() + 10
        while client.run_on_scheduler(tasks) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert client.run_on_scheduler(tasks) == 0


def test_game_files_and_unreadable_lines_keep_their_place(local_cluster, tmp_path):
    lines = [line.strip() for line in package_games()[:5]]
    lines.insert(2, lines[2][:100])  # a truncated line
    (tmp_path / "a.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "one.jsonl").write_text(package_games()[7], encoding="utf-8")
    assert cli("convert", tmp_path / "one.jsonl", "-o", tmp_path / "b.yaml").exit_code == 0
    (tmp_path / "c.jsonl.gz").write_bytes(b"not gzip")  # a file that cannot be read
    (tmp_path / "one.jsonl").unlink()
    local = _flat(replay_all([str(tmp_path)]))
    records = _flat(on_cluster.replay_cluster(local_cluster.scheduler_address, [str(tmp_path)], batch=2))
    assert records == local
    assert [r["where"].rsplit("/", 1)[-1] for r in records if r["verdict"] == "game"] == \
           [f"a.jsonl line {n}" for n in (1, 2, 4, 5, 6)] + ["b.yaml"]
    assert sum(r["verdict"] == "error" for r in records) == 2


def test_the_command_on_a_cluster_writes_what_it_writes_locally(local_cluster, tmp_path):
    path = tmp_path / "some.jsonl"
    path.write_text("".join(package_games()[:6]), encoding="utf-8")
    here, there = tmp_path / "here.jsonl", tmp_path / "there.jsonl"
    assert cli("replay", path, "--every-phase", "-o", here).exit_code == 0
    result = cli("replay", path, "--every-phase", "-o", there, "--cluster", local_cluster.scheduler_address)
    assert result.exit_code == 0, result.output
    assert there.read_text() == here.read_text() and re.search(r"games replayed +6\n", result.output)


def test_a_batch_that_fails_for_good_is_an_error_for_each_of_its_games():
    class Failed:
        def result(self):
            raise RuntimeError("KilledWorker: attempted to run task on 3 different workers\nmore")

    part = [Item("g.jsonl", 3, "{}"), Item("g.jsonl", 4, "{}")]
    assert on_cluster._result(Failed(), part) == [
        [{"verdict": "error", "where": f"g.jsonl line {n}",
          "error": f"g.jsonl line {n}: not replayed on the cluster: RuntimeError: KilledWorker: attempted to run "
                   "task on 3 different workers"}] for n in (3, 4)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_address_where_nothing_answers_is_one_clear_error():
    result = cli("replay", FIXTURE, "--cluster", f"tcp://127.0.0.1:{_free_port()}", "--cluster-timeout", "1")
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("error: --cluster tcp://127.0.0.1:") and "no Dask scheduler answered there within 1 s" in line


def test_an_address_where_something_else_answers_is_one_clear_error():
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer() -> None:  # (an HTTP server's reply to whatever it is sent, then the connection closed)
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

    threading.Thread(target=answer, daemon=True).start()
    try:
        result = cli("replay", FIXTURE, "--cluster", f"tcp://127.0.0.1:{port}", "--cluster-timeout", "2")
    finally:
        server.close()
    assert result.exit_code == 2, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"error: --cluster tcp://127.0.0.1:{port}: ") and "Traceback" not in result.output


@pytest.mark.parametrize("address, message", [
    ("local:0", "a local cluster is `local` or `local:N`"),
    ("localhost cluster", "not a scheduler address"),
    ("http://h:8786/x/y", "not a scheduler address"),
])
def test_a_malformed_address_is_refused(address, message):
    with pytest.raises(AdjudicatorError, match=message):
        on_cluster.parse_target(address)


def test_the_targets_read():
    assert on_cluster.parse_target("local:3") == on_cluster.Target(None, 3)
    assert on_cluster.parse_target("local").workers == (os.cpu_count() or 1)
    assert on_cluster.parse_target(" tcp://10.0.0.5:8786 ").address == "tcp://10.0.0.5:8786"
    assert on_cluster.parse_target("sched:8786").address == "sched:8786"
    assert on_cluster.parse_target("localhost:8786").address == "localhost:8786"


def test_cluster_and_workers_are_exclusive():
    result = cli("replay", FIXTURE, "--cluster", "local:2", "--workers", "2")
    assert result.exit_code == 2 and "--cluster and --workers 2: give one" in result.output


def test_a_scheduler_without_workers_is_one_clear_error():
    from distributed import LocalCluster

    with ExitStack() as stack:
        empty = stack.enter_context(LocalCluster(n_workers=0, processes=False, dashboard_address="127.0.0.1:0"))
        with pytest.raises(AdjudicatorError, match="the scheduler has no worker"):
            on_cluster.connect(on_cluster.Target(empty.scheduler_address), stack, timeout=1)
