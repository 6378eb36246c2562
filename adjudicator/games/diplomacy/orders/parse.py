"""Order text -> Order: words read with one dictionary lookup each, then the LALR grammar
`grammar/diplomacy.lark` (compiled by Lark, run by `adjudicator/lalr_table.py`) over one code character per word.

Long file: the three steps below share the board's lexicon and the word readings, and the hot path of plain
orders runs through all three without a call it could do without; the grammar is its own file.

Reading an order is three steps, each linear in the order's length:
1. Split the text into pieces (blanks, words, symbols: `pieces_of`, the regex only for joined pieces), and read
   each word, or each run of words that is one name (`Mid-Atlantic Ocean`, `St. Petersburg`, `north coast`,
   `moves to`), with a dictionary lookup in the board's lexicon (built once per board). An order of plain words
   only (each piece one word with one reading: nine orders in ten) takes a short way with no Word objects.
2. Parse the codes of the words (`UPMP` for `A Par - Bur`) with the LALR table; the rules' callbacks run as it
   reduces and give the order's shape (its kind and which words are its units and places).
3. Build the Order from the words' meanings. A word that names two places (`liv`: Liverpool or Livonia;
   `Tyr`: Tyrolia or the Tyrrhenian Sea) is settled by the units of the order when only one reading is one
   they could carry out (the order then carries a note saying so), and refused naming both otherwise.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Sequence

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board
from adjudicator.errors import AdjudicatorError, OrderError
from adjudicator.grammar_tools import grammar_text, or_list
from adjudicator.lalr_table import LalrTable, UnexpectedTerminal
from adjudicator.names import ARTICLES, normalise
from adjudicator.games.diplomacy.orders.model import Order, UnitRef, new_order, new_unit_ref, unit_refs

# What the reader makes of an order's text, the fields of its Order but its power, text and line: (kind, unit,
# target, dest, dest's coast, via convoy, notes, path). Kept per text (`OrderParser.readings`).
Reading = tuple[str, UnitRef | None, UnitRef | None, str | None, str | None, bool, tuple[str, ...], tuple[str, ...]]

# The codes of grammar/diplomacy.lark.
UNIT, PLACE, POWER, COAST, MOVE, HOLD, SUPPORT, CONVOY, VIA = "U", "P", "W", "K", "M", "H", "S", "C", "Y"
RETREAT, DISBAND, REMOVE, BUILD, WAIVE, PLUS, LPAR, RPAR, SLASH, UNKNOWN = "R", "D", "X", "B", "N", "+", "(", ")", "/", "?"
DUAL = "*"  # not the grammar's: a plain word that may be a place or a power (`Eng`), until `_plain_codes` reads it
TWO_PLACES = "t"  # not the grammar's either: a place of `Lexicon.two_places` (`tyr`), a PLACE to the grammar

# English order words (a board adds unit words in other languages as data: `unit_words`).
KEYWORDS: dict[str, tuple[str, ...]] = {
    MOVE: ("to", "m", "move", "moves", "move to", "moves to", "attack", "attacks", "goes to"),
    HOLD: ("h", "hold", "holds", "stand", "stands"),
    SUPPORT: ("s", "sup", "supp", "support", "supports"),
    CONVOY: ("c", "conv", "convoy", "convoys"),
    VIA: ("via", "via convoy", "via c", "by convoy", "by c"),
    RETREAT: ("r", "retreat", "retreats"),
    DISBAND: ("d", "disband", "disbands", "destroy"),
    REMOVE: ("remove", "removes"),
    BUILD: ("b", "build", "builds"),
    WAIVE: ("waive", "waives", "waived"),
}
DEFAULT_UNIT_WORDS = {ARMY: ("a", "army"), FLEET: ("f", "fleet")}
_SYMBOLS = {"-": MOVE, "–": MOVE, "—": MOVE, "→": MOVE, ">": MOVE, "->": MOVE, "-->": MOVE, "=>": MOVE, "--": MOVE,
            "(": LPAR, ")": RPAR, "/": SLASH, "+": PLUS}
_REF_START = frozenset({UNIT, PLACE, POWER})
# What may follow each code (None: the start of the order), to choose between two readings of one word.
_FOLLOWS: dict[str | None, frozenset[str]] = {
    None: frozenset("UPWDXMB+N"), UNIT: frozenset("P("), POWER: frozenset("UP"), PLACE: frozenset("K/(HMRSCDXBY"),
    COAST: frozenset(")MHSCRDXBY"), SLASH: frozenset("K"), LPAR: frozenset("PKY"), RPAR: frozenset("MHSCRDXBY"),
    MOVE: frozenset("UPWR"), SUPPORT: frozenset("UPW"), CONVOY: frozenset("UPW"), RETREAT: frozenset("MUPW"),
    DISBAND: frozenset("UPW"), REMOVE: frozenset("UPW"), BUILD: frozenset("UPWN"), PLUS: frozenset("UPW"),
    HOLD: frozenset(), VIA: frozenset(), WAIVE: frozenset("B"),
}
# What each terminal means to a player, for "expected ..." messages.
_TERMINAL_WORDS = {
    "PLACE": "a place", "UNIT": "a unit (A or F)", "POWER": "a power", "COAST": "a coast", "MOVE": "'-'",
    "HOLD": "H", "SUPPORT": "S", "CONVOY": "C", "VIA": "'via convoy'", "RETREAT": "R", "DISBAND": "disband",
    "REMOVE": "remove", "BUILD": "build", "WAIVE": "waive", "PLUS": "'+'", "LPAR": "'('", "RPAR": "')'",
    "SLASH": "'/'", "$END": "the end of the order",
}
# A word (letters and digits, an apostrophe inside) | a two- or three-character arrow | any other character
# but a blank. Each quantifier runs over its own characters: linear on any input.
_PIECES = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|-->|->|=>|--|\S")


def pieces_of(text: str) -> list[str]:
    """`_PIECES.findall(text)`, split at blanks first: a blank-separated word of letters and digits, or one
    character, is one piece as it stands, and only the rest (`stp/nc`, `A(Vie)-Bud`) meets the regex."""
    out: list[str] = []
    for chunk in text.split():
        if chunk.isalnum() or len(chunk) == 1:
            out.append(chunk)
        else:
            out.extend(_PIECES.findall(chunk))
    return out


class AmbiguousOrder(OrderError):
    """An order with a name of two places that its units do not settle."""


class UnknownPlace(OrderError):
    """An order naming a place the board does not have (a sheet full of them was written for another board)."""


class Word(NamedTuple):
    """One word of an order as read: its code, what it means, where it stands and how it was written."""

    code: str
    meaning: Any  # PLACE: the ids it could name; UNIT: A/F; POWER: the power; COAST: the coast key
    at: int  # the index of its first piece in the order's text (`_column` turns it into a column)
    text: str
    power: str | None = None  # a place that may also be a power (`Eng`): the power, settled by the next word


@dataclass
class Lexicon:
    """Every word and name of a board's orders, folded, with what it may mean (built once per board)."""

    phrases: dict[str, tuple[tuple[str, Any], ...]] = field(default_factory=dict)  # folded words -> readings
    single: dict[str, tuple[str, Any]] = field(default_factory=dict)  # the words with one reading only
    prefixes: set[str] = field(default_factory=set)  # the first words of names of several words
    # A piece as written (`Par`, `PAR`, `par`, `-`) that is one word by itself with one reading, and no part of
    # a longer name nor a name of two places: read with this one lookup (see `finish`).
    fast: dict[str, tuple[str, Any]] = field(default_factory=dict)
    # The code of each piece of `fast` and `two_places`, marked: in lower case for a piece that may start a longer
    # name (`s` for `S`, which may start `S.C.`), `t` for a name of two places; no `(` (no plain order has one).
    # So an order whose codes are all capitals (`str.isupper`: the common case) needs no more looking at.
    codes: dict[str, str] = field(default_factory=dict)
    # Every run of marked codes (a name of two places as PLACE) where a word may continue the name that the piece
    # before starts: its code and the next word's, with a hyphen's between or not (`sC` for `S C`). Codes with no
    # such run need no look at their pieces' words (see `OrderParser._plain`).
    join_codes: frozenset[str] = field(default_factory=frozenset)
    # the pieces of `fast` that may start a longer name -> the words that would continue it
    continues: dict[str, frozenset[str]] = field(default_factory=dict)
    # the pieces of `fast` that may be a power instead of the place `fast` gives (`Eng`) -> the power
    dual: dict[str, str] = field(default_factory=dict)
    # An order phrase of two words (`via convoy`, `north coast`), folded, with one reading and no longer name
    # starting so -> its key, which `fast` holds (with a blank: never a piece), so that it reads as one piece.
    pairs: dict[tuple[str, str], str] = field(default_factory=dict)
    # A piece as `fast` would hold it, but a name of two places (`tyr`, `liv`) -> the ids: `codes` holds it too, as
    # a place, so that such an order reads on the plain path and is settled there as the general reader settles it.
    two_places: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def add(self, spelling: str, code: str, meaning: Any) -> None:
        """One spelling of a word (its words are those `_PIECES` finds, so `N.C.` is `n c`)."""
        words = [p for p in _PIECES.findall(spelling.casefold()) if p[0].isalnum()]
        if not words:
            return
        key = " ".join(words)
        readings = self.phrases.get(key, ())
        for i, (c, m) in enumerate(readings):
            if c == code:
                if code == PLACE and m != meaning:  # one spelling of two places: both are kept
                    readings = readings[:i] + ((c, tuple(sorted(set(m) | set(meaning)))),) + readings[i + 1:]
                self.phrases[key] = readings
                if len(readings) == 1:
                    self.single[key] = readings[0]
                return
        self.phrases[key] = readings + ((code, meaning),)
        if len(self.phrases[key]) == 1:
            self.single[key] = (code, meaning)
        else:
            self.single.pop(key, None)
        for n in range(1, len(words)):
            self.prefixes.add(" ".join(words[:n]))

    def finish(self) -> None:
        """The fast table, once every spelling is in: each word in the cases people write it (as folded, in
        capitals, capitalised), where the piece folds back to the word."""
        following: dict[str, set[str]] = {}  # the first word of a name of several words -> the second words
        for name in (*self.phrases, *self.prefixes):
            first, _, rest = name.partition(" ")
            if rest:
                following.setdefault(first, set()).add(rest.partition(" ")[0])
        self.fast = {piece: (code, None) for piece, code in _SYMBOLS.items() if code != RPAR}  # `)` may close `(via`
        powers: dict[str, str] = {}
        readings = [(key, reading) for key, reading in self.single.items()]
        for key, both in self.phrases.items():  # a place or a power (`eng`): read as the place, the power aside
            meant = dict(both)
            if len(both) == 2 and meant.keys() == {PLACE, POWER}:
                readings.append((key, (PLACE, meant[PLACE])))
                powers[key] = meant[POWER]
        for key, reading in readings:
            two = reading[0] == PLACE and len(reading[1]) > 1
            if " " in key or two and key in powers:
                continue
            for piece in (key, key.upper(), key.capitalize()):
                if piece.casefold() == key:
                    if two:
                        self.two_places[piece] = reading[1]
                    else:
                        self.fast[piece] = reading
                    if key in powers:
                        self.dual[piece] = powers[key]
                    if key in following:  # `S`, `via`: one word unless the next continues a name
                        self.continues[piece] = frozenset(following[key])
        for key, reading in self.single.items():
            first, _, second = key.partition(" ")
            if second and " " not in second and reading[0] != PLACE and key not in self.prefixes:
                self.pairs[first, second] = key
                self.fast[key] = reading
        codes = {piece: DUAL if piece in self.dual else reading[0] for piece, reading in self.fast.items()
                 if reading[0] != LPAR}
        codes.update(dict.fromkeys(self.two_places, TWO_PLACES))
        for piece in self.continues:
            code = codes.pop(piece)
            if code not in (DUAL, TWO_PLACES):  # (either, and the start of a longer name: the general reader's)
                codes[piece] = code.lower()
        self.codes = codes
        grammar_code = lambda piece: codes[piece].replace(TWO_PLACES, PLACE)  # noqa: E731
        runs = set()
        for piece, nexts in self.continues.items():
            if piece in codes:
                for word in nexts:
                    for written in {word, word.upper(), word.capitalize()} & codes.keys():
                        if written.casefold() == word:
                            runs |= {codes[piece] + grammar_code(written), codes[piece] + MOVE + grammar_code(written)}
        self.join_codes = frozenset(runs)


