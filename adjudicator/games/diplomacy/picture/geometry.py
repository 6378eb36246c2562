"""The map's geometry: projection of the positions, and one shape per space that touches its neighbours.

Long file: the projection, the seeds and the fitting of the shapes are steps over the same arrays; a board
without positions is laid out by layout.py, and the result is kept by stored.py."""

from __future__ import annotations

import math
from collections.abc import Callable, Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from adjudicator.games.diplomacy.board import Board, split_location
from adjudicator.errors import VariantError
from adjudicator.games.diplomacy.picture.layout import MARGIN, graph_layout
from adjudicator.render.style import FIG_WIDTH_IN, WIDTH

PROJECTIONS = ("azimuthal-equidistant", "north-polar", "plane")  # plane: `pos` is [x, y] of a picture, y down
# The work of fitting shapes to borders grows with the board, and stops at a cap (issue 34: any board a request
# may send is drawn in bounded time):
SEEDS_PER_SPACE = 80  # seeds of the chains along the borders, a space on average (the shipped boards: 36-43)
ROUND_WORK = 8  # the rounds triangulate at most this many times the first round's seeds (the shipped: 6 at most)
MAX_FITTED = 3000  # spaces + borders past which the shapes are plain Voronoi cells of the positions, not fitted

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
    v /= max(float(np.linalg.norm(v)), 1e-12)
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
    frame_shape: str = "rectangle"  # or disc
    method: str = "fitted"  # how the shapes were made: fitted to the borders, or plain (past MAX_FITTED)
    work: int = 0  # seeds triangulated to make the shapes (0: read from a stored drawing)

    @property
    def height(self) -> float:
        """The map's height in picture units."""
        return self.bounds[3] - self.bounds[2]


_GUARD = "#guard"


class Diagram:
    """The Voronoi diagram of owned seed points, from matplotlib's Delaunay triangulation (qhull).

    Voronoi vertices are the triangles' circumcentres. A ring of guard points far outside the frame makes
    every real cell closed. For each triangle t and each of its counter-clockwise edges i->j, the Voronoi
    edge dual to i-j runs from the circumcentre of the triangle across that edge (u) to t's, with i on its
    left: these half-edges, where i and j have different owners, outline each owner's region. They are kept
    as arrays (owners by code: their rank among the sorted names, so codes compare as the names do)."""

    def __init__(self, points: list[tuple[float, float]], owner: list[str], centre: tuple[float, float],
                 radius: float) -> None:
        from matplotlib.tri import Triangulation

        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        keys = np.round(pts, 9)
        if len(np.unique(keys, axis=0)) < len(keys):  # (rare) repeats are nudged apart; indices match the caller's
            seen, nudged = set(), []
            for x, y in pts.tolist():
                while (round(x, 9), round(y, 9)) in seen:
                    x += radius * 1e-6
                seen.add((round(x, 9), round(y, 9)))
                nudged.append((x, y))
            pts = np.asarray(nudged, dtype=float)
        a = 2 * np.pi * np.arange(96) / 96
        ring = np.column_stack((centre[0] + 4 * radius * np.cos(a), centre[1] + 4 * radius * np.sin(a)))
        self.points = np.vstack((pts, ring))
        self.owner = list(owner) + [_GUARD] * 96
        self.names = sorted(set(self.owner))
        rank = {name: k for k, name in enumerate(self.names)}
        self.code = np.fromiter((rank[o] for o in self.owner), dtype=np.int64, count=len(self.owner))
        self.guard = rank[_GUARD]
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
        # Every triangle's counter-clockwise edges i->j and the triangle u across each, triangle by triangle.
        tris = self.triangles
        i, j = tris.ravel(), tris[:, [1, 2, 0]].ravel()
        u = self.neighbors.ravel()
        t = np.repeat(np.arange(len(tris)), 3)
        ci, cj = self.code[i], self.code[j]
        apart, real = ci != cj, u >= 0
        h = apart & real
        self.h_a, self.h_b, self.h_u, self.h_t = ci[h], cj[h], u[h], t[h]  # (left owner, right owner, from, to)
        s = ~apart & real & (i < j)
        self.j_i, self.j_j, self.j_u, self.j_t = i[s], j[s], u[s], t[s]  # same owner: (i, j, u, t)
        self._half: list[tuple[str, str, int, int]] | None = None

    @property
    def half(self) -> list[tuple[str, str, int, int]]:
        """The half-edges between two owners as (left owner, right owner, from vertex, to vertex)."""
        if self._half is None:
            names = self.names
            self._half = [(names[a], names[b], u, t) for a, b, u, t in
                          zip(self.h_a.tolist(), self.h_b.tolist(), self.h_u.tolist(), self.h_t.tolist())]
        return self._half


