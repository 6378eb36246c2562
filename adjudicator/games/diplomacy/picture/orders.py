"""A phase's orders drawn on a Diplomacy picture: moves and retreats as arrows, supports as dashed lines ending
in a dot (never like a boundary: power colour, dark casing, a dot), convoys dotted (their marks drawn over the
arrows they reach), holds as rings, builds as dashed units, waived builds as slashed rings, removals as crosses,
a dislodged unit's retreat options as thin dotted arrows. A failed order is washed out with a mid-grey edge (so a
white or yellow one still shows on land and ice) and carries one red cross, on its own line; an illegal order is
not drawn across the board, only crossed beside its unit. Every mark is placed by the placement pass
(placement.py): none covers a label, a unit or another mark, and no arrowhead enters a label (the labels are
drawn over the units and order lines)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from adjudicator.games.diplomacy.board import ARMY, split_location
from adjudicator.games.diplomacy.picture.arrows import Arrow, Box, Disc, Point, arrow
from adjudicator.games.diplomacy.picture.board_layers import BoardLayers
from adjudicator.games.diplomacy.picture.placement import Placement
from adjudicator.games.diplomacy.picture.results import DrawnOrder, Mark
from adjudicator.render.style import (
    ARMY_SHAPE,
    CASING,
    FADED,
    FAILED,
    FAILED_EDGE,
    FEATURE,
    FLEET_SHAPE,
    PX,
    MapStyle,
)
from adjudicator.render.palette import hex_colour
from adjudicator.render.pieces import cross, glyph
from adjudicator.render.svg import circle, group, ident, num, path, points, polygon

STYLE = MapStyle()
UNIT = STYLE.unit * PX  # half a unit's width
MOVE_WIDTH, SUPPORT_WIDTH, RETREAT_WIDTH = 3.4, 2.6, 3.0
RETREAT_DASH = "9 3"  # a retreat's arrow is dashed: a move's is whole, a support's dashed with a dot and no head
Drawn = tuple[str, Callable[[], list[Point]]]  # an order's SVG, and where its failure cross may go (the best first)
CONVOY_RING = UNIT + 5  # the dotted ring round a fleet a convoyed move passes through
CROSS = 5.0  # half a failure cross; its box reaches CROSS + its white edge
CROSS_BOX = CROSS + 2.8
ILLEGAL = 4.0
BADGE_R = 6.5
DIAMOND = 6.0  # half a convoy's diamond on the army's arrow
DISLODGED_R = UNIT * 1.15  # the dashed ring round a dislodged unit, drawn beside the unit now in its place
WAIVE_R = UNIT * 0.85  # the slashed ring of a waived build
_SHAPES = {"A": ARMY_SHAPE, "F": FLEET_SHAPE}


BADGE = {"ice-disbanded": FEATURE["canal"], "civil-disorder": "#5E5E5E", "destroyed": FAILED}


def badge(x: float, y: float, kind: str) -> str:
    """A small disc naming what befell a unit: a snowflake (the ice), a cross (civil disorder, destroyed)."""
    if kind == "ice-disbanded":
        sign = path("".join(f"M{num(x - dx)} {num(y - dy)} L{num(x + dx)} {num(y + dy)}"
                            for dx, dy in ((0, 4.6), (4, 2.3), (4, -2.3))), stroke="#FFFFFF", stroke_width=1.6,
                    stroke_linecap="round")
    else:
        sign = cross(x, y, 2.8, "#FFFFFF", width=1.6)
    return circle(x, y, BADGE_R, fill=BADGE[kind], stroke=CASING, stroke_width=1) + sign


def unit_box(unit_type: str | None, x: float, y: float, scale: float = 1.0) -> Box:
    """The box a unit's silhouette covers (its edge included), drawn at (x, y)."""
    shape = _SHAPES["F" if unit_type == "F" else "A"]
    size, edge = UNIT * scale, 0.7
    xs, ys = [u for u, _ in shape], [v for _, v in shape]
    return Box(x + min(xs) * size - edge, y - max(ys) * size - edge, x + max(xs) * size + edge,
               y - min(ys) * size + edge)


