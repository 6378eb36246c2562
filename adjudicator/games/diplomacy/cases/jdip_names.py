"""jDip's reading of place names in case files: a name the board does not know is read as the one place whose
full name (its `name` or one of its `aliases`) starts with it, so `Fleet Portuga` is the fleet in Portugal and
`A Paris - Burgund` a move to Burgundy, as jDip's own case reader reads its files.

The plain-text case format is jDip's, so the runner reads every text case file this way, with no marker: the
board's own names (ids, names, aliases) are read first and exactly as everywhere else, and only a name that reads
no other way is tried as a prefix; each place so read is noted in the case's notes. A prefix that starts the full
names of several places is an error naming them all. The order reader used everywhere else (sheets, the API)
never reads prefixes: a player's `Nor` is refused with suggestions, not guessed.
"""

from __future__ import annotations

import functools

from adjudicator.games.diplomacy.board import Board
from adjudicator.errors import OrderError
from adjudicator.names import AmbiguousName, UnknownName, normalise
from adjudicator.games.diplomacy.orders.model import Order
from adjudicator.games.diplomacy.orders.parse import PLACE, UNKNOWN, OrderParser, lexicon_of, parse_order, pieces_of

RULE = "jDip's rule for names: a unique prefix of a full name"


def _key(text: str) -> str:
    """A name as the order lexicon keys it: its words (`Mid-Atl` -> `mid atl`), case-folded."""
    return " ".join(p for p in pieces_of(normalise(text).casefold()) if p[0].isalnum())


@functools.lru_cache(maxsize=8)
def prefixes_of(board: Board) -> dict[str, frozenset[str]]:
    """Every prefix of every full name of the board's places (keyed as `_key`), with the places it starts."""
    found: dict[str, set[str]] = {}
    for p in board.provinces.values():
        for name in {p.name, *p.aliases}:
            key = _key(name)
            for end in range(1, len(key) + 1):
                if key[end - 1] != " ":
                    found.setdefault(key[:end], set()).add(p.id)
    return {k: frozenset(v) for k, v in found.items()}


def _ambiguous(board: Board, text: str, ids: frozenset[str]) -> str:
    names = ", ".join(f"{board.names.display[i]} ({i})" for i in sorted(ids, key=board.names.display.__getitem__))
    return (f"ambiguous place {text.strip()!r}: it starts the full names of {names}, and a prefix names a place "
            f"only when it starts one (jDip's rule); write more of the name")


def read_place(board: Board, text: str, notes: list[str], line: int | None) -> str:
    """The place a case file's name means: the board's own reading, else the one place whose full name it starts
    (noted); an UnknownName when none does, an AmbiguousName naming them when several do."""
    try:
        return board.names.lookup(text)
    except UnknownName:
        ids = prefixes_of(board).get(_key(text), frozenset())
        if not ids:
            raise
        if len(ids) > 1:
            raise AmbiguousName(_ambiguous(board, text, ids)) from None
        (place,) = ids
        notes.append(f"line {line}: read {text.strip()!r} as {board.names.display[place]} ({place}), by {RULE}")
        return place


@functools.lru_cache(maxsize=8)
def prefix_parser(board: Board) -> OrderParser:
    """An order reader for the board that also reads each unique prefix of a full name as its place (the board's
    own words keep their readings: a prefix that is one of them is not added)."""
    lexicon = lexicon_of(board)
    for key, ids in prefixes_of(board).items():
        if len(ids) == 1 and key not in lexicon.phrases:
            lexicon.add(key, PLACE, tuple(ids))
    lexicon.finish()
    return OrderParser(board, lexicon)


def read_order(board: Board, text: str, notes: list[str], line: int | None = None, file: str | None = None,
               column_offset: int = 0, power: str | None = None) -> Order:
    """An order of a case file: read as any order is, else with jDip's names (noted); the first reader's error
    when neither reads it, or one naming the places an ambiguous prefix starts."""
    try:
        return parse_order(board, text, line=line, file=file, column_offset=column_offset, power=power)
    except OrderError as exc:
        first = exc
    parser = prefix_parser(board)
    try:
        order = parser.parse(text, line, file, column_offset, power)
    except OrderError:
        raise _ambiguity(board, parser, text, first, column_offset) from None
    notes.append(f"line {line}: read {text.strip()!r} as {order.describe()}, by {RULE}")
    return order


def _ambiguity(board: Board, parser: OrderParser, text: str, first: OrderError, column_offset: int) -> OrderError:
    """An error naming the places of the order's first ambiguous prefix, or `first` when it has none."""
    try:
        words = parser.words(text)
    except OrderError:
        return first
    prefixes = prefixes_of(board)
    for word in words:
        ids = prefixes.get(_key(word.text), frozenset()) if word.code == UNKNOWN else frozenset()
        if len(ids) > 1:
            column = text.casefold().find(word.text.split()[0].casefold()) + 1 or 1
            return OrderError(_ambiguous(board, word.text, ids), file=first.file, line=first.line,
                              column=column + column_offset)
    return first
