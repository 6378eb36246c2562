"""Where a phase's marks go: a small placement pass over the boxes already taken on the picture (the labels and
centre markers, the unit icons, the marks placed before), so that no mark covers a label, a unit or another mark.

Each mark (a failure cross, an illegal order's cross, a badge, a dislodged unit, a waived build) comes with the
spots it may stand at, the best first (along its own line, at its unit's corners); it takes the first whose box
is free and inside the map, else the nearest free spot on a few rings round its first spot (when it may move
off), else the spot its box covers least of. Boxes are kept in a grid of CELL-wide cells, so a query looks at the
few boxes near it: a picture's placement is linear in its marks and labels."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from adjudicator.games.diplomacy.picture.arrows import Box, Point

CELL = 40.0  # picture units
GAP = 1.5  # kept free round a mark's box
RINGS = (1.0, 1.6, 2.3, 3.2)  # radii of the search rings, in the mark's size (half its box's diagonal)
RING_POINTS = 12  # points on each ring


@dataclass
class Placement:
    """The boxes taken on a picture `width` x `height`, and the marks placed among them."""

    width: float
    height: float
    base: dict[tuple[int, int], list[Box]] = field(default_factory=dict)  # taken before (shared: never changed)
    _grid: dict[tuple[int, int], list[Box]] = field(default_factory=dict)
    boxes: list[tuple[str, Box]] = field(default_factory=list)  # (what, box), in the order taken here

    def take(self, box: Box, what: str = "") -> None:
        """Mark a box as taken (a label, a unit, a mark placed by hand)."""
        self.boxes.append((what, box))
        for cell in cells(box):
            self._grid.setdefault(cell, []).append(box)

    def _near(self, box: Box) -> list[Box]:
        seen: dict[int, Box] = {}
        for cell in cells(box):
            for grid in (self.base, self._grid):
                for b in grid.get(cell, ()):
                    seen[id(b)] = b
        return list(seen.values())

    def covered(self, box: Box) -> float:
        """How much of the taken boxes (and of the outside of the map) the box covers, as an area."""
        inside = Box(max(box.x0, 0.0), max(box.y0, 0.0), min(box.x1, self.width), min(box.y1, self.height))
        outside = _area(box) - (_area(inside) if inside.x1 > inside.x0 and inside.y1 > inside.y0 else 0.0)
        return outside + sum(_area(Box(max(box.x0, b.x0), max(box.y0, b.y0), min(box.x1, b.x1), min(box.y1, b.y1)))
                             for b in self._near(box) if box.overlaps(b))

    def free(self, box: Box) -> bool:
        """Whether the box lies inside the map and overlaps no taken box."""
        return (box.x0 >= 0 and box.y0 >= 0 and box.x1 <= self.width and box.y1 <= self.height
                and not any(box.overlaps(b) for b in self._near(box)))

    def place(self, spots: Sequence[Point], half_w: float, half_h: float | None = None, *, what: str = "",
              roam: bool = True) -> Point:
        """Where a mark whose box reaches `half_w` x `half_h` from its centre goes: the first free spot of `spots`,
        else (when it may `roam` off them) the nearest free point of rings round the first spot, else the spot
        covering least. Its box is taken."""
        half_h = half_w if half_h is None else half_h
        w, h = half_w + GAP, half_h + GAP

        def box(p: Point) -> Box:
            return Box(p[0] - w, p[1] - h, p[0] + w, p[1] + h)

        tried = list(spots)
        chosen = next((p for p in tried if self.free(box(p))), None)
        if chosen is None and roam and tried:
            x, y = tried[0]
            size = math.hypot(w, h)
            ring = [(x + r * size * math.cos(a), y + r * size * math.sin(a)) for n, r in enumerate(RINGS)
                    for a in (2 * math.pi * (k + 0.5 * (n % 2)) / RING_POINTS for k in range(RING_POINTS))]
            tried += ring
            chosen = next((p for p in ring if self.free(box(p))), None)
        if chosen is None:
            chosen = min(tried, key=lambda p: self.covered(box(p))) if tried else (0.0, 0.0)
        self.take(Box(chosen[0] - half_w, chosen[1] - half_h, chosen[0] + half_w, chosen[1] + half_h), what)
        return chosen


def cells(b: Box) -> list[tuple[int, int]]:
    """The grid's cells a box reaches."""
    return [(i, j) for i in range(int(b.x0 // CELL), int(b.x1 // CELL) + 1)
            for j in range(int(b.y0 // CELL), int(b.y1 // CELL) + 1)]


def grid_of(boxes: list[Box]) -> dict[tuple[int, int], list[Box]]:
    """Boxes in a grid, as a Placement's `base` (a board's labels and centre markers, made once per season)."""
    grid: dict[tuple[int, int], list[Box]] = {}
    for box in boxes:
        for cell in cells(box):
            grid.setdefault(cell, []).append(box)
    return grid


def _area(b: Box) -> float:
    return max(0.0, b.x1 - b.x0) * max(0.0, b.y1 - b.y0)
