"""An imported board written as a variant file: a comment header, then the data in the shipped files' style."""

from __future__ import annotations

from typing import Any

import yaml


def _dump(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, allow_unicode=True, width=10 ** 6)
    return text.removesuffix("\n...\n").strip()  # a plain scalar ends with the document-end marker


def board_yaml(imported: Any, header: list[str]) -> str:
    """The YAML text of an imported board: `header` lines and every note as comments, one line per province,
    border and power."""
    data = imported.data
    out = [f"# {line}" if line else "#" for line in header]
    if imported.notes:
        out.append("#")
        out.append("# Not carried over from the map file:")
        out += [f"#   {note}" for note in imported.notes]
    out.append("")
    for key in ("name", "title", "rules"):
        out.append(f"{key}: {_dump(data[key])}")
    out.append("")
    out.append("powers:")
    out += [f"  {_dump(name)}: {_dump(spec)}" for name, spec in data["powers"].items()]
    out.append("")
    out.append(f"terrain: {_dump(data['terrain'])}")
    cal = data["calendar"]
    out.append("calendar:")
    out.append(f"  start: {_dump(cal['start'])}")
    out.append("  phases:")
    out += [f"    - {_dump(step)}" for step in cal["phases"]]
    if cal.get("aliases"):
        out.append(f"  aliases: {_dump(cal['aliases'])}")
    out.append(f"victory: {data['victory']}")
    out.append("")
    out.append("provinces:")
    out += [f"  - {_dump(entry)}" for entry in data["provinces"]]
    out.append("")
    out.append("borders:")
    out += [f"  - {border}" for border in data["borders"]]
    out.append("")
    out.append("start:")
    out += [f"  {_dump(power)}: {_dump(units)}" for power, units in data["start"].items()]
    for key in ("start_owners", "options", "records", "origin"):
        if key in data:
            out.append("")
            out.append(f"{key}: {_dump(data[key])}")
    if "drawing" in data:
        out.append("")
        out.append("# Positions (`pos`) are the unit spots of the map's picture: [x, y] in its pixels, y down.")
        out.append(f"drawing: {_dump(data['drawing'])}")
    return "\n".join(out) + "\n"
