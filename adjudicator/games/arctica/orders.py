"""Order text -> orders and steps, through the Lark grammar `grammar/arctica.lark`.

A sheet holds one order or step per line (or several separated by `;`), `#` starts a comment. Player orders
start with `<Player>:`; End of Round steps (`melt`, `majority`, `event`, `next round`) have no player. The
flights of an event are the `flee` lines that follow its `event` line.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from typing import Union

from lark import Token as LarkToken, Transformer

from adjudicator.errors import OrderError
from adjudicator.games.arctica.board import PLAYER_NAME, Board
from adjudicator.grammar_tools import GrammarParser, alternation

SUPPLY = "supply"
DEFAULT_ALLOWANCE = 2  # the Migration action: up to 2 moves (C31)


@dataclass(frozen=True)
class Move:
    """One migration move: a token of `group` leaving `section`, with a tile-6 choice if written."""

    group: str
    section: str
    choice: str | None = None


@dataclass(frozen=True)
class Migration:
    """A player's migration: up to `allowance` moves, resolved in order (§7.2)."""

    player: str
    allowance: int
    moves: tuple[Move, ...]
    text: str = ""
    line: int | None = None


@dataclass(frozen=True)
class Colony:
    """A Colony action: one group, one token per space, in placement order (§7.8)."""

    player: str
    group: str
    spaces: tuple[str, ...]
    text: str = ""
    line: int | None = None


@dataclass(frozen=True)
class Flight:
    """What one affected token does in an event: flee to a section (1 Flora) or go back to the supply."""

    player: str
    group: str
    space: str
    to: str  # a section id, or SUPPLY
    choice: str | None = None
    text: str = ""
    line: int | None = None


@dataclass(frozen=True)
class Melt:
    """End of Round step 1: the lowest tile left melts."""

    text: str = ""
    line: int | None = None


@dataclass(frozen=True)
class Majority:
    """End of Round step 2 for one region (None: every region scored this round)."""

    region: str | None
    text: str = ""
    line: int | None = None


@dataclass(frozen=True)
class Event:
    """End of Round step 5 for one region: the tile drawn (None: the top of its stack) and the flights."""

    region: str
    dots: int | None
    flights: tuple[Flight, ...] = field(default_factory=tuple)
    text: str = ""
    line: int | None = None


@dataclass(frozen=True)
class NextRound:
    """Prepare the next round."""

    text: str = ""
    line: int | None = None


Order = Union[Migration, Colony, Flight, Melt, Majority, Event, NextRound]
PLAYER_ORDERS = (Migration, Colony, Flight)
_PLAYER_PREFIX = re.compile(rf"\s*({PLAYER_NAME.pattern})\s*:")  # `Remi:` before a player's order
_NAME_THEN_ACTION = re.compile(rf"\s*({PLAYER_NAME.pattern})\s+(?:migrat|coloni|colony|flee)", re.IGNORECASE)

# What each terminal means to a player, for "expected ..." messages.
_WORDS = {
    "COLON": "':'", "COMMA": "','", "MIGRATE": "'migrate'", "COLONY": "'colony'",
    "FLEE": "'flee'", "MOVES": "'moves'", "FROM": "'from'", "ON": "'on'", "TO": "'to'", "AND": "'and'",
    "THEN": "'then'", "RETURN": "'return'", "STAY": "'stay'", "SUPPLY": "'supply'", "MELT": "'melt'",
    "MAJORITY": "'majority'", "EVENT": "'event'", "DOTS": "'dots'", "NEXT": "'next round'", "ROUND": "'round'",
    "INT": "a number", "GROUP": "a fauna group", "SECTION": "a circle section", "SPACE": "a space",
    "REGION": "a region", "SUBREGION": "a sub-region", "$END": "the end of the order",
}


