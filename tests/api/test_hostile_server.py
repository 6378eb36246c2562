"""Hostile clients against the real server (`adjudicator serve`, gunicorn's gevent worker) on a loopback port:
idle connections, connections that send a byte now and then (headers or body), a chunked body over the limit,
and errors the HTTP layer writes itself, which are problem+json too (issue 16)."""

from __future__ import annotations

import json
import socket
import time

import pytest
import requests

from tests.api_helpers import running_server


@pytest.fixture(scope="module")
def server():
    with running_server(workers=1) as base:  # one worker: a stalled worker would stall everything
        yield base


def _port(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def _healthz_time(base: str) -> float:
    start = time.monotonic()
    r = requests.get(base + "/healthz", timeout=5)
    assert r.status_code == 200 and r.json()["status"] == "ok"
    return time.monotonic() - start


def test_idle_and_slow_connections_do_not_stall_the_server(server):
    port = _port(server)
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(60)]
    slow_headers = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
    slow_bodies = [socket.create_connection(("127.0.0.1", port)) for _ in range(30)]
    try:
        for s in slow_headers:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHo")
        for s in slow_bodies:
            s.sendall(b"POST /v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100000\r\n\r\n{\"state\": ")
        worst = 0.0
        for _ in range(6):  # for about three seconds every slow client sends one more byte, now and then
            for s in slow_headers + slow_bodies:
                try:
                    s.sendall(b"s")
                except OSError:
                    pass
            worst = max(worst, _healthz_time(server))
            time.sleep(0.5)
        assert worst < 1.0, f"/healthz took {worst:.2f} s with 120 slow or idle connections open"
        # a request on the same server still gets judged meanwhile
        start = requests.get(server + "/v1/variants/standard/start", timeout=5).json()
        r = requests.post(server + "/v1/adjudicate", json={"state": start, "orders": {"France": ["A Par - Bur"]}},
                          timeout=10)
        assert r.status_code == 200 and r.json()["orders"][0]["status"] == "succeeds"
    finally:
        for s in idle + slow_headers + slow_bodies:
            s.close()


def test_a_connection_that_never_finishes_its_headers_is_closed(server):
    s = socket.create_connection(("127.0.0.1", _port(server)))
    try:
        s.sendall(b"GET /healthz HTTP/1.1\r\n")
        s.settimeout(15)
        start = time.monotonic()
        assert s.recv(100) == b""  # closed by the server (keepalive seconds), not answered
        assert time.monotonic() - start < 10
    finally:
        s.close()


def test_a_chunked_body_over_the_limit_is_a_413(server):
    def body():
        for _ in range(40):
            yield b"x" * 65536

    r = requests.post(server + "/v1/datc", data=body(), headers={"Content-Type": "text/plain"}, timeout=20)
    assert r.status_code == 413 and r.headers["Content-Type"].startswith("application/problem+json")
    assert "chunked" in r.json()["detail"]

    def small():
        yield json.dumps({"text": "VARIANT_ALL Standard\n"}).encode()

    r = requests.post(server + "/v1/datc", data=small(), headers={"Content-Type": "application/json"}, timeout=20)
    assert r.status_code == 200 and r.json()["cases"] == []


@pytest.mark.parametrize("raw, status", [
    (b"GET /" + b"a" * 6000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    (b"GET /healthz HTTP/1.1\r\n" + b"X-A: b\r\n" * 80 + b"\r\n", 431),
    (b"GET /healthz HTTP/1.1\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n", 431),
    (b"NOT A REQUEST\r\n\r\n", 400),
])
def test_errors_of_the_http_layer_are_problem_json(server, raw, status):
    s = socket.create_connection(("127.0.0.1", _port(server)))
    try:
        s.sendall(raw)
        s.settimeout(5)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < 20:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(f"HTTP/1.1 {status}".encode()), head[:100]
    assert b"Content-Type: application/problem+json" in head
    assert json.loads(body)["status"] == status
