"""Order text -> Order, through the Lark (LALR) grammar in `grammar/diplomacy.lark`.

The variant's place names, power names and coast spellings become the PLACE, POWER and COAST terminals,
so a multi-word name is one token and an unknown word fails at its own column with suggestions.
"""

from __future__ import annotations

import functools
import re

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from adjudicator.board import ARMY, FLEET, Board
from adjudicator.errors import AdjudicatorError, OrderError
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.orders.model import Order, UnitRef
from adjudicator.resources import data_dir

# What each terminal means to a player, for "expected ..." messages.
_TERMINAL_WORDS = {
    "PLACE": "a place", "UNIT_TYPE": "a unit type (A or F)", "POWER": "a power", "COAST": "a coast",
    "HOLD": "H", "SUPPORT": "S", "CONVOY": "C", "DISBAND": "disband", "REMOVE": "remove", "BUILD": "build",
    "WAIVE": "waive", "RETREAT": "R", "MOVE": "'-'", "TO": "'to'", "VIA": "'via convoy'", "BY": "'by convoy'",
    "ARROW": "'-'", "SLASH": "'/'", "LPAR": "'('", "RPAR": "')'", "DOT": "'.'", "CONVOY_NOTE": "'(via convoy)'", "$END": "the end of the order",
}


def _alternation(spellings: list[str]) -> str:
    """A regex matching any spelling (longest first), as a whole word, spaces flexible."""
    parts = []
    for s in sorted(set(spellings), key=lambda x: (-len(x), x)):
        parts.append(r"\s+".join(re.escape(w) for w in s.split()))
    return "(?:" + "|".join(parts) + r")(?![A-Za-z0-9])"


def _lark_regex(pattern: str) -> str:
    return "/" + pattern.replace("/", "\\/") + "/i"


@functools.lru_cache(maxsize=None)
def _grammar_text(name: str) -> str:
    return (data_dir("grammar") / f"{name}.lark").read_text(encoding="utf-8")


class _ToOrder(Transformer):
    """Builds Order values; names are looked up on the board as they are met."""

    def __init__(self, board: Board):
        super().__init__()
        self.board = board

    def _coast(self, token: Token) -> str:
        t = re.sub(r"\s+", " ", str(token).strip().lower())
        for key, spellings in self.board.coast_names.items():
            if t == key or t in (s.lower() for s in spellings):
                return key
        return t

    def coast(self, children):
        return next(t for t in children if t.type == "COAST")

    def place(self, children):
        token = children[0]
        coast = children[1] if len(children) > 1 else None
        try:
            province = self.board.names.lookup(str(token))
        except (UnknownName, AmbiguousName) as exc:
            raise OrderError(exc.message, column=token.column, suggestions=exc.suggestions) from None
        return (province, self._coast(coast) if coast is not None else None)

    def _unit(self, children, power=None) -> UnitRef:
        unit_type = None
        for c in children:
            if isinstance(c, Token) and c.type == "UNIT_TYPE":
                unit_type = ARMY if c.lower().startswith("a") else FLEET
            elif isinstance(c, Token) and c.type == "POWER":
                power = self.board.power_names.lookup(str(c), "power")
        (province, coast), = [c for c in children if isinstance(c, tuple)]
        return UnitRef(unit_type, province, coast, power)

    def unit(self, children):
        return self._unit(children)

    def target(self, children):
        return self._unit(children)

    @staticmethod
    def _pick(children, cls):
        return [c for c in children if isinstance(c, cls)]

    def hold(self, children):
        return Order("hold", unit=self._pick(children, UnitRef)[0])

    def move(self, children):
        places = self._pick(children, tuple)
        via = "convoy_tag" in children
        # A path (A yor - nth - bel) is ignored but for its meaning: the army goes by sea (DATC 4.A.6).
        via = via or len(places) > 1
        dest, coast = places[-1]
        return Order("move", unit=self._pick(children, UnitRef)[0], dest=dest, dest_coast=coast, via_convoy=via)

    def retreat(self, children):
        dest, coast = self._pick(children, tuple)[0]
        return Order("retreat", unit=self._pick(children, UnitRef)[0], dest=dest, dest_coast=coast)

    def support_hold(self, children):
        unit, target = self._pick(children, UnitRef)
        return Order("support", unit=unit, target=target)

    def support_move(self, children):
        unit, target = self._pick(children, UnitRef)
        dest, coast = self._pick(children, tuple)[0]
        return Order("support", unit=unit, target=target, dest=dest, dest_coast=coast)

    def convoy(self, children):
        unit, target = self._pick(children, UnitRef)
        dest, coast = self._pick(children, tuple)[0]
        return Order("convoy", unit=unit, target=target, dest=dest, dest_coast=coast)

    def disband(self, children):
        return Order("disband", unit=self._pick(children, UnitRef)[0])

    def remove(self, children):
        return Order("remove", unit=self._pick(children, UnitRef)[0])

    def build(self, children):
        return Order("build", unit=self._pick(children, UnitRef)[0])

    def waive(self, children):
        return Order("waive")

    def convoy_tag(self, children):
        return "convoy_tag"

    def hold_word(self, children):
        return "hold_word"

    def move_op(self, children):
        return "move_op"


