"""Issue 36: a hosted game ends (a solo, a draw voted with secret votes, a named draw, a concession, a declared
end, a year limit, every seat in civil disorder), and an ended game takes no more writes (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text
from tests.hosted.helpers import Api, Clock

from adjudicator.hosted import storage, webhooks
from adjudicator.hosted.service import HostedError, Service
from adjudicator.hosted.storage import open_store

POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
# Fall 1901: Germany holds 17 centres and takes Belgium, its 18th, with `A Hol - Bel`.
NEAR_SOLO = {
    "phase": {"season": "Fall", "year": 1901, "type": "Movement"},
    "centres": {"Germany": ["Ber", "Kie", "Mun", "Hol", "Den", "Swe", "Nwy", "War", "Mos", "StP", "Par", "Bre", "Mar",
                            "Lon", "Edi", "Lvp", "Ser"],
                "Austria": ["Bud", "Tri", "Vie"], "Italy": ["Nap", "Rom", "Ven"], "Russia": ["Sev", "Rum"],
                "Turkey": ["Ank", "Con", "Smy", "Bul"], "France": ["Spa", "Por"], "England": ["Gre"]},
    "units": {"Germany": ["A Hol", "F Kie"], "Austria": ["A Vie"], "Italy": ["A Rom"], "Russia": ["A Sev"],
              "Turkey": ["A Con"], "France": ["A Spa"], "England": ["F Gre"]},
}


def vote(api: Api, gid: str, token: str, status: int = 200, **body) -> dict:
    body.setdefault("phase_no", api.phase_no(gid, token))
    response = api.call("put", "/v1/games/{game_id}/vote", token, json=body, game_id=gid)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_a_dias_draw_passes_with_secret_votes(api):
    game = api.create(variant="standard", settings={"scoring": "sum-of-squares"})
    gid, gm, tokens = game["id"], game["game_master_token"], game["tokens"]
    for power in POWERS[:-1]:
        answer = vote(api, gid, tokens[power], draw="dias")
        assert answer["ended"] is False and answer["vote"]["draw"] == POWERS
    seen_by_turkey = api.game(gid, tokens["Turkey"])["seats"]
    assert all("vote" not in s and "voted" not in s for s in seen_by_turkey if s["power"] != "Turkey")
    assert [s.get("voted") for s in api.game(gid, gm)["seats"]] == [True] * 6 + [False]  # who, never what
    assert "vote" not in next(s for s in api.game(gid, gm)["seats"] if s["power"] == "Austria")
    answer = vote(api, gid, tokens["Turkey"], draw="dias")
    assert answer["ended"] is True and answer["end"]["kind"] == "draw" and answer["end"]["powers"] == POWERS
    view = api.game(gid, tokens["Austria"])
    assert view["status"] == "ended" and view["end"]["by"] == "votes"
    # Sum of squares at the opening: Russia 4 centres, the others 3: 100 x 16/70 and 100 x 9/70.
    assert view["end"]["scores"] == {p: 22.86 if p == "Russia" else 12.86 for p in POWERS}
    assert view["end"]["exact"]["Russia"] == "160/7"


def test_a_named_draw_fails_while_one_survivor_votes_no(api):
    game = api.create(variant="standard", settings={"draws": "named", "secret_votes": False})
    gid, tokens = game["id"], game["tokens"]
    for power in POWERS[:-1]:
        assert vote(api, gid, tokens[power], draw=["England", "France"])["ended"] is False
    assert vote(api, gid, tokens["Turkey"], draw="dias")["ended"] is False  # Turkey votes otherwise
    seats = {s["power"]: s for s in api.game(gid, tokens["Austria"])["seats"]}
    assert seats["Turkey"]["vote"] == {"draw": POWERS, "dias": True} and seats["Italy"]["vote"] == {"draw": ["England", "France"]}
    assert vote(api, gid, tokens["Turkey"])["vote"] is None  # withdrawn
    answer = vote(api, gid, tokens["Turkey"], draw=["France", "England"])
    assert answer["ended"] and answer["end"]["powers"] == ["England", "France"]
    assert answer["end"]["scores"] == {p: 50.0 if p in ("England", "France") else 0.0 for p in POWERS}


def test_a_named_draw_is_refused_where_draws_are_dias(api):
    game = api.create(variant="standard")
    answer = vote(api, game["id"], game["tokens"]["England"], 422, draw=["England", "France"])
    assert '"dias"' in answer["detail"] and answer["pointer"] == "/draw"


def test_a_concession(api):
    game = api.create(variant="standard", settings={"scoring": "c-diplo"})
    gid, tokens = game["id"], game["tokens"]
    for power in POWERS:
        if power != "France":
            answer = vote(api, gid, tokens[power], concede_to="France")
    assert answer["ended"] and answer["end"]["kind"] == "concession" and answer["end"]["powers"] == ["France"]
    assert answer["end"]["scores"]["France"] == 100.0 and answer["end"]["scores"]["England"] == 0.0


def test_a_solo_ends_the_game_when_it_is_judged(api):
    game = api.create(variant="standard", state=NEAR_SOLO)
    gid, gm, tokens = game["id"], game["game_master_token"], game["tokens"]
    api.submit(gid, tokens["Germany"], ["A Hol - Bel"])
    judged = api.judge(gid, gm)
    assert judged["status"] == "ended" and judged["end"]["kind"] == "solo" and judged["end"]["powers"] == ["Germany"]
    assert judged["end"]["by"] == "rules" and judged["end"]["scores"]["Germany"] == 100.0
    report = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/report", gm, game_id=gid,
                      phase_no=1).get_data(as_text=True)
    assert "The game has ended: a solo by Germany" in report


def test_the_game_master_declares_a_draw_and_an_ended_game_refuses_every_write(api):
    game = api.create(variant="standard", settings={"phase_seconds": 3600})
    gid, gm, tokens = game["id"], game["game_master_token"], game["tokens"]
    bad = api.call("post", "/v1/games/{game_id}/end", gm, json={"kind": "draw", "powers": ["England", "Spain"]},
                   game_id=gid)
    assert bad.status_code == 400 and "Spain" in bad.get_json()["detail"]
    by_seat = api.call("post", "/v1/games/{game_id}/end", tokens["England"], json={"kind": "stopped"}, game_id=gid)
    assert by_seat.status_code == 403
    ended = api.call("post", "/v1/games/{game_id}/end", gm, json={"kind": "draw", "powers": ["England", "France"]},
                     game_id=gid)
    assert ended.status_code == 200 and ended.get_json()["end"]["by"] == "game master"
    view = api.game(gid, gm)
    assert view["status"] == "ended" and view["deadline"] is None
    refused = [
        api.call("put", "/v1/games/{game_id}/orders", tokens["England"], json={"orders": ["F Lon H"], "phase_no": 1},
                 game_id=gid),
        api.call("post", "/v1/games/{game_id}/adjudicate", gm, json={"phase_no": 1}, game_id=gid),
        api.call("put", "/v1/games/{game_id}/deadline", gm, json={"in_seconds": 60, "phase_no": 1}, game_id=gid),
        api.call("put", "/v1/games/{game_id}/vote", tokens["England"], json={"draw": "dias", "phase_no": 1},
                 game_id=gid),
        api.call("post", "/v1/games/{game_id}/pause", gm, json={"phase_no": 1}, game_id=gid),
        api.call("post", "/v1/games/{game_id}/end", gm, json={"kind": "stopped"}, game_id=gid),
        api.call("post", "/v1/games/{game_id}/seats/{power}/replace", gm, json={"phase_no": 1}, game_id=gid,
                 power="England"),
    ]
    for response in refused:
        problem = response.get_json()
        assert response.status_code == 409 and "a draw of England, France" in problem["detail"], problem
    assert api.game(gid, gm) == view  # nothing changed


def test_scores_if_the_game_ended_now_and_by_another_system(api):
    game = api.create(variant="standard")
    gid, token = game["id"], game["tokens"]["England"]
    now = api.call("get", "/v1/games/{game_id}/scores", token, game_id=gid).get_json()
    assert now["ended"] is False and now["system"] == "draw-size"
    assert now["scores"] == {p: 14.29 for p in POWERS}
    sos = api.call("get", "/v1/games/{game_id}/scores", token, query="?system=sos", game_id=gid).get_json()
    assert sos["scores"]["Russia"] == 22.86
    unknown = api.call("get", "/v1/games/{game_id}/scores", token, query="?system=elo", game_id=gid)
    assert unknown.status_code == 400 and "sum-of-squares" in unknown.get_json()["detail"]


def test_a_scoring_system_that_cannot_score_the_game_is_refused_at_creation(api):
    response = api.call("post", "/v1/games", json={"variant": "arctic-race", "seats": ["Red", "Blue"],
                                                   "settings": {"scoring": "sum-of-squares"}})
    assert response.status_code == 400, response.get_json()


def _service(db_url: str, clock: Clock) -> Service:
    return Service(open_store(db_url), clock=clock, background=False,
                   policy=webhooks.Policy(egress=webhooks.Egress.parse("127.0.0.1")))


def test_a_year_limit_stops_the_game(db_url):
    svc = _service(db_url, Clock())
    created = svc.create_game("standard", settings={"end_year": 1901, "disorder_after": 0})
    gm = svc.authenticate(created["id"], created["game_master_token"])
    assert svc.adjudicate(gm, phase_no=1)["status"] == "active"  # Spring 1901
    judged = svc.adjudicate(gm, phase_no=2)  # Fall 1901: every unit held, no adjustments, Spring 1902 is next
    assert judged["status"] == "ended" and judged["end"]["kind"] == "stopped" and judged["end"]["by"] == "year limit"
    assert judged["end"]["record"]["year"] == 1901 and svc.game_view(gm)["phase"] == "Spring 1902 Movement"


def test_every_seat_in_civil_disorder_abandons_the_game(db_url):
    clock = Clock()
    svc = _service(db_url, clock)
    created = svc.create_game("standard", settings={"disorder_after": 1})
    gm = svc.authenticate(created["id"], created["game_master_token"])
    judged = svc.adjudicate(gm, phase_no=1)  # nobody sent orders: every seat misses its first movement phase
    assert judged["status"] == "ended" and judged["end"]["kind"] == "abandoned"
    assert judged["end"]["by"] == "civil disorder" and sorted(judged["missed"]) == POWERS
    with pytest.raises(HostedError) as caught:
        svc.adjudicate(gm, phase_no=2)
    assert caught.value.kind.value == "conflict"


def test_migration_0007_makes_a_game_finished_before_it_an_ended_solo(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    svc = Service(store, background=False)
    created = svc.create_game("standard", state=NEAR_SOLO)
    gm = svc.authenticate(created["id"], created["game_master_token"])
    germany = svc.authenticate(created["id"], created["tokens"]["Germany"])
    svc.submit(germany, ["A Hol - Bel"], phase_no=1)
    assert svc.adjudicate(gm, phase_no=1)["status"] == "ended"
    config = Config()
    config.set_main_option("script_location", str(storage._MIGRATIONS))
    with store.engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0006")  # as a game that finished before ends were kept
        assert conn.execute(text("SELECT status FROM hosted_games")).scalar() == "finished"
        assert conn.execute(text("SELECT count(*) FROM hosted_phases")).scalar() == 1  # (its phases kept)
        command.upgrade(config, "head")
    view = Service(store, background=False).game_view(gm)
    assert view["status"] == "ended" and view["end"]["kind"] == "solo" and view["end"]["powers"] == ["Germany"]
    assert len(view["seats"]) == 7 and svc.phases(gm)[0]["phase_no"] == 1  # (no table recreated: none emptied)


def test_a_game_without_centres_ends_scored_by_its_own_result(api):
    game = api.create(variant="arctica")
    gid, gm, players = game["id"], game["game_master_token"], sorted(game["tokens"])
    ended = api.call("post", "/v1/games/{game_id}/end", gm, json={"kind": "stopped"}, game_id=gid)
    end = ended.get_json()["end"]
    assert ended.status_code == 200 and end["scoring"] == "own result" and sorted(end["scores"]) == players
    assert end["record"]["board"] is None and "points" in end["record"]["result"]
