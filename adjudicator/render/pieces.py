"""Pieces every game's picture draws: a token (a disc with a few letters on it, readable on its own colour), a
unit's silhouette, a cross, and the colours of a game's seats."""

from __future__ import annotations

import functools

from adjudicator.render.palette import assign_colours, hex_colour
from adjudicator.render.style import ARMY_SHAPE, CASING, FLEET_SHAPE, PX, MapStyle
from adjudicator.render.svg import circle, group, num, path, polygon
from adjudicator.render.text import text

UNIT = MapStyle().unit * PX  # half a unit's width


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (by its relative luminance)."""
    c = hex_colour(fill) or "#777777"
    r, g, b = (int(c[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lum = sum(w * (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
              for w, v in ((0.2126, r), (0.7152, g), (0.0722, b)))
    return "#111111" if lum > 0.22 else "#FFFFFF"


def token(x: float, y: float, r: float, fill: str, label: str = "", element_id: str | None = None,
          **attrs: object) -> str:
    """A disc in a seat's colour with up to a few letters on it."""
    disc = circle(x, y, r, None, fill=fill, stroke=CASING, stroke_width=1.3, **attrs)
    words = text(x, y, label, r * (1.15 if len(label) <= 1 else 0.9), face="bold", fill=ink_on(fill),
                 anchor="middle") if label else ""
    return group(element_id, [disc, words])


def seat_colours(seats: list[str], given: dict[str, str | None] | None = None) -> dict[str, str]:
    """Each seat's colour: its own where given and told apart from the others (palette.py), else the palette's."""
    given = given or {}
    return assign_colours(tuple((s, given.get(s)) for s in seats))


@functools.lru_cache(maxsize=64)  # a board's powers, picture after picture
def short_names(names: tuple[str, ...]) -> dict[str, str]:
    """Each name's letters, told apart: its initial and one more of its letters (`Ed`, `En`), the first pair
    not yet given; a name with none left gets its initial and the next number free for that initial (time
    linear in the names' letters, however many share an initial)."""
    out: dict[str, str] = {}
    given: set[str] = set()
    numbers: dict[str, int] = {}
    for name in names:
        letters = [c for c in name if c.isalnum()] or ["?"]
        first = letters[0].upper()
        tag = next((t for t in (first + c.lower() for c in letters[1:]) if t not in given), None)
        while tag is None or tag in given:
            numbers[first] = numbers.get(first, 1) + 1
            tag = f"{first}{numbers[first]}"
        out[name] = tag
        given.add(tag)
    return out


def glyph(unit_type: str | None, x: float, y: float, fill: str, element_id: str | None = None, scale: float = 1.0,
          **attrs: object) -> str:
    """A unit's silhouette (army or fleet) at (x, y) in a power's colour."""
    attrs.setdefault("stroke", CASING)
    attrs.setdefault("stroke_width", 1.4)
    return path(_glyph_d(unit_type == "F", x, y, scale), element_id, fill=fill, stroke_linejoin="round", **attrs)


@functools.lru_cache(maxsize=4096)  # units stand on a board's few hundred spots, phase after phase
def _glyph_d(fleet: bool, x: float, y: float, scale: float) -> str:
    size = UNIT * scale
    return polygon((x + u * size, y - v * size) for u, v in (FLEET_SHAPE if fleet else ARMY_SHAPE))


def cross(x: float, y: float, size: float, colour: str, element_id: str | None = None, width: float = 3.2) -> str:
    """An X with a white edge, so it shows on any ground."""
    d = (f"M{num(x - size)} {num(y - size)} L{num(x + size)} {num(y + size)} "
         f"M{num(x - size)} {num(y + size)} L{num(x + size)} {num(y - size)}")
    return group(element_id, [path(d, stroke="#FFFFFF", stroke_width=width + 2.4, stroke_linecap="round"),
                              path(d, stroke=colour, stroke_width=width, stroke_linecap="round")])
