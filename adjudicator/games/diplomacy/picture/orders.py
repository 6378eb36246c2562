"""A phase's orders drawn on a Diplomacy picture: moves and retreats as arrows, supports as dashed lines ending
in a dot (never like a boundary: power colour, dark casing, a dot), convoys dotted, holds as rings, builds as
dashed units, removals as crosses. A failed order is faded and carries one red cross, on its own line and off the
labels; an illegal order is not drawn across the board, only crossed at its unit. No arrowhead or mark is
placed on a label (and the labels are drawn over the units and order lines)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from adjudicator.games.diplomacy.board import ARMY, split_location
from adjudicator.games.diplomacy.picture.arrows import Arrow, Disc, Point, arrow
from adjudicator.games.diplomacy.picture.board_layers import BoardLayers
from adjudicator.games.diplomacy.picture.results import DrawnOrder, Mark
from adjudicator.render.style import CASING, FADED, FAILED, FEATURE, PX, MapStyle
from adjudicator.render.palette import hex_colour
from adjudicator.render.pieces import cross, glyph
from adjudicator.render.svg import circle, group, ident, num, path, points, polygon

STYLE = MapStyle()
UNIT = STYLE.unit * PX  # half a unit's width
MOVE_WIDTH, SUPPORT_WIDTH = 3.4, 2.6
Drawn = tuple[str, Callable[[], list[Point]]]  # an order's SVG, and where its failure cross may go (the best first)
CONVOY_RING = UNIT + 5  # the dotted ring round a fleet a convoyed move passes through


BADGE = {"ice-disbanded": FEATURE["canal"], "civil-disorder": "#5E5E5E"}


def badge(x: float, y: float, kind: str) -> str:
    """A small disc naming what befell a unit: a snowflake (the ice) or a cross (civil disorder)."""
    if kind == "ice-disbanded":
        sign = path("".join(f"M{num(x - dx)} {num(y - dy)} L{num(x + dx)} {num(y + dy)}"
                            for dx, dy in ((0, 4.6), (4, 2.3), (4, -2.3))), stroke="#FFFFFF", stroke_width=1.6,
                    stroke_linecap="round")
    else:
        sign = cross(x, y, 2.8, "#FFFFFF", width=1.6)
    return circle(x, y, 6.5, fill=BADGE[kind], stroke=CASING, stroke_width=1) + sign


@functools.lru_cache(maxsize=256)
def faded(colour: str) -> str:
    """A colour washed towards white: how a failed order is drawn (solid, so it costs no transparency layer)."""
    c = hex_colour(colour) or "#777777"
    rgb = [int(c[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(v * FADED + 255 * (1 - FADED)):02X}" for v in rgb)


def line_svg(line: list[tuple[float, float]], colour: str, width: float, dash: str | None = None,
             casing: str = CASING) -> str:
    """A line in a power's colour over a dark casing (a yellow line shows on white ice, a white one on land)."""
    return _stroked(points(line), colour, width, dash, casing)


def legs_svg(legs: list[list[Point]], colour: str, width: float, casing: str = CASING) -> str:
    """Lines drawn as one, with gaps between them (a convoyed move's legs, broken at each fleet's ring)."""
    return _stroked(" ".join(points(leg) for leg in legs), colour, width, None, casing)


def _stroked(d: str, colour: str, width: float, dash: str | None, casing: str) -> str:
    cap = "round" if dash and dash.startswith("0.1") else "butt"
    style = (f' fill="none" stroke-linecap="{cap}" stroke-linejoin="round"'
             + (f' stroke-dasharray="{dash}"' if dash else ""))  # written out: a picture draws dozens
    return (f'<path d="{d}" stroke="{casing}" stroke-width="{width + 2.4:.1f}"{style}/>'
            f'<path d="{d}" stroke="{colour}" stroke-width="{width:.1f}"{style}/>')


def arrow_svg(a: Arrow, colour: str, width: float, casing: str = CASING) -> str:
    """An arrow: its shaft and its head, cased."""
    return line_svg(a.shaft, colour, width, casing=casing) + head_svg(a, colour, casing)


def head_svg(a: Arrow, colour: str, casing: str = CASING) -> str:
    """An arrow's head, cased (nothing when it has none)."""
    if not a.head:
        return ""
    return path(polygon(a.head), fill=colour, stroke=casing, stroke_width=1.3, stroke_linejoin="round")


