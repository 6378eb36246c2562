"""Board pictures: any position of a Diplomacy variant, and the orders of a phase, as SVG or PNG.

    render_svg(board, state, results=None) -> str
    render_png(board, state, results=None, width=1000) -> bytes

`results` is a phase's report as JSON: the `orders` list of `PhaseResult.to_json()` (or that whole dict, as
`adjudicator adjudicate --json` prints it), entries with `power`, `status`, `understood_as` and `unit`.

The board data gives each space a position (latitude, longitude) and no outline. The positions are
projected (azimuthal equidistant: about the centre the variant's `drawing:` section names, or about the
North Pole when the positions ring it, as the Arctic's do), and each space is drawn as the part of the map
nearest to its *star*: its position joined half-way to each space it borders. That is a Voronoi diagram of
points laid along those lines (from matplotlib's Delaunay triangulation), so spaces that share a border
touch half-way between them, and each space is one piece; where two spaces without a border still touch,
a space bordering both is pushed between them. The boundaries are then smoothed, simplified, and clipped to
the frame (a disc or a rectangle). Each space is filled by its terrain in the position's season (land, sea,
or hatched ice), and each boundary drawn by what lies on either side (coastlines are heavier).

A variant's optional `drawing:` section (see variants/standard.yaml) may give: `projection: {name:
azimuthal-equidistant | north-polar, centre: [lat, lon], central_longitude, rotation}`, `frame: {shape: disc
| rectangle, radius, margin}`, `seeds: {id: [[lat, lon], ...]}` (extra points of long spaces), `impassable:
[{name, pos | seeds}]`, `coasts: {id/coast: [lat, lon]}` (where a fleet on a coast stands; otherwise a spot
towards the coast's seas), `label_case: id | title | upper`, `labels: {id: text}`, `label_offsets: {id:
[right, up]}` (points) and `fit_borders: false` (plain Voronoi cells). Without it, everything is inferred.

Everything is drawn with matplotlib (Agg for PNG, its SVG writer with text as paths, so the SVG looks the
same anywhere). Each space and each unit is one SVG element with an id (`space-Kar`, `unit-Russia-A-Arc`,
`dislodged-France-A-bur`, `centre-Arc`, `order-3-move`), so tests and scripts can find them.
"""

from __future__ import annotations

import io
import math
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import matplotlib
import numpy as np
from matplotlib import patheffects
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, PathPatch, Polygon, Rectangle
from matplotlib.path import Path

from adjudicator.board import ARMY, FLEET, Board, split_location
from adjudicator.errors import VariantError
from adjudicator.state import GameState

__all__ = ["MapStyle", "render_png", "render_svg"]

PROJECTIONS = ("azimuthal-equidistant", "north-polar")
FIG_WIDTH_IN = 10.0  # the picture's width in inches; at 100 dpi it is 1000 pixels wide

# Colours for terrain, lines and text (the power colours come from the variant file).
TERRAIN_FILL = {"land": "#EEE2C4", "sea": "#BCD7EC", "ice": "#FAFCFF"}
ICE_HATCH = "#8DB3CF"
IMPASSABLE_FILL = "#CFCBC3"
TEXT = "#1E1E1E"
SEA_TEXT = "#1B3F66"
BORDER_STYLE = {  # (colour, width in points, dashes)
    "coast": ("#4A4A48", 1.1),
    "land": ("#8A7A5E", 0.6),
    "water": ("#7FA2BF", 0.5),
    "ice": ("#7C97AD", 0.6),
}
FAILED = "#C4001A"  # the cross on failed orders and the mark of dislodged units
NEUTRAL = "#8C8C8C"
FALLBACK_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000",
                    "#999999", "#FFFFFF"]

# Unit silhouettes, about two units wide, centred on the origin.
_ARMY = [(-0.86, -0.62), (0.86, -0.62), (1.0, -0.38), (1.0, -0.08), (0.52, -0.08), (0.52, 0.1), (1.12, 0.1),
         (1.12, 0.3), (0.46, 0.3), (0.3, 0.52), (-0.42, 0.52), (-0.58, -0.08), (-1.0, -0.08), (-1.0, -0.38)]
_FLEET = [(-1.05, -0.05), (-0.58, -0.05), (0.06, 0.86), (0.06, -0.05), (1.05, -0.05), (0.72, -0.62),
          (-0.72, -0.62)]


# ----- the map's geometry ----------------------------------------------------------------------------------
class Projection:
    """Azimuthal equidistant projection about a centre (a pole for a polar map), in degrees of arc.

    With the centre at the North Pole, `central_longitude` points down and east is to the right. `rotation`
    turns the picture (degrees, counter-clockwise).
    """

    def __init__(self, centre: tuple[float, float] = (90.0, 0.0), rotation: float = 0.0,
                 central_longitude: float | None = None) -> None:
        self.lat0, self.lon0 = float(centre[0]), float(centre[1] if central_longitude is None else central_longitude)
        self.rotation = math.radians(rotation)

    def __call__(self, lat: float, lon: float) -> tuple[float, float]:
        phi, lam = math.radians(lat), math.radians(lon - self.lon0)
        phi0 = math.radians(self.lat0)
        cos_c = math.sin(phi0) * math.sin(phi) + math.cos(phi0) * math.cos(phi) * math.cos(lam)
        c = math.acos(max(-1.0, min(1.0, cos_c)))
        k = 1.0 if c < 1e-9 else c / math.sin(c)
        x = k * math.cos(phi) * math.sin(lam)
        y = k * (math.cos(phi0) * math.sin(phi) - math.sin(phi0) * math.cos(phi) * math.cos(lam))
        x, y = math.degrees(x), math.degrees(y)
        if self.rotation:
            cr, sr = math.cos(self.rotation), math.sin(self.rotation)
            x, y = x * cr - y * sr, x * sr + y * cr
        return x, y


def _centre_of(positions) -> tuple[tuple[float, float], bool]:
    """The spherical mean of (lat, lon) positions; the North Pole (and True) when they ring it."""
    v = np.zeros(3)
    for lat, lon in positions:
        phi, lam = math.radians(lat), math.radians(lon)
        v += (math.cos(phi) * math.cos(lam), math.cos(phi) * math.sin(lam), math.sin(phi))
    v /= max(np.linalg.norm(v), 1e-12)
    lat = math.degrees(math.asin(max(-1.0, min(1.0, v[2]))))
    lon = math.degrees(math.atan2(v[1], v[0]))
    if lat > 70:
        return (90.0, 0.0), True
    if lat < -70:
        return (-90.0, 0.0), True
    return (lat, lon), False


def _coast_spot(board: Board, anchor, pid: str, coast: str, pt: float) -> tuple[float, float]:
    """Where a fleet on a coast is drawn when the data does not say: from the province's position a little
    towards the seas that coast touches."""
    loc = f"{pid}/{coast}"
    seas: set[str] = set()
    for b in board.borders:
        if loc in (b.a, b.b):
            if b.kind == "water":
                seas.add(split_location(b.b if b.a == loc else b.a)[0])
            elif b.kind == "coast":
                seas.update(b.seas)
    x, y = anchor[pid]
    if not seas:
        return x, y
    mx = sum(anchor[s][0] for s in seas) / len(seas)
    my = sum(anchor[s][1] for s in seas) / len(seas)
    dx, dy = mx - x, my - y
    d = math.hypot(dx, dy)
    if d < 1e-9:
        return x, y
    step = min(d * 0.45, 16.0 * pt)
    return x + dx / d * step, y + dy / d * step


