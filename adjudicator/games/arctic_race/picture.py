"""The picture of an Arctic Race position: the track from the start area to the last space, its icons, the
river of ice-floe tiles in its slots (upstream at the left), every racer where it stands, and the point board
with the racers home. Ids: `space-7`, `slot-S1` (with the tile's id), `racer-Red-3`, `start-area`,
`finished-2-Red`."""

from __future__ import annotations

from typing import Any

from adjudicator.render.legend import Entry, legend
from adjudicator.render.pieces import seat_colours, token
from adjudicator.render.style import CASING, FEATURE, MUTED, TERRAIN_FILL, TEXT, WIDTH
from adjudicator.render.svg import Layer, Picture, circle, group, ident, path, rect
from adjudicator.render.text import text

from .board import RaceBoard
from .state import RaceState

CELL = 40.0
ROW1, ROW2 = 110.0, 240.0  # the middle of the two rows of the track
LEFT = 140.0  # where space 1 starts
ICON = {"start": ("#1E9E4A", "\u25b6"), "arrow": ("#C4001A", "\u2192"), "die": ("#7A3E9D", "\u2684"),
        "hand": ("#1F6FB2", "\u261a")}
ICON_WORDS = {"start": "start a racer", "arrow": "push the river", "die": "roll the die", "hand": "take a card"}