@dataclass
class OrderPainter:
    """Draws a phase's orders given where things stand (`spot`), the label boxes and each power's colour."""

    spot: Callable[[str], tuple[float, float]]
    dislodged_spot: Callable[[str], tuple[float, float]]
    layers: BoardLayers  # the board's, for its labels
    colour: Callable[[str | None], str]
    dislodged: set[str]
    under: list[str] = field(default_factory=list)  # supports, convoys, holds: under the units
    over: list[str] = field(default_factory=list)  # moves, retreats, builds, removals: over the units
    marks: list[str] = field(default_factory=list)  # failure crosses and what befell units: on top
    used: list[str] = field(default_factory=list)  # legend keys
    moves: dict[str, Arrow] = field(default_factory=dict)  # by the moving unit's province
    seas: dict[str, tuple[str, ...]] = field(default_factory=dict)  # the seas a drawn move passes, by its province

    def _use(self, key: str) -> None:
        if key not in self.used:
            self.used.append(key)

    def draw(self, orders: list[DrawnOrder], marks: list[Mark]) -> None:
        """Draw every order (moves first, so supports and convoys can reach their lines) and every mark."""
        ranked = sorted(orders, key=lambda o: o.kind not in ("move", "retreat"))
        for o in ranked:
            if o.status == "illegal":
                self._illegal(o)
                continue
            colour = self.colour(o.power)
            fill, edge = (colour, CASING) if o.ok else (faded(colour), faded(CASING))  # a failed order: washed out
            drawn = getattr(self, f"_{o.kind}")(o, fill, edge)
            if drawn is None:
                continue
            svg, failure_at = drawn
            element = group(ident("order", str(o.number), o.kind), [svg])
            (self.under if o.kind in ("support", "convoy", "hold") else self.over).append(element)
            self._use(o.kind)
            if not o.ok:
                self._use("failed")
                self.marks.append(cross(*self._free(failure_at()), 5.0, FAILED, ident("order", str(o.number), o.kind,
                                                                                     "failed")))
        for m in marks:
            self._mark(m)

    def _free(self, candidates: list[tuple[float, float]]) -> tuple[float, float]:
        """The first spot whose cross covers no label (the first one if every one would)."""
        b = self.layers.label_array()
        for x, y in candidates:
            if not ((b[:, 0] < x + 8) & (x - 8 < b[:, 2]) & (b[:, 1] < y + 8) & (y - 8 < b[:, 3])).any():
                return x, y
        return candidates[0]

    def _move(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        if not (o.origin and o.dest):
            return None
        start = self.dislodged_spot(o.origin) if o.kind == "retreat" else self.spot(o.origin)
        dest = split_location(o.dest)[0] if o.unit_type == ARMY else o.dest  # armies ignore coasts
        end = self.spot(dest)
        legs: list[Arrow] = []
        if o.path:  # a convoyed move naming its seas: a leg to each fleet's ring, the last one to the place
            seas = [self.spot(sea) for sea in o.path]
            spots, rings = [start, *seas], [Disc(*start, UNIT * 1.05), *(Disc(*p, CONVOY_RING) for p in seas)]
            legs = [arrow(p, q, start=[dp], end=[dq], bend=0.0, head=0)
                    for p, q, dp, dq in zip(spots, spots[1:], rings, rings[1:])]
            start, leaving, bend = seas[-1], rings[-1], 0.0
        else:
            leaving, bend = Disc(*start, UNIT * 1.05), 0.14
        a = arrow(start, end, start=[leaving], end=[Disc(*end, UNIT * 0.95)], avoid_end=self.layers.labels_near(*end),
                  label=self.layers.label_boxes.get(split_location(dest)[0]), bend=bend, head=13.0, width=MOVE_WIDTH)
        width = MOVE_WIDTH if o.kind == "move" else 2.6
        if legs:
            svg = legs_svg([leg.shaft for leg in legs] + [a.shaft], fill, width, edge) + head_svg(a, fill, edge)
            a = Arrow([pt for leg in [*legs, a] for pt in leg.shaft], a.head)  # the whole line: where supports end
        else:
            svg = arrow_svg(a, fill, width, edge)
        if o.kind == "move":
            self.moves[split_location(o.origin)[0]] = a
            self.seas[split_location(o.origin)[0]] = tuple(split_location(sea)[0] for sea in o.path)
        return svg, lambda: [a.at(t) for t in (0.5, 0.35, 0.65, 0.25, 0.75)]

    _retreat = _move

    def _towards(self, target: str, target_dest: str | None) -> tuple[tuple[float, float], bool]:
        """Where a support or convoy line ends: on the supported unit's drawn move (two thirds along), or at the
        place it should move to, or at the unit that holds. True when it ends on a move."""
        move = self.moves.get(split_location(target)[0])
        if target_dest and move is not None:
            return move.at(0.62), True
        if target_dest:
            return self.spot(target_dest), False
        return self.spot(target), False

    def _support(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        if not (o.origin and o.target):
            return None
        start = self.spot(o.origin)
        end, on_move = self._towards(o.target, o.target_dest)
        if o.target_dest:
            stop = [Disc(*end, 3.0)] if on_move else [Disc(*end, UNIT * 1.1)]
            a = arrow(start, end, start=[Disc(*start, UNIT * 1.05)], end=stop, bend=-0.1, head=0, width=SUPPORT_WIDTH)
            tip = a.shaft[-1]
            svg = line_svg(a.shaft, fill, SUPPORT_WIDTH, "7 4", edge) + circle(*tip, 4.2, fill=fill, stroke=edge,
                                                                           stroke_width=1.3)
        else:  # support to hold: a dashed line to a dashed ring round the unit
            ring = UNIT + 5
            a = arrow(start, end, start=[Disc(*start, UNIT * 1.05)], end=[Disc(*end, ring)], bend=-0.1, head=0)
            svg = (line_svg(a.shaft, fill, SUPPORT_WIDTH, "7 4", edge) +
                   circle(*end, ring, fill="none", stroke=edge, stroke_width=SUPPORT_WIDTH + 2.4,
                          stroke_dasharray="7 4") +
                   circle(*end, ring, fill="none", stroke=fill, stroke_width=SUPPORT_WIDTH, stroke_dasharray="7 4"))
        return svg, lambda: [a.at(t) for t in (0.3, 0.2, 0.4, 0.5)]  # near the supporter, away from the move it backs

    def _convoy(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        if not (o.origin and o.target and o.target_dest):
            return None
        start = self.spot(o.origin)
        if split_location(o.origin)[0] in self.seas.get(split_location(o.target)[0], ()):
            # the army's arrow runs through this fleet: a dotted ring round the fleet marks its convoy
            ring = CONVOY_RING
            svg = "".join(circle(*start, ring, fill="none", stroke=colour, stroke_width=width,
                                 stroke_dasharray="0.1 5.5", stroke_linecap="round")
                          for colour, width in ((edge, SUPPORT_WIDTH + 2.4), (fill, SUPPORT_WIDTH)))
            return svg, lambda: [(start[0] + ring, start[1] - ring), (start[0] - ring, start[1] - ring)]
        end, _ = self._towards(o.target, o.target_dest)
        a = arrow(start, end, start=[Disc(*start, UNIT * 1.05)], end=[Disc(*end, 3.0)], bend=0.0, head=0)
        svg = line_svg(a.shaft, fill, SUPPORT_WIDTH, "0.1 5.5", edge) + path(
            polygon([(a.shaft[-1][0] + dx, a.shaft[-1][1] + dy) for dx, dy in ((0, -5), (5, 0), (0, 5), (-5, 0))]),
            fill=fill, stroke=edge, stroke_width=1.3)
        return svg, lambda: [a.at(t) for t in (0.3, 0.2, 0.4)]

    def _hold(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        if not o.origin:
            return None
        x, y = self.spot(o.origin)
        r = UNIT + 3.5
        svg = (circle(x, y, r, fill="none", stroke=edge, stroke_width=5.0) +
               circle(x, y, r, fill="none", stroke=fill, stroke_width=2.6))
        return svg, lambda: [(x + r, y - r)]

    def _build(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        if not o.origin:
            return None
        x, y = self.spot(o.origin)
        svg = (circle(x, y, UNIT + 5, fill="#FFFFFF", fill_opacity=0.7, stroke=edge, stroke_width=1.4,
                      stroke_dasharray="3 2") +
               glyph(o.unit_type, x, y, fill, stroke=edge, stroke_dasharray="3 2") +
               path(f"M{num(x + UNIT + 2)} {num(y - UNIT - 6)} h8 m-4 -4 v8", stroke=edge, stroke_width=2.2))
        return svg, lambda: [(x + UNIT, y + UNIT)]

    def _disband(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        if not o.origin:
            return None
        on_dislodged = split_location(o.origin)[0] in self.dislodged
        x, y = self.dislodged_spot(o.origin) if on_dislodged else self.spot(o.origin)
        return cross(x, y, UNIT * 0.9, edge), lambda: [(x + UNIT, y - UNIT)]

    def _illegal(self, o: DrawnOrder) -> None:
        """An illegal order is not drawn: its unit gets the failure cross at its corner."""
        if not o.origin:
            return
        x, y = self.spot(o.origin)
        self._use("illegal")
        corner = self._free([(x + UNIT * 1.1, y - UNIT * 0.9), (x - UNIT * 1.1, y - UNIT * 0.9), (x, y - UNIT * 1.5)])
        self.marks.append(cross(*corner, 4.0, FAILED, ident("order", str(o.number), o.kind, "illegal")))

    def _mark(self, m: Mark) -> None:
        """What befell a unit, drawn round it so the unit still shows (and under the labels): a blue ring with a
        snowflake badge for the ice, a grey ring with a cross badge for civil disorder, a red cross for a unit
        destroyed, a dashed red ring for a unit dislodged. The badges go on top, off the labels."""
        x, y = self.spot(m.location)
        key = ident(m.kind, m.location)
        if m.kind in ("ice-disbanded", "civil-disorder"):
            svg = group(key, [circle(x, y, UNIT * 1.45, fill="none", stroke="#FFFFFF", stroke_width=4.2),
                              circle(x, y, UNIT * 1.45, fill="none", stroke=BADGE[m.kind], stroke_width=2.2)])
            corner = self._free([(x + UNIT * 1.2, y - UNIT * 1.1), (x - UNIT * 1.2, y - UNIT * 1.1)])
            self.marks.append(group(f"{key}-badge", [badge(*corner, m.kind)]))
        elif m.kind == "destroyed":
            svg = cross(x, y, UNIT * 0.9, FAILED, key)
        else:
            svg = circle(x, y, UNIT * 1.4, key, fill="none", stroke=FAILED, stroke_width=2.2, stroke_dasharray="4 3")
        self._use(m.kind)
        self.over.append(svg)
