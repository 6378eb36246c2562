"""A stateful fuzz of hosted games' talk (issue 38): the seats and the game master of one game send messages to
one, several or all, retry them, and read their inboxes a page at a time, in any order, with hostile text, through
the HTTP API (Flask's test client, the application `adjudicator serve` runs); the game master judges phases and
ends the game. The game's settings are drawn too: whether the game master reads every message, whether everyone
does after the end, anonymous seats.

A hypothesis rule-based state machine keeps a model of every message taken (its sender and recipients) and
checks after every step:

- no answer is a 5xx, and every answer is one the step allows (a send for another phase, to no one, to an unknown
  seat or to oneself, of hostile text, or after the end is refused; a retry with its client id is answered by the
  message kept, never a second one);
- each seat and the game master read, paging through their inboxes, exactly the messages the model says: those
  they sent or were sent (a seat: every message to all), every message for the game master when the game's setting
  says so, every message for everyone after the end when the game's setting says so;
- no message is visible to a seat it was not sent to, nor to the game master unless the setting says so, in any
  view (each carries a marker no other message has): the inbox, the game, one's own orders.

    python benchmarks/fuzz_messages.py --steps 20000 [--database postgresql://...]

It prints the steps, games, messages taken, the status codes and the seconds; exit status 1 on any failure
(hypothesis prints the shortest sequence of steps that shows it). `tests/hosted/test_messages_fuzz.py` runs it
briefly on SQLite and PostgreSQL.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.hosted.limits import Limits  # noqa: E402
from adjudicator.hosted.models import Game  # noqa: E402
from adjudicator.hosted.service import Caller  # noqa: E402
from api import create_app  # noqa: E402

GM = "game master"
SEATS = ["Russia", "Norway", "Canada", "Denmark", "USA"]
READERS = [*SEATS, GM]
FRAGMENTS = [
    "Meet in Bar?", "A Arc - Ura", "<script>alert(1)</script>", "{{7*7}}", "' OR 1=1 --", "\n", "\r\n", "\t", " ",
    "\u05d0\u05d1\u0627\u0644", "\U0001f3f3\ufe0f\u200d\U0001f308", "\u0300" * 3, "\x00", "\ud800", "\u202e",
    "\u2028", "\x85", "\x07", "\x1b[31m", "\ufeff", "\ufdd0", "ALL", "zq0x", "x" * 2001,
]
TEXT = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=4).map("".join)
PLAIN = st.sampled_from(["Meet in Bar?", "Agreed.\nUSA holds.", "<b>no</b> markup", "\u05d0\u05d1 \U0001f308"])
ODD_NAMES = ["Atlantis", "", "  ", "ALL", "all", "Game Master", "Russia\x00", "\u202eUSA", "x" * 101]
ALLOWED = {"send": {200, 201, 400, 409}, "retry": {200, 409}, "read": {200}, "judge": {200}, "end": {200}}
WHICH = st.sampled_from(["current", "current", "current", "none", "past", "ahead"])
STEPS = Counter()  # steps and answers of this process, for the report


@dataclass(frozen=True)
class Sent:
    """A message the service took, as the model keeps it."""

    id: int
    sender: str
    to_all: bool
    recipients: frozenset[str]
    mark: str

    def party(self, reader: str) -> bool:
        """Whether `reader` sent it or was sent it."""
        return reader == self.sender or reader in self.recipients or (self.to_all and reader != GM)


class HostedTalk(RuleBasedStateMachine):
    """One hosted game's talk, its seats and game master, and the model of every message taken."""

    url = "sqlite:///:memory:"  # set by the runner: the database every game of the run is kept in
    app: Any = None

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Sent] = []
        self.judged = 0
        self.ended = False
        self.marks = 0
        self.last: tuple[str, dict[str, Any], int] | None = None  # the last send with a client id: sender, body, id

    def call(self, kind: str, method: str, path: str, token: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body)
        response = self.client.open(path, method=method, data=data, headers={"Authorization": f"Bearer {token}"},
                                    content_type="application/json" if body is not None else None)
        STEPS[f"{method} {response.status_code}"] += 1
        assert response.status_code < 500, (method, path, body, response.get_data(as_text=True)[:500])
        assert response.status_code in ALLOWED[kind], (kind, path, body, response.status_code, response.get_json())
        return response

    @initialize(gm_reads=st.booleans(), after_end=st.booleans(), anonymous=st.booleans())
    def create(self, gm_reads: bool, after_end: bool, anonymous: bool) -> None:
        if HostedTalk.app is None:
            HostedTalk.app = create_app({"ADJUDICATOR_DATABASE_URL": self.url, "HOSTED_LIMITS": Limits(
                requests_per_minute=10**9, games_per_hour=10**9, messages_per_minute=10**9)})
        self.client = HostedTalk.app.test_client()
        self.gm_reads, self.after_end = gm_reads, after_end
        response = self.client.post("/v1/games", json={"variant": "arctic", "labels": {p: f"label-{p}" for p in SEATS},
                                                       "settings": {"game_master_reads_messages": gm_reads,
                                                                    "messages_visible_after_end": after_end,
                                                                    "anonymous_seats": anonymous, "disorder_after": 0}})
        assert response.status_code == 201, response.get_json()
        created = response.get_json()
        self.gid, self.tokens = created["id"], {**created["tokens"], GM: created["game_master_token"]}
        self.path = f"/v1/games/{self.gid}/messages"
        STEPS["games"] += 1

    def _phase(self, which: str) -> int | None:
        return {"current": self.judged + 1, "past": self.judged, "ahead": self.judged + 2}.get(which)

    # --- the rules ----------------------------------------------------------------------------------------------
    @rule(sender=st.integers(0, 5), to_all=st.booleans(), named=st.lists(st.integers(0, 5), max_size=4, unique=True),
          odd=st.sampled_from([[]] * 4 + [[name] for name in ODD_NAMES]), text=PLAIN | PLAIN | TEXT, which=WHICH,
          with_id=st.booleans())
    def send(self, sender: int, to_all: bool, named: list[int], odd: list[str], text: str, which: str,
             with_id: bool) -> None:
        who = READERS[sender]
        names = [READERS[i] for i in named if i != sender or len(named) == 1] + odd  # (to oneself: now and then)
        self.marks += 1
        mark = f"zq{self.marks}x"
        body: dict[str, Any] = {"to": "ALL" if to_all else names, "text": f"{mark} {text}"}
        if with_id:
            body["client_id"] = f"c{self.marks}"
        number = self._phase(which)
        if number is not None:
            body["phase_no"] = number
        response = self.call("send", "POST", self.path, self.tokens[who], body)
        valid_to = to_all or (bool(names) and not odd and who not in names and len(set(names)) == len(names))
        if response.status_code in (200, 201):
            assert response.status_code == 201 and which == "current" and valid_to and not self.ended, (
                which, body, response.get_json())
            answer = response.get_json()
            assert answer["sender"] == who and answer["text"].startswith(mark), answer
            assert answer["to"] == ("ALL" if to_all else names) and answer["phase_no"] == self.judged + 1
            self.sent.append(Sent(answer["id"], who, to_all, frozenset(() if to_all else names), mark))
            STEPS["messages"] += 1
            if with_id:
                self.last = (who, body, answer["id"])
        elif which == "current" and valid_to and not self.ended:
            assert response.status_code == 400 and response.get_json()["pointer"] == "/text", response.get_json()

    @rule(sender=st.integers(0, 5), to_all=st.booleans(), named=st.lists(st.integers(0, 5), min_size=1, max_size=3,
                                                                      unique=True), text=PLAIN, with_id=st.booleans())
    def chat(self, sender: int, to_all: bool, named: list[int], text: str, with_id: bool) -> None:
        """A send as players mostly make them: for the current phase, to others (refused only after the end)."""
        others = [i for i in named if i != sender] or [(sender + 1) % len(READERS)]
        self.send(sender, to_all, others, [], text, "current", with_id)

    @rule(same=st.booleans())
    def retry(self, same: bool) -> None:
        """The last send with a client id sent again (a lost answer's retry): the message kept, none new; with
        other text, a 409."""
        if self.last is None:
            return
        who, body, number = self.last
        again = body if same else {**body, "text": body["text"] + " (edited)"}
        response = self.call("retry", "POST", self.path, self.tokens[who], again)
        assert response.status_code == (200 if same else 409), response.get_json()
        if same:
            assert response.get_json()["id"] == number

    @rule(reader=st.integers(0, 5), start=st.integers(0, 50), limit=st.integers(1, 7))
    def read(self, reader: int, start: int, limit: int) -> None:
        """An inbox paged through from a point of the model's ids (or 0) in pages of `limit`."""
        who = READERS[reader]
        start_id = [0, *(m.id for m in self.sent)][start % (len(self.sent) + 1)]
        after, seen = start_id, list[int]()
        while True:
            response = self.call("read", "GET", f"{self.path}?after={after}&limit={limit}", self.tokens[who])
            page = response.get_json()
            assert len(page["messages"]) <= limit and page["next_after"] >= after, page
            for message in page["messages"]:
                assert message["text"].split(" ", 1)[0] == self._mark(message["id"]), message
            seen += [m["id"] for m in page["messages"]]
            if not page["more"]:
                break
            after = page["next_after"]
        assert seen == [i for i in self._expected(who) if i > start_id], (who, seen, self._expected(who))

    @rule()
    def judge(self) -> None:
        if self.ended:
            return
        response = self.call("judge", "POST", f"/v1/games/{self.gid}/adjudicate", self.tokens[GM],
                             {"phase_no": self.judged + 1})
        self.judged += 1
        if response.get_json()["status"] == "ended":
            self.ended = True

    @rule(now=st.integers(0, 4))
    def end(self, now: int) -> None:
        """The game master ends the game (now and then: talk goes on before it)."""
        if self.ended or now:
            return
        self.call("end", "POST", f"/v1/games/{self.gid}/end", self.tokens[GM], {"kind": "stopped"})
        self.ended = True

    # --- the model -----------------------------------------------------------------------------------------------
    def _mark(self, number: int) -> str:
        return next(m.mark for m in self.sent if m.id == number)

    def _reads_all(self, reader: str) -> bool:
        return (reader == GM and self.gm_reads) or (self.ended and self.after_end)

    def _expected(self, reader: str) -> list[int]:
        """The ids `reader` reads, oldest first."""
        return [m.id for m in self.sent if self._reads_all(reader) or m.party(reader)]

    # After every step, each reader's inbox as the service makes it (the JSON the API answers, without paying a
    # request's token check for every reader at every step; the steps' own requests go through HTTP), made again
    # only when a message was taken or the game moved on; and the other views a reader has (the game, its own
    # orders), for the markers of messages it may not read, when the game moved on or every fourth message (a
    # marker, once shown, stays shown: a leak is found at the next look).
    @invariant()
    def each_reader_reads_exactly_its_messages(self) -> None:
        if not hasattr(self, "gid"):
            return
        service = HostedTalk.app.extensions["hosted"]
        with service.store.sessions() as session:
            game = session.get(Game, self.gid)
            fingerprint = (game.messages, game.phase_no, game.status)
        assert game.messages == len(self.sent), (game.messages, len(self.sent))
        STEPS["steps"] += 1
        if fingerprint == getattr(self, "checked", None):
            return
        self.checked = fingerprint
        for reader in READERS:
            caller = Caller(self.gid, None if reader == GM else reader)
            read, after = [], 0
            while True:
                page = service.read_messages(caller, after, 100)
                read += page["messages"]
                if not page["more"]:
                    break
                after = page["next_after"]
            assert [m["id"] for m in read] == self._expected(reader), (reader, read, self._expected(reader))
            views = [read]
            if fingerprint[1:] != getattr(self, "viewed", None) or game.messages % 4 == 0:
                views += [service.game_view(caller), service.own_orders(caller)]
            shown = json.dumps(views, ensure_ascii=False)
            for message in self.sent:
                if not (self._reads_all(reader) or message.party(reader)):
                    assert message.mark not in shown, (reader, message)  # (no mark holds another)
        self.viewed = fingerprint[1:]


