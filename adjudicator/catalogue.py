"""The shipped variants, and loading any variant file into the board of its game's rules.

A variant's `rules:` key names its game: `diplomacy` (the standard board, the Arctic variant, any map) or
one of the other games in `adjudicator.games`. Everything else about a variant is data.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from adjudicator.board import board_from_data
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


def board_from_file(path: str | Path) -> Any:
    """Load a variant file: a Diplomacy board, or the board of another game."""
    data = load_yaml_file(path)
    if not isinstance(data, dict):
        raise VariantError("a variant file must be a YAML mapping", file=str(path))
    rules = str(data.get("rules", "diplomacy"))
    if rules == "diplomacy":
        return board_from_data(data, source=str(path))
    return get_rules(rules, str(path)).load_board(data, str(path))


@functools.lru_cache(maxsize=None)
def load_variant(name: str) -> Any:
    """A shipped variant by name (case-insensitive), e.g. `standard`, `arctic`, `arctic2019`."""
    wanted = name.strip().lower()
    for candidate in variant_names():
        if candidate.lower() == wanted:
            return board_from_file(data_dir("variants") / f"{candidate}.yaml")
    raise AdjudicatorError(f"unknown variant {name!r}; known variants: {', '.join(variant_names())}")


def is_diplomacy(board: Any) -> bool:
    """Whether a board is played by the Diplomacy rules (as opposed to another game's)."""
    return getattr(board, "rules", "diplomacy") == "diplomacy"
