"""Writing SVG documents directly: numbers, escaping, paths, and a document of named layers.

A picture is one SVG document whose top-level groups are its layers (`<g id="units">`...), each element with an
id a test or a script can find; the board's own layers are written once per board and season and reused."""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

XMLNS = 'xmlns="http://www.w3.org/2000/svg"'


def num(v: float) -> str:
    """A coordinate to a tenth of a unit (of a pixel at 1000 px wide, under half a pixel at 4000)."""
    return f"{v:.1f}"


_SPECIAL = frozenset('<>&"\'')


def escape(text: object) -> str:
    """Text made safe inside an attribute value or an element."""
    text = str(text)
    return quoteattr(text)[1:-1] if not _SPECIAL.isdisjoint(text) else text


_NOT_ID = re.compile(r"[^A-Za-z0-9_.-]")


@functools.lru_cache(maxsize=8192)  # the ids of a board's spaces, units and orders recur picture after picture
def ident(*parts: str) -> str:
    """An id from parts: `stp/nc` -> `stp_nc`; anything but letters, digits, `_`, `.` and `-` becomes `_`."""
    return _NOT_ID.sub("_", "-".join(str(p) for p in parts))


def points(pts: Iterable[tuple[float, float]]) -> str:
    """Path data of a polyline (coordinates to a tenth, as `num`)."""
    return "M" + " L".join(f"{x:.1f} {y:.1f}" for x, y in pts)


def polygon(pts: Iterable[tuple[float, float]]) -> str:
    """Path data of a closed polygon."""
    return points(pts) + "Z"


def circle(x: float, y: float, r: float, element_id: str | None = None, **attrs: object) -> str:
    """A circle element."""
    return f'<circle{_id(element_id)} cx="{num(x)}" cy="{num(y)}" r="{num(r)}"{attributes(attrs)}/>'


def path(d: str, element_id: str | None = None, **attrs: object) -> str:
    """A path element."""
    return f'<path{_id(element_id)} d="{d}"{attributes(attrs)}/>'


def rect(x: float, y: float, w: float, h: float, element_id: str | None = None, **attrs: object) -> str:
    """A rectangle element."""
    return f'<rect{_id(element_id)} x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"{attributes(attrs)}/>'


def group(element_id: str | None, children: Iterable[str], **attrs: object) -> str:
    """A group of elements."""
    return f'<g{_id(element_id)}{attributes(attrs)}>{"".join(children)}</g>'


def attributes(attrs: dict[str, object]) -> str:
    """` name="value"` for each attribute given (`stroke_width` is written `stroke-width`; None is left out)."""
    return "".join(f' {_NAMES.get(k) or _name(k)}="{num(v) if isinstance(v, float) else escape(v)}"'
                   for k, v in attrs.items() if v is not None)


_NAMES: dict[str, str] = {}


def _name(key: str) -> str:
    _NAMES[key] = key.replace("_", "-")  # a few dozen attribute names, ever
    return _NAMES[key]


def _id(element_id: str | None) -> str:
    return f' id="{element_id}"' if element_id else ""


@dataclass
class Layer:
    """One top-level group of a picture; `key` marks a layer that is the same in every picture with that key
    (the board's own layers), which the rasteriser may keep drawn or read."""

    svg: str
    key: tuple[Hashable, ...] | None = None


@dataclass
class Picture:
    """A picture before it is written out: its size in user units, its definitions and its layers in order."""

    width: float
    height: float
    defs: str
    layers: list[Layer] = field(default_factory=list)
    title: str = ""

    def svg(self) -> str:
        """The SVG document."""
        return document(self.width, self.height, self.defs, [layer.svg for layer in self.layers], self.title)


def document(width: float, height: float, defs: str, layers: Iterable[str], title: str = "") -> str:
    """The whole SVG document: `width` x `height` user units (pixels at the default size)."""
    head = (f'<?xml version="1.0" encoding="UTF-8"?>\n<svg {XMLNS} width="{num(width)}" height="{num(height)}" '
            f'viewBox="0 0 {num(width)} {num(height)}">')
    return "".join([head, f"<title>{escape(title)}</title>" if title else "", f"<defs>{defs}</defs>" if defs else "",
                    *layers, "</svg>\n"])
