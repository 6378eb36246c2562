"""Order text -> Order, through the Lark (LALR) grammar in `grammar/diplomacy.lark`.

The variant's place names, power names and coast spellings become the PLACE, POWER and COAST terminals,
so a multi-word name is one token and an unknown word fails at its own column with suggestions.
"""

from __future__ import annotations

import functools
import re

from lark import Token, Transformer

from adjudicator.board import ARMY, FLEET, Board
from adjudicator.errors import OrderError
from adjudicator.grammar_tools import GrammarParser, alternation
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.orders.model import Order, UnitRef

# What each terminal means to a player, for "expected ..." messages.
_TERMINAL_WORDS = {
    "PLACE": "a place", "UNIT_TYPE": "a unit type (A or F)", "POWER": "a power", "COAST": "a coast",
    "HOLD": "H", "SUPPORT": "S", "CONVOY": "C", "DISBAND": "disband", "REMOVE": "remove", "BUILD": "build",
    "WAIVE": "waive", "RETREAT": "R", "MOVE": "'-'", "TO": "'to'", "VIA": "'via convoy'", "BY": "'by convoy'",
    "ARROW": "'-'", "SLASH": "'/'", "LPAR": "'('", "RPAR": "')'", "DOT": "'.'", "CONVOY_NOTE": "'(via convoy)'", "$END": "the end of the order",
}


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
        coasts = [s for key, spellings in board.coast_names.items() for s in [key, *spellings]]
        terminals = {
            "PLACE": alternation(board.names.all_spellings()),
            "POWER.-1": alternation(board.power_names.all_spellings()),
            "COAST": alternation(coasts),
        }
        self.grammar = GrammarParser(grammar, terminals, _ToOrder(board), {"PLACE": board.names}, _TERMINAL_WORDS)

    def parse(self, text: str, line: int | None = None, file: str | None = None, column_offset: int = 0) -> Order:
        """Parse one order; an OrderError names the column, what was expected, and close place names."""
        order = self.grammar.parse(text, line=line, file=file, column_offset=column_offset)
        return Order(order.kind, order.unit, order.target, order.dest, order.dest_coast, order.via_convoy,
                     text=text.strip(), line=line)


@functools.lru_cache(maxsize=None)
def parser_for(board: Board) -> OrderParser:
    """The (cached) order parser of a board."""
    return OrderParser(board)


def parse_order(board: Board, text: str, line: int | None = None, file: str | None = None, column_offset: int = 0) -> Order:
    """Parse one order for a board."""
    return parser_for(board).parse(text, line=line, file=file, column_offset=column_offset)
