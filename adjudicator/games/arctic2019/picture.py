"""The picture of a 2019: The ARCTIC position: the polar dartboard of sectors (the `draw` data of the board:
band and arc, B1), each with its deposit, its owner's or controller's colour, its ships by country, its
platform (crossed when illegal, ringed when protected), and the conflicts declared, the law and the turn in the
legend. Ids: `sector-KAR`, `ships-KAR-RU`, `platform-KAR`, `control-KAR`, `conflict-RU-US`."""

from __future__ import annotations

import math
from typing import Any

from adjudicator.render.legend import Entry, legend
from adjudicator.render.pieces import cross, glyph, seat_colours, token
from adjudicator.render.style import CASING, FAILED, SEA_TEXT, TERRAIN_FILL, TEXT, WIDTH
from adjudicator.render.svg import Layer, Picture, circle, group, ident, num, path, rect
from adjudicator.render.text import text, text_width

from .board import Board
from .state import State

CENTRE = (WIDTH / 2, 470.0)
RADII = (60.0, 160.0, 255.0, 350.0, 450.0)  # outer radius of bands 0 (the pole) to 4 (the coast)
KIND_FILL = {"polar": TERRAIN_FILL["ice"], "sea": TERRAIN_FILL["sea"], "coastal": TERRAIN_FILL["land"]}
DEPOSIT = {"gas": ("G", "#E69F00"), "oil": ("O", "#3B3B3B"), "concretions": ("C", "#8E6BB0")}


def _polar(r: float, lon: float) -> tuple[float, float]:
    """A point at radius r and longitude lon: 0°E points down and 90°E right, a map seen from above the pole."""
    a = math.radians(lon)
    return CENTRE[0] + r * math.sin(a), CENTRE[1] + r * math.cos(a)


def _draw_data(board: Board) -> dict[str, dict]:
    """Each sector's band and arc from the board file; a sector without them goes in the outer band."""
    raw = {str(s.get("id")): s.get("draw") or {} for s in (board.raw.get("sectors") or []) if isinstance(s, dict)}
    missing = [sid for sid in board.sectors if "band" not in raw.get(sid, {})]
    out = {sid: dict(raw.get(sid, {})) for sid in board.sectors}
    for i, sid in enumerate(missing):
        step = 360 / len(missing)
        out[sid] = {"band": 4, "arc": [i * step, (i + 1) * step]}
    return out


def _wedge(band: int, arc: list[float]) -> tuple[str, tuple[float, float]]:
    """The path of an annular wedge, and the spot in its middle."""
    if band == 0:
        r = RADII[0]
        return (f"M{num(CENTRE[0] - r)} {num(CENTRE[1])} a{num(r)} {num(r)} 0 1 0 {num(2 * r)} 0 "
                f"a{num(r)} {num(r)} 0 1 0 {num(-2 * r)} 0Z"), CENTRE
    r0, r1 = RADII[band - 1], RADII[band]
    start, end = float(arc[0]), float(arc[1])
    if end <= start:
        end += 360
    pts = [_polar(r1, start + (end - start) * k / 24) for k in range(25)]
    pts += [_polar(r0, end - (end - start) * k / 24) for k in range(25)]
    d = "M" + " L".join(f"{num(x)} {num(y)}" for x, y in pts) + "Z"
    return d, _polar((r0 + r1) / 2, (start + end) / 2)


