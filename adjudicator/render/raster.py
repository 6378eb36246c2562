"""A picture to PNG: its SVG layers rasterised by Skia (skia-python), a strip of rows at a time, each strip
compressed as it is drawn, so a picture's memory is a strip whatever its width (a 4000 px picture holds one
4000 x 300 strip, not its 70 MB of pixels).

skia-python is the fast-pictures extra, and needs the system's libGL and libEGL on Linux (Debian: `apt-get
install libgl1 libegl1`); where it is not installed or they are missing, the whole SVG is rasterised by resvg
(resvg-py, self-contained, in the base install) instead: the same picture, drawn more slowly and in one piece.

The board's own layers are the same in every picture of a board and season: the first of them is kept drawn
(at widths up to KEEP_WIDTH, a few pictures' worth) and the others kept read, so a phase's picture reads and
draws only its own layers. One picture is rasterised at a time per process: its memory does not grow with the
number of requests drawn at once, and its pixels are at most MAX_PIXELS (a board drawn very tall is drawn
narrower than asked), so its time is bounded whatever the board."""

from __future__ import annotations

import functools
import re
import struct
import threading
import zlib
from collections.abc import Hashable
from typing import Any

import numpy as np
from isal import isal_zlib

from adjudicator.kept import Kept
from adjudicator.render.svg import Layer, Picture, document

MAX_PIXELS = 24_000_000  # a picture's pixels at most: a very tall board's picture is drawn narrower than asked
STRIP_PIXELS = 1_200_000  # pixels drawn at a time: a 1000 px picture in one strip, a 4000 px one in strips of 300 rows
ZLIB_LEVEL = 2  # ISA-L's deflate: a fifth of zlib's time at level 1, about as small (the pictures are flat colour)
KEEP_WIDTH = 2000  # board layers are kept drawn for pictures up to this wide
KEPT_DRAWN = 4  # drawn board layers kept (at 1000 px, 4 MB each)
KEPT_READ = 16  # read (parsed) board layers kept
_SIZE = re.compile(r'<svg[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')
_LOCK = threading.Lock()
_drawn = Kept(KEPT_DRAWN)
_read = Kept(KEPT_READ)
_strips = Kept(2)  # a strip's surface, its pixels and its PNG rows, by size


def svg_size(svg: str) -> tuple[float, float]:
    """The document's width and height in user units (from its root element)."""
    m = _SIZE.search(svg[:2000])  # the root element is at the start: a bounded search
    if m is None:
        raise ValueError("the SVG document has no width and height")
    return float(m.group(1)), float(m.group(2))


def skia_module() -> Any:
    """The skia module, or None where it cannot be loaded (its system libraries missing)."""
    global _SKIA
    if _SKIA is False:
        try:
            import skia  # (the fast-pictures extra: loaded when a picture is drawn; resvg without it)
        except ImportError:  # e.g. "libEGL.so.1: cannot open shared object file"
            skia = None
        _SKIA = skia
    return _SKIA


_SKIA: Any = False  # not looked for yet


def fitted_width(width: int, w: float, h: float) -> int:
    """The width a picture of w x h units is drawn at when `width` pixels are asked: no more than MAX_PIXELS."""
    most = int((MAX_PIXELS * w / max(h, 1e-9)) ** 0.5)
    return max(1, min(width, most))


def png_from_svg(svg: str, width: int) -> bytes:
    """An SVG document as a PNG image `width` pixels wide (on white; narrower past MAX_PIXELS)."""
    w, h = svg_size(svg)
    width = fitted_width(width, w, h)
    if skia_module() is None:
        return _png_by_resvg(svg, width)
    with _LOCK:
        return _png([_parse(svg)], None, w, h, width)


def _png_by_resvg(svg: str, width: int) -> bytes:
    import resvg_py  # (loaded only where Skia is not installed or cannot load)

    with _LOCK:  # one picture's pixels at a time, as with Skia
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, width=width, background="#FFFFFF",
                                           skip_system_fonts=True))  # text is drawn as outlines: no fonts


