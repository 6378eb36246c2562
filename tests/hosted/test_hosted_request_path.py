"""Issue 31, the hosted request path: one connection and one transaction a request, the token matched in SQL,
parsed positions cached (bounded, never stale), no ping before use (a lost connection is retried), and the
games' limit kept by a counter row."""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, event, select, text
from tests.hosted.helpers import make_api, postgres_url

from adjudicator.gamefile import game_to_data
from adjudicator.hosted.limits import Limits
from adjudicator.hosted.models import Counter as CounterRow
from adjudicator.hosted.models import Game
from adjudicator.hosted.orders import judge_submission
from adjudicator.hosted.service import Caller, HostedError, Positions, Service
from adjudicator.hosted.storage import normalise_url, open_store
from api.problems import STATUS

ORDERS = ["A Arc - Ura", "F Okh - Nowhere", "A Lyb - Osl"]


@contextmanager
def counted(store):
    """Statements sent (by their first word), COMMITs and pool check-outs while the block runs."""
    seen: Counter[str] = Counter()
    listeners = [(store.engine, "before_cursor_execute", lambda *a, **k: seen.update([a[2].split()[0].upper()])),
                 (store.engine, "commit", lambda *a: seen.update(["COMMIT"])),
                 (store.engine.pool, "checkout", lambda *a: seen.update(["check-out"]))]
    for target, name, fn in listeners:
        event.listen(target, name, fn)
    try:
        yield seen
    finally:
        for target, name, fn in listeners:
            event.remove(target, name, fn)


