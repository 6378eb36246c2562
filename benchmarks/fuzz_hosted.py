"""A stateful fuzz of hosted games (issues 26 and 36): several powers and the game master drive one game through
the HTTP API (Flask's test client, the application `adjudicator serve` runs), in any order, with hostile text:
orders and judgements; draw votes (DIAS and named), concessions and their withdrawal; the game master's
declared end; pauses, resumes and the pause's cap (time moves by hand); seats handed to new players; civil
disorder (seats that send nothing, the game master giving their orders); scores; and requests with a replaced
seat's old token, another game's, or none.

A hypothesis rule-based state machine keeps a model of each seat (its pending orders and who gave them, its
ballot, its missed phases and civil disorder: fuzz_hosted_model.py) and of the game (paused, ended and how), and
checks every answer's status against the model, then after every step:

- no answer is a 5xx;
- no view (the game and each seat's own orders, as each seat and the game master see them; the scores; the
  webhook payloads) shows another seat's pending orders (each carries a unique marker) or a secret vote (a seat
  sees its own vote, the game master who has voted, no one what another voted);
- no phase is judged twice: the judged phases are numbered 1..n, once each, n as the model counted;
- the orders judged for each seat are exactly the ones it sent (or the game master gave it), and say who gave
  them; each phase's missed orders, each seat's counts and civil disorder are the model's;
- a vote, a concession, the game master's end and each judgement end the game exactly as the model says (a draw
  every survivor votes for, civil-disorder seats as the settings count them; all survivors in civil disorder:
  abandoned), and an ended game never changes: every write is refused (4xx, a 409 naming the end), its views,
  phases, scores and webhooks stay as they were;
- a replaced seat's old token, another game's token, or none is refused (403, 401), and nothing changes;
- a write that names no phase, a past one or one ahead is refused (400, 409), never taken for the current one.

    python benchmarks/fuzz_hosted.py --steps 50000 [--database postgresql://...]

It prints the steps, games, phases judged, votes, ends, replacements, pauses, the status codes, and the seconds;
exit status 1 on any failure (hypothesis prints the shortest sequence of steps that shows it).
`tests/hosted/test_hosted_fuzz.py` runs it briefly.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import hypothesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, get_state_machine_test, initialize, invariant, precondition, rule

ROOT = Path(__file__).resolve().parent.parent
for _folder in (ROOT, ROOT / "benchmarks"):
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

from sqlalchemy import select  # noqa: E402

from adjudicator.game import rules_of  # noqa: E402
from adjudicator.hosted import webhooks  # noqa: E402
from adjudicator.hosted.limits import Limits  # noqa: E402
from adjudicator.hosted.models import Delivery, Game, Seat, Submission  # noqa: E402
from adjudicator.hosted.service import Caller, Service  # noqa: E402
from adjudicator.hosted.storage import open_store  # noqa: E402
from adjudicator.loading import board_of, position_of  # noqa: E402
from api import create_app  # noqa: E402
from fuzz_hosted_model import (ALLOWED, BALLOT, GM, HOLDOUTS, NAME, NOWHERE, PLAIN, SEATS, SETTINGS, TEXT, WHICH,  # noqa: E402
                               Clock, Refused, SeatRecord, after_phase, agreed, ballot_body, ballot_of, check_seat,
                               declared, end_after_phase, marks_in)

HOOK = "http://127.0.0.1:9/fuzz"  # kept in the outbox (no sender runs), where the checks read every payload
STEPS = Counter()  # steps and answers of this process, for the report
OTHERS: list[str] = []  # tokens of earlier games (refused by this one)


class HostedGame(RuleBasedStateMachine):
    """One hosted game, its seats and its game master, and the model of what each has sent and voted."""

    url = "sqlite:///:memory:"  # set by the runner: the database every game of the run is kept in
    app: Any = None
    clock = Clock()

    def __init__(self) -> None:
        super().__init__()
        self.pending: dict[str, list[str]] = {}  # seat (or GM) -> the items of its pending orders, as stored
        self.given: dict[str, str] = {}  # seat -> who gave its pending orders
        self.judged = 0
        self.marks = 0
        self.status, self.pauses, self.paused_until = "active", 0, 0.0
        self.end: tuple[str, tuple[str, ...], str] | None = None  # (kind, powers, by) once the game has ended
        self.old_tokens: list[str] = []
        self.frozen: Any = None  # an ended game's views, as they must stay
        self.seen_delivery = 0

    # --- the HTTP calls, each checked for its allowed answers -------------------------------------------------
    def call(self, kind: str, method: str, path: str, token: str | None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        data = None if body is None else json.dumps(body)
        response = self.client.open(path, method=method, data=data, headers=headers,
                                    content_type="application/json" if body is not None else None)
        STEPS[f"{method} {response.status_code}"] += 1
        assert response.status_code < 500, (method, path, body, response.get_data(as_text=True)[:500])
        assert response.status_code in ALLOWED[kind], (kind, path, body, response.status_code, response.get_json())
        if self.end is not None and method != "GET":  # an ended game takes no write
            assert 400 <= response.status_code < 500, (method, path, body, response.get_json())
            assert response.status_code != 409 or response.get_json()["title"] == "Game over", response.get_json()
        return response

    def expect(self, response: Any, status: int) -> dict[str, Any]:
        """The answer, once its status is the model's."""
        answer = response.get_json()
        assert response.status_code == status, (status, response.status_code, answer)
        return answer

    @initialize(variant=st.sampled_from(sorted(SEATS)), options=SETTINGS)
    def create(self, variant: str, options: dict[str, Any]) -> None:
        if HostedGame.app is None:
            limits = Limits(requests_per_minute=10**9, games_per_hour=10**9)
            app = create_app({"ADJUDICATOR_DATABASE_URL": self.url, "HOSTED_LIMITS": limits})
            app.extensions["hosted"] = Service(open_store(self.url), limits, clock=HostedGame.clock, background=False,
                                               policy=webhooks.Policy(egress=webhooks.Egress.parse("127.0.0.1")))
            HostedGame.app = app
        self.client = HostedGame.app.test_client()
        self.service: Service = HostedGame.app.extensions["hosted"]
        response = self.client.post("/v1/games", json={"variant": variant, "settings": options, "webhook_url": HOOK})
        assert response.status_code == 201, response.get_json()
        created = response.get_json()
        self.variant, self.gid, self.options = variant, created["id"], options
        self.tokens = {**created["tokens"], GM: created["game_master_token"]}
        self.seats = {p: SeatRecord() for p in created["tokens"]}
        self.board, self.state = position_of(board_of(variant, None), self.service.game_view(self._gm())["state"])
        STEPS["games"] += 1

    def teardown(self) -> None:
        if hasattr(self, "gid"):  # (its tokens, for the games after it to refuse)
            OTHERS[:] = [*OTHERS[-8:], self.tokens[GM], *self.old_tokens[:1], self.tokens[SEATS[self.variant][0]]]

    def _gm(self) -> Caller:
        return Caller(self.gid, None)

    def _power(self, index: int) -> str:
        names = [*SEATS[self.variant], NOWHERE]
        return names[index % len(names)]

    def _all_but(self, holdouts: list[int]) -> list[str]:
        """The game's seats but those the holdouts name (by their indices)."""
        powers = SEATS[self.variant]
        return [p for p in powers if p not in {powers[i % len(powers)] for i in holdouts}]

    def _survivors(self) -> list[str]:
        return [p for p in rules_of(self.board).survivors(self.board, self.state) if p in self.seats]

    def _marked(self, items: list[str], mark: bool) -> list[str]:
        """The items, the first one carrying a marker no other item of the run has (to find it in a view)."""
        if not mark or not items:
            return items
        self.marks += 1
        return [f"{items[0]} zq{self.marks}x", *items[1:]]

    def _path(self, tail: str = "") -> str:
        return f"/v1/games/{self.gid}" + (f"/{tail}" if tail else "")

    def _phase(self, which: str) -> int | None:
        return {"current": self.judged + 1, "past": self.judged, "ahead": self.judged + 2, "huge": 2**31}.get(which)

    def _bound(self, body: dict[str, Any], which: str) -> dict[str, Any]:
        """The body naming the phase `which` (none: no `phase_no`)."""
        number = self._phase(which)
        return body if number is None else {**body, "phase_no": number}

    def _unreadable(self, which: str) -> bool:
        """Whether the phase `which` names is no phase number at all (0, 2^31): refused by the body's schema (400)
        before anything else is looked at."""
        number = self._phase(which)
        return number is not None and not 1 <= number < 2**31

    def _phase_refusal(self, which: str, paused_ok: bool = True) -> int | None:
        """The status a phase-bound write gets before its own checks: the game ended (or paused, for a write that
        a pause stops), the phase none (400) or another (409); None: it goes on."""
        if self._unreadable(which):
            return 400
        if self.end is not None or (self.status == "paused" and not paused_ok):
            return 409
        return None if which == "current" else 400 if which == "none" else 409

    @staticmethod
    def _refused_unless_current(which: str, response: Any) -> None:
        assert which == "current" or response.status_code != 200, (which, response.get_json())

    def _took(self, key: str, items: list[str], given_by: str) -> None:
        self.pending[key] = [i.strip() for i in items if i.strip()]
        self.given[key] = given_by

    def _after(self, answer: dict) -> None:
        """A request that judged the phase: check it against the model, then start the next phase."""
        if answer.get("adjudicated"):
            self._check_judged(answer["adjudicated"])

    # --- the rules: orders and judgements -----------------------------------------------------------------------
    @rule(seat=st.integers(0, 4), items=st.lists(TEXT, max_size=5), ready=st.sampled_from([None, True, False]),
          mark=st.booleans(), as_text=st.booleans(), which=WHICH)
    def submit(self, seat: int, items: list[str], ready: bool | None, mark: bool, as_text: bool, which: str) -> None:
        self._send(SEATS[self.variant][seat % len(SEATS[self.variant])], self._marked(items, mark), ready, as_text,
                   which)

    @rule(holdouts=HOLDOUTS, by_gm=st.sampled_from([False, False, True]), ready=st.sampled_from([None, True]))
    def plain_orders(self, holdouts: list[int], by_gm: bool, ready: bool | None) -> None:
        """Every seat but the holdouts sends plain orders for the current phase (or the game master for them):
        the game goes on, the holdouts miss the phase, and those in civil disorder come back."""
        for power in self._all_but(holdouts):
            items = self._marked(PLAIN[self.variant], True)
            if self.end is not None:
                break
            if by_gm:
                self._give(power, items, False, "current")
            else:
                self._send(power, items, ready, False, "current")

    @precondition(lambda self: any(s.disorder for s in getattr(self, "seats", {}).values()) and self.end is None)
    @rule(by_gm=st.booleans(), pick=st.integers(0, 4))
    def seat_in_disorder_plays(self, by_gm: bool, pick: int) -> None:
        """A seat in civil disorder sends plain orders (it is back), or the game master gives them (it stays)."""
        powers = [p for p, s in self.seats.items() if s.disorder]
        power, items = powers[pick % len(powers)], self._marked(PLAIN[self.variant], True)
        if by_gm:
            self._give(power, items, False, "current")
        else:
            self._send(power, items, None, False, "current")

    def _send(self, power: str, items: list[str], ready: bool | None, as_text: bool, which: str) -> None:
        body: dict[str, Any] = {"orders": "\n".join(items) if as_text else items}
        if ready is not None:
            body["ready"] = ready
        response = self.call("submit", "PUT", self._path("orders"), self.tokens[power], self._bound(body, which))
        self._refused_unless_current(which, response)
        if response.status_code == 200:  # (a text's orders: its lines but headers, comments and blank lines)
            read = [status["order"] for status in response.get_json()["orders"]]
            self._took(power, read if as_text else items, power)
            if self.pending[power]:  # orders of its own: the seat is back from civil disorder
                record = self.seats[power]
                STEPS["back from civil disorder"] += record.disorder
                record.disorder, record.in_row = False, 0
            self._after(response.get_json())

    @rule(items=st.lists(TEXT, max_size=5), mark=st.booleans(), which=WHICH)
    def game_master_steps(self, items: list[str], mark: bool, which: str) -> None:
        items = self._marked(items, mark)
        response = self.call("give", "PUT", self._path("orders"), self.tokens[GM],
                             self._bound({"orders": items}, which))
        self._refused_unless_current(which, response)
        if response.status_code == 200:
            self._took(GM, items, GM)

    @rule(seat=st.integers(0, 4), items=st.lists(TEXT, max_size=5), mark=st.booleans(), forged=st.booleans(),
          which=WHICH)
    def give(self, seat: int, items: list[str], mark: bool, forged: bool, which: str) -> None:
        """The game master gives a power's orders (or a power tries to give another's: 403)."""
        self._give(SEATS[self.variant][seat % len(SEATS[self.variant])], self._marked(items, mark), forged, which)

    def _give(self, power: str, items: list[str], forged: bool, which: str) -> None:
        seats = SEATS[self.variant]
        giver = seats[(seats.index(power) + 1) % len(seats)] if forged else GM
        response = self.call("give", "PUT", self._path("orders"), self.tokens[giver],
                             self._bound({"power": power, "orders": items}, which))
        self._refused_unless_current(which, response)
        if forged:
            assert response.status_code in (400, 403, 413), response.status_code  # refused before anything is read
        elif response.status_code == 200:
            self._took(power, items, GM)
            STEPS["orders given to a seat in civil disorder"] += self.seats[power].disorder

    @rule(seat=st.integers(0, 5), which=WHICH)
    def withdraw(self, seat: int, which: str) -> None:
        key = ([*SEATS[self.variant], GM])[seat % (len(SEATS[self.variant]) + 1)]
        number = self._phase(which)
        query = "" if number is None else f"?phase_no={number}"
        response = self.call("withdraw", "DELETE", self._path("orders") + query, self.tokens[key])
        self._refused_unless_current(which, response)
        if response.status_code == 200:
            self.pending.pop(key, None)

    @rule(seat=st.integers(0, 4), ready=st.booleans(), which=WHICH)
    def ready(self, seat: int, ready: bool, which: str) -> None:
        power = SEATS[self.variant][seat % len(SEATS[self.variant])]
        response = self.call("ready", "PUT", self._path("ready"), self.tokens[power],
                             self._bound({"ready": ready}, which))
        self._refused_unless_current(which, response)
        if response.status_code == 200:
            self.pending.setdefault(power, [])
            self._after(response.get_json())

    @rule(which=st.sampled_from(["current"] * 5 + ["none", "past", "ahead", "huge"]),
          fill=st.sampled_from(["", "seats", "seats", "game master"]), holdouts=HOLDOUTS)
    def adjudicate(self, which: str, fill: str, holdouts: list[int]) -> None:
        """The game master judges the phase; first (`fill`) every seat but the holdouts that has sent nothing
        sends orders, as most players do by a deadline (so seats in civil disorder come back), or the game
        master gives those of seats in civil disorder (so they stay in it)."""
        for power in self._all_but(holdouts) if fill else []:
            if self.end is None and not self.pending.get(power):
                items = self._marked(PLAIN[self.variant], True)
                if fill == "game master" and self.seats[power].disorder:
                    self._give(power, items, False, "current")
                else:
                    self._send(power, items, None, False, "current")
        response = self.call("adjudicate", "POST", self._path("adjudicate"), self.tokens[GM], self._bound({}, which))
        refused = self._phase_refusal(which, paused_ok=False)
        answer = self.expect(response, refused or 200)
        if refused is None:
            self._check_judged(answer)

    # --- the rules: votes, ends, pauses, seats, scores ----------------------------------------------------------
    def _ballot_body(self, ballot: tuple) -> dict[str, Any]:
        return ballot_body(ballot, self._power)

    def _cast(self, power: str, body: dict[str, Any], which: str, as_gm: bool = False) -> None:
        """A seat's vote (as_gm: the game master's token, 403), its status and outcome the model's."""
        response = self.call("vote", "PUT", self._path("vote"), self.tokens[GM if as_gm else power],
                             self._bound(body, which))
        try:
            if as_gm and not self._unreadable(which):
                raise Refused(403)
            refused = self._phase_refusal(which)
            if refused is not None:
                raise Refused(refused)
            ballot = ballot_of(body, power, self._survivors(), self.options["draws"] == "named")
        except Refused as exc:
            self.expect(response, exc.status)
            return
        answer = self.expect(response, 200)
        assert set(answer) == {"phase", "phase_no", "vote", "ended", "end"}, answer  # (no other seat's vote)
        assert answer["vote"] == (None if ballot is None else ballot.to_json()), (answer, ballot)
        self.seats[power].ballot = ballot
        STEPS["votes" if ballot is not None else "votes withdrawn"] += 1
        end = agreed({p: s.ballot for p, s in self.seats.items()}, self._survivors(),
                     {p for p, s in self.seats.items() if s.disorder}, self.options["disorder_votes"] == "yes")
        assert answer["ended"] == (end is not None), (answer, end)
        if end is not None:
            self._ended(answer["end"], (*end, "votes"))

    @rule(seat=st.integers(0, 4), ballot=BALLOT, which=WHICH, as_gm=st.sampled_from([False] * 5 + [True]))
    def vote(self, seat: int, ballot: tuple, which: str, as_gm: bool) -> None:
        self._cast(SEATS[self.variant][seat % len(SEATS[self.variant])], self._ballot_body(ballot), which, as_gm)

    @precondition(lambda self: self.judged >= 2)
    @rule(holdouts=HOLDOUTS, ballot=BALLOT)
    def vote_together(self, holdouts: list[int], ballot: tuple) -> None:
        """Every seat but the holdouts casts the same ballot in turn, so that draws and concessions pass (once
        two phases have been judged: a game goes on a while first)."""
        for power in self._all_but(holdouts):
            if self.end is None:
                self._cast(power, self._ballot_body(ballot), "current")

    @rule(kind=st.sampled_from(["draw", "concession", "stopped", "abandoned", "solo"]),
          names=st.lists(NAME, max_size=3), which=st.sampled_from(["omit", "current", "past", "ahead"]),
          forged=st.sampled_from([False, False, True]))
    def declare_end(self, kind: str, names: list[int], which: str, forged: bool) -> None:
        """The game master declares the end (a seat's token: 403)."""
        powers = [self._power(i) for i in names]
        body: dict[str, Any] = {"kind": kind, "powers": powers}
        if which != "omit":
            body["phase_no"] = self._phase(which)
        token = self.tokens[SEATS[self.variant][0] if forged else GM]
        response = self.call("end", "POST", self._path("end"), token, body)
        try:
            if kind == "solo":  # (not in the body's schema: the rules reach a solo)
                raise Refused(400)
            if which != "omit" and self._unreadable(which):
                raise Refused(400)
            if forged:
                raise Refused(403)
            if self.end is not None or which in ("past", "ahead"):
                raise Refused(409)
            end = declared(kind, powers, self._survivors())
        except Refused as exc:
            self.expect(response, exc.status)
            return
        self._ended(self.expect(response, 200)["end"], (*end, GM))

    @rule(which=WHICH, forged=st.sampled_from([False] * 3 + [True]))
    def pause(self, which: str, forged: bool) -> None:
        """The game master pauses the game (a seat's token: 403)."""
        self._pause(which, forged, resume=False)

    @rule(which=WHICH, forged=st.sampled_from([False] * 3 + [True]))
    def resume(self, which: str, forged: bool) -> None:
        """The game master resumes the game (a seat's token: 403)."""
        self._pause(which, forged, resume=True)

    def _pause(self, which: str, forged: bool, resume: bool) -> None:
        token = self.tokens[SEATS[self.variant][0] if forged else GM]
        response = self.call("pause", "POST", self._path("resume" if resume else "pause"), token,
                             self._bound({}, which))
        refused = 403 if forged and not self._unreadable(which) else self._phase_refusal(which, paused_ok=resume)
        if refused is None and resume != (self.status == "paused"):
            refused = 409  # (resuming a game that is not paused)
        if refused is None and not resume and self.pauses >= self.options["pause"]["max_times"]:
            refused = 409  # (paused as often as the settings allow)
        answer = self.expect(response, refused or 200)
        if refused is None and resume:
            self.status = "active"
            STEPS["resumes"] += 1
        elif refused is None:
            self.status, self.pauses = "paused", self.pauses + 1
            self.paused_until = HostedGame.clock.now + self.options["pause"]["max_seconds"]
            assert answer["pause"]["pauses"] == self.pauses, answer
            STEPS["pauses"] += 1

    @rule(seconds=st.sampled_from([1, 59, 60, 61, 3599, 3600, 3601]))
    def time_passes(self, seconds: int) -> None:
        """The clock moves on, then the game master reads the game (the first request after a pause's cap)."""
        HostedGame.clock.now += seconds
        answer = self.expect(self.call("read", "GET", self._path(), self.tokens[GM]), 200)
        if self.status == "paused" and self.end is None and HostedGame.clock.now >= self.paused_until:
            self.status = "active"
            STEPS["resumed by the pause cap"] += 1
        assert answer["status"] == ("ended" if self.end is not None else self.status), (answer["status"], self.status)

    @rule(seat=NAME, kind=st.sampled_from(["player", "bot"]), which=WHICH, forged=st.sampled_from([False] * 3 + [True]))
    def replace(self, seat: int, kind: str, which: str, forged: bool) -> None:
        """The game master hands a seat to a new player (a seat's token: 403; a power of no seat: 404)."""
        power = self._power(seat)
        token = self.tokens[SEATS[self.variant][(seat + 1) % len(SEATS[self.variant])] if forged else GM]
        response = self.call("replace", "POST", self._path(f"seats/{power}/replace"), token,
                             self._bound({"kind": kind}, which))
        refused = (403 if forged and not self._unreadable(which)
                   else self._phase_refusal(which) or (404 if power == NOWHERE else None))
        answer = self.expect(response, refused or 200)
        if refused is None:
            record = self.seats[power]
            record.ballot, record.disorder, record.in_row = None, False, 0
            record.holders.append({"from_phase": self.judged + 1, "kind": kind})
            assert answer["holders"] == record.holders, (answer, record)
            self.old_tokens.append(self.tokens[power])
            self.tokens[power] = answer["token"]
            self.pending.pop(power, None)
            self.given.pop(power, None)
            STEPS["replacements"] += 1
            self.expect(self.call("refused", "GET", self._path("orders"), self.old_tokens[-1]), 403)  # (at once)
            STEPS["old tokens refused"] += 1

    @rule(reader=st.sampled_from(["seat", "seat", GM, "old", "none"]), seat=st.integers(0, 4),
          system=st.sampled_from([None, None, "sum-of-squares", "carnage", "c-diplo", "no-such-system"]))
    def scores(self, reader: str, seat: int, system: str | None) -> None:
        refused = self.old_tokens or OTHERS or [f"adj_{secrets.token_hex(8)}"]
        token = {"seat": self.tokens[SEATS[self.variant][seat % len(SEATS[self.variant])]], GM: self.tokens[GM],
                 "old": refused[seat % len(refused)], "none": None}[reader]
        query = "" if system is None else f"?system={system}"
        response = self.call("scores", "GET", self._path("scores") + query, token)
        answer = self.expect(response, 401 if token is None else 403 if reader == "old" else
                             400 if system == "no-such-system" else 200)
        if response.status_code != 200:
            return
        STEPS["scores read"] += 1
        self._no_secret_in(json.dumps(answer), None)
        assert answer["ended"] == (self.end is not None), answer
        if self.end is not None:
            assert (answer["end"]["kind"], tuple(answer["end"]["powers"])) == self.end[:2], (answer, self.end)
        else:
            assert answer["if_ended_now"]["kind"] == "draw", answer
            assert answer["if_ended_now"]["powers"] == self._survivors(), answer

    @rule(who=st.sampled_from(["old", "old", "other", "none"]), action=st.integers(0, 9), pick=st.integers(0, 99))
    def refused_token(self, who: str, action: int, pick: int) -> None:
        """A replaced seat's old token, another game's token, or none does nothing: 403 (401), nothing changed."""
        tokens = self.old_tokens if who == "old" and self.old_tokens else OTHERS or [f"adj_{secrets.token_hex(8)}"]
        token = None if who == "none" else tokens[pick % len(tokens)]
        phase = {"phase_no": self.judged + 1}
        method, tail, body = [
            ("GET", "", None), ("GET", "orders", None), ("PUT", "orders", {"orders": ["A Arc H"], **phase}),
            ("DELETE", f"orders?phase_no={self.judged + 1}", None), ("PUT", "ready", {"ready": True, **phase}),
            ("PUT", "vote", {"draw": "dias", **phase}), ("POST", "adjudicate", phase), ("POST", "pause", phase),
            ("POST", "end", {"kind": "stopped"}), ("POST", f"seats/{SEATS[self.variant][0]}/replace", phase)][action]
        before = self._everything()
        response = self.call("refused", method, self._path(tail), token, body)
        self.expect(response, 401 if token is None else 403)
        assert self._everything() == before
        STEPS["old tokens refused" if who == "old" and self.old_tokens else "other tokens refused"] += 1

    # --- the checks ---------------------------------------------------------------------------------------------
    def _ended(self, end: dict[str, Any], expected: tuple[str, tuple[str, ...], str]) -> None:
        """The game has ended: as the model says, after the phases judged."""
        assert (end["kind"], tuple(end["powers"]), end["by"]) == expected, (end, expected)
        assert end["phase_no"] == self.judged, (end, self.judged)
        self.end, self.status = expected, "ended"
        self.pending, self.given = {}, {}
        STEPS["ends"] += 1
        STEPS[f"ends: {expected[0]} by {expected[2]}"] += 1

    def _check_judged(self, done: dict[str, Any]) -> None:
        """The phase just judged is the next one, holds exactly the orders each seat sent, by their givers, and
        records who missed it; the seats' counts and civil disorder, the votes and the game's end follow it."""
        phase_no = done["phase_no"]
        assert phase_no == self.judged + 1, (phase_no, self.judged)
        self.judged = phase_no
        judged = self.call("read", "GET", self._path(f"phases/{phase_no}"), self.tokens[GM]).get_json()
        expected = {k: v for k, v in self.pending.items() if v}
        assert judged["orders"] == expected, (judged["orders"], expected)
        assert judged["given_by"] == {k: self.given[k] for k in expected}
        self.pending, self.given = {}, {}
        rules, before = rules_of(self.board), self.state
        was = {p for p, s in self.seats.items() if s.disorder}
        missed = after_phase(self.seats, rules.choosers(self.board, before), set(expected),
                             rules.phase_kind(before) == "movement", self.options["disorder_after"])
        assert judged["missed"] == missed, (judged["missed"], missed)
        STEPS["phases judged"] += 1
        STEPS["into civil disorder"] += sum(s.disorder for p, s in self.seats.items() if p not in was)
        self.board, self.state = position_of(self.board, judged["position_after"])
        end, expected = done.get("end"), end_after_phase(self.seats, self._survivors(), self.options)
        if end is not None and end["by"] == "rules":  # (a solo, the other games' own ends: the rules' to say)
            expected = (end["kind"], tuple(end["powers"]), "rules")
        assert (end is None) == (expected is None), (done, expected)
        if expected is not None:
            self._ended(end, expected)

    def _no_secret_in(self, seen: str, who: str | None) -> None:
        """No marker of a pending order of a seat other than `who` in `seen` (a view or a payload, as JSON)."""
        leaks = marks_in(seen, {k: v for k, v in self.pending.items() if k != who})
        assert not leaks, (who, leaks)

    def _everything(self) -> Any:
        """Every view of the game as each seat and the game master see it, its phases, its scores, its payloads."""
        out: list[Any] = []
        for who in self.tokens:
            caller = Caller(self.gid, None if who == GM else who)
            out += [self.service.game_view(caller), self.service.own_orders(caller)]
        out += [self.service.phases(self._gm()), self.service.scores(self._gm())]
        with self.service.store.sessions() as session:
            out.append(session.execute(select(Delivery.id).where(Delivery.game_id == self.gid)).scalars().all())
        return out

    # After every step, each seat's views as the service makes them (the JSON the API answers, without paying a
    # request's token check and rate count for every seat at every step; the steps' own requests go through HTTP).
    # A view is made from the game's row, its seats and its submissions: when none changed in a step (a refused
    # request), the views are the ones already checked, and are not made again.
    @invariant()
    def no_view_shows_a_secret(self) -> None:
        if not hasattr(self, "gid"):
            return
        with self.service.store.sessions() as session:
            game = session.get(Game, self.gid)
            subs = session.execute(select(Submission.power, Submission.phase_no, Submission.updated_at,
                                          Submission.ready).where(Submission.game_id == self.gid)).all()
            seats = session.execute(select(Seat.power, Seat.vote, Seat.civil_disorder, Seat.missed, Seat.missed_in_row,
                                           Seat.token_hash).where(Seat.game_id == self.gid)).all()
            fingerprint = (game.phase_no, game.status, game.deadline_at, game.pauses, tuple(sorted(map(tuple, subs))),
                           json.dumps(sorted(map(list, seats)), sort_keys=True))
            payloads = session.execute(select(Delivery.id, Delivery.body).where(
                Delivery.game_id == self.gid, Delivery.id > self.seen_delivery).order_by(Delivery.id)).all()
        for number, body in payloads:  # the webhooks: no pending order; a secret vote names no one
            self.seen_delivery = number
            self._no_secret_in(body, None)
            payload = json.loads(body)
            if payload["event"] == "draw.proposed" and self.options["secret_votes"]:
                assert "by" not in payload and "vote" not in payload, payload
            STEPS["webhook payloads checked"] += 1
        if fingerprint == getattr(self, "checked", None):
            return
        self.checked = fingerprint
        assert game.status == self.status, (game.status, self.status)
        for who in self.tokens:
            caller = Caller(self.gid, None if who == GM else who)
            view = self.service.game_view(caller)
            self._no_secret_in(json.dumps([view, self.service.own_orders(caller)], ensure_ascii=False), who)
            for entry in view["seats"]:
                check_seat(entry, self.seats[entry["power"]], who, GM, self.options["secret_votes"])

    @invariant()
    def an_ended_game_never_changes(self) -> None:
        if self.end is None:
            return
        now = self._everything()
        if self.frozen is None:
            self.frozen = now
        assert now == self.frozen

    @invariant()
    def each_phase_judged_once(self) -> None:
        if not hasattr(self, "gid"):
            return
        listed = self.service.phases(self._gm())
        assert [p["phase_no"] for p in listed] == list(range(1, self.judged + 1))
        STEPS["steps"] += 1


