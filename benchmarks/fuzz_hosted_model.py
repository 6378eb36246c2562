"""What the stateful fuzz of hosted games (fuzz_hosted.py) expects of a game's end and its seats, written from
the README's rules ("How a hosted game ends, keeps its pace and its seats") rather than from the service's code:
each seat's ballot, the end its votes agree on, the end a game master may declare, the refusal each vote and end
gets, and each seat's missed phases and civil disorder after a judged phase.

A refusal is `Refused(status)`; names the fuzz draws are indices into the game's seats (one past them: a power
of no game, `NOWHERE`)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

NOWHERE = "Atlantis"  # a power of no game
GM = "game master"
SEATS = {"arctic": ["Russia", "Norway", "Canada", "Denmark", "USA"], "arctica": ["Remi", "Joelle", "Samson"]}
FRAGMENTS = [
    "A Arc - Ura", "A Arc H", "F Okh - Kam", "A Pev - Yak", "F Tro - Bar", "F Osl - Nwg", "A Lyb - Yer",
    "F Tor S F Osl - Nwg", "A Yel - Yuk", "A Brw - Bea", "Build A Arc", "Norway: F Tro H", "Russia: A Arc H",
    "migrate bird from S5", "migrate fish from S3", "Joelle: migrate bird from S5", "melt", "majority",
    "event lynx", "event bear", "next round", "next turn", ";", ":", ",", "#", " ", "\t", "\n", "\r\n", "\u2028",
    "\x85", "\x0b", "\x00", "\ud800", "\u202e", "\x07", "x" * 301,
]
PLAIN = {"arctic": ["A Arc H"], "arctica": ["migrate bird from S5"]}  # orders that are read (not always legal)
TEXT = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=4).map("".join)
ALLOWED = {  # what each step may answer (anything else, a 5xx above all, is a failure)
    "submit": {200, 400, 409, 413, 422}, "give": {200, 400, 403, 409, 413, 422}, "withdraw": {200, 400, 409},
    "ready": {200, 400, 409}, "adjudicate": {200, 400, 409}, "read": {200}, "vote": {200, 400, 403, 409, 422},
    "end": {200, 400, 403, 409}, "pause": {200, 400, 403, 409}, "replace": {200, 400, 403, 404, 409},
    "scores": {200, 400, 401, 403}, "refused": {401, 403},
}
# The phase each write names (issue 34): mostly the current one; else none (400), a past one or one ahead
# (409): a write for any but the current phase is never taken (the model, and the judged phases, say so).
WHICH = st.sampled_from(["current", "current", "current", "none", "past", "ahead"])
NAME = st.integers(0, 5)  # a seat of the game by its index, or (one past them) a power of no game
HOLDOUTS = st.lists(st.sampled_from([4, 4, 4, 0, 1, 2, 3]), max_size=2, unique=True)  # (the last seat: the usual one)
BALLOT = st.one_of(st.just(("dias",)), st.just(("dias",)), st.tuples(st.just("draw"), st.lists(NAME, max_size=5)),
                   st.tuples(st.just("concede"), NAME), st.just(("withdraw",)), st.tuples(st.just("both"), NAME))
SETTINGS = st.fixed_dictionaries({
    "disorder_after": st.sampled_from([0, 1, 1, 2]), "draws": st.sampled_from(["dias", "named"]),
    "secret_votes": st.booleans(), "votes_survive_phase": st.booleans(),
    "disorder_votes": st.sampled_from(["yes", "no"]),
    "pause": st.fixed_dictionaries({"max_seconds": st.sampled_from([60, 3600]), "max_times": st.integers(0, 3)})})
MARK = re.compile(r"zq\d+x")  # the marker an item may carry (see HostedGame._marked)


class Clock:
    """The service's clock, moved by the steps alone (so a pause's cap is reached when the model says)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def ballot_body(ballot: tuple, power: Callable[[int], str]) -> dict[str, Any]:
    """The body of a vote drawn from BALLOT, its powers named by `power` (a seat's index: its name)."""
    kind = ballot[0]
    if kind == "dias":
        return {"draw": "dias"}
    if kind == "draw":
        return {"draw": [power(i) for i in ballot[1]]}
    if kind == "concede":
        return {"concede_to": power(ballot[1])}
    if kind == "both":
        return {"draw": "dias", "concede_to": power(ballot[1])}
    return {}  # (withdrawn)


class Refused(Exception):
    """The service must refuse the request with this status."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


@dataclass(frozen=True)
class Ballot:
    """A seat's vote: a draw of `powers` (`dias`: of every survivor, `powers` naming them when it was cast), or a
    concession to `powers[0]`."""

    concede: bool
    powers: tuple[str, ...]
    dias: bool = False

    def to_json(self) -> dict[str, Any]:
        """The vote as the seat's own view shows it."""
        if self.concede:
            return {"concede_to": self.powers[0]}
        return {"draw": list(self.powers), "dias": True} if self.dias else {"draw": list(self.powers)}

    def draw_among(self, survivors: Sequence[str]) -> tuple[str, ...] | None:
        """The draw this ballot is for when the votes are counted among `survivors` (None: a concession)."""
        if self.concede:
            return None
        return tuple(survivors) if self.dias else self.powers


