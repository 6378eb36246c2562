"""Issue 36, what extending the hosted fuzz (benchmarks/fuzz_hosted.py) found, on SQLite and PostgreSQL.

Finding 1 (fixed): a draw the votes have passed was not ended by the judgement that makes them agree. Four of
five seats vote for a DIAS draw; the fifth sends nothing and falls into civil disorder as the phase is judged
(`disorder_after: 1`); a seat in civil disorder votes yes (`disorder_votes: yes`, the default), so every survivor
agrees once the phase is judged: the judgement ends the game (by votes), where it went on until some seat voted
again. Votes the judgement clears (`votes_survive_phase: false`) end nothing.
"""

from __future__ import annotations

from tests.hosted.helpers import OPENING


def _vote(api, game_id: str, token: str, body: dict) -> dict:
    body = {**body, "phase_no": api.phase_no(game_id, token)}
    response = api.call("put", "/v1/games/{game_id}/vote", token, json=body, game_id=game_id)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_judgement_that_puts_the_last_holdout_in_civil_disorder_ends_the_agreed_draw(api):
    created = api.create(variant="arctic", settings={"disorder_after": 1})
    game_id, seats, gm = created["id"], created["tokens"], created["game_master_token"]
    for power in ("Russia", "Norway", "Canada", "Denmark"):
        assert _vote(api, game_id, seats[power], {"draw": "dias"})["ended"] is False
        api.submit(game_id, seats[power], OPENING[power])
    judged = api.judge(game_id, gm)
    assert judged["missed"] == ["USA"]
    view = api.game(game_id, gm)
    assert [s["power"] for s in view["seats"] if s["civil_disorder"]] == ["USA"]
    assert view["status"] == "ended" and view["end"]["kind"] == "draw", (view["status"], view["end"])


def test_votes_the_judgement_clears_end_nothing(api):
    created = api.create(variant="arctic", settings={"disorder_after": 1, "votes_survive_phase": False})
    game_id, seats, gm = created["id"], created["tokens"], created["game_master_token"]
    for power in ("Russia", "Norway", "Canada", "Denmark"):
        _vote(api, game_id, seats[power], {"draw": "dias"})
        api.submit(game_id, seats[power], OPENING[power])
    api.judge(game_id, gm)
    view = api.game(game_id, gm)
    assert view["status"] == "active" and not any(s.get("voted") for s in view["seats"])


def _disorder(api, game_id: str, gm: str) -> dict[str, bool]:
    return {s["power"]: s["civil_disorder"] for s in api.game(game_id, gm)["seats"]}


def test_a_seat_whose_orders_the_game_master_gave_leaves_civil_disorder_by_sending_its_own(api):
    """Finding 3 (fixed): USA misses a movement phase and falls into civil disorder; in the next phase the game
    master gives its orders (no miss: its row of missed phases is 0 again, but it is still in civil disorder);
    then USA sends orders of its own. A seat leaves civil disorder "when it sends orders again" (README, Seats):
    it stayed in it, because only a seat with missed phases in a row was let out."""
    created = api.create(variant="arctic", settings={"disorder_after": 1})
    game_id, seats, gm = created["id"], created["tokens"], created["game_master_token"]
    for power in ("Russia", "Norway", "Canada", "Denmark"):
        api.submit(game_id, seats[power], OPENING[power])
    api.judge(game_id, gm)  # USA sends nothing: it misses the first movement phase
    assert _disorder(api, game_id, gm)["USA"] is True
    phase_no = api.phase_no(game_id, gm)
    given = api.call("put", "/v1/games/{game_id}/orders", gm, json={"power": "USA", "orders": ["A Brw H"],
                     "phase_no": phase_no}, game_id=game_id)
    assert given.status_code == 200, given.get_json()
    for power in ("Russia", "Norway", "Canada", "Denmark"):  # (so the game is not abandoned)
        api.submit(game_id, seats[power], OPENING[power])
    api.judge(game_id, gm)
    assert _disorder(api, game_id, gm)["USA"] is True  # given orders are no miss, nor a return
    api.submit(game_id, seats["USA"], ["A Brw H"])
    assert _disorder(api, game_id, gm)["USA"] is False
