"""Where hosted games are kept: SQLite by default (a file path setting), PostgreSQL by URL; Alembic migrations.

Settings (environment, or the Flask config keys of the same names): `ADJUDICATOR_DATABASE_URL` (any SQLAlchemy
URL; `postgresql://...` uses psycopg 3) or `ADJUDICATOR_DATABASE` (a SQLite file path, default
`adjudicator-games.sqlite3` in the working directory).

Engines hide statements' parameters from their errors: a failed insert's message is logged, and its
parameters would carry a game's webhook secret.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Table, create_engine, event, make_url
from sqlalchemy.dialects.postgresql import Insert as PostgresqlInsert
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import Insert as SqliteInsert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from adjudicator.extras import require_driver

DEFAULT_SQLITE = "adjudicator-games.sqlite3"
_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_LOCK_ID = 0x61646A18  # the PostgreSQL advisory lock that serialises migrations between processes


@dataclass(frozen=True)
class Database:
    """A database URL and the setting it came from (`games tick` says which database it uses, and why)."""

    url: str
    source: str

    @property
    def shown(self) -> str:
        """The URL with any password masked."""
        return make_url(self.url).render_as_string(hide_password=True)

    @property
    def sqlite_file(self) -> Path | None:
        """The SQLite file of the URL (None: another database, or SQLite in memory)."""
        parsed = make_url(self.url)
        if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
            return None
        return Path(parsed.database)


def database(config: dict | None = None) -> Database:
    """The database the settings name (config first, then the environment), or the default SQLite file."""
    config = config or {}
    for key in ("ADJUDICATOR_DATABASE_URL", "ADJUDICATOR_DATABASE"):
        value = config.get(key) or os.environ.get(key)
        if value:
            url = normalise_url(str(value)) if key.endswith("_URL") else sqlite_url(value)
            return Database(url, key)
    return Database(sqlite_url(DEFAULT_SQLITE), f"the default ({DEFAULT_SQLITE})")


def named_database(value: str, source: str) -> Database:
    """The database a command names: a URL, or a SQLite file's path (as ADJUDICATOR_DATABASE is read)."""
    return Database(normalise_url(value) if "://" in value else sqlite_url(value), source)


def sqlite_url(path: str) -> str:
    """The URL of a SQLite file named by its path (relative to the current folder)."""
    return f"sqlite:///{Path(path).resolve()}"


def database_url(config: dict | None = None) -> str:
    """The database URL from the settings (config first, then the environment)."""
    return database(config).url


