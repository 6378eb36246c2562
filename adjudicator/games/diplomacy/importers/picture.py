"""Drawing positions from a map's picture: the unit spots of a DPjudge/jDip SVG (`jdipNS:PROVINCE`), or of a DPjudge
PostScript map (`NAME.ps` beside `NAME.map`: its `% INFO` block lists each place's spot, `%  x  y ID  Name`, y up)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.importers.notes import MapNote
from adjudicator.textio import read_text

MAX_PICTURE_BYTES = 8 * 1024 * 1024  # a map's picture larger than this is not read


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def positions_from_svg(path: Path, entries: list[dict[str, Any]], notes: list) -> dict[str, Any] | None:
    """Set each province entry's `pos` ([x, y] in the picture, y down) from the SVG's unit spots, and return the
    `drawing:` section that says so (with the coasts' spots) and the power colours; None (with a note) when the
    picture cannot be read or lacks a province, so that the board is drawn from a computed layout instead."""
    try:
        root = parse_svg(path)
    except AdjudicatorError as exc:
        notes.append(MapNote(path.name, None, f"{exc.message}: no drawing positions taken"))
        return None
    spots: dict[str, tuple[float, float]] = {}
    colours: dict[str, str] = {}
    for element in root.iter():
        tag = _local(element.tag)
        if tag == "PROVINCE":
            name = (element.get("name") or "").lower()
            for child in element:
                if _local(child.tag) == "UNIT":
                    try:
                        spots[name] = (round(float(child.get("x", "")), 1), round(float(child.get("y", "")), 1))
                    except ValueError:
                        pass
        elif tag == "POWERCOLOR" and element.get("power") and element.get("color"):
            colours[element.get("power", "").lower()] = element.get("color", "")
    return _drawing(path, entries, notes, spots, lambda pid, coast: f"{pid}-{coast}", colours)


def positions_from_ps(path: Path, entries: list[dict[str, Any]], notes: list) -> dict[str, Any] | None:
    """As `positions_from_svg`, from a DPjudge PostScript map: the spots of its `% INFO` block (PostScript's y
    points up: written as a picture's, y down from the highest spot), read word by word."""
    try:
        if path.stat().st_size > MAX_PICTURE_BYTES:
            raise AdjudicatorError("the picture is over 8 MiB", file=str(path))
        lines = read_text(path).splitlines()
    except (OSError, AdjudicatorError) as exc:
        notes.append(MapNote(path.name, None, f"{getattr(exc, 'message', exc)}: no drawing positions taken"))
        return None
    spots: dict[str, tuple[float, float]] = {}
    info = False
    for line in lines:
        words = line.split()
        if not words or words[0] != "%":
            if info:
                break
            continue
        if words[1:2] == ["INFO"]:
            info = True
        elif words[1:2] == ["MAP"]:
            break
        elif info and len(words) >= 4:
            try:
                spots[words[3].lower()] = (float(words[1]), float(words[2]))
            except ValueError:
                continue
    if not spots:
        notes.append(MapNote(path.name, None, "the picture has no `% INFO` block of spots: no drawing positions taken"))
        return None
    top = max(y for _, y in spots.values())
    flipped = {k: (x, round(top - y, 1)) for k, (x, y) in spots.items()}
    return _drawing(path, entries, notes, flipped, lambda pid, coast: f"{pid}/{coast}", {})


def _drawing(path: Path, entries: list[dict[str, Any]], notes: list, spots: dict[str, tuple[float, float]],
             coast_key: Any, colours: dict[str, str]) -> dict[str, Any] | None:
    """Each entry's `pos` set from the picture's spots, and the `drawing:` section that says so."""
    missing = [e["id"] for e in entries if e["id"] not in spots]
    if missing:
        notes.append(MapNote(path.name, None, f"the picture has no spot for {', '.join(missing[:8])}"
                                              f"{' and others' if len(missing) > 8 else ''}: no drawing positions taken"))
        return None
    coasts = {}
    for e in entries:
        e["pos"] = list(spots[e["id"]])
        for c in e.get("coasts", ()):
            spot = spots.get(coast_key(e["id"], c))
            if spot:
                coasts[f"{e['id']}/{c}"] = list(spot)
    drawing: dict[str, Any] = {"projection": {"name": "plane"}, "frame": {"shape": "rectangle", "margin": 24.0},
                               "label_case": "upper"}
    if coasts:
        drawing["coasts"] = coasts
    return {"drawing": drawing, "colours": colours}


def parse_svg(path: Path) -> ET.Element:
    """An SVG file as an element tree (size-limited; the DTD it names is never fetched)."""
    if path.stat().st_size > MAX_PICTURE_BYTES:
        raise AdjudicatorError("the picture is over 8 MiB", file=str(path))
    text = read_text(path)
    if "<!ENTITY" in text:
        raise AdjudicatorError("the picture declares XML entities, which are not read", file=str(path))
    try:
        return ET.fromstring(text.encode("utf-8"))
    except ET.ParseError as exc:
        raise AdjudicatorError(f"cannot read the picture as XML: {exc}", file=str(path)) from None
