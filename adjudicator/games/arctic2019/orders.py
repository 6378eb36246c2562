"""Order text -> steps, through the Lark grammar `grammar/arctic2019.lark` (the syntax for players is in
`docs/orders/arctic2019.md`).

The sheet: one step per line or `;`-separated, `#` comments, a trailing full stop allowed, and a `Country:`
prefix that carries over to the following steps (a line `USA:` alone opens the USA's action). China's
automatic move, platform decisions and `end of turn` need no country. A decision may be prefixed by the owning
player's name instead.

The sheet contract (`adjudicator/sheets.py`, P21 in variants/arctic2019.md): a step that cannot be read becomes
a SheetProblem (line, column, reason, suggestions) and the others are read. A `Name:` prefix that names no
country is a problem, and so is every step it would have carried over to (they are nobody's, not the previous
country's). A number of ships is 1 or more.

Every input costs time linear in its length: lines are split with `str` methods (comments, `;`, the prefix's
`:`) before anything is matched, each run of blanks is one space by the time the grammar reads a step, and
the grammar's keywords are single words; "did you mean" is searched for the first problems of a sheet only.
"""

from __future__ import annotations

import bisect
import copy
import functools
import re
from dataclasses import dataclass, replace

from lark import Token, Transformer

from adjudicator.errors import OrderError
from adjudicator.grammar_tools import GrammarParser, alternation
from adjudicator.names import AmbiguousName, UnknownName, normalise
from adjudicator.sheets import MAX_SUGGESTED, Sheet, SheetProblem, read_items

from .board import Board
from .steps import (AutoMove, Declare, EndConflict, EndTurn, Header, Keep, Move, PlatformAttack, Protect, ShipAttack,
                    Step, SupportJoin, Vote)

# What each terminal means to a player, for "expected ..." messages.
_WORDS = {
    "SECTOR": "a sector", "COUNTRY": "a country", "LAW": "a law (A, B or C)", "NUMBER": "a number of ships",
    "MOVE": "'move'", "SHIP": "'ships'", "FROM": "'from'", "TO": "'to'", "ARROW": "'->'", "IN": "'in'",
    "WITH": "'with'", "ATTACK": "'attack'", "DESTROY": "'destroy'", "PLATFORM": "'platform'", "ARTICLE": "'the'",
    "AUTOMATIC": "'automatic'", "AUTOMATICALLY": "'automatically'", "AUTO": "'auto'", "NORTH": "'north'",
    "DECLARE": "'declare'", "CONFLICT": "'conflict'", "AGAINST": "'with'", "END": "'end'", "OF": "'of'",
    "TURN": "'turn'", "VOTE": "'vote'", "FOR": "'for'", "LAW_WORD": "'law'", "SUPPORT": "'support'",
    "JOINING": "'joining'", "ENTRY": "'entry'", "ACCESSION": "'accession'", "MEMBERSHIP": "'membership'",
    "KEEP": "'keep'", "PAY": "'pay'", "ABANDON": "'abandon'", "PROTECT": "'protect'",
    "$END": "the end of the step",
}

_MAX_DIGITS = 4  # a number of ships has at most 4 digits (no country has 100 ships): int() stays cheap
_MAX_NAME = 64  # a prefix longer than this is no name: refused without a "did you mean" search
_MAX_SUGGESTED = MAX_SUGGESTED  # "did you mean" costs ~1 ms a piece: a sheet's later problems are reported without it


