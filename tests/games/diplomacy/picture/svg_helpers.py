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
