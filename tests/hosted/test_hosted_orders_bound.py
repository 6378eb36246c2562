"""Issue 26, finding 1 (and 8): an order stays bound to the seat that sent it, from arrival to judgement.

A list item is one order: a line break of any kind inside it is refused at the door, and even past the door no
reader joins seats' lists into sheet text, so nothing one seat sends can order, cancel or void another seat's
units, or run a game master's step. The game master may give a power's orders, and the phase says so.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hosted.helpers import make_api

from adjudicator.catalogue import load_variant
from adjudicator.game import rules_of
from adjudicator.hosted.orders import GM, read_orders
from adjudicator.sheets import LINE_BREAKS

BREAKS = sorted(LINE_BREAKS)  # \n \r \v \f \x1c \x1d \x1e \x85 \u2028 \u2029


def _judged(api, gid: str, token: str, number: int = 1) -> dict:
    answer = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", token, game_id=gid, phase_no=number)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def _entries(judged: dict, power: str) -> list[tuple[str, str]]:
    return [(e["order"], e["status"]) for e in judged["report"]["orders"] if e.get("power") == power]


def test_a_line_break_in_an_order_is_refused_and_orders_no_other_power(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    gid, t, gm = created["id"], created["tokens"], created["game_master_token"]
    for brk in BREAKS:  # every character str.splitlines ends a line at
        refused = api.submit(gid, t["Russia"], [f"A Arc H{brk}Norway: A Lyb - Yer"], status=400)
        assert refused["pointer"] == "/orders/0" and f"U+{ord(brk):04X}" in refused["detail"]
        assert "one list item is one order" in refused["detail"]
        again = api.submit(gid, t["Russia"], ["A Arc H", f"F Okh H{brk}Norway: F Tro H"], status=400)  # "several"
        assert again["pointer"] == "/orders/1"
    api.submit(gid, t["Norway"], ["F Tro H"])
    api.submit(gid, gm, [], status=200)  # the game master's note that made the orders one sheet text
    api.call("post", "/v1/games/{game_id}/adjudicate", gm, json={"phase_no": 1}, game_id=gid)
    judged = _judged(api, gid, t["Norway"])
    assert judged["orders"] == {"Norway": ["F Tro H"]}  # nothing of Russia's is anyone's
    norway = dict(_entries(judged, "Norway"))
    assert norway["F Tro H"] == "succeeds" and "A Lyb - Yer" not in norway
    assert "A Lyb" in judged["position_after"]["units"]["Norway"]


def test_the_game_masters_note_does_not_turn_the_seats_lists_into_a_sheet(db_url):  # noqa: F811
    """The issue's attack went through only when the game master had something pending: the phase's orders were
    then joined into one text. Past the door (stored as they came, as a database would hand them back), a seat's
    item is still read as one order of that seat."""
    board = load_variant("arctic")
    state = rules_of(board).initial_state(board)
    sheet = read_orders(board, state, {"Russia": ["A Arc H\nNorway: A Lyb - Yer"], "Norway": ["F Tro H"],
                                       GM: ["a note"]})
    assert [(o.power, o.describe()) for o in sheet.orders] == [("Norway", "F Tro H")]
    assert {p.pointer for p in sheet.problems} >= {"/Russia/0"}


def test_an_arctica_player_cannot_run_a_game_master_step(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctica")
    gid, t, gm = created["id"], created["tokens"], created["game_master_token"]
    api.submit(gid, t["Remi"], ["migrate bird from S5\nevent bear"], status=400)
    answer = api.submit(gid, t["Remi"], ["event bear", "Joelle: migrate bird from S5"])
    assert [o["status"] for o in answer["orders"]] == ["unreadable", "unreadable"]
    assert "game master" in answer["orders"][0]["reason"] and "Remi's" in answer["orders"][1]["reason"]
    api.submit(gid, gm, ["melt"])
    api.judge(gid, gm)
    report = _judged(api, gid, gm)["report"]["orders"]
    assert [e["order"] for e in report if "event" in e["order"] or "migrate" in e["order"]] == []


def test_one_item_is_one_order_and_says_so(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    answer = api.submit(created["id"], created["tokens"]["Russia"], ["A Arc H; A Pev - Yak"])
    (line,) = answer["orders"]
    assert line["status"] == "unreadable" and line["column"] == 8
    assert "an item holds one order" in line["reason"] and "separated by ';'" not in line["reason"]


def test_a_support_of_another_powers_move_is_ok_on_arrival(db_url):  # noqa: F811
    """Finding 8: whether Norway moves is Norway's secret, so the support is `ok` until the phase is judged; a
    support of one's own unit that one's own orders leave void is void at once."""
    api = make_api(db_url)
    created = api.create(variant="arctic")
    gid, t, gm = created["id"], created["tokens"], created["game_master_token"]
    arrival = api.submit(gid, t["Denmark"], ["F Tor S F Osl - Nwg"])["orders"]
    assert [o["status"] for o in arrival] == ["ok"], arrival
    own = api.submit(gid, t["Norway"], ["F Osl H", "F Tro S F Osl - Nwg"])["orders"]
    assert [o["status"] for o in own] == ["ok", "void"], own  # Norway's own order says Osl holds
    api.submit(gid, t["Norway"], ["F Osl - Nwg"])
    api.judge(gid, gm)
    assert ("F Tor S F Osl - Nwg", "succeeds") in _entries(_judged(api, gid, gm), "Denmark")


def test_a_phase_number_past_any_phase_is_refused_as_such(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    gid, gm = created["id"], created["game_master_token"]
    huge = api.call("post", "/v1/games/{game_id}/adjudicate", gm, json={"phase_no": 2**31}, game_id=gid)
    assert huge.status_code == 400 and huge.get_json()["pointer"] == "/phase_no"
    ahead = api.call("post", "/v1/games/{game_id}/adjudicate", gm, json={"phase_no": 3}, game_id=gid)
    assert ahead.status_code == 409 and ahead.get_json()["current_phase_no"] == 1
    assert "phase 3, which is not the current one: the game is at phase 1" in ahead.get_json()["detail"]


# --- the game master may give a power's orders, and the phase says who gave them ---------------------------
def test_the_game_master_gives_a_powers_orders_and_the_phase_says_so(db_url):  # noqa: F811
    api = make_api(db_url)
    created = api.create(variant="arctic")
    gid, t, gm = created["id"], created["tokens"], created["game_master_token"]
    steps = api.call("put", "/v1/games/{game_id}/orders", gm, json={"orders": ["Norway: F Tro H"], "phase_no": 1},
                     game_id=gid)
    assert steps.status_code == 422 and '"power"' in steps.get_json()["detail"]  # Diplomacy has no GM steps
    given = api.call("put", "/v1/games/{game_id}/orders", gm, json={"power": "Norway", "orders": ["F Tro - Bar"],
                                                                            "phase_no": 1}, game_id=gid)
    assert given.status_code == 200 and given.get_json()["given_by"] == "game master"
    mine = api.call("get", "/v1/games/{game_id}/orders", t["Norway"], game_id=gid).get_json()
    assert [o["order"] for o in mine["orders"]] == ["F Tro - Bar"] and mine["given_by"] == "game master"
    forged = api.call("put", "/v1/games/{game_id}/orders", t["Russia"], json={"power": "Norway", "orders": [],
                                                                                   "phase_no": 1}, game_id=gid)
    assert forged.status_code == 403
    api.submit(gid, t["Russia"], ["A Arc - Ura"])
    api.judge(gid, gm)
    judged = _judged(api, gid, t["USA"])
    assert judged["given_by"] == {"Russia": "Russia", "Norway": "game master"}
    report = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/report", t["USA"], game_id=gid, phase_no=1)
    assert "Orders given by the game master for: Norway." in report.get_data(as_text=True)


# --- the property: nothing one seat sends changes what any other seat is judged to have ordered -------------
RACE_TILES = ("T22 T06 T16 T30 T08 T29 T10 T01 T14 T09 T28 T23 T27 T15 T24 T25 T20 T07 T17 T26 T19 T12 T04 T18 "
              "T03 T02 T21 T13 T05 T11")
# (variant, set-up sheet or None, the attacking seat, its orders as the read sheet names their author, the
# other seats' honest lists, the game master's steps)
GAMES = [
    ("arctic", None, "Russia", "Russia", {"Norway": ["F Tro - Bar", "F Osl - Nwg", "A Lyb - Yer"],
                                          "Denmark": ["F Tor S F Osl - Nwg"], "USA": ["A Brw - Bea"]},
     ["a game master's note"]),  # (Diplomacy has no game-master steps: the door refuses them, the reader too)
    ("arctica", None, "Remi", "Remi", {"Joelle": ["migrate bird from S5"], "Samson": ["migrate fish from S3"]},
     ["melt", "majority", "event lynx", "event bear", "next round"]),
    ("arctic-race", f"players Red, Blue\nstart Blue\ntiles {RACE_TILES}", "Red", "Red",
     {"Blue": ["5 move, roll 3"]}, []),
    ("arctic2019", None, "Russia", "RU", {"USA": ["move 2 ALA - CHS"], "Norway": ["move 1 ship from NNO to BAR"]},
     ["end of turn"]),
]
FRAGMENTS = ["A Lyb - Yer", "Norway: ", "Norway: F Tro H", "F Osl - Nwg", "A Arc H", ";", ",", ":", " ", "#",
             "event bear", "melt", "next round", "Joelle: ", "Joelle: migrate bird from S5", "Blue: ", "Blue: 5 move",
             "5 move", "players Red, Blue", "start Red", "USA: ", "USA: move 2 ALA - CHS", "end of turn",
             "move 1 ship from KOL to BAR", "keep platform in KAR", "Alfred: ", "China automatic move", "S F Osl - Nwg",
             *BREAKS]
ITEMS = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=5).map("".join)


def _author(order) -> str | None:
    for field in ("power", "player", "country"):
        if getattr(order, field, None):
            return getattr(order, field)
    return None


def _others(rules, board, state, lists: dict[str, list[str]], attacker: str) -> list:
    sheet = read_orders(board, state, lists)
    return [rules.order_json(o) | {"author": _author(o)} for o in sheet.orders if _author(o) != attacker]


@pytest.mark.parametrize("variant, setup, seat, author, honest, steps", GAMES, ids=[g[0] for g in GAMES])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sent=st.lists(ITEMS, max_size=6))
def test_any_list_one_seat_sends_leaves_every_other_seats_orders_unchanged(variant, setup, seat, author, honest,
                                                                         steps, sent):
    board = load_variant(variant)
    rules = rules_of(board)
    state = rules.new_game(board, setup_text=setup) if setup else rules.initial_state(board)
    base = {**honest, GM: steps}
    expected = _others(rules, board, state, base, author)
    assert expected, "the honest seats' orders are read"
    attacked = _others(rules, board, state, {seat: sent, **base}, author)
    assert attacked == expected
