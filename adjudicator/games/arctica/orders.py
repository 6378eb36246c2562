"""Order text -> orders and steps, through the Lark grammar `grammar/arctica.lark`.

A sheet holds one order or step per line (or several separated by `;`), `#` starts a comment. Player orders
start with `<Player>:`; End of Round steps (`melt`, `majority`, `event`, `next round`) and `next turn` have no
player. The flights of an event are the `flee` lines that follow its `event` line. A piece that cannot be read
is a SheetProblem (line, column, reason, suggestions) and the rest of the sheet is read (the sheet contract).
The syntax for players is docs/orders/arctica.md.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any, Union

from lark import Token as LarkToken, Transformer

from adjudicator.errors import OrderError
from adjudicator.games.arctica.board import PLAYER_NAME, RESERVED_NAMES, Board
from adjudicator.grammar_tools import GrammarParser, alternation
from adjudicator.sheets import Sheet, SheetProblem, json_pointer, read_items

SUPPLY = "supply"
DEFAULT_ALLOWANCE = 2  # the Migration action: up to 2 moves (C31)


@dataclass(frozen=True)
class Move:
    """One migration move: a token of `group` leaving `section` (or the section under ice floe `tile`, when the
    order names the floe by its printed number), with a tile-6 choice if written."""

    group: str
    section: str | None
    choice: str | None = None
    tile: int | None = None


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
    to: str | None  # a section id, or SUPPLY (None: the section under ice floe `to_tile`)
    choice: str | None = None
    text: str = ""
    line: int | None = None
    to_tile: int | None = None


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
class NextTurn:
    """The end of a turn: the Leader token passes to the player on the left."""

    text: str = ""
    line: int | None = None


@dataclass(frozen=True)
class NextRound:
    """Prepare the next round."""

    text: str = ""
    line: int | None = None


Order = Union[Migration, Colony, Flight, Melt, Majority, Event, NextTurn, NextRound]
PLAYER_ORDERS = (Migration, Colony, Flight)
_ACTION_WORDS = ("migrat", "coloni", "colony", "flee")  # a player's order begins with one of these


def _player_prefix(text: str) -> tuple[str, int] | None:
    """(name, index just after the ':') when the text starts with `Name:` (AR8); split, not a regex, so the
    cost is linear in the line whatever its blanks."""
    head, colon, _ = text.partition(":")
    name = head.strip()
    if not colon or not PLAYER_NAME.fullmatch(name) or name.lower() in RESERVED_NAMES:
        return None
    return name, len(head) + 1


def _missing_colon(text: str) -> tuple[str, int] | None:
    """(name, index after it) for `Remi migrate ...`: a player's name and an action word, no ':' between."""
    words = text.split(None, 2)
    if len(words) < 2 or not PLAYER_NAME.fullmatch(words[0]) or words[0].lower() in RESERVED_NAMES:
        return None
    if not words[1].lower().startswith(_ACTION_WORDS):
        return None
    return words[0], text.index(words[0]) + len(words[0])


