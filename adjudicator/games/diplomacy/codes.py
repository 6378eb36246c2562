"""The place codes a board's game records write (`STP/SC`, `NWG`): each location's province id in capitals unless
the board's `records: names:` renames it (variants/FORMAT.md), and its coast. Read by the records' notation and by
the civil-disorder rule that breaks ties by them (DATC 4.D.8 `home-centres-codes`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from adjudicator.games.diplomacy.board import Board, join_location


@lru_cache(maxsize=64)  # bounded: boards read from users' files come and go
def place_codes(board: Board) -> dict[str, str]:
    """Each location of the board (`stp/sc`) -> its code in the records (`STP/SC`)."""
    records: dict[str, Any] = board.raw.get("records") or {}
    renamed = {str(k): str(v).upper() for k, v in (records.get("names") or {}).items()}
    codes: dict[str, str] = {}
    for pid, province in board.provinces.items():
        name = renamed.get(pid, pid.upper())
        codes[pid] = name
        for coast in province.coasts:
            codes[join_location(pid, coast)] = f"{name}/{coast.upper()}"
    return codes
