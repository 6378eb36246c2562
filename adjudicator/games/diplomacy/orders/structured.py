"""Orders as data: objects -> Order values, with no text and no grammar, for bots and programs.

A program that already holds its orders as values (an AI, a web client with buttons) gives each one as an
object; the orders then take the same road as a sheet's: the same validation against the position, the same
judge, the same report. Reading an object only checks its shape and resolves its names:

    {"power": "France", "kind": "move", "unit": "A par", "destination": "bur"}
    {"power": "England", "kind": "support", "unit": "F nth", "target": "A yor", "destination": "bel"}
    {"power": "Russia", "kind": "move", "unit": "F bot", "destination": "stp", "coast": "sc"}
    {"power": "England", "kind": "convoy", "unit": "F nth", "target": "A yor", "destination": "nwy"}
    {"power": "England", "kind": "move", "unit": "A yor", "destination": "nwy", "via_convoy": true}
    {"power": "Russia", "kind": "build", "unit": "F stp/nc"}      {"power": "Italy", "kind": "waive"}

Fields: `power` (a power's name or adjective), `kind` (hold, move, support, convoy, retreat, disband,
remove, build, waive), `unit` and `target` (`"A par"`, `"F stp/nc"`, `"Army Paris"`, a bare place, or
`{"type": "A", "location": "par"}`; the unit type may be left out: DATC 4.C, it is ignored), `destination`
(a place, `"stp/nc"` allowed), `coast` (the destination's coast, instead of writing it in `destination`),
`via_convoy` (a move only). Places are ids or any name the board knows (`"St Petersburg"`, `"NWG"`).

Like a sheet's bad line, a bad object never stops the others: it is a problem located by a JSON pointer into
the list (`/3/destination`), with the reason and, for a misspelt name, the closest names. The `line` of an
order (and of its report line) is its position in the list, from 1.
"""

from __future__ import annotations

import difflib
import json
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.games.diplomacy.orders.model import ORDER_KINDS, Move, Order, UnitRef, destination_of, new_order, new_unit_ref, target_of, unit_refs, unit_refs_by_text
from adjudicator.sheets import Sheet, SheetProblem

FIELDS = ("power", "kind", "unit", "target", "destination", "coast", "via_convoy")
_FIELD_SET = frozenset(FIELDS)
_REQUIRED, _OPTIONAL, _NO = "required", "optional", "no"
_UNIT_WORDS = {"a": ARMY, "army": ARMY, "f": FLEET, "fleet": FLEET}
# Which fields each kind takes: (needs a unit, target, destination) as "required", "optional" or "no".
_SHAPE = {
    "hold": (_REQUIRED, _NO, _NO),
    "move": (_REQUIRED, _NO, _REQUIRED),
    "support": (_REQUIRED, _REQUIRED, _OPTIONAL),
    "convoy": (_REQUIRED, _REQUIRED, _REQUIRED),
    "retreat": (_REQUIRED, _NO, _REQUIRED),
    "disband": (_REQUIRED, _NO, _NO),
    "remove": (_REQUIRED, _NO, _NO),
    "build": (_REQUIRED, _NO, _NO),
    "waive": (_NO, _NO, _NO),
}
# The same as sets of field names: (required, not allowed), to pass a well-formed object with two set checks.
_FIELDS_OF = {kind: (frozenset(f for f, need in zip(("unit", "target", "destination"), shape) if need is _REQUIRED),
                     frozenset(f for f, need in zip(("unit", "target", "destination"), shape) if need is _NO))
              for kind, shape in _SHAPE.items()}
_ALLOWED = {_REQUIRED: (True,), _OPTIONAL: (False, True), _NO: (False,)}  # whether the field is given
# The common object, read with lookups alone (`_Reader.plain`): exactly the fields its kind takes (a support's
# destination either way), no coast, via_convoy only true and on a move, every name an id or a canonical unit
# text. By kind: the allowed values of 2 * (has a target) + (has a destination).
_PLAIN_FIELDS = {kind: frozenset(2 * t + d for t in _ALLOWED[need_t] for d in _ALLOWED[need_d])
                 for kind, (need_u, need_t, need_d) in _SHAPE.items() if need_u is _REQUIRED}