# What each terminal means to a player, for "expected ..." messages.
_WORDS = {
    "COLON": "':'", "COMMA": "','", "MIGRATE": "'migrate'", "COLONY": "'colony'",
    "FLEE": "'flee'", "MOVES": "'moves'", "FROM": "'from'", "ON": "'on'", "TO": "'to'", "AND": "'and'",
    "THEN": "'then'", "RETURN": "'return'", "STAY": "'stay'", "SUPPLY": "'supply'", "MELT": "'melt'",
    "MAJORITY": "'majority'", "EVENT": "'event'", "DOTS": "'dots'", "NEXT": "'next round'", "ROUND": "'round'",
    "TURN": "'turn'", "TILE": "an ice floe ('tile 4' or 'T4')", "TILE_ID": "an ice floe ('tile 4' or 'T4')", "INT": "a number", "GROUP": "a fauna group", "SECTION": "a circle section", "SPACE": "a space",
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
        word = children[0]
        return ("choice", "return" if word.type == "RETURN" else "stay", word)

    def _choice(self, children) -> str | None:
        return next((c[1] for c in children if isinstance(c, tuple) and c[0] == "choice"), None)

    def place(self, children):
        """("section", id) or ("tile", number): a floe is found by its number when the order is resolved."""
        sections = self._tokens(children, "SECTION")
        if sections:
            return ("section", self._name("section", sections[0]))
        token = (self._tokens(children, "INT") or self._tokens(children, "TILE_ID"))[0]
        number = int(str(token).lstrip("tT"))
        if number not in self.board.tiles:
            raise OrderError(f"there is no ice floe {number}; the tiles are {', '.join(map(str, self.board.tiles))}",
                             column=token.column)
        return ("tile", number)

    def move(self, children):
        kind, where = next(c for c in children if isinstance(c, tuple) and c[0] in ("section", "tile"))
        return Move(self._name("group", self._tokens(children, "GROUP")[0]),
                    where if kind == "section" else None, self._choice(children),
                    where if kind == "tile" else None)

    def migrate(self, children):
        numbers = [c for c in children if isinstance(c, LarkToken) and c.type == "INT"]
        allowance = int(numbers[0]) if numbers else DEFAULT_ALLOWANCE
        moves: list[Move] = []
        for child in children:
            if isinstance(child, Move):
                moves.append(child)
            elif isinstance(child, tuple) and child[0] == "choice":  # "..., and return": the move before it
                if moves[-1].choice is not None:
                    raise OrderError(f"a second tile-6 choice ({child[1]!r}) for the same move", column=child[2].column)
                moves[-1] = replace(moves[-1], choice=child[1])
        return Migration("", allowance, tuple(moves))

    def colony(self, children):
        return Colony("", self._name("group", self._tokens(children, "GROUP")[0]),
                      tuple(self._name("space", t) for t in self._tokens(children, "SPACE")))

    def flight(self, children):
        kind, where = next((c for c in children if isinstance(c, tuple) and c[0] in ("section", "tile")),
                           ("supply", SUPPLY))
        return Flight("", self._name("group", self._tokens(children, "GROUP")[0]),
                      self._name("space", self._tokens(children, "SPACE")[0]),
                      None if kind == "tile" else where, self._choice(children),
                      to_tile=where if kind == "tile" else None)

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

    def next_turn(self, children):
        return NextTurn()

    def next_round(self, children):
        return NextRound()


@functools.lru_cache(maxsize=8)  # parsers by board, bounded (inline boards come and go)
def _parser(board: Board) -> GrammarParser:
    """The (cached) grammar of a board: its names become the GROUP, SECTION, SPACE, REGION, SUBREGION terminals."""
    kinds = {"GROUP": "group", "SECTION": "section", "SPACE": "space", "REGION": "region", "SUBREGION": "subregion"}
    terminals = {t: alternation(board.names[k].all_spellings()) for t, k in kinds.items()}
    return GrammarParser("arctica", terminals, _ToOrder(board), {t: board.names[k] for t, k in kinds.items()}, _WORDS)


def parse_order(board: Board, text: str, line: int | None = None, file: str | None = None,
                column_offset: int = 0) -> Order:
    """One order (`<Player>: <action>`) or step; an OrderError names the column, what was expected, and
    close names."""
    where: dict[str, Any] = {"file": file, "line": line}
    prefix = _player_prefix(text)
    missing_colon = None if prefix else _missing_colon(text)
    if missing_colon:
        name, after = missing_colon
        raise OrderError(f"a ':' is missing after the player's name, like '{name}: {text[after:].strip()}'",
                         column=column_offset + after + 1, **where)
    body, shift = (text[prefix[1]:], prefix[1]) if prefix else (text, 0)
    lead = len(body) - len(body.lstrip())
    order = _parser(board).parse(body.strip(), column_offset=column_offset + shift + lead, **where)
    if isinstance(order, PLAYER_ORDERS):
        if not prefix:
            raise OrderError(f"whose order is {body.strip()!r}? Start it with the player's name, like "
                             f"'Remi: {body.strip()}'", column=column_offset + 1, **where)
        return replace(order, player=prefix[0], text=body.strip(), line=line)
    if prefix:
        raise OrderError(f"{body.strip()!r} is {'the end of a turn' if isinstance(order, NextTurn) else 'an End of Round step'}, "
                         f"not a player's order: write it without '{prefix[0]}:'", column=column_offset + 1, **where)
    return replace(order, text=text.strip(), line=line)


def _pieces(text: str):
    """(line number, the whole line, the piece, its 0-based column) of every non-blank piece: lines, then `;`,
    comments dropped."""
    for number, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0]
        start = 0
        for piece in body.split(";"):
            offset, start = start, start + len(piece) + 1
            stripped = piece.strip()
            if stripped:
                yield number, raw, stripped, offset + len(piece) - len(piece.lstrip())


