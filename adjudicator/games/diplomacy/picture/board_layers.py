"""The layers of a Diplomacy picture that depend only on the board and the season: the spaces filled by their
terrain, the boundaries, the border kinds that change who may cross (canals, rivers, bridges, one-way borders,
archipelagos), and the labels. They are written once per board and season and kept with the board."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from adjudicator.games.diplomacy.board import Board, split_location
from adjudicator.games.diplomacy.picture.arrows import Box
from adjudicator.games.diplomacy.picture.geometry import Geometry
from adjudicator.games.diplomacy.picture.placement import grid_of
from adjudicator.games.diplomacy.picture.stored import geometry
from adjudicator.render.style import (
    BORDER_STYLE,
    FEATURE,
    ICE_HATCH,
    IMPASSABLE_FILL,
    PX,
    SEA_TEXT,
    TERRAIN_FILL,
    TEXT,
    MapStyle,
)
from adjudicator.render.svg import circle, group, ident, num, path, points, polygon, rect
from adjudicator.render.text import text, text_width

STYLE = MapStyle()
DEFS = (
    f'<pattern id="ice" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)">'
    f'<rect width="7" height="7" fill="{TERRAIN_FILL["ice"]}"/>'
    f'<path d="M0 0 V7" stroke="{ICE_HATCH}" stroke-width="1.6"/></pattern>'
    f'<pattern id="impassable" patternUnits="userSpaceOnUse" width="8" height="8" patternTransform="rotate(45)">'
    f'<rect width="8" height="8" fill="{IMPASSABLE_FILL}"/><path d="M0 0 V8 M0 0 H8" stroke="#A09A90" '
    f'stroke-width="1"/></pattern>')


@dataclass
class BoardLayers:
    """A board's layers for one season, and what the phase layers need of them."""

    map: str  # frame, spaces, boundaries, border features
    labels: str  # over the units and orders (arrowheads and marks are placed off them besides)
    label_boxes: dict[str, Box]  # by province
    centre_spots: dict[str, tuple[float, float]]
    geo: Geometry  # the board's geometry the layers are drawn from (the phase layers place units by it)
    features: list[str] = field(default_factory=list)  # legend keys: land, sea, ice, impassable, canal...
    key: tuple = ()  # what the rasteriser keeps these layers under: unique to this board and season
    centres: tuple[dict[str, str], dict[str, str]] | None = None  # the centre markers, written once (diplomacy.py)
    _grid: dict | None = None
    _array: np.ndarray | None = None
    _taken: dict | None = None

    def taken(self) -> dict:
        """The labels' and centre markers' boxes in a placement grid (placement.py), made once per board and season."""
        if self._taken is None:
            r = STYLE.centre * PX * 1.2 + 0.7  # (a centre marker's radius and edge)
            self._taken = grid_of(list(self.label_boxes.values()) +
                                  [Box(x - r, y - r, x + r, y + r) for x, y in self.centre_spots.values()])
        return self._taken

    def labels_near(self, x: float, y: float, reach: float = 40.0) -> list[Box]:
        """The label boxes within `reach` of a point, from a grid of cells `reach` wide that lists each box in
        every cell its reach touches (made once per board and season)."""
        if self._grid is None:
            self._grid = {}
            for b in self.label_boxes.values():
                for i in range(int((b.x0 - reach) // reach), int((b.x1 + reach) // reach) + 1):
                    for j in range(int((b.y0 - reach) // reach), int((b.y1 + reach) // reach) + 1):
                        self._grid.setdefault((i, j), []).append(b)
        return [b for b in self._grid.get((int(x // reach), int(y // reach)), ())
                if b.x0 - reach < x < b.x1 + reach and b.y0 - reach < y < b.y1 + reach]

    def label_array(self) -> np.ndarray:
        """The label boxes as rows (x0, y0, x1, y1)."""
        if self._array is None:
            self._array = np.array([(b.x0, b.y0, b.x1, b.y1) for b in self.label_boxes.values()]).reshape(-1, 4)
        return self._array


_made = itertools.count()


def board_layers(board: Board, season: str) -> BoardLayers:
    """The board's layers for a season (kept with the board: one per season of its calendar)."""
    key = ("layers", board.season_key(season))
    cache = board.__dict__.setdefault("_render_cache", {})
    if key not in cache:
        cache[key] = _build(board, season)
    return cache[key]


def _surface(board: Board, owner: str, season: str) -> str:
    return "impassable" if owner.startswith("!") else board.surface(owner, season)


def _build(board: Board, season: str) -> BoardLayers:
    geo = geometry(board)
    features: list[str] = []
    fills = {"land": TERRAIN_FILL["land"], "sea": TERRAIN_FILL["sea"], "ice": "url(#ice)"}
    spaces = []
    for pid in board.provinces:
        loops = geo.outlines.get(pid)
        if not loops:
            continue
        surface = board.surface(pid, season)
        if surface not in features:
            features.append(surface)
        d = "".join(polygon(loop) for loop in loops)
        spaces.append(path(d, ident("space", pid), fill=fills.get(surface, "#DDDDDD"), fill_rule="evenodd"))
    impassable = [path("".join(polygon(loop) for loop in loops), ident("impassable", name), fill="url(#impassable)")
                  for name, loops in geo.impassable.items()]
    if impassable:
        features.append("impassable")
    frame_d = polygon(geo.frame)
    parts = [f'<clipPath id="frame-clip"><path d="{frame_d}"/></clipPath>',
             path(frame_d, "frame", fill=TERRAIN_FILL["sea"]),
             group("spaces", spaces + impassable, clip_path="url(#frame-clip)"),
             group("boundaries", _boundaries(board, geo, season), clip_path="url(#frame-clip)")]
    kinds = _features(board, geo)
    parts.append(group("border-kinds", [svg for _, svg in kinds]))
    features += sorted({k for k, _ in kinds}, key=list(FEATURE).index)
    parts.append(path(frame_d, "frame-outline", fill="none", stroke="#4A4A48", stroke_width=1.8))
    labels, boxes, centres = _labels(board, geo, season)
    return BoardLayers(group("map", parts), labels, boxes, centres, geo, features, ("diplomacy", next(_made)))


def _boundaries(board: Board, geo: Geometry, season: str) -> list[str]:
    """The lines between spaces, one path per kind of boundary (coastlines heavier)."""
    groups: dict[str, list[str]] = {}
    for a, b, line in geo.borders:
        pair = {_surface(board, a, season), _surface(board, b, season)}
        if "impassable" in pair:
            kind = "coast" if "sea" in pair else "land"
        elif pair == {"land"}:
            kind = "land"
        elif pair == {"sea"}:
            kind = "water"
        elif "land" in pair:
            kind = "coast"
        else:
            kind = "ice"
        groups.setdefault(kind, []).append(points(line))
    out = []
    for kind in ("water", "ice", "land", "coast"):
        if kind in groups:
            colour, width = BORDER_STYLE[kind]
            out.append(path("".join(groups[kind]), f"boundaries-{kind}", fill="none", stroke=colour,
                            stroke_width=width, stroke_linejoin="round", stroke_linecap="round"))
    return out


def _spot(geo: Geometry, location: str) -> tuple[float, float]:
    return geo.location.get(location) or geo.anchor[split_location(location)[0]]


def _features(board: Board, geo: Geometry) -> list[tuple[str, str]]:
    """The border kinds that change who may cross, each with its legend key: a canal (fleets only) as a
    waterway between the two places, a river coast as a river, a bridge (armies only) as a bridge, a one-way
    border as a chevron on the boundary pointing the way units may go, an archipelago as a dashed blue shore."""
    out: list[tuple[str, str]] = []
    river = {loc for p in board.provinces.values() for loc in p.river}
    out += _rivers(board, geo, [b for b in board.borders if b.kind == "coast" and (
        b.a in river or b.b in river or split_location(b.a)[0] in river or split_location(b.b)[0] in river)])
    for b in board.borders:
        pa, pb = split_location(b.a)[0], split_location(b.b)[0]
        (x0, y0), (x1, y1) = _spot(geo, b.a), _spot(geo, b.b)
        line = f"M{num(x0)} {num(y0)} L{num(x1)} {num(y1)}"
        if b.kind == "canal":
            out.append(("canal", group(ident("canal", pa, pb), [
                path(line, stroke=FEATURE["canal"], stroke_width=6, stroke_linecap="round"),
                path(line, stroke="#FFFFFF", stroke_width=2, stroke_dasharray="5 4")])))
        elif b.kind == "bridge":
            out.append(("bridge", _bridge(pa, pb, (x0, y0), (x1, y1))))
        if b.one_way:
            out.append(("one-way", _one_way(geo, pa, pb, (x0, y0), (x1, y1))))
    for p in board.provinces.values():
        if p.convoys and p.id in geo.outlines:
            d = "".join(polygon(loop) for loop in geo.outlines[p.id])
            out.append(("archipelago", path(d, ident("archipelago", p.id), fill="none", stroke=FEATURE["archipelago"],
                                            stroke_width=2.2, stroke_dasharray="2 3", stroke_linecap="round")))
    return out


def _rivers(board: Board, geo: Geometry, borders: list) -> list[tuple[str, str]]:
    """A river's course: its coast borders joined as a tree (the shortest that joins them: three river places
    that all border each other are a river that forks, not a triangle), each reach a curve from one place's spot
    to the next through their shared boundary, where the water crosses it."""
    reaches: nx.Graph[str] = nx.Graph()
    for b in borders:
        if split_location(b.a)[0] != split_location(b.b)[0]:
            reaches.add_edge(b.a, b.b, weight=math.dist(_spot(geo, b.a), _spot(geo, b.b)))
    shared: dict[frozenset[str], list[tuple[float, float]]] = {}
    for a, c, pts in geo.borders:
        shared.setdefault(frozenset((a, c)), []).extend(pts)
    out = []
    for u, v in sorted(tuple(sorted(e)) for e in nx.minimum_spanning_edges(reaches, data=False)):
        pa, pb = split_location(u)[0], split_location(v)[0]
        p, q = _spot(geo, u), _spot(geo, v)
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        crossing = min(shared.get(frozenset((pa, pb)), [mid]), key=lambda pt: math.dist(pt, mid))
        if math.dist(crossing, mid) > 0.45 * math.dist(p, q):  # a boundary far from the line: keep near it
            crossing = mid
        cx, cy = 2 * crossing[0] - mid[0], 2 * crossing[1] - mid[1]  # the curve passes through the crossing
        d = f"M{num(p[0])} {num(p[1])} Q{num(cx)} {num(cy)} {num(q[0])} {num(q[1])}"
        out.append(("river", path(d, ident("river", pa, pb), stroke=FEATURE["river"], stroke_width=3.2,
                                  stroke_linecap="round", fill="none")))
    return out


def _bridge(a: str, b: str, p: tuple[float, float], q: tuple[float, float]) -> str:
    """A ladder of two thin rails and their sleepers: no order line looks like it (orders are thick, cased, in a
    power's colour)."""
    return group(ident("bridge", a, b), [bridge_ladder(p, q, 10.0)])


def bridge_ladder(p: tuple[float, float], q: tuple[float, float], inset: float = 0.0) -> str:
    """The bridge's sign between two points (cut back by `inset` at each end)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy, nx, ny = dx / d, dy / d, -dy / d * 3.2, dx / d * 3.2
    s, e = (p[0] + ux * inset, p[1] + uy * inset), (q[0] - ux * inset, q[1] - uy * inset)
    rails = "".join(f"M{num(s[0] + k * nx)} {num(s[1] + k * ny)} L{num(e[0] + k * nx)} {num(e[1] + k * ny)}"
                    for k in (-1, 1))
    steps = max(1, int((d - 2 * inset) // 7))
    sleepers = "".join(
        f"M{num(s[0] + (e[0] - s[0]) * i / steps - nx * 1.6)} {num(s[1] + (e[1] - s[1]) * i / steps - ny * 1.6)} "
        f"L{num(s[0] + (e[0] - s[0]) * i / steps + nx * 1.6)} {num(s[1] + (e[1] - s[1]) * i / steps + ny * 1.6)}"
        for i in range(steps + 1))
    return path(rails + sleepers, fill="none", stroke=FEATURE["bridge"], stroke_width=1.3)


def _one_way(geo: Geometry, a: str, b: str, p: tuple[float, float], q: tuple[float, float]) -> str:
    """A chevron pointing from a to b, on their shared boundary where it is nearest the line between their
    spots (half-way along that line when the shapes do not touch)."""
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    lines = [pts for x, y, pts in geo.borders if {x, y} == {a, b}]
    if lines:
        mid = min((pt for line in lines for pt in line), key=lambda pt: math.dist(pt, mid))
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    tip = (mid[0] + ux * 11, mid[1] + uy * 11)
    left = (mid[0] - ux * 8 - uy * 12, mid[1] - uy * 8 + ux * 12)
    right = (mid[0] - ux * 8 + uy * 12, mid[1] - uy * 8 - ux * 12)
    notch = (mid[0] - ux * 1, mid[1] - uy * 1)
    return path(polygon([tip, left, notch, right]), ident("one-way", a, b), fill=FEATURE["one-way"],
                stroke="#FFFFFF", stroke_width=1.5, stroke_linejoin="round")


def label_spot(geo: Geometry, pid: str) -> tuple[float, float]:
    """Where a space's label is centred: below its unit's spot, moved by the variant's label offset."""
    x, y = geo.anchor[pid]
    dx, dy = geo.label_offset.get(pid, (0.0, 0.0))
    return x + dx * PX, y + (STYLE.label_gap - dy) * PX


def _labels(board: Board, geo: Geometry, season: str) -> tuple[str, dict[str, Box], dict[str, tuple[float, float]]]:
    """The labels layer (each on a pale box), the labels' boxes, and the centre markers' spots beside them."""
    size = STYLE.label * PX
    parts, boxes, centres = [], {}, {}
    for pid, p in board.provinces.items():
        if pid not in geo.anchor:
            continue
        x, y = label_spot(geo, pid)
        sea = board.surface(pid, season) == "sea"
        face = "bold" if p.centre else ("italic" if sea else "regular")
        words = geo.labels.get(pid, pid)
        w = text_width(words, size, face)
        marker = 2 * (STYLE.centre * PX * 1.2 + 0.7) + 2 if p.centre else 0.0  # the centre marker beside it
        # Inside the picture: a label at the edge moves in (its centre marker goes to its left at the right edge),
        # and one below the bottom goes above its unit.
        x = min(max(x, w / 2 + 3), geo.bounds[1] - w / 2 - 3)
        left = p.centre and x + w / 2 + 2 + marker > geo.bounds[1] - 1
        x = max(x, w / 2 + 3 + (marker if left else 0.0))
        if y + size * 0.55 > geo.height - 1:
            y = geo.anchor[pid][1] - (STYLE.label_gap + STYLE.unit * 0.2) * PX
        box = Box(x - w / 2 - 2, y - size * 0.55, x + w / 2 + 2, y + size * 0.55)
        boxes[pid] = box
        parts.append(group(ident("label", pid), [
            rect(box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0, rx=3, fill="#FFFFFF", fill_opacity=0.6),
            text(x, y, words, size, face=face, fill=SEA_TEXT if sea else TEXT, anchor="middle")]))
        if p.centre:
            offset = STYLE.centre * PX + 2
            centres[pid] = (box.x0 - offset, y) if left else (box.x1 + offset, y)
        for c in p.coasts:
            loc = f"{pid}/{c}"
            spot = geo.location.get(loc)
            if spot and spot != geo.anchor[pid]:
                cy = spot[1] - (STYLE.unit + 4.5) * PX
                parts.append(group(ident("coast", loc), [
                    circle(spot[0], spot[1], 1.8, fill=SEA_TEXT),
                    text(spot[0], cy, c, size * 0.8, face="italic", fill=SEA_TEXT, anchor="middle")]))
    return group("labels", parts), boxes, centres
