"""Has a hosted game changed? A version of what a caller may see of it, and a process's long-poll watcher.

A page holding a game open asks `GET /v1/games/<id>/events?since=<version>`: the answer comes as soon as the
game's version differs from `since` (a seat ready or not, orders sent or withdrawn, a judgement, a pause, the
end, a deadline moved, a vote, civil disorder), or after `seconds` with the same version. Versions are read from
the database, never from the process's memory, so a change made through any instance behind a balancer (or by a
ticker) is seen by every instance.

Bounded: one watcher a process reads the database for every game its waiting requests watch, every `interval`
seconds, in two statements whatever the number of waiters (no statement per waiter, none while nobody waits); a
waiter holds no database connection while it waits, and at most `capacity` wait at once in a process (past it,
or with capacity 0, the answer comes at once and the client asks again later). A wait lasts at most its
`seconds`, under the server's request timeout.

What a version covers is what the caller's game view shows: another seat's orders and readiness only to the game
master or in a game with public readiness, and a secret vote only to its voter (and that one voted to the game
master), so a version never tells a seat what its view would not.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from adjudicator.hosted.models import Game, Seat, Submission
from adjudicator.hosted.storage import Store

log = logging.getLogger("adjudicator.hosted")

VERSION_LENGTH = 20  # hex digits of a version


@dataclass(frozen=True)
class Snapshot:
    """What changes of a game, as read in one pass: its row's state and each seat's and submission's."""

    game: tuple[Any, ...]  # phase, status, deadline, pause, end
    public_readiness: bool
    secret_votes: bool
    seats: dict[str, tuple[Any, ...]]  # power -> (civil disorder, kind, label, vote)
    submissions: dict[str, tuple[Any, ...]]  # power -> (updated, ready, has orders)


def version(snapshot: Snapshot | None, viewer: str | None) -> str:
    """The version of a game as `viewer` (a seat's power; None: the game master) may see it ("gone": no game)."""
    if snapshot is None:
        return "gone"
    sees_all = viewer is None or snapshot.public_readiness
    seats = sorted((power, disorder, kind, label, vote if (viewer == power or not snapshot.secret_votes)
                    else (vote is not None if viewer is None else None))
                   for power, (disorder, kind, label, vote) in snapshot.seats.items())
    subs = sorted((power, *values) for power, values in snapshot.submissions.items() if sees_all or power == viewer)
    text = repr((snapshot.game, seats, subs))
    return hashlib.sha256(text.encode()).hexdigest()[:VERSION_LENGTH]