def waive_svg(x: float, y: float, colour: str, element_id: str | None = None) -> str:
    """A waived build: a dashed ring in the power's colour, slashed, where a build could have stood."""
    d = WAIVE_R * 0.7
    return group(element_id, [
        circle(x, y, WAIVE_R, fill="#FFFFFF", fill_opacity=0.7, stroke=CASING, stroke_width=3.4,
               stroke_dasharray="3 2"),
        circle(x, y, WAIVE_R, fill="none", stroke=colour, stroke_width=1.8, stroke_dasharray="3 2"),
        path(f"M{num(x - d)} {num(y + d)} L{num(x + d)} {num(y - d)}", stroke=CASING, stroke_width=2.2,
             stroke_linecap="round")])


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
    """Draws a phase's orders given where things stand (`spot`), the label boxes, each power's colour, and the
    placement pass that finds each mark its place."""

    spot: Callable[[str], tuple[float, float]]
    dislodged_spot: Callable[[str], tuple[float, float]]
    layers: BoardLayers  # the board's, for its labels
    colour: Callable[[str | None], str]
    dislodged: set[str]
    placement: Placement
    retreats: bool = False  # a retreat phase: its moves are retreats, of the dislodged units
    waive_spot: Callable[[str | None], str | None] = lambda power: None  # where a power's waived build is drawn
    under: list[str] = field(default_factory=list)  # supports, convoys, holds: under the units
    over: list[str] = field(default_factory=list)  # moves, retreats, builds, removals: over the units
    marks: list[str] = field(default_factory=list)  # failure crosses and what befell units: on top
    used: list[str] = field(default_factory=list)  # legend keys
    moves: dict[str, Arrow] = field(default_factory=dict)  # by the moving unit's province
    seas: dict[str, tuple[str, ...]] = field(default_factory=dict)  # the seas a drawn move passes, by its province
    waived: dict[str, int] = field(default_factory=dict)  # builds waived, by power

    def _use(self, key: str) -> None:
        if key not in self.used:
            self.used.append(key)

    def draw(self, orders: list[DrawnOrder], marks: list[Mark]) -> None:
        """Draw every order (moves first, so supports and convoys can reach their lines) and every mark."""
        if self.retreats:  # `A bur - gas` in a retreat phase is read as a move: it is the dislodged unit's retreat
            orders = [o if o.kind != "move" else replace(o, kind="retreat") for o in orders]
        ranked = sorted(orders, key=lambda o: o.kind not in ("move", "retreat"))
        crosses: list[tuple[DrawnOrder, Callable[[], list[Point]]]] = []
        for o in ranked:
            if o.status == "illegal":
                self._illegal(o)
                continue
            colour = self.colour(o.power)
            fill, edge = (colour, CASING) if o.ok else (faded(colour), FAILED_EDGE)  # a failed order: washed out
            drawn = getattr(self, f"_{o.kind}")(o, fill, edge)
            if drawn is None:
                continue
            svg, failure_at = drawn
            element = group(ident("order", str(o.number), o.kind), [svg])
            (self.under if o.kind in ("support", "convoy", "hold") else self.over).append(element)
            self._use(o.kind)
            if not o.ok:
                crosses.append((o, failure_at))
        for m in marks:
            self._mark(m)
        for o, failure_at in crosses:  # after the marks on units, which have fewer places to go
            self._use("failed")
            x, y = self.placement.place(_beside_line(failure_at()), CROSS_BOX, what="mark")
            self.marks.append(cross(x, y, CROSS, FAILED, ident("order", str(o.number), o.kind, "failed")))

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
            leaving, bend = Disc(*start, (DISLODGED_R if o.kind == "retreat" else UNIT) * 1.05), 0.14
        a = arrow(start, end, start=[leaving], end=[Disc(*end, UNIT * 0.95)], avoid_end=self.layers.labels_near(*end),
                  label=self.layers.label_boxes.get(split_location(dest)[0]), bend=bend, head=13.0, width=MOVE_WIDTH)
        if legs:
            svg = legs_svg([leg.shaft for leg in legs] + [a.shaft], fill, MOVE_WIDTH, edge) + head_svg(a, fill, edge)
            a = Arrow([pt for leg in [*legs, a] for pt in leg.shaft], a.head)  # the whole line: where supports end
        elif o.kind == "retreat":
            svg = line_svg(a.shaft, fill, RETREAT_WIDTH, RETREAT_DASH, edge) + head_svg(a, fill, edge)
        else:
            svg = arrow_svg(a, fill, MOVE_WIDTH, edge)
        if o.kind == "move":
            self.moves[split_location(o.origin)[0]] = a
            self.seas[split_location(o.origin)[0]] = tuple(split_location(sea)[0] for sea in o.path)
        return svg, lambda: [a.at(t) for t in ALONG]

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
        # near the supporter, away from the move it backs
        return svg, lambda: [a.at(t) for t in (0.3, 0.22, 0.38, 0.45, 0.15, 0.52, 0.6)]

    def _convoy(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        """A dotted line from the fleet to the army's move, ending in a diamond on it; or, when the move runs
        through the fleet, a dotted ring round the fleet. The ring and the diamond are drawn over the arrows (a
        convoy hidden under the army's arrow reads as a plain move)."""
        if not (o.origin and o.target and o.target_dest):
            return None
        start = self.spot(o.origin)
        if split_location(o.origin)[0] in self.seas.get(split_location(o.target)[0], ()):
            ring = CONVOY_RING
            self.over.append(group(ident("order", str(o.number), "convoy", "ring"), [circle(*start, ring, fill="none", stroke=colour, stroke_width=width,
                                                stroke_dasharray="0.1 5.5", stroke_linecap="round")
                                         for colour, width in ((edge, SUPPORT_WIDTH + 2.4), (fill, SUPPORT_WIDTH))]))
            return "", lambda: [(start[0] + ring * c, start[1] + ring * s) for c, s in
                                ((0.7, -0.7), (-0.7, -0.7), (0.7, 0.7), (-0.7, 0.7), (0.0, -1.0))]
        move = self.moves.get(split_location(o.target)[0])
        if move is not None:  # the diamond on the army's arrow, where it covers no label, unit or mark
            end = self.placement.place([move.at(t) for t in (0.62, 0.55, 0.7, 0.48, 0.77, 0.41)], DIAMOND + 1.8,
                                       what="mark", roam=False)
        else:
            end, _ = self._towards(o.target, o.target_dest)
        a = arrow(start, end, start=[Disc(*start, UNIT * 1.05)], end=[Disc(*end, 3.0)], bend=0.0, head=0)
        tip = a.shaft[-1] if move is None else end
        diamond = polygon([(tip[0] + dx, tip[1] + dy) for dx, dy in ((0, -DIAMOND), (DIAMOND, 0), (0, DIAMOND), (-DIAMOND, 0))])
        self.over.append(group(ident("order", str(o.number), "convoy", "mark"), [path(diamond, fill="none", stroke="#FFFFFF", stroke_width=3.6,
                                          stroke_linejoin="round"),
                                     path(diamond, fill=fill, stroke=edge, stroke_width=1.4, stroke_linejoin="round")]))
        return line_svg(a.shaft, fill, SUPPORT_WIDTH, "0.1 5.5", edge), lambda: [a.at(t) for t in
                                                                                (0.3, 0.2, 0.4, 0.5, 0.12, 0.6)]

    def _hold(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        if not o.origin:
            return None
        x, y = self.spot(o.origin)
        r = UNIT + 3.5
        svg = (circle(x, y, r, fill="none", stroke=edge, stroke_width=5.0) +
               circle(x, y, r, fill="none", stroke=fill, stroke_width=2.6))
        return svg, lambda: _round(x, y, r + 2)

    def _build(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        if not o.origin:
            return None
        x, y = self.spot(o.origin)
        svg = (circle(x, y, UNIT + 5, fill="#FFFFFF", fill_opacity=0.7, stroke=edge, stroke_width=1.4,
                      stroke_dasharray="3 2") +
               glyph(o.unit_type, x, y, fill, stroke=edge, stroke_dasharray="3 2") +
               path(f"M{num(x + UNIT + 2)} {num(y - UNIT - 6)} L{num(x + UNIT + 10)} {num(y - UNIT - 6)} "
                    f"M{num(x + UNIT + 6)} {num(y - UNIT - 10)} L{num(x + UNIT + 6)} {num(y - UNIT - 2)}",
                    stroke=edge, stroke_width=2.2))
        return svg, lambda: _round(x, y, UNIT + 12)

    def _waive(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        """A waived build: counted for the legend, and drawn at a home centre the power could have built on."""
        power = o.power or ""
        self.waived[power] = self.waived.get(power, 0) + 1
        where = self.waive_spot(o.power)
        if where is None:
            self._use("waive")
            return None
        x, y = self.spot(where)
        return waive_svg(x, y, fill), lambda: _round(x, y, WAIVE_R + 9)

    def _disband(self, o: DrawnOrder, fill: str, edge: str) -> Drawn | None:
        if not o.origin:
            return None
        on_dislodged = split_location(o.origin)[0] in self.dislodged
        x, y = self.dislodged_spot(o.origin) if on_dislodged else self.spot(o.origin)
        return cross(x, y, UNIT * 0.9, edge), lambda: _round(x, y, UNIT + 9)

    def _illegal(self, o: DrawnOrder) -> None:
        """An illegal order is not drawn: the failure cross goes beside its unit (or the place it names)."""
        if not o.origin:
            return
        on_dislodged = self.retreats and split_location(o.origin)[0] in self.dislodged
        x, y = self.dislodged_spot(o.origin) if on_dislodged else self.spot(o.origin)
        self._use("illegal")
        b = unit_box(o.unit_type, x, y, 0.85 if on_dislodged else 1.0)
        reach = ILLEGAL + 2.8 + 1.5
        corners = [(b.x1 + reach, b.y0), (b.x0 - reach, b.y0), (b.x1 + reach, b.y1), (b.x0 - reach, b.y1),
                   (x, b.y0 - reach)]
        cx, cy = self.placement.place(corners, ILLEGAL + 2.8, what="mark")
        self.marks.append(cross(cx, cy, ILLEGAL, FAILED, ident("order", str(o.number), o.kind, "illegal")))

    def _mark(self, m: Mark) -> None:
        """What befell a unit, drawn round it so the unit still shows (and under the labels): a blue ring with a
        snowflake badge for the ice, a grey ring with a cross badge for civil disorder, a red ring with a cross
        badge for a unit destroyed, a dashed red ring for a unit dislodged. The badges go on top, placed."""
        province = split_location(m.location)[0]
        on_dislodged = self.retreats and province in self.dislodged
        x, y = self.dislodged_spot(m.location) if on_dislodged else self.spot(m.location)
        key = ident(m.kind, m.location)
        r = DISLODGED_R + 2 if on_dislodged else UNIT * 1.45
        if m.kind in BADGE:
            svg = group(key, [circle(x, y, r, fill="none", stroke="#FFFFFF", stroke_width=4.2),
                              circle(x, y, r, fill="none", stroke=BADGE[m.kind], stroke_width=2.2)])
            corner = self.placement.place(_round(x, y, r + 2), BADGE_R + 0.5, what="mark")
            self.marks.append(group(f"{key}-badge", [badge(*corner, m.kind)]))
        else:
            svg = circle(x, y, r, key, fill="none", stroke=FAILED, stroke_width=2.2, stroke_dasharray="4 3")
        self._use(m.kind)
        self.over.append(svg)


ALONG = (0.5, 0.42, 0.58, 0.35, 0.65, 0.28, 0.72, 0.22, 0.78, 0.16, 0.84)  # where on its line a failure cross may go


def _beside_line(spots: list[Point]) -> list[Point]:
    """A failure cross's spots: those on its line (the best first), then the same a cross's width to either side
    of it (where the line runs between labels), then half-way between each two on it."""
    side = []
    for (x0, y0), (x1, y1) in zip(spots, spots[1:] + spots[-1:]):
        dx, dy = x1 - x0, y1 - y0
        d = (dx * dx + dy * dy) ** 0.5
        if d > 1e-9:
            nx, ny = -dy / d * CROSS_BOX * 1.2, dx / d * CROSS_BOX * 1.2
            side += [(x0 + nx, y0 + ny), (x0 - nx, y0 - ny)]
    between = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(spots, spots[1:])]
    return spots + between + side


def _round(x: float, y: float, r: float) -> list[Point]:
    """Spots round (x, y) at distance r: the upper right first, then the other corners, then the sides."""
    d = r * 0.72
    return [(x + d, y - d), (x - d, y - d), (x + d, y + d), (x - d, y + d), (x + r, y), (x - r, y), (x, y - r),
            (x, y + r)]
