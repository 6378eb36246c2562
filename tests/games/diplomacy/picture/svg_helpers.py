"""What the picture tests read of an SVG: the picture drawn, its elements by id, a path's points, a distance."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from adjudicator.game import rules_of


def svg_of(board, state, results=None) -> str:
    return rules_of(board).render(board, state, results, "svg", 1000)


def elements(svg: str | bytes) -> dict[str, ET.Element]:
    """Every element with an id (the document must be well-formed XML, each id once)."""
    out: dict[str, ET.Element] = {}
    for e in ET.fromstring(svg).iter():
        if "id" in e.attrib:
            assert e.attrib["id"] not in out, f"two elements with the id {e.attrib['id']}"
            out[e.attrib["id"]] = e
    return out


def polyline(d: str) -> list[tuple[float, float]]:
    """The points of a path's `d`, in order."""
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(nums[::2], nums[1::2]))


def distance_to(p, line) -> float:
    """How far a point lies from a line of points."""
    best = math.inf
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ((dx * dx + dy * dy) or 1)))
        best = min(best, math.hypot(ax + t * dx - p[0], ay + t * dy - p[1]))
    return best


# ----- what each element covers ---------------------------------------------------------------------------------
NS = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]


def _width(e: ET.Element) -> float:
    return float(e.attrib.get("stroke-width", 0)) / 2 if e.attrib.get("stroke", "none") != "none" else 0.0


def covered(e: ET.Element) -> Box | None:
    """The box an element and its children cover, their strokes included, from the SVG alone (text, drawn with
    a transform, is left out: a label's box is its pale rectangle)."""
    xs: list[float] = []
    ys: list[float] = []
    for c in e.iter():
        tag, w = c.tag[len(NS):], _width(c)
        if tag == "circle":
            x, y, r = (float(c.attrib[k]) for k in ("cx", "cy", "r"))
            xs += [x - r - w, x + r + w]
            ys += [y - r - w, y + r + w]
        elif tag == "rect":
            x, y, width, height = (float(c.attrib[k]) for k in ("x", "y", "width", "height"))
            xs += [x - w, x + width + w]
            ys += [y - w, y + height + w]
        elif tag == "path" and "transform" not in c.attrib:
            for x, y in polyline(c.attrib["d"]):
                xs += [x - w, x + w]
                ys += [y - w, y + w]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


MARK = re.compile(r"order-\d+-\w+-(failed|illegal)|order-\d+-convoy-mark|.+-badge|dislodged-(?!mark-).+")
UNIT_LIKE = re.compile(r"unit-.+|order-\d+-(build|waive)")


def kind_of(key: str) -> str | None:
    """What a picture's element is to the placement pass: a label, a centre marker, a unit (or what stands where a
    unit would: a build, a waived build), a mark; None for the rest (lines, rings, the map)."""
    if key.startswith("label-"):
        return "label"
    if key.startswith("centre-"):
        return "centre"
    if MARK.fullmatch(key):
        return "mark"
    if UNIT_LIKE.fullmatch(key):
        return "unit"
    return None


def placed(svg: str | bytes) -> dict[str, tuple[str, Box]]:
    """Every label, centre marker, unit and mark of a picture, with the box it covers."""
    out = {}
    for key, e in elements(svg).items():
        kind = kind_of(key)
        box = covered(e) if kind else None
        if kind and box:
            out[key] = (kind, box)
    return out


def overlap(a: Box, b: Box, slack: float = 0.3) -> bool:
    """Whether two boxes overlap by more than `slack` each way."""
    return a[0] + slack < b[2] and b[0] + slack < a[2] and a[1] + slack < b[3] and b[1] + slack < a[3]


def collisions(svg: str | bytes) -> list[tuple[str, str]]:
    """The pairs that cover each other: a mark and anything placed, two labels, a label and a centre marker."""
    items = sorted(placed(svg).items())
    out = []
    for i, (a, (ka, ba)) in enumerate(items):
        for b, (kb, bb) in items[i + 1:]:
            kinds = {ka, kb}
            if ("mark" in kinds or kinds <= {"label", "centre"}) and overlap(ba, bb):
                out.append((a, b))
    return out
