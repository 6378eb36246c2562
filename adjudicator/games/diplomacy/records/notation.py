"""How the field's game records name a board's places, powers and phases (`STP/SC`, `AUSTRIA`, `S1901M`), read
from the board's own `records:` data (variants/FORMAT.md): the map's name in each format and the province names
that differ from the board's ids written in capitals. A board without `records:` is written by its ids."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.board import Board
from adjudicator.games.diplomacy.codes import place_codes
from adjudicator.games.diplomacy.state import Phase

FORMATS = ("mila", "fair")
_TYPE_CODE = {"Movement": "M", "Retreat": "R", "Adjustment": "A"}
_CODE_TYPE = {v: k for k, v in _TYPE_CODE.items()}


class RecordError(AdjudicatorError):
    """A game record that cannot be read as a game of this project: what, where (the game, phase, power) and why."""


def map_name(board: Board, fmt: str) -> str | None:
    """The board's map name in a format (`standard`), or None when the board says it has none there."""
    records = board.raw.get("records") or {}
    name = records.get(fmt)
    return str(name) if name else None


@dataclass(frozen=True)
class Notation:
    """A board's names in a record format, both ways."""

    board: Board
    place_out: dict[str, str] = field(repr=False)  # our location -> the record's (`stp/sc` -> `STP/SC`)
    place_in: dict[str, str] = field(repr=False)  # the record's (upper case) -> our location
    power_out: dict[str, str] = field(repr=False)
    power_in: dict[str, str] = field(repr=False)

    def place(self, location: str) -> str:
        """Our location in the record's notation."""
        return self.place_out[location]

    def our_place(self, name: str, where: str) -> str:
        """The record's place name as our location; a RecordError names it and `where` it was read."""
        found = self.place_in.get(name.upper())
        if found is None:
            raise RecordError(f"{where}: {name[:40]!r} is not a place of the board {self.board.name}")
        return found

    def power(self, power: str) -> str:
        """Our power's name in the record (`AUSTRIA`)."""
        return self.power_out[power]

    def our_power(self, name: str, where: str) -> str:
        """The record's power as our power; a RecordError names it and the powers of the board."""
        found = self.power_in.get(name.upper())
        if found is None:
            raise RecordError(f"{where}: {name[:40]!r} is not a power of the board {self.board.name} (its powers: "
                              f"{', '.join(self.power_out.values())})")
        return found

    def phase_code(self, phase: Phase) -> str:
        """`S1901M`; an adjustment is the record's Winter (`W1901A`) unless the board names its season otherwise."""
        season = "W" if phase.type == "Adjustment" and self.board.season_key(phase.season) in ("Fall", "Winter") \
            else phase.season[0].upper()
        return f"{season}{phase.year:04d}{_TYPE_CODE[phase.type]}"  # (the package: `%04d`, S0001M on ancmed)

    def our_phase(self, code: str, where: str) -> Phase:
        """The record's phase name (`F1901R`) as our phase, by the board's calendar."""
        text = code.strip().upper()
        if len(text) < 3 or text[-1] not in _CODE_TYPE or not text[1:-1].isdigit():
            raise RecordError(f"{where}: {code[:40]!r} is not a phase name such as S1901M, F1901R or W1901A")
        letter, year, kind = text[0], int(text[1:-1]), _CODE_TYPE[text[-1]]
        steps = [s for s in self.board.calendar if s.type == kind]
        for step in steps:
            if step.season[0].upper() == letter or (letter == "W" and kind == "Adjustment"):
                return Phase(step.season, year, kind)
        raise RecordError(f"{where}: the board {self.board.name} has no {kind.lower()} phase in a season written "
                          f"{letter!r} (its calendar: {', '.join(f'{s.season} {s.type}' for s in self.board.calendar)})")


@lru_cache(maxsize=64)  # bounded: boards read from users' files come and go
def notation(board: Board) -> Notation:
    """The board's record names (one per board, kept with it)."""
    place_out = dict(place_codes(board))
    power_out = {p: p.upper().replace(" ", "_").replace("-", "") for p in board.powers}  # (the package: NEAREAST)
    return Notation(board, place_out, {v: k for k, v in place_out.items()}, power_out,
                    {v: k for k, v in power_out.items()})
