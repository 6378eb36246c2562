"""Where each space goes on a board that carries no drawing positions: a layout computed from its graph.

A planar board graph (most maps are) is laid out by Tutte's barycentric embedding: the longest face on a
circle, every other space at the weighted mean of its neighbours, which draws no two borders crossing; the
weights are then grown with the borders' lengths for a few rounds, which spreads the crowded middle while
staying planar. A board that is not planar starts from a force-directed layout instead; a large board, or one
whose graph a planar drawing would put all on its outer face (a chain), in rows. Then each space's
footprint (its unit, its label below it and its centre marker) is pushed apart from every other until none
overlap: widthways within the picture, lengthways as far as needed (the picture grows taller). The result is
in points of the picture (map units equal points), so the footprints keep their size when drawn.
"""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt

from adjudicator.render.style import FIG_WIDTH_IN, MapStyle
from adjudicator.render.text import text_width

MARGIN = 24.0  # points around the layout
PAD = 3.0  # points kept free between two footprints
ROOM = 2.5  # the picture's area at least this many times the footprints' (before they are pushed apart)
MAX_EMBEDDED = 600  # spaces past which no planar embedding is looked for (its solve is O(n^3)): rows instead
MAX_SPRING = 200  # spaces past which a graph that is not planar is laid out in rows, not by forces
MAX_PUSHES = 600  # rounds of pushing footprints apart (a few dozen usually do)


def _outer_face(graph: nx.Graph) -> list[str] | None:
    """The longest face of a planar embedding of the graph, or None when the graph is not planar."""
    planar, embedding = nx.check_planarity(graph)
    if not planar or not isinstance(embedding, nx.PlanarEmbedding):  # (it is one when planar; the stubs say Graph)
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
    pos: npt.NDArray[np.floating[Any]] = np.zeros((n, 2))
    for k, v in enumerate(outer):
        angle = 2 * math.pi * k / len(outer)
        fixed[index[v]] = True
        pos[index[v]] = (math.cos(angle), math.sin(angle))
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