@dataclass
class Geometry:
    """Where everything of a board is drawn, in projected map units."""

    anchor: dict[str, tuple[float, float]]  # province -> where its unit and label go
    location: dict[str, tuple[float, float]]  # coast locations (stp/nc) -> where a fleet on it goes
    outlines: dict[str, list[list[tuple[float, float]]]]  # province -> closed loops (holes run clockwise)
    impassable: dict[str, list[list[tuple[float, float]]]]  # impassable places -> loops
    borders: list[tuple[str, str, list[tuple[float, float]]]]  # (space, space, polyline) between two owners
    frame: list[tuple[float, float]]
    bounds: tuple[float, float, float, float]  # xmin, xmax, ymin, ymax
    label_offset: dict[str, tuple[float, float]] = field(default_factory=dict)  # points
    labels: dict[str, str] = field(default_factory=dict)
    bridges: list[tuple[str, str]] = field(default_factory=list)
    # what the shapes could not show: bordering spaces that do not touch, touching spaces with no border
    unmatched: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


_GUARD = "#guard"


class Diagram:
    """The Voronoi diagram of owned seed points, from matplotlib's Delaunay triangulation (qhull).

    Voronoi vertices are the triangles' circumcentres. A ring of guard points far outside the frame makes
    every real cell closed. For each triangle t and each of its counter-clockwise edges i->j, the Voronoi
    edge dual to i-j runs from the circumcentre of the triangle across that edge (u) to t's, with i on its
    left: these half-edges, where i and j have different owners, outline each owner's region."""

    def __init__(self, points: list[tuple[float, float]], owner: list[str], centre: tuple[float, float],
                 radius: float) -> None:
        from matplotlib.tri import Triangulation

        pts, own, seen = [], list(owner), set()
        for x, y in points:  # every point is kept (indices match the caller's); repeats are nudged apart
            while (round(x, 9), round(y, 9)) in seen:
                x += radius * 1e-6
            seen.add((round(x, 9), round(y, 9)))
            pts.append((x, y))
        for k in range(96):
            a = 2 * math.pi * k / 96
            pts.append((centre[0] + 4 * radius * math.cos(a), centre[1] + 4 * radius * math.sin(a)))
            own.append(_GUARD)
        self.points = np.asarray(pts, dtype=float)
        self.owner = own
        tri = Triangulation(self.points[:, 0], self.points[:, 1])
        self.triangles = tri.triangles
        self.neighbors = tri.neighbors
        p = self.points[self.triangles]
        ax, ay, bx, by, cx, cy = p[:, 0, 0], p[:, 0, 1], p[:, 1, 0], p[:, 1, 1], p[:, 2, 0], p[:, 2, 1]
        d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
        d = np.where(np.abs(d) < 1e-300, 1e-300, d)
        a2, b2, c2 = ax * ax + ay * ay, bx * bx + by * by, cx * cx + cy * cy
        self.vertices = np.column_stack(((a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d,
                                         (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d))
        self.half: list[tuple[str, str, int, int]] = []  # (left owner, right owner, from vertex, to vertex)
        self.joins: list[tuple[int, int, int, int]] = []  # same owner: (i, j, u, t)
        own_arr = own
        for t, (tri_pts, nbs) in enumerate(zip(self.triangles.tolist(), self.neighbors.tolist())):
            for k in range(3):
                i, j, u = tri_pts[k], tri_pts[(k + 1) % 3], nbs[k]
                if u < 0:
                    continue
                if own_arr[i] != own_arr[j]:
                    self.half.append((own_arr[i], own_arr[j], u, t))
                elif i < j:
                    self.joins.append((i, j, u, t))


def _inside_frame(frame_shape: str, bounds, centre, radius):
    if frame_shape == "disc":
        return lambda x, y: math.hypot(x - centre[0], y - centre[1]) <= radius
    x0, x1, y0, y1 = bounds
    return lambda x, y: x0 <= x <= x1 and y0 <= y <= y1


def _clip_segment(frame_shape: str, bounds, centre, radius):
    """A function giving the parameter range [t0, t1] of a segment p->q inside the frame (None if outside)."""
    if frame_shape == "disc":
        def clip(p, q):
            dx, dy = q[0] - p[0], q[1] - p[1]
            fx, fy = p[0] - centre[0], p[1] - centre[1]
            a = dx * dx + dy * dy
            if a < 1e-30:
                return None
            b = 2 * (fx * dx + fy * dy)
            c = fx * fx + fy * fy - radius * radius
            disc = b * b - 4 * a * c
            if disc <= 0:
                return None
            r = math.sqrt(disc)
            t0, t1 = max(0.0, (-b - r) / (2 * a)), min(1.0, (-b + r) / (2 * a))
            return (t0, t1) if t1 > t0 else None
        return clip
    x0, x1, y0, y1 = bounds

    def clip(p, q):
        t0, t1 = 0.0, 1.0
        dx, dy = q[0] - p[0], q[1] - p[1]
        for pp, qq in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
            if pp == 0:
                if qq < 0:
                    return None
                continue
            t = qq / pp
            if pp < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
        return (t0, t1) if t1 > t0 else None
    return clip


def _contacts(diagram: Diagram, clip) -> dict[frozenset, list]:
    """Shared boundary of each pair of owners inside the frame: [length, x*length, y*length]."""
    out: dict[frozenset, list] = {}
    v = diagram.vertices
    for a, b, u, t in diagram.half:
        if a > b or _GUARD in (a, b):
            continue
        p, q = v[u], v[t]
        span = clip(p, q)
        if span is None:
            continue
        t0, t1 = span
        length = math.hypot(q[0] - p[0], q[1] - p[1]) * (t1 - t0)
        tm = (t0 + t1) / 2
        acc = out.setdefault(frozenset((a, b)), [0.0, 0.0, 0.0])
        acc[0] += length
        acc[1] += (p[0] + tm * (q[0] - p[0])) * length
        acc[2] += (p[1] + tm * (q[1] - p[1])) * length
    return out


def _fragments(diagram: Diagram, inside, first: dict[str, int]) -> list[tuple[str, list[int], list[int]]]:
    """Pieces of a space cut off from the piece holding its position: (owner, main seeds, piece seeds)."""
    n = len(diagram.points)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    v = diagram.vertices
    for i, j, u, t in diagram.joins:
        if math.dist(v[u], v[t]) > 1e-12 and (inside(*v[u]) or inside(*v[t])):
            parent[find(i)] = find(j)
    groups: dict[str, dict[int, list[int]]] = {}
    for i, o in enumerate(diagram.owner):
        if o != _GUARD and inside(*diagram.points[i]):
            groups.setdefault(o, {}).setdefault(find(i), []).append(i)
    out = []
    for o, comps in groups.items():
        if len(comps) > 1 and o in first:
            root = find(first[o])
            for r, members in comps.items():
                if r != root and root in comps:
                    out.append((o, comps[root], members))
    return out


def _segments_cross(p1, p2, p3, p4) -> bool:
    def ccw(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return ccw(p1, p2, p3) * ccw(p1, p2, p4) < 0 and ccw(p3, p4, p1) * ccw(p3, p4, p2) < 0


def _adjacency(board: Board) -> dict[str, set[str]]:
    adjacent: dict[str, set[str]] = {p: set() for p in board.provinces}
    for b in board.borders:
        if b.kind == "bridge":
            continue  # bridges are drawn as lines: the two ends need not touch
        a, c = split_location(b.a)[0], split_location(b.b)[0]
        if a != c:
            adjacent[a].add(c)
            adjacent[c].add(a)
    return adjacent


def _fit_borders(board: Board, seeds, owner, frame_info, pt: float, rounds: int = 10, debug: bool = False):
    """Seeds whose Voronoi regions touch where the board has a border, and (nearly) only there.

    Each space is the region nearest to its star: chains of seeds from its position (and its extra seeds)
    half-way along each of its borders, drawn straight to the neighbour. Two bordering spaces then meet
    half-way, and each space is one piece. Border lines that would cross others are left out, the most
    crossed (then the longest) first: five spaces meeting at a point, as at the Bering Strait, cannot all
    share edges in the plane. Where two spaces without a border still touch (across a four-sided face), a
    chain of a space bordering both is run to their common edge; a few rounds of that, the best one kept.
    Returns the Voronoi diagram."""
    centre, radius, inside, clip = frame_info
    adjacent = _adjacency(board)
    points: dict[str, list[tuple[float, float]]] = {}
    for xy, o in zip(seeds, owner):
        points.setdefault(o, []).append(tuple(xy))
    seeds, owner = list(seeds), list(owner)
    first = {o: owner.index(o) for o in points}  # each space's position: its first seed
    given = len(seeds)  # the positions and the variant's own seeds, never given away
    spacing = 5.0 * pt

    def chain(o: str, start, end, t1: float) -> None:
        (x0, y0), (x1, y1) = start, end
        n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) * t1 / spacing))
        for k in range(1, n + 1):
            t = t1 * k / n
            seeds.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0)))
            owner.append(o)

    for o, pts in points.items():  # a space's extra seeds are joined to its position
        for extra in pts[1:]:
            chain(o, pts[0], extra, 0.999)
    links = {}
    for a in sorted(adjacent):
        for c in sorted(adjacent[a]):
            if a < c:
                links[(a, c)] = min(((p, q) for p in points[a] for q in points[c]), key=lambda pq: math.dist(*pq))
    while True:  # leave out the border lines that cross others, the most crossed (then longest) first
        crossings: dict[tuple[str, str], int] = {}
        items = list(links.items())
        for i, (e, (p1, p2)) in enumerate(items):
            for f, (p3, p4) in items[i + 1:]:
                if not set(e) & set(f) and _segments_cross(p1, p2, p3, p4):
                    crossings[e] = crossings.get(e, 0) + 1
                    crossings[f] = crossings.get(f, 0) + 1
        if not crossings:
            break
        worst = max(crossings, key=lambda e: (crossings[e], math.dist(*links[e]), e))
        del links[worst]
    for (a, c), (p, q) in links.items():
        chain(a, p, q, 0.47)
        chain(c, q, p, 0.47)

    tolerance = 2.0 * pt
    best = None
    for round_ in range(rounds + 1):
        diagram = Diagram(seeds, owner, centre, radius)
        contacts = _contacts(diagram, clip)
        false = []
        for pair, (length, sx, sy) in contacts.items():
            a, c = tuple(pair)
            if not (a.startswith("!") or c.startswith("!")) and c not in adjacent[a] and length > tolerance:
                false.append((length, a, c, (sx / length, sy / length)))
        pieces = _fragments(diagram, inside, first)
        missing = [e for e in links if contacts.get(frozenset(e), [0.0])[0] <= 0]
        score = sum(x[0] for x in false) / pt + 20 * len(pieces) + 20 * len(missing)
        if debug:
            print("round", round_, len(seeds), "false", sorted((round(x[0] / pt, 1), x[1], x[2]) for x in false),
                  "fragments", [(o, len(p)) for o, _, p in pieces], "missing", missing)
        if best is None or score < best[0]:
            best = (score, diagram, len(seeds))
        if not false:
            break
        arr = np.asarray(seeds)
        by_owner: dict[str, list[int]] = {}
        for i, o in enumerate(owner):
            by_owner.setdefault(o, []).append(i)

        def nearest(o: str, x: float, y: float, arr=arr, by_owner=by_owner) -> tuple[float, float]:
            idx = by_owner[o]
            j = idx[int(np.argmin(np.hypot(arr[idx, 0] - x, arr[idx, 1] - y)))]
            return float(arr[j, 0]), float(arr[j, 1])

        for _, a, c, (mx, my) in sorted(false, reverse=True):
            candidates = (adjacent[a] & adjacent[c]) or (adjacent[a] | adjacent[c])
            if candidates:
                third = min(sorted(candidates), key=lambda o: math.dist(nearest(o, mx, my), (mx, my)))
                chain(third, nearest(third, mx, my), (mx, my), 1.0)
    diagram, n = best[1], best[2]
    seeds, owner = seeds[:n], owner[:n]
    # A piece of a space cut off from the rest (a chain that ran through a neighbour) joins the space
    # around it.
    for _ in range(3):
        pieces = _fragments(diagram, inside, first)
        if not pieces:
            break
        nbrs: dict[int, set[int]] = {}
        for tri_pts in diagram.triangles.tolist():
            for k in range(3):
                i, j = tri_pts[k], tri_pts[(k + 1) % 3]
                nbrs.setdefault(i, set()).add(j)
                nbrs.setdefault(j, set()).add(i)
        for o, _, piece in pieces:
            members = set(piece)
            counts: dict[str, int] = {}
            for i in piece:
                for j in nbrs.get(i, ()):
                    if j not in members and diagram.owner[j] not in (o, _GUARD):
                        counts[diagram.owner[j]] = counts.get(diagram.owner[j], 0) + 1
            if not counts:
                continue
            new_owner = max(sorted(counts), key=lambda k: counts[k])
            for i in piece:
                if i >= given:
                    owner[i] = new_owner
        diagram = Diagram(seeds, owner, centre, radius)
    return diagram