class _ToStep(Transformer):
    """Builds Step values; names are looked up on the board as they are met."""

    def __init__(self, board: Board):
        super().__init__()
        self.board = board

    def _lookup(self, token: Token, index, what: str) -> str:
        try:
            return index.lookup(str(token), what)
        except (UnknownName, AmbiguousName) as exc:
            raise OrderError(exc.message, column=token.column, suggestions=exc.suggestions) from None

    def _tokens(self, children, kind: str) -> list[Token]:
        return [c for c in children if isinstance(c, Token) and c.type == kind]

    def _sectors(self, children) -> list[str]:
        return [self._lookup(t, self.board.names, "sector") for t in self._tokens(children, "SECTOR")]

    def _country(self, children) -> str | None:
        found = self._tokens(children, "COUNTRY")
        return self._lookup(found[0], self.board.country_names, "country") if found else None

    def _count(self, children) -> int | None:
        """The number of ships written (None when none is): 1 or more, never read from 0."""
        found = self._tokens(children, "NUMBER")
        if not found:
            return None
        token = found[0]
        digits = str(token).lstrip("0")
        if not digits:
            raise OrderError(f"at least 1 ship: a step names 1 ship or more, not {token}", column=token.column)
        if len(digits) > _MAX_DIGITS:
            most = max(c.ships for c in self.board.countries.values())
            raise OrderError(f"too many ships: no country has more than {most}", column=token.column)
        return int(digits)

    def amount(self, children):
        n = self._count(children)
        return ("amount", 1 if n is None else n)  # `move ship from ...`: one ship

    def with_ships(self, children):
        return ("with", self._count(children))

    def _tagged(self, children, tag: str):
        return next((c[1] for c in children if isinstance(c, tuple) and c[0] == tag), None)

    def move(self, children):
        source, dest = self._sectors(children)
        ships = self._tagged(children, "amount")
        return Move(ships=1 if ships is None else ships, source=source, dest=dest)

    def ship_attack(self, children):
        (sector,) = self._sectors(children)
        n = self._count(children)
        return ShipAttack(sector=sector, target=self._country(children), ships=1 if n is None else n)

    def platform_attack(self, children):
        (sector,) = self._sectors(children)
        return PlatformAttack(sector=sector, ships=self._tagged(children, "with"))

    def china_auto(self, children):
        return AutoMove()

    def declare(self, children):
        return Declare(target=self._country(children))

    def end_conflict(self, children):
        return EndConflict(target=self._country(children))

    def vote(self, children):
        (law,) = self._tokens(children, "LAW")
        return Vote(law=self._lookup(law, self.board.law_names, "law"))

    def support_join(self, children):
        return SupportJoin(target=self._country(children))

    def keep(self, children):
        return Keep(sector=self._sectors(children)[0], pay=True)

    def abandon(self, children):
        return Keep(sector=self._sectors(children)[0], pay=False)

    def protect(self, children):
        return Protect(sector=self._sectors(children)[0])

    def end_turn(self, children):
        return EndTurn()


@functools.lru_cache(maxsize=8)
def step_parser(board: Board) -> GrammarParser:
    """The (cached) parser of one step for a board (a few boards at a time: each is a compiled grammar)."""
    terminals = {
        "SECTOR": alternation(board.names.all_spellings()),
        "COUNTRY": alternation(board.country_names.all_spellings()),
        "LAW": alternation(board.law_names.all_spellings()),
    }
    names = {"SECTOR": board.names, "COUNTRY": board.country_names, "LAW": board.law_names}
    return GrammarParser("arctic2019", terminals, _ToStep(board), names, _WORDS, what="step")


@functools.lru_cache(maxsize=8)
def quiet_parser(board: Board) -> GrammarParser:
    """The same parser, naming no close names (for a sheet's problems after the first _MAX_SUGGESTED)."""
    quiet = copy.copy(step_parser(board))
    quiet.names = {}
    return quiet


@dataclass(frozen=True)
class _NoCountry:
    """What a `Name:` prefix that named no country carries over: the steps after it are nobody's."""

    name: str
    line: int
    country: str  # the closest country's name, for the example in the message (or "Country")


def _pieces(line: str) -> list[tuple[str, int]]:
    """The `;`-separated pieces of a line, each with the column offset where it starts."""
    out, start = [], 0
    for part in line.split(";"):
        out.append((part, start))
        start += len(part) + 1
    return out


def _without_full_stop(piece: str) -> str:
    """The piece without the one full stop that may end it (`move 1 ship from KOL to BAR.`)."""
    body = piece.rstrip()
    return body[:-1] if body.endswith(".") else piece


_WORD = re.compile(r"\S+")  # one quantifier over non-blanks: a single linear scan


@dataclass(frozen=True)
class _Words:
    """A step's text with each run of blanks as one space (what the grammar reads: no terminal ever meets a
    long run of blanks), and where each word started in the original, to give columns as written."""

    text: str
    starts: list[int]  # each word's start in `text`
    origins: list[int]  # each word's start in the original

    @classmethod
    def of(cls, original: str) -> "_Words":
        """Split on blanks first (linear), then join with single spaces."""
        found = [(m.start(), m.group()) for m in _WORD.finditer(original)]
        starts, at = [], 0
        for _, word in found:
            starts.append(at)
            at += len(word) + 1
        return cls(" ".join(word for _, word in found), starts, [start for start, _ in found])

    def column(self, column: int) -> int:
        """The original 1-based column of a 1-based column of `text` (a joining space: the blank after its word)."""
        k = bisect.bisect_right(self.starts, column - 1) - 1
        return column if k < 0 else self.origins[k] + (column - 1 - self.starts[k]) + 1


