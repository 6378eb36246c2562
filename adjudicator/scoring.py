"""Scoring systems as data: `scoring.yaml` names each system (draw size, sum of squares, C-Diplo, Carnage,
ManorCon) and its parameters; one mechanism (`Scoring.scores`) turns a game's end (`game_end.py`) into points.

A system is chosen by name, with parameter overrides (`choose({"system": "c-diplo", "solo": 73})`). Scores are
exact rationals (`Fraction`); shown, they are rounded half up to two decimal places (`rounded`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from itertools import groupby
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.game_end import EndKind, GameEnd
from adjudicator.yamlio import load_yaml_file, load_yaml_text, plain

SYSTEMS_FILE = Path(__file__).with_name("scoring.yaml")
PLACES = 2  # decimal places a score is shown with


class ScoringError(AdjudicatorError):
    """A scoring system or choice that cannot be used: what is wrong and what would be valid."""


CHOICES = {  # the parameters that name a kind of formula, and their kinds
    "solo_others": ("zero", "eliminated"),
    "share_over": ("draw", "all"),
    "rank_by": ("centres", "centres_then_elimination"),
}


@dataclass(frozen=True)
class Scoring:
    """A scoring system with its parameters (scoring.yaml says what each does); `takes` names those it gives."""

    name: str
    title: str
    takes: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    solo: Fraction = Fraction(0)
    solo_others: str = "zero"
    share_points: Fraction = Fraction(0)
    share_weight: tuple[Fraction, ...] = (Fraction(0), Fraction(0), Fraction(1))
    share_over: str = "draw"
    per_power: Fraction = Fraction(0)
    per_centre: Fraction = Fraction(0)
    rank_points: tuple[Fraction, ...] = ()
    rank_by: str = "centres"
    eliminated_per_year: Fraction | None = None

    def __post_init__(self) -> None:
        for key, kinds in CHOICES.items():
            if getattr(self, key) not in kinds:
                raise ScoringError(f"{self.name}: {key} must be one of {', '.join(kinds)}, not {getattr(self, key)!r}")
        if self.solo_others == "eliminated" and self.eliminated_per_year is None:
            raise ScoringError(f"{self.name}: solo_others: eliminated needs eliminated_per_year (the points a year)")
        if len(self.share_weight) != 3 or not any(self.share_weight):
            raise ScoringError(f"{self.name}: share_weight must be three numbers [a, b, k] (weight a*c^2 + b*c + k), "
                               "not all 0")

    def parameters(self) -> dict[str, Any]:
        """The parameters the system takes, with their values (a number no decimal writes exactly as "n/d")."""
        return {key: _plain(getattr(self, key)) for key in self.takes}

    def scores(self, end: GameEnd) -> dict[str, Fraction]:
        """Each power's score at `end`, exactly, in the end's order of powers; an end of a game without centres
        (its own result) is refused: these systems count centres."""
        if not end.has_centres:
            raise ScoringError(f"{self.name} scores by supply centres, and this game has none: it is scored by its "
                               "own result (points and ranking)")
        if end.is_solo:
            return {p.name: self.solo if p.name == end.powers[0] else
                    self._per_year(end, p.name) if self.solo_others == "eliminated" else Fraction(0)
                    for p in end.standing}
        out = {p.name: Fraction(0) for p in end.standing}
        for name, points in self._shares(end).items():
            out[name] += points
        for p in end.standing:
            out[p.name] += self.per_power + self.per_centre * p.centres
        for name, points in self._ranks(end).items():
            out[name] += points
        if self.eliminated_per_year is not None:
            for p in end.standing:
                if not p.survived:
                    out[p.name] = self._per_year(end, p.name)
        return out

    def _per_year(self, end: GameEnd, power: str) -> Fraction:
        return (self.eliminated_per_year or Fraction(0)) * end.years_played(power)

    def _weight(self, centres: int) -> Fraction:
        a, b, k = self.share_weight
        return a * centres * centres + b * centres + k

    def _shares(self, end: GameEnd) -> dict[str, Fraction]:
        if not self.share_points:
            return {}
        paid = end.sharers() if self.share_over == "draw" else end.survivors()
        counted = paid if self.share_over == "draw" else tuple(p.name for p in end.standing)
        # (never 0: an end has a survivor, who holds a centre, and the weights are not all 0)
        divisor = sum((self._weight(end.centres(name)) for name in counted), Fraction(0))
        return {name: self.share_points * self._weight(end.centres(name)) / divisor for name in paid}

    def _ranks(self, end: GameEnd) -> dict[str, Fraction]:
        def key(name: str) -> tuple[int, int]:
            later = end.power(name).eliminated
            alive = end.year + 1 if later is None else later  # a survivor outlasts every eliminated power
            return end.centres(name), alive if self.rank_by == "centres_then_elimination" else 0

        out: dict[str, Fraction] = {}
        place = 0
        for _, group in groupby(sorted((p.name for p in end.standing), key=key, reverse=True), key=key):
            tied = list(group)
            points = sum(self.rank_points[place:place + len(tied)], Fraction(0))
            out.update((name, points / len(tied)) for name in tied)  # tied powers share their places' points
            place += len(tied)
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return value.numerator
        return float(value) if Fraction(str(float(value))) == value else str(value)  # 0.1 as 0.1, a third "1/3"
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


PARAMETERS = tuple(f.name for f in fields(Scoring) if f.name not in ("name", "title", "takes", "aliases"))
ENTRY_KEYS = ("title", "aliases", "parameters")


def _number(system: str, key: str, value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ScoringError(f"{system}: {key} must be a number of at least 0, not {value!r}")
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)  # 0.1 is a tenth, not the float


def _numbers(system: str, key: str, value: Any) -> tuple[Fraction, ...]:
    if not isinstance(value, list):
        raise ScoringError(f"{system}: {key} must be a list of numbers, not {value!r}")
    return tuple(_number(system, key, v) for v in value)


def _value(system: str, key: str, value: Any) -> Any:
    """A parameter's value read and checked: numbers exact, formula kinds among their names."""
    if key in CHOICES:
        if value not in CHOICES[key]:
            raise ScoringError(f"{system}: {key} must be one of {', '.join(CHOICES[key])}, not {value!r}")
        return str(value)
    if key in ("share_weight", "rank_points"):
        return _numbers(system, key, value)
    if key == "eliminated_per_year" and value is None:
        return None
    return _number(system, key, value)