def _smooth(diagram: Diagram, iterations: int = 4) -> np.ndarray:
    """Voronoi vertices with the boundaries between owners smoothed (Laplacian, junctions kept), so the
    chains of seeds leave no saw-tooth edges."""
    v = diagram.vertices.copy()
    links: dict[int, set[int]] = {}
    for a, b, u, t in diagram.half:
        if u != t:
            links.setdefault(u, set()).add(t)
            links.setdefault(t, set()).add(u)
    movable = [k for k, ns in links.items() if len(ns) == 2]
    if not movable:
        return v
    idx = np.array(movable)
    nb = np.array([sorted(links[k]) for k in movable])
    for _ in range(iterations):
        v[idx] = 0.5 * v[idx] + 0.25 * (v[nb[:, 0]] + v[nb[:, 1]])
    return v


def _simplify(diagram: Diagram, vertices: np.ndarray, tolerance: float) -> set[int]:
    """The boundary vertices that Douglas-Peucker simplification of each boundary line (between junctions)
    leaves out. Loops and border lines both skip them, so the fills and the lines stay together."""
    links: dict[int, set[int]] = {}
    for a, b, u, t in diagram.half:
        if u != t:
            links.setdefault(u, set()).add(t)
            links.setdefault(t, set()).add(u)
    drop: set[int] = set()
    seen: set[int] = set()

    def dp(line: list[int]) -> None:
        if len(line) < 3:
            return
        p, q = vertices[line[0]], vertices[line[-1]]
        d = q - p
        norm = math.hypot(d[0], d[1])
        pts = vertices[line[1:-1]]
        if norm < 1e-12:
            dist = np.hypot(pts[:, 0] - p[0], pts[:, 1] - p[1])
        else:
            dist = np.abs(d[0] * (pts[:, 1] - p[1]) - d[1] * (pts[:, 0] - p[0])) / norm
        k = int(np.argmax(dist))
        if dist[k] <= tolerance:
            drop.update(line[1:-1])
        else:
            dp(line[:k + 2])
            dp(line[k + 1:])

    for start, ns in links.items():
        if len(ns) == 2:
            continue
        for n in ns:  # walk each line from a junction
            line = [start, n]
            while len(links[line[-1]]) == 2 and line[-1] not in seen:
                seen.add(line[-1])
                a, b = links[line[-1]]
                line.append(a if a != line[-2] else b)
            if len(line) > 2:  # (a line already walked from its other end stops at once)
                dp(line)
    return drop


