"""The orders of a phase report (JSON), as things to draw."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from adjudicator.games.diplomacy.board import Board, split_location

# ----- results (the JSON report) -------------------------------------------------------------------------------
_U = r"(?:([AF]) )?(\S+)"
_PATTERNS = [
    ("move", re.compile(rf"^{_U} - (\S+)( via convoy)?$")),
    ("hold", re.compile(rf"^{_U} H$")),
    ("retreat", re.compile(rf"^{_U} R (\S+)$")),
    ("support", re.compile(rf"^{_U} S {_U}(?: - (\S+))?$")),
    ("convoy", re.compile(rf"^{_U} C {_U} - (\S+)$")),
    ("disband", re.compile(rf"^(?:Disband|Remove) {_U}$")),
    ("build", re.compile(r"^Build ([AF]) (\S+)$")),
]


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


def _orders_of(results: Any) -> list[dict]:
    if results is None:
        return []
    if isinstance(results, dict):
        results = results.get("orders") or []
    if not isinstance(results, list):
        return []
    return [r for r in results if isinstance(r, dict)]


_MARK_LISTS = {"disbanded_by_terrain": "ice-disbanded", "destroyed": "destroyed", "dislodged": "dislodged"}


def parse_marks(board: Board, results: Any) -> list[Mark]:
    """The units the report says were disbanded by the ice, destroyed, dislodged or removed in civil disorder."""
    out = []
    if isinstance(results, dict):
        for key, kind in _MARK_LISTS.items():
            entries = results.get(key)
            for u in entries if isinstance(entries, list) else []:
                if isinstance(u, dict) and isinstance(u.get("location"), str) and _known(board, u["location"]):
                    out.append(Mark(kind, _text(u.get("power")), _text(u.get("type")), u["location"]))
    for entry in _orders_of(results):  # a removal the judge made for a power that ordered none
        unit = entry.get("unit")
        if (entry.get("status") == "default" and isinstance(unit, dict) and not entry.get("understood_as")
                and str(entry.get("order", "")).startswith("remove") and isinstance(unit.get("location"), str)
                and _known(board, unit["location"])):
            out.append(Mark("civil-disorder", _text(_text(entry.get("power"))), _text(unit.get("type")), unit["location"]))
    return out


def _text(value: Any) -> str | None:
    """A string field of a report entry, or None (a report from a client may hold anything)."""
    return value if isinstance(value, str) else None


def parse_results(board: Board, results: Any) -> list[DrawnOrder]:
    """The drawable orders of a report (orders for no unit, and unreadable ones, are left out)."""
    out = []
    for number, entry in enumerate(_orders_of(results), start=1):
        status = str(entry.get("status", ""))
        if status == "ignored":
            continue
        text = entry.get("understood_as")
        if not text:
            continue
        unit = entry.get("unit") if isinstance(entry.get("unit"), dict) else {}
        for kind, pattern in _PATTERNS:
            m = pattern.match(str(text).strip())
            if not m:
                continue
            g = m.groups()
            dest = g[2] if kind in ("move", "retreat") else None
            target, target_dest = (g[3], g[4]) if kind in ("support", "convoy") else (None, None)
            d = DrawnOrder(kind, _text(entry.get("power")), status, g[1], g[0], dest, target, target_dest)
            d.number = number
            if unit.get("location") and kind != "build":
                d.origin = str(unit["location"])
                d.unit_type = str(unit.get("type") or d.unit_type or "") or None
            if all(_known(board, loc) for loc in (d.origin, d.dest, d.target, d.target_dest) if loc):
                out.append(d)
            break
    return out


def _known(board: Board, location: str) -> bool:
    return split_location(location)[0] in board.provinces