def _system(name: str, entry: Any) -> Scoring:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("parameters"), Mapping):
        raise ScoringError(f"scoring system {name!r} must be a mapping with its title and parameters")
    extra = [str(k) for k in entry if k not in ENTRY_KEYS]
    if extra:
        raise ScoringError(f"{name}: unknown key {extra[0]!r}; a system gives {', '.join(ENTRY_KEYS)}")
    aliases = entry.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise ScoringError(f"{name}: aliases must be a list of names, not {aliases!r}")
    params = dict(entry["parameters"])
    unknown = [k for k in params if k not in PARAMETERS]
    if unknown:
        raise ScoringError(f"{name}: unknown parameter {unknown[0]!r}; the parameters: {', '.join(PARAMETERS)}")
    values = {key: _value(name, key, v) for key, v in params.items()}
    return Scoring(name, str(entry.get("title") or name), tuple(params), tuple(map(str, aliases)), **values)


def load_systems(path: str | Path = SYSTEMS_FILE) -> dict[str, Scoring]:
    """The scoring systems of a file in scoring.yaml's form, by name and by alias (the shipped file's are kept)."""
    if Path(path) == SYSTEMS_FILE:
        return _shipped()
    return _load(path)


@functools.cache
def _shipped() -> dict[str, Scoring]:
    return _load(SYSTEMS_FILE)


def _load(path: str | Path) -> dict[str, Scoring]:
    data = load_yaml_file(path)
    if not isinstance(data, Mapping) or not data:
        raise ScoringError("a scoring file is a mapping of systems by name", file=str(path))
    out: dict[str, Scoring] = {}
    try:
        for name, entry in data.items():
            system = _system(str(name), entry)
            for key in (system.name, *system.aliases):
                if key in out:
                    raise ScoringError(f"two systems are named {key!r}")
                out[key] = system
    except ScoringError as exc:
        raise exc.located(file=str(path)) from None
    return out


