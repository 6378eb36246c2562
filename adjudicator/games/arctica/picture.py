"""The picture of an Arctica position: the circle of sections (clockwise from the top), each with its tile or,
once melted, its melted bonus, and the fauna tokens on it; beside it the three regions of the Arctic Board, each
with its sub-regions, spaces (the groups they take), the lines between spaces and the tokens placed. Ids:
`section-S1`, `tile-S1`, `circle-tokens-S1`, `region-bear`, `space-B2b`, `line-B1a-B1b`, `token-S5-Remi-fish-0`."""

from __future__ import annotations

import math
from typing import Any

from adjudicator.render.legend import Entry, legend
from adjudicator.render.pieces import seat_colours, token
from adjudicator.render.style import CASING, MUTED, SEA_TEXT, TERRAIN_FILL, TEXT, WIDTH
from adjudicator.render.svg import Layer, Picture, group, ident, num, path, rect
from adjudicator.render.text import text

from .board import Board
from .state import State

CENTRE, RADIUS = (290.0, 330.0), 250.0
PANEL_X, PANEL_W, PANEL_H = 575.0, 410.0, 222.0
BOX_W, BOX_H, GAP = 120.0, 34.0, 8.0  # the gap shows the lines between spaces


def abbreviation(name: str) -> str:
    """A group's two letters: `Fish` -> `Fi`, `Land Mammal` -> `LM`."""
    words = name.split()
    return "".join(w[0] for w in words).upper() if len(words) > 1 else name[:2].title()


def _wedge(k: int, n: int) -> tuple[str, tuple[float, float], float]:
    """Section k of n (clockwise from the top): its path, the middle of its tokens' area, its mid angle."""
    a0, a1 = 2 * math.pi * k / n, 2 * math.pi * (k + 1) / n

    def at(r: float, a: float) -> tuple[float, float]:
        return CENTRE[0] + r * math.sin(a), CENTRE[1] - r * math.cos(a)

    pts = [CENTRE] + [at(RADIUS, a0 + (a1 - a0) * i / 24) for i in range(25)]
    return "M" + " L".join(f"{num(x)} {num(y)}" for x, y in pts) + "Z", at(RADIUS * 0.6, (a0 + a1) / 2), (a0 + a1) / 2


def _bonus(amounts: dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in amounts.items()) or "-"


