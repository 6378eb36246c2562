"""The shipped variants, and loading any variant file into the board of its game's rules.

A variant's `rules:` key names its game: `diplomacy` (the standard board, the Arctic variant, any map) or
one of the other games in `adjudicator.games`. Everything else about a variant is data.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError, VariantError
from adjudicator.games import get_rules
from adjudicator.resources import data_dir
from adjudicator.yamlio import load_yaml_file


def variant_names() -> list[str]:
    """The variants shipped with the package."""
    return sorted(p.stem for p in data_dir("variants").glob("*.yaml"))


@functools.lru_cache(maxsize=1)
def variant_summaries() -> tuple[dict[str, str], ...]:
    """Name, title and rules of each shipped variant, read once from the files (no board is built)."""
    out = []
    for name in variant_names():
        try:
            data = load_yaml_file(data_dir("variants") / f"{name}.yaml")
        except AdjudicatorError:
            continue
        if isinstance(data, dict):
            out.append({"name": str(data.get("name", name)), "title": str(data.get("title", name)),
                        "rules": str(data.get("rules", "diplomacy"))})
    return tuple(out)


def check_name(data: Any, path: str | Path) -> None:
    """A variant file must be a mapping whose `name:` is its file's name (game files name boards by it)."""
    if not isinstance(data, dict):
        raise VariantError("a variant file must be a YAML mapping", file=str(path))
    stem = Path(path).stem
    name = data.get("name")
    if name is not None and str(name).lower() != stem.lower():
        raise VariantError(f"the board is named {str(name)!r} but its file is {Path(path).name!r}: a game file names "
                           f"its board by that name, so rename the file or write `name: {stem}`",
                           file=str(path), line=getattr(name, "line", None) or getattr(data, "line", None))


def board_from_file(path: str | Path) -> Any:
    """Load a variant file: a board of the game its `rules:` names (Diplomacy by default)."""
    data = load_yaml_file(path)
    check_name(data, path)
    return get_rules(str(data.get("rules", "diplomacy")), str(path)).load_board(data, str(path))


def load_variant(name: str) -> Any:
    """A shipped variant by name (case-insensitive), e.g. `standard`, `arctic`, `arctic2019`."""
    wanted = name.strip().lower()
    for candidate in variant_names():
        if candidate.lower() == wanted:
            return _shipped_board(candidate)
    shown = repr(name) if len(name) <= 60 else repr(name[:60]) + "..."  # a request may send a megabyte of name
    raise AdjudicatorError(f"unknown variant {shown}; known variants: {', '.join(variant_names())}")


@functools.lru_cache(maxsize=32)
def _shipped_board(canonical: str) -> Any:
    """One board per shipped variant file, keyed by the file's own name: any spelling of a name shares it,
    and the bound holds however many variants are added (issue 16)."""
    return board_from_file(data_dir("variants") / f"{canonical}.yaml")
