"""Shelves: places a board's drawing (its computed geometry, as JSON text) is kept by key, so that the next
process to draw the board finds it: the operator's folder (`ADJUDICATOR_DRAWINGS`, shared by every process on
the machine, at most FOLDER_FILES drawings, the oldest removed first), a hosted game's database
(`adjudicator/hosted/drawings.py`), the user's cache folder (the command line's, when no operator's folder is
named: at most USER_FILES drawings), and the shelves a caller names for a block of code (`using_shelves`)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Protocol

FOLDER_FILES = 10_000  # drawings kept in the operator's folder
USER_FILES = 200  # drawings kept in the user's cache folder (a large board's is a few hundred kB)
FOLDER = "ADJUDICATOR_DRAWINGS"  # the environment variable naming it


class Shelf(Protocol):
    """Somewhere drawings are kept by board key, as the JSON text `drawing_text` writes."""

    def get(self, key: str) -> str | None:
        """The drawing kept under `key`, or None."""

    def put(self, key: str, text: str) -> None:
        """Keep a drawing under `key`."""


class FolderShelf:
    """Drawings as files of a folder, one per key (written whole, then renamed: a reader never sees half)."""

    def __init__(self, path: str | Path, files: int = FOLDER_FILES):
        self.path = Path(path)
        self.files = files

    def _file(self, key: str) -> Path:
        return self.path / (hashlib.sha256(key.encode()).hexdigest()[:40] + ".json")

    def get(self, key: str) -> str | None:
        """The drawing kept under `key`, or None."""
        try:
            return self._file(key).read_text(encoding="utf-8")
        except OSError:
            return None

    def put(self, key: str, text: str) -> None:
        """Keep a drawing (past `files` drawings, the oldest go)."""
        self.path.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path, suffix=".part")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, self._file(key))
        kept = sorted(self.path.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for old in kept[:max(0, len(kept) - self.files)]:
            old.unlink(missing_ok=True)


_shelves: ContextVar[tuple[Shelf, ...]] = ContextVar("drawing_shelves", default=())


@contextmanager
def using_shelves(shelves: Sequence[Shelf]) -> Iterator[None]:
    """Look for drawings on these shelves too (and put the ones computed there) within the block."""
    token = _shelves.set(tuple(shelves))
    try:
        yield
    finally:
        _shelves.reset(token)


def folder_shelf() -> FolderShelf | None:
    """The operator's folder of drawings (`ADJUDICATOR_DRAWINGS`), if one is named."""
    path = os.environ.get(FOLDER)
    return FolderShelf(path) if path else None


def user_shelf() -> FolderShelf:
    """The user's cache folder of drawings (`$XDG_CACHE_HOME/adjudicator/drawings`, by default under
    `~/.cache`): where the command line keeps the drawings it computes, so the next command finds them."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return FolderShelf(Path(base) / "adjudicator" / "drawings", USER_FILES)


def shelves_in_use() -> tuple[Shelf, ...]:
    """The shelves `using_shelves` names for the block running now."""
    return _shelves.get()
