"""SVG to PNG: the document rasterised by Skia (skia-python), a strip of rows at a time, and each strip
compressed as it is drawn, so a picture's memory is a few strips whatever its width and however many are drawn
at once (a 4000 px picture holds one 4000 x 256 strip, not its 70 MB of pixels)."""

from __future__ import annotations

import re
import struct
import zlib

import numpy as np

STRIP = 256  # rows drawn at a time
ZLIB_LEVEL = 3  # the pictures are mostly flat colour: level 3 is about as small as 9, in a fraction of the time
_SIZE = re.compile(r'<svg[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')


def svg_size(svg: str) -> tuple[float, float]:
    """The document's width and height in user units (from its root element)."""
    m = _SIZE.search(svg[:2000])  # the root element is at the start: a bounded search
    if m is None:
        raise ValueError("the SVG document has no width and height")
    return float(m.group(1)), float(m.group(2))


def png_from_svg(svg: str, width: int) -> bytes:
    """The SVG document as a PNG image `width` pixels wide (white background, RGB)."""
    import skia

    w0, h0 = svg_size(svg)
    scale = width / w0
    height = max(1, round(h0 * scale))
    data = skia.Data.MakeWithCopy(svg.encode("utf-8"))  # a copy: the stream must outlive the Python bytes
    dom = skia.SVGDOM.MakeFromStream(skia.MemoryStream(data))
    if dom is None:
        raise ValueError("the SVG document could not be read by the rasteriser")
    dom.setContainerSize(skia.Size(w0, h0))
    rows = min(STRIP, height)
    surface = skia.Surface(width, rows)
    pixels = np.empty((rows, width, 4), dtype=np.uint8)
    info = skia.ImageInfo.Make(width, rows, skia.kRGBA_8888_ColorType, skia.kUnpremul_AlphaType)
    line = np.zeros((rows, 1 + 3 * width), dtype=np.uint8)  # each row: its filter byte (0: none), then RGB
    packer = zlib.compressobj(ZLIB_LEVEL)
    chunks = []
    for top in range(0, height, rows):
        n = min(rows, height - top)
        with surface as canvas:
            canvas.resetMatrix()  # the surface's canvas keeps its transform from one strip to the next
            canvas.clear(skia.ColorWHITE)
            canvas.translate(0, -top)
            canvas.scale(scale, scale)
            dom.render(canvas)
        surface.readPixels(info, pixels)
        line[:n, 1:] = pixels[:n, :, :3].reshape(n, 3 * width)
        chunks.append(packer.compress(line[:n].tobytes()))
    chunks.append(packer.flush())
    return _png(width, height, b"".join(chunks))


def _png(width: int, height: int, compressed: bytes) -> bytes:
    """The PNG file around compressed 8-bit RGB rows."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB, deflate, no interlace
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", compressed) + chunk(b"IEND", b"")
