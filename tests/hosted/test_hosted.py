"""Hosted games through the HTTP API (Flask's test client), on SQLite and on PostgreSQL.

PostgreSQL: `ADJUDICATOR_TEST_DATABASE_URL` (`.ci/run` starts a server and sets it). Without it the PostgreSQL
half is skipped, saying why, except in CI (CI=true), where it must run.
"""

from __future__ import annotations

import secrets
from collections import defaultdict

import pytest
from tests.helpers import ROOT
from tests.hosted.helpers import make_api

from adjudicator.games.diplomacy.cases.datc import parse_cases
from adjudicator.hosted.limits import Limits
from adjudicator.textio import read_text

YEAR = ROOT / "datc_cases" / "arctic" / "11_year_2010_2011.txt"  # a whole Arctic year, case by case


def _units(state: dict) -> dict[str, set[str]]:
    return {p: set(us) for p, us in (state.get("units") or {}).items() if us}


def _expected_units(lines) -> dict[str, set[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for line in lines:
        out[line.power].add(line.text)
    return dict(out)


# --- a whole Arctic year -----------------------------------------------------------------------------------
def test_a_whole_arctic_year_with_five_power_tokens(api):
    """Fall 2010 to Fall 2011, every phase judged when the last power that must act is ready; each position is
    the case file's (the same file the engine's own tests run)."""
    cases = parse_cases(read_text(YEAR), str(YEAR))
    created = api.create(variant="arctic", name="A year", labels={"Russia": "Ann", "USA": "Bob"})
    gid, tokens = created["id"], created["tokens"]
    assert set(tokens) == {"Russia", "Norway", "Canada", "Denmark", "USA"}
    for number, case in enumerate(cases, 1):
        game = api.game(gid, tokens["Russia"])
        assert game["phase"] == "{} {} {}".format(*case.setphase), case.name
        assert game["phase_no"] == number
        orders: dict[str, list[str]] = defaultdict(list)
        for line in case.get("ORDERS"):
            orders[line.power].append(line.text)
        actors = [s["power"] for s in game["seats"] if s["must_act"]]
        assert actors, case.name
        for power in [p for p in orders if p not in actors]:  # orders from a power with nothing to do
            api.submit(gid, tokens[power], orders[power])
        for i, power in enumerate(actors):  # each power that must act sends its orders, ready; the last one judges
            answer = api.submit(gid, tokens[power], orders[power], ready=True) if orders.get(power) \
                else api.ready(gid, tokens[power])
            assert [o["order"] for o in answer["orders"]] == orders.get(power, [])
            assert all(o["status"] != "unreadable" for o in answer["orders"]), answer
            assert (answer["adjudicated"] is not None) == (i == len(actors) - 1), (case.name, power)
        judged = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", tokens["Norway"], game_id=gid,
                          phase_no=number).get_json()
        assert judged["phase"] == game["phase"] and judged["trigger"] == "ready"
        assert judged["orders"] == dict(orders)
        assert _units(judged["position_after"]) == _expected_units(case.get("POSTSTATE")), case.name
        if case.has("POSTSTATE_SUPPLYCENTER_OWNERS"):
            owners = {p: set(c) for p, c in judged["position_after"]["centres"].items() if c}
            assert owners == _expected_units(case.get("POSTSTATE_SUPPLYCENTER_OWNERS")), case.name
    after = api.game(gid, tokens["Denmark"])
    assert after["phase"] == "Winter 2011 Movement" and after["phases_judged"] == len(cases)
    listed = api.call("get", "/v1/games/{game_id}/phases", tokens["USA"], game_id=gid).get_json()
    assert [p["phase_no"] for p in listed] == list(range(1, len(cases) + 1))
    report = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/report", tokens["USA"], game_id=gid, phase_no=2)
    assert report.status_code == 200 and report.mimetype == "text/plain"
    assert "Winter 2010 Movement" in report.get_data(as_text=True)


def test_the_picture_of_a_judged_phase(tmp_path):
    api = make_api(f"sqlite:///{tmp_path / 'picture.sqlite3'}")
    created = api.create(variant="arctic")
    gid, token = created["id"], created["tokens"]["USA"]
    api.submit(gid, token, ["A Brw - Bea"])
    api.judge(gid, created["game_master_token"])
    picture = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/picture", token, game_id=gid, phase_no=1,
                       query="?format=svg&width=400")
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml" and b"<svg" in picture.data
    bad = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/picture", token, game_id=gid, phase_no=1,
                   query="?format=gif")
    assert bad.status_code == 400


