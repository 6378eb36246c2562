"""The fast ways of reading orders (issue 17) give what the slow ways give: the LALR table run by
`lalr_table` against Lark's own parser, `pieces_of` against the regex, the plain-word path against the
general reader, and the hot-path constructors against the dataclasses."""

from __future__ import annotations

import dataclasses
import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedInput

from adjudicator.catalogue import load_variant
from adjudicator.errors import OrderError
from adjudicator.grammar_tools import grammar_text
from adjudicator.lalr_table import LalrTable, UnexpectedTerminal
from adjudicator.games.diplomacy.orders import parse as P
from adjudicator.games.diplomacy.orders.model import ORDER_CLASSES, Move, UnitRef, new_order, new_unit_ref, _UnitRefSlots
from adjudicator.games.diplomacy.orders.parse import OrderParser, grammar, pieces_of
from adjudicator.games.diplomacy.state import opening_state

CODES = "UPWKMHSCYRDXBN+()/?"


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(grammar_text("diplomacy"), parser="lalr", maybe_placeholders=False)


@pytest.fixture(scope="module")
def lark_parser() -> Lark:
    return _lark()


def _shape_of_tree(tree) -> tuple:
    """The order's shape from Lark's own tree, written independently of the table's callbacks."""
    kinds = {"support_hold": "support", "support_move": "support", "remove_sign": "remove"}
    order = tree

    def ref(node) -> tuple:
        power = unit = place = coast = None
        for child in node.children:
            if getattr(child, "data", None) == "coast":
                coast = next(t.start_pos for t in child.children if t.type == "COAST")
            elif child.type == "PLACE":
                place = child.start_pos
            elif child.type == "UNIT":
                unit = child.start_pos
            elif child.type == "POWER":
                power = child.start_pos
        return power, unit, place, coast

    refs = [ref(c) for c in order.children if getattr(c, "data", None) == "ref"]
    kind = kinds.get(order.data, order.data)
    if kind == "move":
        via = any(getattr(c, "type", None) == "VIA" for c in order.children)
        return kind, refs, via or len(refs) > 2  # (a path: every sea kept, DATC 4.A.6)
    return kind, refs, False


def _lark_answer(lark_parser: Lark, codes: str):
    try:
        return ("ok", _shape_of_tree(lark_parser.parse(codes)))
    except UnexpectedInput as exc:
        token = getattr(exc, "token", None)
        if token is not None and token.type == "$END":
            return ("error", None)
        return ("error", getattr(exc, "pos_in_stream", None))


def _table_answer(codes: str):
    try:
        return ("ok", grammar().parse(codes))
    except UnexpectedTerminal as exc:
        return ("error", exc.index)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=CODES, max_size=9))
def test_the_table_answers_as_lark_does_on_any_codes(codes: str) -> None:
    assert _table_answer(codes) == _lark_answer(_lark(), codes)


@pytest.mark.parametrize("codes", ["UPH", "UPMP", "UPMPY", "UPMPMPMPY", "UPSUPMP", "WUPSUPH", "UPCUPMP", "UP(K)MP/K",
                                   "U(P)MPK", "NB", "BN", "N", "BUP", "UPB", "+UP", "MUP", "DUP", "UPD", "XUP", "UPX",
                                   "UPRP", "UPRMP"])
def test_every_order_shape_agrees_with_lark(lark_parser: Lark, codes: str) -> None:
    answer = _table_answer(codes)
    assert answer[0] == "ok"
    assert answer == _lark_answer(lark_parser, codes)


def test_an_error_names_where_and_what_was_expected() -> None:
    with pytest.raises(UnexpectedTerminal) as exc:
        grammar().parse("UPMM")
    assert exc.value.index == 3 and exc.value.terminal == "MOVE"
    assert exc.value.expected == {"PLACE", "POWER", "UNIT"}
    with pytest.raises(UnexpectedTerminal) as end:
        grammar().parse("UPM")
    assert end.value.index is None and end.value.terminal == "$END"
    with pytest.raises(UnexpectedTerminal) as unknown:
        grammar().parse("UP?")
    assert unknown.value.index == 2 and "HOLD" in unknown.value.expected and "$END" in unknown.value.expected


