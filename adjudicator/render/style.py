"""Colours, sizes and unit silhouettes of the board pictures."""

from __future__ import annotations

from dataclasses import dataclass

FIG_WIDTH_IN = 10.0  # the picture's width in inches (720 points): the geometry's spacing is set in points
WIDTH = 1000.0  # the picture's width in its own units (pixels at the default size)
PX = WIDTH / (FIG_WIDTH_IN * 72.0)  # picture units per point

# Terrain, lines and text (the power colours come from the variant file, checked by palette.py).
TERRAIN_FILL = {"land": "#EEE2C4", "sea": "#BCD7EC", "ice": "#FAFCFF"}
ICE_HATCH = "#8DB3CF"
IMPASSABLE_FILL = "#CFCBC3"
TEXT = "#1E1E1E"
SEA_TEXT = "#1B3F66"
MUTED = "#333333"
BORDER_STYLE = {  # boundary between two surfaces: (colour, width)
    "coast": ("#4A4A48", 1.5),
    "land": ("#8A7A5E", 0.8),
    "water": ("#7FA2BF", 0.7),
    "ice": ("#7C97AD", 0.8),
}
FEATURE = {  # the border kinds that change who may cross: drawn across the boundary, never like an order
    "canal": "#1F6FB2",
    "river": "#2F80C8",
    "bridge": "#5B4636",
    "one-way": "#7A2E8C",
    "archipelago": "#1F6FB2",
}
FAILED = "#C4001A"  # the mark of a failed order and the ring of a dislodged unit
NEUTRAL = "#8C8C8C"
CASING = "#111111"  # the dark edge every order line carries, so a yellow or white line shows on any ground
FADED = 0.4  # the opacity of a failed order
FAILED_EDGE = "#6B6B6B"  # a failed order's edge: washed out, yet 3:1 against land, sea and ice (a white line shows)
LEGEND_BG = "#F7F5F0"

# Unit silhouettes, about two units wide, centred on the origin, y up (flipped when drawn).
ARMY_SHAPE = [(-0.86, -0.62), (0.86, -0.62), (1.0, -0.38), (1.0, -0.08), (0.52, -0.08), (0.52, 0.1), (1.12, 0.1),
              (1.12, 0.3), (0.46, 0.3), (0.3, 0.52), (-0.42, 0.52), (-0.58, -0.08), (-1.0, -0.08), (-1.0, -0.38)]
FLEET_SHAPE = [(-1.05, -0.05), (-0.58, -0.05), (0.06, 0.86), (0.06, -0.05), (1.05, -0.05), (0.72, -0.62),
               (-0.72, -0.62)]


@dataclass(frozen=True)
class MapStyle:
    """Sizes in points (1/72 inch of the 10-inch-wide picture; PX picture units each)."""

    unit: float = 8.0  # half the width of a unit silhouette
    label: float = 7.6  # label font size
    centre: float = 3.2  # radius of a supply-centre marker
    label_gap: float = 11.0  # from a space's anchor down to its label's centre
    dislodged_offset: tuple[float, float] = (13.0, 6.0)  # right, up