def run(url: str, steps: int, per_game: int = 40, seed: int | None = None) -> Counter:
    """Run the machine on the database at `url` until `steps` steps were checked; the counters."""
    HostedTalk.url, HostedTalk.app = url, None
    STEPS.clear()
    options = settings(max_examples=max(1, steps // per_game), stateful_step_count=per_game, deadline=None,
                       database=None, derandomize=seed is not None, print_blob=True,
                       suppress_health_check=list(HealthCheck))
    while STEPS["steps"] < steps:
        run_state_machine_as_test(HostedTalk, settings=options)
    return STEPS


def main() -> int:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000, help="steps to check (each: a request and the checks)")
    parser.add_argument("--database", help="a database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="fuzz-messages-")
    url = args.database or f"sqlite:///{folder}/games.sqlite3"
    started = time.perf_counter()
    try:
        counts = run(url, args.steps)
    except Exception as exc:  # noqa: BLE001 - hypothesis has printed the failing steps
        print(f"FAILED: {type(exc).__name__}: {str(exc)[:2000]}")
        return 1
    seconds = time.perf_counter() - started
    codes = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()) if k not in ("steps", "games", "messages"))
    print(f"database: {url.split('@')[-1]}\nsteps checked: {counts['steps']} in {seconds:.0f} s, games: "
          f"{counts['games']}, messages taken: {counts['messages']}\nanswers: {codes}\n5xx: 0; messages visible to a "
          "reader they were not for: 0; inboxes differing from the model: 0; retries kept twice: 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