def _inside_frame(frame_shape: str, bounds, centre, radius):
    """A function telling which of an array of points (n, 2) lie inside the frame."""
    if frame_shape == "disc":
        return lambda xy: np.hypot(xy[..., 0] - centre[0], xy[..., 1] - centre[1]) <= radius
    x0, x1, y0, y1 = bounds
    return lambda xy: (x0 <= xy[..., 0]) & (xy[..., 0] <= x1) & (y0 <= xy[..., 1]) & (xy[..., 1] <= y1)


def _clip_segment(frame_shape: str, bounds, centre, radius):
    """A function giving, for arrays of segments p->q (n, 2 each), the parameter range [t0, t1] of each inside
    the frame, and which are inside at all."""
    if frame_shape == "disc":
        def clip_disc(p, q):
            d = q - p
            f = p - np.asarray(centre, dtype=float)
            a = (d * d).sum(axis=1)
            b = 2 * (f * d).sum(axis=1)
            c = (f * f).sum(axis=1) - radius * radius
            disc = b * b - 4 * a * c
            ok = (a >= 1e-30) & (disc > 0)
            r = np.sqrt(np.where(ok, disc, 0.0))
            a2 = np.where(ok, 2 * a, 1.0)
            t0, t1 = np.maximum(0.0, (-b - r) / a2), np.minimum(1.0, (-b + r) / a2)
            return t0, t1, ok & (t1 > t0)
        return clip_disc
    x0, x1, y0, y1 = bounds

    def clip_rect(p, q):
        n = len(p)
        t0, t1, ok = np.zeros(n), np.ones(n), np.ones(n, dtype=bool)
        dx, dy = q[:, 0] - p[:, 0], q[:, 1] - p[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            for pp, qq in ((-dx, p[:, 0] - x0), (dx, x1 - p[:, 0]), (-dy, p[:, 1] - y0), (dy, y1 - p[:, 1])):
                zero = pp == 0
                ok &= ~(zero & (qq < 0))
                t = qq / np.where(zero, 1.0, pp)
                t0 = np.where(~zero & (pp < 0), np.maximum(t0, t), t0)
                t1 = np.where(~zero & (pp > 0), np.minimum(t1, t), t1)
        return t0, t1, ok & (t1 > t0)
    return clip_rect


def _contacts(diagram: Diagram, clip) -> dict[frozenset, list]:
    """Shared boundary of each pair of owners inside the frame: [length, x*length, y*length]."""
    keep = (diagram.h_a < diagram.h_b) & (diagram.h_a != diagram.guard) & (diagram.h_b != diagram.guard)
    a, b = diagram.h_a[keep], diagram.h_b[keep]
    p, q = diagram.vertices[diagram.h_u[keep]], diagram.vertices[diagram.h_t[keep]]
    t0, t1, ok = clip(p, q)
    a, b, p, q, t0, t1 = a[ok], b[ok], p[ok], q[ok], t0[ok], t1[ok]
    if not len(a):
        return {}
    d = q - p
    length = np.hypot(d[:, 0], d[:, 1]) * (t1 - t0)
    mid = p + ((t0 + t1) / 2)[:, None] * d
    pairs, which = np.unique(a * len(diagram.names) + b, return_inverse=True)
    total = np.bincount(which, length)
    sx, sy = np.bincount(which, mid[:, 0] * length), np.bincount(which, mid[:, 1] * length)
    names, k = diagram.names, len(diagram.names)
    return {frozenset((names[pair // k], names[pair % k])): [total[n], sx[n], sy[n]]
            for n, pair in enumerate(pairs.tolist())}


def _components(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Each of n nodes' component (its smallest member) over the edges i-j: hooking roots to the smaller root,
    then halving paths, in whole-array steps."""
    parent = np.arange(n)
    while True:
        ri, rj = parent[i], parent[j]
        lo, hi = np.minimum(ri, rj), np.maximum(ri, rj)
        apart = lo != hi
        if not apart.any():
            return parent
        np.minimum.at(parent, hi[apart], lo[apart])
        while True:
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up


def _fragments(diagram: Diagram, inside, first: dict[str, int]) -> list[tuple[str, list[int], list[int]]]:
    """Pieces of a space cut off from the piece holding its position: (owner, main seeds, piece seeds)."""
    v = diagram.vertices
    inner = inside(v)
    pu, pt = v[diagram.j_u], v[diagram.j_t]
    linked = (np.hypot(*(pu - pt).T) > 1e-12) & (inner[diagram.j_u] | inner[diagram.j_t])
    root = _components(len(diagram.points), diagram.j_i[linked], diagram.j_j[linked])
    members = np.nonzero((diagram.code != diagram.guard) & inside(diagram.points))[0]
    code, roots = diagram.code[members], root[members]
    pairs = np.unique(np.column_stack((code, roots)), axis=0)
    split = np.unique(pairs[:, 0], return_counts=True)
    out = []
    for c in split[0][split[1] > 1].tolist():  # owners in more than one piece: few
        o = diagram.names[c]
        if o not in first:
            continue
        mine = members[code == c]
        comps: dict[int, list[int]] = {}
        for i, r in zip(mine.tolist(), root[mine].tolist()):
            comps.setdefault(r, []).append(i)
        main = int(root[first[o]])
        for r, piece in comps.items():
            if r != main and main in comps:
                out.append((o, comps[main], piece))
    return out


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


def _crossings(links: dict[tuple[str, str], tuple]) -> dict[tuple[str, str], set[tuple[str, str]]]:
    """For each border line, the others it crosses (lines sharing a space never do): each line against all
    later ones in one array step."""
    keys = list(links)
    crossed: dict[tuple[str, str], set[tuple[str, str]]] = {e: set() for e in keys}
    if len(keys) < 2:
        return crossed
    seg = np.array([(p[0], p[1], q[0], q[1]) for p, q in links.values()], dtype=float)
    names = sorted({o for e in keys for o in e})
    rank = {o: k for k, o in enumerate(names)}
    ends = np.array([(rank[a], rank[c]) for a, c in keys])
    p1, p2 = seg[:, :2], seg[:, 2:]

    def ccw(a, b, c):
        return (b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1]) - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0])

    for i in range(len(keys) - 1):
        a, b, c, d = p1[i], p2[i], p1[i + 1:], p2[i + 1:]
        hit = (ccw(a, b, c) * ccw(a, b, d) < 0) & (ccw(c, d, a) * ccw(c, d, b) < 0)
        rest = ends[i + 1:]
        hit &= (rest != ends[i, 0]).all(axis=1) & (rest != ends[i, 1]).all(axis=1)
        for k in (np.nonzero(hit)[0] + i + 1).tolist():
            crossed[keys[i]].add(keys[k])
            crossed[keys[k]].add(keys[i])
    return crossed


def _fit_borders(board: Board, seeds, owner, frame_info, pt: float, rounds: int = 10, debug: bool = False):
    """Seeds whose Voronoi regions touch where the board has a border, and (nearly) only there.

    Each space is the region nearest to its star: chains of seeds from its position (and its extra seeds)
    half-way along each of its borders, drawn straight to the neighbour. Two bordering spaces then meet
    half-way, and each space is one piece. Border lines that would cross others are left out, the most
    crossed (then the longest) first: five spaces meeting at a point, as at the Bering Strait, cannot all
    share edges in the plane. Where two spaces without a border still touch (across a four-sided face), a
    chain of a space bordering both is run to their common edge; a few rounds of that, the best one kept.

    The work is bounded by the board's size: the chains hold at most SEEDS_PER_SPACE seeds a space (spaced
    wider on a board whose borders are long), and the rounds stop once they would have triangulated more
    than ROUND_WORK times the first round's seeds. Returns the Voronoi diagram and the seeds triangulated."""
    centre, radius, inside, clip = frame_info
    adjacent = _adjacency(board)
    points: dict[str, list[tuple[float, float]]] = {}
    for xy, o in zip(seeds, owner):
        points.setdefault(o, []).append(tuple(xy))
    seeds, owner = list(seeds), list(owner)
    first = {o: owner.index(o) for o in points}  # each space's position: its first seed
    given = len(seeds)  # the positions and the variant's own seeds, never given away

    links = {}
    for a in sorted(adjacent):
        for c in sorted(adjacent[a]):
            if a < c:
                pa, pc = np.asarray(points[a]), np.asarray(points[c])
                d = np.hypot(pa[:, None, 0] - pc[None, :, 0], pa[:, None, 1] - pc[None, :, 1])
                k = int(np.argmin(d))  # (the first nearest pair, as min() over the pairs in order finds)
                links[(a, c)] = (points[a][k // len(pc)], points[c][k % len(pc)])
    # Leave out the border lines that cross others, the most crossed (then longest) first: the crossings are
    # found once, and each line left out takes its crossings with it.
    crossed = _crossings(links)
    while True:
        live = [e for e, fs in crossed.items() if fs]
        if not live:
            break
        worst = max(live, key=lambda e: (len(crossed[e]), math.dist(*links[e]), e))
        for f in crossed.pop(worst):
            crossed[f].discard(worst)
        del links[worst]

    extras = sum(math.dist(pts[0], x) * 0.999 for pts in points.values() for x in pts[1:])
    length = extras + sum(math.dist(p, q) * 0.94 for p, q in links.values())
    spacing = max(5.0 * pt, length / (SEEDS_PER_SPACE * max(1, len(points))))

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
    for (a, c), (p, q) in links.items():
        chain(a, p, q, 0.47)
        chain(c, q, p, 0.47)

    tolerance = 2.0 * pt
    budget = ROUND_WORK * len(seeds)
    work = 0
    best: tuple[float, Diagram, int] | None = None
    for round_ in range(rounds + 1):
        if round_ and work + len(seeds) > budget:
            break
        work += len(seeds)
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
        arr = diagram.points[:len(seeds)]
        order = np.argsort(diagram.code[:len(seeds)], kind="stable")
        starts = np.searchsorted(diagram.code[:len(seeds)][order], np.arange(len(diagram.names) + 1))

        def nearest(o: str, x: float, y: float, arr=arr, order=order, starts=starts,
                    rank={name: k for k, name in enumerate(diagram.names)}) -> tuple[float, float]:
            idx = order[starts[rank[o]]:starts[rank[o] + 1]]
            j = idx[int(np.argmin(np.hypot(arr[idx, 0] - x, arr[idx, 1] - y)))]
            return float(seeds[j][0]), float(seeds[j][1])

        for _, a, c, (mx, my) in sorted(false, reverse=True):
            candidates = (adjacent[a] & adjacent[c]) or (adjacent[a] | adjacent[c])
            if candidates:
                third = min(sorted(candidates), key=lambda o: math.dist(nearest(o, mx, my), (mx, my)))
                chain(third, nearest(third, mx, my), (mx, my), 1.0)
    assert best is not None  # (the first round always scores: no budget stops it)
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
        work += len(seeds)
        diagram = Diagram(seeds, owner, centre, radius)
    return diagram, work


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
                x, y = links[line[-1]]
                line.append(x if x != line[-2] else y)
            if len(line) > 2:  # (a line already walked from its other end stops at once)
                dp(line)
    return drop


def _loops(diagram: Diagram, vertices: np.ndarray, drop: AbstractSet[int] = frozenset()) -> dict[str, list[list[tuple[float, float]]]]:
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


def _border_lines(diagram: Diagram, vertices: np.ndarray, inside, drop: AbstractSet[int] = frozenset()) -> list[tuple[str, str, list]]:
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
            if len(pts) >= 2 and inside(np.asarray(pts)).any():
                out.append((a, b, pts))
    return out


def _drawing(board: Board) -> dict[str, Any]:
    raw = getattr(board, "raw", None) or {}
    return dict(raw.get("drawing") or {})


def to_picture(geo: Geometry) -> Geometry:
    """The geometry in picture units: WIDTH wide, the origin at the top left, y down."""
    xmin, xmax, ymin, ymax = geo.bounds
    k = WIDTH / (xmax - xmin)

    def pt(xy) -> tuple[float, float]:
        return (round((xy[0] - xmin) * k, 2), round((ymax - xy[1]) * k, 2))

    def line(pts) -> list[tuple[float, float]]:
        return [pt(xy) for xy in pts]

    return Geometry(
        anchor={p: pt(xy) for p, xy in geo.anchor.items()},
        location={loc: pt(xy) for loc, xy in geo.location.items()},
        outlines={p: [line(loop) for loop in loops] for p, loops in geo.outlines.items()},
        impassable={p: [line(loop) for loop in loops] for p, loops in geo.impassable.items()},
        borders=[(a, b, line(pts)) for a, b, pts in geo.borders],
        frame=line(geo.frame),
        bounds=(0.0, WIDTH, 0.0, round((ymax - ymin) * k, 2)),
        label_offset=dict(geo.label_offset), labels=dict(geo.labels), bridges=list(geo.bridges),
        unmatched=dict(geo.unmatched), frame_shape=geo.frame_shape, method=geo.method, work=geo.work)


def _build_geometry(board: Board, debug: bool = False) -> Geometry:
    spec = _drawing(board)
    proj_spec = dict(spec.get("projection") or {})
    positioned = all(p.position is not None for p in board.provinces.values())
    polar = False
    project: Callable[[Any], tuple[float, float]] | None  # a position or seed of the board's -> map units
    name = str(proj_spec.get("name", "azimuthal-equidistant"))
    if name not in PROJECTIONS:
        raise VariantError(f"drawing: unknown projection {name!r}; use one of {', '.join(PROJECTIONS)}",
                           file=board.source)
    if positioned and name == "plane":  # positions taken from a picture (an imported map's SVG): y points down
        def plane(xy: Any) -> tuple[float, float]:
            return float(xy[0]), -float(xy[1])

        project = plane
        anchor = {pid: project(p.position) for pid, p in board.provinces.items()}
    elif positioned:
        centre = proj_spec.get("centre")
        if name == "north-polar":
            centre, polar = (90.0, 0.0), True
        elif centre is None:  # no drawing data: centre on the positions, or on the pole they surround
            centre, polar = _centre_of([p.position for p in board.provinces.values()])
        proj = Projection(tuple(centre), float(proj_spec.get("rotation", 0.0)), proj_spec.get("central_longitude"))
        def sphere(latlon: Any, proj: Projection = proj) -> tuple[float, float]:
            return proj(float(latlon[0]), float(latlon[1]))

        project = sphere
        anchor = {pid: project(p.position) for pid, p in board.provinces.items()}
    else:  # a variant without drawing data: a layout computed from its graph, in points (layout.py)
        anchor = graph_layout(board)
        project = None
        spec.setdefault("frame", {"shape": "rectangle", "margin": MARGIN})

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

    method = "fitted" if spec.get("fit_borders", True) and len(board.provinces) + len(board.borders) <= MAX_FITTED \
        else "plain"
    if method == "fitted":
        diagram, work = _fit_borders(board, seeds, owner, ((cx, cy), radius, inside, clip), pt, debug=debug)
    else:
        diagram, work = Diagram(seeds, owner, (cx, cy), radius), len(seeds)
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
                    unmatched, shape, method, work)


