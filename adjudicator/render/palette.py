"""Power colours every player can tell apart, and the measure that says so.

The measure is CIEDE2000 (ΔE00, in CIELAB under D65): any two powers' colours in a picture differ by at least
`MIN_DELTA_E`. A board's own colours are kept where they pass; a colour that is missing, unreadable, or too close
to one kept before it is replaced by the first colour of `PALETTE` that passes. The palette has twenty colours,
pairwise at least 21 apart; its first eight are the Okabe-Ito colours (with a deeper blue), chosen to stay apart
for the common colour-vision deficiencies; the rest were picked one by one as far as possible from those before.
"""

from __future__ import annotations

import functools
import itertools

MIN_DELTA_E = 20.0
PALETTE = ("#D55E00", "#0B4FA8", "#56B4E9", "#000000", "#009E73", "#FFFFFF", "#F0E442", "#E69F00", "#CC79A7",
           "#880044", "#666600", "#00FF66", "#AA00FF", "#00FFFF", "#662200", "#446666", "#220044", "#EE0044",
           "#AAAA88", "#FFAA88")
DEFICIENCIES = ("protan", "deutan", "tritan")  # simulated by coloraide's filters (Brettel/Viénot)


@functools.lru_cache(maxsize=1024)
def _colour(text: str):
    from coloraide import Color

    return Color(text)


@functools.lru_cache(maxsize=1024)
def hex_colour(text: str) -> str | None:
    """`#RRGGBB` of any CSS colour (`royalblue`, `#b9a61c`), or None when it is not one."""
    try:
        return _colour(str(text).strip()).convert("srgb").to_string(hex=True, fit=True).upper()[:7]
    except (ValueError, TypeError, AttributeError):
        return None


@functools.lru_cache(maxsize=8192)
def delta_e(a: str, b: str, deficiency: str | None = None) -> float:
    """CIEDE2000 difference of two colours (as seen with a simulated colour-vision deficiency, when named)."""
    ca, cb = _colour(a), _colour(b)
    if deficiency:
        ca, cb = ca.filter(deficiency), cb.filter(deficiency)
    return float(ca.delta_e(cb, method="2000"))


def smallest_difference(colours: list[str], deficiency: str | None = None) -> float:
    """The smallest ΔE00 between two of the colours (infinite for fewer than two)."""
    return min((delta_e(a, b, deficiency) for a, b in itertools.combinations(colours, 2)), default=float("inf"))


@functools.lru_cache(maxsize=64)
def assign_colours(wanted: tuple[tuple[str, str | None], ...]) -> dict[str, str]:
    """Each power's colour: its own (`wanted`, in the board's order) where it is at least MIN_DELTA_E from every
    colour given before it, else the first palette colour that is; past twenty powers, the farthest one."""
    out: dict[str, str] = {}
    for power, colour in wanted:
        own = hex_colour(colour) if colour else None
        if own is None or any(delta_e(own, c) < MIN_DELTA_E for c in out.values()):
            spare = [p for p in PALETTE if p not in out.values()] or list(PALETTE)
            passing = [p for p in spare if all(delta_e(p, c) >= MIN_DELTA_E for c in out.values())]
            own = passing[0] if passing else max(spare, key=lambda p: min(delta_e(p, c) for c in out.values()))
        out[power] = own
    return out
