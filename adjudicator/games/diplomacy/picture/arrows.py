"""The geometry of order lines: a gently bent curve from one spot to another, cut back so that it starts
outside the unit it leaves and stops outside whatever it must not cover (the unit it reaches, a label), with
room kept for its head; short moves keep a visible shaft by bending less and shrinking the head."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
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
SAMPLES = 16  # points along a curve (a gentle bend: 16 straight pieces look curved)


_WEIGHTS = [((1 - i / SAMPLES) ** 2, 2 * (1 - i / SAMPLES) * i / SAMPLES, (i / SAMPLES) ** 2)
            for i in range(SAMPLES + 1)]  # a quadratic Bezier's three weights at each sample


def curve(p: Point, q: Point, bend: float) -> list[Point]:
    """A quadratic curve from p to q whose middle stands `bend` x its length to the left of the chord."""
    (x0, y0), (x1, y1) = p, q
    cx, cy = (x0 + x1) / 2 - bend * (y1 - y0), (y0 + y1) / 2 + bend * (x1 - x0)
    return [(a * x0 + b * cx + c * x1, a * y0 + b * cy + c * y1) for a, b, c in _WEIGHTS]


def length(line: list[Point]) -> float:
    """The length of a polyline."""
    return sum(math.dist(a, b) for a, b in zip(line, line[1:]))


def _cut_start(line: list[Point], shapes: Sequence[Shape]) -> list[Point]:
    """The polyline from where it first leaves every shape (its start lies inside them). A line leaves its
    shapes within a few samples: walking from its start beats testing every sample at once."""
    for i, pt in enumerate(line):
        if not any(s.contains(pt) for s in shapes):
            if i == 0:
                return line
            holding = [s for s in shapes if s.contains(line[i - 1])]  # the shapes the line leaves there
            return [_edge(line[i - 1], pt, holding)] + line[i:]
    return line[-1:]


def _edge(inside: Point, outside: Point, shapes: Sequence[Shape]) -> Point:
    """The point between two samples where the line leaves the last of the shapes that hold its first end."""
    (ax, ay), (bx, by) = inside, outside
    dx, dy = bx - ax, by - ay
    t = 0.0
    for s in shapes:
        if isinstance(s, Disc):  # the larger root of |a + t (b - a) - c| = r
            fx, fy = ax - s.x, ay - s.y
            qa, qb, qc = dx * dx + dy * dy, 2 * (fx * dx + fy * dy), fx * fx + fy * fy - s.r * s.r
            root = (-qb + math.sqrt(max(qb * qb - 4 * qa * qc, 0.0))) / (2 * qa) if qa else 1.0
        else:  # where the segment crosses the box's side, leaving it
            tx = (s.x1 - ax) / dx if dx > 0 else (s.x0 - ax) / dx if dx < 0 else math.inf
            ty = (s.y1 - ay) / dy if dy > 0 else (s.y0 - ay) / dy if dy < 0 else math.inf
            root = min(tx, ty)
        t = max(t, min(1.0, root))
    return (ax + t * dx, ay + t * dy)


def cut(line: list[Point], start: Sequence[Shape], end: Sequence[Shape]) -> list[Point]:
    """The polyline without its ends inside `start` (at its start) and `end` (at its end)."""
    line = _cut_start(line, start)
    return list(reversed(_cut_start(list(reversed(line)), end)))


def point_at(line: list[Point], t: float, steps: list[float] | None = None) -> Point:
    """The point `t` of the way along a polyline (0 its start, 1 its end); `steps`: its segments' lengths."""
    steps = steps if steps is not None else [math.dist(a, b) for a, b in zip(line, line[1:])]
    goal = sum(steps) * t
    run = 0.0
    for a, b, step in zip(line, line[1:], steps):
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
    _steps: list[float] | None = None

    def at(self, t: float) -> Point:
        """A point `t` of the way along the shaft."""
        if self._steps is None:
            self._steps = [math.dist(a, b) for a, b in zip(self.shaft, self.shaft[1:])]
        return point_at(self.shaft, t, self._steps)




ARROWS_KEPT = 4096  # arrows kept drawn: a board's moves run between its few hundred pairs of spots, phase after phase


