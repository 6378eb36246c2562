"""Pieces every game's picture draws: a token (a disc with a few letters on it, readable on its own colour)
and the colours of a game's seats."""

from __future__ import annotations

from adjudicator.render.palette import assign_colours, hex_colour
from adjudicator.render.style import CASING
from adjudicator.render.svg import circle, group
from adjudicator.render.text import text


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
    disc = circle(x, y, r, fill=fill, stroke=CASING, stroke_width=1.3, **attrs)
    words = text(x, y, label, r * (1.15 if len(label) <= 1 else 0.9), face="bold", fill=ink_on(fill),
                 anchor="middle") if label else ""
    return group(element_id, [disc, words])


def seat_colours(seats: list[str], given: dict[str, str | None] | None = None) -> dict[str, str]:
    """Each seat's colour: its own where given and told apart from the others (palette.py), else the palette's."""
    given = given or {}
    return assign_colours(tuple((s, given.get(s)) for s in seats))