def _loops(diagram: Diagram, vertices: np.ndarray, drop: set[int] = frozenset()) -> dict[str, list[list[tuple[float, float]]]]:
    """Each owner's region as closed loops of its boundary half-edges (the region on their left)."""
    out_edges: dict[str, dict[int, list[int]]] = {}
    for a, b, u, t in diagram.half:
        if a != _GUARD:
            out_edges.setdefault(a, {}).setdefault(u, []).append(t)
    loops: dict[str, list] = {}
    for o, edges in out_edges.items():
        for start in list(edges):
            while edges.get(start):
                loop = [start]
                cur = edges[start].pop()
                guard = 0
                while cur != start and guard < 100000:
                    loop.append(cur)
                    nxt = edges.get(cur)
                    if not nxt:
                        break
                    cur = nxt.pop()
                    guard += 1
                loop = [k for k in loop if k not in drop]
                if len(loop) >= 3:
                    loops.setdefault(o, []).append([(float(vertices[k][0]), float(vertices[k][1])) for k in loop])
    return loops


def _border_lines(diagram: Diagram, vertices: np.ndarray, inside, drop: set[int] = frozenset()) -> list[tuple[str, str, list]]:
    """The boundaries between two owners as polylines (each once)."""
    segs: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for a, b, u, t in diagram.half:
        if a < b and _GUARD not in (a, b) and u != t:
            segs.setdefault((a, b), []).append((u, t))
    out = []
    for (a, b), edges in segs.items():
        nxt = {u: t for u, t in edges}
        prev = {t: u for u, t in edges}
        done = set()
        for u, t in edges:
            if u in done:
                continue
            start = u
            while start in prev and prev[start] not in done and prev[start] != u:
                start = prev[start]
            line = [start]
            done.add(start)
            cur = nxt.get(start)
            while cur is not None and cur not in done:
                line.append(cur)
                done.add(cur)
                cur = nxt.get(cur)
            if cur is not None and cur == start:
                line.append(start)
            pts = [(float(vertices[k][0]), float(vertices[k][1])) for k in line if k not in drop or k == line[0]
                   or k == line[-1]]
            if len(pts) >= 2 and any(inside(*p) for p in pts):
                out.append((a, b, pts))
    return out


def _drawing(board: Board) -> dict[str, Any]:
    raw = getattr(board, "raw", None) or {}
    return dict(raw.get("drawing") or {})


def geometry(board: Board) -> Geometry:
    """The board's map geometry (computed once per board)."""
    cache = board.__dict__.setdefault("_render_cache", {})
    if "geometry" not in cache:
        cache["geometry"] = _build_geometry(board)
    return cache["geometry"]


def _build_geometry(board: Board, debug: bool = False) -> Geometry:
    spec = _drawing(board)
    proj_spec = dict(spec.get("projection") or {})
    positioned = all(p.position is not None for p in board.provinces.values())
    polar = False
    name = str(proj_spec.get("name", "azimuthal-equidistant"))
    if name not in PROJECTIONS:
        raise VariantError(f"drawing: unknown projection {name!r}; use one of {', '.join(PROJECTIONS)}",
                           file=board.source)
    if positioned:
        centre = proj_spec.get("centre")
        if name == "north-polar":
            centre, polar = (90.0, 0.0), True
        elif centre is None:  # no drawing data: centre on the positions, or on the pole they surround
            centre, polar = _centre_of([p.position for p in board.provinces.values()])
        proj = Projection(tuple(centre), float(proj_spec.get("rotation", 0.0)), proj_spec.get("central_longitude"))
        def project(latlon, proj=proj) -> tuple[float, float]:
            return proj(float(latlon[0]), float(latlon[1]))

        anchor = {pid: project(p.position) for pid, p in board.provinces.items()}
    else:  # a variant without drawing data: a force-directed layout of its graph
        import networkx as nx

        layout = nx.spring_layout(board.graph, seed=7, iterations=200)
        anchor = {pid: (float(layout[pid][0]) * 40, float(layout[pid][1]) * 40) for pid in board.provinces}
        project = None  # type: ignore[assignment]

    seeds: list[tuple[float, float]] = list(anchor.values())
    owner: list[str] = list(anchor)
    if project is not None:
        for pid, extra in (spec.get("seeds") or {}).items():
            if str(pid) in board.provinces:
                for latlon in extra or []:
                    seeds.append(project(latlon))
                    owner.append(str(pid))
        for entry in spec.get("impassable") or []:
            name = str(entry.get("name", "impassable"))
            for latlon in entry.get("seeds") or ([entry["pos"]] if "pos" in entry else []):
                seeds.append(project(latlon))
                owner.append("!" + name)

    xs = [x for x, _ in seeds]
    ys = [y for _, y in seeds]
    frame_spec = dict(spec.get("frame") or {})
    shape = str(frame_spec.get("shape", "disc" if polar else "rectangle"))
    if shape == "disc":
        cx, cy = (0.0, 0.0) if project is not None else (float(np.mean(xs)), float(np.mean(ys)))
        if "centre" in frame_spec and project is not None:
            cx, cy = project(frame_spec["centre"])
        radius = float(frame_spec.get("radius", max(math.hypot(x - cx, y - cy) for x, y in seeds) * 1.06))
        frame = [(cx + radius * math.cos(2 * math.pi * k / 360), cy + radius * math.sin(2 * math.pi * k / 360))
                 for k in range(360)]
        bounds = (cx - radius, cx + radius, cy - radius, cy + radius)
    else:
        m = frame_spec.get("margin", 2.0)
        ml, mr, mb, mt = (m, m, m, m) if isinstance(m, (int, float)) else (float(v) for v in m)
        x0, x1, y0, y1 = min(xs) - ml, max(xs) + mr, min(ys) - mb, max(ys) + mt
        frame = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        bounds = (x0, x1, y0, y1)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        radius = math.hypot(x1 - x0, y1 - y0) / 2
    inside = _inside_frame(shape, bounds, (cx, cy), radius)
    clip = _clip_segment(shape, bounds, (cx, cy), radius)
    pt = (bounds[1] - bounds[0]) / (FIG_WIDTH_IN * 72.0)

    if spec.get("fit_borders", True):
        diagram = _fit_borders(board, seeds, owner, ((cx, cy), radius, inside, clip), pt, debug=debug)
    else:
        diagram = Diagram(seeds, owner, (cx, cy), radius)
    vertices = _smooth(diagram)
    drop = _simplify(diagram, vertices, 0.25 * pt)
    loops = _loops(diagram, vertices, drop)
    outlines = {o: ls for o, ls in loops.items() if not o.startswith("!")}
    impassable = {o[1:]: ls for o, ls in loops.items() if o.startswith("!")}
    borders = _border_lines(diagram, vertices, inside, drop)

    adjacent = _adjacency(board)
    contacts = _contacts(diagram, clip)
    not_touching, touching = [], []
    for a in sorted(adjacent):
        for c in sorted(adjacent[a]):
            if a < c and contacts.get(frozenset((a, c)), [0.0])[0] <= 0:
                not_touching.append((a, c))
    for pair, (length, _, _) in contacts.items():
        a, c = sorted(pair)
        if a in adjacent and c in adjacent and c not in adjacent[a] and length > 2.0 * pt:
            touching.append((a, c))
    unmatched = {"not touching": not_touching, "touching": sorted(touching)}

    location = {}
    if project is not None:
        for loc, latlon in (spec.get("coasts") or {}).items():
            location[str(loc)] = project(latlon)
    for pid, p in board.provinces.items():
        for c in p.coasts:
            location.setdefault(f"{pid}/{c}", _coast_spot(board, anchor, pid, c, pt))

    label_case = str(spec.get("label_case", "id"))
    labels = {}
    for pid in board.provinces:
        labels[pid] = pid.title() if label_case == "title" else (pid.upper() if label_case == "upper" else pid)
    labels.update({str(k): str(v) for k, v in (spec.get("labels") or {}).items()})
    offsets = {str(k): (float(v[0]), float(v[1])) for k, v in (spec.get("label_offsets") or {}).items()}
    bridges = [(split_location(b.a)[0], split_location(b.b)[0]) for b in board.borders if b.kind == "bridge"]
    return Geometry(anchor, location, outlines, impassable, borders, frame, bounds, offsets, labels, bridges,
                    unmatched)


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