# --- the other three games ---------------------------------------------------------------------------------
def test_arctica_round_with_the_game_masters_end_of_round_steps(api):
    created = api.create(variant="arctica")
    gid, tokens, gm = created["id"], created["tokens"], created["game_master_token"]
    assert set(tokens) == {"Remi", "Joelle", "Samson"}
    assert api.submit(gid, tokens["Joelle"], ["migrate bird from S5"])["orders"][0]["status"] == "ok"
    assert api.submit(gid, tokens["Remi"], ["migrate 1 move: fish from S5"])["orders"][0]["status"] == "ok"
    steps = api.submit(gid, gm, ["melt", "majority", "event lynx", "event bear", "next round"])
    assert [o["status"] for o in steps["orders"]] == ["ok"] * 5
    api.ready(gid, tokens["Remi"])
    api.ready(gid, tokens["Joelle"])
    assert api.ready(gid, tokens["Samson"])["adjudicated"]["phase_no"] == 1
    judged = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=gid, phase_no=1).get_json()
    assert judged["position_after"]["round"] == 2
    assert all(r["status"] == "succeeds" for r in judged["report"]["orders"]), judged["report"]["orders"]
    assert set(judged["orders"]) == {"Remi", "Joelle", "game master"}
    picture = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/picture", gm, game_id=gid, phase_no=1,
                       query="?format=svg")
    assert picture.status_code == 200 and b'id="section-S1"' in picture.data  # Arctica's circle, drawn


def test_arctic_race_set_up_by_the_game_master_then_a_round(api):
    # seated in another order than they play; the tiles as the game master's table has them (not shuffled here)
    created = api.create(variant="arctic-race", seats=["Blue", "Red"], state={"variant": "arctic-race", "phase": "setup"})
    gid, tokens, gm = created["id"], created["tokens"], created["game_master_token"]
    tiles = "T22 T06 T16 T30 T08 T29 T10 T01 T14 T09 T28 T23 T27 T15 T24 T25 T20 T07 T17 T26 T19 T12 T04 T18 T03 " \
            "T02 T21 T13 T05 T11"
    steps = api.submit(gid, gm, ["players Red, Blue", "start Blue", f"tiles {tiles}"])  # Blue plays first
    assert [o["status"] for o in steps["orders"]] == ["ok"] * 3, steps
    game = api.game(gid, gm)
    assert [s["must_act"] for s in game["seats"]] == [True, True]  # no players before the set-up: every seat
    api.ready(gid, tokens["Red"])
    assert api.ready(gid, tokens["Blue"])["adjudicated"]["phase_no"] == 1
    assert api.game(gid, gm)["state"]["phase"] == "racing"
    early = api.submit(gid, tokens["Red"], ["4 move"], ready=True)  # Red sends before Blue, who plays first
    assert [o["status"] for o in early["orders"]] == ["ok"], early  # checked as at its turn, not "out of turn"
    answer = api.submit(gid, tokens["Blue"], ["5 move, roll 3"], ready=True)
    assert answer["adjudicated"]["phase_no"] == 2
    judged = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=gid, phase_no=2).get_json()
    # judged in the round's turn order (Blue holds the start token), not in the order of the players
    assert [(r["power"], r["status"]) for r in judged["report"]["orders"][:2]] == [("Blue", "succeeds"),
                                                                                   ("Red", "succeeds")]
    assert judged["position_after"]["round"] == 2


def test_arctic2019_turn_with_the_countries_as_seats(api):
    countries = ["Russia", "Norway", "EU", "Canada", "USA"]
    created = api.create(variant="arctic2019")  # the game names its seats: the Arctic countries
    assert sorted(created["tokens"]) == sorted(countries)
    gid, tokens, gm = created["id"], created["tokens"], created["game_master_token"]
    answer = api.submit(gid, tokens["Russia"], ["move 1 ship from KOL to BAR", "move 1 ship from KOL to Nowhere"])
    assert answer["orders"][0]["status"] == "ok"
    assert answer["orders"][1]["status"] in ("unreadable", "illegal"), answer
    api.submit(gid, tokens["Russia"], ["move 1 ship from KOL to BAR"])  # replaced
    for country in countries:
        api.ready(gid, tokens[country])
    judged = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=gid, phase_no=1).get_json()
    assert judged["orders"] == {"Russia": ["move 1 ship from KOL to BAR"]}
    assert judged["position_after"]["ships"]["BAR"] == {"RU": 1}