def test_a_grammar_the_table_cannot_run_is_refused() -> None:
    with pytest.raises(KeyError, match="no callback"):
        LalrTable('start: A B\nA: "a"\nB: "b"\n', {})
    with pytest.raises(ValueError, match="one character"):
        LalrTable('start: A\nA: "ab"\n', {"start": lambda names, values: values})
    table = LalrTable('start: A _rest\n_rest: B*\nA: "a"\nB: "b"\n', {"start": lambda names, values: list(names)})
    assert table.parse("abb") == ["A", "B", "B"]  # an inlined rule's children go to its parent, as in Lark


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(list("aZé9 _-./()'’>=+,;:\t\u00a0ß") + ["->", "-->", "St.", "ǅ", "٣"]),
                max_size=30).map("".join))
def test_pieces_are_the_regex_pieces(text: str) -> None:
    assert pieces_of(text) == P._PIECES.findall(text)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_pieces_are_the_regex_pieces_on_any_text(text: str) -> None:
    assert pieces_of(text) == P._PIECES.findall(text)


def _general(board) -> OrderParser:
    """A parser of the board that never takes the plain-word path."""
    parser = OrderParser(board)
    parser._plain = lambda text, pieces=None: None  # type: ignore[method-assign]
    return parser


@pytest.mark.parametrize("variant", ["standard", "arctic"])
def test_the_plain_path_reads_as_the_general_reader(variant: str) -> None:
    board = load_variant(variant)
    fast, slow = OrderParser(board), _general(board)
    state = opening_state(board)
    rng = random.Random(17)
    places = sorted(board.provinces)
    spellings = [s for s in board.names.exact if " " not in s][:400]
    forms = [str, str.upper, str.lower, str.capitalize]
    texts = []
    for unit in state.units.values():
        for _ in range(6):
            here = rng.choice([unit.location, unit.province, rng.choice(spellings)])
            there = rng.choice(places + spellings)
            word = rng.choice(["-", "->", "to", "S", "s", "C", "H", "holds", "via", "moves to", "R", "Build", "+"])
            text = f"{unit.type} {here} {word} {there}" if word not in ("H", "holds") else f"{unit.type} {here} {word}"
            if word in ("S", "s", "C"):
                text += f" {rng.choice(['-', 'to'])} {rng.choice(places)}"
            texts.append(" ".join(rng.choice(forms)(w) for w in text.split()))
    plain = 0
    for text in texts:
        got = want = None
        try:
            got = fast.read(text)
        except Exception as exc:  # noqa: BLE001 - both must fail alike
            got = (type(exc).__name__, str(exc))
        try:
            want = slow.read(text)
        except Exception as exc:  # noqa: BLE001
            want = (type(exc).__name__, str(exc))
        assert got == want, text
        plain += fast._plain(text) is not None
    assert plain > len(texts) // 4  # the path is taken, not only fallen back from


def test_the_plain_path_leaves_names_of_several_words_and_parentheses_to_the_general_reader() -> None:
    board = load_variant("standard")
    parser = OrderParser(board)
    assert parser._plain("A par - bur") is not None and parser._plain("F stp/nc - bot") is not None
    for text in ("A mid - atlantic", "A (par) - bur", "A par - bur.", "F stp (nc) - bot", "A Mid-Atlantic - bre"):
        assert parser._plain(text) is None, text
        assert parser.read(text) == _general(board).read(text)