def run(url: str, steps: int, per_game: int = 50, seed: int | None = None) -> Counter:
    """Run the machine on the database at `url` until `steps` steps were checked (in rounds of games, each round
    seeded `seed`, `seed + 1`... when a seed is given); the counters."""
    HostedGame.url, HostedGame.app = url, None
    STEPS.clear()
    rounds = 0
    while STEPS["steps"] < steps:
        games = max(1, min(200, (steps - STEPS["steps"]) // per_game))  # (rounds, so a run stops near `steps`)
        options = settings(max_examples=games, stateful_step_count=per_game, deadline=None, database=None,
                           print_blob=True, suppress_health_check=list(HealthCheck))
        test = get_state_machine_test(HostedGame, settings=options)
        (test if seed is None else hypothesis.seed(seed + rounds)(test))()
        rounds += 1
    return STEPS


FIGURES = ("games", "phases judged", "votes", "votes withdrawn", "ends", "replacements", "pauses", "resumes",
           "resumed by the pause cap", "into civil disorder", "back from civil disorder",
           "orders given to a seat in civil disorder", "scores read", "old tokens refused", "other tokens refused",
           "webhook payloads checked")


def main() -> int:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=50_000, help="steps to check (each: a request and the checks)")
    parser.add_argument("--database", help="a database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="fuzz-hosted-")
    url = args.database or f"sqlite:///{folder}/games.sqlite3"
    commit = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty", "--exclude", "*"],
                            capture_output=True, text=True).stdout.strip()  # (the commit, "-dirty" if changed)
    started = time.perf_counter()
    try:
        counts = run(url, args.steps)
    except Exception as exc:  # noqa: BLE001 - hypothesis has printed the failing steps
        print(f"FAILED: {type(exc).__name__}: {str(exc)[:2000]}")
        return 1
    seconds = time.perf_counter() - started
    codes = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()) if re.fullmatch(r"[A-Z]+ \d+", k))
    ends = ", ".join(f"{k[6:]}: {v}" for k, v in sorted(counts.items()) if k.startswith("ends: "))
    print(f"commit: {commit}; database: {url.split('@')[-1]}\nsteps checked: {counts['steps']} in {seconds:.0f} s\n"
          + ", ".join(f"{k}: {counts[k]}" for k in FIGURES) + f"\nends by kind: {ends}\nanswers: {codes}\n"
          "5xx: 0; views showing another's pending orders or secret vote: 0; phases judged twice: 0; judged orders "
          "differing from those sent: 0; ends, votes, seat records differing from the model: 0; ended games "
          "changed: 0; old tokens taken: 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
