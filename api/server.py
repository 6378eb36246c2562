"""`adjudicator serve`: the API behind gunicorn, with event-loop workers a slow client cannot stall.

Why this stack (issue 16): with gunicorn's `sync` or `gthread` workers each connection holds a worker or a
thread while its request is read, so a few connections that send a byte now and then (or nothing) stall the
server. The `gevent` worker reads every connection in its own greenlet on one event loop: an idle or slow
connection costs a few kilobytes, not a worker, and the workers answer the requests that are complete.
Bounds, all enforced here or in `api/__init__.py`:

- request line, header count and header size (gunicorn's parser refuses them: 414 / 431 / 400);
- the headers of each request must arrive within `keepalive` seconds, and a whole request (body, judging,
  answer) must be done within `timeout` seconds on the event-loop worker, else the connection is closed;
- the body: `MAX_CONTENT_LENGTH`, for chunked bodies too (413, checked before the application reads it);
- connections per worker (`worker_connections`): past it, new connections wait in the listen backlog;
- a request that keeps a worker's CPU busy past `timeout` seconds gets the worker restarted by gunicorn;
- requests are served in arrival order, whichever connection they come on (`api/fairness.py`: a connection
  that was just answered waits for the others, and the application runs for one request at a time per
  worker, first come first served; its body is read before it queues). `ADJUDICATOR_FAIR_SERVICE=0` selects
  the old order (each connection served as soon as its greenlet runs), for `benchmarks/tails.py` to compare.

Errors the HTTP layer writes itself (a malformed request line, too many headers...) are problem+json too.
"""

from __future__ import annotations

import json
import os
from typing import Any

import gevent
from gunicorn import util
from gunicorn.app.base import BaseApplication
from gunicorn.workers.ggevent import GeventWorker

from adjudicator.hosted import changes
from api import MAX_BODY, create_app
from api.fairness import GatedApp, yield_to_ready

WORKER_CLASSES = ("gevent", "gthread", "sync")

_PROBLEM_TYPE = "https://github.com/arctic-adjudicator/problems/"


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own error answers (bad request line, header limits...) as problem+json, not HTML."""
    body = json.dumps({"type": _PROBLEM_TYPE + reason.lower().replace(" ", "-"), "title": reason,
                       "status": status_int, "detail": mesg or reason}).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    util.write_nonblock(sock, head + body)


def _problem_errors(server: Any, worker: Any) -> None:
    """gunicorn's `post_fork` hook: in each worker process (any worker class), its error writer is ours."""
    util.write_error = write_problem


def fair_service() -> bool:
    """Are requests served in arrival order (the default)? `ADJUDICATOR_FAIR_SERVICE=0` says no."""
    return os.environ.get("ADJUDICATOR_FAIR_SERVICE", "1").strip() != "0"


class ProblemGeventWorker(GeventWorker):
    """The gevent worker, bounding each request's time and serving requests in arrival order."""

    def load_wsgi(self) -> None:
        """The application, behind this worker's arrival gate (made after the fork: a gate per worker)."""
        super().load_wsgi()
        self.fair = fair_service()
        if self.fair:
            limit = getattr(self.wsgi, "config", {}).get("MAX_CONTENT_LENGTH") or MAX_BODY
            self.wsgi = GatedApp(self.wsgi, limit)

    def handle_exit(self, sig: Any, frame: Any) -> None:
        """A graceful stop: the long polls waiting for games' changes are answered at once (no change), so the
        worker does not wait out its graceful timeout for them (moved out of the signal handler, as gunicorn's
        own `handle_quit`)."""
        super().handle_exit(sig, frame)
        gevent.spawn(changes.close_all)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> bool:
        """One request, its connection closed if it is not done within `timeout` seconds (a client sending
        its body, or reading the answer, a byte at a time holds only its own greenlet, and only that long);
        then the connection lets every other ready one go first, even if its next request is already here."""
        timer = gevent.Timeout(self.cfg.timeout)
        timer.start()
        try:
            keep = super().handle_request(listener_name, req, sock, addr)
        except gevent.Timeout as exc:
            if exc is not timer:
                raise
            # Part of an answer may be sent already: writing an error now could corrupt it, so just close.
            self.log.warning("request from %s not done within %s s: connection closed", addr, timer.seconds)
            raise StopIteration() from None
        finally:
            timer.close()
        if self.fair:
            yield_to_ready()
        return keep


class _Server(BaseApplication):
    def __init__(self, options: dict[str, Any]):
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return create_app()


def server_options(host: str = "127.0.0.1", port: int = 8000, workers: int = 2, threads: int = 1,
                   timeout: int = 30, worker_class: str = "gevent", connections: int = 1000) -> dict[str, Any]:
    """The gunicorn settings `serve` runs with (see the module's docstring for why each is there)."""
    if worker_class not in WORKER_CLASSES:
        raise ValueError(f"unknown worker class {worker_class!r}; use {', '.join(WORKER_CLASSES)}")
    options: dict[str, Any] = {
        "bind": f"{host}:{port}", "workers": workers, "timeout": timeout, "graceful_timeout": 5,
        "keepalive": 3,  # seconds an idle kept-alive connection, or one still sending its headers, is kept
        "limit_request_line": 4094, "limit_request_fields": 50, "limit_request_field_size": 8190,
        "accesslog": "-",
        # No query string, no Basic user name, no Referer: each may carry a token someone put in a URL (issue 26).
        "access_log_format": '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(D)sus "%(a)s"',
        "logger_class": "api.access_log.Logger",  # every field and line escaped: no client writes a line of its own
        # The app is loaded once in the master and forked: a worker answers as soon as it starts (gevent
        # patches the standard library in the worker; the app starts no threads and opens no sockets first).
        "preload_app": True,
        "control_socket_disable": True,  # no control socket shared by two servers on one machine
        "post_fork": _problem_errors,
    }
    if worker_class == "gevent":
        options.update(worker_class="api.server.ProblemGeventWorker", worker_connections=connections)
    else:
        options.update(worker_class=worker_class, threads=threads)
    return options


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 2, threads: int = 1, timeout: int = 30,
          worker_class: str = "gevent", connections: int = 1000) -> None:
    """Run the API until interrupted."""
    if worker_class != "gevent":  # a waiting long poll would hold a thread or a whole worker: none waits
        os.environ.setdefault("ADJUDICATOR_EVENT_WAITERS", "0")
    if worker_class == "gevent":
        # Patched in the master, before the app is preloaded, as gevent asks: the modules the app imports see
        # the patched standard library, and a forked worker is ready at once (patching costs ~0.5 s a worker).
        from gevent import monkey

        monkey.patch_all()
    _Server(server_options(host, port, workers, threads, timeout, worker_class, connections)).run()