def test_names_of_two_places_are_settled_on_the_plain_path_as_the_general_reader_settles_them() -> None:
    board = load_variant("standard")
    fast, slow = OrderParser(board), _general(board)
    assert fast.lexicon.two_places["tyr"] == ("tyr", "tys") and "tyr" not in fast.lexicon.fast
    settled = fast._plain("F Tyr - ion")  # the fleet can only be on the sea: read so, with a note saying so
    assert settled == slow.read("F Tyr - ion") and settled[1].province == "tys" and "Tyrrhenian" in settled[6][0]
    assert fast._plain("A tyr - tri") == slow.read("A tyr - tri") and fast._plain("A tyr - tri")[6] == ()
    with pytest.raises(P.AmbiguousOrder):  # (either reading may be meant: the general reader explains it)
        fast.read("A liv H")
    assert fast._plain("A liv H") is None and fast._plain("tyr H") == slow.read("tyr H")  # (its own id stands)
    words = ["tyr", "Tyr", "TYR", "liv", "Liv", "A", "F", "a", "f", "-", "S", "C", "H", "ven", "tri", "rom", "ion",
             "nap", "lvp", "yor", "edi", "cly", "nao", "iri", "wal", "stp", "war", "mos", "bot", "pru", "vie", "boh",
             "mun", "pie", "gol", "tus", "wes", "lyo", "Eng", "R", "Build", "via", "convoy", "to", "sc", "/"]
    rng = random.Random(3)
    salad = {" ".join(rng.choice(words) for _ in range(rng.randint(2, 7))) for _ in range(3000)}
    assert _plain_agrees(fast, slow, salad) > 50  # (most word salad is no order: the general reader explains it)
    orders = set()
    for _ in range(3000):  # orders as written, with a name of two places in any of their places
        one, two, there = rng.choice(["tyr", "Tyr", "liv", "LIV"]), rng.choice(words[5:39]), rng.choice(words[5:39])
        orders.add(rng.choice([f"{rng.choice('AF')} {one} - {two}", f"{rng.choice('AF')} {two} - {one}",
                               f"{rng.choice('AF')} {two} S {rng.choice('AF')} {one} - {there}",
                               f"{rng.choice('AF')} {one} S {rng.choice('AF')} {two} - {there}",
                               f"F {two} C A {one} - {there}", f"{rng.choice('AF')} {one} H", f"Build A {one}"]))
    readable = set()
    for text in orders:
        try:
            slow.read(text)
            readable.add(text)
        except OrderError:
            pass
    assert len(readable) > 500 and _plain_agrees(fast, slow, orders) == len(readable)  # every one of them plain


def test_hot_path_constructors_make_the_same_objects() -> None:
    ref = UnitRef("F", "stp", "nc", "Russia")
    assert new_unit_ref("F", "stp", "nc", "Russia") == ref
    assert hash(new_unit_ref("F", "stp", "nc", "Russia")) == hash(ref)
    args = ("move", ref, None, "bot", None, False, "Russia", "F stp/nc - bot", 3, ("a note",))
    made, built = new_order(*args), Move(ref, "bot", None, False, (), "Russia", "F stp/nc - bot", 3, ("a note",))
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert type(made) is Move and dataclasses.astuple(made) == dataclasses.astuple(built)
    assert not hasattr(made, "__dict__") and not hasattr(new_unit_ref("A", "par", None, None), "__dict__")
    assert dataclasses.astuple(new_unit_ref("A", "par", None, None)) == ("A", "par", None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.dest = "fin"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        new_unit_ref("A", "par", None, None).province = "bur"  # type: ignore[misc]
    # Every kind's slotted twin keeps its dataclass's fields: a field added to one and not the other would make
    # `__class__` assignment fail at the first order read.
    for kind, cls in ORDER_CLASSES.items():
        one = new_order(kind, ref, ref, "bot", "nc", True, "Russia", "x", 3, (), ("nth",))
        assert type(one) is cls and not hasattr(one, "__dict__")
        assert dataclasses.astuple(one) == dataclasses.astuple(cls(**{f.name: getattr(one, f.name)
                                                                      for f in dataclasses.fields(cls)}))
    assert _UnitRefSlots.__slots__ == tuple(f.name for f in dataclasses.fields(UnitRef))


def test_distances_may_stop_once_the_wanted_provinces_have_theirs() -> None:
    board = load_variant("standard")
    full = board.distances_from(["par"])
    some = board.distances_from(["par"], ["mos", "lon"])
    assert some["mos"] == full["mos"] and some["lon"] == full["lon"]
    assert len(some) < len(full)
    assert board.distances_from(["par"], []) == {"par": 0}


def test_an_error_says_when_the_order_could_have_ended_there() -> None:
    parser = OrderParser(load_variant("standard"))
    with pytest.raises(OrderError, match=r"unexpected 'via'; expected build or the end of the order"):
        parser.read("waive via")
    with pytest.raises(OrderError, match=r"unexpected 'Eng'; expected the end of the order"):
        parser.read("par build Eng")


def _accepted(codes: str) -> bool:
    try:
        grammar().parse(codes)
        return True
    except UnexpectedTerminal:
        return False


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=P._PLAIN_CODES, max_size=P.TABLED_WORDS + 2))
def test_the_shape_table_holds_exactly_the_accepted_plain_orders(codes: str) -> None:
    table = P.shape_table()
    if len(codes) <= P.TABLED_WORDS:
        assert (codes in table) == _accepted(codes)
    else:
        assert codes not in table
    if codes in table:
        assert table[codes] == grammar().parse(codes)


