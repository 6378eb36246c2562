"""Board pictures: any position of a Diplomacy variant, and the orders of a phase, as SVG or PNG.

The board data has a position (latitude, longitude) for every space but no outlines. Each space is drawn as
the region of the map nearer to it than to any other space: a Voronoi cell of the projected positions,
computed by clipping the map's frame (a disc or a rectangle) with one half-plane per other space. A space
may list extra seed points (`drawing: seeds:`) whose cells join its own, so long or bent places (Norway,
the Mid-Atlantic) get a fitting shape; `drawing: impassable:` seeds fill places no unit may enter
(Switzerland, Ireland). Each cell is filled by its terrain in the position's season, and the edges between
cells of different spaces are the borders, styled by what lies on either side (coastlines are heavier).

Everything is drawn with matplotlib (Agg for PNG, its own SVG writer; text is written as paths so the SVG
shows the same on any machine). Each space and each unit is one SVG element with an id (`space-Kar`,
`unit-Russia-A-Arc`, `dislodged-...`, `centre-...`), so tests and scripts can find them.

    render_svg(board, state, results=None) -> str
    render_png(board, state, results=None, width=1000) -> bytes

`results` is a phase's report as JSON: the `orders` list of `PhaseResult.to_json()` (or the whole dict, as
`adjudicator adjudicate --json` prints it), entries with `power`, `order`, `status`, `understood_as`, `unit`.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

import matplotlib
import numpy as np
from matplotlib import patheffects
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, PathPatch, Polygon, Rectangle
from matplotlib.path import Path

from adjudicator.board import ARMY, FLEET, Board, split_location
from adjudicator.state import GameState

__all__ = ["render_svg", "render_png", "MapStyle"]

FIG_WIDTH_IN = 10.0  # the picture's width in inches; at 100 dpi it is 1000 pixels wide

# Colours for terrain, lines and text (the power colours come from the variant file).
TERRAIN_FILL = {"land": "#EEE2C4", "sea": "#BCD7EC", "ice": "#FAFCFF"}
ICE_HATCH = "#8DB3CF"
IMPASSABLE_FILL = "#CFCBC3"
FRAME_BACKGROUND = "#FFFFFF"
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


@dataclass
class Geometry:
    """Where everything of a board is drawn, in projected map units."""

    anchor: dict[str, tuple[float, float]]  # province -> where its unit and label go
    location: dict[str, tuple[float, float]]  # coast locations (stp/nc) -> where a fleet on it goes
    cells: dict[str, list[list[tuple[float, float]]]]  # province -> its polygons
    impassable: dict[str, list[list[tuple[float, float]]]]  # impassable places -> polygons
    segments: list[tuple[str, str, tuple[float, float], tuple[float, float]]]  # (owner a, owner b, p, q)
    frame: list[tuple[float, float]]
    bounds: tuple[float, float, float, float]  # xmin, xmax, ymin, ymax
    label_offset: dict[str, tuple[float, float]] = field(default_factory=dict)  # points
    labels: dict[str, str] = field(default_factory=dict)
    bridges: list[tuple[str, str]] = field(default_factory=list)


def _clip(poly: list[tuple[float, float, int]], nx: float, ny: float, c: float, label: int):
    """Sutherland-Hodgman: keep the part of the polygon with nx*x + ny*y <= c. Each vertex carries the label
    of the edge that leaves it (the seed whose bisector made it, or -1 for the frame)."""
    out = []
    n = len(poly)
    for i in range(n):
        sx, sy, se = poly[i]
        ex, ey, _ = poly[(i + 1) % n]
        ds = nx * sx + ny * sy - c
        de = nx * ex + ny * ey - c
        if ds <= 0:
            out.append((sx, sy, se))
            if de > 0:
                t = ds / (ds - de)
                out.append((sx + t * (ex - sx), sy + t * (ey - sy), label))
        elif de <= 0:
            t = ds / (ds - de)
            out.append((sx + t * (ex - sx), sy + t * (ey - sy), se))
    return out


def voronoi_cells(points: list[tuple[float, float]], frame: list[tuple[float, float]]):
    """The Voronoi cell of each point inside the (convex) frame polygon, as [(x, y, label)] vertex lists
    where `label` is the index of the neighbouring point across the edge that leaves the vertex (-1: frame)."""
    pts = np.asarray(points, dtype=float)
    cells = []
    for i, (px, py) in enumerate(pts):
        poly = [(x, y, -1) for x, y in frame]
        d = np.hypot(pts[:, 0] - px, pts[:, 1] - py)
        order = np.argsort(d)
        reach = max(math.hypot(x - px, y - py) for x, y, _ in poly)
        for j in order:
            if j == i:
                continue
            if d[j] / 2 > reach:
                break  # no farther point can cut the cell
            qx, qy = pts[j]
            nx, ny = qx - px, qy - py
            c = nx * (px + qx) / 2 + ny * (py + qy) / 2
            poly = _clip(poly, nx, ny, c, int(j))
            if not poly:
                break
            reach = max(math.hypot(x - px, y - py) for x, y, _ in poly)
        cells.append(poly)
    return cells


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


def _coast_spot(board: Board, anchor, pid: str, coast: str) -> tuple[float, float]:
    """Where a fleet on a coast is drawn when the data does not say: from the province's anchor a little
    towards the seas that coast touches."""
    loc = f"{pid}/{coast}"
    seas = set()
    for b in board.borders:
        if b.kind in ("water", "coast"):
            if b.a == loc:
                seas.add(split_location(b.b)[0])
            elif b.b == loc:
                seas.add(split_location(b.a)[0])
    seas = [s for s in seas if board.provinces[s].kind != "land" or True]
    x, y = anchor[pid]
    if not seas:
        return x, y
    mx = sum(anchor[s][0] for s in seas) / len(seas)
    my = sum(anchor[s][1] for s in seas) / len(seas)
    dx, dy = mx - x, my - y
    d = math.hypot(dx, dy)
    if d < 1e-9:
        return x, y
    step = min(d * 0.45, 3.0)
    return x + dx / d * step, y + dy / d * step


def _drawing(board: Board) -> dict[str, Any]:
    raw = getattr(board, "raw", None) or {}
    return dict(raw.get("drawing") or {})


def _loc_key(location: str) -> str:
    return location


def geometry(board: Board) -> Geometry:
    """The board's map geometry (computed once per board)."""
    cache = board.__dict__.setdefault("_render_cache", {})
    if "geometry" not in cache:
        cache["geometry"] = _build_geometry(board)
    return cache["geometry"]