def _near_pairs(pos: np.ndarray, reach_x: float, reach_y: float) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (i < j) of points less than `reach_x` apart widthways and `reach_y` lengthways, and a few more:
    the points are binned in cells of that size and each is paired with those of its own and the next cells,
    so the pairs are found in time linear in the points and their close pairs, never all n * n."""
    cell = np.floor(pos / (reach_x, reach_y)).astype(np.int64)
    cell -= cell.min(axis=0)
    span = int(cell[:, 1].max()) + 3
    key = cell[:, 0] * span + cell[:, 1]
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    firsts, seconds = [], []
    for dx, dy in ((0, 0), (0, 1), (1, -1), (1, 0), (1, 1)):  # half the neighbourhood: each pair of cells once
        lo = np.searchsorted(ordered, key + dx * span + dy, "left")
        hi = np.searchsorted(ordered, key + dx * span + dy, "right")
        count = hi - lo
        i = np.repeat(np.arange(len(pos)), count)
        j = order[np.repeat(lo - np.cumsum(count) + count, count) + np.arange(count.sum())]
        firsts.append(i)
        seconds.append(j)
    i, j = np.concatenate(firsts), np.concatenate(seconds)
    keep = i < j  # (within a cell each pair comes twice; between two cells once, either way round)
    keep[len(firsts[0]):] = True
    i, j = i[keep], j[keep]
    return np.minimum(i, j), np.maximum(i, j)


def _push_apart(pos: np.ndarray, w: np.ndarray, h: np.ndarray, width: float) -> np.ndarray:
    """Move footprints (boxes centred at `pos`) until no two overlap, keeping x within [0, width]. Only pairs
    of boxes near each other are compared (found again every few rounds, with room for what they move)."""
    pos = pos.copy()
    n = len(pos)
    if n < 2:
        return pos
    reach_x, reach_y = float(w.max()), float(h.max())
    i = j = np.zeros(0, dtype=np.int64)
    moved = np.inf
    for _ in range(MAX_PUSHES):
        if moved > 0.25 * min(reach_x, reach_y):  # the pairs within reach (and a margin) found again
            i, j = _near_pairs(pos, 1.5 * reach_x, 1.5 * reach_y)
            moved = 0.0
        dx, dy = pos[i, 0] - pos[j, 0], pos[i, 1] - pos[j, 1]
        ox = (w[i] + w[j]) / 2 - np.abs(dx)
        oy = (h[i] + h[j]) / 2 - np.abs(dy)
        hit = (ox > 0) & (oy > 0)
        if not hit.any():
            if moved == 0.0:
                break
            moved = np.inf  # none among the pairs found: look again before stopping
            continue
        # Each pair moves apart along the axis it overlaps less on, each box half the way (and a little more).
        hi, hj, ox, oy, dx, dy = i[hit], j[hit], ox[hit], oy[hit], dx[hit], dy[hit]
        along_y = oy <= ox
        sy = np.where(dy > 0, 1.0, np.where(dy < 0, -1.0, -1.0))  # two boxes at one spot: the lower index down
        sx = np.where(dx > 0, 1.0, np.where(dx < 0, -1.0, -1.0))
        my = np.where(along_y, oy * sy, 0.0) * 0.52
        mx = np.where(along_y, 0.0, ox * sx) * 0.52
        move = np.zeros_like(pos)
        move[:, 0] = np.bincount(hi, mx, n) - np.bincount(hj, mx, n)
        move[:, 1] = np.bincount(hi, my, n) - np.bincount(hj, my, n)
        before = pos.copy()
        pos += move
        pos[:, 0] = np.clip(pos[:, 0], w / 2, width - w / 2)
        moved += float(np.abs(pos - before).max())
    return pos


def _rows(graph: nx.Graph, nodes: list[str], w: np.ndarray, h: np.ndarray, width: float) -> np.ndarray:
    """The cheap layout: the spaces in breadth-first order (from the first space of each part of the graph)
    along rows that turn back at each end, as a snake does, so a space's first neighbours sit beside it."""
    order: list[str] = []
    seen: set[str] = set()
    for start in nodes:
        if start not in seen:
            seen.add(start)
            found = [start]
            for a, b in nx.bfs_edges(graph, start, sort_neighbors=sorted):
                found.append(b)
                seen.add(b)
            order.extend(found)
    index = {n: k for k, n in enumerate(nodes)}
    per_row = max(1, int(width // (float(np.mean(w)) * 1.25)))
    step_x, step_y = width / per_row, float(h.max()) * 1.6
    pos = np.zeros((len(nodes), 2))
    for k, n in enumerate(order):
        row, col = divmod(k, per_row)
        pos[index[n]] = ((col if row % 2 == 0 else per_row - 1 - col) * step_x, -row * step_y)
    return pos


def graph_layout(board: Any, style: Any = None) -> dict[str, tuple[float, float]]:
    """Anchor of every space (in points: x right, y up) for a board without positions: borders do not
    cross where the graph allows, and no two spaces' unit, label and centre marker overlap. A large board, or
    one whose graph has no such drawing (a tree, a chain: every space on its outer face), is laid out in rows
    (`_rows`): time linear in the board either way."""
    style = style or MapStyle()
    nodes = list(board.provinces)
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((u, v) for u, v in board.graph.edges() if u != v)
    w, h, shift = _footprints(board, style)
    width = FIG_WIDTH_IN * 72.0 - 2 * MARGIN
    n = len(nodes)
    outer = _outer_face(graph) if 3 < n <= MAX_EMBEDDED and nx.is_connected(graph) else None
    if outer is not None and len(set(outer)) <= 4 * math.sqrt(n) + 8:
        pos = _even_out(_barycentric(graph, nodes, outer))
    elif outer is None and 3 < n <= MAX_SPRING:  # not planar (or in parts): forces, O(n^2) a round
        spring = nx.spring_layout(graph, seed=7, iterations=200)
        pos = np.array([spring[n] for n in nodes], dtype=float)
    else:
        pos = _rows(graph, nodes, w, h, width)
    span = np.ptp(pos, axis=0)
    scale = width / max(float(span[0]), 1e-9)
    pos = (pos - pos.min(axis=0)) * scale
    # A layout too crowded for its footprints is stretched lengthways first: pushing boxes apart one step at a
    # time would take as many rounds as there are boxes in a row (and stop at MAX_PUSHES, still overlapping).
    room = width * max(float(np.ptp(pos[:, 1])), 1.0)
    if room < ROOM * float((w * h).sum()):
        pos[:, 1] *= ROOM * float((w * h).sum()) / room
    pos[:, 1] += shift  # push the footprints' centres, not the anchors
    pos = _push_apart(pos, w, h, width)
    pos[:, 1] -= shift
    return {n: (float(x), float(y)) for n, (x, y) in zip(nodes, pos)}