def normalise_url(url: str) -> str:
    """`postgresql://` and `postgres://` URLs go through psycopg 3 (the driver this project installs)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Store:
    """An engine and its sessions, with the schema migrated to the latest version."""

    RECYCLE_SECONDS = 1800  # a pooled PostgreSQL connection older than this is closed and opened anew

    def __init__(self, url: str):
        self.url = url
        self.sqlite = url.startswith("sqlite")
        if self.sqlite:
            # One writer at a time: every transaction takes SQLite's write lock at BEGIN (BEGIN IMMEDIATE), so
            # a read-then-write never fails half-way; other connections wait (busy timeout) instead of failing.
            self.engine: Engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False},
                                                hide_parameters=True)

            @event.listens_for(self.engine, "connect")
            def _connect(dbapi_conn, _record):  # pragma: no cover - driver plumbing
                dbapi_conn.isolation_level = None  # SQLAlchemy issues BEGIN itself (below)
                cursor = dbapi_conn.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")  # WAL stays consistent; fsync at checkpoints only
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.execute("PRAGMA busy_timeout=30000")
                cursor.close()

            turns = WriterTurns(self.engine.url.database)

            @event.listens_for(self.engine, "begin")
            def _begin(conn):  # pragma: no cover - driver plumbing
                turns.take(conn.info)
                try:
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                except BaseException:
                    turns.give(conn.info)
                    raise

            @event.listens_for(self.engine, "commit")
            @event.listens_for(self.engine, "rollback")
            def _end(conn):  # pragma: no cover - driver plumbing
                turns.give(conn.info)
        else:
            # No ping before each use (a round trip per check-out): connections are renewed after RECYCLE_SECONDS,
            # and one PostgreSQL closed (a restart, an idle timeout) fails its request, which the API retries
            # once (SQLAlchemy drops the pool's older connections with it).
            require_driver(url)  # psycopg is the postgres extra: its absence is one line, not a traceback
            self.engine = create_engine(url, pool_recycle=self.RECYCLE_SECONDS, pool_size=5, max_overflow=10,
                                        hide_parameters=True,
                                        connect_args={"connect_timeout": 10})  # an unreachable server: an error
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.migrate()

    def migrate(self) -> None:
        """Bring the schema to the latest migration (several processes may start at once: one migrates)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        with self.engine.begin() as conn:
            if not self.sqlite:
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_LOCK_ID})")
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction: committed at the end, rolled back on any error."""
        with self.sessions() as session, session.begin():
            yield session

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def unavailable(exc: BaseException) -> bool:
    """Whether a database error says the database cannot be used now, rather than that it refused a statement:
    a server down, unreachable or restarting, a connection lost, a SQLite file that cannot be opened or is
    locked past the busy timeout, a conflict to retry, no pooled connection free in time."""
    return isinstance(exc, (OperationalError, PoolTimeout)) or (
        isinstance(exc, DBAPIError) and exc.connection_invalidated)


def ping(store: Store) -> None:
    """One round trip to the database, reading its schema's version; raises a DBAPIError (as SQLAlchemy wraps
    the driver's) when the database cannot be reached or has lost its schema. A raw connection: on SQLite no
    transaction is begun, so a busy writer's lock does not hold the check up."""
    driver_error = store.engine.dialect.loaded_dbapi.Error
    statement = "SELECT version_num FROM alembic_version"  # Alembic's own table
    try:
        connection = store.engine.raw_connection()
        try:
            cursor = connection.cursor()
            cursor.execute(statement)
            cursor.fetchall()
            cursor.close()
        finally:
            connection.close()
    except driver_error as exc:  # a raw connection's errors are the driver's own: wrapped as a Connection's are
        raise DBAPIError.instance(statement, None, exc, driver_error, hide_parameters=True) from exc


class WriterTurns:
    """SQLite's write lock taken in arrival order by the processes on one file: a transaction first takes this
    process's lock (cooperative under gevent), then an `flock` on `<database>-writers`, which the kernel hands
    to a waiting process at once. Without it a process that finds the write lock taken polls in SQLite's busy
    handler, sleeping up to 100 ms a try, while the other process takes the lock again and again (the latency
    tails of two workers on SQLite, `benchmarks/tails.py`). An in-memory database has no turns."""

    WAIT_SECONDS = 30  # as SQLite's busy timeout: then "database is locked" (503)

    def __init__(self, database: str | None):
        self.path = None if not database or database == ":memory:" else f"{database}-writers"
        self._lock: Any = None
        self._fd: int | None = None
        self._pid = 0

    def take(self, info: dict) -> None:
        """Wait for this connection's turn to write."""
        if self.path is None:
            return
        if self._pid != os.getpid():  # made after the fork (and after gevent patched threading) in each process
            self._lock, self._fd, self._pid = threading.Lock(), None, os.getpid()
        if not self._lock.acquire(timeout=self.WAIT_SECONDS):
            raise sqlite3.OperationalError("database is locked (no turn to write within 30 s)")
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        except BaseException:
            self._lock.release()
            raise
        info["writer_turn"] = True

    def give(self, info: dict) -> None:
        """End this connection's turn (once, whichever of commit and rollback comes)."""
        if info.pop("writer_turn", False):
            assert self._fd is not None  # (opened when the turn was taken)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            self._lock.release()


def upsert_on(sqlite: bool, table: Table) -> PostgresqlInsert | SqliteInsert:
    """An INSERT that can be `on_conflict_do_update`, on SQLite or on PostgreSQL."""
    return (sqlite_insert if sqlite else postgresql_insert)(table)


_stores: dict[str, Store] = {}


def open_store(url: str) -> Store:
    """The process's Store for a URL (one engine per database; the URLs come from settings, so few).

    No lock: under gunicorn's gevent worker a lock made at import (before the worker patches threading) would
    block every greenlet while one migrates; two requests racing here make two Stores and one is dropped."""
    store = _stores.get(url)
    if store is None:
        new = Store(url)
        store = _stores.setdefault(url, new)
        if store is not new:
            new.dispose()
    return store
