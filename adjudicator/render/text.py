"""Text in pictures as outlines: the glyphs of DejaVu Sans (the fonts matplotlib ships), measured and drawn as
SVG paths, so a picture looks the same in every viewer and rasteriser, with no font installed."""

from __future__ import annotations

import functools
import importlib.util
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.render.svg import escape, num

FACES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "italic": "DejaVuSans-Oblique.ttf",
         "bold-italic": "DejaVuSans-BoldOblique.ttf"}
CAP_HEIGHT = 0.73  # of the font size: DejaVu Sans capitals, to centre a line of text on a point
_LOCK = threading.Lock()  # fontTools' lazy tables are read on first use: one reader at a time


def font_dir() -> Path:
    """The folder of matplotlib's bundled DejaVu fonts, found without importing matplotlib."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or spec.origin is None:
        raise RuntimeError("the board pictures need matplotlib's bundled fonts: pip install matplotlib")
    return Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf"


@dataclass
class _Face:
    """One font file: its glyph outlines (recorded once each), advances and character map."""

    upm: float
    cmap: dict[int, str]
    advances: Any
    glyphs: Any
    outlines: dict[str, list[Any]]


@functools.lru_cache(maxsize=len(FACES))
def _face(face: str) -> _Face:
    from fontTools.ttLib import TTFont

    font = TTFont(str(font_dir() / FACES[face]), lazy=True)
    return _Face(float(font["head"].unitsPerEm), font.getBestCmap(), font["hmtx"].metrics, font.getGlyphSet(), {})


def _glyph(face: _Face, char: str) -> tuple[float, list[Any]]:
    """A character's advance and outline (pen operations) in font units; a missing character is a box."""
    name = face.cmap.get(ord(char)) or face.cmap.get(ord("?"), ".notdef")
    outline = face.outlines.get(name)
    if outline is None:
        from fontTools.pens.recordingPen import DecomposingRecordingPen

        pen = DecomposingRecordingPen(face.glyphs)  # accented letters are composites of two glyphs
        with _LOCK:
            face.glyphs[name].draw(pen)
        outline = face.outlines[name] = pen.value
    return float(face.advances[name][0]), outline


@functools.lru_cache(maxsize=8192)  # the widths of labels and legend words (bounded: inline boards come and go)
def text_width(text: str, size: float, face: str = "regular") -> float:
    """The width of a line of text at `size` (in the unit of `size`)."""
    f = _face(face)
    with _LOCK:
        total = sum(f.advances[f.cmap.get(ord(c)) or f.cmap.get(ord("?"), ".notdef")][0] for c in text)
    return float(total * size / f.upm)


_COMMAND = {"moveTo": "M", "lineTo": "L", "curveTo": "C"}


@functools.lru_cache(maxsize=4096)
def text_path(text: str, size: float, face: str = "regular") -> str:
    """SVG path data of a line of text, its baseline starting at (0, 0), y down."""
    f = _face(face)
    k = size / f.upm
    out: list[str] = []
    x = 0.0
    for char in text:
        advance, outline = _glyph(f, char)
        for op, pts in outline:
            if op == "qCurveTo":  # TrueType: implied on-curve points between consecutive off-curve ones
                out.append(_quadratic(x, k, pts))
            elif op in ("closePath", "endPath"):
                out.append("Z")
            else:  # moveTo, lineTo, curveTo
                out.append(_COMMAND[op] + " ".join(f"{num(x + px * k)} {num(-py * k)}" for px, py in pts))
        x += advance * k
    return "".join(out)


def _quadratic(x: float, k: float, pts: tuple[Any, ...]) -> str:
    """A TrueType quadratic spline as SVG Q commands: between two off-curve points lies an implied on-curve one
    (their midpoint). A last point of None marks a closed contour of off-curve points only."""
    closed = pts[-1] is None
    scaled = [(x + px * k, -py * k) for px, py in (pts[:-1] if closed else pts)]
    parts = []
    if closed:
        offs = scaled
        end = ((scaled[-1][0] + scaled[0][0]) / 2, (scaled[-1][1] + scaled[0][1]) / 2)
        parts.append(f"M{num(end[0])} {num(end[1])}")
    else:
        offs, end = scaled[:-1], scaled[-1]
    for i, (cx, cy) in enumerate(offs):
        nxt = ((cx + offs[i + 1][0]) / 2, (cy + offs[i + 1][1]) / 2) if i + 1 < len(offs) else end
        parts.append(f"Q{num(cx)} {num(cy)} {num(nxt[0])} {num(nxt[1])}")
    return "".join(parts)


def text(x: float, y: float, content: str, size: float, *, face: str = "regular", fill: str = "#1E1E1E",
         anchor: str = "start", element_id: str | None = None, extra: str = "") -> str:
    """A line of text as one SVG path, vertically centred on y; `anchor` start, middle or end at x."""
    if not content:
        return ""
    width = text_width(content, size, face)
    left = x - (width / 2 if anchor == "middle" else width if anchor == "end" else 0.0)
    baseline = y + size * CAP_HEIGHT / 2
    ident = f' id="{element_id}"' if element_id else ""
    return (f'<path{ident} aria-label="{escape(content)}" transform="translate({num(left)} {num(baseline)})" '
            f'fill="{fill}"{extra} d="{text_path(content, size, face)}"/>')
