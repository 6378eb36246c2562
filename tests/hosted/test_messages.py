"""Issue 38, item 5: talk between a hosted game's seats, on SQLite and PostgreSQL. A message reaches exactly its
recipients (and its sender), survives a restart, is refused in a gunboat game, is bounded (length, recipients,
rate, cap, pages), is for the phase it names, is read by the game master or by all after the end only when the
game says so, names no label in an anonymous game, goes to the webhook naming its recipients (its text only when
the game master may read it), and travels in FAIR's game JSON, out and in."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from adjudicator.games.diplomacy.records.fair import write_fair
from adjudicator.games.diplomacy.records.mila import read_mila
from adjudicator.hosted.limits import Limits
from adjudicator.hosted.models import Delivery
from adjudicator.hosted.service import Caller, HostedError, Service
from adjudicator.hosted.storage import Store, normalise_url, open_store
from adjudicator.refusals import Kind
from tests.games.diplomacy.records.helpers import game as package_game
from tests.hosted.helpers import UNLIMITED, Clock, make_api

ARCTIC = ["Russia", "Norway", "Canada", "Denmark", "USA"]
GM = "game master"


def _send(api, gid, token, to, text, phase_no=1, status=201, **extra):
    response = api.call("post", "/v1/games/{game_id}/messages", token, json={"to": to, "text": text,
                                                                          "phase_no": phase_no, **extra},
                        game_id=gid)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def _inbox(api, gid, token, query=""):
    response = api.call("get", "/v1/games/{game_id}/messages", token, game_id=gid, query=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def _texts(api, gid, token) -> list[str]:
    return [m["text"] for m in _inbox(api, gid, token)["messages"]]


def _game(api, **settings):
    created = api.create(variant="arctic", labels={"Russia": "Ann", "Norway": "Bo"}, settings=settings)
    return created["id"], {**created["tokens"], GM: created["game_master_token"]}


# --- exactly its recipients ------------------------------------------------------------------------------------
SENT = [  # (sender, to, text): each text its own, to find it in any view
    ("Russia", ["Norway"], "r-to-n"), ("Norway", ["Russia", "Canada"], "n-to-rc"), ("Denmark", "ALL", "d-to-all"),
    (GM, ["USA"], "gm-to-u"), ("USA", [GM], "u-to-gm"), (GM, "ALL", "gm-to-all"), ("Canada", ["USA", GM], "c-to-ug"),
]


def _expected(reader: str) -> list[str]:
    return [text for sender, to, text in SENT if sender == reader or (to == "ALL" and reader != GM) or
            (to != "ALL" and reader in to)]


def test_a_message_reaches_exactly_its_recipients_and_its_sender(api):
    gid, tokens = _game(api)
    for sender, to, text in SENT:
        sent = _send(api, gid, tokens[sender], to, text)
        assert sent["sender"] == sender and sent["to"] == to and sent["phase_no"] == 1
    for reader in [*ARCTIC, GM]:
        assert _texts(api, gid, tokens[reader]) == _expected(reader), reader
        shown = json.dumps([api.game(gid, tokens[reader]), _inbox(api, gid, tokens[reader])])
        for _, _, text in SENT:  # nor anywhere else the reader is shown
            assert (text in shown) == (text in _expected(reader)), (reader, text)
    assert _inbox(api, gid, tokens[GM])["reads"] == "own"  # the game master reads no one else's talk


def test_messages_are_read_a_page_at_a_time_after_an_id(api):
    gid, tokens = _game(api)
    ids = [_send(api, gid, tokens["Russia"], ["Norway"], f"m{i}")["id"] for i in range(5)]
    first = _inbox(api, gid, tokens["Norway"], "?limit=2")
    assert [m["text"] for m in first["messages"]] == ["m0", "m1"] and first["more"] and first["next_after"] == ids[1]
    rest = _inbox(api, gid, tokens["Norway"], f"?after={first['next_after']}&limit=100")
    assert [m["text"] for m in rest["messages"]] == ["m2", "m3", "m4"] and not rest["more"]
    assert _inbox(api, gid, tokens["Norway"], f"?after={ids[-1]}") == {
        "messages": [], "more": False, "next_after": ids[-1], "reads": "own", "gunboat": False}
    for query, name in (("?limit=0", "limit"), ("?limit=101", "limit"), ("?after=-1", "after"), ("?after=x", "after"),
                        ("?after=%C2%B2", "after"), ("?limit=99999999999", "limit")):
        refused = api.call("get", "/v1/games/{game_id}/messages", tokens["Norway"], game_id=gid, query=query)
        assert refused.status_code == 400 and refused.get_json()["pointer"] == name, (query, refused.get_json())


# --- survives a restart ------------------------------------------------------------------------------------------
def test_messages_survive_reopening_the_store(db_url):
    url = normalise_url(db_url)
    svc = Service(open_store(url), UNLIMITED, background=False)
    created = svc.create_game("arctic")
    gid = created["id"]
    russia, norway = Caller(gid, "Russia"), Caller(gid, "Norway")
    svc.send_message(russia, ["Norway"], "kept\nacross restarts", phase_no=1, client_id="once")
    svc.send_message(norway, "ALL", "to all", phase_no=1)
    svc.store.dispose()
    again = Service(Store(url), UNLIMITED, background=False)  # a new engine: nothing kept in this process
    try:
        assert [m["text"] for m in again.read_messages(norway)["messages"]] == ["kept\nacross restarts", "to all"]
        assert [m["text"] for m in again.read_messages(Caller(gid, "USA"))["messages"]] == ["to all"]
        kept, new = again.send_message(russia, ["Norway"], "kept\nacross restarts", phase_no=1, client_id="once")
        assert not new and kept["client_id"] == "once"  # the retry finds the message the first process kept
        assert len(again.read_messages(norway)["messages"]) == 2
    finally:
        again.store.dispose()


# --- gunboat, anonymous --------------------------------------------------------------------------------------
def test_a_gunboat_game_refuses_every_message_saying_so(api):
    gid, tokens = _game(api, gunboat=True)
    for sender, to in (("Russia", ["Norway"]), ("Russia", "ALL"), (GM, "ALL")):
        refused = api.call("post", "/v1/games/{game_id}/messages", tokens[sender],
                           json={"to": to, "text": "psst", "phase_no": 1}, game_id=gid)
        assert refused.status_code == 422, refused.get_json()
        assert refused.get_json()["title"] == "Gunboat game" and "gunboat" in refused.get_json()["detail"]
    assert _inbox(api, gid, tokens["Norway"]) == {"messages": [], "more": False, "next_after": 0, "reads": "own",
                                                  "gunboat": True}
    assert api.game(gid, tokens["Norway"])["settings"]["gunboat"] is True  # what a page shows instead of talk


def test_anonymous_seats_show_their_power_only(api):
    gid, tokens = _game(api, anonymous_seats=True)
    sent = _send(api, gid, tokens["Russia"], ["Norway"], "who am I")
    assert "sender_label" not in sent and sent["sender"] == "Russia"
    norway = api.game(gid, tokens["Norway"])
    shown = json.dumps([norway, _inbox(api, gid, tokens["Norway"])])
    assert "Ann" not in shown and {s["power"]: s["label"] for s in norway["seats"]}["Norway"] == "Bo"  # its own
    assert {s["power"]: s["label"] for s in api.game(gid, tokens[GM])["seats"]}["Russia"] == "Ann"  # the GM's list
    named = _game(api)
    assert _send(api, named[0], named[1]["Russia"], ["Norway"], "hello")["sender_label"] == "Ann"


# --- bounded -----------------------------------------------------------------------------------------------------
def test_a_message_is_bounded_in_length_and_recipients(db_url):
    api = make_api(db_url, HOSTED_LIMITS=Limits(requests_per_minute=10**6, games_per_hour=10**6,
                                                 max_message_length=20))
    gid, tokens = _game(api)
    assert _send(api, gid, tokens["Russia"], ["Norway"], "x" * 20)["text"] == "x" * 20
    too_long = _send(api, gid, tokens["Russia"], ["Norway"], "x" * 21, status=400)
    assert too_long["pointer"] == "/text" and "over 20 characters" in too_long["detail"]
    for to, pointer, said in ((["Atlantis"], "/to/0", "has no seat"), (["Norway", "Norway"], "/to/1", "twice"),
                              (["Russia"], "/to/0", "leave yourself out"), ([], "/to", "ALL"),
                              ("all of you", "/to", "ALL"), (["x"] * 34, "/to", "")):
        refused = _send(api, gid, tokens["Russia"], to, "hi", status=400)
        assert refused["pointer"] == pointer and said in refused["detail"], (to, refused)
    assert _send(api, gid, tokens["Russia"], ["   "], "hi", status=400)["detail"] == "recipient 1 is blank"
    assert _send(api, gid, tokens["Russia"], ["Norway"], " \n\t ", status=400)["detail"] == "the message is blank"
    assert _send(api, gid, tokens["Russia"], ["Norway"], "hi", client_id="no spaces", status=400)["pointer"] == \
        "/client_id"


def test_a_seat_is_rate_limited_and_a_game_capped(db_url):
    clock = Clock()
    limits = Limits(requests_per_minute=10**6, games_per_hour=10**6, messages_per_minute=3, max_messages=7)
    svc = Service(open_store(normalise_url(db_url)), limits, clock=clock, background=False)
    gid = svc.create_game("arctic")["id"]
    russia, norway = Caller(gid, "Russia"), Caller(gid, "Norway")
    for i in range(3):  # a burst of the rate, then one every 20 s
        svc.send_message(russia, ["Norway"], f"r{i}", phase_no=1)
    with pytest.raises(HostedError) as caught:
        svc.send_message(russia, ["Norway"], "r3", phase_no=1)
    assert caught.value.kind is Kind.TOO_MANY and caught.value.extra["retry_after"] == 21
    assert "3 messages at once, then one every 20 s" in caught.value.detail
    svc.send_message(norway, ["Russia"], "n0", phase_no=1)  # another seat's own allowance
    clock.now += 20
    svc.send_message(russia, ["Norway"], "r3", phase_no=1)
    assert [m["text"] for m in svc.read_messages(norway)["messages"]] == ["r0", "r1", "r2", "n0", "r3"]
    clock.now += 600
    svc.send_message(russia, "ALL", "r4", phase_no=1)
    svc.send_message(norway, "ALL", "n1", phase_no=1)
    with pytest.raises(HostedError) as caught:  # the game's cap: 7 kept
        svc.send_message(norway, "ALL", "n2", phase_no=1)
    assert caught.value.kind is Kind.CONFLICT and "at most 7 messages" in caught.value.detail
    assert len(svc.read_messages(Caller(gid, None), limit=100)["messages"]) == 0  # (the GM: none of its own)
    assert len(svc.read_messages(norway)["messages"]) == 7


# --- hostile text ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "why"), [
    ("a\x00b", "NUL"), ("\ud800", "lone surrogate"), ("evil \u202e txet", "bidirectional control"),
    ("one\u2028two", "line break"), ("bell\x07", "control character"), ("one\rtwo", "line break (U+000D)"),
    ("\x85", "line break"), ("\ufdd0", "control character"),
])
def test_hostile_text_is_a_400_naming_it_on_every_database(api, text, why):
    gid, tokens = _game(api)
    body = json.dumps({"to": ["Norway"], "text": text, "phase_no": 1})
    answer = api.client.post(f"/v1/games/{gid}/messages", data=body, content_type="application/json",
                             headers={"Authorization": f"Bearer {tokens['Russia']}"})
    assert answer.status_code == 400 and answer.get_json()["pointer"] == "/text", answer.get_json()
    assert why in answer.get_json()["detail"]
    assert _texts(api, gid, tokens["Norway"]) == []


def test_markup_and_lines_come_back_as_data(api):
    gid, tokens = _game(api)
    text = "<script>alert(1)</script>\r\n\t{{7*7}} ' OR 1=1 --\n\u05d0\u05d1 \U0001f3f3\ufe0f\u200d\U0001f308"
    _send(api, gid, tokens["Russia"], ["Norway"], text)
    answer = api.call("get", "/v1/games/{game_id}/messages", tokens["Norway"], game_id=gid)
    assert answer.mimetype == "application/json" and answer.headers["Cache-Control"] == "no-store"
    assert answer.get_json()["messages"][0]["text"] == text.replace("\r\n", "\n")


# --- the phase it is for -----------------------------------------------------------------------------------------
def test_a_send_names_its_phase_and_a_retry_never_posts_into_a_newer_one(api):
    gid, tokens = _game(api)
    russia = tokens["Russia"]
    missing = api.call("post", "/v1/games/{game_id}/messages", russia, json={"to": ["Norway"], "text": "hi"},
                       game_id=gid)
    assert missing.status_code == 400 and missing.get_json()["current_phase_no"] == 1
    ahead = _send(api, gid, russia, ["Norway"], "hi", phase_no=2, status=409)
    assert ahead["current_phase_no"] == 1 and ahead["current_phase"] == "Fall 2010 Movement"
    first = _send(api, gid, russia, ["Norway"], "before the judgement", client_id="c-1")
    assert (first["phase_no"], first["phase"]) == (1, "Fall 2010 Movement")
    again = _send(api, gid, russia, ["Norway"], "before the judgement", client_id="c-1", status=200)
    assert again == first  # the same message, nothing sent
    used = _send(api, gid, russia, ["Norway"], "another", client_id="c-1", status=409)
    assert used["title"] == "Client id used" and f"id {first['id']}" in used["detail"]
    api.judge(gid, tokens[GM])
    assert _send(api, gid, russia, ["Norway"], "no id", phase_no=1, status=409)["current_phase_no"] == 2
    late = _send(api, gid, russia, ["Norway"], "before the judgement", client_id="c-1", phase_no=1, status=200)
    assert late["id"] == first["id"] and late["phase_no"] == 1  # a retry after the phase moved on: the kept one
    second = _send(api, gid, russia, ["Norway"], "in the next phase", phase_no=2)
    assert (second["phase_no"], second["phase"]) != (1, "Fall 2010 Movement") and second["phase_no"] == 2
    assert [m["phase_no"] for m in _inbox(api, gid, tokens["Norway"])["messages"]] == [1, 2]


def test_an_ended_game_takes_no_messages(api):
    gid, tokens = _game(api)
    api.call("post", "/v1/games/{game_id}/end", tokens[GM], json={"kind": "stopped"}, game_id=gid)
    refused = _send(api, gid, tokens["Russia"], ["Norway"], "too late", status=409)
    assert refused["title"] == "Game over"


# --- who reads what ----------------------------------------------------------------------------------------------
def test_the_game_master_reads_every_message_only_when_the_game_says_so(api):
    gid, tokens = _game(api, game_master_reads_messages=True)
    for sender, to, text in SENT:
        _send(api, gid, tokens[sender], to, text)
    read = _inbox(api, gid, tokens[GM])
    assert read["reads"] == "all" and [m["text"] for m in read["messages"]] == [t for _, _, t in SENT]
    assert _texts(api, gid, tokens["USA"]) == _expected("USA")  # the seats read their own, as ever


@pytest.mark.parametrize("visible", [True, False])
def test_after_the_end_everyone_reads_every_message_only_when_the_game_says_so(api, visible):
    gid, tokens = _game(api, messages_visible_after_end=visible)
    for sender, to, text in SENT:
        _send(api, gid, tokens[sender], to, text)
    assert _texts(api, gid, tokens["USA"]) == _expected("USA")
    api.call("post", "/v1/games/{game_id}/end", tokens[GM], json={"kind": "draw"}, game_id=gid)
    for reader in ("USA", GM):
        read = _inbox(api, gid, tokens[reader])
        everything = [t for _, _, t in SENT]
        assert read["reads"] == ("all" if visible else "own")
        assert [m["text"] for m in read["messages"]] == (everything if visible else _expected(reader))


# --- the webhook -------------------------------------------------------------------------------------------------
def _events(svc: Service, gid: str) -> list[dict]:
    with svc.store.sessions() as session:
        bodies = session.scalars(select(Delivery.body).where(Delivery.game_id == gid).order_by(Delivery.id))
        return [b for b in map(json.loads, bodies) if b["event"] == "message"]


@pytest.mark.parametrize("gm_reads", [False, True])
def test_the_webhook_names_the_recipients_and_carries_the_text_only_to_whom_may_read_it(db_url, gm_reads):
    svc = Service(open_store(normalise_url(db_url)), UNLIMITED, background=False)
    gid = svc.create_game("arctic", labels={"Russia": "Ann"}, webhook_url="https://hooks.example.com/x",
                          settings={"game_master_reads_messages": gm_reads, "anonymous_seats": True})["id"]
    svc.send_message(Caller(gid, "Russia"), ["Norway", "Canada"], "secret plan", phase_no=1)
    svc.send_message(Caller(gid, "Norway"), "ALL", "public word", phase_no=1)
    svc.send_message(Caller(gid, "USA"), [GM], "to the referee", phase_no=1)
    first, to_all, to_gm = _events(svc, gid)
    assert first["message"]["recipients"] == ["Norway", "Canada"] and first["message"]["sender"] == "Russia"
    assert first["phase_no"] == 1 and first["delivery_id"].startswith(f"{gid}.1.message.")
    assert first["message"]["length"] == len("secret plan") and first["message"]["to"] == ["Norway", "Canada"]
    assert to_all["message"]["to"] == "ALL" and to_all["message"]["recipients"] == ["Russia", "Canada", "Denmark",
                                                                                     "USA"]
    assert ("text" in first["message"]) is gm_reads and ("text" in to_all["message"]) is gm_reads
    assert to_gm["message"]["text"] == "to the referee"  # a message to the game master: its own to read
    bodies = json.dumps([first, to_all, to_gm])
    assert "Ann" not in bodies  # (anonymous: the power only)
    assert ("secret plan" in bodies) is gm_reads
    gunboat = svc.create_game("arctic", webhook_url="https://hooks.example.com/x", settings={"gunboat": True})["id"]
    with pytest.raises(HostedError):
        svc.send_message(Caller(gunboat, "Russia"), "ALL", "x", phase_no=1)
    assert _events(svc, gunboat) == []


# --- FAIR's game JSON, out and in --------------------------------------------------------------------------------
def _standard_game(api, **settings):
    created = api.create(variant="standard", settings=settings)
    return created["id"], {**created["tokens"], GM: created["game_master_token"]}


def _fair(api, gid, token) -> dict:
    answer = api.call("get", "/v1/games/{game_id}/record", token, game_id=gid, query="?format=fair")
    assert answer.status_code == 200, answer.get_json()
    return json.loads(answer.get_data(as_text=True))


def test_the_fair_export_carries_each_phases_messages_once_everyone_may_read_them(api):
    gid, tokens = _standard_game(api, messages_visible_after_end=True)
    _send(api, gid, tokens["England"], ["France", "Germany"], "Channel DMZ?")
    _send(api, gid, tokens["France"], "ALL", "peace\nfor all")
    _send(api, gid, tokens[GM], "ALL", "from the game master")  # (no power's: left out of FAIR's)
    api.submit(gid, tokens["France"], ["A Par - Bur"])
    api.judge(gid, tokens[GM])
    _send(api, gid, tokens["Italy"], ["Austria"], "Lepanto", phase_no=2)
    during = _fair(api, gid, tokens["England"])
    assert all(p["messages"] == [] for p in during["phases"]) and during["metadata"]["messages"].startswith(
        "left out: this caller may not read every message")
    api.call("post", "/v1/games/{game_id}/end", tokens[GM], json={"kind": "draw"}, game_id=gid)
    after = _fair(api, gid, tokens["England"])
    assert after["metadata"] == {"messages": "included: every message"}
    spring, fall = after["phases"]
    said = [(m["phase"], m["sender"], m["recipient"], m["message"]) for m in spring["messages"]
            if m["message"] != "<DRAW>"]
    assert said == [("S1901M", "ENGLAND", "FRANCE", "Channel DMZ?"), ("S1901M", "ENGLAND", "GERMANY", "Channel DMZ?"),
                    ("S1901M", "FRANCE", "ALL", "peace\nfor all")]
    assert all(isinstance(m["time_sent"], int) and m["time_sent"] > 10**11 for m in spring["messages"]
               if m["message"] != "<DRAW>")  # centiseconds, as FAIR's
    assert fall["name"] == "COMPLETED" and [(m["phase"], m["sender"], m["recipient"]) for m in fall["messages"]] == [
        ("F1901M", "ITALY", "AUSTRIA")]
    mila = json.loads(api.call("get", "/v1/games/{game_id}/record", tokens["England"], game_id=gid).get_data())
    assert all(p["messages"] == [] for p in mila["phases"])  # the package's saved game carries none (README)


def test_the_game_master_who_reads_every_message_exports_them_during_the_game(api):
    gid, tokens = _standard_game(api, game_master_reads_messages=True)
    _send(api, gid, tokens["England"], ["France"], "now")
    assert [m["message"] for m in _fair(api, gid, tokens[GM])["phases"][-1]["messages"]] == ["now"]
    assert _fair(api, gid, tokens["France"])["phases"][-1]["messages"] == []  # a seat: not all of them
    gunboat, gunboat_tokens = _standard_game(api, gunboat=True)
    assert _fair(api, gunboat, gunboat_tokens[GM])["metadata"] == {"messages": "none: a gunboat game"}


def _record_with_messages() -> dict:
    record = write_fair(read_mila(package_game(4)))
    record["phases"][0]["messages"] = {  # FAIR's mapping of time to message
        "100": {"phase": "S1901M", "sender": "ENGLAND", "recipient": "FRANCE", "time_sent": 100, "message": "hi"},
        "250": {"phase": "S1901M", "sender": "FRANCE", "recipient": "ALL", "time_sent": 250, "message": "all\nof you"},
        "300": {"phase": "S1901M", "sender": "REFEREE", "recipient": "ALL", "time_sent": 300, "message": "?"}}
    record["phases"][1]["messages"] = [
        {"phase": record["phases"][1]["name"], "sender": "ITALY", "recipient": "AUSTRIA", "time_sent": 400,
         "message": "later"}]
    return record


def test_a_fair_record_begins_a_game_with_its_messages(api):
    record = _record_with_messages()
    created = api.create(record=record, settings={"game_master_reads_messages": True})
    gid, tokens = created["id"], created["tokens"]
    assert any("'REFEREE' is not a power" in note and "not kept" in note for note in created["notes"])
    france = _inbox(api, gid, tokens["France"])["messages"]
    assert [(m["sender"], m["to"], m["text"], m["phase_no"]) for m in france] == [
        ("England", ["France"], "hi", 1), ("France", "ALL", "all\nof you", 1)]
    assert france[0]["sent_at"] == "1970-01-01T00:00:01Z"  # 100 centiseconds
    assert _texts(api, gid, tokens["Germany"]) == ["all\nof you"]
    assert [m["phase_no"] for m in _inbox(api, gid, tokens["Austria"])["messages"]] == [1, 2]
    names = {p["phase_no"]: p["phase"] for p in api.call("get", "/v1/games/{game_id}/phases", tokens["France"],
                                                         game_id=gid).get_json()}
    assert france[0]["phase"] == names[1]
    out = _fair(api, gid, created["game_master_token"])  # read by whom reads every message: as it came
    assert [(m["sender"], m["recipient"], m["time_sent"], m["message"]) for m in out["phases"][0]["messages"]] == [
        ("ENGLAND", "FRANCE", 100, "hi"), ("FRANCE", "ALL", 250, "all\nof you")]
    assert [m["message"] for m in out["phases"][1]["messages"]] == ["later"]


def test_a_record_whose_messages_cannot_be_kept_is_refused_naming_where(api):
    record = _record_with_messages()
    record["phases"][1]["messages"][0]["message"] = "bell\x07"
    refused = api.call("post", "/v1/games", json={"record": record})
    assert refused.status_code == 400 and refused.get_json()["pointer"] == "/record/phases/1/messages/0/message"
    gunboat = api.call("post", "/v1/games", json={"record": _record_with_messages(), "settings": {"gunboat": True}})
    assert gunboat.status_code == 400 and gunboat.get_json()["pointer"] == "/settings/gunboat"
    nul = api.call("post", "/v1/games", json={"record": {**record, "phases": [
        {**record["phases"][0], "messages": [{"sender": "ENGLAND", "recipient": "ALL", "message": "a\x00b"}]},
        *record["phases"][1:]]}})
    assert nul.status_code == 400 and nul.get_json()["pointer"] == "/record/phases/0/messages/0/message"
