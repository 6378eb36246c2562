"""Issue 36: a hosted game's pace: the pause and its cap, the grace period, NMR extensions, deadlines at a clock
time across a daylight-saving change, reminders; each through the ticker (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from sqlalchemy import select
from tests.hosted.helpers import OPENING, Clock, own_database  # noqa: F401 - own_database: the fixture db_url

from adjudicator.hosted import webhooks
from adjudicator.hosted.models import Delivery
from adjudicator.hosted.service import HostedError, Service
from adjudicator.hosted.storage import open_store

HOOK = "http://127.0.0.1:9/hook"  # the events are read from the outbox; none is sent


def _service(db_url: str, clock: Clock) -> Service:
    return Service(open_store(db_url), clock=clock, background=False,
                   policy=webhooks.Policy(egress=webhooks.Egress.parse("127.0.0.1")))


def _game(svc: Service, settings: dict, variant: str = "standard"):
    created = svc.create_game(variant, settings=settings, webhook_url=HOOK)
    seats = {p: svc.authenticate(created["id"], t) for p, t in created["tokens"].items()}
    return created, seats, svc.authenticate(created["id"], created["game_master_token"])


def _at(text: str | None) -> float:
    assert text is not None
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _events(svc: Service, game_id: str) -> list[dict]:
    with svc.store.sessions() as session:
        bodies = session.scalars(select(Delivery.body).where(Delivery.game_id == game_id).order_by(Delivery.id))
        return [json.loads(b) for b in bodies]


def _tick(svc: Service) -> list[dict]:
    return svc.tick()[0]


def test_a_pause_holds_the_deadline_through_a_tick_and_resumes(db_url):
    clock = Clock()
    svc = _service(db_url, clock)
    created, _, gm = _game(svc, {"phase_seconds": 3600, "pause": {"max_seconds": 7200, "max_times": 1}})
    clock.now += 600
    paused = svc.pause(gm, phase_no=1)
    assert paused["status"] == "paused" and paused["pause"]["deadline_left_seconds"] == 3000
    clock.now += 3600  # past the old deadline: the tick judges nothing
    assert _tick(svc) == [] and svc.game_view(gm)["phases_judged"] == 0
    resumed = svc.resume(gm, phase_no=1)
    assert _at(resumed["deadline"]) == clock.now + 3000  # the time left at the pause, from now
    with pytest.raises(HostedError) as caught:
        svc.pause(gm, phase_no=1)  # the settings allow one pause
    assert caught.value.kind.value == "conflict" and "1" in caught.value.detail
    names = [e["event"] for e in _events(svc, created["id"])]
    assert names == ["game.paused", "game.resumed"]
    ids = [d["delivery_id"] for d in svc.webhook_status(gm)["deliveries"]]
    assert len(set(ids)) == 2 and all(i.startswith(created["id"] + ".1.game.") for i in ids)  # one id each


def test_the_pause_cap_resumes_the_game_by_itself(db_url):
    clock = Clock()
    svc = _service(db_url, clock)
    created, _, gm = _game(svc, {"phase_seconds": 3600, "pause": {"max_seconds": 7200, "max_times": 3}})
    svc.pause(gm, phase_no=1)
    clock.now += 7199
    assert _tick(svc) == [] and svc.game_view(gm)["status"] == "paused"
    clock.now += 2
    (done,) = _tick(svc)
    view = svc.game_view(gm)
    assert done["did"] == "resume" and view["status"] == "active" and _at(view["deadline"]) == clock.now - 1 + 3600
    assert _events(svc, created["id"])[-1]["by"] == "pause cap"


def test_a_paused_game_is_not_judged_by_readiness_or_the_game_master(db_url):
    clock = Clock()
    svc = _service(db_url, clock)
    _, seats, gm = _game(svc, {"phase_seconds": 3600})
    svc.pause(gm, phase_no=1)
    with pytest.raises(HostedError) as caught:
        svc.adjudicate(gm, phase_no=1)
    assert "paused" in caught.value.detail
    for seat in seats.values():
        assert svc.set_ready(seat, True, phase_no=1)["adjudicated"] is None  # orders and readiness go on


def test_a_grace_period_then_an_nmr_extension_then_the_judgement(db_url):
    clock = Clock()
    svc = _service(db_url, clock)
    created, seats, gm = _game(svc, {"phase_seconds": 3600, "grace_seconds": 600,
                                     "nmr_extensions": {"count": 1, "seconds": 1800}})
    orders = {"England": ["F Lon - Nth"], "France": ["A Par - Bur"], "Germany": ["A Ber - Kie"],
              "Austria": ["A Vie - Gal"], "Russia": ["A Mos - Ukr"], "Turkey": ["A Con - Bul"]}
    for power, lines in orders.items():
        svc.submit(seats[power], lines, phase_no=1)
    deadline = clock.now + 3600
    clock.now = deadline
    (grace,) = _tick(svc)  # Italy has sent nothing: its grace
    assert grace["did"] == "extend" and _at(grace["deadline"]) == deadline + 600
    clock.now = deadline + 600
    (extension,) = _tick(svc)
    assert extension["did"] == "extend" and _at(extension["deadline"]) == deadline + 600 + 1800
    view = svc.game_view(gm)
    assert view["deadline_extended"] == {"grace": True, "extensions": 1}
    clock.now = deadline + 2400
    (judged,) = _tick(svc)
    assert judged["trigger"] == "deadline" and judged["missed"] == ["Italy"]
    assert [e["event"] for e in _events(svc, created["id"])][:2] == ["deadline.extended", "deadline.extended"]
    assert _events(svc, created["id"])[0]["waiting_for"] == ["Italy"]


def test_no_grace_when_every_power_has_sent_orders(db_url):
    clock = Clock()
    svc = _service(db_url, clock)
    created, seats, _ = _game(svc, {"phase_seconds": 3600, "grace_seconds": 600}, variant="arctic")
    for power, lines in OPENING.items():
        svc.submit(seats[power], lines, phase_no=1)
    clock.now += 3600
    (judged,) = _tick(svc)
    assert judged["trigger"] == "deadline" and judged["missed"] == []


def test_a_deadline_at_a_clock_time_across_a_daylight_saving_change(db_url):
    # Saturday 28 March 2026, noon UTC; Paris moves its clocks from 02:00 CET to 03:00 CEST on the 29th.
    clock = Clock(datetime(2026, 3, 28, 12, 0, tzinfo=timezone.utc).timestamp())
    svc = _service(db_url, clock)
    _, _, gm = _game(svc, {"deadline_clock": {"time": "21:00", "zone": "Europe/Paris"}})
    assert svc.game_view(gm)["deadline"] == "2026-03-28T20:00:00Z"  # 21:00 CET
    clock.now = _at("2026-03-28T20:00:00Z")
    (judged,) = _tick(svc)
    assert svc.game_view(gm)["deadline"] == "2026-03-29T19:00:00Z"  # 21:00 CEST, a day later


def test_a_reminder_before_the_deadline_names_who_has_not_sent_orders(db_url):
    clock = Clock()
    svc = _service(db_url, clock)
    created, seats, _ = _game(svc, {"phase_seconds": 7200, "reminder_seconds": 3600})
    svc.submit(seats["England"], ["F Lon - Nth"], phase_no=1)
    clock.now += 3599
    assert _tick(svc) == []
    clock.now += 1
    (reminded,) = _tick(svc)
    assert reminded["did"] == "remind"
    (event,) = _events(svc, created["id"])
    assert event["event"] == "deadline.reminder" and "England" not in event["waiting_for"]
    assert sorted(event["waiting_for"]) == ["Austria", "France", "Germany", "Italy", "Russia", "Turkey"]
    assert _tick(svc) == []  # once



def test_each_phase_kind_has_its_own_duration(db_url):
    clock = Clock()
    svc = _service(db_url, clock)
    state = {"phase": "Spring 1901 Movement", "centres": {"France": ["Par"], "Germany": ["Mun"]},
             "units": {"France": ["A Bur"], "Germany": ["A Mun", "A Ruh"]}}
    created = svc.create_game("standard", state=state, settings={
        "phase_seconds": 86400, "phase_durations": {"movement": 3600, "retreat": 600}})
    gm = svc.authenticate(created["id"], created["game_master_token"])
    germany = svc.authenticate(created["id"], created["tokens"]["Germany"])
    assert _at(svc.game_view(gm)["deadline"]) == clock.now + 3600
    svc.submit(germany, ["A Mun - Bur", "A Ruh S A Mun - Bur"], phase_no=1)
    clock.now += 10
    svc.adjudicate(gm, phase_no=1)
    view = svc.game_view(gm)
    assert view["phase"] == "Spring 1901 Retreat" and _at(view["deadline"]) == clock.now + 600
    svc.adjudicate(gm, phase_no=2)
    assert _at(svc.game_view(gm)["deadline"]) == clock.now + 3600  # Fall's movement
