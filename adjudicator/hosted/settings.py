"""A hosted game's settings as one typed, checked value, and its pacing: when each phase's deadline falls
(a duration per phase kind, a clock time in a named zone), the grace and the NMR extensions after it, the
reminder before it and the cap on a pause.

Durations are true seconds; only a clock time is local. A clock time that does not exist on a day (the clocks go
forward over it) falls at the first instant after the gap; one that happens twice (the clocks go back) falls at
its first occurrence. A stored game's older settings (`public_readiness` and `phase_seconds` alone) read as
before, every other key taking its default. What each key may hold, and its JSON Schema: settings_schema.py."""

from __future__ import annotations

import copy
import difflib
import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import date, datetime, time, timedelta
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo, available_timezones

from adjudicator import scoring
from adjudicator.hosted.errors import HostedError
from adjudicator.hosted.settings_schema import (CLOCK_PATTERN, DISORDER_VOTES, DRAWS, MAX_DISORDER, MAX_EXTENSIONS,
                                                MAX_PAUSES, MAX_YEAR, PHASE_KINDS, YEAR, schema_of)
from adjudicator.refusals import Kind

_CLOCK_TIME = re.compile(CLOCK_PATTERN)
_HOST_ZONES = frozenset({"localtime", "posixrules"})  # the host's own: two instances could read them differently


@dataclass(frozen=True)
class Clock:
    """Deadlines at a local time of day (`HH:MM`, 24-hour) in an IANA time zone."""

    time: str
    zone: str

    def next_at(self, instant: float, strictly: bool = False) -> float:
        """The first instant at (strictly: after) `instant` when this clock's time falls in its zone."""
        zone = ZoneInfo(self.zone)
        wall = time(int(self.time[:2]), int(self.time[3:]))
        day = datetime.fromtimestamp(instant, zone).date() - timedelta(days=1)
        while True:  # the day before the instant's local date, then on: at most three days are looked at
            at = _falls(day, wall, zone)
            if at > instant or (at == instant and not strictly):
                return at
            day += timedelta(days=1)


def _falls(day: date, wall: time, zone: ZoneInfo) -> float:
    """The instant a wall time falls on a day: its first occurrence, or the end of the gap it lies in."""
    first = datetime.combine(day, wall, tzinfo=zone)  # fold 0: the offset before a change, the earlier of two
    instant = first.timestamp()
    if datetime.fromtimestamp(instant, zone).replace(tzinfo=None) == first.replace(tzinfo=None):
        return instant
    # In a gap, fold 0 reads the wall time by the offset before the change and fold 1 by the one after: the
    # change (the first instant after the gap) lies between them, found to the second.
    before, after = int(first.replace(fold=1).timestamp()), int(instant)
    offset = datetime.fromtimestamp(after, zone).utcoffset()
    while after - before > 1:
        middle = (before + after) // 2
        if datetime.fromtimestamp(middle, zone).utcoffset() == offset:
            after = middle
        else:
            before = middle
    return float(after)


@dataclass(frozen=True)
class Durations:
    """How long a phase of each kind lasts, over `phase_seconds` (None: that kind takes `phase_seconds`)."""

    movement: int | None = None
    retreat: int | None = None
    adjustment: int | None = None


@dataclass(frozen=True)
class Extensions:
    """NMR extensions: at most `count` deadlines moved on by `seconds` while a power that must act sent nothing."""

    count: int = 0
    seconds: int = 86_400


@dataclass(frozen=True)
class PauseCap:
    """The game master's pause: at most `max_seconds` each time (then the game resumes itself), `max_times` a game."""

    max_seconds: int = 604_800
    max_times: int = 3


class Extended(NamedTuple):
    """A passed deadline moved on: the new deadline and why (`grace` or `extension`)."""

    until: float
    what: str


