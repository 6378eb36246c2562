"""Requests are served in arrival order, whichever connection they come on (issue 34, `api/fairness.py`).

The real server (gunicorn, the project's gevent worker, one worker) in front of an application that keeps the
CPU busy for each request, as a judgement does (`tests/api/slow_app_server.py`). What is checked is the order the
answers come back in, never how long they took."""

from __future__ import annotations

import io
import os
import selectors
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import gevent

from api.fairness import ArrivalGate, GatedApp
from tests.api_helpers import free_port, stop, wait_until_serving
from tests.helpers import ROOT

SLOW_MS = 300  # each request's CPU time: long enough for every client below to send while one is served


@contextmanager
def slow_server(fair: bool) -> Iterator[int]:
    """The slow application's server on a free port, in the fair order or the old one; its port."""
    port = free_port()
    env = os.environ | {"ADJUDICATOR_FAIR_SERVICE": "1" if fair else "0"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "api" / "slow_app_server.py"), str(port), str(SLOW_MS)],
                            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", proc, lambda: proc.stderr.read().decode(errors="replace"))
        yield port
    finally:
        stop(proc)


def _request(tag: str, path: str = "/work") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: x\r\nX-Tag: {tag}\r\n\r\n".encode()


def _answers(conns: dict[str, socket.socket], expected: int, seconds: float = 60) -> list[str]:
    """The tags of the answers, in the order they arrived, whichever connection each came on."""
    order: list[str] = []
    buffers = dict.fromkeys(conns, b"")
    with selectors.DefaultSelector() as sel:
        for name, s in conns.items():
            sel.register(s, selectors.EVENT_READ, name)
        deadline = time.monotonic() + seconds
        while len(order) < expected and time.monotonic() < deadline:
            for key, _ in sel.select(timeout=1):
                data = key.fileobj.recv(65536)
                assert data, f"connection {key.data} closed"
                buffers[key.data] += data
                while b"\r\n\r\n" in buffers[key.data]:  # whole answers: headers, then the tag as the body
                    head, rest = buffers[key.data].split(b"\r\n\r\n", 1)
                    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                    if len(rest) < length:
                        break
                    order.append(rest[:length].decode())
                    buffers[key.data] = rest[length:]
    return order


def served_order(port: int) -> list[str]:
    """One connection, p, sends a request; while it is served, connections a, b, c and d send one each, then p
    sends three more at once (pipelined, so they are all there when its first answer is written)."""
    names = ["p", "a", "b", "c", "d"]
    conns = {n: socket.create_connection(("127.0.0.1", port)) for n in names}
    try:
        for name, s in conns.items():  # each connection accepted and answered once before the measure
            s.sendall(_request(f"{name}0", "/healthz"))  # answered at once
            assert _answers({name: s}, 1) == [f"{name}0"]
        conns["p"].sendall(_request("p1"))
        time.sleep(SLOW_MS / 1000 / 4)  # p1 is being served now
        for name in names[1:]:
            conns[name].sendall(_request(f"{name}1"))
        conns["p"].sendall(b"".join(_request(f"p{i}") for i in (2, 3, 4)))
        return _answers(conns, 8)
    finally:
        for s in conns.values():
            s.close()


def test_requests_are_served_in_arrival_order_whichever_connection_they_come_on():
    with slow_server(fair=True) as port:
        order = served_order(port)
    assert len(order) == 8, order
    assert order[0] == "p1", order
    # a, b, c and d arrived before p2..p4 (while p1 was served): all of them are answered before p's next
    assert sorted(order[1:5]) == ["a1", "b1", "c1", "d1"], order
    assert order[5:] == ["p2", "p3", "p4"], order


def test_the_old_order_served_one_connection_over_and_over():
    """The same clients against the old order (`ADJUDICATOR_FAIR_SERVICE=0`): p's requests, already there,
    went first. This is what the test above would see without the fix (so it can fail)."""
    with slow_server(fair=False) as port:
        order = served_order(port)
    assert order[:4] == ["p1", "p2", "p3", "p4"], order


def test_the_gate_goes_in_order_and_a_waiter_that_gives_up_does_not_keep_it():
    gate, held = ArrivalGate(), []

    def request(name: str, hold: float, patience: float | None = None) -> None:
        with gevent.Timeout(patience, False):  # False: giving up ends the greenlet quietly
            with gate.turn():
                held.append(name)
                gevent.sleep(hold)

    first = gevent.spawn(request, "first", 0.05)
    gevent.sleep(0.01)  # first holds the gate now
    others = [gevent.spawn(request, "impatient", 0, 0.01)] + [gevent.spawn(request, n, 0) for n in "abc"]
    queued_then_killed = gevent.spawn(request, "killed", 0)
    last = gevent.spawn(request, "last", 0)
    gevent.sleep(0)
    queued_then_killed.kill(block=False)  # still queued: it leaves the queue
    gevent.joinall([first, *others, queued_then_killed, last], timeout=5)
    assert held == ["first", "a", "b", "c", "last"]
    assert gate.waiting == 0
    with gevent.Timeout(1):
        with gate.turn():  # free again
            held.append("again")
    assert held[-1] == "again"


def test_a_picture_waiting_for_its_drawing_process_does_not_hold_the_gate():
    seen = []

    def app(environ, start_response):
        seen.append((environ["PATH_INFO"], gated.gate.waiting, gated.gate._held))
        start_response("200 OK", [])
        return [b""]

    gated = GatedApp(app, body_limit=1024)
    for path in ("/v1/render", "/v1/games/g1/phases/2/picture", "/healthz", "/v1/adjudicate"):
        gated({"PATH_INFO": path, "wsgi.input": io.BytesIO(b""), "CONTENT_LENGTH": "0"}, lambda *a: None)
    assert [held for _, _, held in seen] == [False, False, False, True]
