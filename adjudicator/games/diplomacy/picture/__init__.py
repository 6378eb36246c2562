"""Diplomacy board pictures: an SVG document written directly, in layers with element ids, and a PNG rasterised from it.

    rules_of(board).render(board, state, results, "svg" | "png", width) -> str | bytes

Every game draws its own picture (`GameRules.picture`, a `svg.Picture` of layers) and `GameRules.render` writes it
out or rasterises it (`raster.py`); a Diplomacy position is drawn by `draw.py`. `results` is what to draw of
a phase (`results.py`): the judge's `PhaseResult`, its `Drawing` as data (`rules.drawn`: what the API and a
hosted phase pass), or a report as JSON given by a user (`adjudicator adjudicate --json`'s output or its
`orders` list), whose entries are read by the board's order reader.

The board data gives each space a position (latitude, longitude) and no outline. The positions are projected
(azimuthal equidistant: about the centre the variant's `drawing:` section names, or about the North Pole when
the positions ring it, as the Arctic's do), and each space is drawn as the part of the map nearest to its
*star*: its position joined half-way to each space it borders (a Voronoi diagram of points along those lines,
from matplotlib's Delaunay triangulation), so spaces that share a border touch half-way between them
(`geometry.py`). A board without positions is laid out from its graph (`layout.py`). That geometry is computed
once per board, and for the shipped boards stored beside them (`stored.py`, `variants/drawings/`).

A variant's optional `drawing:` section (see variants/standard.yaml) may give: `projection: {name:
azimuthal-equidistant | north-polar | plane, centre: [lat, lon], central_longitude, rotation}`, `frame: {shape: disc
| rectangle, radius, margin}`, `seeds: {id: [[lat, lon], ...]}` (extra points of long spaces), `impassable:
[{name, pos | seeds}]`, `coasts: {id/coast: [lat, lon]}` (where a fleet on a coast stands; otherwise a spot
towards the coast's seas), `label_case: id | title | upper`, `labels: {id: text}`, `label_offsets: {id:
[right, up]}` (points) and `fit_borders: false` (plain Voronoi cells); for a board without positions, which
way is north: `compass: {north: [ids], south, east, west}` or `rough: {id: [lat, lon]}` (layout.py; FORMAT.md,
"drawing"). Without it, everything is inferred.

Text is drawn as glyph outlines (`text.py`), so the SVG looks the same in any viewer; the PNG is that SVG
rasterised by Skia (`raster.py`). The board's layers are written once per board and season
(`board_layers.py`); a phase adds centres, units, orders (`orders.py`), marks and the legend (`legend.py`).
"""

from __future__ import annotations

from typing import Any

import adjudicator.games.diplomacy.picture.geometry  # noqa: F401  (first: the function below, not the module, is `geometry`)

__all__ = ["geometry"]


def geometry(board: Any) -> Any:
    """The board's geometry in picture units (`stored.geometry`). The package does not import `stored` itself,
    so that running it (`python -m adjudicator.games.diplomacy.picture.stored`) finds it not yet imported (a RuntimeWarning)."""
    from adjudicator.games.diplomacy.picture.stored import geometry as stored_geometry  # (see above: -m runs it)

    return stored_geometry(board)
