"""Issue 36: a hosted game's seats: missed orders (NMR) per power and phase, civil disorder after two missed
movement phases and its end, a seat handed to a new player (the old token refused at once) or to a bot."""

from __future__ import annotations

from tests.hosted.helpers import Api, Clock

from adjudicator.hosted import webhooks
from adjudicator.hosted.service import Service
from adjudicator.hosted.storage import open_store


def _seat(view: dict, power: str) -> dict:
    return next(s for s in view["seats"] if s["power"] == power)


def test_civil_disorder_after_two_missed_movement_phases_and_its_end(db_url):
    svc = Service(open_store(db_url), clock=Clock(), background=False,
                  policy=webhooks.Policy(egress=webhooks.Egress.parse("127.0.0.1")))
    created = svc.create_game("standard")
    gm = svc.authenticate(created["id"], created["game_master_token"])
    seats = {p: svc.authenticate(created["id"], t) for p, t in created["tokens"].items()}
    holds = {"England": ["F Lon H"], "France": ["A Par H"], "Germany": ["A Ber H"], "Austria": ["A Vie H"],
             "Russia": ["A Mos H"], "Turkey": ["A Con H"]}
    for phase_no in (1, 2):  # Spring and Fall 1901: Italy sends nothing
        for power, lines in holds.items():
            svc.submit(seats[power], lines, phase_no=phase_no)
        judged = svc.adjudicate(gm, phase_no=phase_no)
        assert judged["missed"] == ["Italy"]
        view = svc.game_view(gm)
        if view["phase"].startswith("Winter"):  # (no adjustments are due after holds: no phase to miss)
            break
    assert _seat(view, "Italy")["civil_disorder"] is True
    assert _seat(view, "Italy")["missed"] == 2 and _seat(view, "England")["missed"] == 0
    assert _seat(svc.game_view(seats["England"]), "Italy")["civil_disorder"] is True  # shown to all
    phase_no = view["phase_no"]
    everyone_else = [p for p in holds]
    for power in everyone_else:
        svc.set_ready(seats[power], True, phase_no=phase_no)
    assert svc.game_view(gm)["phase_no"] == phase_no + 1  # Italy in disorder counts as ready: judged
    assert svc.phase(gm, 2)["missed"] == ["Italy"]
    svc.submit(seats["Italy"], ["A Rom H"], phase_no=phase_no + 1)  # Italy is back
    assert _seat(svc.game_view(gm), "Italy")["civil_disorder"] is False


def test_a_replaced_seats_old_token_is_refused_in_the_same_second(api: Api):
    game = api.create(variant="standard")
    gid, gm, old = game["id"], game["game_master_token"], game["tokens"]["France"]
    api.submit(gid, old, ["A Par - Bur"])
    response = api.call("post", "/v1/games/{game_id}/seats/{power}/replace", gm,
                        json={"phase_no": 1}, game_id=gid, power="France")
    assert response.status_code == 200, response.get_json()
    new = response.get_json()["token"]
    assert api.call("get", "/v1/games/{game_id}", old, game_id=gid).status_code == 403
    refused = api.call("put", "/v1/games/{game_id}/orders", old, json={"orders": ["A Par H"], "phase_no": 1},
                       game_id=gid)
    assert refused.status_code == 403
    france = _seat(api.game(gid, new), "France")
    assert france["holders"] == [{"from_phase": 1, "kind": "player"}, {"from_phase": 1, "kind": "player"}]
    own = api.call("get", "/v1/games/{game_id}/orders", new, game_id=gid).get_json()
    assert own["orders"] == []  # the old player's pending orders are not the new one's
    assert api.submit(gid, new, ["A Par - Pic"])["orders"][0]["order"] == "A Par - Pic"


def test_only_the_game_master_replaces_and_the_seat_must_exist(api: Api):
    game = api.create(variant="standard")
    gid, gm = game["id"], game["game_master_token"]
    by_seat = api.call("post", "/v1/games/{game_id}/seats/{power}/replace", game["tokens"]["England"],
                       json={"phase_no": 1}, game_id=gid, power="France")
    assert by_seat.status_code == 403
    unknown = api.call("post", "/v1/games/{game_id}/seats/{power}/replace", gm, json={"phase_no": 1}, game_id=gid,
                       power="Spain")
    assert unknown.status_code == 404 and "France" in unknown.get_json()["detail"]
    stale = api.call("post", "/v1/games/{game_id}/seats/{power}/replace", gm, json={"phase_no": 2}, game_id=gid,
                     power="France")
    assert stale.status_code == 409


def test_a_bot_seat_is_shown_and_its_orders_come_from_its_token_or_the_game_master(api: Api):
    game = api.create(variant="standard", bots=["Turkey"])
    gid, gm, bot = game["id"], game["game_master_token"], game["tokens"]["Turkey"]
    assert _seat(api.game(gid, game["tokens"]["England"]), "Turkey")["kind"] == "bot"
    assert api.submit(gid, bot, ["A Con - Bul"])["orders"][0]["order"] == "A Con - Bul"
    body = {"orders": ["A Con H"], "power": "Turkey", "phase_no": 1}
    given = api.call("put", "/v1/games/{game_id}/orders", gm, json=body, game_id=gid)
    assert given.status_code == 200 and given.get_json()["given_by"] == "game master"
    bad = api.call("post", "/v1/games", json={"variant": "standard", "bots": ["Spain"]})
    assert bad.status_code == 400 and bad.get_json()["pointer"] == "/bots"


def test_a_seat_handed_to_a_bot(api: Api):
    game = api.create(variant="standard")
    gid, gm = game["id"], game["game_master_token"]
    answer = api.call("post", "/v1/games/{game_id}/seats/{power}/replace", gm, json={"phase_no": 1, "kind": "bot"},
                      game_id=gid, power="Italy").get_json()
    assert answer["kind"] == "bot" and _seat(api.game(gid, gm), "Italy")["kind"] == "bot"
