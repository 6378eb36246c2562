"""The game master moves a hosted phase's deadline (`PUT /v1/games/{id}/deadline`): who may, what is refused,
and that the moved deadline is the one the phase is judged at."""

from __future__ import annotations

import time
from datetime import datetime, timezone

import pytest
from tests.hosted.helpers import make_api

DEADLINE = "/v1/games/{game_id}/deadline"


@pytest.fixture
def api(tmp_path):
    return make_api(f"sqlite:///{tmp_path / 'deadline.sqlite3'}")


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_the_game_master_sets_moves_and_removes_the_deadline(api):
    game = api.create(variant="arctic")
    gid, gm = game["id"], game["game_master_token"]
    assert api.game(gid, gm)["deadline"] is None
    at = _iso(time.time() + 3 * 3600)
    moved = api.call("put", DEADLINE, gm, json={"at": at, "phase_no": 1}, game_id=gid)
    assert moved.status_code == 200 and moved.get_json() == {"phase": "Fall 2010 Movement", "phase_no": 1,
                                                               "deadline": at}
    assert api.game(gid, game["tokens"]["Russia"])["deadline"] == at  # every player sees it
    later = api.call("put", DEADLINE, gm, json={"in_seconds": 86400, "phase_no": 1}, game_id=gid).get_json()["deadline"]
    assert abs(datetime.fromisoformat(later.replace("Z", "+00:00")).timestamp() - (time.time() + 86400)) < 5
    offset = api.call("put", DEADLINE, gm, json={"at": "2100-01-01T00:00:00+02:00", "phase_no": 1}, game_id=gid)
    assert offset.status_code == 400 and offset.get_json()["pointer"] == "/at"  # more than a year away
    removed = api.call("put", DEADLINE, gm, json={"at": None, "phase_no": 1}, game_id=gid)
    assert removed.get_json()["deadline"] is None and api.game(gid, gm)["deadline"] is None


def test_a_deadline_moved_into_the_near_future_judges_the_phase_when_it_passes(api):
    game = api.create(variant="arctic")
    gid, gm = game["id"], game["game_master_token"]
    api.call("put", DEADLINE, gm, json={"in_seconds": 1, "phase_no": 1}, game_id=gid)
    assert api.game(gid, gm)["phases_judged"] == 0
    time.sleep(1.2)
    view = api.game(gid, gm)  # the first request after the deadline judges the phase
    assert view["phases_judged"] == 1 and view["deadline"] is None  # the game has no phase_seconds


@pytest.mark.parametrize("body,status,pointer", [
    ({"at": "tomorrow"}, 400, "/at"),
    ({"at": "2030-01-31T18:00:00"}, 400, "/at"),  # no zone: whose 18:00?
    ({"at": "0001-01-01T00:00:00+14:00"}, 400, "/at"),
    ({"at": "2001-01-01T00:00:00Z"}, 400, "/at"),  # in the past
    ({"in_seconds": 0}, 400, "/in_seconds"),
    ({}, 400, ""),
    ({"at": None, "in_seconds": 60}, 400, ""),
    ({"in_seconds": 60, "phase_no": 2}, 409, "/phase_no"),  # not the current phase
    ({"in_seconds": 60, "later": True}, 400, ""),
])
def test_bad_deadlines_are_refused_with_the_reason(api, body, status, pointer):
    game = api.create(variant="arctic")
    answer = api.call("put", DEADLINE, game["game_master_token"], json={"phase_no": 1, **body}, game_id=game["id"])
    assert answer.status_code == status, answer.get_json()
    got = answer.get_json().get("pointer")
    # The body itself is "" (RFC 6901); the schema check before api/schema_errors.py named it "/".
    assert got == pointer or (pointer == "" and got == "/"), got
    assert api.game(game["id"], game["game_master_token"])["deadline"] is None  # nothing half-applied


def test_only_the_game_master_moves_the_deadline(api):
    game = api.create(variant="arctic")
    other = api.create(variant="arctic")
    gid = game["id"]
    body = {"in_seconds": 3600, "phase_no": 1}
    assert api.call("put", DEADLINE, None, json=body, game_id=gid).status_code == 401
    assert api.call("put", DEADLINE, game["tokens"]["Russia"], json=body, game_id=gid).status_code == 403
    assert api.call("put", DEADLINE, other["game_master_token"], json=body, game_id=gid).status_code == 403
    assert api.game(gid, game["game_master_token"])["deadline"] is None


def test_an_ended_game_has_no_deadline_to_move(api):
    centres = ["par", "bre", "mar", "spa", "por", "bel", "hol", "mun", "kie", "ber", "den", "swe", "nwy", "lon",
               "lvp", "edi", "tun", "nap"]  # 18: France wins when the Fall phase is judged
    game = api.create(variant="standard", state={"phase": "Fall 1901 Movement", "centres": {"France": centres},
                                                 "units": {"France": ["A Par"], "Germany": ["A War"]}})
    gid, gm = game["id"], game["game_master_token"]
    api.judge(gid, gm)
    assert api.game(gid, gm)["status"] == "ended"
    answer = api.call("put", DEADLINE, gm, json={"in_seconds": 60, "phase_no": 2}, game_id=gid)
    assert answer.status_code == 409 and "a solo by France" in answer.get_json()["detail"]
