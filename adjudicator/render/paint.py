"""Drawing a position and its orders on a matplotlib figure."""

from __future__ import annotations

import io
import math
import re
import threading
from collections.abc import Iterable
from typing import Any

import matplotlib
from matplotlib import patheffects
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, PathPatch, Polygon, Rectangle
from matplotlib.path import Path

from adjudicator.board import ARMY, FLEET, Board, split_location
from adjudicator.render.geometry import geometry
from adjudicator.render.results import DrawnOrder, parse_results
from adjudicator.render.style import MapStyle, text_width as _text_width
from adjudicator.render.style import (
    ARMY_SHAPE,
    BORDER_STYLE,
    FAILED,
    FALLBACK_COLOURS,
    FIG_WIDTH_IN,
    FLEET_SHAPE,
    ICE_HATCH,
    IMPASSABLE_FILL,
    NEUTRAL,
    SEA_TEXT,
    TERRAIN_FILL,
    TEXT,
)
from adjudicator.state import GameState


# ----- drawing -----------------------------------------------------------------------------------------------
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
        pts = ARMY_SHAPE if unit_type == ARMY else FLEET_SHAPE
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