def test_arctic2019_keeps_the_turns_actions_across_hosted_phases(api):
    """Issue 34: a turn judged over two phases gave Russia a second Ship Movement action; the stored state's
    `this_turn` keeps it, on either database."""
    created = api.create(variant="arctic2019")
    gid, tokens, gm = created["id"], created["tokens"], created["game_master_token"]
    for phase_no, line in ((1, "move 1 ship from KOL to BAR"), (2, "move 1 ship from BAR to KAR")):
        api.submit(gid, tokens["Russia"], [line])
        for country in tokens:
            api.ready(gid, tokens[country])
        judged = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=gid,
                          phase_no=phase_no).get_json()
    (second,) = [r for r in judged["report"]["orders"] if r["power"] == "Russia"]
    assert second["status"] == "illegal" and second["cause"]["refusal"] == "action_over", second
    assert judged["position_after"]["ships"]["BAR"] == {"RU": 1}


def test_a_judged_phase_names_the_power_of_each_unreadable_line(api):
    """Issue 34: two seats' second items were both `line 2` in the phase's report; each names its power."""
    created = api.create(variant="arctic")
    gid, tokens, gm = created["id"], created["tokens"], created["game_master_token"]
    api.submit(gid, tokens["Russia"], ["A Arc - Ura", "F Okh - Nowhere"])
    api.submit(gid, tokens["Norway"], ["F Tro - Bar", "F Osl - Nowhere"])
    for power in tokens:
        api.ready(gid, tokens[power])
    judged = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=gid, phase_no=1).get_json()
    problems = judged["report"]["sheet_problems"]
    assert sorted((p["line"], p["power"]) for p in problems) == [(2, "Norway"), (2, "Russia")]


# --- secret orders -----------------------------------------------------------------------------------------
def test_orders_are_secret_replaced_read_back_and_withdrawn(api):
    created = api.create(variant="arctic")
    gid, t = created["id"], created["tokens"]
    first = api.submit(gid, t["Russia"], ["A Arc - Ura", "F Okh - Nowhere", "A Lyb - Osl"])
    assert [o["status"] for o in first["orders"]] == ["ok", "unreadable", "ignored"]
    assert "Lyb" in first["orders"][2]["reason"]
    again = api.call("get", "/v1/games/{game_id}/orders", t["Russia"], game_id=gid).get_json()
    assert again["orders"] == first["orders"] and again["ready"] is False
    # Norway sees neither Russia's orders nor whether Russia has sent any.
    assert api.call("get", "/v1/games/{game_id}/orders", t["Norway"], game_id=gid).get_json()["orders"] == []
    seats = {s["power"]: s for s in api.game(gid, t["Norway"])["seats"]}
    assert "submitted" not in seats["Russia"] and "ready" not in seats["Russia"]
    assert seats["Norway"]["submitted"] is False
    gm = created["game_master_token"]
    gm_view = api.game(gid, gm)
    assert {s["power"]: s for s in gm_view["seats"]}["Russia"]["submitted"] is True  # who, never what
    assert "A Arc - Ura" not in str(gm_view)
    assert api.call("get", "/v1/games/{game_id}/orders", gm, game_id=gid).get_json()["orders"] == []
    replaced = api.submit(gid, t["Russia"], ["A Arc - Ura"], ready=True)
    assert len(replaced["orders"]) == 1 and replaced["ready"] is True
    withdrawn = api.call("delete", "/v1/games/{game_id}/orders", t["Russia"], query="?phase_no=1",
                         game_id=gid).get_json()
    assert withdrawn["orders"] == [] and withdrawn["ready"] is False
    api.submit(gid, t["Russia"], ["A Arc - Ura"])
    api.judge(gid, created["game_master_token"])
    judged = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", t["Norway"], game_id=gid, phase_no=1).get_json()
    assert judged["orders"] == {"Russia": ["A Arc - Ura"]}  # once judged, everyone reads every order
    assert "A Ura" in judged["position_after"]["units"]["Russia"]


def test_public_readiness_shows_who_is_ready_never_what(api):
    created = api.create(variant="arctic", public_readiness=True)
    gid, t = created["id"], created["tokens"]
    api.submit(gid, t["Russia"], ["A Arc - Ura"], ready=True)
    seats = {s["power"]: s for s in api.game(gid, t["Norway"])["seats"]}
    assert seats["Russia"]["ready"] is True and seats["Russia"]["submitted"] is True
    assert "A Arc - Ura" not in str(api.game(gid, t["Norway"]))


def test_orders_for_another_kind_of_phase_are_refused(api):
    created = api.create(variant="arctic")
    answer = api.submit(created["id"], created["tokens"]["Russia"], ["Build A Arc"], status=422)
    assert "Fall 2010 Movement" in answer["detail"]
    assert api.call("get", "/v1/games/{game_id}/orders", created["tokens"]["Russia"],
                    game_id=created["id"]).get_json()["orders"] == []