def arctic2019_picture(board: Board, state: State, results: Any = None) -> Picture:
    """The position as a picture in layers."""
    colours = seat_colours(list(board.countries))
    draw = _draw_data(board)
    sectors, pieces, labels = [], [], []
    for sid, sector in board.sectors.items():
        d, (x, y) = _wedge(int(draw[sid].get("band", 4)), draw[sid].get("arc") or [0, 360])
        sectors.append(path(d, ident("sector", sid), fill=KIND_FILL.get(sector.kind, "#DDDDDD"), stroke="#4A4A48",
                            stroke_width=1.2))
        sea = sector.kind != "coastal"
        labels.append(text(x, y - 20, sid, 12.5, face="bold" if not sea else "italic", fill=SEA_TEXT if sea else TEXT,
                           anchor="middle", element_id=ident("label", sid)))
        half = text_width(sid, 12.5, "bold") / 2
        if sector.deposit in DEPOSIT:
            letter, fill = DEPOSIT[sector.deposit]
            pieces.append(group(ident("deposit", sid), [rect(x - half - 17, y - 26, 12, 12, rx=2, fill=fill),
                                                         text(x - half - 11, y - 20, letter, 9, face="bold",
                                                              fill="#FFFFFF", anchor="middle")]))
        holder = sector.owner if sector.kind == "coastal" else state.control.get(sid)
        pieces.append(circle(x + half + 10, y - 20, 6, ident("control", sid), fill=colours.get(holder or "", "#FFFFFF"),
                             stroke=CASING, stroke_width=1.2))
        ships = sorted((state.ships.get(sid) or {}).items())
        for i, (country, n) in enumerate(ships):
            sx = x + (i - (len(ships) - 1) / 2) * 30
            pieces.append(group(ident("ships", sid, country), [
                glyph("F", sx - 4, y + 2, colours.get(country, "#777777"), scale=0.85),
                text(sx + 10, y + 6, str(n), 11, face="bold", fill=TEXT)]))
        platform = state.platforms.get(sid)
        if platform is not None:
            parts = [rect(x - 7, y + 13, 14, 14, fill=colours.get(platform.owner, "#777777"), stroke=CASING,
                          stroke_width=1.3)]
            if platform.protected_by:
                parts.insert(0, circle(x, y + 20, 12, fill="none", stroke=colours.get(platform.protected_by, "#777"),
                                       stroke_width=3))
            if not platform.legal:
                parts.append(cross(x, y + 20, 6, FAILED, width=2.4))
            pieces.append(group(ident("platform", sid), parts))
    body = [group("sectors", sectors), group("pieces", pieces), group("labels", labels)]
    top = 2 * CENTRE[1] - 10
    title = f"Turn {state.turn} \u00b7 law {state.law}" + (" \u00b7 ended" if state.ended else "")
    legend_svg, h = legend(top, board.title, title, _sections(board, state, colours))
    return Picture(WIDTH, top + h, "", [Layer("".join(body) + legend_svg)], title=f"{board.title}, {title}")


def _sections(board: Board, state: State, colours: dict[str, str]) -> list:
    countries = []
    for cid, c in board.countries.items():
        ships = sum(by.get(cid, 0) for by in state.ships.values())
        money = f", ${state.treasury.get(cid, 0)}" if c.arctic else ""
        countries.append(Entry(ident("country", cid), c.name, lambda x, y, f=colours[cid]: rect(
            x, y - 8, 22, 16, fill=f, stroke="#555555"), note=f"{ships} ship{'s' * (ships != 1)}{money}", strong=True))
    key = [Entry(kind, f"{kind} sector", lambda x, y, f=KIND_FILL[kind]: rect(x, y - 8, 22, 16, fill=f,
                                                                             stroke="#555555"))
           for kind in ("polar", "sea", "coastal") if any(s.kind == kind for s in board.sectors.values())]
    for name, (letter, fill) in DEPOSIT.items():
        if any(s.deposit == name for s in board.sectors.values()):
            key.append(Entry(ident("deposit", name), name, lambda x, y, f=fill, t=letter: rect(
                x + 5, y - 6, 12, 12, rx=2, fill=f) + text(x + 11, y, t, 9, face="bold", fill="#FFFFFF",
                                                          anchor="middle"), symbol_width=22))
    key.append(Entry("control", "owner / controller (white: none)", lambda x, y: circle(
        x + 11, y, 6, fill="#FFFFFF", stroke=CASING, stroke_width=1.2)))
    key.append(Entry("ships", "ships (count)", lambda x, y: glyph("F", x + 11, y, "#FFFFFF", scale=0.85)))
    if state.platforms:
        key.append(Entry("platform", "platform", lambda x, y: rect(x + 4, y - 7, 14, 14, fill="#FFFFFF",
                                                                   stroke=CASING)))
        if any(p.protected_by for p in state.platforms.values()):
            key.append(Entry("protected", "protected (lobbyist's colour)", lambda x, y: circle(
                x + 11, y, 10, fill="none", stroke=CASING, stroke_width=3)))
        if any(not p.legal for p in state.platforms.values()):
            key.append(Entry("illegal", "illegal platform", lambda x, y: cross(x + 11, y, 6, FAILED, width=2.4)))
    conflicts = [Entry(ident("conflict", a, b), f"{board.country_name(a)} against {board.country_name(b)}",
                       lambda x, y, a=a, b=b: token(x + 7, y, 7, colours[a]) + token(x + 21, y, 7, colours[b]),
                       symbol_width=28) for a, b in state.conflicts.items() if b]
    return [("", countries, True), ("Key:", key, False), ("Conflicts:", conflicts, False)]
