"""The test data tests/data/package_games.jsonl.gz (200 games the `diplomacy` package played on four maps, written by
benchmarks/package_games.py with its FIXTURE_ARGS), read once per test process."""

from __future__ import annotations

import functools
import gzip
import json
from typing import Any

from tests.helpers import ROOT

FIXTURE = ROOT / "tests" / "data" / "package_games.jsonl.gz"


@functools.lru_cache(maxsize=1)
def saved_games() -> tuple[dict[str, Any], ...]:
    """Every game of the fixture, as the package saved it."""
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as lines:
        return tuple(json.loads(line) for line in lines)