def arctica_picture(board: Board, state: State, results: Any = None) -> Picture:
    """The position as a picture in layers."""
    colours = seat_colours(list(state.players))
    short = {g: abbreviation(name) for g, name in board.groups.items()}
    sections, pieces = [], []
    n = len(board.sections)
    for k, sid in enumerate(board.sections):
        d, (x, y), mid = _wedge(k, n)
        tile = state.circle.get(sid)
        face = board.section_face(sid, state.faces)
        fill = TERRAIN_FILL["ice"] if tile is not None else TERRAIN_FILL["sea"]
        parts = [path(d, fill=fill, stroke=SEA_TEXT, stroke_width=1.6)]
        lx, ly = CENTRE[0] + RADIUS * 0.86 * math.sin(mid), CENTRE[1] - RADIUS * 0.86 * math.cos(mid)
        parts.append(text(lx, ly, sid, 13, face="bold", fill=TEXT, anchor="middle"))
        words = (f"tile {tile}" if tile is not None else
                 f"melted: {_bonus(board.sections[sid].melted_bonus.get(face, {}))}")
        parts.append(text(lx, ly + 16, words, 10, face="regular" if tile is not None else "italic", fill=MUTED,
                          anchor="middle", element_id=ident("tile", sid)))
        sections.append(group(ident("section", sid), parts))
        tokens = state.circle_tokens.get(sid, [])
        per_row = 4
        for i, t in enumerate(tokens):
            tx = x + ((i % per_row) - (min(len(tokens), per_row) - 1) / 2) * 25
            ty = y + (i // per_row) * 25 - 10
            pieces.append(token(tx, ty, 11, colours.get(t.player, "#777777"), short.get(t.group, "?"),
                                ident("token", sid, t.player, t.group, str(i))))
    regions = [_region(board, state, rid, i, colours, short) for i, rid in enumerate(board.regions)]
    top = max(2 * CENTRE[1], 20 + len(board.regions) * (PANEL_H + 10)) + 10
    subtitle = f"round {state.round}, turn {state.turn} \u00b7 {state.leader or state.players[0]} leads"
    legend_svg, h = legend(top, board.title, subtitle, _sections(board, state, colours, short))
    body = group("circle", sections) + group("regions", regions) + group("tokens", pieces) + legend_svg
    return Picture(WIDTH, top + h, "", [Layer(body)], title=f"{board.title}, {subtitle}")


def _region(board: Board, state: State, rid: str, i: int, colours: dict[str, str], short: dict[str, str]) -> str:
    """A region's panel: a column per sub-region, a box per space with the groups it takes and its tokens."""
    region = board.regions[rid]
    x0, y0 = PANEL_X, 20 + i * (PANEL_H + 10)
    parts = [rect(x0, y0, PANEL_W, PANEL_H, rx=6, fill=TERRAIN_FILL["land"], stroke="#8A7A5E", stroke_width=1.2),
             text(x0 + 10, y0 + 14, f"{region.name} (face {state.faces.get(rid, '?')})", 12, face="bold", fill=TEXT)]
    spot: dict[str, tuple[float, float]] = {}
    for c, sub in enumerate(region.subregions):
        cx = x0 + 12 + c * (BOX_W + 12)
        parts.append(text(cx, y0 + 34, f"{sub} ({board.subregions[sub].dots} dot{'s' * (board.subregions[sub].dots != 1)})", 10, fill=MUTED))
        spaces = [s for s in board.spaces.values() if s.subregion == sub]
        for r, space in enumerate(spaces):
            spot[space.id] = (cx, y0 + 46 + r * (BOX_H + GAP))
    for line in board.lines.values():  # drawn first: the boxes cover their ends
        a, b = line.ends
        if a in spot and b in spot:
            (ax, ay), (bx, by) = spot[a], spot[b]
            parts.append(path(f"M{num(ax + BOX_W / 2)} {num(ay + BOX_H / 2)} L{num(bx + BOX_W / 2)} "
                              f"{num(by + BOX_H / 2)}", ident("line", a, b), stroke="#8A7A5E", stroke_width=2))
    for sid, (bx, by) in spot.items():
        space = board.spaces[sid]
        tokens = state.space_tokens.get(sid, [])
        box = [rect(bx, by, BOX_W, BOX_H, rx=3, fill="#FFFFFF", stroke=CASING if space.shared else "#8A7A5E",
                    stroke_width=1.8 if space.shared else 1),
               text(bx + 4, by + 9, f"{sid}: {'/'.join(short.get(g, g) for g in space.groups)}", 9, face="bold",
                    fill=TEXT)]
        for j, t in enumerate(tokens):
            box.append(token(bx + 12 + j * 20, by + 23, 8, colours.get(t.player, "#777777"), short.get(t.group, "?"),
                             ident("token", sid, t.player, t.group, str(j))))
        parts.append(group(ident("space", sid), box))
    return group(ident("region", rid), parts)


def _sections(board: Board, state: State, colours: dict[str, str], short: dict[str, str]) -> list:
    players = []
    for p in state.players:
        me = state.player_state.get(p)
        note = f"{me.bp} BP, {me.hand} cards, {me.flora} flora, {me.wheels} wheels" if me else ""
        players.append(Entry(ident("player", p), p, lambda x, y, f=colours[p]: rect(x, y - 8, 22, 16, fill=f,
                                                                                    stroke="#555555"),
                             note=note, strong=True))
    key = [Entry(ident("group", g), name, lambda x, y, s=short[g]: token(x + 11, y, 10, "#FFFFFF", s))
           for g, name in board.groups.items()]
    key.append(Entry("tile", "section with its tile", lambda x, y: rect(x, y - 8, 22, 16, fill=TERRAIN_FILL["ice"],
                                                                        stroke=SEA_TEXT)))
    if any(t is None for t in state.circle.values()):
        key.append(Entry("melted", "melted section", lambda x, y: rect(x, y - 8, 22, 16, fill=TERRAIN_FILL["sea"],
                                                                       stroke=SEA_TEXT)))
    if any(s.shared for s in board.spaces.values()):
        key.append(Entry("shared", "shared space", lambda x, y: rect(x, y - 8, 22, 16, fill="#FFFFFF", stroke=CASING,
                                                                     stroke_width=1.8)))
    return [("", players, True), ("Key:", key, False)]
