"""Drawings stored beside the boards: each board's geometry in picture units, computed once and read in
milliseconds, so the first picture of a board costs no geometry.

The shipped boards' drawings are in `variants/drawings/NAME.json`; a board file's own may sit beside it
(`boards/mine.drawing.json` for `boards/mine.yaml`). `python -m adjudicator.games.diplomacy.picture.stored` writes them again
(all shipped boards, or the names and board files given). A stored drawing is used only for the board it was
made from: it names the hash of the board's data, and a board edited since is drawn from a geometry computed
anew.

Any other board's drawing is computed once and kept, by that key, where the next picture finds it: in the
process (a bounded cache), on the shelves its caller gives (a hosted game's: the games' database), and in the
folder the operator names as `ADJUDICATOR_DRAWINGS` (`adjudicator serve --drawings DIR`), which every process
on the machine shares (at most `render/shelves.py`'s FOLDER_FILES drawings, the oldest removed first)."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adjudicator.games.diplomacy.board import Board
from adjudicator.kept import Kept
from adjudicator.catalogue import board_from_path, is_board_path, load_variant, variant_names
from adjudicator.errors import AdjudicatorError
from adjudicator.render.shelves import Shelf, folder_shelf, shelves_in_use
from adjudicator.games.diplomacy.picture.geometry import Geometry, _build_geometry, to_picture
from adjudicator.resources import data_dir
from adjudicator.yamlio import plain

_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")  # a name that stays in its folder (an inline board's is anything)
VERSION = 1  # of the geometry computation: a change to it makes every stored drawing stale
KEPT = 16  # drawings kept in the process, by board key
NOT_DRAWN = ("records",)  # board keys no picture reads: editing them keeps the stored drawing
_kept = Kept(KEPT)


def board_key(board: Any) -> str:
    """What a stored drawing must match: the geometry's version and the hash of the board's data."""
    raw = {k: v for k, v in (getattr(board, "raw", {}) or {}).items() if k not in NOT_DRAWN}
    data = json.dumps(plain(raw), sort_keys=True, separators=(",", ":"))
    return f"v{VERSION}:sha256:{hashlib.sha256(data.encode()).hexdigest()}"


def drawing_paths(board: Any) -> list[Path]:
    """Where a board's drawing may be kept: beside its file, and among the shipped boards' by its name."""
    beside = getattr(board, "board_file", None)
    name = str(board.name)
    shipped = [data_dir("variants") / "drawings" / f"{name}.json"] if _PLAIN.fullmatch(name) else []
    return ([Path(beside).with_suffix(".drawing.json")] if beside else []) + shipped


def load_stored(board: Any) -> Geometry | None:
    """The stored geometry of this board, or None (no file, or one made from other data)."""
    key = board_key(board)
    for path in drawing_paths(board):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("board") == key:
            return _geometry(data)
    return None


def _geometry(data: dict) -> Geometry:
    """A geometry from its stored form."""
    pair = lambda xy: (float(xy[0]), float(xy[1]))  # noqa: E731
    loops = lambda d: {k: [[pair(xy) for xy in loop] for loop in v] for k, v in d.items()}  # noqa: E731
    g = data["geometry"]
    return Geometry(
        anchor={k: pair(v) for k, v in g["anchor"].items()}, location={k: pair(v) for k, v in g["location"].items()},
        outlines=loops(g["outlines"]), impassable=loops(g["impassable"]),
        borders=[(a, b, [pair(xy) for xy in pts]) for a, b, pts in g["borders"]], frame=[pair(xy) for xy in g["frame"]],
        bounds=tuple(g["bounds"]), label_offset={k: pair(v) for k, v in g["label_offset"].items()},
        labels=dict(g["labels"]), bridges=[tuple(b) for b in g["bridges"]],
        unmatched={k: [tuple(p) for p in v] for k, v in g["unmatched"].items()}, frame_shape=g["frame_shape"],
        method=g.get("method", "fitted"))


def drawing_text(board: Any, geo: Geometry) -> str:
    """A board's geometry (in picture units) as the JSON text kept in files, folders and databases."""
    data = {"board": board_key(board), "geometry": {
        "anchor": geo.anchor, "location": geo.location, "outlines": geo.outlines, "impassable": geo.impassable,
        "borders": geo.borders, "frame": geo.frame, "bounds": geo.bounds, "label_offset": geo.label_offset,
        "labels": geo.labels, "bridges": geo.bridges, "unmatched": geo.unmatched, "frame_shape": geo.frame_shape,
        **({"method": geo.method} if geo.method != "fitted" else {})}}
    return json.dumps(data, separators=(",", ":")) + "\n"


def write_stored(board: Any) -> Path:
    """Compute a board's geometry and store it (beside its file, or among the shipped boards' drawings)."""
    geo = to_picture(_build_geometry(board))
    path = drawing_paths(board)[0]
    path.parent.mkdir(exist_ok=True)
    path.write_text(drawing_text(board, geo), encoding="utf-8")
    return path


def _read(text: str | None, key: str) -> Geometry | None:
    """A kept drawing's geometry, if the text is one made for `key` (anything else is ignored)."""
    try:
        data = json.loads(text) if text else None
        return _geometry(data) if isinstance(data, dict) and data.get("board") == key else None
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def geometry(board: Board, shelves: Sequence[Shelf] = ()) -> Geometry:
    """The board's geometry in picture units (WIDTH wide, y down): kept on the board or in the process, read
    from the drawing stored beside it, from a shelf given or the operator's folder, else computed (once: then
    put on each of those shelves, for every process that looks there next)."""
    cache = board.__dict__.setdefault("_render_cache", {})
    if "geometry" not in cache:
        key = board_key(board)
        cache["geometry"] = _kept.get(key, lambda: _find(board, key, (*shelves, *shelves_in_use())))
    return cache["geometry"]


def _find(board: Board, key: str, shelves: Sequence[Shelf]) -> Geometry:
    stored = load_stored(board)
    if stored is not None:
        return stored
    everywhere = [*shelves, *filter(None, [folder_shelf()])]
    for shelf in everywhere:
        found = _read(shelf.get(key), key)
        if found is not None:
            return found
    geo = to_picture(_build_geometry(board))
    text = drawing_text(board, geo)
    for shelf in everywhere:
        try:
            shelf.put(key, text)
        except OSError:  # a folder that cannot be written: the drawing is still drawn (and kept in the process)
            continue
    return geo


def forget() -> None:
    """Forget the drawings kept in the process (a cold measurement; boards keep their own until dropped)."""
    _kept.clear()


def main(argv: list[str] | None = None) -> int:
    """Write the drawings of the shipped boards and board files named (every shipped Diplomacy board if none);
    0 when written, 2 (with the reason) for a name that is no board."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m adjudicator.games.diplomacy.picture.stored",
                                     description="Write the stored drawings (variants/drawings/NAME.json, or "
                                                 "beside a board file) of the boards named.")
    parser.add_argument("boards", nargs="*", metavar="BOARD",
                        help="a shipped variant's name or a board file (default: every shipped Diplomacy board)")
    args = parser.parse_args(argv)
    try:
        boards = [board_from_path(n)[0] if is_board_path(n) else load_variant(n)
                  for n in args.boards or variant_names()]
    except AdjudicatorError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for board in boards:
        if getattr(board, "rules", "diplomacy") == "diplomacy":
            try:
                print(f"wrote {write_stored(board)}")
            except OSError as exc:  # a folder that cannot be written
                print(f"error: {board.name}: the drawing could not be written: {exc}", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
