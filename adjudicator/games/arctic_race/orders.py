"""Order text -> turns and set-up steps, through `grammar/arctic-race.lark` and the shared GrammarParser.

A sheet holds one step per line or `;`-separated, `#` starts a comment. Every random result or free choice a
turn needs is part of it: die faces in the order they are rolled (a black face with the racer it moves) and
the new holders of the start token. Names are checked against the board here; whether a step is allowed in
the position is checked when it is resolved (`resolve.py`), so a refused step can name its rule.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

from lark import Token, Transformer

from adjudicator.errors import OrderError
from adjudicator.grammar_tools import GrammarParser, alternation
from adjudicator.names import AmbiguousName, NameIndex, UnknownName
from adjudicator.sheets import SheetProblem

from .board import FIN, RaceBoard

# The actions a card can offer (R30), with the other spellings a player may write.
ACTION_WORDS = {
    "move": ["move", "moves"],
    "start": ["start"],
    "push": ["push", "pushes", "shift", "arrow"],
    "die": ["die", "dice"],
    "collect": ["collect", "collects", "hand"],
}
ACTIONS = NameIndex.build([(a, a, spellings) for a, spellings in ACTION_WORDS.items()])

# What each terminal means to a player, for "expected ..." messages.
_TERMINAL_WORDS = {
    "PLAYER": "a player colour", "TILE": "a tile", "CARD_NAME": "a card", "ACTION": "a card action",
    "NUMBER": "a number", "PLAY": "'plays'", "CARD": "'card'", "RACER": "'racer'", "BACK": "'back'",
    "TO": "'to'", "FINISH": "'finish'", "ROLL": "'roll'", "BLACK": "'black'", "TOKEN": "'token'",
    "SETUP": "'setup'", "PLAYERS": "'players'", "START": "'start'", "TILES": "'tiles'", "COLON": "':'",
    "RIVER": "'river'", "DRAW": "'draw'",
    "COMMA": "','", "$END": "the end of the step",
}


@dataclass(frozen=True)
class Roll:
    """One die result: a face as written (`1`..`5` or `black`), and for black the racer it moves (R20)."""

    face: str
    racer: int | None = None

    def __str__(self) -> str:
        return f"roll {self.face}" + (f" racer {self.racer}" if self.racer is not None else "")


@dataclass(frozen=True)
class Turn:
    """A player's turn: the card revealed, the action chosen, and the inputs it consumes in order."""

    player: str
    card: int
    action: str  # move, start, push, die, collect
    racer: int | None = None  # the racer a move names (card 1 must name one, R13)
    backward: bool = False  # `move back`: written only to be refused (R17)
    destination: int | str | None = None  # `to N` / `to finish`: where the mover is stated to stop
    rolls: tuple[Roll, ...] = ()
    tokens: tuple[str, ...] = ()  # new holders of the start token, in order (R16)
    draws: tuple[str, ...] = ()  # tiles drawn from a face-down pile by pushes, in order (A17)
    text: str = ""  # as written, after the player prefix
    line: int | None = None
    body_column: int = 0  # where the text after the player's name begins (1-based)

    def describe(self) -> str:
        """The turn in canonical words."""
        words = [f"{self.player}: card {self.card} {self.action}"]
        if self.racer is not None:
            words.append(f"racer {self.racer}")
        if self.backward:
            words.append("back")
        if self.destination is not None:
            words.append(f"to {'finish' if self.destination == FIN else self.destination}")
        inputs = [str(r) for r in self.rolls] + [f"token to {t}" for t in self.tokens] + [f"draw {t}" for t in self.draws]
        return " ".join(words) + "".join(f", {i}" for i in inputs)


@dataclass(frozen=True)
class SetupPart:
    """A part of the set-up: the players (clockwise), the first start-token holder, the tile order, or the
    river as laid out on the table."""

    kind: str  # players, start, tiles, river
    values: tuple[str, ...]
    text: str = ""
    line: int | None = None

    def describe(self) -> str:
        """The part in canonical words."""
        return f"{self.kind} {', '.join(self.values)}"


Step = Turn | SetupPart


