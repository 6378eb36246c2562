"""Where each space goes on a board that carries no drawing positions: a layout computed from its graph.

A planar board graph (most maps are) is laid out by Tutte's barycentric embedding: the longest face on a
circle, every other space at the weighted mean of its neighbours, which draws no two borders crossing; the
weights are then grown with the borders' lengths for a few rounds, which spreads the crowded middle while
staying planar. A board that is not planar starts from a force-directed layout instead; a large board, or one
whose graph a planar drawing would put all on its outer face (a chain), in rows. Then each space's
footprint (its unit, its label below it and its centre marker) is pushed apart from every other until none
overlap: widthways within the picture, lengthways as far as needed (the picture grows taller). The result is
in points of the picture (map units equal points), so the footprints keep their size when drawn.

A graph says nothing of where north is, so the layout comes out turned or mirrored at random (England south of
France) unless the board's `drawing:` says which way is up (`orientation`): the spaces towards each edge
(`compass: {north: [edi, stp], south: [tun], west: [por], east: [mos]}`) or a few spaces' rough places
(`rough: {lon: [51.5, -0.1], mos: [55.8, 37.6], tun: [36.8, 10.2]}`, latitude and longitude; [x, y] of a
picture, y down, with `projection: {name: plane}`). The layout is turned, and mirrored if need be, to fit them
best (orthogonal Procrustes); a layout in rows is only flipped.
"""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt

from adjudicator.errors import VariantError
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


COMPASS = {"north": (0.0, 1.0), "south": (0.0, -1.0), "east": (1.0, 0.0), "west": (-1.0, 0.0)}


def orientation_hints(board: Any) -> tuple[dict[str, tuple[float, float]], bool]:
    """Where the board's `drawing:` says its spaces lie, x east and y north: directions from the middle
    (`compass`, and True) or rough places (`rough`, and False); empty when it says nothing. A name that is no
    space, a direction that is none, or a place that is no pair of numbers is a VariantError."""
    spec = dict((getattr(board, "raw", None) or {}).get("drawing") or {})
    source = getattr(board, "source", None)
    compass, rough = spec.get("compass"), spec.get("rough")
    if compass is not None and rough is not None:
        raise VariantError("drawing: give `compass` or `rough`, not both", file=source)
    out: dict[str, tuple[float, float]] = {}
    if compass is not None:
        if not isinstance(compass, dict):
            raise VariantError("drawing: compass must map north, south, east or west to spaces", file=source)
        for side, ids in compass.items():
            if side not in COMPASS:
                raise VariantError(f"drawing: compass: {side!r} is no direction; use north, south, east or west",
                                   file=source)
            for pid in [ids] if isinstance(ids, str) else list(ids or []):
                _known(board, pid, "compass", source)
                x, y = out.get(str(pid), (0.0, 0.0))
                out[str(pid)] = (x + COMPASS[side][0], y + COMPASS[side][1])
        return out, True
    if rough is not None:
        if not isinstance(rough, dict):
            raise VariantError("drawing: rough must map spaces to [latitude, longitude]", file=source)
        plane = (spec.get("projection") or {}).get("name") == "plane"
        for pid, place in rough.items():
            _known(board, pid, "rough", source)
            if not (isinstance(place, (list, tuple)) and len(place) == 2
                    and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in place)):
                raise VariantError(f"drawing: rough: {pid}: {place!r} is not [latitude, longitude]", file=source)
            a, b = float(place[0]), float(place[1])
            out[str(pid)] = (a, -b) if plane else (b * math.cos(math.radians(a)), a)
        return out, False
    return out, False


def _known(board: Any, pid: Any, key: str, source: Any) -> None:
    if str(pid) not in board.provinces:
        raise VariantError(f"drawing: {key} names {pid!r}, which is no space of the board", file=source)


def orient(pos: np.ndarray, nodes: list[str], hints: dict[str, tuple[float, float]], directions: bool,
           flips_only: bool = False) -> np.ndarray:
    """The layout turned (and mirrored if need be) about its middle so that the hinted spaces lie as the hints
    say: directions from the middle of the whole layout, or rough places (each set about its own middle). A
    rotation is chosen over a mirror when the hints cannot tell them apart (one direction, two places)."""
    index = {n: i for i, n in enumerate(nodes)}
    hinted = [index[n] for n in hints if n in index]
    if not hinted or len(pos) < 2:
        return pos
    centre = pos.mean(axis=0)
    a = pos[hinted] - (centre if directions else pos[hinted].mean(axis=0))
    b = np.array([hints[nodes[i]] for i in hinted], dtype=float)
    if not directions:
        b = b - b.mean(axis=0)
    if flips_only:  # rows stay rows: of the four flips, the one that fits best
        r = min((np.diag([sx, sy]) for sx in (1.0, -1.0) for sy in (1.0, -1.0)),
                key=lambda m: float(np.square(a @ m - b).sum()))
    else:
        u, sv, vt = np.linalg.svd(a.T @ b)
        if sv[1] <= 1e-9 * max(float(sv[0]), 1e-12):  # one direction only: no mirror can be told
            u[:, 1] *= np.sign(np.linalg.det(u @ vt)) or 1.0
        r = u @ vt
    return (pos - centre) @ r + centre


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
    rows = False
    outer = _outer_face(graph) if 3 < n <= MAX_EMBEDDED and nx.is_connected(graph) else None
    if outer is not None and len(set(outer)) <= 4 * math.sqrt(n) + 8:
        pos = _even_out(_barycentric(graph, nodes, outer))
    elif outer is None and 3 < n <= MAX_SPRING:  # not planar (or in parts): forces, O(n^2) a round
        spring = nx.spring_layout(graph, seed=7, iterations=200)
        pos = np.array([spring[n] for n in nodes], dtype=float)
    else:
        pos = _rows(graph, nodes, w, h, width)
        rows = True
    hints, directions = orientation_hints(board)
    if hints:
        pos = orient(pos, nodes, hints, directions, flips_only=rows)
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