def _cell(board: RaceBoard, space: int) -> tuple[float, float]:
    """The middle of a track space: the first row left to right up to the end of the river, then the second row
    right to left (the track turns back under itself)."""
    river_end = max((s for slot in board.slots for s in slot), default=0)
    per_row = max(river_end, (board.last_space + 1) // 2)
    if space <= per_row:
        return LEFT + (space - 0.5) * CELL, ROW1
    return LEFT + (per_row - (space - per_row) + 0.5) * CELL, ROW2


def _icons(board: RaceBoard, state: RaceState) -> dict[int, str]:
    """Each track space's icon: the fixed spaces', and the tiles' in their slots."""
    icons = dict(board.fixed)
    for slot, tile in zip(board.slots, state.river):
        for space, icon in zip(slot, board.tiles.get(tile, [])):
            icons[space] = icon
    return icons


def _icon(x: float, y: float, icon: str) -> str:
    if icon in ICON:
        fill, sign = ICON[icon]
        return circle(x, y, 10, fill=fill, stroke=CASING, stroke_width=1) + text(x, y, sign, 12, face="bold",
                                                                                 fill="#FFFFFF", anchor="middle")
    if icon.startswith("+"):
        return text(x, y, icon, 13, face="bold", fill=TEXT, anchor="middle")
    return ""


def race_picture(board: RaceBoard, state: RaceState, results: Any = None) -> Picture:
    """The position as a picture in layers."""
    colours = seat_colours(list(state.players or board.colours), {p: p for p in state.players or board.colours})
    icons = _icons(board, state)
    river = {s for slot in board.slots for s in slot}
    track, pieces = [], []
    line = [(_cell(board, s)[0], _cell(board, s)[1]) for s in range(1, board.last_space + 1)]
    track.append(path("M" + " L".join(f"{x:.1f} {y:.1f}" for x, y in line), "track", fill="none", stroke="#8A7A5E",
                      stroke_width=CELL * 0.5, stroke_linejoin="round", stroke_opacity=0.35))
    for name, slot, tile in zip(board.slot_names, board.slots, state.river + [None] * len(board.slots)):
        (x0, y0), (x1, _) = _cell(board, slot[0]), _cell(board, slot[-1])
        parts = [rect(x0 - CELL / 2 - 2, y0 - CELL / 2 - 4, x1 - x0 + CELL + 4, CELL + 8, rx=4,
                      fill=TERRAIN_FILL["sea"] if tile else "none", stroke=FEATURE["river"], stroke_width=2,
                      stroke_dasharray=None if tile else "5 4")]
        parts.append(text((x0 + x1) / 2, y0 - CELL / 2 - 14, f"{name}: {tile}" if tile else f"{name}: empty", 11,
                          face="bold" if tile else "italic", fill=MUTED, anchor="middle"))
        track.append(group(ident("slot", name), parts))
    for space in range(1, board.last_space + 1):
        x, y = _cell(board, space)
        cell = [rect(x - CELL / 2 + 2, y - CELL / 2 + 2, CELL - 4, CELL - 4, rx=3,
                     fill="#FFFFFF" if space in river else TERRAIN_FILL["land"], stroke="#8A7A5E", stroke_width=1),
                text(x - CELL / 2 + 5, y - CELL / 2 + 8, str(space), 8, fill=MUTED),
                _icon(x, y + 3, icons.get(space, "none"))]
        track.append(group(ident("space", str(space)), cell))
    track.append(group("start-area", [rect(16, ROW1 - 70, LEFT - 30, 140, rx=6, fill=TERRAIN_FILL["land"],
                                           stroke="#8A7A5E"),
                                      text(16 + (LEFT - 30) / 2, ROW1 - 58, "start", 11, face="bold", fill=MUTED,
                                           anchor="middle")]))
    waiting = 0
    for (player, number), space in sorted(state.racers.items(), key=lambda kv: (kv[1], kv[0])):
        if space == 0:  # the start area holds any number: a grid
            x, y = 30 + (waiting % 4) * 27, ROW1 - 30 + (waiting // 4) * 27
            waiting += 1
        else:
            x, y = _cell(board, space)  # over the space's icon, which has done its work once it is landed on
        pieces.append(token(x, y, 12, colours.get(player, "#777777"), str(number), ident("racer", player, str(number))))
    finish_x = 20.0
    pieces.append(text(finish_x, ROW2 - 45, "home (point board)", 11, face="bold", fill=MUTED,
                       element_id="point-board"))
    for i, race in enumerate(sorted(board.racer_names)):
        x = finish_x + 12 + i * 46
        pieces.append(text(x, ROW2 - 25, f"race {race}" if i == 0 else str(race), 10, face="bold", fill=MUTED,
                           anchor="middle"))
        for k, player in enumerate(state.finished.get(race, [])):
            pieces.append(token(x, ROW2 + k * 24, 10, colours.get(player, "#777777"), str(race),
                                ident("finished", str(race), player)))
    top = ROW2 + 100
    subtitle = _phase(state)
    legend_svg, h = legend(top, board.title, subtitle, _sections(board, state, colours, icons))
    return Picture(WIDTH, top + h, "", [Layer(group("board", track) + group("racers", pieces) + legend_svg)],
                   title=f"{board.title}, {subtitle}")


def _phase(state: RaceState) -> str:
    if state.phase == "setup":
        return "set-up"
    if state.phase == "over":
        return "game over"
    return f"round {state.round} \u00b7 {state.to_play} to play"


def _sections(board: RaceBoard, state: RaceState, colours: dict[str, str], icons: dict[int, str]) -> list:
    players = []
    for p in state.players:
        hand = " ".join(str(c) for c in state.hands.get(p, [])) or "-"
        home = sum(p in v for v in state.finished.values())
        players.append(Entry(ident("player", p), p, lambda x, y, f=colours.get(p, "#777777"): rect(
            x, y - 8, 22, 16, fill=f, stroke="#555555"), note=f"cards {hand}, {home} home", strong=True))
    used = sorted({i for i in icons.values()})
    key = [Entry(ident("icon", i), ICON_WORDS[i], lambda x, y, i=i: _icon(x + 11, y, i)) for i in ICON if i in used]
    key += [Entry(ident("icon", i), f"move on {i[1:]}", lambda x, y, i=i: text(x + 11, y, i, 13, face="bold",
                                                                              fill=TEXT, anchor="middle"))
            for i in used if i.startswith("+")]
    key.append(Entry("racer", "racer (its number)", lambda x, y: token(x + 11, y, 10, "#FFFFFF", "3")))
    pile = state.pile_unknown if state.face_down else len(state.pile)
    key.append(Entry("pile", f"tiles in the pile: {pile}", lambda x, y: rect(x + 2, y - 9, 18, 18, rx=2,
                                                                             fill=TERRAIN_FILL["sea"],
                                                                             stroke=FEATURE["river"])))
    return [("", players, True), ("Key:", key, False)]