def _lead(text: str) -> int:
    """How many blanks `text` starts with."""
    return len(text) - len(text.lstrip())


class _SheetReader:
    """Reads lines into steps and problems, keeping the country a `Country:` prefix carries over."""

    def __init__(self, board: Board, file: str | None):
        self.board = board
        self.file = file
        self.parser = step_parser(board)
        self.sheet: Sheet[Step] = Sheet()
        self.quiet = quiet_parser(board)
        self.current: str | _NoCountry | None = None

    def read_line(self, number: int, raw: str, shown: str | None = None, shift: int = 0) -> None:
        """Read every step of one line; `shown` and `shift`: the text a problem quotes and how many columns
        of `raw` come before it (an order list's `Country: ` added by the reader)."""
        body = raw.split("#", 1)[0]
        for piece, offset in _pieces(body):
            piece = _without_full_stop(piece)
            if not piece.strip():
                continue
            try:
                step = self._step(number, piece, offset)
            except OrderError as exc:
                column = None if exc.column is None else max(1, exc.column - shift)
                self.sheet.problems.append(SheetProblem(number, column, raw if shown is None else shown,
                                                        exc.message, list(exc.suggestions)))
                continue
            self.sheet.orders.append(step)

    def read_item(self, seat: str, text: str, number: int) -> Step:
        """One list item as one step of `seat`: a country's step is that country's (a prefix may name it, never
        another), a player's item is that player's platform decision; '' takes any step a sheet line may hold."""
        body = _without_full_stop(text.split("#", 1)[0])
        if not body.strip():
            raise self._error("no step in this item", 1)
        country = self._seat_country(seat)
        self.current = country  # the seat's country, as a `Country:` header above the step would give it
        step = self._step(number, body, 0)
        if not seat:
            return step
        if country is None:  # a player's key: only that player's own platform decisions
            if not isinstance(step, Keep) or step.player not in (None, seat):
                raise self._error(f"{text.strip()!r} is not a platform decision of {seat}'s: an item of a player's "
                                  "list keeps or abandons that player's own platform", 1)
            return replace(step, player=seat, text=f"{seat}: {step.text.split(':', 1)[-1].strip()}")
        if step.country != country or isinstance(step, (Keep, EndTurn)):
            whose = ("no country's: the game master sends it" if step.country is None
                     else f"{self.board.country_name(step.country)}'s")
            raise self._error(f"{text.strip()!r} is {whose}, not a step of {self.board.country_name(country)}, whose "
                              "list this is", 1)
        return step

    def _seat_country(self, seat: str) -> str | None:
        """The country a list's key names (None: a blank key, or a player's name)."""
        name = seat.strip()
        if not name or normalise(name).casefold() not in self.board.country_names.folded:
            return None
        try:
            return self.board.country_names.lookup(name, "country")
        except (UnknownName, AmbiguousName):
            return None

    def _error(self, message: str, column: int | None, suggestions: list[str] | None = None) -> OrderError:
        return OrderError(message, file=self.file, column=column, suggestions=suggestions or [])

    def _suggesting(self) -> bool:
        """Whether problems still get "did you mean" (the first _MAX_SUGGESTED of a sheet do)."""
        return len(self.sheet.problems) < _MAX_SUGGESTED

    def _step(self, number: int, piece: str, offset: int) -> Step:
        """One step (OrderError with its column when it cannot be read)."""
        board = self.board
        country, player, rest, rest_offset = self._prefix(piece, offset)
        if country is not None:
            self.current = country
        if not rest.strip():
            if country is None:
                self.current = self._no_country(player or "", number)
                raise self._unknown_country(player or "", offset + _lead(piece) + 1)
            return Header(text=f"{board.country_name(country)}:", line=number, country=country)
        try:
            step = self._parse(rest, rest_offset, number)
        except OrderError:
            if player is not None:
                self.current = self._no_country(player, number)  # whatever it was, it carries over to no country
            raise
        step = replace(step, text=rest.strip(), line=number)
        if isinstance(step, Keep):
            text = f"{player}: {step.text}" if player else step.text
            return replace(step, player=player, country=None, text=text)
        if player is not None:
            self.current = self._no_country(player, number)
            raise self._unknown_country(player, offset + _lead(piece) + 1)
        if isinstance(step, EndTurn):
            if country is not None:
                raise self._error("the end of the turn is no country's step; write 'end of turn' alone",
                                  offset + _lead(piece) + 1)
            self.current = None  # a new turn: every step must say its country again
            return step
        if isinstance(step, AutoMove) and country is None:
            return replace(step, country=board.china)
        if isinstance(self.current, _NoCountry):
            raise self._error(f"whose step is this? {self.current.name!r} (line {self.current.line}) is not a "
                              f"country, so this step is nobody's; start the line with its country, e.g. "
                              f"'{self.current.country}: {step.text}'", offset + _lead(piece) + 1)
        if self.current is None:
            raise self._error("whose step is this? start the line with the country, e.g. "
                              "'USA: move 1 ship from ALA to CHS'", offset + _lead(piece) + 1)
        return replace(step, country=self.current)

    def _parse(self, rest: str, rest_offset: int, number: int) -> Step:
        """The step of a piece's text after any prefix, read with blanks collapsed (columns as written)."""
        words = _Words.of(rest)
        parser = self.parser if self._suggesting() else self.quiet
        try:
            return parser.parse(words.text, line=number, file=self.file)
        except OrderError as exc:
            column = None if exc.column is None else rest_offset + words.column(exc.column)
            raise self._error(exc.message, column, exc.suggestions) from None

    def _prefix(self, piece: str, offset: int) -> tuple[str | None, str | None, str, int]:
        """(country, player, rest, rest's offset): the text before the first `:` is a country, or a player's
        name before a platform decision (checked by the caller). Found by `str.find`: no regex, linear."""
        colon = piece.find(":")
        if colon < 0:
            return None, None, piece, offset
        name = piece[:colon].strip()
        rest, rest_offset = piece[colon + 1:], offset + colon + 1
        if not name:
            raise self._error("nothing before ':'; write the country, e.g. 'USA: move 1 ship from ALA to CHS'",
                              offset + colon + 1)
        if len(name) > _MAX_NAME:
            raise self._error(f"{name[:20]!r}... ({len(name)} characters) is not a country or a player's name",
                              offset + _lead(piece) + 1)
        if normalise(name).casefold() not in self.board.country_names.folded:
            return None, name, rest, rest_offset  # a player's name, or no name (no "did you mean" search yet)
        try:
            return self.board.country_names.lookup(name, "country"), None, rest, rest_offset
        except (UnknownName, AmbiguousName):
            return None, name, rest, rest_offset

    def _no_country(self, name: str, line: int) -> _NoCountry:
        """What an unknown prefix carries over (the closest country's name for the message's example)."""
        close = self.board.country_names.suggest(name, limit=1) if self._suggesting() else []
        return _NoCountry(name, line, close[0].split(" (")[0] if close else "Country")

    def _unknown_country(self, name: str, column: int) -> OrderError:
        """The error for a prefix that names no country (before a step that is a country's)."""
        countries = ", ".join(c.name for c in self.board.countries.values())
        return self._error(f"unknown country {name!r}; countries are {countries}", column,
                           self.board.country_names.suggest(name) if self._suggesting() else [])


def read_sheet(board: Board, text: str, file: str | None = None) -> Sheet:
    """Every step of an order sheet, in order, and every piece that is not one (line, column, reason)."""
    reader = _SheetReader(board, file)
    for number, raw in enumerate(text.splitlines(), 1):
        reader.read_line(number, raw)
    reader.sheet.text = text
    return reader.sheet


def read_order_lists(board: Board, orders: dict[str, list[str]]) -> Sheet:
    """Steps given as lists per country (or player), each item read alone as one step of its key and never
    joined into text with another (`sheets.read_items`); a step's line is its place in its list, as in the
    API's pointers `/orders/{country}/{index}`. A blank key gives the steps that are no country's (`end of
    turn`, China's automatic move, an owner's decision) or a country's step that names its country."""
    return read_items(orders, _SheetReader(board, None).read_item)