class _ToOrder(Transformer):
    """Builds orders; board names are looked up as they are met (the terminals only match known spellings)."""

    def __init__(self, board: Board):
        super().__init__()
        self.board = board

    def _name(self, kind: str, token: LarkToken) -> str:
        return self.board.names[kind].lookup(str(token), kind)

    def _tokens(self, children, kind: str) -> list[LarkToken]:
        return [c for c in children if isinstance(c, LarkToken) and c.type == kind]

    def choice(self, children):
        word = self._tokens(children, "RETURN") or self._tokens(children, "STAY")
        return ("choice", "return" if word[0].type == "RETURN" else "stay")

    def _choice(self, children) -> str | None:
        return next((c[1] for c in children if isinstance(c, tuple) and c[0] == "choice"), None)

    def move(self, children):
        return Move(self._name("group", self._tokens(children, "GROUP")[0]),
                    self._name("section", self._tokens(children, "SECTION")[0]), self._choice(children))

    def migrate(self, children):
        numbers = self._tokens(children, "INT")
        allowance = int(numbers[0]) if numbers else DEFAULT_ALLOWANCE
        return Migration("", allowance, tuple(c for c in children if isinstance(c, Move)))

    def colony(self, children):
        return Colony("", self._name("group", self._tokens(children, "GROUP")[0]),
                      tuple(self._name("space", t) for t in self._tokens(children, "SPACE")))

    def flight(self, children):
        to = self._tokens(children, "SECTION")
        return Flight("", self._name("group", self._tokens(children, "GROUP")[0]),
                      self._name("space", self._tokens(children, "SPACE")[0]),
                      self._name("section", to[0]) if to else SUPPLY, self._choice(children))

    def melt(self, children):
        return Melt()

    def majority(self, children):
        regions = self._tokens(children, "REGION")
        return Majority(self._name("region", regions[0]) if regions else None)

    def event(self, children):
        numbers = self._tokens(children, "INT")
        return Event(self._name("region", self._tokens(children, "REGION")[0]), int(numbers[0]) if numbers else None)

    def event_at(self, children):
        sub = self.board.subregions[self._name("subregion", self._tokens(children, "SUBREGION")[0])]
        return Event(sub.region, sub.dots)

    def next_round(self, children):
        return NextRound()


@functools.lru_cache(maxsize=None)
def _parser(board: Board) -> GrammarParser:
    """The (cached) grammar of a board: its names become the GROUP, SECTION, SPACE, REGION, SUBREGION terminals."""
    kinds = {"GROUP": "group", "SECTION": "section", "SPACE": "space", "REGION": "region", "SUBREGION": "subregion"}
    terminals = {t: alternation(board.names[k].all_spellings()) for t, k in kinds.items()}
    return GrammarParser("arctica", terminals, _ToOrder(board), {t: board.names[k] for t, k in kinds.items()}, _WORDS)


def parse_order(board: Board, text: str, line: int | None = None, file: str | None = None,
                column_offset: int = 0) -> Order:
    """One order (`<Player>: <action>`) or step; an OrderError names the column, what was expected, and
    close names."""
    where = {"file": file, "line": line}
    prefix = _PLAYER_PREFIX.match(text)
    missing_colon = None if prefix else _NAME_THEN_ACTION.match(text)
    if missing_colon:
        raise OrderError(f"a ':' is missing after the player's name, like '{missing_colon.group(1)}: "
                         f"{text[missing_colon.end(1):].strip()}'", column=column_offset + missing_colon.end(1) + 1,
                         **where)
    body, shift = (text[prefix.end():], prefix.end()) if prefix else (text, 0)
    lead = len(body) - len(body.lstrip())
    order = _parser(board).parse(body.strip(), column_offset=column_offset + shift + lead, **where)
    if isinstance(order, PLAYER_ORDERS):
        if not prefix:
            raise OrderError(f"whose order is {body.strip()!r}? Start it with the player's name, like "
                             f"'Remi: {body.strip()}'", column=column_offset + 1, **where)
        return replace(order, player=prefix.group(1), text=body.strip(), line=line)
    if prefix:
        raise OrderError(f"{body.strip()!r} is an End of Round step, not a player's order: write it without "
                         f"'{prefix.group(1)}:'", column=column_offset + 1, **where)
    return replace(order, text=text.strip(), line=line)


def parse_sheet(board: Board, text: str, file: str | None = None) -> list[Order]:
    """Every order of a sheet, flights gathered under the event they answer."""
    pieces: list[tuple[Order, int, int]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0]
        start = 0
        for piece in body.split(";"):
            offset, start = start, start + len(piece) + 1
            if not piece.strip():
                continue
            lead = len(piece) - len(piece.lstrip())
            pieces.append((parse_order(board, piece.strip(), number, file, offset + lead), number, offset + lead + 1))
    return _gather_flights(pieces, file)


def _gather_flights(pieces: list[tuple[Order, int, int]], file: str | None) -> list[Order]:
    """Attach each flight to the event line above it; a flight with no event above is an error."""
    orders: list[Order] = []
    for order, number, column in pieces:
        if isinstance(order, Flight):
            last = orders[-1] if orders else None
            if not isinstance(last, Event):
                raise OrderError("a flight answers an event: write it below its `event <region>` line "
                                 "(after the event's other flights)", file=file, line=number, column=column)
            orders[-1] = replace(last, flights=last.flights + (order,))
        else:
            orders.append(order)
    return orders
