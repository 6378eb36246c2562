"""Skia (the fast-pictures extra) against resvg (the base install's rasteriser): CPU time per PNG and how far
the two PNGs differ, in the same run.

Each road draws the standard board's opening position several times at one width, after one picture to warm it
(Skia keeps the board's layers drawn between pictures; resvg draws every picture whole). The difference is
per pixel channel (0-255), read back with Pillow. What it leaves out: pictures with orders, other boards, and
wall time under concurrency (one picture is rasterised at a time per process either way).

    python benchmarks/rasterisers.py [--width 1000] [--pictures 5]
"""

from __future__ import annotations

import argparse
import io
import time

import numpy as np
from PIL import Image

from adjudicator.catalogue import load_variant
from adjudicator.game import rules_of
from adjudicator.render import raster


def cpu_per_picture(draw, pictures: int) -> tuple[float, bytes]:
    """CPU seconds per call of `draw` (after one warming call) and its last PNG."""
    png = draw()
    start = time.process_time()
    for _ in range(pictures):
        png = draw()
    return (time.process_time() - start) / pictures, png


def main() -> None:
    """Print each road's CPU time per picture, their ratio and the pixels that differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--pictures", type=int, default=5)
    args = parser.parse_args()
    if raster.skia_module() is None:
        raise SystemExit("Skia cannot be loaded here (the fast-pictures extra, libGL and libEGL): nothing to compare")
    board = load_variant("standard")
    rules = rules_of(board)
    state = rules.initial_state(board)

    def draw() -> bytes:
        return rules.render(board, state, None, "png", args.width)

    skia_cpu, skia_png = cpu_per_picture(draw, args.pictures)
    saved = raster._SKIA
    raster._SKIA = None  # as where skia-python is not installed
    try:
        resvg_cpu, resvg_png = cpu_per_picture(draw, args.pictures)
    finally:
        raster._SKIA = saved
    a, b = (np.asarray(Image.open(io.BytesIO(p)).convert("RGBA"), dtype=np.int16) for p in (skia_png, resvg_png))
    print(f"standard board, opening, {args.width} px, {args.pictures} pictures each (CPU time per picture)")
    print(f"skia  {skia_cpu * 1000:8.1f} ms  {len(skia_png):8d} bytes")
    print(f"resvg {resvg_cpu * 1000:8.1f} ms  {len(resvg_png):8d} bytes  ({resvg_cpu / skia_cpu:.0f}x Skia's time)")
    if a.shape != b.shape:
        print(f"sizes differ: {a.shape} and {b.shape}")
        return
    diff = np.abs(a - b).max(axis=2)
    print(f"same bytes: {skia_png == resvg_png}; pixels differing: {(diff > 0).mean():.1%}, by more than 8 of 255: "
          f"{(diff > 8).mean():.1%}, at most {int(diff.max())}")


if __name__ == "__main__":
    main()
