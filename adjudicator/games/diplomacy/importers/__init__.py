"""Readers of other adjudicators' map files, turning them into this project's board data.

    dpjudge.import_map(path) -> ImportedMap   # a DPjudge `.map` file (the format the `diplomacy` package uses)

An import never drops what it cannot carry over silently: every statement of the map file that the board
format cannot say is reported with its file and line (`ImportedMap.notes`).
"""

from __future__ import annotations

from adjudicator.games.diplomacy.importers.dpjudge import ImportedMap, MapNote, import_map

__all__ = ["ImportedMap", "MapNote", "import_map"]