SUGGESTED_PROBLEMS = 50  # "did you mean" is worked out for this many problems per list; the rest go without


@dataclass
class ObjectProblem(SheetProblem):
    """A bad order object: `line` is its position in the list (from 1), `pointer` the JSON pointer of the
    field at fault within the list (`/3/destination`), `text` the object as JSON."""

    pointer: str = ""

    def __str__(self) -> str:
        hint = f"; did you mean {', '.join(repr(s) for s in self.suggestions)}?" if self.suggestions else ""
        return f"order {self.pointer or '/'}: {self.reason}{hint}"


class _Bad(Exception):
    """One object's problem: the field, the reason, the suggestions."""

    def __init__(self, field: str | None, reason: str, suggestions: list[str] | None = None):
        super().__init__(reason)
        self.field, self.reason, self.suggestions = field, reason, suggestions or []


class _Reader:
    """Reads the objects of one list for one board (suggestions bounded per list)."""

    def __init__(self, board: Board):
        self.board = board
        self.suggest = SUGGESTED_PROBLEMS
        self.unsuggested = 0  # problems past the bound that went without suggestions
        self.units: dict[str, UnitRef] = {}  # unit text -> its reading, for this list only (a unit is named twice:
        # by its own order and as the target of a support or convoy)
        self.refs = unit_refs(board)  # the board's UnitRefs: most units named are one of them
        self.texts = unit_refs_by_text(board)  # ... by their canonical text (`A par`): read with one lookup

    def _suggestions(self, make) -> list[str]:
        if self.suggest <= 0:
            self.unsuggested += 1
            return []
        self.suggest -= 1
        return make()

    def place(self, text: Any, field: str) -> tuple[str, str | None]:
        """(province, coast key or None) of a place such as `stp/nc` or `St Petersburg`."""
        if not isinstance(text, str):
            raise _Bad(field, f"{field} must be a place name (a string), not {_shown(text, 60)}")
        board = self.board
        if text in board.provinces:  # the common case: an id, nothing to resolve
            return text, None
        name, _, coast = text.partition("/")
        province = name if name in board.provinces else None
        if province is None:
            try:
                province = board.names.lookup(name)
            except AmbiguousName as exc:
                raise _Bad(field, exc.message) from None
            except UnknownName:
                raise _Bad(field, f"unknown place {_quoted(name)}",
                           self._suggestions(lambda: board.names.suggest(name))) from None
        return province, (self.coast(coast, field) if coast else None)

    def coast(self, text: Any, field: str) -> str:
        """The coast key (`nc`) a spelling names; an unknown spelling is refused."""
        if not isinstance(text, str):
            raise _Bad(field, f"{field} must be a coast (a string such as 'nc'), not {_shown(text, 60)}")
        key = self.board.coast_key(text)
        if key not in self.board.coast_names:
            known = ", ".join(self.board.coast_names)
            raise _Bad(field, f"unknown coast {_quoted(text)}; coasts are {known}",
                       self._suggestions(lambda: difflib.get_close_matches(key, list(self.board.coast_names), 2)))
        return key

    def unit(self, value: Any, field: str) -> UnitRef:
        """A unit as an order names it: `A par`, `F stp/nc`, `Army Paris`, `par`, or {type, location}."""
        if type(value) is not str and isinstance(value, Mapping):
            extra = sorted(str(key) for key in value if key not in ("type", "location"))  # (keys of any type)
            if extra:
                raise _Bad(f"{field}/{extra[0]}", f"unknown field {_quoted(extra[0])} in {field}; a unit has type and "
                           "location")
            if "location" not in value:
                raise _Bad(field, f"{field} has no location")
            kind = value.get("type")
            if kind is not None and (not isinstance(kind, str) or kind.lower() not in _UNIT_WORDS):
                raise _Bad(f"{field}/type", f"unit type {_shown(kind, 60)} is neither A (army) nor F (fleet)")
            province, coast = self.place(value["location"], f"{field}/location")
            return UnitRef(_UNIT_WORDS[kind.lower()] if kind else None, province, coast)
        if not isinstance(value, str):
            raise _Bad(field, f"{field} must be a unit such as 'A par' or 'F stp/nc', not {_shown(value, 60)}")
        word, _, rest = value.strip().partition(" ")
        unit_type = _UNIT_WORDS.get(word.lower()) if rest else None
        province, coast = self.place(rest.strip() if unit_type else value.strip(), field)
        key = (unit_type, province, coast, None)
        ref = self.units[value] = self.refs.get(key) or new_unit_ref(*key)
        return ref

    def power(self, value: Any) -> str:
        """The power's name."""
        if not isinstance(value, str):
            raise _Bad("power", f"power must be a power's name (a string), not {_shown(value, 60)}")
        if value in self.board.powers:
            return value
        try:
            return self.board.power_names.lookup(value, "power")
        except AmbiguousName as exc:
            raise _Bad("power", exc.message) from None
        except UnknownName:
            raise _Bad("power", f"{_quoted(value)} is not a power of the {self.board.title} board "
                       f"({', '.join(self.board.powers)})",
                       self._suggestions(lambda: self.board.power_names.suggest(value))) from None

    def plain(self, obj: Any, line: int) -> Order | None:
        """`order` for the common object (`_PLAIN_FIELDS`), or None for any other (`order` reads it)."""
        if type(obj) is not dict:
            return None
        get = obj.get
        kind, power, unit, target, dest = get("kind"), get("power"), get("unit"), get("target"), get("destination")
        if type(kind) is not str:
            return None
        fields = _PLAIN_FIELDS.get(kind)
        has_target, has_dest, via = target is not None, dest is not None, get("via_convoy")
        if (fields is None or 2 * has_target + has_dest not in fields
                or len(obj) != 3 + has_target + has_dest + (via is not None)
                or type(power) is not str or power not in self.board.powers or type(unit) is not str
                or via is not None and (via is not True or kind != "move")):
            return None  # (the length: no field but these six, none of them null)
        texts = self.texts
        unit = texts.get(unit)
        if unit is None:
            return None
        if has_target:
            target = texts.get(target) if type(target) is str else None
            if target is None:
                return None
        if has_dest and (type(dest) is not str or dest not in self.board.provinces):
            return None
        return new_order(kind, unit, target, dest, None, via is True, power, "", line, ())

    def order(self, obj: Any, line: int) -> Order:
        """One object as an Order, or _Bad. (The common shape, a dict of ids, takes the short way at each step.)"""
        if type(obj) is not dict and not isinstance(obj, Mapping):
            raise _Bad(None, f"an order is an object with {', '.join(FIELDS)}, not {_shown(obj, 60)}")
        if not _FIELD_SET.issuperset(obj):
            key = next(str(k) for k in obj if k not in _FIELD_SET)
            raise _Bad(key, f"unknown field {_quoted(key)}; an order has {', '.join(FIELDS)}",
                       self._suggestions(lambda: difflib.get_close_matches(key, FIELDS, 1)))
        get = obj.get
        kind = get("kind")
        if type(kind) is not str or kind not in _SHAPE:
            if kind is None:
                raise _Bad("kind", f"the order has no kind; kinds are {', '.join(ORDER_KINDS)}")
            if not isinstance(kind, str) or kind.lower() not in _SHAPE:
                raise _Bad("kind", f"unknown kind {_shown(kind, 60)}; kinds are {', '.join(ORDER_KINDS)}",
                           self._suggestions(lambda: difflib.get_close_matches(_shown(kind, 60).lower(), ORDER_KINDS, 1)))
            kind = kind.lower()
        shape = _SHAPE[kind]
        power = get("power")
        if type(power) is not str or power not in self.board.powers:
            if power is None:
                raise _Bad("power", "the order has no power")
            power = self.power(power)
        needs_unit, needs_target, needs_dest = shape
        unit_value, target_value, dest_value = get("unit"), get("target"), get("destination")
        required, forbidden = _FIELDS_OF[kind]
        if not (required <= obj.keys() and forbidden.isdisjoint(obj) and None not in obj.values()):
            for field, need, value in (("unit", needs_unit, unit_value), ("target", needs_target, target_value),
                                       ("destination", needs_dest, dest_value)):
                if need is _REQUIRED and value is None:
                    raise _Bad(field, f"a {kind} order needs a {field}")
                if need is _NO and value is not None:
                    raise _Bad(field, f"a {kind} order has no {field}")
        texts, units = self.texts, self.units
        unit = None
        if unit_value is not None:
            unit = texts.get(unit_value) or units.get(unit_value) if type(unit_value) is str else None
            if unit is None:
                unit = self.unit(unit_value, "unit")
        target = None
        if target_value is not None:
            target = texts.get(target_value) or units.get(target_value) if type(target_value) is str else None
            if target is None:
                target = self.unit(target_value, "target")
        dest = coast = None
        if dest_value is not None:
            if type(dest_value) is str and dest_value in self.board.provinces:
                dest = dest_value
            else:
                dest, coast = self.place(dest_value, "destination")
        named = get("coast")
        if named is not None:
            if dest is None:
                raise _Bad("coast", "a coast is the destination's: give a destination")
            named = self.coast(named, "coast")
            if coast is not None and coast != named:
                raise _Bad("coast", f"the destination names the {coast} coast and `coast` the {named} coast")
            coast = named
        via = get("via_convoy")
        if via is not None and via is not False:
            if via is not True:
                raise _Bad("via_convoy", f"via_convoy must be true or false, not {_shown(via, 60)}")
            if kind != "move":
                raise _Bad("via_convoy", f"via_convoy is for moves, not for a {kind} order")
        return new_order(kind, unit, target, dest, coast, via is True, power, "", line, ())


