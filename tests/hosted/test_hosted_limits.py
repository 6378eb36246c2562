"""Issue 26, finding 5: rate limits are kept in the database, so every process and instance on it counts
together and a restart forgets nothing; a 429 carries `Retry-After`."""

from __future__ import annotations

import multiprocessing

from sqlalchemy import delete
from tests.hosted.helpers import make_api

from adjudicator.hosted.limits import Limits, RateLimiter, client_key
from adjudicator.hosted.models import RateLimit
from adjudicator.hosted.storage import normalise_url, open_store

SMALL = Limits(requests_per_minute=5, games_per_hour=10**6)  # (game creation: the servers test below)


def test_two_instances_on_one_database_share_a_tokens_allowance(db_url):  # noqa: F811
    first, second = make_api(db_url, HOSTED_LIMITS=SMALL), make_api(db_url, HOSTED_LIMITS=SMALL)
    created = first.create(variant="arctic")
    gid, token = created["id"], created["tokens"]["Russia"]
    codes = [(first, second)[i % 2].call("get", "/v1/games/{game_id}", token, game_id=gid).status_code
             for i in range(6)]
    assert codes == [200] * 5 + [429]
    again = make_api(db_url, HOSTED_LIMITS=SMALL)  # a restarted server remembers
    refused = again.call("get", "/v1/games/{game_id}", token, game_id=gid)
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 13 and refused.get_json()["retry_after"] == wait  # one request every 60 / 5 s
    other = again.call("get", "/v1/games/{game_id}", created["tokens"]["USA"], game_id=gid)
    assert other.status_code == 200  # another token has its own allowance


def test_the_allowance_refills_at_its_rate():
    class Clock:
        now = 1_000_000.0

        def __call__(self) -> float:
            return self.now

    import tempfile

    clock = Clock()
    with tempfile.TemporaryDirectory() as folder:
        limiter = RateLimiter(open_store(f"sqlite:///{folder}/rate.sqlite3"), clock)
        assert [limiter.wait("k", 3, 60.0) for _ in range(4)][:3] == [0.0] * 3
        assert limiter.wait("k", 3, 60.0) == 20.0  # the 4th waits one interval (60 / 3 s); refused, not counted
        clock.now += 20.0
        assert limiter.wait("k", 3, 60.0) == 0.0 and limiter.wait("k", 3, 60.0) == 20.0
        clock.now += 3600.0  # idle: a full allowance again
        assert [limiter.wait("k", 3, 60.0) for _ in range(3)] == [0.0] * 3


def test_an_ipv6_client_is_counted_by_its_64():
    assert client_key("2001:db8::1") == client_key("2001:db8::ffff:2") == "addr:2001:db8::/64"
    assert client_key("::ffff:192.0.2.7") == client_key("192.0.2.7") == "addr:192.0.2.7"


def _create_games(url: str, count: int, out) -> None:
    """In a child process: an app of its own (its own connections) creating `count` games; their statuses."""
    from adjudicator.hosted import storage

    storage._stores.clear()  # the parent's engine stays the parent's
    api = make_api(url, HOSTED_LIMITS=Limits(games_per_hour=6))
    out.put([api.call("post", "/v1/games", json={"variant": "arctic"}).status_code for _ in range(count)])


def test_two_processes_share_the_limit_of_new_games(db_url):  # noqa: F811
    """The finding: 81 and 120 games created in a minute from one address on two-process servers, against 60."""
    store = open_store(normalise_url(db_url))
    key = "new:" + client_key("127.0.0.1")
    with store.transaction() as session:  # (PostgreSQL's test database is shared: a fresh allowance)
        session.execute(delete(RateLimit).where(RateLimit.key == key))
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    children = [context.Process(target=_create_games, args=(db_url, 4, out)) for _ in range(2)]
    try:
        for child in children:
            child.start()
        codes = out.get(timeout=60) + out.get(timeout=60)
        assert sorted(codes) == [201] * 6 + [429, 429]
    finally:
        for child in children:
            child.join(30)
        with store.transaction() as session:
            session.execute(delete(RateLimit).where(RateLimit.key == key))


def test_guessing_game_ids_with_fresh_tokens_is_counted_against_the_address(db_url):  # noqa: F811
    """Issue 34, finding 7: 800 lookups of unknown games, a new token each, met no 429 (404s were not counted)."""
    import secrets

    api = make_api(db_url, HOSTED_LIMITS=SMALL)
    address = f"198.51.100.{secrets.randbelow(250) + 1}"  # (the test database is shared: an address of its own)
    store = open_store(normalise_url(db_url))
    with store.transaction() as session:
        session.execute(delete(RateLimit).where(RateLimit.key == client_key(address)))

    def guess(game_id: str) -> int:
        return api.client.get(f"/v1/games/{game_id}", environ_base={"REMOTE_ADDR": address},
                              headers={"Authorization": f"Bearer adj_{secrets.token_urlsafe(32)}"}).status_code

    assert [guess(secrets.token_urlsafe(12)) for _ in range(6)] == [404] * 5 + [429]
    assert guess("not an id!") == 429  # an id that cannot be one is a guess too
    other = "203.0.113.9"
    with store.transaction() as session:
        session.execute(delete(RateLimit).where(RateLimit.key == client_key(other)))
    assert api.client.get("/v1/games/abc", environ_base={"REMOTE_ADDR": other},
                          headers={"Authorization": "Bearer adj_x"}).status_code == 404  # another address: its own
