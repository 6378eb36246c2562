"""SQLite's write lock goes in arrival order between processes (`storage.WriterTurns`): a transaction holds
the `<database>-writers` lock that the kernel hands on at once, instead of other processes polling in SQLite's
busy handler (the latency tails of two workers, `benchmarks/tails.py`)."""

from __future__ import annotations

import subprocess
import sys

from sqlalchemy import text

from adjudicator.hosted.storage import Store

_TRY_LOCK = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
except BlockingIOError:
    sys.exit(1)
"""


def _free_in_another_process(path: str) -> bool:
    return subprocess.run([sys.executable, "-c", _TRY_LOCK, path], timeout=30).returncode == 0


def test_a_transaction_holds_the_writers_turn_until_it_ends(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    turns = f"{tmp_path / 'games.sqlite3'}-writers"
    with store.transaction() as session:
        session.execute(text("SELECT 1"))
        assert not _free_in_another_process(turns)  # another process waits for the kernel, not a busy handler
    assert _free_in_another_process(turns)
    try:
        with store.transaction() as session:
            session.execute(text("SELECT 1"))
            raise RuntimeError("rolled back")
    except RuntimeError:
        pass
    assert _free_in_another_process(turns)  # a rollback ends the turn too
    with store.transaction() as session:  # and this process can take it again
        session.execute(text("SELECT 1"))
    store.dispose()
