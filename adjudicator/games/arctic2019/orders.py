"""Order text -> steps, through the Lark grammar `grammar/arctic2019.lark`.

The sheet: one step per line or `;`-separated, `#` comments, and a `Country:` prefix that carries over to the
following steps (a line `USA:` alone opens the USA's action). China's automatic move, platform decisions and
`end of turn` need no country. A decision may be prefixed by the owning player's name instead.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from lark import Token, Transformer

from adjudicator.errors import AdjudicatorError, OrderError
from adjudicator.grammar_tools import GrammarParser, alternation
from adjudicator.names import AmbiguousName, UnknownName

from .board import Board
from .steps import (AutoMove, Declare, EndConflict, EndTurn, Header, Keep, Move, PlatformAttack, ShipAttack, Step,
                    SupportJoin, Vote)

# What each terminal means to a player, for "expected ..." messages.
_WORDS = {
    "SECTOR": "a sector", "COUNTRY": "a country", "LAW": "a law (A, B or C)", "NUMBER": "a number of ships",
    "MOVE": "'move'", "SHIP": "'ships'", "FROM": "'from'", "TO": "'to'", "ARROW": "'->'", "IN": "'in'",
    "WITH": "'with'", "ATTACK": "'attack'", "DESTROY": "'destroy'", "PLATFORM": "'platform'", "ARTICLE": "'the'",
    "AUTO_MOVE": "'move north'", "DECLARE": "'declare'", "CONFLICT": "'conflict'", "AGAINST": "'with'",
    "END": "'end conflict'", "END_TURN": "'end of turn'", "VOTE": "'vote'", "FOR": "'for'", "LAW_WORD": "'law'",
    "SUPPORT": "'support'", "JOINING": "'joining'", "MEMBERSHIP": "'membership'", "KEEP": "'keep'",
    "ABANDON": "'abandon'", "$END": "the end of the step",
}

_PREFIX = re.compile(r"^\s*([^:]+?)\s*:")


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

    def _number(self, children) -> int | None:
        found = self._tokens(children, "NUMBER")
        return int(found[0]) if found else None

    def amount(self, children):
        return ("amount", self._number(children) or 1)

    def with_ships(self, children):
        return ("with", self._number(children))

    def _tagged(self, children, tag: str):
        return next((c[1] for c in children if isinstance(c, tuple) and c[0] == tag), None)

    def move(self, children):
        source, dest = self._sectors(children)
        return Move(ships=self._tagged(children, "amount") or 1, source=source, dest=dest)

    def ship_attack(self, children):
        (sector,) = self._sectors(children)
        return ShipAttack(sector=sector, target=self._country(children), ships=self._number(children) or 1)

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

    def end_turn(self, children):
        return EndTurn()


@functools.lru_cache(maxsize=None)
def step_parser(board: Board) -> GrammarParser:
    """The (cached) parser of one step for a board."""
    terminals = {
        "SECTOR": alternation(board.names.all_spellings()),
        "COUNTRY": alternation(board.country_names.all_spellings()),
        "LAW": alternation(board.law_names.all_spellings()),
    }
    names = {"SECTOR": board.names, "COUNTRY": board.country_names, "LAW": board.law_names}
    return GrammarParser("arctic2019", terminals, _ToStep(board), names, _WORDS, what="step")


def _pieces(line: str) -> list[tuple[str, int]]:
    """The `;`-separated pieces of a line, each with the column offset where it starts."""
    out, start = [], 0
    for i, ch in enumerate(line + ";"):
        if ch == ";":
            out.append((line[start:i], start))
            start = i + 1
    return out


def parse_sheet(board: Board, text: str, file: str | None = None) -> list[Step]:
    """Every step of an order sheet, in order; an OrderError names the line and column of the first bad one."""
    parser = step_parser(board)
    steps: list[Step] = []
    current: str | None = None  # the country of the steps that follow a `Country:` prefix
    for number, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0]
        for piece, offset in _pieces(body):
            if not piece.strip():
                continue
            prefix_country, player, rest, rest_offset = _prefix(board, piece, offset, number, file)
            if prefix_country is not None:
                current = prefix_country
            if not rest.strip():
                if prefix_country is None:
                    raise OrderError(f"{player!r} is not a country; write e.g. 'USA:'", file=file, line=number,
                                     column=offset + 1)
                steps.append(Header(text=f"{board.country_name(prefix_country)}:", line=number, country=current))
                continue
            step = parser.parse(rest, line=number, file=file, column_offset=rest_offset)
            step = replace(step, text=rest.strip(), line=number)
            if isinstance(step, Keep):
                text = f"{player}: {step.text}" if player else step.text
                steps.append(replace(step, player=player, country=None, text=text))
            elif player is not None:
                raise _unknown_country(board, player, file, number, offset + len(piece) - len(piece.lstrip()))
            elif isinstance(step, EndTurn):
                if prefix_country is not None:
                    raise OrderError("the end of the turn is no country's step; write 'end of turn' alone",
                                     file=file, line=number, column=offset + 1)
                steps.append(step)
                current = None  # a new turn: every step must say its country again
            elif isinstance(step, AutoMove) and prefix_country is None:
                steps.append(replace(step, country=board.china))
            else:
                if current is None:
                    raise OrderError("whose step is this? start the line with the country, e.g. "
                                     "'USA: move 1 ship from ALA to CHS'", file=file, line=number, column=offset + 1)
                steps.append(replace(step, country=current))
    return steps


def _prefix(board: Board, piece: str, offset: int, line: int, file: str | None
            ) -> tuple[str | None, str | None, str, int]:
    """(country, player, rest, rest's offset): a `Name:` prefix is a country, or a player's name before a
    platform decision (checked by the caller)."""
    m = _PREFIX.match(piece)
    if not m:
        return None, None, piece, offset
    name = m.group(1)
    rest, rest_offset = piece[m.end():], offset + m.end()
    try:
        return board.country_names.lookup(name, "country"), None, rest, rest_offset
    except (UnknownName, AmbiguousName):
        return None, name.strip(), rest, rest_offset


def _unknown_country(board: Board, name: str, file: str | None, line: int, offset: int) -> AdjudicatorError:
    """The error for a prefix that names no country (before a step that is a country's)."""
    countries = ", ".join(c.name for c in board.countries.values())
    return OrderError(f"unknown country {name!r}; countries are {countries}", file=file, line=line,
                      column=offset + 1, suggestions=board.country_names.suggest(name))
