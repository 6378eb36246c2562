"""Helpers for the API tests: the OpenAPI document as a validator, and a real server on a free port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests
from jsonschema import Draft202012Validator

from api.schemas import openapi_document

DOC = openapi_document()


def response_schema(path: str, method: str, status: int, content_type: str) -> dict:
    """The schema the OpenAPI document gives a response."""
    op = DOC["paths"][path][method]
    response = op["responses"].get(str(status))
    assert response is not None, f"{method.upper()} {path} answered {status}, which the document does not list"
    media = response["content"].get(content_type.split(";")[0])
    assert media is not None, f"{method.upper()} {path} {status} answered {content_type}, not in the document"
    return media["schema"]


def check_response(path: str, method: str, response) -> None:
    """Assert a Flask or requests response matches the OpenAPI document."""
    status = response.status_code
    ctype = response.headers.get("Content-Type", "")
    schema = response_schema(path, method, status, ctype)
    if not ctype.startswith(("application/json", "application/problem+json")):
        return  # an image: its media type is listed, which is what the document says of it
    body = response.json() if hasattr(response, "ok") else response.get_json(force=True)
    validator = Draft202012Validator({**schema, "components": DOC["components"]})
    errors = list(validator.iter_errors(body))
    assert not errors, f"{method.upper()} {path} {status}: {errors[0].message} at {list(errors[0].absolute_path)}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_serving(base: str, proc: subprocess.Popen, output) -> None:
    """Wait (30 s at most) until the server at `base` answers; if it stops or hangs, fail with its `output()`."""
    deadline = time.monotonic() + 30
    while True:
        try:
            if requests.get(base + "/healthz", timeout=1).ok:
                return
        except (requests.ConnectionError, requests.Timeout):  # still starting
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the server did not start: " + output()[-2000:])
        time.sleep(0.1)


@contextmanager
def running_server(workers: int = 1):
    """`adjudicator serve` in a subprocess on a free loopback port; yields the base URL."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--workers", str(workers)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base, proc, lambda: proc.stderr.read().decode(errors="replace"))
        yield base
    finally:
        stop(proc)


@contextmanager
def logged_server(folder: Path) -> Iterator[tuple[str, Path]]:
    """`adjudicator serve` on a free loopback port with games in `folder`; yields its URL and its log file
    (gunicorn's access log and error log, as an operator would keep them)."""
    port = free_port()
    log = folder / "server.log"
    env = {**os.environ, "ADJUDICATOR_DATABASE": str(folder / "games.sqlite3")}
    env.pop("ADJUDICATOR_DATABASE_URL", None)
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--host", "127.0.0.1", "--port",
                                 str(port), "--workers", "2"], stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base, proc, lambda: log.read_text(errors="replace"))
        yield base, log
    finally:
        proc.terminate()  # graceful: gunicorn waits (5 s at most) for open connections, so close browsers first
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def stop(proc: subprocess.Popen) -> None:
    """Stop a server process: terminated, killed if it has not ended within 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