def test_a_submission_and_a_game_view_take_one_connection_and_one_transaction(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    gid, token = created["id"], created["tokens"]["Russia"]
    api.submit(gid, token, ORDERS, phase_no=1)  # the store opened, the statements prepared
    store = open_store(normalise_url(db_url))
    with counted(store) as put:
        api.submit(gid, token, ORDERS, phase_no=1)
    # the rate limit's upsert, the game and the token's seat in one SELECT, the submission's upsert; BEGIN on
    # SQLite is a statement of its own (BEGIN IMMEDIATE)
    statements = sum(n for what, n in put.items() if what not in ("COMMIT", "check-out", "BEGIN"))
    assert put["check-out"] == 1 and put["COMMIT"] == 1 and statements <= 3, put
    with counted(store) as view:
        api.game(gid, token)
    statements = sum(n for what, n in view.items() if what not in ("COMMIT", "check-out", "BEGIN"))
    assert view["check-out"] == 1 and view["COMMIT"] == 1 and statements <= 4, view


def test_the_token_names_its_own_seat_or_the_game_master_and_nothing_else(db_url):  # noqa: F811
    svc = Service(open_store(normalise_url(db_url)), Limits())
    first, second = svc.create_game("arctic"), svc.create_game("arctic")
    gid = first["id"]
    assert svc.authenticate(gid, first["game_master_token"]) == Caller(gid, None)
    for power, token in first["tokens"].items():
        assert svc.authenticate(gid, token) == Caller(gid, power)
    for token in [second["game_master_token"], second["tokens"]["Russia"], first["tokens"]["Russia"] + "x",
                  "adj_" + "A" * 43, first["tokens"]["Russia"][:-1]]:
        with pytest.raises(HostedError) as refused:
            svc.authenticate(gid, token)
        assert STATUS[refused.value.kind] == 403, token
    with pytest.raises(HostedError) as unknown:
        svc.authenticate("no-such-game", first["game_master_token"])
    assert STATUS[unknown.value.kind] == 404


def test_a_refused_request_still_counts_against_its_tokens_rate(db_url):  # noqa: F811
    api = make_api(db_url, HOSTED_LIMITS=Limits(requests_per_minute=3, games_per_hour=10**6))
    created = api.create(variant="arctic")
    gid, token = created["id"], created["tokens"]["Russia"]
    body = {"orders": ORDERS, "phase_no": 1}
    codes = [api.call("put", "/v1/games/{game_id}/orders", token, json=body, game_id=gid).status_code
             for _ in range(2)]
    codes.append(api.call("put", "/v1/games/{game_id}/orders", token, json={**body, "power": "Norway"},
                          game_id=gid).status_code)  # 403: a power orders for itself only
    codes.append(api.call("get", "/v1/games/{game_id}", token, game_id=gid).status_code)
    assert codes == [200, 200, 403, 429]


# --- the positions' cache ----------------------------------------------------------------------------------
def test_the_positions_cache_is_bounded_and_moves_on_with_the_game(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    gid, tokens, gm = created["id"], created["tokens"], created["game_master_token"]
    api.game(gid, gm)
    svc = api.app.extensions["hosted"]
    svc.positions.size = 3
    for _ in range(5):
        other = api.create(variant="arctic")
        api.game(other["id"], other["game_master_token"])
    assert len(svc.positions) == 3
    spring = api.submit(gid, tokens["Russia"], ["A Arc - Ura"])["orders"][0]
    assert spring["status"] == "ok"
    api.judge(gid, gm)
    # The next phase's position, not the cached one: the army has moved, so the same order is no longer valid.
    assert api.game(gid, gm)["phase_no"] == 2
    moved = api.submit(gid, tokens["Russia"], ["A Arc - Ura"])["orders"][0]
    assert moved["status"] != "ok", moved


def test_a_cached_position_is_never_changed_by_judging_submissions_in_any_of_the_four_games(tmp_path):
    svc = Service(open_store(f"sqlite:///{tmp_path / 'g.sqlite3'}"), Limits())
    hostile = ["", "x" * 300, "A Arc - Ura", "F Okh S A Arc - Ura", "melt", "next round", "4 move, roll 3",
               "move 1 ship from KOL to BAR", "players Red, Blue", "migrate bird from S5", "remove A Arc",
               "build F Okh", "1 move", "A Arc H", "\u202e", "((((", "support support support"]
    games = [("arctic", None), ("arctica", None), ("arctic-race", ["Blue", "Red"]), ("arctic2019", None),
             ("standard", None)]
    positions = Positions(8)
    for variant, seats in games:
        created = svc.create_game(variant, seats=seats)
        with svc.store.sessions() as session:
            game = session.get(Game, created["id"])
        board, state = positions.get(game)
        before = game_to_data(board, state)
        for seat in [*created["tokens"], ""]:
            for start in range(0, len(hostile), 4):
                try:
                    judge_submission(board, state, seat, hostile[start:start + 6])
                except Exception as exc:  # noqa: BLE001 - a refusal is an answer; only the position matters
                    assert type(exc).__name__ in ("Refused", "HostedError"), exc
        assert game_to_data(board, state) == before, variant
        assert positions.get(game) is positions.get(game)  # the cached entry itself


# --- the games' limit --------------------------------------------------------------------------------------
def test_the_games_limit_is_kept_by_a_counter_row(db_url):  # noqa: F811
    store = open_store(normalise_url(db_url))
    with store.sessions() as session:
        stored = session.scalar(select(CounterRow.value).where(CounterRow.name == "games"))
    svc = Service(store, Limits(max_games=stored + 2))
    svc.create_game("arctic")
    svc.create_game("arctic")
    with pytest.raises(HostedError) as full:
        svc.create_game("arctic")
    assert STATUS[full.value.kind] == 507
    with store.sessions() as session:
        assert session.scalar(select(CounterRow.value).where(CounterRow.name == "games")) == stored + 2
        if store.sqlite:  # a database of this test's own: the counter is the count
            assert len(session.scalars(select(Game.id)).all()) == stored + 2


# --- a lost connection -------------------------------------------------------------------------------------
def test_a_request_on_a_connection_postgresql_closed_is_answered():
    url = postgres_url()
    mark = "adjudicator_lost_connection_test"  # an engine of this test's own, its backends found by this name
    own = normalise_url(url) + ("&" if "?" in url else "?") + f"application_name={mark}"
    api = make_api(own)
    created = api.create(variant="arctic")
    gid, token = created["id"], created["tokens"]["Russia"]
    assert api.submit(gid, token, ORDERS, phase_no=1)["orders"][0]["status"] == "ok"
    api.game(gid, token)
    killer = create_engine(normalise_url(url), isolation_level="AUTOCOMMIT")
    with killer.connect() as conn:
        killed = conn.execute(text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                   "WHERE application_name = :mark"), {"mark": mark}).scalar()
    killer.dispose()
    assert killed >= 1
    assert api.game(gid, token)["phase_no"] == 1  # the pooled connection was dead: retried on a fresh one
    with killer.connect() as conn:
        conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = :mark"),
                     {"mark": mark})
    killer.dispose()
    assert api.submit(gid, token, ORDERS, phase_no=1)["orders"][0]["status"] == "ok"  # (no read before it)


def test_the_counters_migration_counts_the_games_already_stored(tmp_path):
    from alembic import command
    from alembic.config import Config

    from adjudicator.hosted import storage

    store = open_store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    svc = Service(store, Limits())
    for _ in range(3):
        svc.create_game("arctic")
    config = Config()
    config.set_main_option("script_location", str(storage._MIGRATIONS))
    with store.engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0003")  # as a database made before the counter was
        command.upgrade(config, "head")
    with store.sessions() as session:
        assert session.scalar(select(CounterRow.value).where(CounterRow.name == "games")) == 3
