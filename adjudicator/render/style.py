"""Colours, sizes and unit silhouettes of the board pictures."""

from __future__ import annotations

import functools
from dataclasses import dataclass

FIG_WIDTH_IN = 10.0  # the picture's width in inches; at 100 dpi it is 1000 pixels wide

# Colours for terrain, lines and text (the power colours come from the variant file).
TERRAIN_FILL = {"land": "#EEE2C4", "sea": "#BCD7EC", "ice": "#FAFCFF"}
ICE_HATCH = "#8DB3CF"
IMPASSABLE_FILL = "#CFCBC3"
TEXT = "#1E1E1E"
SEA_TEXT = "#1B3F66"
BORDER_STYLE = {  # (colour, width in points, dashes)
    "coast": ("#4A4A48", 1.1),
    "land": ("#8A7A5E", 0.6),
    "water": ("#7FA2BF", 0.5),
    "ice": ("#7C97AD", 0.6),
}
FAILED = "#C4001A"  # the cross on failed orders and the mark of dislodged units
NEUTRAL = "#8C8C8C"
FALLBACK_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000",
                    "#999999", "#FFFFFF",
                    # then matplotlib's tab20 (its darker and lighter halves), for boards of many powers
                    "#1F77B4", "#FF7F0E", "#2CA02C", "#D62728", "#9467BD", "#8C564B", "#E377C2", "#7F7F7F",
                    "#BCBD22", "#17BECF", "#AEC7E8", "#FFBB78", "#98DF8A", "#FF9896", "#C5B0D5", "#C49C94",
                    "#F7B6D2", "#C7C7C7", "#DBDB8D", "#9EDAE5"]

# Unit silhouettes, about two units wide, centred on the origin.
ARMY_SHAPE = [(-0.86, -0.62), (0.86, -0.62), (1.0, -0.38), (1.0, -0.08), (0.52, -0.08), (0.52, 0.1), (1.12, 0.1),
         (1.12, 0.3), (0.46, 0.3), (0.3, 0.52), (-0.42, 0.52), (-0.58, -0.08), (-1.0, -0.08), (-1.0, -0.38)]
FLEET_SHAPE = [(-1.05, -0.05), (-0.58, -0.05), (0.06, 0.86), (0.06, -0.05), (1.05, -0.05), (0.72, -0.62),
          (-0.72, -0.62)]




@dataclass
class MapStyle:
    """Sizes in points (1/72 inch; the picture is 10 inches wide)."""

    unit: float = 8.0  # half the width of a unit silhouette
    label: float = 7.6  # label font size
    centre: float = 3.2  # radius of a supply-centre marker
    label_gap: float = 11.0  # from a space's anchor down to its label's centre
    dislodged_offset: tuple[float, float] = (13.0, 6.0)  # right, up


@functools.lru_cache(maxsize=4096)  # labels of the boards drawn lately (bounded: inline boards come and go)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of text in points, as matplotlib lays it out with its bundled DejaVu Sans."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    if not text.strip():
        return 0.0
    prop = FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal", size=size)
    return float(TextPath((0, 0), text, size=size, prop=prop).get_extents().width)
