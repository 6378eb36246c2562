"""The picture of a Diplomacy position, with a phase's orders: one SVG document in layers.

    map (kept per board and season) > centres > orders-under > units > dislodged > orders > labels (kept) >
    marks > legend

Every element a reader looks for has an id: `space-Kar`, `centre-Arc`, `unit-Russia-A-Arc`,
`dislodged-France-A-bur`, `order-3-move` (and `order-3-move-failed`, its cross), `canal-aaa-bbb`,
`one-way-rap-low`, `legend-canal`..."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.games.diplomacy.board import NEUTRAL as NEUTRAL_POWER, Board, split_location
from adjudicator.games.diplomacy.judge.retreat import retreat_options
from adjudicator.games.diplomacy.picture.arrows import Box, Disc, Point, arrow
from adjudicator.games.diplomacy.picture.board_layers import DEFS, STYLE, BoardLayers, board_layers, bridge_ladder
from adjudicator.games.diplomacy.picture.placement import Placement
from adjudicator.render.legend import Entry, legend
from adjudicator.games.diplomacy.picture.orders import (
    BADGE,
    DISLODGED_R,
    MOVE_WIDTH,
    RETREAT_DASH,
    RETREAT_WIDTH,
    SUPPORT_WIDTH,
    UNIT,
    OrderPainter,
    badge,
    cross,
    faded,
    glyph,
    line_svg,
    unit_box,
    waive_svg,
)
from adjudicator.render.palette import assign_colours, colours_apart
from adjudicator.render.pieces import ink_on, short_names
from adjudicator.games.diplomacy.picture.results import as_drawing
from adjudicator.render.style import (
    CASING,
    FAILED,
    FAILED_EDGE,
    FEATURE,
    NEUTRAL,
    PX,
    TERRAIN_FILL,
    WIDTH,
)
from adjudicator.render.svg import Layer, Picture, circle, group, ident, num, path, rect
from adjudicator.render.text import text
from adjudicator.games.diplomacy.state import GameState

CENTRE = STYLE.centre * PX
OPTION = "#3A3A3A"  # a retreat option's thin dotted arrow


def power_colours(board: Board) -> dict[str, str]:
    """Each power's colour in pictures (the board's own where players can tell them apart; palette.py)."""
    return assign_colours(tuple((name, p.colour) for name, p in board.powers.items()))


def power_tags(board: Board) -> dict[str, str]:
    """Each power's letters on its units, when the board has more powers than colours keep apart (Chaos: 34);
    none otherwise."""
    colours = power_colours(board)
    return {} if colours_apart(list(colours.values())) else short_names(tuple(board.powers))


def diplomacy_picture(board: Board, state: GameState, results: Any = None) -> Picture:
    """The position (and a phase's orders, when given: `results.as_drawing` takes them) as a picture in layers."""
    layers = board_layers(board, state.phase.season)
    geo = layers.geo
    colours = power_colours(board)
    tags = power_tags(board)

    def colour(power: str | None) -> str:
        return colours.get(power or "", NEUTRAL)

    def spot(location: str) -> tuple[float, float]:
        return geo.location.get(location) or geo.anchor[split_location(location)[0]]

    drawing = as_drawing(board, results)
    placement = Placement(WIDTH, geo.height, layers.taken())
    # The placement pass: the labels and centre markers (kept with the board's layers), the units (and the
    # builds and waived builds, which stand where units would); then the dislodged units beside the units now
    # in their places; the painter places the marks among them all.
    for u in state.units.values():
        placement.take(unit_box(u.type, *spot(u.location)), "unit")
    waive_spots = _waive_spots(board, state, drawing.orders)
    for o in drawing.orders:
        if o.kind == "build" and o.status != "illegal" and o.origin:
            x, y = spot(o.origin)
            placement.take(Box(x - UNIT - 6, y - UNIT - 10, x + UNIT + 12, y + UNIT + 6), "unit")
    for where in waive_spots.values():
        for loc in where:
            x, y = spot(loc)
            placement.take(Box(x - UNIT, y - UNIT, x + UNIT, y + UNIT), "unit")
    dislodged_at = {d.unit.location: _beside(placement, spot(d.unit.location),
                                             split_location(d.unit.location)[0] in state.units)
                    for d in sorted(state.dislodged.values(), key=lambda d: d.unit.location)}
    by_province = {split_location(loc)[0]: xy for loc, xy in dislodged_at.items()}

    def dislodged_spot(location: str) -> tuple[float, float]:
        return by_province.get(split_location(location)[0]) or spot(location)

    queue = {power: list(where) for power, where in waive_spots.items()}
    painter = OrderPainter(spot, dislodged_spot, layers, colour, set(by_province), placement,
                           retreats=state.phase.type == "Retreat",
                           waive_spot=lambda power: queue[power].pop(0) if power and queue.get(power) else None)
    painter.draw(list(drawing.orders), list(drawing.marks))

    owned, empty = _centre_templates(layers)
    centres = [owned[pid].format(colour(state.owners[pid])) if pid in state.owners else empty[pid]
               for pid in layers.centre_spots]
    units = [_unit(u.type, *spot(u.location), colour(u.power), tags.get(u.power, ""),
                   ident("unit", u.power, u.type, u.location))
             for u in sorted(state.units.values(), key=lambda u: u.location)]
    shaken = []
    for d in sorted(state.dislodged.values(), key=lambda d: d.unit.location):
        u = d.unit
        x, y = dislodged_at[u.location]
        shaken.append(group(ident("dislodged", u.power, u.type, u.location), [
            circle(x, y, DISLODGED_R, ident("dislodged-mark", u.location), fill="#FFFFFF", fill_opacity=0.85,
                   stroke=FAILED, stroke_width=2.2, stroke_dasharray="4 3"),
            _unit(u.type, x, y, colour(u.power), tags.get(u.power, ""), scale=0.8)]))
    options = _retreat_options(board, state, layers, spot, dislodged_at) if state.phase.type == "Retreat" else []
    if options:
        painter.used.append("retreat-option")

    top = geo.height
    phase = state.phase
    legend_svg, legend_h = legend(top, board.title, f"{phase.season} {phase.year} \u00b7 {phase.type}",
                                  _legend_sections(board, state, layers.features, painter, colour, tags))
    phase_layers = "".join([group("centres", centres), group("retreat-options", options),
                            group("orders-under", painter.under), group("units", units),
                            group("dislodged", shaken), group("orders", painter.over)])
    body = [Layer(layers.map, layers.key + ("map",)), Layer(phase_layers),
            Layer(layers.labels, layers.key + ("labels",)), Layer(group("marks", painter.marks) + legend_svg)]
    return Picture(WIDTH, top + legend_h, DEFS, body, title=f"{board.title}, {phase}")


def _unit(unit_type: str | None, x: float, y: float, fill: str, tag: str = "", element_id: str | None = None,
          scale: float = 1.0, **attrs: Any) -> str:
    """A unit's silhouette, with its power's letters on its hull when the board's colours need them."""
    if not tag:
        return glyph(unit_type, x, y, fill, element_id, scale=scale, **attrs)
    size = UNIT * scale
    return group(element_id, [glyph(unit_type, x, y, fill, scale=scale, **attrs),
                              text(x, y + size * 0.36, tag, size * 0.62, face="bold", fill=ink_on(fill),
                                   anchor="middle")])


def _beside(placement: Placement, at: tuple[float, float], taken: bool) -> tuple[float, float]:
    """Where a dislodged unit is drawn: beside the unit now in its place (up and to the right first), never on
    it, on a label or on another dislodged unit; on its own spot when that stands empty."""
    x, y = at
    half = DISLODGED_R + 1.2
    if not taken:
        return placement.place([at], half, what="dislodged")
    side, up = UNIT * 1.12 + half + 2, UNIT * 0.86 + half + 2
    spots = [(x + side, y - half * 0.6), (x - side, y - half * 0.6), (x + side * 0.8, y - up), (x - side * 0.8, y - up),
             (x, y - up), (x + side, y + half * 0.4), (x - side, y + half * 0.4)]
    return placement.place(spots, half, what="dislodged")


def _retreat_options(board: Board, state: GameState, layers: BoardLayers, spot: Callable[[str], Point],
                     dislodged_at: dict[str, Point]) -> list[str]:
    """Each dislodged unit's retreat options: a thin dotted arrow from it to each place it may go."""
    occupied = set(state.units)
    rules = state.rule_options(board)
    out = []
    for d in sorted(state.dislodged.values(), key=lambda d: d.unit.location):
        origin = dislodged_at[d.unit.location]
        for loc in retreat_options(board, state.phase.season, d, occupied, state.contested, rules):
            end = spot(split_location(loc)[0] if d.unit.type == "A" else loc)
            a = arrow(origin, end, start=[Disc(*origin, DISLODGED_R + 2)], end=[Disc(*end, UNIT * 0.6)],
                      avoid_end=layers.labels_near(*end), label=layers.label_boxes.get(split_location(loc)[0]),
                      bend=0.1, head=7.0, width=1.4, minimum=6.0)
            svg = path("M" + " L".join(f"{num(px)} {num(py)}" for px, py in a.shaft), fill="none", stroke=OPTION,
                       stroke_width=1.5, stroke_dasharray="1.5 3", stroke_linecap="round")
            if a.head:
                tip, left, right = a.head
                svg += path(f"M{num(left[0])} {num(left[1])} L{num(tip[0])} {num(tip[1])} L{num(right[0])} "
                            f"{num(right[1])}", fill="none", stroke=OPTION, stroke_width=1.5, stroke_linejoin="round")
            out.append(group(ident("retreat-option", d.unit.location, loc), [svg]))
    return out


def _waive_spots(board: Board, state: GameState, orders) -> dict[str, list[str]]:
    """Where each power's waived builds are drawn: its home centres it owns that stand empty and take no build
    this phase, in the board's order (a waive names no place: these are where a build could have stood)."""
    waives: dict[str, int] = {}
    for o in orders:
        if o.kind == "waive" and o.status != "illegal" and o.power:
            waives[o.power] = waives.get(o.power, 0) + 1
    building = {split_location(o.origin)[0] for o in orders if o.kind == "build" and o.origin}
    out = {}
    for power, n in waives.items():
        free = [c for c in board.home_centres(power) if state.owners.get(c) == power and c not in state.units
                and c not in building and c in board.provinces]
        out[power] = free[:n]
    return out


def _centre_templates(layers: BoardLayers) -> tuple[dict[str, str], dict[str, str]]:
    """Each centre's marker, owned (its fill to format in) and neutral: written once per board and season."""
    if layers.centres is None:
        owned = {pid: circle(x, y, CENTRE * 1.2, ident("centre", pid), fill="{}", stroke=CASING, stroke_width=1.3)
                 for pid, (x, y) in layers.centre_spots.items()}
        empty = {pid: circle(x, y, CENTRE, ident("centre", pid), fill="#FFFFFF", fill_opacity=0.5, stroke=NEUTRAL,
                             stroke_width=2.0) for pid, (x, y) in layers.centre_spots.items()}
        layers.centres = ({k: v.replace("{}", "{0}") for k, v in owned.items()}, empty)
    return layers.centres


# ----- the legend --------------------------------------------------------------------------------------------
def _swatch(fill: str) -> Callable[[float, float], str]:
    return lambda x, y: rect(x, y - 8, 22, 16, fill=fill, stroke="#555555", stroke_width=1)


def _sample_line(colour: str, width: float, dash: str | None = None, dot: bool = False, head: bool = False,
                 failed: bool = False):
    def draw(x: float, y: float) -> str:
        end = x + (26 if head else 30)
        fill, edge = (faded(colour), FAILED_EDGE) if failed else (colour, CASING)
        svg = line_svg([(x, y), (end, y)], fill, width, dash, casing=edge)
        if head:
            svg += path(f"M{num(end + 10)} {num(y)} L{num(end)} {num(y - 6)} L{num(end)} {num(y + 6)}Z",
                        fill=fill, stroke=edge, stroke_width=1.3)
        if dot:
            svg += circle(end, y, 4.2, fill=fill, stroke=edge, stroke_width=1.3)
        return svg
    return draw


def _feature_sample(key: str):
    def draw(x: float, y: float) -> str:
        line = f"M{num(x + 2)} {num(y)} L{num(x + 34)} {num(y)}"
        if key == "canal":
            return (path(line, stroke=FEATURE["canal"], stroke_width=6, stroke_linecap="round") +
                    path(line, stroke="#FFFFFF", stroke_width=2, stroke_dasharray="5 4"))
        if key == "river":
            return path(line, stroke=FEATURE["river"], stroke_width=3.2, stroke_linecap="round")
        if key == "bridge":
            return bridge_ladder((x + 2, y), (x + 34, y))
        if key == "one-way":
            return path(f"M{num(x + 24)} {num(y)} L{num(x + 12)} {num(y - 8)} L{num(x + 17)} {num(y)} "
                        f"L{num(x + 12)} {num(y + 8)}Z", fill=FEATURE["one-way"])
        return rect(x + 2, y - 8, 30, 16, fill=TERRAIN_FILL["land"], stroke=FEATURE["archipelago"], stroke_width=2.2,
                    stroke_dasharray="2 3")
    return draw


_FEATURE_WORDS = {"canal": "canal (fleets only)", "river": "river (fleets sail up)", "bridge": "bridge (armies only)",
                  "one-way": "one-way border", "archipelago": "archipelago (fleets convoy)"}
_ORDER_WORDS = {"move": "move", "retreat": "retreat", "retreat-option": "retreat option", "support": "support",
                "convoy": "convoy", "hold": "hold", "build": "build", "waive": "build waived",
                "disband": "disband / remove"}
_MARK_WORDS = {"failed": "failed (faded, crossed)", "illegal": "illegal order (not drawn)",
               "ice-disbanded": "disbanded by the ice", "civil-disorder": "removed in civil disorder",
               "destroyed": "destroyed (no retreat)", "dislodged": "dislodged this phase"}


def _marked_ring(x: float, y: float, kind: str) -> str:
    return (glyph("A", x + 11, y, "#FFFFFF", scale=0.7) + circle(x + 11, y, 10, fill="none", stroke=BADGE[kind],
                                                                  stroke_width=2) + badge(x + 20, y - 8, kind))


def _swatch_tagged(fill: str, tag: str) -> Callable[[float, float], str]:
    if not tag:
        return _swatch(fill)
    return lambda x, y: _swatch(fill)(x, y) + text(x + 11, y, tag, 9.5, face="bold", fill=ink_on(fill),
                                                   anchor="middle")


def _legend_sections(board: Board, state: GameState, features: list[str], painter: OrderPainter, colour,
                     tags: dict[str, str]) -> list:
    used = painter.used
    powers = []
    for name in board.powers:
        c, u = len(state.centres_of(name)), len(state.units_of(name))
        waived = painter.waived.get(name, 0)
        note = (f"{c} centre{'s' * (c != 1)}, {u} unit{'s' * (u != 1)}"
                + (f", {waived} build{'s' * (waived != 1)} waived" if waived else ""))
        powers.append(Entry(ident("power", name), name, _swatch_tagged(colour(name), tags.get(name, "")), note=note,
                            strong=True, symbol_width=22))
    key = []
    for name in ("land", "sea", "ice"):
        if name in features:
            key.append(Entry(name, name, _swatch("url(#ice)" if name == "ice" else TERRAIN_FILL[name])))
    if "impassable" in features:
        key.append(Entry("impassable", "impassable", _swatch("url(#impassable)")))
    kinds = {u.type for u in state.units.values()} | {d.unit.type for d in state.dislodged.values()}
    for t, word in (("A", "army"), ("F", "fleet")):
        if t in kinds:
            key.append(Entry(word, word, lambda x, y, t=t: glyph(t, x + 11, y, "#FFFFFF", scale=0.8)))
    neutral_units = sorted({u.type for u in state.units.values() if u.power not in board.powers})
    if neutral_units:  # drawn grey: the power colours never are
        key.append(Entry("neutral-unit", "neutral unit", lambda x, y: glyph(neutral_units[0], x + 11, y, NEUTRAL,
                                                                           scale=0.8)))
    if state.dislodged:
        key.append(Entry("dislodged", "dislodged", lambda x, y: circle(
            x + 11, y, 10, fill="#FFFFFF", stroke=FAILED, stroke_width=2.2, stroke_dasharray="4 3") +
            glyph("A", x + 11, y, "#FFFFFF", scale=0.6)))
    if any(o for o in state.owners):
        key.append(Entry("centre", "centre (owner's colour)", lambda x, y: circle(
            x + 8, y, CENTRE * 1.2, fill="#FFFFFF", stroke=CASING, stroke_width=1.3), symbol_width=14))
    neutral = sum(1 for c in board.centres if c not in state.owners)
    if neutral:
        key.append(Entry("neutral-centre", f"neutral centre ({neutral})", lambda x, y: circle(
            x + 8, y, CENTRE, fill="#FFFFFF", stroke=NEUTRAL, stroke_width=2.0), symbol_width=14))
    for name in FEATURE:
        if name in features:
            key.append(Entry(name, _FEATURE_WORDS[name], _feature_sample(name), symbol_width=36))
    orders = []
    white = "#FFFFFF"
    samples = {"move": _sample_line(white, MOVE_WIDTH, head=True),
               "retreat": _sample_line(white, RETREAT_WIDTH, RETREAT_DASH, head=True),
               "retreat-option": _option_sample,
               "support": _sample_line(white, SUPPORT_WIDTH, "7 4", dot=True),
               "convoy": _sample_line(white, SUPPORT_WIDTH, "0.1 5.5"),
               "hold": lambda x, y: circle(x + 11, y, 9, fill="none", stroke=CASING, stroke_width=5) + circle(
                   x + 11, y, 9, fill="none", stroke=white, stroke_width=2.6),
               "build": lambda x, y: glyph("A", x + 11, y, white, scale=0.8, stroke_dasharray="3 2"),
               "waive": lambda x, y: waive_svg(x + 11, y, white),
               "disband": lambda x, y: cross(x + 11, y, 7, CASING)}
    for kind, words in _ORDER_WORDS.items():
        if kind in used:
            orders.append(Entry(kind, words, samples[kind], symbol_width=40 if kind in (
                "move", "retreat", "retreat-option", "support", "convoy") else 22))
    marks = {"failed": lambda x, y: _sample_line("#0B4FA8", MOVE_WIDTH, head=True, failed=True)(x, y) + cross(
                 x + 18, y, 5, FAILED),
             "illegal": lambda x, y: cross(x + 11, y, 4.5, FAILED),
             "ice-disbanded": lambda x, y: _marked_ring(x, y, "ice-disbanded"),
             "civil-disorder": lambda x, y: _marked_ring(x, y, "civil-disorder"),
             "destroyed": lambda x, y: _marked_ring(x, y, "destroyed"),
             "dislodged": lambda x, y: circle(x + 11, y, 10, fill="none", stroke=FAILED, stroke_width=2.2,
                                              stroke_dasharray="4 3")}
    for kind, words in _MARK_WORDS.items():
        if kind in used:
            orders.append(Entry(kind, words, marks[kind], symbol_width=40 if kind == "failed" else 22))
    return [("", powers, True), ("Key:", key, False), ("Orders:", orders, False)]


def _option_sample(x: float, y: float) -> str:
    end = x + 34
    return (path(f"M{num(x)} {num(y)} L{num(end)} {num(y)}", stroke=OPTION, stroke_width=1.5,
                 stroke_dasharray="1.5 3", stroke_linecap="round") +
            path(f"M{num(end - 6)} {num(y - 4)} L{num(end)} {num(y)} L{num(end - 6)} {num(y + 4)}", fill="none",
                 stroke=OPTION, stroke_width=1.5, stroke_linejoin="round"))
