"""Drawings stored beside the shipped boards (`variants/drawings/NAME.json`): each board's geometry in picture
units, computed once by `python -m adjudicator.render.stored` and read in milliseconds, so the first picture
of a shipped board costs no geometry. A stored drawing is used only for the board it was made from: it names
the hash of the board's data, and a board edited since is drawn from a geometry computed anew."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from adjudicator.render.geometry import Geometry, _build_geometry, to_picture
from adjudicator.resources import data_dir
from adjudicator.yamlio import plain

VERSION = 1  # of the geometry computation: a change to it makes every stored drawing stale


def board_key(board: Any) -> str:
    """What a stored drawing must match: the geometry's version and the hash of the board's data."""
    data = json.dumps(plain(getattr(board, "raw", {}) or {}), sort_keys=True, separators=(",", ":"))
    return f"v{VERSION}:sha256:{hashlib.sha256(data.encode()).hexdigest()}"


def drawing_path(name: str) -> Path:
    """Where a shipped board's drawing is kept."""
    return data_dir("variants") / "drawings" / f"{name}.json"


def load_stored(board: Any) -> Geometry | None:
    """The stored geometry of this board, or None (no file, or one made from other data)."""
    path = drawing_path(str(board.name))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("board") != board_key(board):
        return None
    pair = lambda xy: (float(xy[0]), float(xy[1]))  # noqa: E731
    loops = lambda d: {k: [[pair(xy) for xy in loop] for loop in v] for k, v in d.items()}  # noqa: E731
    g = data["geometry"]
    return Geometry(
        anchor={k: pair(v) for k, v in g["anchor"].items()}, location={k: pair(v) for k, v in g["location"].items()},
        outlines=loops(g["outlines"]), impassable=loops(g["impassable"]),
        borders=[(a, b, [pair(xy) for xy in pts]) for a, b, pts in g["borders"]], frame=[pair(xy) for xy in g["frame"]],
        bounds=tuple(g["bounds"]), label_offset={k: pair(v) for k, v in g["label_offset"].items()},
        labels=dict(g["labels"]), bridges=[tuple(b) for b in g["bridges"]],
        unmatched={k: [tuple(p) for p in v] for k, v in g["unmatched"].items()}, frame_shape=g["frame_shape"])


def write_stored(board: Any) -> Path:
    """Compute a board's geometry and store it beside the shipped boards."""
    geo = to_picture(_build_geometry(board))
    path = drawing_path(str(board.name))
    path.parent.mkdir(exist_ok=True)
    data = {"board": board_key(board), "geometry": {
        "anchor": geo.anchor, "location": geo.location, "outlines": geo.outlines, "impassable": geo.impassable,
        "borders": geo.borders, "frame": geo.frame, "bounds": geo.bounds, "label_offset": geo.label_offset,
        "labels": geo.labels, "bridges": geo.bridges, "unmatched": geo.unmatched, "frame_shape": geo.frame_shape}}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    return path


def main(names: list[str]) -> None:
    """Write the drawings of the named shipped boards (all Diplomacy boards when none is named)."""
    from adjudicator.catalogue import load_variant, variant_names

    for name in names or variant_names():
        board = load_variant(name)
        if getattr(board, "rules", "diplomacy") == "diplomacy":
            print(f"wrote {write_stored(board)}")


if __name__ == "__main__":
    main(sys.argv[1:])
