"""How a game ended, as data: the end's kind, the powers it names, each power's centres and year of elimination,
the year it ended and the board's centres and victory condition (what a scoring system needs, SCORING.md).
A game without supply centres (the Arctic games) gives the same record with no board (`board: null`, every
player's centres 0) and its own result instead: `result: {points: {player: n}, ranking: [...]}`.

Checked when made (a draw naming a power not in the game is refused, whoever makes it), and read from and written
to JSON or YAML mappings (`from_json`, `to_json`) that say the same."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.located import LocatedReader, what_it_is
from adjudicator.yamlio import load_yaml_file


class EndError(AdjudicatorError):
    """An end record that cannot be: what is wrong and what would be valid."""


class EndKind(enum.Enum):
    """How a game ends (SCORING.md): a solo, an agreed draw, a concession to one power, every seat abandoned, or
    stopped (by the game master or at a year limit; scored as a draw of every survivor)."""

    SOLO = "solo"
    DRAW = "draw"
    CONCESSION = "concession"
    ABANDONED = "abandoned"
    STOPPED = "stopped"


KINDS = ", ".join(k.value for k in EndKind)


@dataclass(frozen=True)
class PowerAtEnd:
    """One power at the end: its centres, the year it was eliminated (None: it survived), and, for a power that
    holds no centre but survives on its units, its units (None: not given)."""

    name: str
    centres: int
    eliminated: int | None = None
    units: int | None = None

    @property
    def survived(self) -> bool:
        """Whether the power is still in the game at the end."""
        return self.eliminated is None


def _whole(value: object, what: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise EndError(f"{what} must be a whole number of at least {low}, not {value!r}")
    return value


@dataclass(frozen=True)
class GameEnd:
    """A game's end: its kind, the powers it names (the soloist, the one conceded to, the draw's powers; none for
    an abandoned or stopped game), every power at the end, the year it ended (and began), the board's centres and
    the centres a solo needs; a game without centres gives 0 for both and its own `result` (points, ranking)."""

    kind: EndKind
    powers: tuple[str, ...]
    standing: tuple[PowerAtEnd, ...]
    year: int
    first_year: int
    total_centres: int
    victory: int
    result: Mapping[str, Any] | None = None  # a game without centres: its own result, {points, ranking}

    def __post_init__(self) -> None:
        if not isinstance(self.kind, EndKind):
            raise EndError(f"the end's kind must be one of {KINDS}, not {self.kind!r}")
        if isinstance(self.first_year, bool) or not isinstance(self.first_year, int):
            raise EndError(f"the first year must be a whole number (0 and negative years too, on a calendar that "
                           f"reaches them), not {self.first_year!r}")
        _whole(self.year, "the year the game ended", self.first_year)
        if self.result is not None:
            self._check_result()
            return
        _whole(self.total_centres, "the board's centres", 1)
        _whole(self.victory, "the victory condition", 1)
        if self.victory > self.total_centres:
            raise EndError(f"the victory condition ({self.victory}) is more than the board's {self.total_centres} "
                           "centres")
        if not self.standing:
            raise EndError("the end names no power of the game: give each power's centres")
        typed = all(isinstance(p, PowerAtEnd) for p in self.standing) and all(isinstance(n, str) for n in self.powers)
        if not typed:
            raise EndError("an end's standing is its PowerAtEnd records and its powers their names")
        names = [p.name for p in self.standing]
        if len(set(names)) != len(names):
            raise EndError(f"a power is given twice: {', '.join(sorted({n for n in names if names.count(n) > 1}))}")
        for p in self.standing:
            self._check_power(p)
        if not self.survivors():
            raise EndError("every power is eliminated: at least one survives a game")
        held = sum(p.centres for p in self.standing)
        if held > self.total_centres:
            raise EndError(f"the powers hold {held} centres, more than the board's {self.total_centres}")
        self._check_named(names)

    @property
    def has_centres(self) -> bool:
        """Whether the end is a centre game's (Diplomacy's), which the centre-based scoring systems score."""
        return self.result is None

    def _check_result(self) -> None:
        """A game without centres: no board, no centres, its players and the powers named; its result's points
        and ranking name its players."""
        if self.total_centres or self.victory:
            raise EndError("an end with the game's own result has no board centres (board: null)")
        if not self.standing:
            raise EndError("the end names no player of the game")
        if not all(isinstance(p, PowerAtEnd) for p in self.standing):
            raise EndError("an end's standing is its PowerAtEnd records")
        names = [p.name for p in self.standing]
        if len(set(names)) != len(names):
            raise EndError(f"a player is given twice: {', '.join(sorted({n for n in names if names.count(n) > 1}))}")
        for p in self.standing:
            if p.centres or p.units is not None:
                raise EndError(f"{p.name}: a game without centres gives no centres or units (0), not {p.centres}")
            if p.eliminated is not None:
                _whole(p.eliminated, f"{p.name}'s year of elimination", self.first_year)
        points = self.result.get("points") if isinstance(self.result, Mapping) else None
        if not isinstance(points, Mapping) or any(isinstance(v, bool) or not isinstance(v, (int, float))
                                                   for v in points.values()):
            raise EndError("the game's result gives each player's points: {points: {player: n}, ranking: [...]}")
        unknown = [str(k) for k in points if k not in names]
        if unknown:
            raise EndError(f"the result's points name {unknown[0]!r}, not a player of the game; the players: "
                           f"{', '.join(names)}")
        if not self.survivors():
            raise EndError("every player is eliminated: at least one survives a game")
        self._check_named(names)

    def _check_power(self, p: PowerAtEnd) -> None:
        if not isinstance(p.name, str) or not p.name:
            raise EndError(f"a power's name must be a text, not {p.name!r}")
        _whole(p.centres, f"{p.name}'s centres", 0)
        if p.units is not None:
            _whole(p.units, f"{p.name}'s units", 1)
            if p.centres or p.eliminated is not None:
                raise EndError(f"{p.name}'s units are given for a power that survives on its units alone (no "
                               "centre), which it is not")
        if p.eliminated is None:
            if p.centres == 0 and p.units is None:
                raise EndError(f"{p.name} has no centres: give the year it was eliminated "
                               f"(eliminated: {{{p.name}: YEAR}}), or its units if it survives on them "
                               f"(units: {{{p.name}: N}})")
            return
        _whole(p.eliminated, f"{p.name}'s year of elimination", self.first_year)
        if p.eliminated > self.year:
            raise EndError(f"{p.name} is eliminated in {p.eliminated}, after the game ended ({self.year})")
        if p.centres:
            raise EndError(f"{p.name} holds {p.centres} centres, so it was not eliminated (in {p.eliminated})")

    def _check_named(self, names: list[str]) -> None:
        for name in self.powers:
            if name not in names:
                raise EndError(f"the {self.kind.value} names {name!r}, not a power of the game; the powers: "
                               f"{', '.join(names)}")
        if len(set(self.powers)) != len(self.powers):
            raise EndError(f"the {self.kind.value} names a power twice: {', '.join(self.powers)}")
        survivors = self.survivors()
        for name in self.powers:
            if name not in survivors:
                raise EndError(f"the {self.kind.value} names {name}, which was eliminated; the survivors: "
                               f"{', '.join(survivors)}")
        if self.kind in (EndKind.SOLO, EndKind.CONCESSION) and len(self.powers) != 1:
            raise EndError(f"a {self.kind.value} names one power (the "
                           f"{'soloist' if self.kind is EndKind.SOLO else 'power conceded to'}), not "
                           f"{len(self.powers)}")
        if self.kind is EndKind.SOLO and self.has_centres and self.centres(self.powers[0]) < self.victory:
            raise EndError(f"{self.powers[0]} holds {self.centres(self.powers[0])} centres, fewer than the "
                           f"{self.victory} a solo needs (a game conceded to it is a concession)")
        if self.kind is EndKind.DRAW and len(self.powers) < 2:
            raise EndError("a draw names at least two powers (one power alone is a solo or a concession)")
        if self.kind in (EndKind.ABANDONED, EndKind.STOPPED) and self.powers:
            raise EndError(f"an {self.kind.value} game names no powers (it is scored as a draw of every survivor)"
                           if self.kind is EndKind.ABANDONED else
                           "a stopped game names no powers (it is scored as a draw of every survivor)")

    def centres(self, power: str) -> int:
        """The centres `power` holds at the end."""
        return self.power(power).centres

    def power(self, name: str) -> PowerAtEnd:
        """The power of that name at the end."""
        for p in self.standing:
            if p.name == name:
                return p
        raise EndError(f"{name!r} is not a power of the game; the powers: "
                       f"{', '.join(p.name for p in self.standing)}")

    def survivors(self) -> tuple[str, ...]:
        """The powers still in the game at the end."""
        return tuple(p.name for p in self.standing if p.survived)

    def sharers(self) -> tuple[str, ...]:
        """The powers a draw's points go to: the draw's, or every survivor of a game stopped or abandoned."""
        return self.powers if self.kind is EndKind.DRAW else self.survivors()

    def years_played(self, power: str) -> int:
        """The game years a power played: from the first to the one it was eliminated in (or the game ended)."""
        p = self.power(power)
        return (p.eliminated if p.eliminated is not None else self.year) - self.first_year + 1

    @property
    def is_solo(self) -> bool:
        """A solo, or a concession (scored as a solo)."""
        return self.kind in (EndKind.SOLO, EndKind.CONCESSION)

    def to_json(self) -> dict[str, Any]:
        """The end as a JSON mapping (`from_json` reads it back); `units` and `result` only when given."""
        data: dict[str, Any] = {
            "kind": self.kind.value,
            "powers": list(self.powers),
            "year": self.year,
            "first_year": self.first_year,
            "board": {"centres": self.total_centres, "victory": self.victory} if self.has_centres else None,
            "centres": {p.name: p.centres for p in self.standing},
            "eliminated": {p.name: p.eliminated for p in self.standing if p.eliminated is not None},
        }
        units = {p.name: p.units for p in self.standing if p.units is not None}
        if units:
            data["units"] = units
        if self.result is not None:
            data["result"] = _plain_result(self.result)
        return data

    @classmethod
    def from_json(cls, data: Any, file: str | None = None) -> "GameEnd":
        """The end a JSON or YAML mapping describes (`to_json`'s form; a draw with no `powers` is a draw of every
        survivor); a problem is an EndError naming the file, the line and the key."""
        return _Reader(file, data).end()


def _plain_result(value: Any) -> Any:
    """A result as plain JSON data (mappings as dicts, sequences as lists)."""
    if isinstance(value, Mapping):
        return {str(k): _plain_result(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_result(v) for v in value]
    return value


FIELDS = ("kind", "powers", "year", "first_year", "board", "centres", "eliminated", "units", "result")


class _Reader(LocatedReader):
    """Reads an end record's mapping, each problem an EndError located by its line and JSON pointer."""

    error = EndError

    def __init__(self, file: str | None, data: Any) -> None:
        super().__init__(file, data)
        self.data = data

    def mapping(self, value: Any, what: str, node: Any = None, pointer: str = "") -> dict[Any, Any]:
        """`value` when it is a mapping (nothing given is refused: every mapping of an end record is needed)."""
        if not isinstance(value, dict):
            raise self.fail(f"{what} must be a mapping, not {what_it_is(value)}", value, pointer)
        return value

    def end(self) -> GameEnd:
        data = self.mapping(self.data, "an end record", pointer="")
        unknown = [str(k) for k in data if k not in FIELDS]
        if unknown:
            raise self.fail(f"unknown key {unknown[0]!r} in the end record; the keys: {', '.join(FIELDS)}",
                            unknown[0], f"/{unknown[0]}")
        for key in ("kind", "year", "first_year", "board", "centres"):
            if key not in data:
                raise self.fail(f"the end record has no {key!r}", data, f"/{key}")
        kinds = {k.value: k for k in EndKind}
        if data["kind"] not in kinds:
            raise self.fail(f"the end's kind must be one of {KINDS}, not {data['kind']!r}", data["kind"], "/kind")
        result = data.get("result")
        if result is not None:
            self.mapping(result, "result", pointer="/result")
            if data["board"] is not None:
                raise self.fail("an end with the game's own result has no board centres: write board: null",
                                data["board"], "/board")
            board = {"centres": 0, "victory": 0}
        else:
            board = self.mapping(data["board"], "board", pointer="/board")
        if set(board) != {"centres", "victory"}:
            raise self.fail("board must give exactly its 'centres' and 'victory' (the centres a solo needs)",
                            board, "/board")
        centres = self.mapping(data["centres"], "centres", pointer="/centres")
        eliminated = self.mapping(data.get("eliminated") or {}, "eliminated", pointer="/eliminated")
        units = self.mapping(data.get("units") or {}, "units", pointer="/units")
        for key, named in (("eliminated", eliminated), ("units", units)):
            for name in named:
                if name not in centres:
                    raise self.fail(f"{key} names {name!r}, which has no centres entry; the powers: "
                                    f"{', '.join(map(str, centres))}", name, f"/{key}/{name}")
        standing = tuple(PowerAtEnd(str(name), count, eliminated.get(name), units.get(name))
                         for name, count in centres.items())
        powers = data.get("powers")
        if powers is None and kinds[data["kind"]] is EndKind.DRAW:
            powers = [p.name for p in standing if p.survived]  # DIAS: the draw of every survivor
        if powers is None:
            powers = []
        if not isinstance(powers, list) or not all(isinstance(p, str) for p in powers):
            raise self.fail("powers must be a list of the powers' names", powers, "/powers")
        try:
            return GameEnd(kinds[data["kind"]], tuple(str(p) for p in powers), standing, data["year"],
                           data["first_year"], board["centres"], board["victory"], result)
        except EndError as exc:
            raise self.fail(exc.message, data, "") from None


def read_end_file(path: str) -> GameEnd:
    """The end record of a YAML or JSON file."""
    return GameEnd.from_json(load_yaml_file(path), file=path)