def _build_geometry(board: Board) -> Geometry:
    spec = _drawing(board)
    proj_spec = dict(spec.get("projection") or {})
    positioned = all(p.position is not None for p in board.provinces.values())
    polar = False
    if positioned:
        centre = proj_spec.get("centre")
        if centre is None:  # no drawing data: centre on the positions, or on the pole they surround
            centre, polar = _centre_of([p.position for p in board.provinces.values()])
        proj = Projection(tuple(centre), float(proj_spec.get("rotation", 0.0)), proj_spec.get("central_longitude"))
        project = lambda latlon: proj(float(latlon[0]), float(latlon[1]))  # noqa: E731
        anchor = {pid: project(p.position) for pid, p in board.provinces.items()}
    else:  # a variant without drawing data: a force-directed layout of its graph
        import networkx as nx

        layout = nx.spring_layout(board.graph, seed=7, iterations=200)
        anchor = {pid: (float(layout[pid][0]) * 40, float(layout[pid][1]) * 40) for pid in board.provinces}
        project = None  # type: ignore[assignment]

    seeds: list[tuple[float, float]] = []
    owner: list[str] = []
    for pid, xy in anchor.items():
        seeds.append(xy)
        owner.append(pid)
    if project is not None:
        for pid, extra in (spec.get("seeds") or {}).items():
            if str(pid) not in board.provinces:
                continue
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
        cx, cy = frame_spec.get("centre", (0.0, 0.0)) if project is None else (0.0, 0.0)
        if "centre" in frame_spec and project is not None:
            cx, cy = project(frame_spec["centre"])
        radius = float(frame_spec.get("radius", max(math.hypot(x - cx, y - cy) for x, y in seeds) * 1.08))
        frame = [(cx + radius * math.cos(2 * math.pi * k / 240), cy + radius * math.sin(2 * math.pi * k / 240))
                 for k in range(240)]
    else:
        m = frame_spec.get("margin", 2.0)
        ml, mr, mb, mt = (m, m, m, m) if isinstance(m, (int, float)) else (float(v) for v in m)
        x0, x1, y0, y1 = min(xs) - ml, max(xs) + mr, min(ys) - mb, max(ys) + mt
        frame = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    fx = [x for x, _ in frame]
    fy = [y for _, y in frame]
    bounds = (min(fx), max(fx), min(fy), max(fy))

    raw_cells = voronoi_cells(seeds, frame)
    cells: dict[str, list] = {}
    impassable: dict[str, list] = {}
    segments = []
    for i, poly in enumerate(raw_cells):
        if not poly:
            continue
        target = impassable if owner[i].startswith("!") else cells
        target.setdefault(owner[i].lstrip("!") if owner[i].startswith("!") else owner[i], []).append(
            [(x, y) for x, y, _ in poly])
        for k, (x, y, label) in enumerate(poly):
            if label < 0 or label < i or owner[label] == owner[i]:
                continue
            nx_, ny_, _ = poly[(k + 1) % len(poly)]
            segments.append((owner[i], owner[label], (x, y), (nx_, ny_)))

    location = {}
    if project is not None:
        for loc, latlon in (spec.get("coasts") or {}).items():
            location[str(loc)] = project(latlon)
    for pid, p in board.provinces.items():
        for c in p.coasts:
            location.setdefault(f"{pid}/{c}", _coast_spot(board, anchor, pid, c))

    label_case = str(spec.get("label_case", "id"))
    labels = {}
    for pid in board.provinces:
        text = pid.title() if label_case == "title" else (pid.upper() if label_case == "upper" else pid)
        labels[pid] = text
    labels.update({str(k): str(v) for k, v in (spec.get("labels") or {}).items()})
    offsets = {str(k): (float(v[0]), float(v[1])) for k, v in (spec.get("label_offsets") or {}).items()}
    bridges = [(split_location(b.a)[0], split_location(b.b)[0]) for b in board.borders if b.kind == "bridge"]
    return Geometry(anchor, location, cells, impassable, segments, frame, bounds, offsets, labels, bridges)


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
    for entry in _orders_of(results):
        status = str(entry.get("status", ""))
        if status == "ignored":
            continue
        text = entry.get("understood_as")
        if not text:
            continue
        unit = entry.get("unit") or {}
        for kind, pattern in _PATTERNS:
            m = pattern.match(str(text).strip())
            if not m:
                continue
            g = m.groups()
            if kind == "move":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0], dest=g[2])
                if g[3]:
                    d.kind = "move"
            elif kind == "hold":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0])
            elif kind == "retreat":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0], dest=g[2])
            elif kind == "support":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0], target=g[3], target_dest=g[4])
            elif kind == "convoy":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0], target=g[3], target_dest=g[4])
            elif kind == "disband":
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0])
            else:
                d = DrawnOrder(kind, entry.get("power"), status, g[1], g[0])
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

    unit: float = 7.2  # half the width of a unit silhouette
    label: float = 7.2  # label font size
    centre: float = 3.0  # radius of a supply-centre marker
    label_gap: float = 10.5  # from a space's anchor down to its label's centre
    dislodged_offset: tuple[float, float] = (11.0, 8.0)


