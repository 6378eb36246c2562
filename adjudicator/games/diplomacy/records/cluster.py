"""A dataset replayed on a Dask cluster (the `cluster` extra): one a user already has, named by its scheduler's
address (`tcp://host:8786`), or a LocalCluster of worker processes started for the run (`local`, `local:N`).

The client reads the files and splits the work by games: batches of a few games, each sent with its games' text
(the workers need not see the files, only have this package installed), at most a few batches per worker thread
in flight, so memory stays flat on both sides whatever the dataset's size. Results come back as they complete
(`as_completed`) and are handed on in the dataset's order, the same records as `replay_all`'s, each with its
game's location (`where`). A worker lost mid-run costs only its batches: the scheduler keeps each task (its games
with it) until its result is read, so it hands a lost worker's batches to another (and the task's `retries` cover
one that raised); a batch that still fails is an error record for each of its games, the run goes on. A game file
(`.yaml`, which may name a board file beside it) or a file that cannot be read is handled by the client itself.

Dask rather than Ray: pure Python and pip-installable wherever this package runs, a LocalCluster for the tests
and for one machine, and `dask.distributed` redoes the tasks of a lost worker by itself."""

from __future__ import annotations

import importlib.metadata
import logging
import os
import re
import uuid
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.extras import PACKAGE, first_line, require
from adjudicator.games.diplomacy.records.dataset import Item, item_records, items
from adjudicator.games.diplomacy.records.notation import RecordError

BATCH = 16  # games a task: about 0.2 s of work on the package's games, against a few ms of Dask's per task
IN_FLIGHT = 4  # batches per worker thread sent and not yet handed on: enough to keep every worker busy
RETRIES = 2  # a batch that raised is run again this often (a lost worker's batches are redone regardless)
CONNECT_TIMEOUT = 10.0  # seconds to reach the scheduler, and then to see a first worker
_LOCAL = re.compile(r"local(?::([1-9][0-9]{0,2}))?\Z")

Records = list[dict[str, Any]]


@dataclass(frozen=True)
class Target:
    """Where to replay: a scheduler's address, or a LocalCluster of `workers` processes (address None)."""

    address: str | None
    workers: int = 0

    @property
    def name(self) -> str:
        """The target as the user named it."""
        return self.address or f"local:{self.workers}"


def parse_target(text: str) -> Target:
    """`local`, `local:N` (N worker processes, 1 to 999; `local` is one per core), or a scheduler's address
    (`tcp://host:8786`, `host:8786`, `tls://...`)."""
    text = text.strip()
    local = _LOCAL.match(text)
    if local:
        return Target(None, int(local.group(1)) if local.group(1) else os.cpu_count() or 1)
    if text.startswith("local:"):
        raise AdjudicatorError(f"--cluster {text!r}: a local cluster is `local` or `local:N`, N worker processes "
                               "from 1 to 999")
    if not re.fullmatch(r"([a-z][a-z0-9+.-]*://)?[^\s/]+(:[0-9]{1,5})?/?", text):
        raise AdjudicatorError(f"--cluster {text!r}: not a scheduler address; give one as `tcp://HOST:8786`, or "
                               "`local` / `local:N` for a cluster of N worker processes on this machine")
    return Target(text)