def arrow(p: Point, q: Point, *, start: Sequence[Shape], end: Sequence[Shape], avoid_end: Sequence[Shape] = (),
          label: Box | None = None, bend: float = 0.12, head: float = 10.0, width: float = 3.0,
          minimum: float = 14.0) -> Arrow:
    """`drawn_arrow` (below), kept: the same arrow is drawn again in every picture that has it."""
    drawn = _kept_arrow(p, q, tuple(start), tuple(end), tuple(avoid_end), label, bend, head, width, minimum)
    return Arrow(drawn.shaft, drawn.head)  # (its own: `at` keeps its steps on it)


@functools.lru_cache(maxsize=ARROWS_KEPT)
def _kept_arrow(p: Point, q: Point, start: tuple[Shape, ...], end: tuple[Shape, ...], avoid_end: tuple[Shape, ...],
                label: Box | None, bend: float, head: float, width: float, minimum: float) -> Arrow:
    return drawn_arrow(p, q, start=start, end=end, avoid_end=avoid_end, label=label, bend=bend, head=head,
                       width=width, minimum=minimum)


def drawn_arrow(p: Point, q: Point, *, start: Sequence[Shape], end: Sequence[Shape], avoid_end: Sequence[Shape] = (),
                label: Box | None = None, bend: float = 0.12, head: float = 10.0, width: float = 3.0,
                minimum: float = 14.0) -> Arrow:
    """An arrow from p to q: it starts outside `start`, and its tip stops outside `end` and `avoid_end` (labels
    near its end), with a head `head` long. It is tried bent gently, bent more either way (to come in from the
    side) and pointing at the place from beside its `label`: drawn is the try that keeps a shaft of `minimum`
    and whose tip comes nearest the place; the head shrinks to what is left. The tip never enters a label."""
    pad = head * 0.6  # the head is as wide as that on each side of the line: its corners keep off the labels too
    boxes = [Box(b.x0 - pad, b.y0 - pad, b.x1 + pad, b.y1 + pad) for b in avoid_end if isinstance(b, Box)]
    stops = list(end) + boxes
    tries = [(q, bend), (q, bend * 2.5 + 0.2), (q, -(bend * 2.5 + 0.2))]
    if label is not None:  # beside the place's own label, the nearer side first
        sides = [(label.x0 - pad - 2, (label.y0 + label.y1) / 2), (label.x1 + pad + 2, (label.y0 + label.y1) / 2)]
        tries += [(side, 0.0) for side in sorted(sides, key=lambda side: math.dist(p, side))]
    # ...and at the side of the unit that stands there, above the label (a short move from under the label)
    reach = max((s.r for s in end if isinstance(s, Disc)), default=0.0) + pad + 2
    beside = [(q[0] + reach, q[1] - pad * 0.5), (q[0] - reach, q[1] - pad * 0.5)]
    tries += [(side, 0.3 if side[0] > p[0] else -0.3) for side in sorted(beside, key=lambda side: math.dist(p, side))]
    # Drawn is the try that keeps a shaft and whose tip comes nearest the place (a tip cut short by another label
    # on the way points at the wrong place), a gentler bend preferred by a few units; a try whose tip reaches the
    # place itself ends the search (most do at the first).
    reached = max((s.r for s in end if isinstance(s, Disc)), default=0.0) + 0.5
    drawn: list[Point] = []
    drawn_length = -1.0
    best: tuple[bool, float] | None = None
    for n, (target, b) in enumerate(tries):
        candidate = cut(curve(p, target, b), start, stops)
        candidate_length = length(candidate)
        short = candidate_length < minimum + head  # (of the short ones, the longest)
        gap = math.dist(candidate[-1], q)
        score = (short, -candidate_length if short else gap + 4.0 * n)
        if best is None or score < best:
            drawn, drawn_length, best = candidate, candidate_length, score
        if not short and gap <= reached:
            break
    if head <= 0 or len(drawn) < 2:
        return Arrow(drawn if len(drawn) >= 2 else [p, p], None)
    size = min(head, max(drawn_length * 0.45, 4.0))
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
