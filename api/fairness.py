"""Requests of an event-loop worker served in arrival order, whichever connection they come on (issue 34).

Why: on a gevent worker a judgement is CPU work that never yields, and gevent's sockets read without
yielding when data is already there. A kept-alive connection whose next request arrived while its last one
was judged was served again at once, over and over, while the other connections (and new ones, waiting to be
accepted) waited: a median of 3 ms but a p99 of seconds. Two pieces, used by `api.server`:

- `yield_to_ready()`: after each answer a connection waits one turn of the event loop, behind every
  connection the loop finds ready (new requests, new connections), before it reads its next request;
- `ArrivalGate` (applied by `GatedApp`): the application runs for one request at a time per worker, in the
  order the requests reached it (first come, first served; nobody jumps the queue when the gate is left).
  The request body is read before the request queues and the answer written after its turn, so a slow
  client holds only its own connection; liveness checks and pictures (`outside_gate`) do not queue. Time spent queued counts
  in the worker's `timeout` for the request. Among requests the loop found ready in the same turn (all that
  arrived while one was judged) the order is the loop's: the kernel's sockets do not say which came first.
"""

from __future__ import annotations

import io
from collections import deque
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

import gevent
from gevent.event import Event

from api.bodies import read_at_most

BYPASS = frozenset({"/healthz", "/readyz"})  # answered at once: a liveness check must not queue behind judging


def outside_gate(path: str) -> bool:
    """Whether a request is not queued at the gate: the liveness checks, the pictures, which wait for their
    own bounded queue and drawing process (`adjudicator/pictures.py`) and must not hold judging up meanwhile, and
    the long polls of games' changes (`adjudicator/hosted/changes.py`), which wait for a game to change."""
    return path in BYPASS or path == "/v1/render" or (path.startswith("/v1/games/") and path.endswith(
        ("/picture", "/events")))

_BELOW_IO = -1  # libev priority: a waiting connection resumes after the loop's I/O watchers (priority 0)

WSGIApp = Callable[[MutableMapping[str, Any], Callable[..., Any]], Iterable[bytes]]


def yield_to_ready() -> None:
    """Wait one turn of the event loop, after every connection it finds ready has had its turn."""
    hub = gevent.get_hub()
    timer = hub.loop.timer(0, priority=_BELOW_IO)
    try:
        hub.wait(timer)
    finally:
        timer.close()


class ArrivalGate:
    """One holder at a time, the others in the order they came. The gate passes to the first waiter only after
    the event loop has polled (a turn below its I/O): between two requests the worker reads whatever arrived
    meanwhile, accepts new connections, and those requests queue in turn; nobody jumps the queue meanwhile."""

    def __init__(self) -> None:
        self._waiting: deque[Event] = deque()
        self._held = False  # held by a request, or reserved for the first waiter until the loop has polled

    @property
    def waiting(self) -> int:
        """How many wait for the gate."""
        return len(self._waiting)

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold the gate for the block, after everyone who came first."""
        self._enter()
        try:
            yield
        finally:
            self._leave()

    def _enter(self) -> None:
        handed = Event()
        self._waiting.append(handed)
        if not self._held:
            self._held = True
            self._pass_on_later()
        try:
            handed.wait()
        except BaseException:  # the request's time ran out (gevent.Timeout) or its greenlet was killed
            if handed.is_set():
                self._leave()  # handed the gate just now: pass it on
            else:
                self._waiting.remove(handed)
            raise

    def _leave(self) -> None:
        if self._waiting:
            self._pass_on_later()  # still held (reserved) meanwhile
        else:
            self._held = False

    def _pass_on_later(self) -> None:
        timer = gevent.get_hub().loop.timer(0, priority=_BELOW_IO)
        timer.start(self._pass_on, timer)

    def _pass_on(self, timer: Any) -> None:
        timer.close()
        if self._waiting:
            self._waiting.popleft().set()
        else:
            self._held = False  # the one it was reserved for gave up


class GatedApp:
    """A WSGI application run under an `ArrivalGate`: body read first, answer collected before the gate is left
    (the answer is then written outside it, so a client reading slowly holds only its own connection)."""

    def __init__(self, app: WSGIApp, body_limit: int):
        self.app = app
        self.body_limit = body_limit
        self.gate = ArrivalGate()

    def __call__(self, environ: MutableMapping[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        if outside_gate(environ.get("PATH_INFO", "")):
            return self._collect(environ, start_response)
        _read_body_first(environ, self.body_limit)
        with self.gate.turn():
            return self._collect(environ, start_response)

    def _collect(self, environ: MutableMapping[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        result = self.app(environ, start_response)
        try:
            return list(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()


def _read_body_first(environ: MutableMapping[str, Any], limit: int) -> None:
    """Read the body into memory (at most `limit` + 1 bytes: a longer one is refused whole by the app, as
    before). A declared length past the limit is left unread: the app refuses it (413) without reading."""
    stream = environ.get("wsgi.input")
    if stream is None:
        return
    declared = environ.get("CONTENT_LENGTH") or ""
    if declared:
        if not declared.isdigit() or int(declared) > limit:
            return
        data = stream.read(int(declared))
    elif environ.get("wsgi.input_terminated"):  # chunked, or no body: read to its end
        data = read_at_most(stream, limit)
    else:
        return
    environ["wsgi.input"] = io.BytesIO(data)
