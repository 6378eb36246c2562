"""The orders of a phase report (JSON), as things to draw."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from adjudicator.board import Board, split_location

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


def _orders_of(results: Any) -> list[dict]:
    if results is None:
        return []
    if isinstance(results, dict):
        results = results.get("orders") or []
    return [r for r in results if isinstance(r, dict)]


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
            if kind == "move":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0], dest=g[2])
            elif kind == "hold":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0])
            elif kind == "retreat":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0], dest=g[2])
            elif kind in ("support", "convoy"):
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0], target=g[3], target_dest=g[4])
            elif kind == "disband":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0])
            else:
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0])
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


