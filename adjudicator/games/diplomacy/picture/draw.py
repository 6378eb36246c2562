"""The picture of a Diplomacy position, with a phase's orders: one SVG document in layers.

    map (kept per board and season) > centres > orders-under > units > dislodged > orders > labels (kept) >
    marks > legend

Every element a reader looks for has an id: `space-Kar`, `centre-Arc`, `unit-Russia-A-Arc`,
`dislodged-France-A-bur`, `order-3-move` (and `order-3-move-failed`, its cross), `canal-aaa-bbb`,
`one-way-rap-low`, `legend-canal`..."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.games.diplomacy.board import Board, split_location
from adjudicator.games.diplomacy.picture.board_layers import DEFS, STYLE, BoardLayers, board_layers, bridge_ladder
from adjudicator.render.legend import Entry, legend
from adjudicator.games.diplomacy.picture.orders import (
    BADGE,
    MOVE_WIDTH,
    SUPPORT_WIDTH,
    UNIT,
    OrderPainter,
    badge,
    cross,
    faded,
    glyph,
    line_svg,
)
from adjudicator.render.palette import assign_colours
from adjudicator.games.diplomacy.picture.results import as_drawing
from adjudicator.render.style import (
    CASING,
    FAILED,
    FEATURE,
    NEUTRAL,
    PX,
    TERRAIN_FILL,
    WIDTH,
)
from adjudicator.render.svg import Layer, Picture, circle, group, ident, num, path, rect
from adjudicator.games.diplomacy.state import GameState

CENTRE = STYLE.centre * PX


def power_colours(board: Board) -> dict[str, str]:
    """Each power's colour in pictures (the board's own where players can tell them apart; palette.py)."""
    return assign_colours(tuple((name, p.colour) for name, p in board.powers.items()))


def diplomacy_picture(board: Board, state: GameState, results: Any = None) -> Picture:
    """The position (and a phase's orders, when given: `results.as_drawing` takes them) as a picture in layers."""
    layers = board_layers(board, state.phase.season)
    geo = layers.geo
    colours = power_colours(board)

    def colour(power: str | None) -> str:
        return colours.get(power or "", NEUTRAL)

    def spot(location: str) -> tuple[float, float]:
        return geo.location.get(location) or geo.anchor[split_location(location)[0]]

    dx, dy = STYLE.dislodged_offset

    def dislodged_spot(location: str) -> tuple[float, float]:
        x, y = spot(location)
        return x + dx * PX, y - dy * PX

    dislodged = {split_location(d.unit.location)[0] for d in state.dislodged.values()}
    painter = OrderPainter(spot, dislodged_spot, layers, colour, dislodged)
    drawing = as_drawing(board, results)
    painter.draw(list(drawing.orders), list(drawing.marks))

    owned, empty = _centre_templates(layers)
    centres = [owned[pid].format(colour(state.owners[pid])) if pid in state.owners else empty[pid]
               for pid in layers.centre_spots]
    units = [glyph(u.type, *spot(u.location), colour(u.power), ident("unit", u.power, u.type, u.location))
             for u in sorted(state.units.values(), key=lambda u: u.location)]
    shaken = []
    for d in state.dislodged.values():
        u = d.unit
        x, y = dislodged_spot(u.location)
        shaken.append(group(ident("dislodged", u.power, u.type, u.location), [
            circle(x, y, UNIT * 1.4, ident("dislodged-mark", u.location), fill="#FFFFFF", fill_opacity=0.8,
                   stroke=FAILED, stroke_width=2.2, stroke_dasharray="4 3"),
            glyph(u.type, x, y, colour(u.power), scale=0.85)]))

    top = geo.height
    phase = state.phase
    legend_svg, legend_h = legend(top, board.title, f"{phase.season} {phase.year} \u00b7 {phase.type}",
                                  _legend_sections(board, state, layers.features, painter.used, colour))
    phase_layers = "".join([group("centres", centres), group("orders-under", painter.under), group("units", units),
                            group("dislodged", shaken), group("orders", painter.over)])
    body = [Layer(layers.map, layers.key + ("map",)), Layer(phase_layers),
            Layer(layers.labels, layers.key + ("labels",)), Layer(group("marks", painter.marks) + legend_svg)]
    return Picture(WIDTH, top + legend_h, DEFS, body, title=f"{board.title}, {phase}")


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
        fill, edge = (faded(colour), faded(CASING)) if failed else (colour, CASING)
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
_ORDER_WORDS = {"move": "move", "retreat": "retreat", "support": "support", "convoy": "convoy", "hold": "hold",
                "build": "build", "disband": "disband / remove"}
_MARK_WORDS = {"failed": "failed (faded, crossed)", "illegal": "illegal order (not drawn)",
               "ice-disbanded": "disbanded by the ice", "civil-disorder": "removed in civil disorder",
               "destroyed": "destroyed (no retreat)", "dislodged": "dislodged this phase"}


def _marked_ring(x: float, y: float, kind: str) -> str:
    return (glyph("A", x + 11, y, "#FFFFFF", scale=0.7) + circle(x + 11, y, 10, fill="none", stroke=BADGE[kind],
                                                                  stroke_width=2) + badge(x + 20, y - 8, kind))


def _legend_sections(board: Board, state: GameState, features: list[str], used: list[str], colour) -> list:
    powers = []
    for name in board.powers:
        c, u = len(state.centres_of(name)), len(state.units_of(name))
        powers.append(Entry(ident("power", name), name, _swatch(colour(name)), note=f"{c} centre{'s' * (c != 1)}, "
                            f"{u} unit{'s' * (u != 1)}", strong=True, symbol_width=22))
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
    samples = {"move": _sample_line(white, MOVE_WIDTH, head=True), "retreat": _sample_line(white, 2.6, head=True),
               "support": _sample_line(white, SUPPORT_WIDTH, "7 4", dot=True),
               "convoy": _sample_line(white, SUPPORT_WIDTH, "0.1 5.5"),
               "hold": lambda x, y: circle(x + 11, y, 9, fill="none", stroke=CASING, stroke_width=5) + circle(
                   x + 11, y, 9, fill="none", stroke=white, stroke_width=2.6),
               "build": lambda x, y: glyph("A", x + 11, y, white, scale=0.8, stroke_dasharray="3 2"),
               "disband": lambda x, y: cross(x + 11, y, 7, CASING)}
    for kind, words in _ORDER_WORDS.items():
        if kind in used:
            orders.append(Entry(kind, words, samples[kind], symbol_width=40 if kind in ("move", "retreat",
                                                                                         "support", "convoy") else 22))
    marks = {"failed": lambda x, y: _sample_line("#0B4FA8", MOVE_WIDTH, head=True, failed=True)(x, y) + cross(
                 x + 18, y, 5, FAILED),
             "illegal": lambda x, y: cross(x + 11, y, 4.5, FAILED),
             "ice-disbanded": lambda x, y: _marked_ring(x, y, "ice-disbanded"),
             "civil-disorder": lambda x, y: _marked_ring(x, y, "civil-disorder"),
             "destroyed": lambda x, y: cross(x + 11, y, 7, FAILED),
             "dislodged": lambda x, y: circle(x + 11, y, 10, fill="none", stroke=FAILED, stroke_width=2.2,
                                              stroke_dasharray="4 3")}
    for kind, words in _MARK_WORDS.items():
        if kind in used:
            orders.append(Entry(kind, words, marks[kind], symbol_width=40 if kind == "failed" else 22))
    return [("", powers, True), ("Key:", key, False), ("Orders:", orders, False)]
