"""Phase-bound hosted writes (issue 34, finding 2): orders, readiness, withdrawal, judging and the deadline say
which phase they are for (`phase_no`), so a stale or replayed request never acts on a later phase. Another
phase is a 409 naming the current one; no phase at all is a 400 naming it (never "the current one"). On SQLite
and on PostgreSQL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

ORDERS = "/v1/games/{game_id}/orders"
READY = "/v1/games/{game_id}/ready"
JUDGE = "/v1/games/{game_id}/adjudicate"
DEADLINE = "/v1/games/{game_id}/deadline"
SPRING = {"orders": ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"], "phase_no": 1}  # France's Spring 1901 body


def _spring_judged(api):
    """A standard game whose Spring 1901 France ordered (the body above) and the game master judged."""
    game = api.create(variant="standard")
    gid, france, gm = game["id"], game["tokens"]["France"], game["game_master_token"]
    sent = api.call("put", ORDERS, france, json=SPRING, game_id=gid)
    assert sent.status_code == 200 and [o["status"] for o in sent.get_json()["orders"]] == ["ok"] * 3
    judged = api.call("post", JUDGE, gm, json={"phase_no": 1}, game_id=gid)
    assert judged.status_code == 200 and judged.get_json()["next_phase"] == "Fall 1901 Movement"
    return game, gid, france, gm


def _names_fall(problem: dict) -> None:
    assert problem["current_phase_no"] == 2 and problem["current_phase"] == "Fall 1901 Movement", problem
    assert "phase 2" in problem["detail"] and "Fall 1901 Movement" in problem["detail"], problem


def _nothing_pending(api, gid: str, token: str) -> None:
    own = api.call("get", ORDERS, token, game_id=gid).get_json()
    assert own["phase_no"] == 2 and own["orders"] == [] and own["ready"] is False, own


def test_a_replayed_spring_orders_body_is_a_409_naming_fall_and_nothing_is_stored(api):
    game, gid, france, gm = _spring_judged(api)
    replayed = api.call("put", ORDERS, france, json=SPRING, game_id=gid)
    assert replayed.status_code == 409, replayed.get_json()
    _names_fall(replayed.get_json())
    _nothing_pending(api, gid, france)
    seats = {s["power"]: s for s in api.game(gid, gm)["seats"]}
    assert seats["France"]["submitted"] is False
    # The body as clients sent it before writes named their phase: refused too, never taken for Fall's.
    unbound = api.call("put", ORDERS, france, json={"orders": SPRING["orders"]}, game_id=gid)
    assert unbound.status_code == 400
    _names_fall(unbound.get_json())
    _nothing_pending(api, gid, france)
    # The game master relaying France's mailed Spring orders again: the same.
    relayed = api.call("put", ORDERS, gm, json={**SPRING, "power": "France"}, game_id=gid)
    assert relayed.status_code == 409
    _names_fall(relayed.get_json())
    _nothing_pending(api, gid, france)
    # Sent for Fall, the same lines are Fall's orders (A Par went to Burgundy, so "A Par - Bur" is now wrong).
    fall = api.call("put", ORDERS, france, json={"orders": ["A Bur - Mun"], "phase_no": 2}, game_id=gid)
    assert fall.status_code == 200 and fall.get_json()["phase_no"] == 2


def test_a_replayed_ready_is_a_409_and_fall_is_not_judged(api):
    game = api.create(variant="standard")
    gid, tokens = game["id"], game["tokens"]
    for power, token in tokens.items():  # everyone ready in Spring: Spring is judged
        answer = api.call("put", READY, token, json={"ready": True, "phase_no": 1}, game_id=gid).get_json()
    assert answer["adjudicated"]["phase"] == "Spring 1901 Movement"
    for power, token in tokens.items():  # every "ready" sent again (a bot's retry): none lands in Fall
        replayed = api.call("put", READY, token, json={"ready": True, "phase_no": 1}, game_id=gid)
        assert replayed.status_code == 409, (power, replayed.get_json())
        _names_fall(replayed.get_json())
        unbound = api.call("put", READY, token, json={"ready": True}, game_id=gid)
        assert unbound.status_code == 400
        with_orders = api.call("put", ORDERS, token, json={"orders": [], "ready": True, "phase_no": 1},
                               game_id=gid)
        assert with_orders.status_code == 409
    assert len(api.call("get", "/v1/games/{game_id}/phases", game["game_master_token"], game_id=gid).get_json()) == 1
    view = api.game(gid, game["game_master_token"])
    assert view["phase_no"] == 2 and not any(s["ready"] for s in view["seats"])


WRITES = [  # (method, path, body or None, query, who)
    ("put", ORDERS, {"orders": ["A Par - Bur"]}, "", "France"),
    ("put", READY, {"ready": True}, "", "France"),
    ("delete", ORDERS, None, "", "France"),
    ("post", JUDGE, {}, "", "gm"),
    ("post", JUDGE, None, "", "gm"),  # no body at all
    ("put", DEADLINE, {"in_seconds": 3600}, "", "gm"),
]


@pytest.mark.parametrize("method,path,body,query,who", WRITES, ids=[f"{m} {p} {b}" for m, p, b, _, _ in WRITES])
def test_a_write_without_phase_no_is_refused_naming_the_current_phase(api, method, path, body, query, who):
    game, gid, france, gm = _spring_judged(api)
    token = gm if who == "gm" else game["tokens"][who]
    answer = api.call(method, path, token, json=body, query=query, game_id=gid)
    assert answer.status_code == 400, answer.get_json()
    problem = answer.get_json()
    _names_fall(problem)
    assert "`phase_no` is missing" in problem["detail"]
    assert problem["pointer"] == ("phase_no" if method == "delete" else "/phase_no")
    view = api.game(gid, gm)
    assert view["phase_no"] == 2 and view["deadline"] is None  # nothing judged, no deadline set
    _nothing_pending(api, gid, france)


def test_a_withdrawal_for_a_past_phase_is_a_409_and_the_current_orders_stay(api):
    game, gid, france, gm = _spring_judged(api)
    fall = api.call("put", ORDERS, france, json={"orders": ["A Bur - Mun"], "phase_no": 2}, game_id=gid)
    assert fall.status_code == 200
    stale = api.call("delete", ORDERS, france, query="?phase_no=1", game_id=gid)
    assert stale.status_code == 409
    _names_fall(stale.get_json())
    assert [o["order"] for o in api.call("get", ORDERS, france, game_id=gid).get_json()["orders"]] == ["A Bur - Mun"]
    ahead = api.call("delete", ORDERS, france, query="?phase_no=3", game_id=gid)
    assert ahead.status_code == 409  # a phase not reached yet: the same
    unreadable = api.call("delete", ORDERS, france, query="?phase_no=two", game_id=gid)
    assert unreadable.status_code == 400 and unreadable.get_json()["pointer"] == "phase_no"
    withdrawn = api.call("delete", ORDERS, france, query="?phase_no=2", game_id=gid)
    assert withdrawn.status_code == 200 and withdrawn.get_json()["orders"] == []


def test_judging_and_the_deadline_of_a_past_phase_are_409s_naming_the_current_one(api):
    game, gid, france, gm = _spring_judged(api)
    again = api.call("post", JUDGE, gm, json={"phase_no": 1}, game_id=gid)
    assert again.status_code == 409
    _names_fall(again.get_json())
    ahead = api.call("post", JUDGE, gm, json={"phase_no": 3}, game_id=gid)
    assert ahead.status_code == 409
    _names_fall(ahead.get_json())
    moved = api.call("put", DEADLINE, gm, json={"in_seconds": 3600, "phase_no": 1}, game_id=gid)
    assert moved.status_code == 409
    _names_fall(moved.get_json())
    assert api.game(gid, gm)["deadline"] is None


def test_writes_racing_a_judgement_land_in_its_phase_or_are_refused_never_in_the_next(api):
    """The phase check is made in the write's own transaction, on the game's row it holds: a judgement between
    the check and the write would otherwise let phase 1's orders (and readiness) become phase 2's."""
    for _ in range(3):
        game = api.create(variant="standard")
        gid, tokens, gm = game["id"], game["tokens"], game["game_master_token"]

        def send(power):  # a client each: threads do not share one
            return api.app.test_client().put(ORDERS.format(game_id=gid), json={"orders": [], "ready": True,
                                                                                "phase_no": 1},
                                             headers={"Authorization": f"Bearer {tokens[power]}"}).status_code

        def judge(_):
            return api.app.test_client().post(JUDGE.format(game_id=gid), json={"phase_no": 1},
                                              headers={"Authorization": f"Bearer {gm}"}).status_code

        with ThreadPoolExecutor(8) as pool:
            sends = [pool.submit(send, p) for p in tokens]
            judges = [pool.submit(judge, None)]
            codes = [f.result() for f in sends]
            judged = [f.result() for f in judges]
        assert set(codes) <= {200, 409} and set(judged) <= {200, 409}
        view = api.game(gid, gm)
        assert view["phase_no"] == 2 and not any(s["ready"] or s["submitted"] for s in view["seats"]), view
