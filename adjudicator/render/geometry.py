"""The map's geometry: projection of the positions, and one shape per space that touches its neighbours."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from adjudicator.board import Board, split_location
from adjudicator.errors import VariantError
from adjudicator.render.style import FIG_WIDTH_IN, WIDTH

PROJECTIONS = ("azimuthal-equidistant", "north-polar", "plane")  # plane: `pos` is [x, y] of a picture, y down

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
    frame_shape: str = "rectangle"  # or disc

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
    # Leave out the border lines that cross others, the most crossed (then longest) first: the crossings are
    # found once, and each line left out takes its crossings with it.
    crossed: dict[tuple[str, str], set[tuple[str, str]]] = {e: set() for e in links}
    items = list(links.items())
    for i, (e, (p1, p2)) in enumerate(items):
        for f, (p3, p4) in items[i + 1:]:
            if not set(e) & set(f) and _segments_cross(p1, p2, p3, p4):
                crossed[e].add(f)
                crossed[f].add(e)
    while True:
        live = [e for e, fs in crossed.items() if fs]
        if not live:
            break
        worst = max(live, key=lambda e: (len(crossed[e]), math.dist(*links[e]), e))
        for f in crossed.pop(worst):
            crossed[f].discard(worst)
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
        unmatched=dict(geo.unmatched), frame_shape=geo.frame_shape)


def _build_geometry(board: Board, debug: bool = False) -> Geometry:
    spec = _drawing(board)
    proj_spec = dict(spec.get("projection") or {})
    positioned = all(p.position is not None for p in board.provinces.values())
    polar = False
    name = str(proj_spec.get("name", "azimuthal-equidistant"))
    if name not in PROJECTIONS:
        raise VariantError(f"drawing: unknown projection {name!r}; use one of {', '.join(PROJECTIONS)}",
                           file=board.source)
    if positioned and name == "plane":  # positions taken from a picture (an imported map's SVG): y points down
        def project(xy) -> tuple[float, float]:
            return float(xy[0]), -float(xy[1])

        anchor = {pid: project(p.position) for pid, p in board.provinces.items()}
    elif positioned:
        centre = proj_spec.get("centre")
        if name == "north-polar":
            centre, polar = (90.0, 0.0), True
        elif centre is None:  # no drawing data: centre on the positions, or on the pole they surround
            centre, polar = _centre_of([p.position for p in board.provinces.values()])
        proj = Projection(tuple(centre), float(proj_spec.get("rotation", 0.0)), proj_spec.get("central_longitude"))
        def project(latlon, proj=proj) -> tuple[float, float]:
            return proj(float(latlon[0]), float(latlon[1]))

        anchor = {pid: project(p.position) for pid, p in board.provinces.items()}
    else:  # a variant without drawing data: a layout computed from its graph, in points (layout.py)
        from adjudicator.render.layout import MARGIN, graph_layout

        anchor = graph_layout(board)
        project = None  # type: ignore[assignment]
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
                    unmatched, shape)


