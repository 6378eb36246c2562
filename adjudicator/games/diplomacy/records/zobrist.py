"""The `diplomacy` package's Zobrist hash of a position (each phase's `state.zobrist_hash` in its saved games),
computed from this project's GameState.

The package (diplomacy/engine/game.py) fills one table per map in `Game._build_hash_table`: the map's powers sorted,
its locations (coasts included, `STP/NC`) upper-cased and sorted without the impassable (`SHUT`) ones, and a seed
from the supply centres' names; then `random.seed(seed)` and `random.randint(1, sys.maxsize)` for every cell, filling
in turn the unit types (A, F) by location, the units by power and location, the dislodged unit types, the dislodged
units, the centres and the homes. A position's hash (`Game.rebuild_hash`, kept up to date by `update_hash`) is the
XOR, over every unit, of its type's and its power's cell at its location (the dislodged tables for a dislodged unit),
over every owned centre of its owner's cell, and over every home centre of its power's cell. `Game.get_hash` writes
it as a string (the decimal integer: "otherwise json.dumps overflows"), as the saved game does: `zobrist_hash` here
gives that string, `zobrist_value` the integer.

Names are the record's, through `notation(board)`: the package's maps and this project's boards of the same name
have the same places (tested on standard, ancmed, modern and pure). The tables are drawn from a private
`random.Random(seed)`, never the global generator, which gives the very numbers `random.seed` does; `sys.maxsize`
is the platform's, as the package's (2**63 - 1 on every 64-bit Python).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from functools import lru_cache

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board
from adjudicator.games.diplomacy.records.notation import notation
from adjudicator.games.diplomacy.state import GameState, Unit

_TYPES = (ARMY, FLEET)  # the package's order of unit types: ['A', 'F']


@dataclass(frozen=True)
class ZobristTables:
    """One board's tables, as the package draws them (each a row per unit type or power, a cell per location)."""

    powers: dict[str, int]  # our power -> its row (the record's names sorted)
    locations: dict[str, int]  # our location (`stp/nc`) -> its column (the record's names sorted)
    unit_type: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    dis_unit_type: tuple[tuple[int, ...], ...]
    dis_units: tuple[tuple[int, ...], ...]
    centres: tuple[tuple[int, ...], ...]
    homes: tuple[tuple[int, ...], ...]
    home_value: int  # every power's home centres hashed: the same in every position


def map_seed(location_count: int, centre_names: list[str]) -> int:
    """The package's seed for a map: from the number of locations and its supply centres' names (upper case)."""
    text = "-".join(sorted(centre_names))
    return (12345 + location_count + sum(ord(c) * 7 ** i for i, c in enumerate(text))) % 2 ** 32


@lru_cache(maxsize=16)  # bounded: a board read from a user's file may come and go
def zobrist_tables(board: Board) -> ZobristTables:
    """The board's tables (worked out once per board)."""
    names = notation(board)
    powers = sorted(board.powers, key=names.power)
    locations = sorted(names.place_out, key=names.place)
    draw = random.Random(map_seed(len(locations), [names.place(c) for c in board.centres]))

    def rows(count: int) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(draw.randint(1, sys.maxsize) for _ in locations) for _ in range(count))

    unit_type, units = rows(len(_TYPES)), rows(len(powers))  # (the package's order of drawing)
    dis_unit_type, dis_units = rows(len(_TYPES)), rows(len(powers))
    centres, homes = rows(len(powers)), rows(len(powers))
    power_row = {p: i for i, p in enumerate(powers)}
    column = {loc: i for i, loc in enumerate(locations)}
    home_value = 0
    for power in powers:
        for home in board.home_centres(power):
            home_value ^= homes[power_row[power]][column[home]]
    return ZobristTables(power_row, column, unit_type, units, dis_unit_type, dis_units, centres, homes, home_value)


def _unit_value(tables: ZobristTables, unit: Unit, dislodged: bool) -> int:
    column = tables.locations[unit.location]
    types, owners = (tables.dis_unit_type, tables.dis_units) if dislodged else (tables.unit_type, tables.units)
    return types[_TYPES.index(unit.type)][column] ^ owners[tables.powers[unit.power]][column]


def zobrist_value(board: Board, state: GameState) -> int:
    """The package's Zobrist hash of a position, as an integer."""
    tables = zobrist_tables(board)
    value = tables.home_value
    for unit in state.units.values():
        value ^= _unit_value(tables, unit, False)
    for d in state.dislodged.values():
        value ^= _unit_value(tables, d.unit, True)
    for centre, owner in state.owners.items():
        row = tables.powers.get(owner)
        if row is not None:  # (a board's neutral owner is no power of the package's)
            value ^= tables.centres[row][tables.locations[centre]]
    return value


def zobrist_hash(board: Board, state: GameState) -> str:
    """The package's Zobrist hash of a position as its saved games write it: the integer as a decimal string."""
    return str(zobrist_value(board, state))