def test_sentences_are_every_accepted_string_of_a_small_grammar() -> None:
    table = LalrTable('start: A B* C?\nA: "a"\nB: "b"\nC: "c"\n', {"start": lambda names, values: values})
    assert sorted(table.sentences("abc", 3)) == ["a", "ab", "abb", "abc", "ac"]
    assert sorted(P.shape_table()) == sorted(set(grammar().sentences(P._PLAIN_CODES, P.TABLED_WORDS)))


@pytest.mark.parametrize("variant", ["standard", "arctic"])
def test_orders_read_cold_name_the_boards_own_unit_refs(variant: str) -> None:
    board = load_variant(variant)
    parser = OrderParser(board)
    refs = P.unit_refs(board)
    unit = next(iter(opening_state(board).units.values()))
    for text in (f"{unit.type} {unit.location} H", f"{unit.location} h", f"{unit.type} {unit.location} S {unit.location}"):
        parser.refs.clear()
        parser.readings.clear()
        order = parser.parse(text)
        key = (order.unit.type, order.unit.province, order.unit.coast, None)
        assert order.unit is refs[key] and order.unit == UnitRef(*key)
        assert parser.refs == {}  # nothing made for this order
    assert all(ref == UnitRef(*key) for key, ref in refs.items())


def _plain_agrees(fast: OrderParser, slow: OrderParser, texts: set[str]) -> int:
    """How many texts the plain path reads; each reads as the general reader reads it (or the test fails)."""
    plain = 0
    for text in sorted(texts):
        try:
            want = slow.read(text)
        except OrderError as exc:
            want = str(exc)
        got = fast._plain(text)
        if got is not None:
            plain += 1
            assert got == want, text
    return plain


def test_a_word_that_may_be_a_place_or_a_power_reads_on_the_plain_path_as_the_general_reader() -> None:
    board = load_variant("standard")
    fast, slow = OrderParser(board), _general(board)
    assert fast.lexicon.dual["Eng"] == "England" and P.DUAL not in P._PLAIN_CODES
    words = ["eng", "Eng", "ENG", "F", "A", "lon", "nth", "-", "S", "C", "H", "bel", "English", "England", "R", "Build"]
    rng = random.Random(5)
    texts = {" ".join(rng.choice(words) for _ in range(rng.randint(1, 7))) for _ in range(4000)}
    texts |= {"F bre - eng", "Eng F lon - nth", "F lon S Eng F nth - eng", "eng H", "Eng eng H", "F eng S F nth",
              "F nth C Eng A lon - bel", "Build F eng", "eng eng F lon"}
    assert _plain_agrees(fast, slow, texts) > 100  # (most random texts are no order: the general reader explains those)


