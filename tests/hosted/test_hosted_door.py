"""Issue 26, findings 4 and 6: text is checked at the door (a 4xx with a reason, never a 5xx, on SQLite and on
PostgreSQL), database errors are logged without their parameters, and no secret reaches a log."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
import requests
from tests.api_helpers import free_port
from tests.hosted.helpers import make_api

from adjudicator.hosted import webhooks
from adjudicator.hosted.models import Game
from adjudicator.hosted.storage import normalise_url, open_store

SURROGATE = '"\\ud800"'  # JSON for a lone surrogate: valid JSON, no character, no database stores it


def _create_raw(api, body: str):
    return api.client.post("/v1/games", data=body, content_type="application/json")


@pytest.mark.parametrize("field, where", [
    ('"name": {}', "/name"), ('"labels": {{"Russia": {}}}', "/labels/Russia"), ('"seats": ["Red", {}]', "/seats/1"),
    ('"labels": {{{}: "Ann"}}', "/labels"),
])
def test_a_lone_surrogate_or_a_nul_in_a_name_label_or_seat_is_a_400(db_url, field, where):  # noqa: F811
    api = make_api(db_url)
    variant = "arctic-race" if "seats" in field else "arctic"
    for bad in (SURROGATE, '"a\\u0000b"', '"a\\u202eb"', '"a\\nb"', '"  "'):
        answer = _create_raw(api, '{"variant": "%s", %s}' % (variant, field.format(bad)))
        assert answer.status_code == 400, (bad, answer.get_json())
        assert answer.get_json()["pointer"] == where, bad


def test_nul_and_lone_surrogates_anywhere_in_a_board_or_state_are_a_400(db_url):  # noqa: F811
    api = make_api(db_url)
    start = api.client.get("/v1/variants/arctic/start").get_json()
    for bad in ("a\x00b", "\ud800"):
        state = {**start, "units": {**start["units"], "Russia": [*start["units"]["Russia"], bad]}}
        body = json.dumps({"variant": "arctic", "state": state})
        answer = _create_raw(api, body)
        assert answer.status_code == 400 and answer.get_json()["pointer"].startswith("/state/units/Russia"), bad
        board = {"name": "x", "rules": "diplomacy", "spaces": [{"id": bad}]}
        answer = _create_raw(api, json.dumps({"board": board}))
        assert answer.status_code == 400 and answer.get_json()["pointer"].startswith("/board/spaces/0"), bad


def test_orders_that_are_not_printable_text_are_a_400(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    for bad in ("A Arc\x00 H", "A Arc H\ud800", "A \u202eArc H", "A Arc H\x07"):
        answer = api.call("put", "/v1/games/{game_id}/orders", created["tokens"]["Russia"],
                          json={"orders": ["A Pev H", bad], "phase_no": 1}, game_id=created["id"])
        assert answer.status_code == 400 and answer.get_json()["pointer"] == "/orders/1", bad
    assert api.submit(created["id"], created["tokens"]["Russia"], ["A Arc\tH"])["orders"][0]["status"] == "ok"


def test_path_ids_and_phase_numbers_are_ascii_within_range(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    gid, token = created["id"], created["tokens"]["Russia"]
    api.judge(gid, created["game_master_token"])
    for path in ("abc%00def", "abc%ED%A0%80", "%C2%B2", "a" * 40, "abc def"):
        answer = api.client.get(f"/v1/games/{path}", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 404, (path, answer.get_json())
    for number in ("%C2%B2", "%D9%A1", "1%00", "99999999999", "0", "-1", "+1", "1.0"):  # ², Arabic-Indic 1
        answer = api.client.get(f"/v1/games/{gid}/phases/{number}", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 404 and "numbered" in answer.get_json()["detail"], number
    assert api.client.get(f"/v1/games/{gid}/phases/1", headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_database_errors_carry_no_parameters(db_url):  # noqa: F811
    """A failed insert's message is logged: its parameters would carry a game's webhook secret."""
    store = open_store(normalise_url(db_url))
    secret = "SECRET-" + str(time.time())

    def game(game_id: str) -> Game:
        return Game(id=game_id, name="x", variant="arctic", settings={}, state={}, phase_no=0, phase_name="x",
                    status="active", gm_token_hash="0" * 64, webhook_secret=secret, created_at=0.0,
                    phase_started_at=0.0)

    game_id = f"dup{int(time.time() * 1000) % 10**9}"
    with store.transaction() as session:
        session.add(game(game_id))
    with pytest.raises(Exception) as failed:
        with store.transaction() as session:
            session.add(game(game_id))  # the same id again
    assert "IntegrityError" in type(failed.value).__name__ and secret not in str(failed.value)


def test_a_token_in_the_query_string_is_refused(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    gid, gm = created["id"], created["game_master_token"]
    for query in (f"?token={gm}", f"?access_token={gm}", f"?t={gm}", "?token=x"):
        answer = api.client.get(f"/v1/games/{gid}{query}", headers={"Authorization": f"Bearer {gm}"})
        assert answer.status_code == 400 and "Authorization" in answer.get_json()["detail"], query
        assert gm not in answer.get_data(as_text=True)


def test_the_access_log_never_holds_a_query(tmp_path):
    """What reaches gunicorn's access log (and a Basic user name, and a Referer) may be a token: left out."""
    port, log = free_port(), tmp_path / "access.log"
    env = {"ADJUDICATOR_DATABASE": str(tmp_path / "games.sqlite3"), "PATH": "/usr/bin:/bin"}
    server = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--port", str(port), "--workers", "1"],
                              stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                requests.get(base + "/healthz", timeout=1)
                break
            except requests.ConnectionError:
                assert server.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        secret = "adj_" + "s3cr3t" * 7
        answer = requests.get(f"{base}/v1/games/abc?token={secret}", auth=(secret, ""),
                              headers={"Referer": f"https://x.example/?token={secret}"}, timeout=10)
        assert answer.status_code == 400
    finally:
        server.terminate()
        server.wait(20)
    logged = log.read_text()
    assert "/v1/games/abc" in logged and secret not in logged


def test_the_webhook_secret_is_rotated_not_shown_again(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    gid, gm = created["id"], created["game_master_token"]
    status = api.call("get", "/v1/games/{game_id}/webhook", gm, game_id=gid)
    assert status.status_code == 200 and created["webhook_secret"] not in status.get_data(as_text=True)
    rotated = api.call("post", "/v1/games/{game_id}/webhook/secret", gm, game_id=gid)
    new = rotated.get_json()["webhook_secret"]
    assert rotated.status_code == 200 and len(new) >= 40 and new != created["webhook_secret"]
    assert api.call("post", "/v1/games/{game_id}/webhook/secret", created["tokens"]["Russia"],
                    game_id=gid).status_code == 403
    svc = api.app.extensions["hosted"]
    with svc.store.sessions() as session:
        assert session.get(Game, gid).webhook_secret == new  # what signs from now on
    body = b"{}"
    header = webhooks.sign(new, body, int(time.time()))
    assert webhooks.verify(new, header, body) and not webhooks.verify(created["webhook_secret"], header, body)
