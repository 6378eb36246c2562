"""The geometry of order lines: a gently bent curve from one spot to another, cut back so that it starts
outside the unit it leaves and stops outside whatever it must not cover (the unit it reaches, a label), with
room kept for its head; short moves keep a visible shaft by bending less and shrinking the head."""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle (a label's box), in picture units."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, p: Point) -> bool:
        """Whether the point lies inside."""
        return self.x0 <= p[0] <= self.x1 and self.y0 <= p[1] <= self.y1

    def overlaps(self, other: "Box") -> bool:
        """Whether two boxes overlap."""
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1


@dataclass(frozen=True)
class Disc:
    """A circle (a unit's spot)."""

    x: float
    y: float
    r: float

    def contains(self, p: Point) -> bool:
        """Whether the point lies inside."""
        return math.hypot(p[0] - self.x, p[1] - self.y) <= self.r


Shape = Box | Disc
SAMPLES = 24  # points along a curve


def curve(p: Point, q: Point, bend: float) -> list[Point]:
    """A quadratic curve from p to q whose middle stands `bend` x its length to the left of the chord."""
    (x0, y0), (x1, y1) = p, q
    cx, cy = (x0 + x1) / 2 - bend * (y1 - y0), (y0 + y1) / 2 + bend * (x1 - x0)
    out = []
    for i in range(SAMPLES + 1):
        t = i / SAMPLES
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a * x0 + b * cx + c * x1, a * y0 + b * cy + c * y1))
    return out


def length(line: list[Point]) -> float:
    """The length of a polyline."""
    return sum(math.dist(a, b) for a, b in zip(line, line[1:]))


def _cut_start(line: list[Point], shapes: list[Shape]) -> list[Point]:
    """The polyline from where it first leaves every shape (its start lies inside them)."""
    for i, pt in enumerate(line):
        if not any(s.contains(pt) for s in shapes):
            if i == 0:
                return line
            return [_edge(line[i - 1], pt, shapes)] + line[i:]
    return line[-1:]


def _edge(inside: Point, outside: Point, shapes: list[Shape]) -> Point:
    """The point between two samples where the line crosses out of the shapes (bisection)."""
    a, b = inside, outside
    for _ in range(8):  # to 1/256 of a sample's step
        m = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        if any(s.contains(m) for s in shapes):
            a = m
        else:
            b = m
    return b


def cut(line: list[Point], start: list[Shape], end: list[Shape]) -> list[Point]:
    """The polyline without its ends inside `start` (at its start) and `end` (at its end)."""
    line = _cut_start(line, start)
    return list(reversed(_cut_start(list(reversed(line)), end)))


def point_at(line: list[Point], t: float) -> Point:
    """The point `t` of the way along a polyline (0 its start, 1 its end)."""
    goal = length(line) * t
    run = 0.0
    for a, b in zip(line, line[1:]):
        step = math.dist(a, b)
        if run + step >= goal and step > 0:
            f = (goal - run) / step
            return (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))
        run += step
    return line[-1]


@dataclass
class Arrow:
    """A drawn order line: its shaft and, if it has one, its head (a triangle ending at the tip)."""

    shaft: list[Point]
    head: list[Point] | None

    def at(self, t: float) -> Point:
        """A point `t` of the way along the shaft."""
        return point_at(self.shaft, t)

    def points_at(self, ts: tuple[float, ...]) -> list[Point]:
        """The points at several fractions of the way."""
        return [point_at(self.shaft, t) for t in ts]


def arrow(p: Point, q: Point, *, start: list[Shape], end: list[Shape], avoid_end: list[Shape] = (),
          bend: float = 0.12, head: float = 10.0, width: float = 3.0, minimum: float = 14.0) -> Arrow:
    """An arrow from p to q: it starts outside `start`, its tip stops outside `end` and `avoid_end` (labels),
    and its head is `head` long. When that leaves a shaft shorter than `minimum`, the labels are let go
    (the label layer is drawn above the orders, so the label stays readable) and then the head shrinks."""
    line = curve(p, q, bend)
    drawn = cut(line, start, list(end) + list(avoid_end))
    if length(drawn) < minimum + head and avoid_end:
        drawn = cut(line, start, list(end))
    size = min(head, max(length(drawn) * 0.45, 4.0))
    if head <= 0:
        return Arrow(drawn, None)
    tip = drawn[-1]
    # The head's base: where the line is `size` from the tip, walking back.
    base_index = len(drawn) - 1
    while base_index > 0 and math.dist(drawn[base_index], tip) < size:
        base_index -= 1
    base = drawn[base_index]
    dx, dy = tip[0] - base[0], tip[1] - base[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    back = (tip[0] - ux * size, tip[1] - uy * size)
    half = max(size * 0.55, width * 1.1)
    head_pts = [tip, (back[0] - uy * half, back[1] + ux * half), (back[0] + uy * half, back[1] - ux * half)]
    shaft = drawn[:base_index + 1] + [(back[0] + ux * size * 0.3, back[1] + uy * size * 0.3)]
    return Arrow(shaft, head_pts)