def ballot_of(body: Mapping[str, Any], voter: str, survivors: Sequence[str], named: bool) -> Ballot | None:
    """The ballot a vote's body casts (None: the vote withdrawn), or Refused: an eliminated voter 409; a draw and
    a concession at once, a concession to oneself or to no survivor, a draw naming no survivor, one power or one
    twice 400; a draw of some survivors where the game's draws are DIAS 422."""
    if voter not in survivors:
        raise Refused(409)
    draw, concede_to = body.get("draw"), body.get("concede_to")
    if draw is not None and concede_to is not None:
        raise Refused(400)
    if concede_to is not None:
        if concede_to == voter or concede_to not in survivors:
            raise Refused(400)
        return Ballot(True, (concede_to,))
    if draw is None:
        return None
    if draw == "dias":
        return Ballot(False, tuple(survivors), dias=True)
    if any(p not in survivors for p in draw) or len(set(draw)) != len(draw) or len(draw) < 2:
        raise Refused(400)
    if not named and set(draw) != set(survivors):
        raise Refused(422)
    return Ballot(False, tuple(p for p in survivors if p in draw))


def agreed(ballots: Mapping[str, Ballot | None], survivors: Sequence[str], disorder: Collection[str],
           disorder_yes: bool) -> tuple[str, tuple[str, ...]] | None:
    """The end the survivors' ballots agree on, ("draw", powers) or ("concession", (power,)), else None. A seat in
    civil disorder says yes to anything when `disorder_yes` (so it is not counted), else it counts as any seat."""
    counted = [p for p in survivors if not (disorder_yes and p in disorder)]
    if not counted:
        return None  # (every survivor in civil disorder: the judgement abandons the game)
    draws = {b.draw_among(survivors) if b is not None else None for b in (ballots.get(p) for p in counted)}
    if len(draws) == 1 and None not in draws:
        (draw,) = draws
        if draw is not None and set(draw) <= set(survivors):
            return ("draw", draw)
    winners = [w for w in survivors if any(p != w for p in counted) and all(
        (b := ballots.get(p)) is not None and b.concede and b.powers == (w,) for p in counted if p != w)]
    return ("concession", (winners[0],)) if len(winners) == 1 else None


def declared(kind: str, names: Sequence[str], survivors: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The end a game master declares: (kind, powers), or Refused(400): a solo (the rules' to reach), a name of no
    survivor or one given twice, a draw of fewer than two, a concession to other than one power, a stopped or
    abandoned game naming any."""
    if kind == "solo" or any(p not in survivors for p in names) or len(set(names)) != len(names):
        raise Refused(400)
    if kind == "draw":
        powers = tuple(names) or tuple(survivors)
        if len(powers) < 2:
            raise Refused(400)
        return (kind, powers)
    wanted = 1 if kind == "concession" else 0  # (stopped, abandoned: scored as a draw of every survivor)
    if len(names) != wanted:
        raise Refused(400)
    return (kind, tuple(names))


@dataclass
class SeatRecord:
    """A seat as every view shows it: its missed phases, those in a row, its civil disorder, its ballot."""

    missed: int = 0
    in_row: int = 0
    disorder: bool = False
    ballot: Ballot | None = None
    holders: list[dict[str, Any]] = field(default_factory=lambda: [{"from_phase": 1, "kind": "player"}])


def after_phase(seats: Mapping[str, SeatRecord], choosers: Collection[str], ordered: Collection[str],
                movement: bool, disorder_after: int) -> list[str]:
    """Update the seats after a judged phase (in place); the powers that missed it. A seat with a choice that sent
    nothing (nor had the game master send its orders) missed; a movement phase missed lengthens its row, one
    ordered ends it; a row of `disorder_after` (0: never) is civil disorder, which only the seat's own orders or
    its replacement end."""
    missed = [p for p in seats if p in choosers and p not in ordered]
    for power, seat in seats.items():
        seat.missed += power in missed
        if movement and power in choosers:
            seat.in_row = seat.in_row + 1 if power in missed else 0
        seat.disorder = seat.disorder or 0 < disorder_after <= seat.in_row
    return missed


def end_after_phase(seats: Mapping[str, SeatRecord], survivors: Sequence[str],
                    options: Mapping[str, Any]) -> tuple[str, tuple[str, ...], str] | None:
    """The end a judged phase brings (kind, powers, by) when the rules reach none: every survivor in civil
    disorder abandons the game; else the ballots the phase leaves may agree (a holdout fell into civil disorder).
    Ballots do not outlive the phase where the settings say so (`votes_survive_phase`: false)."""
    disorder = {p for p, s in seats.items() if s.disorder}
    if survivors and disorder >= set(survivors):
        end: tuple[str, tuple[str, ...], str] | None = ("abandoned", (), "civil disorder")
    elif options["votes_survive_phase"]:
        votes = agreed({p: s.ballot for p, s in seats.items()}, survivors, disorder, options["disorder_votes"] == "yes")
        end = None if votes is None else (*votes, "votes")
    else:
        end = None
    if not options["votes_survive_phase"]:
        for seat in seats.values():
            seat.ballot = None
    return end


def marks_in(seen: str, pending: Mapping[str, Sequence[str]]) -> list[str]:
    """The markers of these pending orders that `seen` (a view or a payload, as JSON) shows."""
    marks = [word for items in pending.values() for item in items for word in item.split() if MARK.fullmatch(word)]
    return [m for m in marks if m in seen]


def check_seat(entry: Mapping[str, Any], record: SeatRecord, who: str, gm: str, secret: bool) -> None:
    """A seat's entry in `who`'s view of the game: its records as the model's; its vote shown to itself, to all
    when votes are public, else to no one (the game master, `gm`, sees whether it has voted)."""
    assert (entry["missed"], entry["missed_in_row"], entry["civil_disorder"], entry["holders"]) == (
        record.missed, record.in_row, record.disorder, record.holders), (entry, record)
    ballot = None if record.ballot is None else record.ballot.to_json()
    if who == entry["power"] or not secret:
        assert entry["vote"] == ballot and "voted" not in entry, (who, entry, ballot)
    else:
        assert "vote" not in entry and entry.get("voted") == (ballot is not None if who == gm else None), (
            who, entry, ballot)