def test_the_game_master_adjudicates_once_and_names_the_phase(api):
    created = api.create(variant="arctic")
    gid, gm = created["id"], created["game_master_token"]
    first = api.call("post", "/v1/games/{game_id}/adjudicate", gm, json={"phase_no": 1}, game_id=gid)
    assert first.status_code == 200 and first.get_json()["next_phase"] == "Winter 2010 Movement"
    again = api.call("post", "/v1/games/{game_id}/adjudicate", gm, json={"phase_no": 1}, game_id=gid)
    assert again.status_code == 409 and "phase 2" in again.get_json()["detail"]
    judged = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=gid, phase_no=1).get_json()
    assert all(r["status"] == "default" for r in judged["report"]["orders"])  # no orders: the rules' defaults
    assert api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=gid, phase_no=2).status_code == 404


# --- authorization: every endpoint (the game at phase 2) ---------------------------------------------------
ENDPOINTS = [
    ("get", "/v1/games/{game_id}", None, "any"),
    ("put", "/v1/games/{game_id}/orders", {"orders": [], "phase_no": 2}, "any"),  # the game master's: steps
    ("get", "/v1/games/{game_id}/orders", None, "any"),
    ("delete", "/v1/games/{game_id}/orders", None, "any"),  # ?phase_no=2
    ("put", "/v1/games/{game_id}/ready", {"ready": False, "phase_no": 2}, "seat"),
    ("post", "/v1/games/{game_id}/adjudicate", {"phase_no": 2}, "gm"),
    ("get", "/v1/games/{game_id}/phases", None, "any"),
    ("get", "/v1/games/{game_id}/phases/{phase_no}", None, "any"),
    ("get", "/v1/games/{game_id}/phases/{phase_no}/report", None, "any"),
    ("get", "/v1/games/{game_id}/phases/{phase_no}/picture", None, "any"),
    ("get", "/v1/games/{game_id}/webhook", None, "gm"),
    ("put", "/v1/games/{game_id}/webhook", {"url": None}, "gm"),
    ("post", "/v1/games/{game_id}/webhook/secret", None, "gm"),
]


def test_every_endpoint_is_in_the_openapi_document():
    from api.schemas import openapi_document

    paths = openapi_document()["paths"]
    for method, template, _, _ in ENDPOINTS:
        assert method in paths[template], (method, template)
    assert "post" in paths["/v1/games"]


@pytest.mark.parametrize("method,template,body,who", ENDPOINTS, ids=[f"{m} {t}" for m, t, _, _ in ENDPOINTS])
def test_authorization_no_token_forged_token_another_games_and_another_powers(tmp_path, method, template, body, who):
    api = make_api(f"sqlite:///{tmp_path / 'auth.sqlite3'}")
    game = api.create(variant="arctic")
    other = api.create(variant="arctic")
    gid = game["id"]
    api.judge(gid, game["game_master_token"])  # phase 1 readable
    args = {"game_id": gid, "phase_no": 1, "query": "?phase_no=2" if method == "delete" else ""}
    forged = "adj_" + "A" * 43
    assert api.call(method, template, None, body, **args).status_code == 401
    assert api.call(method, template, forged, body, **args).status_code == 403
    assert api.call(method, template, other["tokens"]["Russia"], body, **args).status_code == 403
    assert api.call(method, template, other["game_master_token"], body, **args).status_code == 403
    malformed = api.client.open(template.format(**args) + args["query"], method=method.upper(), json=body,
                                headers={"Authorization": game["tokens"]["Russia"]})  # no "Bearer"
    assert malformed.status_code == 401
    if template.endswith("/picture"):
        return  # drawing takes seconds: the allowed callers are tested in test_the_picture_of_a_judged_phase
    gm = api.call(method, template, game["game_master_token"], body, **args)
    seat = api.call(method, template, game["tokens"]["Norway"], body, **args)
    if who == "gm":
        assert seat.status_code == 403 and gm.status_code in (200, 409)
    elif who == "seat":
        assert gm.status_code == 403 and seat.status_code == 200
    else:
        assert gm.status_code == 200 and seat.status_code == 200, (gm.get_json(), seat.get_json())


def test_tokens_are_kept_only_as_hashes(tmp_path):
    from sqlalchemy import create_engine, text

    path = tmp_path / "hashes.sqlite3"
    api = make_api(f"sqlite:///{path}")
    created = api.create(variant="arctic", name="hashes")
    secrets = [created["game_master_token"], *created["tokens"].values()]
    assert len(set(secrets)) == 6 and all(len(s) >= 40 for s in secrets)
    with create_engine(f"sqlite:///{path}").connect() as conn:
        dump = "\n".join(str(row) for table in ("hosted_games", "hosted_seats")
                         for row in conn.execute(text(f"SELECT * FROM {table}")))
    assert not any(s in dump for s in secrets)
    view = api.game(created["id"], created["tokens"]["Russia"])
    assert not any(s in str(view) for s in secrets)


