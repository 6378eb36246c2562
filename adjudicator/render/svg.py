"""Writing SVG documents directly: numbers, escaping, paths, and a document of named layers.

A picture is one SVG document whose top-level groups are its layers (`<g id="units">`...), each element with an
id a test or a script can find; the board's own layers are written once per board and season and reused."""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import quoteattr

XMLNS = 'xmlns="http://www.w3.org/2000/svg"'


def num(v: float) -> str:
    """A coordinate with two decimals at most (a hundredth of a pixel at 1000 px)."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def escape(text: str) -> str:
    """Text made safe inside an attribute value or an element."""
    return quoteattr(str(text))[1:-1]


def ident(*parts: str) -> str:
    """An id from parts: `stp/nc` -> `stp_nc`; anything but letters, digits, `_`, `.` and `-` becomes `_`."""
    out = "-".join(str(p) for p in parts)
    return "".join(c if c.isalnum() and c.isascii() or c in "_.-" else "_" for c in out)


def points(pts: Iterable[tuple[float, float]]) -> str:
    """Path data of a polyline."""
    return "M" + " L".join(f"{num(x)} {num(y)}" for x, y in pts)


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
    return "".join(f' {k.replace("_", "-")}="{num(v) if isinstance(v, float) else escape(str(v))}"'
                   for k, v in attrs.items() if v is not None)


def _id(element_id: str | None) -> str:
    return f' id="{element_id}"' if element_id else ""


def document(width: float, height: float, defs: str, layers: Iterable[str], title: str = "") -> str:
    """The whole SVG document: `width` x `height` user units (pixels at the default size)."""
    head = (f'<?xml version="1.0" encoding="UTF-8"?>\n<svg {XMLNS} width="{num(width)}" height="{num(height)}" '
            f'viewBox="0 0 {num(width)} {num(height)}">')
    return "".join([head, f"<title>{escape(title)}</title>" if title else "", f"<defs>{defs}</defs>" if defs else "",
                    *layers, "</svg>\n"])