@dataclass(frozen=True)
class Settings:
    """A game's settings (README, "Hosted games"): its pacing, its votes, civil disorder, scoring, its end and its
    talk (gunboat, anonymous seats, who reads the messages)."""

    public_readiness: bool = False  # whether powers see who is ready (never what they ordered)
    phase_seconds: int | None = None  # every phase's duration (None: no deadline unless a clock sets one)
    phase_durations: Durations = Durations()
    deadline_clock: Clock | None = None
    grace_seconds: int = 0  # 0: no grace
    nmr_extensions: Extensions = Extensions()
    pause: PauseCap = PauseCap()
    reminder_seconds: int = 0  # 0: no reminder
    draws: str = "dias"
    secret_votes: bool = True
    votes_survive_phase: bool = True
    disorder_votes: str = "yes"
    disorder_after: int = 2  # missed movement phases in a row; 0: never
    scoring: Any = field(default="draw-size", hash=False)  # a name, or {"system": NAME, PARAMETER: VALUE...}
    end_year: int | None = None
    gunboat: bool = False  # no messages at all (sending is refused)
    anonymous_seats: bool = False  # a seat shows the others its power only, never their labels
    messages_visible_after_end: bool = False  # once the game has ended every seat (and the game master) reads all
    game_master_reads_messages: bool = False  # the game master reads every message (else only its own)

    @classmethod
    def from_json(cls, data: Any, pointer: str = "/settings") -> Settings:
        """Settings from their JSON, every key checked (an absent key takes its default); BAD_INPUT if refused."""
        if data is None:
            return cls()
        at = _At(pointer, "")
        given = _object(data, at, KEYS)
        settings = cls(**{key: _READERS[key](value, at.child(key)) for key, value in given.items()})
        settings._check_durations(at)
        return settings

    def to_json(self) -> dict[str, Any]:
        """The settings' JSON, every key given (what `from_json` reads back as these settings)."""
        clock, durations = self.deadline_clock, vars(self.phase_durations)
        return {**{f.name: getattr(self, f.name) for f in fields(self)},
                "phase_durations": {kind: s for kind, s in durations.items() if s is not None},
                "deadline_clock": None if clock is None else {"time": clock.time, "zone": clock.zone},
                "nmr_extensions": dict(vars(self.nmr_extensions)), "pause": dict(vars(self.pause)),
                "scoring": copy.deepcopy(self.scoring)}

    def scoring_system(self) -> scoring.Scoring:
        """The scoring system the settings choose, with its parameters."""
        return scoring.choose(self.scoring)

    def duration(self, kind: str) -> int | None:
        """How long a phase of this kind lasts (a kind of a game's own lasts `phase_seconds`); None: not set."""
        given = getattr(self.phase_durations, kind) if kind in PHASE_KINDS else None
        return self.phase_seconds if given is None else given

    def deadline(self, kind: str, started: float) -> float | None:
        """The deadline (Unix seconds) of a phase of this kind that started at `started`; None: it has none."""
        seconds, clock = self.duration(kind), self.deadline_clock
        if clock is None:
            return None if seconds is None else started + seconds
        return clock.next_at(started + seconds) if seconds else clock.next_at(started, strictly=True)

    def extended(self, deadline: float, extensions_used: int, grace_used: bool) -> Extended | None:
        """A passed deadline while a power that must act has sent nothing: the grace once, then each NMR extension
        in turn (each from the deadline that passed); None: no more time, the phase is judged now."""
        if self.grace_seconds and not grace_used:
            return Extended(deadline + self.grace_seconds, "grace")
        if extensions_used < self.nmr_extensions.count:
            return Extended(deadline + self.nmr_extensions.seconds, "extension")
        return None

    def reminder_at(self, deadline: float, started: float | None = None) -> float | None:
        """When the `deadline.reminder` webhook is due; None: no reminder (none set, or due before `started`)."""
        if not self.reminder_seconds or (started is not None and deadline - self.reminder_seconds <= started):
            return None
        return deadline - self.reminder_seconds

    def pause_cap(self, paused_at: float) -> float:
        """When a pause that began at `paused_at` ends itself."""
        return paused_at + self.pause.max_seconds

    def check_pause(self, times_paused: int) -> None:
        """Refuse (CONFLICT) a pause when the game has been paused as often as its settings allow."""
        if times_paused >= self.pause.max_times:
            allowed = f"at most {self.pause.max_times}" if self.pause.max_times else "no pause"
            raise HostedError(Kind.CONFLICT, "Pause refused",
                              f"this game has been paused {times_paused} times; its settings allow {allowed} "
                              f"(pause.max_times: {self.pause.max_times})")

    def resumed(self, deadline: float, paused_at: float, resumed_at: float) -> float:
        """The deadline after a pause: moved on by the time paused (at most the cap), then to the clock's time."""
        held = max(0.0, min(resumed_at, self.pause_cap(paused_at)) - paused_at)
        return deadline + held if self.deadline_clock is None else self.deadline_clock.next_at(deadline + held)

    def disordered(self, missed_in_a_row: int) -> bool:
        """Whether a seat that missed this many movement phases in a row is in civil disorder."""
        return 0 < self.disorder_after <= missed_in_a_row

    def stops_after(self, year_played: int) -> bool:
        """Whether the game stops once this year has been played (its settings' end_year)."""
        return self.end_year is not None and year_played >= self.end_year

    def _check_durations(self, at: _At) -> None:
        if self.deadline_clock is not None:
            return
        for key, seconds in [("phase_seconds", self.phase_seconds), *vars(self.phase_durations).items()]:
            if seconds == 0:
                where = at.child(key) if key == "phase_seconds" else at.child("phase_durations").child(key)
                raise where.refuse("0 seconds (a deadline at the next clock time) needs a deadline_clock; without "
                                   f"one a phase lasts 1 to {YEAR} seconds")