def read_snapshots(store: Store, game_ids: Iterable[str]) -> dict[str, Snapshot]:
    """The snapshots of these games (a game not stored is left out), in one transaction of three statements."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    with store.sessions() as session:
        games = session.execute(select(Game.id, Game.phase_no, Game.status, Game.deadline_at, Game.paused_at,
                                       Game.paused_until, Game.end, Game.settings).where(Game.id.in_(ids))).all()
        seats = session.execute(select(Seat.game_id, Seat.power, Seat.civil_disorder, Seat.kind, Seat.label,
                                       Seat.vote, Seat.token_hash).where(Seat.game_id.in_(ids))).all()
        subs = session.execute(select(Submission.game_id, Submission.power, Submission.phase_no,
                                      Submission.updated_at, Submission.ready, Submission.orders)
                               .where(Submission.game_id.in_(ids))).all()
    seat_rows: dict[str, dict[str, tuple[Any, ...]]] = {}
    for game_id, power, disorder, kind, label, vote, token_hash in seats:
        # (a new token, a seat handed on, changes the holders shown: its hash stands for it, never shown)
        seat_rows.setdefault(game_id, {})[power] = (bool(disorder), kind, label, repr(vote), token_hash[:8])
    phase_of = {row.id: row.phase_no for row in games}
    sub_rows: dict[str, dict[str, tuple[Any, ...]]] = {}
    for game_id, power, phase_no, updated, ready, orders in subs:
        if phase_of.get(game_id) == phase_no:  # (the current phase's only; others are deleted when judged)
            sub_rows.setdefault(game_id, {})[power] = (updated, bool(ready), bool(orders))
    out = {}
    for row in games:
        settings = row.settings if isinstance(row.settings, dict) else {}
        out[row.id] = Snapshot((row.phase_no, row.status, row.deadline_at, row.paused_at, row.paused_until,
                                repr(row.end)), bool(settings.get("public_readiness")),
                               bool(settings.get("secret_votes")), _seats(seat_rows.get(row.id, {})),
                               sub_rows.get(row.id, {}))
    return out


def _seats(rows: dict[str, tuple[Any, ...]]) -> dict[str, tuple[Any, ...]]:
    """Each seat as `version` reads it: (disorder, kind, label and token, vote)."""
    return {power: (disorder, kind, f"{label}/{token}", None if vote == "None" else vote)
            for power, (disorder, kind, label, vote, token) in rows.items()}


@dataclass(eq=False)
class _Waiter:
    game_id: str
    viewer: str | None
    since: str
    woken: threading.Event = field(default_factory=threading.Event)
    found: str | None = None


class Watcher:
    """A process's waiting requests and the one loop that reads their games' versions (module docstring)."""

    def __init__(self, store: Store, interval: float = 0.5, capacity: int = 200,
                 read: Callable[[Store, Iterable[str]], dict[str, Snapshot]] = read_snapshots):
        self.store = store
        self.interval = interval
        self.capacity = capacity
        self.read = read
        self._waiters: list[_Waiter] = []
        self._lock = threading.Lock()
        self._running = False
        self.closed = False
        _WATCHERS.add(self)

    @property
    def waiting(self) -> int:
        """How many requests wait now."""
        return len(self._waiters)

    def current(self, game_id: str, viewer: str | None) -> str:
        """The game's version now, as `viewer` may see it (one read)."""
        return version(self.read(self.store, [game_id]).get(game_id), viewer)

    def wait(self, game_id: str, viewer: str | None, since: str, seconds: float) -> str | None:
        """The game's version once it differs from `since`, or `since` after `seconds`; None at once when
        `capacity` requests wait already (the caller asks again later)."""
        waiter = _Waiter(game_id, viewer, since)
        with self._lock:
            if self.closed:
                return since  # (the process is stopping: no change now; the client asks again, elsewhere)
            if len(self._waiters) >= self.capacity:
                return None
            self._waiters.append(waiter)
            start = not self._running
            self._running = True
        if start:
            threading.Thread(target=self._loop, name="adjudicator-changes", daemon=True).start()
        try:
            waiter.woken.wait(seconds)
        finally:
            with self._lock:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
        return waiter.found or since

    def close(self) -> None:
        """Answer every waiter now, with no change, and every later wait at once (the process is stopping)."""
        with self._lock:
            self.closed = True
            waiters = list(self._waiters)
        for waiter in waiters:
            waiter.woken.set()

    def _loop(self) -> None:
        """Read the watched games' versions every `interval` seconds while anyone waits, and wake those whose
        game changed; a read that fails is logged and tried again at the next turn."""
        while True:
            with self._lock:
                waiters = list(self._waiters)
                if not waiters:
                    self._running = False
                    return
            started = time.monotonic()
            try:
                snapshots = self.read(self.store, {w.game_id for w in waiters})
            except Exception as exc:  # the database down: the waiters time out and their clients ask again
                log.warning("changes: the games' versions could not be read (%s: %s)", type(exc).__name__, exc)
            else:
                for waiter in waiters:
                    found = version(snapshots.get(waiter.game_id), waiter.viewer)
                    if found != waiter.since:
                        waiter.found = found
                        waiter.woken.set()
            time.sleep(max(0.0, self.interval - (time.monotonic() - started)))


_WATCHERS: weakref.WeakSet[Watcher] = weakref.WeakSet()  # this process's watchers (one an app)


def close_all() -> None:
    """Close every watcher of this process (a server's worker stopping gracefully: its long polls end now)."""
    for watcher in list(_WATCHERS):
        watcher.close()