@dataclass
class Reach:
    """Where units can go on a board in any season (province level), to settle an ambiguous name."""

    army_to: dict[str, frozenset[str]]
    fleet_to: dict[str, frozenset[str]]
    fleet_support: dict[str, frozenset[str]]  # fleets also support into bordering ice (Arctic rule)
    army_stand: frozenset[str]
    fleet_stand: frozenset[str]
    sea: frozenset[str]
    coastal: frozenset[str]
    centres: frozenset[str]
    water: dict[str, frozenset[str]]  # water borders, province to province

    @classmethod
    def of(cls, board: Board) -> "Reach":
        """Computed once per board, over every season."""
        army: dict[str, set[str]] = {p: set() for p in board.provinces}
        fleet: dict[str, set[str]] = {p: set() for p in board.provinces}
        army_stand: set[str] = set()
        fleet_stand: set[str] = set()
        sea: set[str] = set()
        coastal: set[str] = set()
        for season in board.seasons:
            view = board.season(season)
            for o, ds in view.army_next.items():
                army[o].update(ds)
            for o, ds in view.fleet_next.items():
                fleet[o.partition("/")[0]].update(d.partition("/")[0] for d in ds)
            army_stand |= view.army_stand
            fleet_stand |= {loc.partition("/")[0] for loc in view.fleet_stand}
            sea |= view.sea
            coastal |= {loc.partition("/")[0] for loc in view.coastal}
        support = {p: frozenset(fleet[p] | {q for loc in board.locations(p) for q in board.location_water_adj.get(loc, ())})
                   for p in board.provinces}
        return cls({p: frozenset(v) for p, v in army.items()}, {p: frozenset(v) for p, v in fleet.items()}, support,
                   frozenset(army_stand), frozenset(fleet_stand), frozenset(sea), frozenset(coastal),
                   frozenset(board.centres), dict(board.water_adj))

    def stands(self, unit_type: str, place: str) -> bool:
        """A unit of this type may stand there in some season."""
        return place in (self.army_stand if unit_type == ARMY else self.fleet_stand)

    def moves(self, unit_type: str, origin: str, dest: str, via: bool) -> int:
        """How well a move fits the board: DIRECT (it borders), less for a convoy the more fleets it needs
        (`convoy_score`), 0 when it can never be made."""
        direct = dest in (self.army_to if unit_type == ARMY else self.fleet_to).get(origin, ())
        if unit_type == FLEET:
            return DIRECT if direct else 0
        if direct and not via:
            return DIRECT
        return self.convoy_score(origin, dest)

    def convoy_score(self, origin: str, dest: str, fleet: str | None = None) -> int:
        """BY_CONVOY divided by the number of fleets the shortest convoy from origin to dest needs (through
        `fleet`, when given); 0 when no chain of seas joins them."""
        if origin == dest or origin not in self.coastal or dest not in self.coastal:
            return 0
        from_origin, from_dest = self._fleets_from(origin), self._fleets_from(dest)
        if fleet is not None:
            if fleet not in from_origin or fleet not in from_dest:
                return 0
            needed = from_origin[fleet] + from_dest[fleet] - 1
        else:
            ends = [from_origin[q] for q in self.water.get(dest, ()) if q in from_origin]
            if not ends:
                return 0
            needed = min(ends)
        return max(1, BY_CONVOY // needed)

    def _fleets_from(self, place: str) -> dict[str, int]:
        """For each sea, the fewest fleets of a chain from `place` to it (it included)."""
        seas = self.sea
        hops = {q: 1 for q in self.water.get(place, ()) if q in seas}
        frontier = list(hops)
        while frontier:  # breadth first over the seas
            nxt = []
            for q in frontier:
                for n in self.water.get(q, ()):
                    if n in seas and n not in hops:
                        hops[n] = hops[q] + 1
                        nxt.append(n)
            frontier = nxt
        return hops

    def supports_into(self, unit_type: str, origin: str, place: str) -> bool:
        """A unit supports into a place it could move to (a fleet also into bordering ice)."""
        return place in (self.army_to if unit_type == ARMY else self.fleet_support).get(origin, ())

    def near(self, unit_type: str | None, place: str) -> set[str]:
        """The places a unit at `place` could reach (either type, when the type is not given)."""
        out: set[str] = set()
        if unit_type in (None, ARMY):
            out |= self.army_to.get(place, frozenset())
        if unit_type in (None, FLEET):
            out |= self.fleet_to.get(place, frozenset())
        return out


# The grammar's callbacks, run as the LALR table reduces: the order's kind and, for each unit or place, the
# positions (word indices) of its power, unit word, place and coast. The words' meanings are read afterwards.
def _ref(names: Sequence[str], values: list) -> tuple:
    power = unit = place = coast = None
    for name, value in zip(names, values):
        if name == "PLACE":
            place = value
        elif name == "UNIT":
            unit = value
        elif name == "POWER":
            power = value
        elif name == "coast":
            coast = value
    return power, unit, place, coast


def _order_shape(kind: str) -> Callable[[Sequence[str], list], tuple]:
    def shape(names: Sequence[str], values: list) -> tuple:
        refs = [v for n, v in zip(names, values) if n == "ref"]
        if kind == "move":  # a path (A yor - nth - bel) means by sea; the seas are kept (DATC 4.A.6)
            return kind, refs, "VIA" in names or len(refs) > 2
        return kind, refs, False
    return shape


_CALLBACKS: dict[str, Callable[[Sequence[str], list], Any]] = {
    "start": lambda names, values: values[0],
    "ref": _ref,
    "coast": lambda names, values: values[names.index("COAST")],
    **{rule: _order_shape(kind) for rule, kind in (
        ("hold", "hold"), ("move", "move"), ("retreat", "retreat"), ("support_hold", "support"),
        ("support_move", "support"), ("convoy", "convoy"), ("disband", "disband"), ("remove", "remove"),
        ("remove_sign", "remove"),  # `- F Bre`: a removal (the sheet reader reads it so in adjustment phases)
        ("build", "build"), ("waive", "waive"))},
}

# The parser's answer for each sequence of word codes (`UPMP` for every `A x - y`): the shape of an order
# depends on its codes alone. Every order of plain words up to TABLED_WORDS words long has its shape in a table
# built from the grammar once (`shape_table`: 2,415 shapes); the grammar runs for the others, its answers kept
# here (bounded).
_SHAPES: dict[str, tuple] = {}
_MAX_SHAPES = 4096
TABLED_WORDS = 9  # `Eng F nth S Eng A yor - bel`, the longest common order, has nine
_PLAIN_CODES = "UPWKMHSCYRDXBN+/"  # the codes a plain word may have (no parenthesis, no unknown word)
# How readings of a name of two places are scored (`OrderParser._score`): a reading wins only by a clear margin,
# more than SETTLE_RATIO times the next (a direct move over any convoy; a convoy by one fleet over one that needs
# three or more; any possible reading over impossible ones), else the order is refused naming both.
# (BY_CONVOY, not CONVOY: that is the convoy word's code, which this name once hid from `OrderParser._near`.)
DIRECT, BY_CONVOY, SETTLE_RATIO = 100_000, 1000, 2
MAX_ORDER_LENGTH = 500
MAX_READINGS = 20_000  # order texts kept per board (a game's phase has a few dozen; 8 boards at most: see parser_for)


@functools.lru_cache(maxsize=1)
def grammar() -> LalrTable:
    """The order grammar over word codes, `grammar/diplomacy.lark`: the same for every board, compiled once."""
    return LalrTable(grammar_text("diplomacy"), _CALLBACKS)


@functools.lru_cache(maxsize=1)
def shape_table() -> dict[str, tuple]:
    """The shape of every order of plain words up to TABLED_WORDS long, by its codes: built once from the
    grammar (its accepted sentences), so that an order read for the first time costs no parse."""
    table = grammar()
    return {codes: table.parse(codes) for codes in table.sentences(_PLAIN_CODES, TABLED_WORDS)}


class OrderParser:
    """Parses order text for one variant's board."""

    def __init__(self, board: Board, lexicon: Lexicon | None = None):
        self.board = board
        self.grammar = grammar()
        self.shapes = shape_table()
        self.board_refs = unit_refs(board)
        self.lexicon = lexicon or lexicon_of(board)  # (another: the case runner's jDip names, cases/jdip_names.py)
        self.reach = Reach.of(board)
        self.coast_aliases = _coast_aliases(board)
        # Spellings that name different spaces in different case (the Arctic's NWG / Nwg): written in any other
        # case they are refused, never settled by the unit (A17: abbreviations are case-sensitive).
        groups: dict[str, set[str]] = {}
        for spelling, ident in board.names.exact.items():
            if spelling not in board.names.shared:
                groups.setdefault(spelling.casefold(), set()).add(ident)
        self.case_pairs = frozenset(k for k, ids in groups.items() if len(ids) > 1)
        # For `_plain`: each plain piece's code, and what it means as a unit word, place (its one id), coast or power.
        fast = self.lexicon.fast
        self._code_of = self.lexicon.codes.__getitem__
        self._may_join = re.compile("|".join(map(re.escape, sorted(self.lexicon.join_codes))) or "(?!)")
        self._meant = {piece: m[0] if code == PLACE else m for piece, (code, m) in fast.items()}
        self._power_meant = {**{piece: m for piece, (code, m) in fast.items() if code == POWER}, **self.lexicon.dual}
        self.readings: dict[str, Reading] = {}  # order text -> what the grammar made of it
        self.refs: dict[tuple, UnitRef] = {}  # (type, place, coast, power) -> the one UnitRef of it

    # ----- step 1: words -------------------------------------------------------------------------------
    def words(self, text: str) -> list[Word]:
        """The words of an order, each read with one lookup (a name of several words is one word)."""
        return self._words(text)[0]

    def _words(self, text: str, pieces: list[str] | None = None) -> tuple[list[Word], bool]:
        """The words, and whether one of them is a name of two places (only then is there anything to settle);
        `pieces`: the text's, when already split."""
        if pieces is None:
            pieces = pieces_of(text)  # words and symbols; blanks are skipped (they only separate)
        single, phrases, prefixes = self.lexicon.single, self.lexicon.phrases, self.lexicon.prefixes
        out: list[Word] = []
        previous: str | None = None
        pending = False  # a word read as a place that may be a power instead: the next word settles it
        two_places = False
        i, n = 0, len(pieces)
        while i < n:
            piece = pieces[i]
            if piece[0].isalnum():
                key = piece.casefold()
                reading = single.get(key)
                j = i
                if key not in prefixes:  # a word that is a name or an order word by itself
                    if reading is not None:
                        out.append(Word(reading[0], reading[1], i, piece))
                        previous = reading[0]
                        two_places = two_places or (reading[0] == PLACE and len(reading[1]) > 1)
                        i += 1
                        continue
                    best, last = (key if key in phrases else None), i
                else:
                    best, last = (key if key in phrases else None), i
                    while key in prefixes:  # a name of several words: extend while some name starts so
                        k = _next_word(pieces, j)
                        if k is None:
                            break
                        key = key + " " + pieces[k].casefold()
                        j = k
                        if key in phrases:
                            best, last = key, j
                if best is None:
                    if piece.casefold() in ARTICLES:
                        i += 1  # `the North Sea`: an article is no part of the order
                        continue
                    # `Gulf of Bothnya`: the words read as the start of a name are one unknown word
                    out.append(Word(UNKNOWN, None, i, "".join(_spaced(pieces[i:j + 1])) if j > i else piece))
                    previous = UNKNOWN
                    i = j + 1
                    continue
                raw = piece if last == i else "".join(_spaced(pieces[i:last + 1]))
                reading = single.get(best)
                power = None
                if reading is None:
                    reading, power = _choose(phrases[best], previous)
                    pending = pending or power is not None
                out.append(Word(reading[0], reading[1], i, raw, power))
                previous = reading[0]
                two_places = two_places or (reading[0] == PLACE and len(reading[1]) > 1)
                i = last + 1
                continue
            if piece == ".":
                if not (i > 0 and (pieces[i - 1][0].isalnum() or pieces[i - 1] == ".") or i == n - 1):
                    column = _column(text, i)
                    raise OrderError(f"a full stop at column {column} is no part of an order (a full stop may "
                                     "end an abbreviation, as in 'Ber.', or the order)", column=column)
                i += 1
                continue
            code = _SYMBOLS.get(piece)
            if code is None:
                if piece in ",;:":
                    raise OrderError(f"unexpected {piece!r}: one order here (write several orders on separate "
                                     "lines, or separated by ';')", column=_column(text, i))
                code = UNKNOWN
            if code == RPAR and len(out) >= 2 and out[-1].code == VIA and out[-2].code == LPAR:
                via = out.pop()
                out[-1] = Word(VIA, None, out[-1].at, "(" + via.text + ")")  # `(via convoy)` is one word
            else:
                out.append(Word(code, None, i, piece))
            previous = out[-1].code
            i += 1
        if pending:
            _settle_powers(out)
        return out, two_places

    # ----- steps 2 and 3 -------------------------------------------------------------------------------
    def read(self, text: str, suggest: bool = True, units: Any = None) -> Reading:
        """The Reading of one order; an OrderError otherwise."""
        # (the pieces when each blank-separated chunk is one: then `_plain` reads them)
        plain = self._plain(text, text.split()) if len(text) <= MAX_ORDER_LENGTH else None
        return plain if plain is not None else self._read_further(text, suggest, units)

    def _read_further(self, text: str, suggest: bool = True, units: Any = None) -> Reading:
        """`read` once `_plain` has not read the text's blank-separated chunks."""
        if not text.strip():
            raise OrderError("empty order", column=1)
        if len(text) > MAX_ORDER_LENGTH:  # bounded work for any input (the longest real order is ~100)
            raise OrderError(f"an order of {len(text):,} characters; an order has at most {MAX_ORDER_LENGTH:,}",
                             column=1)
        pieces = pieces_of(text)
        if len(pieces) != len(text.split()):  # a chunk of several pieces (`stp/nc`): one of them may be plain
            plain = self._plain(text, pieces)
            if plain is not None:
                return plain
        words, two_places = self._words(text, pieces)
        if not words:
            raise OrderError(f"no order in {text.strip()!r}", column=1)
        if "(" in text or ")" in text:
            _check_parentheses(words, text)
        try:
            codes = "".join([w[0] for w in words])
            kind, refs, via = self.shapes.get(codes) or _shape(self.grammar, codes)
        except UnexpectedTerminal as exc:
            raise self._explain(exc, text, words, suggest) from None
        return self._build(kind, refs, via, words, text, units, two_places)

    def _plain(self, text: str, pieces: list[str] | None = None) -> Reading | None:
        """`read` for an order of plain words only, the common case: every piece one word by itself, with one
        reading (`lexicon.fast`), none the start of a longer name here but a two-word phrase (`via convoy`, one
        piece then), no parenthesis. Its words are its pieces, so no Word is made; None for any other order (and
        for one the grammar refuses: `read` explains it). A piece of `text.split()` that `pieces_of` would split
        further is in no table here (each key of `lexicon.codes` is one piece), so the split may be given."""
        if pieces is None:
            pieces = pieces_of(text)
        code_of = self._code_of
        try:
            codes = "".join(map(code_of, pieces))
        except KeyError:  # a piece that is not a plain word
            return None
        two = False
        if not codes.isupper():  # (marked codes: see `Lexicon.codes`)
            if not codes:
                return None
            two = TWO_PLACES in codes
            if two:
                codes = codes.replace(TWO_PLACES, PLACE)
            if not codes.isupper():  # a piece that may start a longer name
                if self._may_join.search(codes):  # (and a word that may continue it after it: `S C`, not `S A`)
                    joined = self._joined(pieces, codes)  # `via convoy` is one piece here; `S.C.` is no order
                    if joined is None:
                        return None
                    if joined is not pieces:
                        pieces, codes = joined, "".join(map(code_of, joined)).replace(TWO_PLACES, PLACE)
                codes = codes.upper()
        if DUAL in codes:
            codes = _plain_codes(codes)
        shape = self.shapes.get(codes)
        if shape is None:
            try:
                shape = _shape(self.grammar, codes)
            except UnexpectedTerminal:
                return None
        kind, refs, via = shape
        if two:
            return self._plain_settled(text, pieces, codes, kind, refs, via)
        meant, tabled, known, made = self._meant, self.board_refs, self.refs, []
        for power_i, unit_i, place_i, coast_i in refs:
            key = (None if unit_i is None else meant[pieces[unit_i]], meant[pieces[place_i]],
                   None if coast_i is None else meant[pieces[coast_i]],
                   None if power_i is None else self._power_meant[pieces[power_i]])
            ref = tabled.get(key) or known.get(key)
            if ref is None:
                if key[2] is not None and key[1] in self.coast_aliases:
                    return None  # a coast the board may name otherwise: `_unit_ref` says how it was read
                ref = self._kept_ref(key)
            made.append(ref)
        return _reading(kind, made, via, ())

    def _plain_settled(self, text: str, pieces: list[str], codes: str, kind: str, refs: list[tuple],
                       via: bool) -> Reading | None:
        """`_plain` for an order with a name of two places (`A tyr - tri`): its Words made from its pieces (one
        each), settled and built by `_build` as the general reader's; None when that fails (`read` explains)."""
        lexicon = self.lexicon
        fast, two, dual = lexicon.fast, lexicon.two_places, lexicon.dual
        words = [Word(code, two[piece] if piece in two else dual[piece] if code == POWER and piece in dual
                      else fast[piece][1], i, piece) for i, (code, piece) in enumerate(zip(codes, pieces))]
        try:
            return self._build(kind, refs, via, words, text)
        except OrderError:
            return None

    def _joined(self, pieces: list[str], codes: str) -> list[str] | None:
        """The pieces with each two-word phrase of `lexicon.pairs` (`via convoy`) as one piece (the same list when
        there is none); None when a word that may start a longer name (`S` of `S.C.`) is followed by one that
        continues another name. `codes`: the pieces' marked codes (a name of two places read as PLACE), whose lower-case
        letters are the words that may start a longer name."""
        continues, pairs = self.lexicon.continues, self.lexicon.pairs
        joins: list[tuple[int, str]] = []
        taken = -1
        for i, code in enumerate(codes):
            if not code.islower() or i == taken:  # (`taken`: the second word of a phrase joined)
                continue
            k = _next_word(pieces, i)
            if k is not None and pieces[k].casefold() in continues[pieces[i]]:
                joined = pairs.get((pieces[i].casefold(), pieces[k].casefold())) if k == i + 1 else None
                if joined is None:
                    return None
                joins.append((i, joined))
                taken = k
        if not joins:
            return pieces
        out = list(pieces)
        for i, joined in reversed(joins):
            out[i:i + 2] = [joined]
        return out

    def parse(self, text: str, line: int | None = None, file: str | None = None, column_offset: int = 0,
              power: str | None = None, use_cache: bool = True, suggest: bool = True, units: Any = None) -> Order:
        """Parse one order; an OrderError names the column, what was expected, and close place names
        (`suggest=False`: none, for a sheet that has had its share of suggestions worked out). `units`, the
        places of the ordering power's units, settles a name of two places that the order alone does not.

        The same text always reads the same way, so readings are kept (bounded): order texts repeat from
        phase to phase and game to game. `use_cache=False` always reads the text anew (for measuring it)."""
        reading = self.readings.get(text) if use_cache else None
        if reading is None:
            try:  # (`read`, with its first step here: one call less for the common order)
                reading = self._plain(text, text.split()) if len(text) <= MAX_ORDER_LENGTH else None
                if reading is None:
                    reading = self._read_further(text, suggest)
            except OrderError as exc:
                try:
                    if units is None or not isinstance(exc, AmbiguousOrder):
                        raise
                    reading = self.read(text, suggest, units)  # not kept: it depends on the position
                    return new_order(*reading[:6], power, text.strip(), line, reading[6], reading[7])
                except OrderError as final:
                    error = UnknownPlace if isinstance(final, UnknownPlace) else OrderError
                    raise error(final.message, file=file, line=line, suggestions=final.suggestions,
                               column=(final.column or 1) + column_offset) from None
            if use_cache:
                if len(self.readings) >= MAX_READINGS:
                    self.readings.clear()
                self.readings[text] = reading
        kind, unit, target, dest, coast, via, notes, path = reading
        return new_order(kind, unit, target, dest, coast, via, power, text.strip(), line, notes, path)

    def _build(self, kind: str, refs: list[tuple], via: bool, words: list[Word], text: str,
               units: Any = None, two_places: bool = True) -> Reading:
        notes: list[str] = []
        choice: dict[int, str] = {}
        if two_places and any(w.code == PLACE and len(w.meaning) > 1 and len(self._places(w)) > 1 for w in words):
            choice = self._settle(kind, refs, via, words, notes, text, units)
        made = [self._unit_ref(r, words, choice, notes) for r in refs]
        return _reading(kind, made, via, tuple(notes))

    def _places(self, word: Word) -> tuple[str, ...]:
        ids = word.meaning
        if len(ids) > 1:  # exact case decides between names differing only by case (A17)
            n = normalise(word.text)
            names = self.board.names
            if n in names.exact and n not in names.shared and names.exact[n] in ids:
                return (names.exact[n],)
        return ids

    def _unit_ref(self, ref: tuple, words: list[Word], choice: dict[int, str], notes: list[str]) -> UnitRef:
        power_i, unit_i, place_i, coast_i = ref
        place = words[place_i]
        ids = place[1]
        province = choice.get(place_i) or (ids[0] if len(ids) == 1 else self._places(place)[0])
        coast = words[coast_i][1] if coast_i is not None else None
        unit_type = words[unit_i][1] if unit_i is not None else None
        power = words[power_i][1] if power_i is not None else None
        key = (unit_type, province, coast, power)
        known = self.board_refs.get(key) or self.refs.get(key)
        if known is not None:  # one value per unit as written: built once per board, not once per order
            return known
        if coast is not None:
            p = self.board.provinces[province]
            alias = self.coast_aliases.get(province, {}).get(coast)
            if p.coasts and coast not in p.coasts and alias:
                notes.append(f"read {words[coast_i].text!r} of {p.name} as {province}/{alias}, the board's "
                             f"name for that coast")
                return UnitRef(unit_type, province, alias, power)  # not kept: the note must be made each time
        return self._kept_ref(key)

    def _kept_ref(self, key: tuple) -> UnitRef:
        """A new UnitRef of (type, place, coast, power), kept as the one value of that unit as written."""
        ref = new_unit_ref(*key)
        if len(self.refs) < 100_000:  # bounded by the board (types x places x coasts x powers) and by this
            self.refs[key] = ref
        return ref

    def _settle(self, kind: str, refs: list[tuple], via: bool, words: list[Word], notes: list[str],
                text: str, units: Any = None) -> dict[int, str]:
        """Choose the reading of each ambiguous place that the order's units could carry out (and, given the
        places that hold the ordering power's units, the place of the ordered unit)."""
        slots = [r[2] for r in refs]
        options = [self._places(words[i]) for i in slots]
        names = self.board.names
        for i, opts in zip(slots, options):
            if len(opts) > 1 and normalise(words[i].text).casefold() in self.case_pairs:
                try:
                    names.lookup(words[i].text)
                except AdjudicatorError as exc:
                    raise OrderError(exc.message, column=_column(text, words[i].at)) from None
        if units is not None and slots and len(options[0]) > 1 and kind != "build":
            held = tuple(p for p in options[0] if p in units)
            if len(held) == 1:  # the position settles it: only one of the places holds the power's unit
                others = ", ".join(names.display[p] for p in options[0] if p != held[0])
                notes.append(f"read {words[slots[0]].text!r} as {names.display[held[0]]} ({held[0]}), not {others}: "
                             f"the unit ordered is there")
                options[0] = held
        own = [names.own_id(words[i].text, opts) if len(opts) > 1 else opts[0] for i, opts in zip(slots, options)]
        scored = []
        for combo in itertools.product(*options):
            scored.append((self._score(kind, refs, via, words, combo), combo))
        top = max(s for s, _ in scored)
        best = [c for s, c in scored if s == top]
        second = max([s for s, c in scored if s < top] or [0])
        named = [p for p in own if p is not None]
        own_combo = tuple(named) if len(named) == len(own) else None
        if top > 0 and len(best) == 1 and top > SETTLE_RATIO * second:
            chosen = best[0]
        elif own_combo is not None and (own_combo in best or top == 0):
            chosen = own_combo  # a space's own id (`tyr`) stands when nothing settles it otherwise
        else:
            i = next(s for s, opts in zip(slots, options) if len(opts) > 1)
            w = words[i]
            both = " or ".join(f"{names.display[p]} ({p})" for p in self._places(w))
            why = "either" if top > 0 else "neither"
            raise AmbiguousOrder(f"ambiguous place {w.text!r}: it could be {both}, and the order's units could "
                             f"reach {why}; write the place's id", column=_column(text, w.at),
                             suggestions=[f"{names.display[p]} ({p})" for p in self._places(w)])
        for i, opts, pick, own_pick in zip(slots, options, chosen, own):
            if len(opts) > 1 and pick != own_pick:
                others = ", ".join(names.display[p] for p in opts if p != pick)
                notes.append(f"read {words[i].text!r} as {names.display[pick]} ({pick}), not {others}: only that "
                             f"reading fits where the order's units can go")
        return dict(zip(slots, chosen))

    def _score(self, kind: str, refs: list[tuple], via: bool, words: list[Word], combo: tuple[str, ...]) -> int:
        """How well a reading of the order fits the board: DIRECT when its units could carry it out as read,
        less when a move needs a convoy (the more fleets, the less), 0 when it never could. (`_settle` scores
        orders that name a unit: every place is in one of `refs`, `combo` a place for each.)"""
        r = self.reach
        types: list[str | None] = [words[ref[1]].meaning if ref[1] is not None else None for ref in refs]
        best = 0
        u = combo[0]
        first = types[0]
        for t in [first] if first else [ARMY, FLEET]:
            if not r.stands(t, u):
                continue
            if kind in ("hold", "disband", "remove"):
                score = DIRECT
            elif kind == "build":
                score = DIRECT if u in r.centres else 0
            elif kind in ("move", "retreat"):
                score = r.moves(t, u, combo[-1], via and kind == "move")
            elif kind == "support":
                score = 0
                for tt in [types[1]] if types[1] else [ARMY, FLEET]:
                    if not r.stands(tt, combo[1]):
                        continue
                    if len(combo) == 2:
                        s = DIRECT if r.supports_into(t, u, combo[1]) else 0
                    else:
                        s = min(DIRECT if r.supports_into(t, u, combo[2]) else 0, r.moves(tt, combo[1], combo[2], False))
                    score = max(score, s)
            elif kind == "convoy":
                ok = (t == FLEET and u in r.sea and r.stands(ARMY, combo[1]) and r.stands(ARMY, combo[2]))
                score = r.convoy_score(combo[1], combo[2], fleet=u) if ok else 0
                if ok and u in r.water.get(combo[1], ()) and u in r.water.get(combo[2], ()):
                    score = DIRECT  # the fleet alone carries the army
            else:
                score = DIRECT
            best = max(best, score)
        return best

    def _explain(self, exc: UnexpectedTerminal, text: str, words: list[Word], suggest: bool = True) -> OrderError:
        """An error that names the word, the column, what was expected, and the places meant."""
        allowed = set(exc.expected)
        index = exc.index
        if index is None:  # the end came too early
            expected = or_list(sorted({_TERMINAL_WORDS.get(t, t.lower()) for t in allowed}))
            return OrderError(f"the order ends too early; expected {expected}", column=len(text.rstrip()) + 1)
        word = words[index]
        column = _column(text, word.at)
        expected = or_list(sorted({_TERMINAL_WORDS.get(t, t.lower()) for t in allowed if not t.startswith("__")}))
        if word.code == UNKNOWN and word.text[:1].isalnum() and allowed & {"PLACE", "UNIT", "POWER"}:
            name = self._misspelt_name(words, index, with_previous=False) if suggest else None
            # the word is named; the suggestions are for it with the next word when that reads better (`Nrth Sea`)
            return UnknownPlace(f"unknown place {word.text!r}", column=column, suggestions=name[2] if name else [])
        pair = (index - 1 if word.code == UNKNOWN else index) if suggest else -1
        if (pair > 0 and pair + 1 < len(words) and words[pair].code in (PLACE, COAST)
                and words[pair + 1].code == UNKNOWN and len(words[pair + 1].text) > 1):
            name = self._misspelt_name(words, pair + 1, with_previous=True, cutoff=75, pair=True)
            if name is not None:  # `Mid Atlantik`, `Irish Se`, `North Afirca`: a misspelt name of two words
                first, shown, hints = name
                return UnknownPlace(f"unknown place {shown!r}", column=_column(text, words[first].at),
                                    suggestions=hints)
        if word.code == UNKNOWN and word.text[:1].isalnum():
            return OrderError(f"unexpected {word.text!r}; expected {expected}", column=column)
        if index > 0 and words[index - 1].code == LPAR:
            return OrderError(f"unexpected {word.text!r} after the '(' at column {_column(text, words[index - 1].at)}: "
                              f"parentheses may hold a coast, 'via convoy' or the unit's place, as in 'A(Vie)-Bud'; "
                              f"expected {expected}", column=column)
        if word.code in (LPAR, RPAR):
            return OrderError(f"a parenthesis is out of place here (column {column}): parentheses may hold "
                              f"a coast, 'via convoy' or the unit's place, as in 'A(Vie)-Bud'; expected {expected}",
                              column=column)
        return OrderError(f"unexpected {word.text!r}; expected {expected}", column=column)

    def _misspelt_name(self, words: list[Word], index: int, with_previous: bool, cutoff: float = 0,
                       pair: bool = False) -> tuple[int, str, list[str]] | None:
        """The misspelt place around word `index`, as one word or two (`Nrth Sea`, `Mid Atlantik`): the
        span whose closest place is closest, its first word, its text and the suggestions (`pair`: only the
        unknown word with the known word before it)."""
        def wordlike(i: int) -> bool:
            return 0 <= i < len(words) and words[i].text[:1].isalnum() and words[i].code in (UNKNOWN, PLACE, COAST)

        if pair:
            starts, ends = [index - 1], [index]
        else:
            starts = [index - 1, index] if with_previous and wordlike(index - 1) and index - 1 > 0 else [index]
            ends = [index, index + 1] if wordlike(index + 1) else [index]
        best: tuple[float, int, int] | None = None
        for a in starts:
            prefer, fits = self._near(words[:a]), self._fitting(words[:a])
            for b in ends:
                ranked = self.board.names.rank(" ".join(w.text for w in words[a:b + 1]), prefer, fits=fits)
                if ranked and ranked[0][1] >= cutoff and (best is None or ranked[0][1] > best[0]):
                    best = (ranked[0][1], a, b)
        if best is None:
            return None
        _, a, b = best
        shown = " ".join(w.text for w in words[a:b + 1])
        return a, shown, self.board.names.suggest(shown, prefer=self._near(words[:a]), fits=self._fitting(words[:a]))

    def _fitting(self, before: list[Word]) -> frozenset[str]:
        """The places where the order's unit could stand, when the words before an unknown one name its type."""
        unit_type = next((w.meaning for w in before if w.code == UNIT), None)
        if unit_type is None:
            return frozenset()
        return self.reach.army_stand if unit_type == ARMY else self.reach.fleet_stand

    def _near(self, before: list[Word]) -> set[str]:
        """The places the order's unit could reach, from the words before an unknown one."""
        places = [w for w in before if w.code == PLACE]
        if not places:
            return set()
        unit_type = next((w.meaning for w in before if w.code == UNIT), None)
        near: set[str] = set()
        for p in self._places(places[0]):
            near |= self.reach.near(unit_type, p)
        if any(w.code in (SUPPORT, CONVOY) for w in before) and len(places) == 1:
            for q in list(near):  # a supported or convoyed unit stands next to where the supporter reaches
                near |= self.reach.near(None, q)
        return near


def _shape(table: LalrTable, codes: str) -> tuple:
    """(kind, refs, via) for an order's word codes: the grammar's answer, kept per sequence of codes."""
    shape = _SHAPES.get(codes)
    if shape is None:
        shape = table.parse(codes)
        if len(_SHAPES) >= _MAX_SHAPES:
            _SHAPES.clear()
        _SHAPES[codes] = shape
    return shape


def _reading(kind: str, made: list[UnitRef], via: bool, notes: tuple[str, ...]) -> Reading:
    """The Reading of the units and places an order names."""
    unit = made[0] if made else None
    if kind in ("move", "retreat"):
        dest = made[-1]
        path = tuple(ref.province for ref in made[1:-1]) if len(made) > 2 else ()
        return kind, unit, None, dest.province, dest.coast, via, notes, path
    if kind in ("support", "convoy"):
        aim = made[2] if len(made) > 2 else None
        return kind, unit, made[1], aim.province if aim else None, aim.coast if aim else None, False, notes, ()
    return kind, unit, None, None, None, False, notes, ()


def _next_word(pieces: list[str], j: int) -> int | None:
    """The index of the word after word `j` when they may be two words of one name: side by side, or joined
    by a hyphen (`Mid-Atlantic`) or a full stop (`St. Petersburg`, `N.C.`)."""
    k = j + 1
    if k < len(pieces) and pieces[k] in ("-", "."):
        k += 1
    return k if k < len(pieces) and pieces[k][0].isalnum() else None


def _spaced(pieces: list[str]) -> list[str]:
    """The pieces of a name of several words, as one text (`Mid-Atlantic Ocean`)."""
    out: list[str] = []
    for p in pieces:
        if out and p[0].isalnum() and out[-1][-1].isalnum():
            out.append(" ")
        out.append(p)
    return out


def _column(text: str, at: int) -> int:
    """The column (1-based) of the piece with index `at`."""
    for index, m in enumerate(_PIECES.finditer(text)):
        if index == at:
            return m.start() + 1
    return len(text.rstrip()) + 1


def _choose(readings: tuple[tuple[str, Any], ...], previous: str | None) -> tuple[tuple[str, Any], str | None]:
    """The reading of a word with several (a place or an order word, a place or a power) that the word before
    allows, and the power it may be instead when it may be a place or a power (the next word settles it)."""
    allowed = [r for r in readings if r[0] in _FOLLOWS.get(previous, frozenset())] or list(readings)
    codes = {c for c, _ in allowed}
    if codes == {PLACE, POWER}:
        return next(r for r in allowed if r[0] == PLACE), next(m for c, m in allowed if c == POWER)
    return (next((r for r in allowed if r[0] == PLACE), allowed[0])), None


def _plain_codes(codes: str) -> str:
    """The codes of a plain order with each word that may be a place or a power (DUAL) read as `_words` reads
    it: the reading the word before allows (`_choose`), and when both are, a power if a unit or a place follows
    it (`_settle_powers`), else a place."""
    out = list(codes)
    for i, code in enumerate(codes):
        if code == DUAL:
            before = PLACE if i and codes[i - 1] == DUAL else (codes[i - 1] if i else None)
            allowed = {c for c in (PLACE, POWER) if c in _FOLLOWS.get(before, frozenset())} or {PLACE, POWER}
            after = PLACE if i + 1 < len(codes) and codes[i + 1] == DUAL else (codes[i + 1] if i + 1 < len(codes) else None)
            out[i] = POWER if allowed == {POWER} or (len(allowed) == 2 and after in (UNIT, PLACE)) else PLACE
    return "".join(out)


def _settle_powers(words: list[Word]) -> None:
    """A word that may be a power or a place is a power when a unit or a place follows it (`Eng F Lon`)."""
    for i, w in enumerate(words[:-1]):
        if w.power is not None and words[i + 1].code in (UNIT, PLACE):
            words[i] = Word(POWER, w.power, w.at, w.text)


def _check_parentheses(words: list[Word], text: str) -> None:
    """A parenthesis that is not closed, or closed without being opened, is named as the problem."""
    opened: list[Word] = []
    for w in words:
        if w.code == LPAR:
            opened.append(w)
        elif w.code == RPAR:
            if not opened:
                column = _column(text, w.at)
                raise OrderError(f"a ')' at column {column} closes no '('", column=column)
            opened.pop()
    if opened:
        column = _column(text, opened[-1].at)
        raise OrderError(f"the parenthesis opened at column {column} is not closed", column=column)


def lexicon_of(board: Board) -> Lexicon:
    """Every spelling of the board's places, powers, coasts and unit words, and the order words."""
    lex = Lexicon()
    for code, spellings in KEYWORDS.items():
        for s in spellings:
            lex.add(s, code, None)
    unit_words = {k: list(v) for k, v in DEFAULT_UNIT_WORDS.items()}
    for unit_type, extra in (board.raw.get("unit_words") or {}).items():
        unit_words.setdefault(str(unit_type).upper()[:1], []).extend(str(x) for x in extra or ())
    for unit_type, words in unit_words.items():
        for s in words:
            lex.add(s, UNIT, unit_type)
    for key, names in board.coast_names.items():
        for s in [key, *names]:
            lex.add(s, COAST, key)
    for spelling, ids in board.names.folded.items():
        lex.add(spelling, PLACE, tuple(sorted(ids)))
    for spelling, power in board.power_names.exact.items():
        lex.add(spelling, POWER, power)
    lex.finish()
    return lex


def _coast_aliases(board: Board) -> dict[str, dict[str, str]]:
    """Per space, coast spellings that sites use for another coast (`coast_aliases: {nc: ec}` on Bulgaria:
    webDiplomacy's "Bulgaria (North Coast)" is the east coast)."""
    out: dict[str, dict[str, str]] = {}
    for entry in board.raw.get("provinces") or []:
        if isinstance(entry, dict) and entry.get("coast_aliases"):
            out[str(entry["id"])] = {board.coast_key(str(k)): str(v) for k, v in entry["coast_aliases"].items()}
    return out


@functools.lru_cache(maxsize=8)
def parser_for(board: Board) -> OrderParser:
    """The (cached) order parser of a board."""
    return OrderParser(board)


def parse_order(board: Board, text: str, line: int | None = None, file: str | None = None, column_offset: int = 0,
                power: str | None = None, use_cache: bool = True) -> Order:
    """Parse one order for a board (given by `power`, when known)."""
    return parser_for(board).parse(text, line, file, column_offset, power, use_cache)