def choose(choice: str | Mapping[str, Any], systems: Mapping[str, Scoring] | None = None) -> Scoring:
    """The system a choice names (a name, or `{"system": NAME, PARAMETER: VALUE...}`), its parameters overridden;
    an unknown system or a parameter the system does not take is refused, naming the valid ones."""
    known = systems if systems is not None else load_systems()
    given = dict(choice) if isinstance(choice, Mapping) else {"system": choice}
    name = given.pop("system", None)
    if not isinstance(name, str) or name not in known:
        names = ", ".join(sorted({s.name for s in known.values()}))  # (the aliases are for typing, not listing)
        what = "no scoring system is named" if name is None else f"unknown scoring system {name!r}"
        raise ScoringError(f"{what}; the systems: {names}")
    system = known[name]
    for key in given:
        if key not in system.takes:
            raise ScoringError(f"{system.name} takes no parameter {key!r}; its parameters: {', '.join(system.takes)}")
    return replace(system, **{key: _value(system.name, key, v) for key, v in given.items()})


def choice_of(system: str, settings: tuple[str, ...] = ()) -> dict[str, Any]:
    """The choice a command line gives: a system's name and `KEY=VALUE` overrides (each value read as YAML)."""
    choice: dict[str, Any] = {"system": system}
    for setting in settings:
        key, equals, text = setting.partition("=")
        if not equals or not key.strip():
            raise ScoringError(f"a parameter is set as KEY=VALUE (solo=73, rank_points=[38,14,7]), not {setting!r}")
        choice[key.strip()] = plain(load_yaml_text(text, file=f"the value of {key.strip()}"))
    return choice


def rounded(value: Fraction, places: int = PLACES) -> Decimal:
    """A score as shown: rounded half up to `places` decimal places."""
    quantum = Decimal(1).scaleb(-places)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(quantum, rounding=ROUND_HALF_UP)


def describe(end: GameEnd, year_word: str = "") -> str:
    """The end in a few words: "a draw of England, France, Germany in 1910" (`year_word`: what the game counts
    its years in, "round 3")."""
    named = ", ".join(end.powers)
    how = {EndKind.SOLO: f"a solo by {named}", EndKind.CONCESSION: f"conceded to {named}",
           EndKind.DRAW: f"a draw of {named}",
           EndKind.ABANDONED: "abandoned (scored as a draw of every survivor)",
           EndKind.STOPPED: "stopped (scored as a draw of every survivor)"}[end.kind]
    return f"{how} in {year_word + ' ' if year_word else ''}{end.year}"


def score_json(end: GameEnd, system: Scoring | None, scores: Mapping[str, Fraction] | None = None) -> dict[str, Any]:
    """The scores as JSON: rounded (`scores`), exact (`exact`, "n/d" texts), with the system and the end (`system`
    None: the game's own result, whose `scores` are given)."""
    if scores is None:
        if system is None:
            raise ScoringError("no scoring system is named")
        scores = system.scores(end)
    return {"system": system.name if system else None, "parameters": system.parameters() if system else {},
            "end": end.to_json(),
            "scores": {p: float(rounded(v)) for p, v in scores.items()},
            "exact": {p: str(v) for p, v in scores.items()}}


def score_table(end: GameEnd, system: Scoring) -> str:
    """The scores as a table a tournament director reads: highest first, then in the end's order."""
    return scores_table(end, system.scores(end), f"{system.title} ({system.name})")


def end_sentence(end: GameEnd, year_word: str = "") -> str:
    """How the game ended, as the text report says it: "The game ended: a draw of England, France in 1905."."""
    return f"The game ended: {describe(end, year_word)}."


def scores_table(end: GameEnd, scores: Mapping[str, Fraction], title: str, year_word: str = "") -> str:
    """Scores as a table, highest first, then in the end's order: with each power's centres for a game with
    centres, the game's own points for one without (none: its result's note says where they are counted)."""
    lines = [f"{title}: {describe(end, year_word)}"]
    if not scores:
        note = (end.result or {}).get("note") or "the game's result gives no scores"
        return "\n".join(lines + [f"no scores: {note}"]) + "\n"
    rows = sorted(end.standing, key=lambda p: -scores.get(p.name, Fraction(0)))
    width = max(len("power"), *(len(p.name) for p in rows))
    lines.append(f"{'power':<{width}}  centres  {'score':>9}" if end.has_centres else f"{'power':<{width}}  {'points':>9}")
    for p in rows:
        if p.name not in scores:
            continue
        note = "" if p.survived else f"  (eliminated {p.eliminated})"
        centres = f"{p.centres:>7}  " if end.has_centres else ""
        lines.append(f"{p.name:<{width}}  {centres}{rounded(scores[p.name]):>9}{note}")
    lines.append(f"scores rounded half up to {PLACES} places; total {rounded(sum(scores.values(), Fraction(0)))}")
    return "\n".join(lines) + "\n"