class OrderParser:
    """Parses order text for one variant's board."""

    def __init__(self, board: Board, grammar: str = "diplomacy"):
        self.board = board
        places = board.names.all_spellings()
        powers = board.power_names.all_spellings()
        coasts = [s for key, spellings in board.coast_names.items() for s in [key, *spellings]]
        text = _grammar_text(grammar) + "\n".join([
            "",
            f"PLACE: {_lark_regex(_alternation(places))}",
            f"POWER.-1: {_lark_regex(_alternation(powers))}",
            f"COAST: {_lark_regex(_alternation(coasts))}",
            "",
        ])
        self.parser = Lark(text, parser="lalr", lexer="contextual", transformer=_ToOrder(board),
                           maybe_placeholders=False)

    def parse(self, text: str, line: int | None = None, file: str | None = None, column_offset: int = 0) -> Order:
        """Parse one order; an OrderError names the column, what was expected, and close place names."""
        stripped = text.strip()
        if not stripped:
            raise OrderError("empty order", file=file, line=line, column=column_offset + 1)
        try:
            order = self.parser.parse(text)
        except OrderError as exc:
            raise exc.located(file, line, column_offset) from None
        except VisitError as exc:
            inner = exc.orig_exc
            if isinstance(inner, AdjudicatorError):
                raise OrderError(inner.message, file=file, line=line, suggestions=inner.suggestions,
                                 column=(inner.column or 1) + column_offset) from None
            raise
        except UnexpectedInput as exc:
            raise self._explain(exc, text, line, file, column_offset) from None
        except AdjudicatorError as exc:
            raise OrderError(exc.message, file=file, line=line, suggestions=exc.suggestions,
                             column=(exc.column or 1) + column_offset) from None
        return Order(order.kind, order.unit, order.target, order.dest, order.dest_coast, order.via_convoy,
                     text=stripped, line=line)

    def _explain(self, exc: UnexpectedInput, text: str, line, file, offset) -> OrderError:
        column = getattr(exc, "column", None)
        if isinstance(exc, UnexpectedEOF) or column is None or column < 1:
            column = len(text.rstrip()) + 1
        expected = sorted({_TERMINAL_WORDS.get(t, t) for t in (getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])})
        word_match = re.match(r"[\w.'’-]+", text[column - 1:])
        word = word_match.group(0) if word_match else text[column - 1:column]
        suggestions: list[str] = []
        if isinstance(exc, UnexpectedCharacters) and word_match:
            allowed = exc.allowed or set()
            if "PLACE" in allowed or not allowed:
                suggestions = self.board.names.suggest(word)
                return OrderError(f"unknown place {word!r}", file=file, line=line, column=column + offset,
                                  suggestions=suggestions)
            return OrderError(f"unexpected {word!r}; expected {_or_list(expected)}", file=file, line=line,
                              column=column + offset)
        if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
            return OrderError(f"the order ends too early; expected {_or_list(expected)}", file=file, line=line,
                              column=column + offset)
        if isinstance(exc, UnexpectedEOF):
            return OrderError(f"the order ends too early; expected {_or_list(expected)}", file=file, line=line,
                              column=column + offset)
        return OrderError(f"unexpected {word!r}; expected {_or_list(expected)}", file=file, line=line,
                          column=column + offset)


def _or_list(items: list[str]) -> str:
    if not items:
        return "something else"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


@functools.lru_cache(maxsize=None)
def parser_for(board: Board) -> OrderParser:
    """The (cached) order parser of a board."""
    return OrderParser(board)


def parse_order(board: Board, text: str, line: int | None = None, file: str | None = None, column_offset: int = 0) -> Order:
    """Parse one order for a board."""
    return parser_for(board).parse(text, line=line, file=file, column_offset=column_offset)
