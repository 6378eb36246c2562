"""Where the board data and grammar files are, installed or in a source checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The directory of `variants` or `grammar` files: inside the installed package, else the repository root."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir() and any(candidate.iterdir()):
            return candidate
    raise FileNotFoundError(f"cannot find the {name!r} data directory next to {_PACKAGE}")