class _Painter:
    def __init__(self, board: Board, state: GameState, results: Any, style: MapStyle | None = None) -> None:
        self.board = board
        self.state = state
        self.style = style or MapStyle()
        self.geo = geometry(board)
        self.spec = _drawing(board)
        self.season = board.season_key(state.phase.season)
        self.results = results
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
            x, y = x + dx * self.pt, y - dy * self.pt
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
        for name, polys in self.geo.impassable.items():
            patch = PathPatch(_compound(polys), facecolor=IMPASSABLE_FILL, edgecolor="#A09A90", hatch="...",
                              linewidth=0, zorder=1)
            _hatch_colour(patch, "#A09A90")
            patch.set_gid(f"impassable-{_id(name)}")
            ax.add_patch(patch)
        for pid in self.board.provinces:
            polys = self.geo.cells.get(pid)
            if not polys:
                continue
            surface = self.board.surface(pid, self.season)
            fill = TERRAIN_FILL.get(surface, "#DDDDDD")
            if surface == "ice":
                patch = PathPatch(_compound(polys), facecolor=fill, edgecolor=ICE_HATCH, hatch="////", linewidth=0,
                                  zorder=1)
                _hatch_colour(patch, ICE_HATCH)
            else:
                patch = PathPatch(_compound(polys), facecolor=fill, edgecolor="none", linewidth=0, zorder=1)
            patch.set_gid(f"space-{_id(pid)}")
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
        groups: dict[str, list] = {}
        for a, b, p, q in self.geo.segments:
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
            groups.setdefault(kind, []).append((p, q))
        from matplotlib.collections import LineCollection

        for kind in ("water", "ice", "land", "coast"):
            if kind not in groups:
                continue
            colour, width = BORDER_STYLE[kind]
            lc = LineCollection(groups[kind], colors=colour, linewidths=width, zorder=3 if kind != "coast" else 4,
                                capstyle="round")
            lc.set_gid(f"borders-{kind}")
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
        half = _text_width(text, self.style.label) / 2
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
        halo = [patheffects.withStroke(linewidth=2.4, foreground=(1, 1, 1, 0.85))]
        for pid, p in self.board.provinces.items():
            x, y = self.geo.anchor[pid]
            dx, dy = self.geo.label_offset.get(pid, (0.0, 0.0))
            surface = self.board.surface(pid, self.season)
            t = self.ax.text(x + dx * self.pt, y + (dy - self.style.label_gap) * self.pt, self.geo.labels[pid],
                             ha="center", va="center", fontsize=self.style.label, zorder=8,
                             color=SEA_TEXT if surface == "sea" else TEXT,
                             fontstyle="italic" if surface == "sea" else "normal",
                             fontweight="bold" if p.centre else "normal")
            t.set_path_effects(halo)
            t.set_gid(f"label-{_id(pid)}")
            for c in p.coasts:
                loc = f"{pid}/{c}"
                if loc in self.geo.location and self.geo.location[loc] != self.geo.anchor[pid]:
                    cx, cy = self.geo.location[loc]
                    ct = self.ax.text(cx, cy - (self.style.unit + 3.5) * self.pt, c, ha="center", va="center",
                                      fontsize=self.style.label * 0.8, color=SEA_TEXT, zorder=8, fontstyle="italic")
                    ct.set_path_effects(halo)
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
        for n, o in enumerate(self.orders):
            colour = self.colour(o.power)
            gid = f"order-{n + 1}-{o.kind}"
            if o.kind in ("move", "retreat") and not below_units and o.dest:
                from_dislodged = o.kind == "retreat" and split_location(o.origin)[0] in dislodged
                p, q = self._route(o.origin, o.dest, from_dislodged=from_dislodged)
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
    def _legend_rows(self) -> int:
        return math.ceil(len(self.board.powers) / 4)

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
        per_row = 4
        col_w = (w - 24) / per_row
        unit_pt = 6.0
        for i, power in enumerate(board.powers):
            r, c = divmod(i, per_row)
            x0 = 12 + c * col_w
            yy = y - r * 20
            ax.add_patch(Rectangle((x0, yy - 7), 14, 14, facecolor=self.colour(power), edgecolor="#111111",
                                   linewidth=1.0))
            centres = len(state.centres_of(power))
            units = len(state.units_of(power))
            ax.text(x0 + 20, yy, power, fontsize=9.5, fontweight="bold", va="center", ha="left", color=TEXT)
            ax.text(x0 + 20 + _text_width(power, 9.5, bold=True) + 6, yy,
                    f"{centres} centre{'s' if centres != 1 else ''}, {units} unit{'s' if units != 1 else ''}",
                    fontsize=9.0, va="center", ha="left", color="#333333")
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
    """A rough width of DejaVu Sans text in points (for laying out the legend)."""
    return len(text) * size * (0.66 if bold else 0.6)


def _rc() -> dict[str, Any]:
    return {"svg.fonttype": "path", "svg.hashsalt": "diplomacy-board", "hatch.linewidth": 0.7,
            "font.family": "DejaVu Sans", "path.simplify": False}


def _figure(board: Board, state: GameState, results: Any) -> Figure:
    return _Painter(board, state, results).figure()


def render_svg(board: Board, state: GameState, results: Any = None) -> str:
    """The position (and the report's orders, when given) as an SVG document."""
    with matplotlib.rc_context(_rc()):
        fig = _figure(board, state, results)
        buf = io.StringIO()
        from matplotlib.backends.backend_svg import FigureCanvasSVG

        FigureCanvasSVG(fig)
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def render_png(board: Board, state: GameState, results: Any = None, width: int = 1000) -> bytes:
    """The position (and the report's orders, when given) as a PNG image `width` pixels wide."""
    with matplotlib.rc_context(_rc()):
        fig = _figure(board, state, results)
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=width / FIG_WIDTH_IN, metadata={"Software": None})
    return buf.getvalue()