@dataclass(frozen=True)
class _At:
    """Where a value is: its JSON pointer and its name in a message (`nmr_extensions.count`; "": the settings)."""

    pointer: str
    name: str

    def child(self, key: str) -> _At:
        return _At(f"{self.pointer}/{key}", f"{self.name}.{key}" if self.name else key)

    def refuse(self, why: str, **extra: Any) -> HostedError:
        detail = f"{self.name or 'settings'}: {why}"
        return HostedError(Kind.BAD_INPUT, "Bad request", detail, pointer=self.pointer, **extra)


def _shown(value: Any) -> str:
    """A given value as a message shows it: its JSON, cut short."""
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    try:
        text = json.dumps(value[:50] if isinstance(value, str) else value)
    except ValueError:  # (an integer of more digits than Python converts)
        return "a number too long to show"
    except TypeError:
        return type(value).__name__
    return text if len(text) <= 50 else text[:47] + "..."


def _object(value: Any, at: _At, keys: tuple[str, ...], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object whose keys are among `keys`, each of `required` given."""
    if not isinstance(value, dict):
        raise at.refuse(f"must be an object with the keys {', '.join(keys)}, not {_shown(value)}")
    for key in value:
        if key not in keys:
            close = difflib.get_close_matches(key, keys, 1) if isinstance(key, str) else []
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise at.refuse(f"unknown key {_shown(key)}{hint}; the keys: {', '.join(keys)}", suggestions=close or None)
    missing = [key for key in required if key not in value]
    if missing:
        raise at.refuse(f"{', '.join(missing)} must be given (the keys: {', '.join(required)})")
    return value


def _bool(value: Any, at: _At) -> bool:
    if not isinstance(value, bool):
        raise at.refuse(f"must be true or false, not {_shown(value)}")
    return value


def _whole(low: int, high: int, unit: str = "") -> Callable[[Any, _At], int]:
    """A reader of a whole number from `low` to `high` (`unit`: what it counts, for the message)."""
    def read(value: Any, at: _At) -> int:
        if type(value) is not int or not low <= value <= high:
            raise at.refuse(f"must be a whole number{unit} from {low} to {high}, not {_shown(value)}")
        return value
    return read


def _optional(read: Callable[[Any, _At], Any]) -> Callable[[Any, _At], Any]:
    """A reader that also takes null (None)."""
    return lambda value, at: None if value is None else read(value, at)


def _choice(meanings: dict[str, str]) -> Callable[[Any, _At], str]:
    """A reader of one of a few names."""
    def read(value: Any, at: _At) -> str:
        if not isinstance(value, str) or value not in meanings:
            valid = "; ".join(f'"{name}" ({meaning})' for name, meaning in meanings.items())
            raise at.refuse(f"must be one of {valid}, not {_shown(value)}")
        return value
    return read


_seconds = _whole(0, YEAR, " of seconds")


def _part(kind: Callable[..., Any], readers: dict[str, Callable[[Any, _At], Any]]) -> Callable[[Any, _At], Any]:
    """A reader of an object of some of these keys, each by its reader, as a `kind` (a key not given: its default)."""
    def read(value: Any, at: _At) -> Any:
        given = _object(value, at, tuple(readers))
        return kind(**{key: readers[key](v, at.child(key)) for key, v in given.items()})
    return read


@functools.cache
def _zones() -> frozenset[str]:
    """The IANA time zones this host knows (read once)."""
    return frozenset(available_timezones() - _HOST_ZONES)


def _close_zones(zone: str) -> list[str]:
    """The known zones spelt closest to a given one, case aside."""
    by_folded = {known.casefold(): known for known in _zones()}
    if zone.casefold() in by_folded:
        return [by_folded[zone.casefold()]]
    return [by_folded[z] for z in difflib.get_close_matches(zone[:100].casefold(), sorted(by_folded), 3, 0.8)]


def _clock(value: Any, at: _At) -> Clock:
    given = _object(value, at, ("time", "zone"), required=("time", "zone"))
    when, zone = given["time"], given["zone"]
    if not isinstance(when, str) or not _CLOCK_TIME.fullmatch(when):
        raise at.child("time").refuse(f'must be a time of day "HH:MM" from "00:00" to "23:59" (such as "21:00"), '
                                      f"not {_shown(when)}")
    if not isinstance(zone, str) or zone not in _zones():
        close = _close_zones(zone) if isinstance(zone, str) else []
        hint = f" (did you mean {', '.join(repr(z) for z in close)}?)" if close else ""
        raise at.child("zone").refuse(f"unknown time zone {_shown(zone)}{hint}; a zone is an IANA name such as "
                                      '"Europe/Paris" or "America/New_York"', suggestions=close or None)
    return Clock(when, zone)


def _scoring(value: Any, at: _At) -> Any:
    if not isinstance(value, (str, dict)):
        raise at.refuse(f'must be a scoring system\'s name or {{"system": NAME, PARAMETER: VALUE...}}, not '
                        f"{_shown(value)}")
    try:
        scoring.choose(value)
    except scoring.ScoringError as exc:
        raise at.refuse(exc.message) from None
    return copy.deepcopy(value)


_READERS: dict[str, Callable[[Any, _At], Any]] = {
    "public_readiness": _bool, "phase_seconds": _optional(_seconds),
    "phase_durations": _part(Durations, {kind: _seconds for kind in PHASE_KINDS}),
    "deadline_clock": _optional(_clock), "grace_seconds": _seconds,
    "nmr_extensions": _part(Extensions, {"count": _whole(0, MAX_EXTENSIONS, " of extensions"),
                                         "seconds": _whole(1, YEAR, " of seconds")}),
    "pause": _part(PauseCap, {"max_seconds": _whole(1, YEAR, " of seconds"),
                              "max_times": _whole(0, MAX_PAUSES, " of pauses")}),
    "reminder_seconds": _seconds, "draws": _choice(DRAWS), "secret_votes": _bool, "votes_survive_phase": _bool,
    "disorder_votes": _choice(DISORDER_VOTES), "disorder_after": _whole(0, MAX_DISORDER, " of movement phases"),
    "scoring": _scoring, "end_year": _optional(_whole(0, MAX_YEAR)),
    "gunboat": _bool, "anonymous_seats": _bool, "messages_visible_after_end": _bool,
    "game_master_reads_messages": _bool,
}
KEYS = tuple(f.name for f in fields(Settings))
SETTINGS_SCHEMA = schema_of(Settings().to_json())