class _ToSteps(Transformer):
    """Builds Turn and SetupPart values; names are looked up on the board as they are met."""

    def __init__(self, board: RaceBoard):
        super().__init__()
        self.board = board

    @staticmethod
    def _lookup(index: NameIndex, token: Token, what: str) -> str:
        try:
            return index.lookup(str(token), what)
        except (UnknownName, AmbiguousName) as exc:
            raise OrderError(exc.message, column=token.column, suggestions=exc.suggestions) from None

    def _player(self, token: Token) -> str:
        return self._lookup(self.board.names, token, "player colour")

    def card(self, children):
        token = children[-1]
        if token.type == "CARD_NAME":
            return ("card", int(self._lookup(self.board.card_names, token, "card")))
        return ("card", int(token))

    def racer(self, children):
        return ("racer", int(children[-1]))

    def destination(self, children):
        token = children[-1]
        return ("destination", FIN if token.type == "FINISH" else int(token))

    def action(self, children):
        out = {"action": self._lookup(ACTIONS, children[0], "card action")}
        if out["action"] != "move" and len(children) > 1:
            raise OrderError(f"only a move names a racer, a direction or a destination, not {out['action']}",
                             column=children[0].end_column + 1)
        for child in children[1:]:
            if isinstance(child, Token) and child.type == "BACK":
                out["backward"] = True
            else:
                out[child[0]] = child[1]
        return ("action", out)

    def roll(self, children):
        face = str(children[1]).lower()
        racer = children[2][1] if len(children) > 2 else None
        return ("roll", Roll(face, racer))

    def token(self, children):
        return ("token", self._player(children[-1]))

    def draw(self, children):
        return ("draw", self._lookup(self.board.tile_names, children[-1], "tile"))

    def turn(self, children):
        player = self._player(children[0])
        parts = [c for c in children[1:] if isinstance(c, tuple)]
        card = next(v for k, v in parts if k == "card")
        action = next(v for k, v in parts if k == "action")
        return Turn(player, card, action["action"], action.get("racer"), action.get("backward", False),
                    action.get("destination"), tuple(v for k, v in parts if k == "roll"),
                    tuple(v for k, v in parts if k == "token"), tuple(v for k, v in parts if k == "draw"),
                    body_column=children[0].end_column)

    def setup_players(self, children):
        return SetupPart("players", tuple(self._player(t) for t in children if t.type == "PLAYER"))

    def setup_start(self, children):
        return SetupPart("start", tuple(self._player(t) for t in children if t.type == "PLAYER"))

    def setup_tiles(self, children):
        tiles = tuple(self._lookup(self.board.tile_names, t, "tile") for t in children if t.type == "TILE")
        return SetupPart("tiles", tiles)

    def setup_river(self, children):
        tiles = tuple(self._lookup(self.board.tile_names, t, "tile") for t in children if t.type == "TILE")
        return SetupPart("river", tiles)


@functools.lru_cache(maxsize=8)  # parsers by board, bounded (inline boards come and go)
def parser_for(board: RaceBoard) -> GrammarParser:
    """The (cached) step parser of a board: the grammar completed with the board's names."""
    terminals = {
        "PLAYER": alternation(board.names.all_spellings()),
        "TILE": alternation(board.tile_names.all_spellings()),
        "CARD_NAME": alternation(board.card_names.all_spellings() or ["\u2063"]),
        "ACTION": alternation(ACTIONS.all_spellings()),
    }
    names = {"PLAYER": board.names, "TILE": board.tile_names, "CARD_NAME": board.card_names, "ACTION": ACTIONS}
    return GrammarParser("arctic-race", terminals, _ToSteps(board), names, _TERMINAL_WORDS, what="step")


def split_steps(text: str) -> list[tuple[str, int, int]]:
    """(step text, line, column offset) of every step: lines, then `;`; comments and blank steps dropped."""
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0]
        start = 0
        for piece in line.split(";"):
            stripped = piece.strip()
            if stripped:
                out.append((stripped, number, start + piece.index(stripped)))
            start += len(piece) + 1
    return out


def read_steps(board: RaceBoard, text: str, file: str | None = None) -> tuple[list[Step], list[SheetProblem]]:
    """Every readable step of an order sheet, and a located problem (line, column, reason, suggestions) for
    each piece that is not one: a bad piece never stops the others being read (the sheet contract)."""
    parser = parser_for(board)
    lines = text.splitlines()
    steps: list[Step] = []
    problems: list[SheetProblem] = []
    for piece, line, offset in split_steps(text):
        try:
            step: Any = parser.parse(piece, line=line, file=file, column_offset=offset)
        except OrderError as exc:
            problems.append(SheetProblem(line, exc.column, lines[line - 1], exc.message, exc.suggestions))
            continue
        if isinstance(step, Turn):  # the report shows the turn without its player prefix, as Diplomacy's does
            piece = piece[step.body_column - 1:].lstrip(" \t:")
        steps.append(replace(step, text=piece, line=line))
    return steps, problems


def read_item(board: RaceBoard, seat: str, text: str, line: int) -> Step:
    """One list item as one step of `seat`: a seat's item is that player's own turn, the set-up is the game
    master's (seat ''). The grammar reads a turn with its player's name first, so an item that does not start
    with one is read after the seat's name; either way the turn read must be the seat's."""
    parser = parser_for(board)
    body = text.split("#", 1)[0].strip()
    if not body:
        raise OrderError("no step in this item", column=1, line=line)
    try:
        step: Any = parser.parse(body, line=line)
    except OrderError:
        if not seat:
            raise
        shift = len(seat) + 2
        try:
            step = parser.parse(f"{seat}: {body}", line=line, column_offset=-shift)
        except OrderError as exc:
            raise OrderError(exc.message, line=line, column=max(1, exc.column or 1),
                             suggestions=exc.suggestions) from None
        step = replace(step, body_column=max(1, step.body_column - shift))
    if seat and not (isinstance(step, Turn) and step.player.casefold() == seat.casefold()):
        whose = f"{step.player}'s turn" if isinstance(step, Turn) else "the set-up: the game master sends it"
        raise OrderError(f"{body!r} is {whose}, not a turn of {seat}, whose list this is", column=1, line=line)
    if isinstance(step, Turn):
        body = body[step.body_column - 1:].lstrip(" \t:")
    return replace(step, text=body, line=line)


def parse_steps(board: RaceBoard, text: str, file: str | None = None) -> list[Step]:
    """Every step of an order sheet; the first unreadable piece raises its OrderError (a strict reading)."""
    steps, problems = read_steps(board, text, file)
    if problems:
        raise problems[0].as_error(file)
    return steps
