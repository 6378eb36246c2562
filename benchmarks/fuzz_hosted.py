"""A stateful fuzz of hosted games (issue 26): several powers and the game master drive one game through the
HTTP API (Flask's test client, the application `adjudicator serve` runs), in any order, with hostile text.

A hypothesis rule-based state machine keeps a model of what each seat has sent for the current phase and checks
after every step:

- no answer is a 5xx, and every answer is one the step allows;
- no seat's view (the game, its own orders) shows another seat's pending orders (each carries a unique marker);
- no phase is judged twice: the judged phases are numbered 1..n, once each, n as the model counted;
- the orders judged for each seat are exactly the ones it sent (or the game master gave it), and say who gave them.
- a write that names no phase, a past one or one ahead is refused (400, 409), never taken for the current one.

    python benchmarks/fuzz_hosted.py --steps 50000 [--database postgresql://...]

It prints the steps, games, phases judged, the status codes, and the seconds; exit status 1 on any failure
(hypothesis prints the shortest sequence of steps that shows it). `tests/hosted/test_hosted_fuzz.py` runs it briefly.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import select  # noqa: E402

from adjudicator.hosted.limits import Limits  # noqa: E402
from adjudicator.hosted.models import Game, Submission  # noqa: E402
from adjudicator.hosted.service import Caller  # noqa: E402
from api import create_app  # noqa: E402

GM = "game master"
SEATS = {"arctic": ["Russia", "Norway", "Canada", "Denmark", "USA"], "arctica": ["Remi", "Joelle", "Samson"]}
FRAGMENTS = [
    "A Arc - Ura", "A Arc H", "F Okh - Kam", "A Pev - Yak", "F Tro - Bar", "F Osl - Nwg", "A Lyb - Yer",
    "F Tor S F Osl - Nwg", "A Yel - Yuk", "A Brw - Bea", "Build A Arc", "Norway: F Tro H", "Russia: A Arc H",
    "migrate bird from S5", "migrate fish from S3", "Joelle: migrate bird from S5", "melt", "majority",
    "event lynx", "event bear", "next round", "next turn", ";", ":", ",", "#", " ", "\t", "\n", "\r\n", "\u2028",
    "\x85", "\x0b", "\x00", "\ud800", "\u202e", "\x07", "x" * 301,
]
TEXT = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=4).map("".join)
ALLOWED = {  # what each step may answer (anything else, a 5xx above all, is a failure)
    "submit": {200, 400, 409, 413, 422}, "give": {200, 400, 403, 409, 413, 422}, "withdraw": {200, 400, 409},
    "ready": {200, 400, 409}, "adjudicate": {200, 400, 409}, "read": {200},
}
# The phase each write names (issue 34): mostly the current one; else none (400), a past one or one ahead
# (409): a write for any but the current phase is never taken (the model, and the judged phases, say so).
WHICH = st.sampled_from(["current", "current", "current", "none", "past", "ahead"])
STEPS = Counter()  # steps and answers of this process, for the report
MARK = re.compile(r"zq\d+x")  # the marker an item may carry (see HostedGame._marked)


class HostedGame(RuleBasedStateMachine):
    """One hosted game, its seats and its game master, and the model of what each has sent."""

    url = "sqlite:///:memory:"  # set by the runner: the database every game of the run is kept in
    app: Any = None

    def __init__(self) -> None:
        super().__init__()
        self.pending: dict[str, list[str]] = {}  # seat (or GM) -> the items of its pending orders, as stored
        self.given: dict[str, str] = {}  # seat -> who gave its pending orders
        self.judged = 0
        self.marks = 0

    # --- the HTTP calls, each checked for its allowed answers -------------------------------------------------
    def call(self, kind: str, method: str, path: str, token: str | None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        data = None if body is None else json.dumps(body)
        response = self.client.open(path, method=method, data=data, headers=headers,
                                    content_type="application/json" if body is not None else None)
        STEPS[f"{method} {response.status_code}"] += 1
        assert response.status_code < 500, (method, path, body, response.get_data(as_text=True)[:500])
        assert response.status_code in ALLOWED[kind], (kind, path, body, response.status_code, response.get_json())
        return response

    @initialize(variant=st.sampled_from(sorted(SEATS)))
    def create(self, variant: str) -> None:
        if HostedGame.app is None:
            HostedGame.app = create_app({"ADJUDICATOR_DATABASE_URL": self.url,
                                         "HOSTED_LIMITS": Limits(requests_per_minute=10**9, games_per_hour=10**9)})
        self.client = HostedGame.app.test_client()
        response = self.client.post("/v1/games", json={"variant": variant, "settings": {"disorder_after": 0}})
        assert response.status_code == 201, response.get_json()
        created = response.get_json()
        self.variant, self.gid = variant, created["id"]
        self.tokens = {**created["tokens"], GM: created["game_master_token"]}
        STEPS["games"] += 1

    def _marked(self, items: list[str], mark: bool) -> list[str]:
        """The items, the first one carrying a marker no other item of the run has (to find it in a view)."""
        if not mark or not items:
            return items
        self.marks += 1
        return [f"{items[0]} zq{self.marks}x", *items[1:]]

    def _orders_path(self) -> str:
        return f"/v1/games/{self.gid}/orders"

    def _phase(self, which: str) -> int | None:
        return {"current": self.judged + 1, "past": self.judged, "ahead": self.judged + 2, "huge": 2**31}.get(which)

    def _bound(self, body: dict[str, Any], which: str) -> dict[str, Any]:
        """The body naming the phase `which` (none: no `phase_no`)."""
        number = self._phase(which)
        return body if number is None else {**body, "phase_no": number}

    @staticmethod
    def _refused_unless_current(which: str, response: Any) -> None:
        assert which == "current" or response.status_code != 200, (which, response.get_json())

    def _took(self, key: str, items: list[str], given_by: str) -> None:
        self.pending[key] = [i.strip() for i in items if i.strip()]
        self.given[key] = given_by

    def _after(self, answer: dict) -> None:
        """A request that judged the phase: check it against the model, then start the next phase."""
        if answer.get("adjudicated"):
            self._check_judged(answer["adjudicated"]["phase_no"])

    # --- the rules ----------------------------------------------------------------------------------------------
    @rule(seat=st.integers(0, 4), items=st.lists(TEXT, max_size=5), ready=st.sampled_from([None, True, False]),
          mark=st.booleans(), as_text=st.booleans(), which=WHICH)
    def submit(self, seat: int, items: list[str], ready: bool | None, mark: bool, as_text: bool, which: str) -> None:
        power = SEATS[self.variant][seat % len(SEATS[self.variant])]
        items = self._marked(items, mark)
        body: dict[str, Any] = {"orders": "\n".join(items) if as_text else items}
        if ready is not None:
            body["ready"] = ready
        response = self.call("submit", "PUT", self._orders_path(), self.tokens[power], self._bound(body, which))
        self._refused_unless_current(which, response)
        if response.status_code == 200:
            self._took(power, "\n".join(items).splitlines() if as_text else items, power)
            self._after(response.get_json())

    @rule(items=st.lists(TEXT, max_size=5), mark=st.booleans(), which=WHICH)
    def game_master_steps(self, items: list[str], mark: bool, which: str) -> None:
        items = self._marked(items, mark)
        response = self.call("give", "PUT", self._orders_path(), self.tokens[GM], self._bound({"orders": items}, which))
        self._refused_unless_current(which, response)
        if response.status_code == 200:
            self._took(GM, items, GM)

    @rule(seat=st.integers(0, 4), items=st.lists(TEXT, max_size=5), mark=st.booleans(), forged=st.booleans(),
          which=WHICH)
    def give(self, seat: int, items: list[str], mark: bool, forged: bool, which: str) -> None:
        """The game master gives a power's orders (or a power tries to give another's: 403)."""
        seats = SEATS[self.variant]
        power = seats[seat % len(seats)]
        items = self._marked(items, mark)
        giver = seats[(seat + 1) % len(seats)] if forged else GM
        response = self.call("give", "PUT", self._orders_path(), self.tokens[giver],
                             self._bound({"power": power, "orders": items}, which))
        self._refused_unless_current(which, response)
        if forged:
            assert response.status_code in (400, 403, 413), response.status_code  # refused before anything is read
        elif response.status_code == 200:
            self._took(power, items, GM)

    @rule(seat=st.integers(0, 5), which=WHICH)
    def withdraw(self, seat: int, which: str) -> None:
        key = ([*SEATS[self.variant], GM])[seat % (len(SEATS[self.variant]) + 1)]
        number = self._phase(which)
        query = "" if number is None else f"?phase_no={number}"
        response = self.call("withdraw", "DELETE", self._orders_path() + query, self.tokens[key])
        self._refused_unless_current(which, response)
        if response.status_code == 200:
            self.pending.pop(key, None)

    @rule(seat=st.integers(0, 4), ready=st.booleans(), which=WHICH)
    def ready(self, seat: int, ready: bool, which: str) -> None:
        power = SEATS[self.variant][seat % len(SEATS[self.variant])]
        response = self.call("ready", "PUT", f"/v1/games/{self.gid}/ready", self.tokens[power],
                             self._bound({"ready": ready}, which))
        self._refused_unless_current(which, response)
        if response.status_code == 200:
            self.pending.setdefault(power, [])
            self._after(response.get_json())

    @rule(which=st.sampled_from(["current", "none", "past", "ahead", "huge"]))
    def adjudicate(self, which: str) -> None:
        number = self._phase(which)
        response = self.call("adjudicate", "POST", f"/v1/games/{self.gid}/adjudicate", self.tokens[GM],
                             self._bound({}, which))
        if which == "current":
            assert response.status_code == 200, response.get_json()
            self._check_judged(response.get_json()["phase_no"])
        else:
            out_of_range = number is None or not 1 <= number < 2**31  # none, or past the schema's range: 400
            assert response.status_code == (400 if out_of_range else 409), (which, response.get_json())

    # --- the checks ---------------------------------------------------------------------------------------------
    def _check_judged(self, phase_no: int) -> None:
        """The phase just judged is the next one, and holds exactly the orders each seat sent, by their givers."""
        assert phase_no == self.judged + 1, (phase_no, self.judged)
        self.judged = phase_no
        judged = self.call("read", "GET", f"/v1/games/{self.gid}/phases/{phase_no}", self.tokens[GM]).get_json()
        expected = {k: v for k, v in self.pending.items() if v}
        assert judged["orders"] == expected, (judged["orders"], expected)
        assert judged["given_by"] == {k: self.given[k] for k in expected}
        self.pending, self.given = {}, {}

    # After every step, each seat's views as the service makes them (the JSON the API answers, without paying a
    # request's token check and rate count for every seat at every step; the steps' own requests go through HTTP).
    # A view is made from the game's row and its submissions: when neither changed in a step (a refused request),
    # the views are the ones already checked, and are not made again.
    @invariant()
    def no_view_shows_anothers_pending_orders(self) -> None:
        if not hasattr(self, "gid"):
            return
        service = HostedGame.app.extensions["hosted"]
        with service.store.sessions() as session:
            game = session.get(Game, self.gid)
            subs = session.execute(select(Submission.power, Submission.phase_no, Submission.updated_at,
                                          Submission.ready).where(Submission.game_id == self.gid)).all()
            fingerprint = (game.phase_no, game.status, game.deadline_at, tuple(sorted(map(tuple, subs))))
        if fingerprint == getattr(self, "checked", None):
            return
        self.checked = fingerprint
        for who in self.tokens:
            caller = Caller(self.gid, None if who == GM else who)
            seen = json.dumps([service.game_view(caller), service.own_orders(caller)], ensure_ascii=False)
            for owner, items in self.pending.items():
                if owner != who:
                    marks = [word for item in items for word in item.split() if MARK.fullmatch(word)]
                    assert not any(m in seen for m in marks), (who, owner, marks)

    @invariant()
    def each_phase_judged_once(self) -> None:
        if not hasattr(self, "gid"):
            return
        listed = HostedGame.app.extensions["hosted"].phases(Caller(self.gid, None))
        assert [p["phase_no"] for p in listed] == list(range(1, self.judged + 1))
        STEPS["steps"] += 1


def run(url: str, steps: int, per_game: int = 50, seed: int | None = None) -> Counter:
    """Run the machine on the database at `url` until `steps` steps were checked; the counters."""
    HostedGame.url, HostedGame.app = url, None
    STEPS.clear()
    options = settings(max_examples=max(1, steps // per_game), stateful_step_count=per_game, deadline=None,
                       database=None, derandomize=seed is not None, print_blob=True,
                       suppress_health_check=list(HealthCheck))
    while STEPS["steps"] < steps:
        run_state_machine_as_test(HostedGame, settings=options)
    return STEPS


def main() -> int:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=50_000, help="steps to check (each: a request and the checks)")
    parser.add_argument("--database", help="a database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="fuzz-hosted-")
    url = args.database or f"sqlite:///{folder}/games.sqlite3"
    started = time.perf_counter()
    try:
        counts = run(url, args.steps)
    except Exception as exc:  # noqa: BLE001 - hypothesis has printed the failing steps
        print(f"FAILED: {type(exc).__name__}: {str(exc)[:2000]}")
        return 1
    seconds = time.perf_counter() - started
    codes = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()) if k not in ("steps", "games"))
    print(f"database: {url.split('@')[-1]}\nsteps checked: {counts['steps']} in {seconds:.0f} s, games: "
          f"{counts['games']}\nanswers: {codes}\n5xx: 0; views showing another's pending orders: 0; phases judged "
          "twice: 0; judged orders differing from those sent: 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
