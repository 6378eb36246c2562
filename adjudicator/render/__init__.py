"""Board pictures: any position of a Diplomacy variant, and the orders of a phase, as SVG or PNG.

    render_svg(board, state, results=None) -> str
    render_png(board, state, results=None, width=1000) -> bytes

`results` is a phase's report as JSON: the `orders` list of `PhaseResult.to_json()` (or that whole dict, as
`adjudicator adjudicate --json` prints it), entries with `power`, `status`, `understood_as` and `unit`.

The board data gives each space a position (latitude, longitude) and no outline. The positions are
projected (azimuthal equidistant: about the centre the variant's `drawing:` section names, or about the
North Pole when the positions ring it, as the Arctic's do), and each space is drawn as the part of the map
nearest to its *star*: its position joined half-way to each space it borders. That is a Voronoi diagram of
points laid along those lines (from matplotlib's Delaunay triangulation), so spaces that share a border
touch half-way between them, and each space is one piece; where two spaces without a border still touch,
a space bordering both is pushed between them. The boundaries are then smoothed, simplified, and clipped to
the frame (a disc or a rectangle). Each space is filled by its terrain in the position's season (land, sea,
or hatched ice), and each boundary drawn by what lies on either side (coastlines are heavier).

A board without positions is laid out from its graph (`layout.py`: a planar embedding evened out, then every
space's unit, label and centre marker pushed apart until none overlap). A board imported from a map with a
picture carries that picture's unit spots: `projection: {name: plane}`, `pos: [x, y]` in its pixels, y down.

A variant's optional `drawing:` section (see variants/standard.yaml) may give: `projection: {name:
azimuthal-equidistant | north-polar | plane, centre: [lat, lon], central_longitude, rotation}`, `frame: {shape: disc
| rectangle, radius, margin}`, `seeds: {id: [[lat, lon], ...]}` (extra points of long spaces), `impassable:
[{name, pos | seeds}]`, `coasts: {id/coast: [lat, lon]}` (where a fleet on a coast stands; otherwise a spot
towards the coast's seas), `label_case: id | title | upper`, `labels: {id: text}`, `label_offsets: {id:
[right, up]}` (points) and `fit_borders: false` (plain Voronoi cells). Without it, everything is inferred.

Everything is drawn with matplotlib (Agg for PNG, its SVG writer with text as paths, so the SVG looks the
same anywhere). Each space and each unit is one SVG element with an id (`space-Kar`, `unit-Russia-A-Arc`,
`dislodged-France-A-bur`, `centre-Arc`, `order-3-move`), so tests and scripts can find them.
"""

from __future__ import annotations

from adjudicator.render.geometry import geometry
from adjudicator.render.paint import MapStyle, render_png, render_svg
from adjudicator.render.style import TERRAIN_FILL

__all__ = ["MapStyle", "TERRAIN_FILL", "geometry", "render_png", "render_svg"]