def test_two_word_phrases_read_on_the_plain_path_as_the_general_reader() -> None:
    board = load_variant("standard")
    fast, slow = OrderParser(board), _general(board)
    assert fast.lexicon.pairs["via", "convoy"] == "via convoy" and ("s", "c") in fast.lexicon.pairs
    assert all(" " not in p for p in pieces_of("A lon - nwy via convoy"))  # (a joined piece is never a piece)
    assert fast._plain("A lon - nwy via convoy") == slow.read("A lon - nwy via convoy")
    assert fast._plain("A lon - nwy via convoy")[5] is True
    words = ["via", "VIA", "Via", "convoy", "Convoy", "c", "C", "by", "north", "coast", "move", "moves", "to", "S",
             "s", ".", "A", "F", "lon", "nwy", "-", "stp", "bot", "H", "austria", "hungary", "spa", "sc", "/"]
    rng = random.Random(9)
    texts = {" ".join(rng.choice(words) for _ in range(rng.randint(2, 8))) for _ in range(2000)}
    ways = ["via convoy", "Via Convoy", "VIA CONVOY", "via c", "by convoy", "via", "via. convoy", "", "via convoy ."]
    coasts = ["sc", "south coast", "nc", "s c", "north coast"]
    for _ in range(2000):  # orders as written, with the phrases in their places
        move = rng.choice(["-", "move to", "moves to", "to", "->"])
        texts.add(rng.choice([f"A {rng.choice(['lon', 'wal', 'yor'])} {move} {rng.choice(['nwy', 'bel', 'lon'])} "
                              f"{rng.choice(ways)}",
                              f"F {rng.choice(['mid', 'wes', 'gol'])} {move} spa {rng.choice(coasts)}",
                              f"F nth S A lon {move} nwy {rng.choice(ways)}"]).strip())
    texts |= {"A lon - nwy Via Convoy", "A lon - nwy via c", "A lon via convoy - nwy", "F mid - spa south coast",
              "F mid S. C. spa", "A lon - nwy via. convoy", "A lon S A wal - nwy via convoy", "F spa s c - mid"}
    assert _plain_agrees(fast, slow, texts) > 250
    for text in ("A lon - nwy Via Convoy", "A lon -> nwy VIA CONVOY", "F nth S A lon - nwy via convoy",
                 "A lon - nwy via c", "F mid - spa s c"):
        assert fast._plain(text) is not None, text


@pytest.mark.parametrize("variant", ["standard", "arctic"])
def test_marked_codes_flag_each_piece_that_needs_more_than_its_lookup(variant: str) -> None:
    lexicon = OrderParser(load_variant(variant)).lexicon
    assert "(" not in lexicon.codes and lexicon.codes["S"] == "s" and lexicon.codes["-"] == P.MOVE
    for piece, code in lexicon.codes.items():
        assert " " in piece or pieces_of(piece) == [piece], piece  # one piece (a joined phrase has a blank)
        if piece in lexicon.two_places:
            assert code == P.TWO_PLACES and piece not in lexicon.continues
        elif piece in lexicon.continues:
            assert code.islower() and code.upper() == lexicon.fast[piece][0], piece
        else:
            assert not code.islower() and code == (P.DUAL if piece in lexicon.dual else lexicon.fast[piece][0])
    assert {p for p in lexicon.fast if lexicon.fast[p][0] != P.LPAR} | set(lexicon.two_places) == set(lexicon.codes) | {
        p for p in lexicon.continues if p in lexicon.dual or p in lexicon.two_places}


@pytest.mark.parametrize("variant", ["standard", "arctic"])
def test_codes_with_no_run_of_join_codes_have_nothing_to_join(variant: str) -> None:
    parser = OrderParser(load_variant(variant))
    lexicon, joinable = parser.lexicon, 0
    marked = lambda pieces: "".join(lexicon.codes[p] for p in pieces).replace(P.TWO_PLACES, P.PLACE)  # noqa: E731
    for first in [p for p in lexicon.continues if p in lexicon.codes]:
        for second in lexicon.codes:
            for pieces in ([first, second], [first, "-", second], ["A", first, second, "H"]):
                codes = marked(pieces)
                if parser._may_join.search(codes) is None:
                    assert parser._joined(pieces, codes) is pieces, pieces
                else:
                    joinable += 1
    assert joinable
    if variant == "standard":
        assert parser._may_join.search(marked(["F", "spa", "s", "c"]))
        assert parser._may_join.search(marked(["A", "mun", "S", "A", "par"])) is None  # a support: its words unread
