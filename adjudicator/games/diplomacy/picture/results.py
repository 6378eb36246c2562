"""What a picture draws of a phase (a `Drawing`: its orders and what befell units), made from the judge's typed
results, never from order text read back.

    as_drawing(board, results) -> Drawing

`results` is one of: the judge's `PhaseResult` (in process: each `OrderResult` with its read order); a
`Drawing` or its JSON (`Drawing.to_json`: what a hosted phase keeps); or a phase report as JSON given by a user
(`adjudicate --json`'s output, or its `orders` list), which is input like any other: each entry's `understood_as`
is read by the board's own order reader, bound to the entry's power, and an entry it cannot read is left out.

`kind_of` is the one place that asks what kind an order is."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.board import Board, join_location, split_location
from adjudicator.games.diplomacy.orders.model import Move, destination_of, target_of
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.phase import PhaseResult
from adjudicator.outcome import DEFAULT, IGNORED, OrderResult

DRAWN_KINDS = ("move", "hold", "retreat", "support", "convoy", "disband", "build", "waive")
_DRAWN_AS = {"remove": "disband"}  # a removal is drawn as a disband
MARK_KINDS = ("ice-disbanded", "civil-disorder", "destroyed", "dislodged")


def kind_of(order: Any) -> str:
    """An order's kind (`move`, `support`, `remove`...): the one place the picture asks (orders of a class per
    kind answer by their class here)."""
    return order.kind


@dataclass
class DrawnOrder:
    """One order of the report, as the picture needs it."""

    kind: str
    power: str | None
    status: str
    origin: str | None = None  # location of the ordered unit
    unit_type: str | None = None
    dest: str | None = None
    target: str | None = None  # supported / convoyed unit's location
    target_dest: str | None = None
    number: int = 0  # place in the report, from 1 (the SVG id is order-<number>-<kind>)
    path: tuple[str, ...] = ()  # the seas a convoyed move names, in order (`A yor - nth - bel`)

    @property
    def ok(self) -> bool:
        return self.status in ("succeeds", "default")


@dataclass(frozen=True)
class Mark:
    """What befell a unit in the phase, drawn on it: `ice-disbanded` (by the season's ice), `civil-disorder`
    (removed, no removal ordered), `destroyed` (dislodged with nowhere to go), `dislodged`."""

    kind: str
    power: str | None
    unit_type: str | None
    location: str


@dataclass(frozen=True)
class Drawing:
    """A phase as its picture draws it: the orders (in report order) and the marks."""

    orders: tuple[DrawnOrder, ...] = ()
    marks: tuple[Mark, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (`from_json` reads it back)."""
        return {"drawn_orders": [asdict(o) | {"path": list(o.path)} for o in self.orders],
                "marks": [asdict(m) for m in self.marks]}

    @classmethod
    def from_json(cls, board: Board, data: dict[str, Any]) -> Drawing:
        """The drawing `to_json` wrote (entries not well-formed, or naming places not on the board, left out)."""
        orders, marks = data.get("drawn_orders"), data.get("marks")
        return cls(tuple(o for o in map(_drawn_from_json, orders if isinstance(orders, list) else [])
                         if o is not None and _on_board(board, o)),
                   tuple(m for m in map(_mark_from_json, marks if isinstance(marks, list) else [])
                         if m is not None and _known(board, m.location)))


def as_drawing(board: Board, results: Any) -> Drawing:
    """What to draw of `results` (see the module's docstring); nothing for None."""
    if results is None:
        return Drawing()
    if isinstance(results, Drawing):
        return results
    if isinstance(results, PhaseResult):
        return drawing_of(board, results)
    if isinstance(results, dict) and "drawn_orders" in results and "orders" not in results:
        return Drawing.from_json(board, results)
    return drawing_from_report(board, results)


# ----- the judge's results ------------------------------------------------------------------------------------
def drawing_of(board: Board, result: PhaseResult) -> Drawing:
    """The judge's results as drawn: each read order, and the units disbanded by the ice, destroyed, dislodged
    or removed in civil disorder (a removal the judge made for a power that ordered none)."""
    report = result.report
    orders = tuple(d for n, r in enumerate(report, 1) if (d := drawn_order(board, r, n)) is not None)
    units: list[tuple[str, Any]] = [("ice-disbanded", u) for u in result.disbanded_by_terrain]
    units += [("destroyed", u) for u in result.destroyed]
    units += [("dislodged", d.unit) for d in result.dislodged]
    units += [("civil-disorder", r.unit) for r in report
              if r.status == DEFAULT and r.order is None and r.unit is not None and r.unit in result.removed]
    return Drawing(orders, tuple(Mark(kind, u.power, u.type, u.location) for kind, u in units
                                 if _known(board, u.location)))


def drawn_order(board: Board, result: OrderResult, number: int) -> DrawnOrder | None:
    """One result as drawn (None for an ignored order, a unit without one, or a place not on the board; a waive
    names only its power):
    the unit it moved, the place it went, the unit it supported or convoyed, the seas it named."""
    order: Any = result.order  # (read as the board's orders are: unit, target, dest, dest_coast, path)
    if result.status == IGNORED or order is None:
        return None
    kind = kind_of(order)
    kind = _DRAWN_AS.get(kind, kind)
    if kind not in DRAWN_KINDS:
        return None
    unit, target, where = order.unit, target_of(order), destination_of(order)
    dest = join_location(*where) if where else None
    d = DrawnOrder(kind, result.power, result.status, unit.location if unit else None, unit.type if unit else None,
                   number=number)
    if kind in ("move", "retreat"):
        d.dest = dest
        d.path = tuple(order.path) if isinstance(order, Move) else ()
    elif kind in ("support", "convoy") and target is not None:
        d.target, d.target_dest = target.location, dest
    if result.unit is not None and kind != "build":  # drawn where the unit stands (the order may name no coast)
        d.origin = result.unit.location
        d.unit_type = result.unit.type or d.unit_type
    return d if _on_board(board, d) else None


# ----- a report given as JSON ---------------------------------------------------------------------------------
@dataclass
class _ReportUnit:
    """A report entry's `unit`, as given (its type "" when not given)."""

    type: str
    location: str
    power: str


def drawing_from_report(board: Board, results: Any) -> Drawing:
    """A report given as JSON (the whole report, or its `orders` list): each entry read as the judge's result
    would be, its order by the board's reader; the units it lists as disbanded by the ice, destroyed or
    dislodged, and its removals in civil disorder, marked."""
    entries = _entries(results)
    orders = tuple(d for n, e in enumerate(entries, 1)
                   if (r := _result_of(board, e)) is not None and (d := drawn_order(board, r, n)) is not None)
    marks = []
    if isinstance(results, dict):
        for key, kind in _MARK_LISTS.items():
            listed = results.get(key)
            for u in listed if isinstance(listed, list) else []:
                if isinstance(u, dict) and isinstance(u.get("location"), str) and _known(board, u["location"]):
                    marks.append(Mark(kind, _text(u.get("power")), _text(u.get("type")), u["location"]))
    for entry in entries:
        unit = entry.get("unit")
        if (isinstance(unit, dict) and isinstance(unit.get("location"), str) and _known(board, unit["location"])
                and _civil_disorder(board, entry)):
            marks.append(Mark("civil-disorder", _text(entry.get("power")), _text(unit.get("type")), unit["location"]))
    return Drawing(orders, tuple(marks))


_MARK_LISTS = {"disbanded_by_terrain": "ice-disbanded", "destroyed": "destroyed", "dislodged": "dislodged"}


def _entries(results: Any) -> list[dict]:
    if isinstance(results, dict):
        results = results.get("orders") or []
    if not isinstance(results, list):
        return []
    return [r for r in results if isinstance(r, dict)]


def _read(board: Board, text: Any, power: str | None) -> Any:
    """An order text of the report read by the board's order reader for `power` (None when it cannot be read)."""
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return parse_order(board, text.strip(), power=power)
    except AdjudicatorError:
        return None


def _result_of(board: Board, entry: dict) -> OrderResult | None:
    """A report entry as the judge's result: its power, status and unit, its `understood_as` read."""
    status = str(entry.get("status", ""))
    if status == IGNORED:
        return None
    power = _text(entry.get("power"))
    order = _read(board, entry.get("understood_as"), power)
    if order is None:
        return None
    given_unit = entry.get("unit")
    unit: dict[str, Any] = given_unit if isinstance(given_unit, dict) else {}
    location = unit.get("location")
    given = _ReportUnit(str(unit.get("type") or ""), str(location), power or "") if location else None
    return OrderResult(power, str(entry.get("order", "")), status, "", unit=given, order=order)


def _civil_disorder(board: Board, entry: dict) -> bool:
    """Whether the entry is a removal the judge made for a power that ordered none (no order understood)."""
    if entry.get("status") != DEFAULT or entry.get("understood_as"):
        return False
    order = _read(board, entry.get("order"), _text(entry.get("power")))
    return order is not None and kind_of(order) == "remove"


def _text(value: Any) -> str | None:
    """A string field of a report entry, or None (a report from a client may hold anything)."""
    return value if isinstance(value, str) else None


# ----- a stored drawing ----------------------------------------------------------------------------------------
_OPTIONAL_TEXT = ("power", "origin", "unit_type", "dest", "target", "target_dest")


def _drawn_from_json(data: Any) -> DrawnOrder | None:
    if not (isinstance(data, dict) and data.get("kind") in DRAWN_KINDS and isinstance(data.get("status"), str)
            and type(data.get("number")) is int and all(_text(data.get(k)) == data.get(k) for k in _OPTIONAL_TEXT)):
        return None
    path = data.get("path") or []
    if not (isinstance(path, list) and all(isinstance(p, str) for p in path)):
        return None
    return DrawnOrder(data["kind"], data.get("power"), data["status"], data.get("origin"), data.get("unit_type"),
                      data.get("dest"), data.get("target"), data.get("target_dest"), data["number"], tuple(path))


def _mark_from_json(data: Any) -> Mark | None:
    if not (isinstance(data, dict) and data.get("kind") in MARK_KINDS and isinstance(data.get("location"), str)
            and all(_text(data.get(k)) == data.get(k) for k in ("power", "unit_type"))):
        return None
    return Mark(data["kind"], data.get("power"), data.get("unit_type"), data["location"])


def _on_board(board: Board, d: DrawnOrder) -> bool:
    return all(_known(board, loc) for loc in (d.origin, d.dest, d.target, d.target_dest, *d.path) if loc)


def _known(board: Board, location: str) -> bool:
    return split_location(location)[0] in board.provinces