# --- deadlines, limits, webhooks settings ------------------------------------------------------------------
def test_bad_requests_are_refused_with_reasons(api):
    unknown = api.call("post", "/v1/games", json={"variant": "atlantis"})
    assert unknown.status_code == 404
    bad_seat = api.call("post", "/v1/games", json={"variant": "arctic", "labels": {"Narnia": "x"}})
    assert bad_seat.status_code == 400 and "Narnia" in bad_seat.get_json()["detail"]
    no_seats = api.call("post", "/v1/games", json={"variant": "arctic-race"})
    assert no_seats.status_code == 400 and "seats" in no_seats.get_json()["detail"]
    bad_url = api.call("post", "/v1/games", json={"variant": "arctic", "webhook_url": "file:///etc/passwd"})
    assert bad_url.status_code == 400
    created = api.create(variant="arctic")
    too_many = api.call("put", "/v1/games/{game_id}/orders", created["tokens"]["Russia"],
                        json={"orders": ["A Arc H"] * 201, "phase_no": 1}, game_id=created["id"])
    assert too_many.status_code == 413
    too_long = api.call("put", "/v1/games/{game_id}/orders", created["tokens"]["Russia"],
                        json={"orders": ["A Arc H " + "x" * 400], "phase_no": 1}, game_id=created["id"])
    assert too_long.status_code == 400  # a field too long is bad input; 413 is for a request too large
    assert api.call("get", "/v1/games/{game_id}", created["tokens"]["Russia"], game_id="nope").status_code == 404
    bad_phase = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", created["tokens"]["Russia"],
                         game_id=created["id"], phase_no="first")
    assert bad_phase.status_code == 404 and "numbered" in bad_phase.get_json()["detail"]


def test_rate_limits(tmp_path):
    from adjudicator.hosted.limits import Limits

    api = make_api(f"sqlite:///{tmp_path / 'rate.sqlite3'}", HOSTED_LIMITS=Limits(requests_per_minute=5,
                                                                                  games_per_hour=2))
    created = api.create(variant="arctic")
    api.create(variant="arctic")
    assert api.call("post", "/v1/games", json={"variant": "arctic"}).status_code == 429
    codes = [api.call("get", "/v1/games/{game_id}", created["tokens"]["Russia"], game_id=created["id"]).status_code
             for _ in range(6)]
    assert codes == [200] * 5 + [429]
    # another token has its own allowance
    assert api.call("get", "/v1/games/{game_id}", created["tokens"]["USA"], game_id=created["id"]).status_code == 200
    # guessing tokens (a new one each time) is counted against the client's address
    guesses = [api.call("get", "/v1/games/{game_id}", f"adj_guess{i}", game_id=created["id"]).status_code
               for i in range(6)]
    assert guesses == [403] * 5 + [429]


def test_the_migrations_create_the_models_tables(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from adjudicator.hosted.models import Base
    from adjudicator.hosted.storage import normalise_url, open_store

    store = open_store(normalise_url(db_url))
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


# --- a game on an inline board -----------------------------------------------------------------------------
WATERWAYS = ROOT / "datc_cases" / "features" / "boards" / "waterways.yaml"


def test_a_game_on_an_inline_board_keeps_its_board(api):
    import yaml

    board = yaml.safe_load(WATERWAYS.read_text())
    created = api.create(board=board, name="canals")
    gid, t, gm = created["id"], created["tokens"], created["game_master_token"]
    assert set(t) == {"Red", "Blue"} and created["variant"] == "waterways"
    api.submit(gid, t["Red"], ["F aaa - bbb", "A ccc - hil"], ready=True)
    assert api.submit(gid, t["Blue"], ["F ddd - isl", "A riv - low"], ready=True)["adjudicated"]["phase_no"] == 1
    judged = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=gid, phase_no=1).get_json()
    assert sorted(judged["position_after"]["units"]["Red"]) == ["A hil", "F bbb"]
    report = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/report", gm, game_id=gid, phase_no=1)
    assert report.status_code == 200 and "F aaa - bbb" in report.get_data(as_text=True)
    bad = {**board, "borders": [*board["borders"], "riv - qqq : land"]}
    refused = api.call("post", "/v1/games", json={"board": bad})
    assert refused.status_code == 422 and refused.get_json()["pointer"].startswith("/board/")
