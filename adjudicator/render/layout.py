"""Where each space goes on a board that carries no drawing positions: a layout computed from its graph.

A planar board graph (most maps are) is laid out by Tutte's barycentric embedding: the longest face on a
circle, every other space at the weighted mean of its neighbours, which draws no two borders crossing; the
weights are then grown with the borders' lengths for a few rounds, which spreads the crowded middle while
staying planar. A board that is not planar starts from a force-directed layout instead. Then each space's
footprint (its unit, its label below it and its centre marker) is pushed apart from every other until none
overlap: widthways within the picture, lengthways as far as needed (the picture grows taller). The result is
in points of the picture (map units equal points), so the footprints keep their size when drawn.
"""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import numpy as np

from adjudicator.render.style import FIG_WIDTH_IN, MapStyle
from adjudicator.render.text import text_width

MARGIN = 24.0  # points around the layout
PAD = 3.0  # points kept free between two footprints
MAX_PUSHES = 600  # rounds of pushing footprints apart (a few dozen usually do)


def _outer_face(graph: nx.Graph) -> list[str] | None:
    """The longest face of a planar embedding of the graph, or None when the graph is not planar."""
    planar, embedding = nx.check_planarity(graph)
    if not planar:
        return None
    seen: set[tuple[str, str]] = set()
    best: list[str] = []
    for u, v in embedding.edges():
        if (u, v) not in seen:
            face = embedding.traverse_face(u, v, mark_half_edges=seen)
            if len(face) > len(best):
                best = face
    return best if len(best) >= 3 else None


def _barycentric(graph: nx.Graph, nodes: list[str], outer: list[str], rounds: int = 4) -> np.ndarray:
    """Tutte's embedding with the outer face on a unit circle, re-weighted by border length `rounds` times."""
    index = {n: i for i, n in enumerate(nodes)}
    n = len(nodes)
    fixed = np.zeros(n, dtype=bool)
    pos = np.zeros((n, 2))
    for k, v in enumerate(outer):
        a = 2 * math.pi * k / len(outer)
        fixed[index[v]] = True
        pos[index[v]] = (math.cos(a), math.sin(a))
    edges = np.array([(index[u], index[v]) for u, v in graph.edges() if u != v], dtype=int).reshape(-1, 2)
    weights = np.ones(len(edges))
    for _ in range(rounds + 1):
        a = np.zeros((n, n))
        np.add.at(a, (edges[:, 0], edges[:, 1]), -weights)
        np.add.at(a, (edges[:, 1], edges[:, 0]), -weights)
        a[np.arange(n), np.arange(n)] = -a.sum(axis=1)
        a[fixed] = 0.0
        a[fixed, fixed] = 1.0
        b = np.where(fixed[:, None], pos, 0.0)
        pos = np.linalg.solve(a, b)
        weights = np.maximum(np.hypot(*(pos[edges[:, 0]] - pos[edges[:, 1]]).T), 1e-6)
    return pos


def _even_out(pos: np.ndarray) -> np.ndarray:
    """Tutte's embedding crowds the middle: move each point along its ray from the centre so that the spaces
    are spread evenly over the disc (the k-th nearest to the centre at radius sqrt(k/n)). Directions and the
    order of distances are kept, so the drawing stays (nearly) free of crossing borders."""
    centre = pos.mean(axis=0)
    rel = pos - centre
    r = np.hypot(rel[:, 0], rel[:, 1])
    order = np.argsort(r, kind="stable")
    target = np.empty(len(r))
    target[order] = np.sqrt((np.arange(len(r)) + 0.5) / len(r))
    scale = np.where(r > 1e-12, target / np.maximum(r, 1e-12), 0.0)
    return centre + rel * scale[:, None]


def _footprints(board: Any, style: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each space's footprint around its anchor, in points: widths, heights and the vertical offset of its
    centre (the label hangs below the unit)."""
    widths, heights, shift = [], [], []
    for p in board.provinces.values():
        label = text_width(p.id, style.label, "bold" if p.centre else "regular")
        right = label / 2 + (2 * style.centre + 2.2 if p.centre else 0.0)
        half = max(style.unit * 1.15, label / 2, right)
        widths.append(2 * half + PAD)
        top, bottom = style.unit * 0.9, -(style.label_gap + style.label * 0.75)
        heights.append(top - bottom + PAD)
        shift.append((top + bottom) / 2)
    return np.array(widths), np.array(heights), np.array(shift)


def _push_apart(pos: np.ndarray, w: np.ndarray, h: np.ndarray, width: float) -> np.ndarray:
    """Move footprints (boxes centred at `pos`) until no two overlap, keeping x within [0, width]."""
    pos = pos.copy()
    half_w = (w[:, None] + w[None, :]) / 2
    half_h = (h[:, None] + h[None, :]) / 2
    n = len(pos)
    for _ in range(MAX_PUSHES):
        dx = pos[:, None, 0] - pos[None, :, 0]
        dy = pos[:, None, 1] - pos[None, :, 1]
        ox = half_w - np.abs(dx)
        oy = half_h - np.abs(dy)
        hit = (ox > 0) & (oy > 0)
        hit[np.arange(n), np.arange(n)] = False
        if not hit.any():
            break
        # Each pair moves apart along the axis it overlaps less on, each box half the way (and a little more).
        along_y = hit & (oy <= ox)
        along_x = hit & ~along_y
        tie = np.where(np.arange(n)[:, None] > np.arange(n)[None, :], 1.0, -1.0)  # two boxes at one spot
        sy = np.where(dy > 0, 1.0, np.where(dy < 0, -1.0, tie))
        sx = np.where(dx > 0, 1.0, np.where(dx < 0, -1.0, tie))
        move = np.zeros_like(pos)
        move[:, 1] = (np.where(along_y, oy * sy, 0.0) * 0.52).sum(axis=1)
        move[:, 0] = (np.where(along_x, ox * sx, 0.0) * 0.52).sum(axis=1)
        pos += move
        pos[:, 0] = np.clip(pos[:, 0], w / 2, width - w / 2)
    return pos


def graph_layout(board: Any, style: Any = None) -> dict[str, tuple[float, float]]:
    """Anchor of every space (in points: x right, y up) for a board without positions: borders do not
    cross where the graph allows, and no two spaces' unit, label and centre marker overlap."""
    style = style or MapStyle()
    nodes = list(board.provinces)
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((u, v) for u, v in board.graph.edges() if u != v)
    outer = _outer_face(graph) if nx.is_connected(graph) and len(nodes) > 3 else None
    if outer is not None:
        pos = _even_out(_barycentric(graph, nodes, outer))
    else:
        spring = nx.spring_layout(graph, seed=7, iterations=200)
        pos = np.array([spring[n] for n in nodes], dtype=float)
    w, h, shift = _footprints(board, style)
    width = FIG_WIDTH_IN * 72.0 - 2 * MARGIN
    span = np.ptp(pos, axis=0)
    scale = width / max(float(span[0]), 1e-9)
    pos = (pos - pos.min(axis=0)) * scale
    pos[:, 1] += shift  # push the footprints' centres, not the anchors
    pos = _push_apart(pos, w, h, width)
    pos[:, 1] -= shift
    return {n: (float(x), float(y)) for n, (x, y) in zip(nodes, pos)}