# ----- drawing -----------------------------------------------------------------------------------------------
@dataclass
class MapStyle:
    """Sizes in points (1/72 inch; the picture is 10 inches wide)."""

    unit: float = 8.0  # half the width of a unit silhouette
    label: float = 7.6  # label font size
    centre: float = 3.2  # radius of a supply-centre marker
    label_gap: float = 11.0  # from a space's anchor down to its label's centre
    dislodged_offset: tuple[float, float] = (13.0, 6.0)  # right, up


class _Painter:
    def __init__(self, board: Board, state: GameState, results: Any, style: MapStyle | None = None) -> None:
        if not isinstance(board, Board):
            raise TypeError(f"board pictures are drawn for Diplomacy variants (rules: diplomacy), not for "
                            f"{getattr(board, 'title', type(board).__name__)}")
        self.board = board
        self.state = state
        self.style = style or MapStyle()
        self.geo = geometry(board)
        self.season = board.season_key(state.phase.season)
        self.orders = parse_results(board, results)
        self.colours = self._colours()
        xmin, xmax, ymin, ymax = self.geo.bounds
        self.map_w_in = FIG_WIDTH_IN
        self.map_h_in = FIG_WIDTH_IN * (ymax - ymin) / (xmax - xmin)
        self.pt = (xmax - xmin) / (self.map_w_in * 72.0)  # map units per point

    # -- helpers
    def _colours(self) -> dict[str, str]:
        colours = {}
        spare = iter(FALLBACK_COLOURS)
        for name, power in self.board.powers.items():
            colours[name] = power.colour or next(spare, "#777777")
        return colours

    def colour(self, power: str | None) -> str:
        return self.colours.get(power or "", "#777777")

    def at(self, location: str) -> tuple[float, float]:
        if location in self.geo.location:
            return self.geo.location[location]
        return self.geo.anchor[split_location(location)[0]]

    def unit_xy(self, location: str, dislodged: bool = False) -> tuple[float, float]:
        x, y = self.at(location)
        if dislodged:
            dx, dy = self.style.dislodged_offset
            x, y = x + dx * self.pt, y + dy * self.pt
        return x, y

    # -- the picture
    def figure(self) -> Figure:
        legend_h = self._legend_height()
        fig = Figure(figsize=(FIG_WIDTH_IN, self.map_h_in + legend_h), facecolor="white")
        total = self.map_h_in + legend_h
        ax = fig.add_axes((0, legend_h / total, 1, self.map_h_in / total))
        ax.set_axis_off()
        xmin, xmax, ymin, ymax = self.geo.bounds
        ax.set_xlim(xmin, xmax)
        ax.set_ylim(ymin, ymax)
        ax.set_aspect("auto")
        self.ax = ax
        self._draw_spaces()
        self._draw_borders()
        self._draw_bridges()
        self._draw_centres()
        self._draw_labels()
        self._draw_order_lines(below_units=True)
        self._draw_units()
        self._draw_order_lines(below_units=False)
        lax = fig.add_axes((0, 0, 1, legend_h / total))
        lax.set_axis_off()
        lax.set_xlim(0, FIG_WIDTH_IN * 72)
        lax.set_ylim(0, legend_h * 72)
        self._draw_legend(lax, legend_h * 72)
        return fig

    def _draw_spaces(self) -> None:
        ax = self.ax
        frame = Polygon(self.geo.frame, closed=True, facecolor=TERRAIN_FILL["sea"], edgecolor="none", zorder=0)
        frame.set_gid("frame")
        ax.add_patch(frame)
        self.clip = frame
        for name, polys in self.geo.impassable.items():
            patch = PathPatch(_compound(polys), facecolor=IMPASSABLE_FILL, edgecolor="#A09A90", hatch="xx",
                              linewidth=0, zorder=1)
            _hatch_colour(patch, "#A09A90")
            patch.set_gid(f"impassable-{_id(name)}")
            patch.set_clip_path(frame)
            ax.add_patch(patch)
        for pid in self.board.provinces:
            polys = self.geo.outlines.get(pid)
            if not polys:
                continue
            surface = self.board.surface(pid, self.season)
            fill = TERRAIN_FILL.get(surface, "#DDDDDD")
            if surface == "ice":
                patch = PathPatch(_compound(polys), facecolor=fill, edgecolor=ICE_HATCH, hatch="////", linewidth=0,
                                  zorder=1)
                _hatch_colour(patch, ICE_HATCH)
            else:
                patch = PathPatch(_compound(polys), facecolor=fill, edgecolor=fill, linewidth=0.3, zorder=1)
            patch.set_gid(f"space-{_id(pid)}")
            patch.set_clip_path(frame)
            ax.add_patch(patch)
        outline = Polygon(self.geo.frame, closed=True, facecolor="none", edgecolor="#4A4A48", linewidth=1.4,
                          zorder=6)
        outline.set_gid("frame-outline")
        ax.add_patch(outline)

    def _surface(self, owner: str) -> str:
        if owner.startswith("!"):
            return "impassable"
        return self.board.surface(owner, self.season)

    def _draw_borders(self) -> None:
        from matplotlib.collections import LineCollection

        groups: dict[str, list] = {}
        for a, b, line in self.geo.borders:
            sa, sb = sorted((self._surface(a), self._surface(b)))
            if "impassable" in (sa, sb):
                kind = "coast" if "sea" in (sa, sb) else "land"
            elif sa == sb == "land":
                kind = "land"
            elif sa == sb == "sea":
                kind = "water"
            elif "land" in (sa, sb):
                kind = "coast"
            else:
                kind = "ice"
            groups.setdefault(kind, []).append(line)
        for kind in ("water", "ice", "land", "coast"):
            if kind not in groups:
                continue
            colour, width = BORDER_STYLE[kind]
            lc = LineCollection(groups[kind], colors=colour, linewidths=width, zorder=3 if kind != "coast" else 4,
                                capstyle="round", joinstyle="round")
            lc.set_gid(f"borders-{kind}")
            lc.set_clip_path(self.clip)
            self.ax.add_collection(lc)

    def _draw_bridges(self) -> None:
        for a, b in self.geo.bridges:
            (x0, y0), (x1, y1) = self.geo.anchor[a], self.geo.anchor[b]
            line = self.ax.plot([x0, x1], [y0, y1], color="#8B5A2B", linewidth=2.2, linestyle=(0, (1.2, 1.2)),
                                solid_capstyle="butt", zorder=5, alpha=0.9)[0]
            line.set_gid(f"bridge-{_id(a)}-{_id(b)}")

    def _centre_xy(self, pid: str) -> tuple[float, float]:
        x, y = self.geo.anchor[pid]
        dx, dy = self.geo.label_offset.get(pid, (0.0, 0.0))
        text = self.geo.labels.get(pid, pid)
        half = _text_width(text, self.style.label, bold=True) / 2
        return x + (dx + half + self.style.centre + 2.2) * self.pt, y + (dy - self.style.label_gap) * self.pt

    def _draw_centres(self) -> None:
        r = self.style.centre * self.pt
        for pid in self.board.centres:
            x, y = self._centre_xy(pid)
            owner = self.state.owners.get(pid)
            if owner:
                marker = Circle((x, y), r * 1.15, facecolor=self.colour(owner), edgecolor="#1A1A1A", linewidth=1.0,
                                zorder=7)
            else:
                marker = Circle((x, y), r, facecolor="none", edgecolor=NEUTRAL, linewidth=1.6, zorder=7)
            marker.set_gid(f"centre-{_id(pid)}")
            self.ax.add_patch(marker)

    def _draw_labels(self) -> None:
        for pid, p in self.board.provinces.items():
            x, y = self.geo.anchor[pid]
            dx, dy = self.geo.label_offset.get(pid, (0.0, 0.0))
            surface = self.board.surface(pid, self.season)
            t = self.ax.text(x + dx * self.pt, y + (dy - self.style.label_gap) * self.pt, self.geo.labels[pid],
                             ha="center", va="center", fontsize=self.style.label, zorder=9.8,
                             color=SEA_TEXT if surface == "sea" else TEXT,
                             fontstyle="italic" if surface == "sea" else "normal",
                             fontweight="bold" if p.centre else "normal")
            t.set_bbox({"boxstyle": "round,pad=0.12,rounding_size=0.3", "facecolor": (1, 1, 1, 0.55),
                        "edgecolor": "none"})
            t.set_gid(f"label-{_id(pid)}")
            for c in p.coasts:
                loc = f"{pid}/{c}"
                if loc in self.geo.location and self.geo.location[loc] != self.geo.anchor[pid]:
                    cx, cy = self.geo.location[loc]
                    ct = self.ax.text(cx, cy - (self.style.unit + 3.5) * self.pt, c, ha="center", va="center",
                                      fontsize=self.style.label * 0.8, color=SEA_TEXT, zorder=8, fontstyle="italic")
                    ct.set_bbox({"boxstyle": "round,pad=0.1,rounding_size=0.3", "facecolor": (1, 1, 1, 0.55),
                                 "edgecolor": "none"})
                    ct.set_gid(f"coast-{_id(loc)}")
                    dot = Circle((cx, cy), 1.3 * self.pt, facecolor=SEA_TEXT, edgecolor="none", zorder=5)
                    dot.set_gid(f"coastmark-{_id(loc)}")
                    self.ax.add_patch(dot)

    def _glyph(self, unit_type: str, x: float, y: float, face: str, *, scale: float = 1.0, alpha: float = 1.0,
               linestyle: str = "solid", edge: str = "#111111", zorder: float = 10, gid: str | None = None,
               ax=None, unit_pt: float | None = None) -> PathPatch:
        size = (unit_pt or self.style.unit * self.pt) * scale
        pts = _ARMY if unit_type == ARMY else _FLEET
        verts = [(x + u * size, y + v * size) for u, v in pts]
        patch = Polygon(verts, closed=True, facecolor=face, edgecolor=edge, linewidth=1.0, alpha=alpha,
                        linestyle=linestyle, joinstyle="round", zorder=zorder)
        if gid:
            patch.set_gid(gid)
        (ax or self.ax).add_patch(patch)
        return patch

    def _draw_units(self) -> None:
        for unit in sorted(self.state.units.values(), key=lambda u: u.location):
            x, y = self.unit_xy(unit.location)
            self._glyph(unit.type, x, y, self.colour(unit.power), gid=f"unit-{_id(unit.power)}-{unit.type}-"
                                                                         f"{_id(unit.location)}")
        for d in self.state.dislodged.values():
            unit = d.unit
            x, y = self.unit_xy(unit.location, dislodged=True)
            ring = Circle((x, y), self.style.unit * 1.35 * self.pt, facecolor=(1, 1, 1, 0.75), edgecolor=FAILED,
                          linewidth=1.6, linestyle=(0, (2.5, 1.5)), zorder=11)
            ring.set_gid(f"dislodged-mark-{_id(unit.location)}")
            self.ax.add_patch(ring)
            self._glyph(unit.type, x, y, self.colour(unit.power), scale=0.85, zorder=12,
                        gid=f"dislodged-{_id(unit.power)}-{unit.type}-{_id(unit.location)}")

    # -- orders
    def _route(self, origin: str, dest: str, *, from_dislodged: bool = False):
        return self.unit_xy(origin, dislodged=from_dislodged), self.at(dest)

    def _arrow(self, p, q, colour: str, *, ok: bool, style: str, gid: str, shrink_a: float, shrink_b: float,
               rad: float = 0.0, head: bool = True, width: float = 2.2) -> FancyArrowPatch:
        alpha = 1.0 if ok else 0.55
        linestyle = {"solid": "solid", "dashed": (0, (4.0, 2.2)), "dotted": (0, (1.0, 1.8))}[style]
        arrowstyle = f"-|>,head_length={4.2 + width:.1f},head_width={2.4 + width * 0.7:.1f}" if head else "-"
        arrow = FancyArrowPatch(p, q, arrowstyle=arrowstyle, connectionstyle=f"arc3,rad={rad}",
                                shrinkA=shrink_a, shrinkB=shrink_b, mutation_scale=1.0, linewidth=width,
                                linestyle=linestyle, color=colour, alpha=alpha, zorder=9 if style != "solid" else 9.5,
                                capstyle="butt", joinstyle="miter")
        arrow.set_path_effects([patheffects.withStroke(linewidth=width + 1.8, foreground="#111111", alpha=alpha),
                                patheffects.Normal()])
        arrow.set_gid(gid)
        self.ax.add_patch(arrow)
        if not ok:
            self._cross_on(p, q, rad, shrink_a, shrink_b, gid)
        return arrow

    def _cross_on(self, p, q, rad, shrink_a, shrink_b, gid) -> None:
        (x0, y0), (x1, y1) = p, q
        t = 0.62
        # the arc3 curve's point at t (quadratic Bezier with its control point off the chord)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        cx, cy = mx + rad * (y1 - y0), my - rad * (x1 - x0)
        bx = (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t ** 2 * x1
        by = (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t ** 2 * y1
        s = 3.6 * self.pt
        cross = Path([(bx - s, by - s), (bx + s, by + s), (bx - s, by + s), (bx + s, by - s)],
                     [Path.MOVETO, Path.LINETO, Path.MOVETO, Path.LINETO])
        patch = PathPatch(cross, edgecolor=FAILED, linewidth=2.6, capstyle="round", zorder=13, facecolor="none")
        patch.set_path_effects([patheffects.withStroke(linewidth=4.6, foreground="white"), patheffects.Normal()])
        patch.set_gid(f"{gid}-failed")
        self.ax.add_patch(patch)

    def _move_of(self, location: str) -> DrawnOrder | None:
        for o in self.orders:
            if o.kind == "move" and o.origin and split_location(o.origin)[0] == split_location(location)[0]:
                return o
        return None

    def _draw_order_lines(self, below_units: bool) -> None:
        unit_pts = self.style.unit + 1.5
        dislodged = {split_location(d.unit.location)[0] for d in self.state.dislodged.values()}
        for o in self.orders:
            colour = self.colour(o.power)
            gid = f"order-{o.number}-{o.kind}"
            if o.kind in ("move", "retreat") and not below_units and o.dest:
                from_dislodged = o.kind == "retreat" and split_location(o.origin)[0] in dislodged
                dest = split_location(o.dest)[0] if o.unit_type == ARMY else o.dest  # armies ignore coasts
                p, q = self._route(o.origin, dest, from_dislodged=from_dislodged)
                self._arrow(p, q, colour, ok=o.ok, style="solid", gid=gid, shrink_a=unit_pts, shrink_b=unit_pts * 0.7,
                            rad=0.12, width=2.4 if o.kind == "move" else 1.8)
            elif o.kind == "support" and below_units and o.target:
                p = self.unit_xy(o.origin)
                if o.target_dest:
                    q = self.at(o.target_dest)
                    self._arrow(p, q, colour, ok=o.ok, style="dashed", gid=gid, shrink_a=unit_pts,
                                shrink_b=unit_pts * 0.9, rad=-0.08, width=1.5)
                else:  # support to hold: a dashed line to a ring round the supported unit
                    q = self.unit_xy(o.target)
                    self._arrow(p, q, colour, ok=o.ok, style="dashed", gid=gid, shrink_a=unit_pts,
                                shrink_b=unit_pts + 3, head=False, width=1.5)
                    ring = Circle(q, (self.style.unit + 3) * self.pt, facecolor="none", edgecolor=colour,
                                  linewidth=1.5, linestyle=(0, (3, 1.6)), alpha=1.0 if o.ok else 0.55, zorder=9)
                    ring.set_path_effects([patheffects.withStroke(linewidth=3.0, foreground="#111111"),
                                           patheffects.Normal()])
                    ring.set_gid(f"{gid}-ring")
                    self.ax.add_patch(ring)
            elif o.kind == "convoy" and below_units and o.target and o.target_dest:
                p = self.unit_xy(o.origin)
                a, b = self.at(o.target), self.at(o.target_dest)
                q = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                self._arrow(p, q, colour, ok=o.ok, style="dotted", gid=gid, shrink_a=unit_pts, shrink_b=2.0,
                            width=1.8, head=True)
            elif o.kind == "hold" and below_units and o.origin:
                q = self.unit_xy(o.origin)
                ring = Circle(q, (self.style.unit + 2.5) * self.pt, facecolor="none", edgecolor=colour,
                              linewidth=1.8, alpha=1.0 if o.ok else 0.55, zorder=9)
                ring.set_path_effects([patheffects.withStroke(linewidth=3.4, foreground="#111111"),
                                       patheffects.Normal()])
                ring.set_gid(gid)
                self.ax.add_patch(ring)
            elif o.kind == "disband" and not below_units and o.origin:
                x, y = self.unit_xy(o.origin, dislodged=split_location(o.origin)[0] in dislodged)
                s = self.style.unit * 1.1 * self.pt
                cross = Path([(x - s, y - s), (x + s, y + s), (x - s, y + s), (x + s, y - s)],
                             [Path.MOVETO, Path.LINETO, Path.MOVETO, Path.LINETO])
                patch = PathPatch(cross, edgecolor="#111111", linewidth=2.4, capstyle="round", zorder=13)
                patch.set_path_effects([patheffects.withStroke(linewidth=4.4, foreground="white"),
                                        patheffects.Normal()])
                patch.set_gid(gid)
                self.ax.add_patch(patch)
            elif o.kind == "build" and not below_units and o.origin:
                x, y = self.at(o.origin)
                ring = Circle((x, y), (self.style.unit + 3.5) * self.pt, facecolor=(1, 1, 1, 0.6),
                              edgecolor="#111111", linewidth=1.2, linestyle=(0, (2, 1.5)), zorder=9)
                ring.set_gid(f"{gid}-ring")
                self.ax.add_patch(ring)
                self._glyph(o.unit_type or ARMY, x, y, colour, alpha=0.9 if o.ok else 0.4, linestyle="--",
                            zorder=10, gid=gid)
                if not o.ok:
                    self._cross_on((x, y), (x, y), 0.0, 0, 0, gid)

    # -- the legend
    def _power_entry(self, power: str) -> tuple[str, float]:
        centres = len(self.state.centres_of(power))
        units = len(self.state.units_of(power))
        text = f"{centres} centre{'s' if centres != 1 else ''}, {units} unit{'s' if units != 1 else ''}"
        return text, 20 + _text_width(power, 9.5, bold=True) + 6 + _text_width(text, 9.0)

    def _legend_columns(self) -> int:
        """As many powers a row as fit, the rows filled evenly."""
        n = len(self.board.powers)
        widest = max((self._power_entry(p)[1] for p in self.board.powers), default=100.0) + 14
        fit = max(1, int((FIG_WIDTH_IN * 72 - 24) // widest))
        rows = math.ceil(n / fit)
        return max(1, math.ceil(n / rows))

    def _legend_rows(self) -> int:
        return math.ceil(len(self.board.powers) / self._legend_columns())

    def _legend_height(self) -> float:
        rows = self._legend_rows()
        return (34 + 20 * rows + 24 + (22 if self.orders else 0) + 8) / 72.0

    def _draw_legend(self, ax, height: float) -> None:
        w = FIG_WIDTH_IN * 72
        state, board = self.state, self.board
        ax.add_patch(Rectangle((0, 0), w, height, facecolor="#F7F5F0", edgecolor="none", zorder=0))
        ax.plot([0, w], [height - 0.5, height - 0.5], color="#4A4A48", linewidth=1.0)
        y = height - 18
        phase = state.phase
        ax.text(12, y, f"{board.title}", fontsize=12.5, fontweight="bold", va="center", ha="left", color=TEXT)
        title = f"{phase.season} {phase.year} \u00b7 {phase.type}"
        ax.text(w - 12, y, title, fontsize=12.5, fontweight="bold", va="center", ha="right", color=TEXT)
        y -= 24
        per_row = self._legend_columns()
        col_w = (w - 24) / per_row
        unit_pt = 6.0
        for i, power in enumerate(board.powers):
            r, c = divmod(i, per_row)
            x0 = 12 + c * col_w
            yy = y - r * 20
            ax.add_patch(Rectangle((x0, yy - 7), 14, 14, facecolor=self.colour(power), edgecolor="#111111",
                                   linewidth=1.0))
            text, _ = self._power_entry(power)
            ax.text(x0 + 20, yy, power, fontsize=9.5, fontweight="bold", va="center", ha="left", color=TEXT)
            ax.text(x0 + 20 + _text_width(power, 9.5, bold=True) + 6, yy, text, fontsize=9.0, va="center",
                    ha="left", color="#333333")
        y -= 20 * self._legend_rows() + 4
        # key: terrain, units, centres
        x = 12
        ax.text(x, y, "Key:", fontsize=8.5, va="center", ha="left", color="#333333", fontweight="bold")
        x += 30
        for name in ("land", "sea", "ice"):
            patch = Rectangle((x, y - 6), 18, 12, facecolor=TERRAIN_FILL[name], linewidth=0.8,
                              edgecolor=ICE_HATCH if name == "ice" else "#555555",
                              hatch="////" if name == "ice" else None)
            if name == "ice":
                _hatch_colour(patch, ICE_HATCH)
            ax.add_patch(patch)
            ax.add_patch(Rectangle((x, y - 6), 18, 12, facecolor="none", linewidth=0.8, edgecolor="#555555"))
            ax.text(x + 22, y, name, fontsize=8.5, va="center", ha="left", color="#333333")
            x += 22 + _text_width(name, 8.5) + 12
        if self.geo.impassable:
            ax.add_patch(Rectangle((x, y - 6), 18, 12, facecolor=IMPASSABLE_FILL, linewidth=0.8, edgecolor="#555555"))
            ax.text(x + 22, y, "impassable", fontsize=8.5, va="center", ha="left", color="#333333")
            x += 22 + _text_width("impassable", 8.5) + 12
        self._glyph(ARMY, x + 8, y, "#FFFFFF", ax=ax, unit_pt=unit_pt, zorder=3)
        ax.text(x + 19, y, "army", fontsize=8.5, va="center", ha="left", color="#333333")
        x += 19 + _text_width("army", 8.5) + 12
        self._glyph(FLEET, x + 8, y, "#FFFFFF", ax=ax, unit_pt=unit_pt, zorder=3)
        ax.text(x + 19, y, "fleet", fontsize=8.5, va="center", ha="left", color="#333333")
        x += 19 + _text_width("fleet", 8.5) + 12
        ax.add_patch(Circle((x + 8, y), unit_pt * 1.3, facecolor="white", edgecolor=FAILED, linewidth=1.4,
                            linestyle=(0, (2.5, 1.5)), zorder=3))
        self._glyph(ARMY, x + 8, y, "#FFFFFF", ax=ax, unit_pt=unit_pt * 0.8, zorder=4)
        ax.text(x + 20, y, "dislodged", fontsize=8.5, va="center", ha="left", color="#333333")
        x += 20 + _text_width("dislodged", 8.5) + 12
        ax.add_patch(Circle((x + 5, y), 3.3, facecolor="#FFFFFF", edgecolor="#1A1A1A", linewidth=1.0, zorder=3))
        ax.text(x + 12, y, "centre (owner's colour)", fontsize=8.5, va="center", ha="left", color="#333333")
        x += 12 + _text_width("centre (owner's colour)", 8.5) + 12
        ax.add_patch(Circle((x + 5, y), 3.0, facecolor="none", edgecolor=NEUTRAL, linewidth=1.6, zorder=3))
        neutral = len([c for c in board.centres if c not in state.owners])
        ax.text(x + 12, y, f"neutral centre ({neutral})", fontsize=8.5, va="center", ha="left", color="#333333")
        x += 12 + _text_width(f"neutral centre ({neutral})", 8.5) + 12
        if self.geo.bridges:
            ax.plot([x, x + 18], [y, y], color="#8B5A2B", linewidth=2.2, linestyle=(0, (1.2, 1.2)),
                    solid_capstyle="butt")
            ax.text(x + 22, y, "bridge", fontsize=8.5, va="center", ha="left", color="#333333")
        if self.orders:
            y -= 22
            x = 12
            ax.text(x, y, "Orders:", fontsize=8.5, va="center", ha="left", color="#333333", fontweight="bold")
            x += 44
            for label, style, head in (("move", "-", True), ("support", "--", True), ("convoy", ":", True)):
                ls = {"-": "solid", "--": (0, (4.0, 2.2)), ":": (0, (1.0, 1.8))}[style]
                arrow = FancyArrowPatch((x, y), (x + 34, y), arrowstyle="-|>,head_length=6,head_width=3.6",
                                        mutation_scale=1.0, linewidth=2.0, linestyle=ls, color="#FFFFFF")
                arrow.set_path_effects([patheffects.withStroke(linewidth=3.8, foreground="#111111"),
                                        patheffects.Normal()])
                ax.add_artist(arrow)
                ax.text(x + 40, y, label, fontsize=8.5, va="center", ha="left", color="#333333")
                x += 40 + _text_width(label, 8.5) + 16
            s = 3.6
            cross = Path([(x + 8 - s, y - s), (x + 8 + s, y + s), (x + 8 - s, y + s), (x + 8 + s, y - s)],
                         [Path.MOVETO, Path.LINETO, Path.MOVETO, Path.LINETO])
            ax.add_patch(PathPatch(cross, edgecolor=FAILED, linewidth=2.6, capstyle="round", facecolor="none"))
            ax.text(x + 16, y, "failed (faded)", fontsize=8.5, va="center", ha="left", color="#333333")
            x += 16 + _text_width("failed (faded)", 8.5) + 16
            ax.add_patch(Circle((x + 8, y), 6.5, facecolor="none", edgecolor="#111111", linewidth=1.6))
            ax.text(x + 18, y, "hold", fontsize=8.5, va="center", ha="left", color="#333333")
            x += 18 + _text_width("hold", 8.5) + 16
            cross = Path([(x + 8 - s, y - s), (x + 8 + s, y + s), (x + 8 - s, y + s), (x + 8 + s, y - s)],
                         [Path.MOVETO, Path.LINETO, Path.MOVETO, Path.LINETO])
            ax.add_patch(PathPatch(cross, edgecolor="#111111", linewidth=2.4, capstyle="round", facecolor="none"))
            ax.text(x + 16, y, "disband / remove", fontsize=8.5, va="center", ha="left", color="#333333")


def _compound(polys: Iterable[list[tuple[float, float]]]) -> Path:
    paths = [Path(list(poly) + [poly[0]], [Path.MOVETO] + [Path.LINETO] * (len(poly) - 1) + [Path.CLOSEPOLY])
             for poly in polys]
    return Path.make_compound_path(*paths)


def _hatch_colour(patch, colour: str) -> None:
    if hasattr(patch, "set_hatchcolor"):
        patch.set_hatchcolor(colour)


def _id(text: str) -> str:
    """An SVG-safe id fragment: `stp/nc` -> `stp_nc`, spaces -> `_`."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", text)


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of text in points, as matplotlib lays it out with its bundled DejaVu Sans."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    key = (text, size, bold)
    if key not in _WIDTHS:
        prop = FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal", size=size)
        _WIDTHS[key] = float(TextPath((0, 0), text, size=size, prop=prop).get_extents().width) if text.strip() else 0.0
    return _WIDTHS[key]


_WIDTHS: dict[tuple[str, float, bool], float] = {}


def _rc() -> dict[str, Any]:
    return {"svg.fonttype": "path", "svg.hashsalt": "diplomacy-board", "hatch.linewidth": 0.7,
            "font.family": "DejaVu Sans", "path.simplify": False}


# matplotlib's settings are global: one picture at a time per process (threads of a server included).
_LOCK = threading.Lock()


def render_svg(board: Board, state: GameState, results: Any = None) -> str:
    """The position (and the report's orders, when given) as an SVG document."""
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    with _LOCK, matplotlib.rc_context(_rc()):
        fig = _Painter(board, state, results).figure()
        FigureCanvasSVG(fig)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def render_png(board: Board, state: GameState, results: Any = None, width: int = 1000) -> bytes:
    """The position (and the report's orders, when given) as a PNG image `width` pixels wide."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    with _LOCK, matplotlib.rc_context(_rc()):
        fig = _Painter(board, state, results).figure()
        FigureCanvasAgg(fig)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=width / FIG_WIDTH_IN, metadata={"Software": None})
    return buf.getvalue()
