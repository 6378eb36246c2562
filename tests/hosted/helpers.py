"""Hosted services for the tests: the test PostgreSQL database (and a schema of a test's own), the API's test
client checked against the OpenAPI document, a loopback webhook receiver, a hand-moved clock, and the example
Discord bot. (The `db_url` and `api` fixtures are in this folder's conftest.py.)"""

from __future__ import annotations

import http.server
import importlib.util
import os
import secrets
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, make_url

from adjudicator.hosted import storage
from adjudicator.hosted.limits import Limits
from api import create_app
from tests.api_helpers import check_response
from tests.helpers import ROOT

# The Arctic game's first orders, a line or two for each power.
OPENING = {"Russia": ["A Arc - Ura", "F Okh - Kam"], "Norway": ["F Tro - Bar"], "Canada": ["A Yel - Yuk"],
           "Denmark": ["F Tor - Nwg"], "USA": ["A Brw - Bea"]}


def postgres_url() -> str:
    """The test PostgreSQL database (skips without one, but never in CI)."""
    url = os.environ.get("ADJUDICATOR_TEST_DATABASE_URL")
    if url:
        return url
    if os.environ.get("CI") == "true":
        pytest.fail("CI must run the PostgreSQL tests: .ci/run starts a server and sets ADJUDICATOR_TEST_DATABASE_URL")
    pytest.skip("no PostgreSQL server: set ADJUDICATOR_TEST_DATABASE_URL (.ci/run starts one) to run this")


@contextmanager
def own_postgres_schema(prefix: str) -> Iterator[str]:
    """The URL of a fresh schema of the test PostgreSQL database, dropped after: for tests whose senders or
    tickers take whatever is due in their database, so that no other test's games or deliveries are theirs."""
    base = make_url(storage.normalise_url(postgres_url()))
    schema = f"{prefix}_{secrets.token_hex(6)}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = base.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        store = storage._stores.pop(url, None)
        if store is not None:
            store.dispose()
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"], name="db_url")
def own_database(request, tmp_path):
    """A database of the test's own: a fresh SQLite file, or a fresh schema of the test PostgreSQL database.
    (Every sender on a database shares its outbox, as it should: on a shared database the background sender
    of another test's server would take this test's deliveries.)"""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    with own_postgres_schema("webhooks") as url:
        yield url


class Api:
    """The test client, with every answer checked against the OpenAPI document."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()

    def call(self, method: str, template: str, token: str | None = None, json=None, query: str = "", **params):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        kwargs = {"headers": headers}
        if json is not None:
            kwargs["json"] = json
        response = getattr(self.client, method)(template.format(**params) + query, **kwargs)
        check_response(template, method, response)
        return response

    def create(self, **body) -> dict:
        response = self.call("post", "/v1/games", json=body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def game(self, game_id: str, token: str) -> dict:
        response = self.call("get", "/v1/games/{game_id}", token, game_id=game_id)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def phase_no(self, game_id: str, token: str) -> int:
        """The game's current phase number (what every phase-bound write names)."""
        return self.game(game_id, token)["phase_no"]

    def submit(self, game_id: str, token: str, orders, ready=None, status: int = 200, phase_no=None) -> dict:
        """Orders for phase `phase_no` (default: the current one, read first)."""
        body = {"orders": orders, "phase_no": phase_no or self.phase_no(game_id, token)}
        if ready is not None:
            body["ready"] = ready
        response = self.call("put", "/v1/games/{game_id}/orders", token, json=body, game_id=game_id)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def ready(self, game_id: str, token: str, ready: bool = True) -> dict:
        body = {"ready": ready, "phase_no": self.phase_no(game_id, token)}
        response = self.call("put", "/v1/games/{game_id}/ready", token, json=body, game_id=game_id)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def judge(self, game_id: str, gm: str) -> dict:
        """The game master judges the current phase."""
        response = self.call("post", "/v1/games/{game_id}/adjudicate", gm, json={"phase_no": self.phase_no(
            game_id, gm)}, game_id=game_id)
        assert response.status_code == 200, response.get_json()
        return response.get_json()


# The rate limits are kept in the database, which PostgreSQL's test database shares between tests and runs:
# the tests of other things are not limited (tests/hosted/test_hosted_limits.py tests the limits).
UNLIMITED = Limits(requests_per_minute=10**6, games_per_hour=10**6, picture_units_per_minute=10**6,
                   messages_per_minute=10**6)


def make_api(url: str, **config) -> Api:
    """An app on the given database."""
    return Api(create_app({"ADJUDICATOR_DATABASE_URL": url, "HOSTED_LIMITS": UNLIMITED, **config}))


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@contextmanager
def receiver(answers: list[tuple[float, int]]):
    """A webhook receiver on loopback: the n-th request waits answers[n][0] s and answers answers[n][1]."""
    got: list[tuple[dict, bytes, float]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            body = self.rfile.read(int(self.headers["Content-Length"]))
            got.append((dict(self.headers), body, time.monotonic()))
            delay, status = answers[min(len(got), len(answers)) - 1]
            time.sleep(delay)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook", got
    finally:
        server.shutdown()
        server.server_close()


BOT = ROOT / "examples" / "discord_bot.py"


def load_bot():
    """The example Discord bot (examples/discord_bot.py) as a module, loaded once."""
    if "discord_bot" in sys.modules:
        return sys.modules["discord_bot"]
    spec = importlib.util.spec_from_file_location("discord_bot", BOT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["discord_bot"] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


class Target:
    """A channel or a member: records what the bot sends."""

    def __init__(self, id: int = 0, name: str = ""):
        self.id, self.display_name, self.name = id, name, name
        self.sent: list[tuple[str | None, dict]] = []

    async def send(self, content=None, **kwargs):
        self.sent.append((content, kwargs))

    @property
    def last(self) -> str:
        return self.sent[-1][0] or ""
