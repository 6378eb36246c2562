"""Order text -> Order, through the Lark (LALR) grammar in `grammar/diplomacy.lark`.

The variant's place names, power names and coast spellings are compiled into the REF terminal (a place
with its optional nationality, unit type and coast), so a multi-word name is one token and an unknown word
fails at its own column with the closest names suggested.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from lark import Transformer

from adjudicator.board import ARMY, FLEET, Board
from adjudicator.errors import OrderError
from adjudicator.grammar_tools import GrammarParser, alternatives
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.orders.model import Order, UnitRef

# What each terminal means to a player, for "expected ..." messages.
_TERMINAL_WORDS = {
    "REF": "a place", "HOLD": "H", "SUPPORT": "S", "CONVOY": "C", "DISBAND": "disband", "REMOVE": "remove",
    "BUILD": "build", "WAIVE": "waive", "RETREAT": "R", "MOVE_OP": "'-'", "CONVOY_TAG": "'via convoy'",
    "$END": "the end of the order",
}
_UNIT_TYPES = r"army|fleet|a|f"


class _ToOrder(Transformer):
    """Builds Order values from REF tokens; names are looked up on the board as they are met."""

    def __init__(self, board: Board, ref: re.Pattern):
        super().__init__()
        self.board = board
        self.ref = ref
        self.known: dict[str, UnitRef] = {}  # REF text -> its reading (names resolve the same way every time)

    def _ref(self, token: Any) -> UnitRef:
        raw = str(token)
        text = raw.lstrip()
        known = self.known.get(text)
        if known is not None:
            return known
        m = self.ref.fullmatch(text)
        if m is None:  # pragma: no cover - the lexer only makes REF tokens the pattern matches
            raise OrderError(f"cannot read {str(token)!r}", column=token.column)
        try:
            province = self.board.names.lookup(m.group("place"))
            power = self.board.power_names.lookup(m.group("power"), "power") if m.group("power") else None
        except (UnknownName, AmbiguousName) as exc:
            column = token.column + len(raw) - len(text) + m.start("place")
            raise OrderError(exc.message, column=column, suggestions=exc.suggestions) from None
        unit_type = m.group("type")
        coast = m.group("coast") or m.group("coast2")
        ref = UnitRef(None if unit_type is None else (ARMY if unit_type[0].lower() == "a" else FLEET), province,
                      self.board.coast_key(coast) if coast else None, power)
        if len(self.known) < 100_000:
            self.known[text] = ref
        return ref

    def _refs(self, children) -> list[UnitRef]:
        return [self._ref(c) for c in children if getattr(c, "type", None) == "REF"]

    @staticmethod
    def _via(children) -> bool:
        return any(getattr(c, "type", None) == "CONVOY_TAG" for c in children)

    # Each rule gives (kind, unit, target, destination, coast, via convoy): the Order is built once, by the parser.
    def hold(self, children):
        return "hold", self._refs(children)[0], None, None, None, False

    def move(self, children):
        refs = self._refs(children)
        # A path (A yor - nth - bel) is ignored but for its meaning: the army goes by sea (DATC 4.A.6).
        return "move", refs[0], None, refs[-1].province, refs[-1].coast, self._via(children) or len(refs) > 2

    def retreat(self, children):
        unit, dest = self._refs(children)
        return "retreat", unit, None, dest.province, dest.coast, False

    def support_hold(self, children):
        unit, target = self._refs(children)
        return "support", unit, target, None, None, False

    def support_move(self, children):
        unit, target, dest = self._refs(children)
        return "support", unit, target, dest.province, dest.coast, False

    def convoy(self, children):
        unit, target, dest = self._refs(children)
        return "convoy", unit, target, dest.province, dest.coast, False

    def disband(self, children):
        return "disband", self._refs(children)[0], None, None, None, False

    def remove(self, children):
        return "remove", self._refs(children)[0], None, None, None, False

    def build(self, children):
        return "build", self._refs(children)[0], None, None, None, False

    def waive(self, children):
        return "waive", None, None, None, None, False


class OrderParser:
    """Parses order text for one variant's board."""

    def __init__(self, board: Board, grammar: str = "diplomacy"):
        self.board = board
        coasts = [s for key, spellings in board.coast_names.items() for s in [key, *spellings]]
        place = alternatives(board.names.all_spellings())
        power = alternatives(board.power_names.all_spellings())
        coast = alternatives(coasts)
        ref = (rf"(?:(?P<power>{power})\s+)?(?:(?P<type>{_UNIT_TYPES})\s+)?(?P<place>{place})"
               rf"(?:\s*(?:/|\.|\()\s*(?P<coast>{coast})\s*\)?|\s+(?P<coast2>{coast}))?")
        lark_ref = r"[ \t]*(?:" + re.sub(r"\(\?P<\w+>", "(?:", ref) + r")(?![A-Za-z0-9])"
        terminals = {"REF": "/" + lark_ref.replace("/", "\\/") + "/i"}
        # For an unknown word, skip what may stand before a place (nationality, unit type) to name it.
        skip = rf"\s*(?:(?:{power})\s+)?(?:(?:{_UNIT_TYPES})\s+)?"
        self.grammar = GrammarParser(grammar, terminals, _ToOrder(board, re.compile(ref, re.IGNORECASE)),
                                     {"REF": board.names}, _TERMINAL_WORDS, skip=skip, fast=True)
        self.readings: dict[str, tuple] = {}  # order text -> what the grammar made of it

    def parse(self, text: str, line: int | None = None, file: str | None = None, column_offset: int = 0,
              power: str | None = None, use_cache: bool = True) -> Order:
        """Parse one order; an OrderError names the column, what was expected, and close place names.

        The same text always reads the same way, so readings are kept (bounded): order texts repeat from
        phase to phase and game to game. `use_cache=False` always runs the grammar (for measuring it)."""
        reading = self.readings.get(text) if use_cache else None
        if reading is None:
            reading = self.grammar.parse(text, line=line, file=file, column_offset=column_offset)
            if use_cache:
                if len(self.readings) >= 100_000:
                    self.readings.clear()
                self.readings[text] = reading
        kind, unit, target, dest, coast, via = reading
        return Order(kind, unit, target, dest, coast, via, power, text.strip(), line)


@functools.lru_cache(maxsize=None)
def parser_for(board: Board) -> OrderParser:
    """The (cached) order parser of a board."""
    return OrderParser(board)


def parse_order(board: Board, text: str, line: int | None = None, file: str | None = None, column_offset: int = 0,
                power: str | None = None, use_cache: bool = True) -> Order:
    """Parse one order for a board (given by `power`, when known)."""
    return parser_for(board).parse(text, line=line, file=file, column_offset=column_offset, power=power,
                                   use_cache=use_cache)