def _looks_like_flight(piece: str) -> bool:
    """Whether an unreadable piece was meant as a flight (`Name: flee ...`), so the event above keeps its others."""
    prefix = _player_prefix(piece)
    body = piece[prefix[1]:] if prefix else piece
    return body.lstrip().lower().startswith("flee")


class _Flights:
    """Gathers each flight under the event above it (a sheet's lines and a list's items alike): a flight with no
    event above it, or with an unreadable piece between, is a problem, not an order."""

    def __init__(self) -> None:
        self.broken: int | None = None  # the line of an unreadable piece since the last event

    def failed(self, number: int, piece: str) -> None:
        """A piece could not be read: the flights below it, up to the next event, are lost (not a flight's own)."""
        if not _looks_like_flight(piece):
            self.broken = number

    def add(self, orders: list[Order], problems: list[SheetProblem], order: Order, number: int, raw: str,
            column: int, pointer: str | None = None) -> None:
        """Put a read order in place: a flight into its event, anything else at the end."""
        if not isinstance(order, Flight):
            orders.append(order)
            self.broken = None
            return
        last = orders[-1] if orders else None
        if self.broken is not None:
            problems.append(SheetProblem(number, column + 1, raw, f"not judged: this flight answers the event above "
                                         f"it, and line {self.broken} above it could not be read", pointer=pointer))
        elif not isinstance(last, Event):
            problems.append(SheetProblem(number, column + 1, raw, "a flight answers an event: write it below its "
                                         "`event <region>` line (after the event's other flights)", pointer=pointer))
        else:
            orders[-1] = replace(last, flights=last.flights + (order,))


def read_sheet(board: Board, text: str, file: str | None = None) -> tuple[list[Order], list[SheetProblem]]:
    """Every readable order of a sheet, flights gathered under the event they answer, and a located problem
    for every piece that is not an order (it never raises for a bad line)."""
    orders: list[Order] = []
    problems: list[SheetProblem] = []
    flights = _Flights()
    for number, raw, piece, column in _pieces(text):
        try:
            order = parse_order(board, piece, number, file, column)
        except OrderError as exc:
            problems.append(SheetProblem(number, exc.column, raw, exc.message, exc.suggestions))
            flights.failed(number, piece)
            continue
        flights.add(orders, problems, order, number, raw, column)
    return orders, problems


def read_order_lists(board: Board, lists: dict[str, list[str]]) -> Sheet:
    """Orders given as lists per player, each item read alone as one order of its player and never joined into
    text with another (`sheets.read_items`); key '' holds the game master's steps and the flights below them."""
    flights = _Flights()

    def read(seat: str, text: str, number: int) -> Order:
        try:
            return parse_item(board, seat, text, number)
        except OrderError:
            flights.failed(number, text)
            raise

    def add(sheet: Sheet, seat: str, number: int, text: str, order: Order) -> None:
        flights.add(sheet.orders, sheet.problems, order, number, text, 0, json_pointer(seat, number - 1))

    return read_items(lists, read, add)


def parse_item(board: Board, seat: str, text: str, line: int) -> Order:
    """One list item as one order of `seat`: a player's item is that player's own order (a `Name:` prefix may
    name the player, never another); the steps that are no player's and the flights below an event are the game
    master's (seat ''), who reads them as a sheet line is read."""
    if not seat:
        return parse_order(board, text, line)
    prefix = _player_prefix(text)
    if prefix and prefix[0].casefold() != seat.casefold():
        raise OrderError(f"an item of {seat}'s list is {seat}'s order, not {prefix[0]}'s", column=1, line=line)
    body, shift = (text[prefix[1]:], prefix[1]) if prefix else (text, 0)
    lead = len(body) - len(body.lstrip())
    order = _parser(board).parse(body.strip(), column_offset=shift + lead, line=line)
    if isinstance(order, Flight):
        raise OrderError("a flight answers an event, so it comes below the event: the game master sends it",
                         column=1, line=line)
    if not isinstance(order, PLAYER_ORDERS):
        raise OrderError(f"{body.strip()!r} is a step of the game, not a player's order: the game master sends it",
                         column=1, line=line)
    return replace(order, player=seat, text=body.strip(), line=line)


def parse_sheet(board: Board, text: str, file: str | None = None) -> list[Order]:
    """Every order of a sheet; the first unreadable piece raises its OrderError (`--strict` reading, tests)."""
    orders, problems = read_sheet(board, text, file)
    if problems:
        raise problems[0].as_error(file)
    return orders
