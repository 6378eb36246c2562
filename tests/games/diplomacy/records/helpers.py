"""The records tests' data: the 200 games the `diplomacy` package played (tests/data/package_games.jsonl.gz, made
by benchmarks/package_games.py), read once."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from typing import Any

from tests.helpers import ROOT

FIXTURE = ROOT / "tests" / "data" / "package_games.jsonl.gz"


@lru_cache(maxsize=1)
def package_games() -> tuple[str, ...]:
    """Each game of the fixture as its JSON line."""
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        return tuple(line for line in f if line.strip())


def game(i: int) -> dict[str, Any]:
    """The fixture's game `i`, decoded afresh (a test may change it)."""
    return json.loads(package_games()[i])


def sorted_lists(value: Any) -> Any:
    """The value with every list sorted (the package's lists of units, centres and orders have no order)."""
    if isinstance(value, dict):
        return {k: sorted_lists(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((sorted_lists(v) for v in value), key=json.dumps)
    return value