def connect(target: Target, stack: ExitStack, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A Dask client of the target (a LocalCluster started for it), closed with `stack`; a scheduler that does not
    answer, or has no worker, or workers without this package, within `timeout` seconds is a clear error."""
    require("cluster", "adjudicator replay --cluster")
    from distributed import Client, LocalCluster  # (the cluster extra: checked just above)

    if target.address is None:  # (on loopback only, the dashboard on a free port: two runs never clash over one;
        # its processes' logs kept to the critical: a batch that failed for good is already an error record)
        cluster = stack.enter_context(LocalCluster(n_workers=target.workers, threads_per_worker=1, processes=True,
                                                   host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                                   silence_logs=logging.CRITICAL))
        return stack.enter_context(Client(cluster))
    try:
        client = stack.enter_context(Client(target.address, timeout=timeout))
    except (OSError, TimeoutError) as exc:
        raise AdjudicatorError(f"--cluster {target.address}: no Dask scheduler answered there within {timeout:g} s "
                               f"({first_line(exc)}); start one with `dask scheduler` (and workers with "
                               f"`dask worker {target.address}`), or give `local:N`") from None
    except Exception as exc:  # (something answered, and not as a scheduler does: its reply read as nonsense)
        raise AdjudicatorError(f"--cluster {target.address}: what answered there is not a Dask scheduler (or not "
                               f"one this client can talk to): {type(exc).__name__}: {first_line(exc)}") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise AdjudicatorError(f"--cluster {target.address}: the scheduler has no worker (none came within "
                               f"{timeout:g} s: {first_line(exc)}); start some with `dask worker "
                               f"{target.address}`") from None
    check_workers(client)
    return client


def check_workers(client: Any) -> None:
    """Every worker has this package installed (its tasks would fail on each batch otherwise)."""
    try:
        versions = client.run(importlib.metadata.version, PACKAGE, on_error="return")
    except Exception as exc:  # (a worker gone in between: its batches are redone elsewhere)
        versions = {"": exc}
    missing = sorted(w for w, v in versions.items() if isinstance(v, BaseException))
    if missing:
        raise AdjudicatorError(f"the cluster's workers ({', '.join(missing)}) do not have {PACKAGE} installed: "
                               f"install it on each (`pip install {PACKAGE}`) and start them again")


def replay_on(client: Any, paths: Iterable[str], rules: str | None = None, every_phase: bool = False,
              batch: int = BATCH, in_flight: int | None = None, ordered: bool = True,
              retries: int = RETRIES) -> Iterator[Records]:
    """Each game's JSONL records, replayed on the client's cluster: in the dataset's order (`ordered`, the records
    `replay_all` gives), or as they complete. At most `in_flight` batches (default IN_FLIGHT per worker thread)
    are out at once, sent or waiting to be handed on."""
    from distributed import as_completed  # (the cluster extra, which a client implies)

    window = in_flight or IN_FLIGHT * max(1, sum(client.nthreads().values()))
    token = uuid.uuid4().hex[:12]  # (task keys of their own: two runs on one cluster never share a result)
    batches = _batches(items(paths), batch)
    done: dict[int, list[Records]] = {}  # batches back and not yet handed on, by their place in the dataset
    sent: dict[str, tuple[int, list[Item], Any]] = {}  # each batch out: its place, its games, its future
    pending = as_completed()
    submitted = handed = 0
    exhausted = False

    def fill() -> None:
        nonlocal submitted, exhausted
        while not exhausted and submitted - handed < window:
            part = next(batches, None)
            if part is None:
                exhausted = True
            elif isinstance(part, list):
                future = client.submit(replay_batch, part, rules, every_phase, key=f"replay-{token}-{submitted}",
                                       retries=retries)
                sent[future.key] = (submitted, part, future)
                pending.add(future)
            else:  # (replayed here: a game file, or the error of a file not read)
                done[submitted] = [item_records(part, rules, every_phase)]
            if part is not None:
                submitted += 1

    try:
        fill()
        while handed < submitted:
            ready = handed if ordered else next(iter(done), -1)  # (-1: none back yet)
            if ready in done:
                records = done.pop(ready)
                handed += 1
                yield from records
                fill()
                continue
            future = next(pending)
            index, part, _ = sent.pop(future.key)
            done[index] = _result(future, part)
            future.release()
    finally:  # (Ctrl-C, or the reader stopping early: the batches not yet back are cancelled)
        if sent:
            client.cancel([future for _, _, future in sent.values()])
        pending.clear()


def replay_cluster(target: str | Target, paths: Iterable[str], rules: str | None = None, every_phase: bool = False,
                   timeout: float = CONNECT_TIMEOUT, **options: Any) -> Iterator[Records]:
    """`replay_on` a cluster named by its address or `local:N`, connected for the run and closed after it."""
    with ExitStack() as stack:
        client = connect(parse_target(target) if isinstance(target, str) else target, stack, timeout)
        yield from replay_on(client, paths, rules, every_phase, **options)


def replay_batch(batch: list[Item], rules: str | None, every_phase: bool) -> list[Records]:
    """A worker's task: each game of the batch replayed, its records."""
    return [item_records(item, rules, every_phase) for item in batch]


def _batches(stream: Iterable[Item | RecordError], size: int) -> Iterator[list[Item] | Item | RecordError]:
    """The dataset's JSON games in batches of `size`, in order; a game file or an error on its own, in its place."""
    part: list[Item] = []
    for item in stream:
        if isinstance(item, Item) and item.text is not None:
            part.append(item)
            if len(part) >= size:
                yield part
                part = []
            continue
        if part:
            yield part
            part = []
        yield item
    if part:
        yield part


def _result(future: Any, part: list[Item]) -> list[Records]:
    """A batch's records; a batch that failed for good (it raised on every try, or killed its workers) is an
    error record for each of its games."""
    try:
        result: list[Records] = future.result()
        return result
    except Exception as exc:
        why = f"not replayed on the cluster: {type(exc).__name__}: {first_line(exc)}"
        return [[{"verdict": "error", "where": item.where, "error": f"{item.where}: {why}"}] for item in part]