def orders_from_objects(board: Board, objects: Sequence[Any]) -> Sheet[Order]:
    """Orders from a list of order objects (module docstring): the Sheet every reader gives, each bad object
    a problem located by a JSON pointer into the list, the other objects read."""
    sheet: Sheet[Order] = Sheet()
    if isinstance(objects, (str, bytes, Mapping)) or not isinstance(objects, Sequence):
        sheet.problems.append(ObjectProblem(0, None, _shown(objects), "the orders must be a list of order objects",
                                            pointer=""))
        return sheet
    reader = _Reader(board)
    for i, obj in enumerate(objects):
        try:
            sheet.orders.append(reader.plain(obj, i + 1) or reader.order(obj, i + 1))
        except _Bad as bad:
            pointer = f"/{i}" + (f"/{bad.field}" if bad.field else "")
            sheet.problems.append(ObjectProblem(i + 1, None, _shown(obj), bad.reason, bad.suggestions,
                                                pointer=pointer))
    if reader.unsuggested:
        sheet.notes.append(f"closest names are suggested for the first {SUGGESTED_PROBLEMS} problems only; "
                           f"{reader.unsuggested} more went without")
    return sheet


def order_object(order: Order) -> dict[str, Any]:
    """The object form of an Order (what `orders_from_objects` reads back as the same order)."""

    def unit(ref: UnitRef) -> str:
        return f"{ref.type} {ref.location}" if ref.type else ref.location

    obj: dict[str, Any] = {"power": order.power, "kind": order.kind}
    if order.unit is not None:
        obj["unit"] = unit(order.unit)
    target, dest = target_of(order), destination_of(order)
    if target is not None:
        obj["target"] = unit(target)
    if dest is not None:
        obj["destination"] = dest[0]
        if dest[1]:
            obj["coast"] = dest[1]
    if isinstance(order, Move) and order.via_convoy:
        obj["via_convoy"] = True
    return obj


def _quoted(text: str, limit: int = 80) -> str:
    """`repr(text)`, of its first `limit` characters only: a name echoed in a reason stays short."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "…"


def _shown(obj: Any, limit: int = 200) -> str:
    """A value as JSON, cut to `limit` characters: for the problem's `text` and in its reason."""
    try:
        text = json.dumps(obj, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError, RecursionError):  # not JSON, or nested too deep for it: a bounded repr
        text = reprlib.repr(obj)
    return text if len(text) <= limit else text[:limit - 1] + "…"