def png_from_picture(picture: Picture, width: int) -> bytes:
    """A picture as a PNG image `width` pixels wide (narrower past MAX_PIXELS); its board layers kept drawn or
    read for the next one."""
    width = fitted_width(width, picture.width, picture.height)
    if skia_module() is None:
        return _png_by_resvg(picture.svg(), width)
    runs: list[tuple[tuple[Hashable, ...] | None, list[Layer]]] = []
    for layer in picture.layers:  # consecutive layers of the same kind (kept or not) are read as one document
        kind = layer.key is not None
        if runs and (runs[-1][0] is not None) == kind:
            runs[-1][1].append(layer)
        else:
            runs.append((layer.key, [layer]))

    def text(run: list[Layer]) -> str:
        return document(picture.width, picture.height, picture.defs, [layer.svg for layer in run])

    def parse(run: list[Layer]) -> Any:
        return _parse(text(run))

    with _LOCK:
        base = None
        if runs and runs[0][0] is not None and width <= KEEP_WIDTH:
            kept_key = (tuple(layer.key for layer in runs[0][1]), width)
            base = _drawn.get(kept_key, lambda: _draw_whole(_parse(text(runs[0][1])), picture, width))
            runs = runs[1:]
        doms = []
        for key, run in runs:
            if key is None:
                doms.append(_parse(text(run)))
            else:
                doms.append(_read.get(tuple(layer.key for layer in run), functools.partial(parse, run)))
        return _png(doms, base, picture.width, picture.height, width)


def _parse(svg: str) -> Any:
    import skia  # (the fast-pictures extra: only on Skia's road, skia_module() found it)

    data = skia.Data.MakeWithCopy(svg.encode("utf-8"))
    stream = skia.MemoryStream(data)  # both held until the document is read: the stream does not own them
    dom = skia.SVGDOM.MakeFromStream(stream)
    if dom is None:
        raise ValueError("the SVG document could not be read by the rasteriser")
    dom.setContainerSize(skia.Size(*svg_size(svg)))
    return dom


def _draw_whole(dom: Any, picture: Picture, width: int) -> np.ndarray:
    """A document drawn on white at a width: its pixels (RGBA rows), copied under each later picture."""
    import skia  # (the fast-pictures extra: only on Skia's road, skia_module() found it)

    scale = width / picture.width
    height = max(1, round(picture.height * scale))
    surface, pixels = _surface(width, height)
    with surface as canvas:
        canvas.clear(skia.ColorWHITE)
        canvas.scale(scale, scale)
        dom.render(canvas)
    drawn: np.ndarray = pixels.copy()
    return drawn


def _surface(width: int, rows: int) -> tuple[Any, np.ndarray]:
    """A Skia surface and its pixels (RGBA, its own memory: read where they are drawn, no copy)."""
    import skia  # (the fast-pictures extra: only on Skia's road, skia_module() found it)

    surface = skia.Surface.MakeRaster(skia.ImageInfo.Make(width, rows, skia.kRGBA_8888_ColorType,
                                                          skia.kPremul_AlphaType))  # opaque: premultiplied is plain
    pixmap = skia.Pixmap()
    surface.peekPixels(pixmap)
    return surface, np.asarray(pixmap).reshape(rows, width * 4)


def _png(doms: list[Any], base: Any, w0: float, h0: float, width: int) -> bytes:
    """The documents drawn in order over a white ground (or over the kept board layer's pixels), strip by strip."""
    import skia  # (the fast-pictures extra: only on Skia's road, skia_module() found it)

    scale = width / w0
    height = max(1, round(h0 * scale))
    rows = max(1, min(height, STRIP_PIXELS // width))
    # The strip's surface, its pixels, and the PNG rows (each: its filter byte, 0 for none, then RGBA), kept for
    # the next picture of that size: fresh memory costs its page faults, a few ms each time.
    surface, pixels, line = _strips.get((width, rows), lambda: (
        *_surface(width, rows), np.zeros((rows, 1 + 4 * width), dtype=np.uint8)))
    packer = isal_zlib.compressobj(ZLIB_LEVEL)
    chunks = []
    for top in range(0, height, rows):
        n = min(rows, height - top)
        if base is not None:  # the kept board layer, white beneath: copied, not blended (white below its end)
            kept = max(0, min(n, len(base) - top))
            pixels[:kept] = base[top:top + kept]
            pixels[kept:n] = 255
        with surface as canvas:
            canvas.resetMatrix()  # the surface's canvas keeps its transform from one strip to the next
            if base is None:
                canvas.clear(skia.ColorWHITE)
            canvas.translate(0, -top)
            canvas.scale(scale, scale)
            for dom in doms:
                dom.render(canvas)
        line[:n, 1:] = pixels[:n]
        chunks.append(packer.compress(line[:n].data))
    chunks.append(packer.flush())
    return _png_file(width, height, b"".join(chunks))


def _png_file(width: int, height: int, compressed: bytes) -> bytes:
    """The PNG file around compressed 8-bit RGBA rows."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8 bits, RGBA, deflate, no interlace
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", compressed) + chunk(b"IEND", b"")
