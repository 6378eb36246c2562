"""Power colours every player can tell apart, and the measure that says so.

The measure is CIEDE2000 (ΔE00, CIELAB under D65): any two powers' colours in a picture differ by at least
`MIN_DELTA_E`. A board's own colours are kept where they pass; a colour that is missing, unreadable, or too close
to one kept before it is replaced by the first colour of `PALETTE` (then `MORE`) that passes. The palette has
twenty colours, pairwise at least 21.7 apart; its first eight are the Okabe-Ito colours (with a deeper blue), chosen
to stay apart for the common colour-vision deficiencies; the rest were picked one by one as far as possible from
those before. `MORE` goes on the same way for boards of many powers (Chaos has 34): forty colours, each the
farthest (ΔE00) from every colour before it among the sRGB colours whose channels are multiples of 0x22 (and 0xFF),
leaving out those within 12 of the land, sea and neutral grey and within 20 of the failure red; the first five keep
20 apart, all sixty 13 apart. Past the colours that keep MIN_DELTA_E apart a picture tells powers apart by a
letter on their pieces as well (`colours_apart` says when); past sixty, colours repeat and the letters tell.

The formula is written here (Sharma, Wu and Dalal, 2005) rather than taken from a colour library: importing
one (coloraide) costs 0.6 s of a fresh process, most of the first picture's budget. The tests check it against
coloraide's.
"""

from __future__ import annotations

import functools
import itertools
import math

MIN_DELTA_E = 20.0
PALETTE = ("#D55E00", "#0B4FA8", "#56B4E9", "#000000", "#009E73", "#FFFFFF", "#F0E442", "#E69F00", "#CC79A7",
           "#880044", "#666600", "#00FF66", "#AA00FF", "#00FFFF", "#662200", "#446666", "#220044", "#EE0044",
           "#AAAA88", "#FFAA88")
MORE = ("#EECCFF", "#8888CC", "#004400", "#886666", "#66AA00", "#CCEECC", "#2200CC", "#664488", "#FF44FF", "#66AAAA",
        "#AA8866", "#CC2288", "#444444", "#664400", "#0088AA", "#EECCCC", "#222200", "#002244", "#442222", "#2288FF",
        "#008822", "#44FFCC", "#002222", "#006644", "#AAEE00", "#888844", "#CC8888", "#FFCC88", "#AAAA00", "#FFAACC",
        "#AA66CC", "#6666FF", "#66CC88", "#FF6644", "#660066", "#CCFFFF", "#666688", "#EEFFAA", "#008888", "#FF8822")
SPARE = PALETTE + MORE
_WHITE = (0.95047, 1.0, 1.08883)  # D65


@functools.lru_cache(maxsize=1024)
def hex_colour(text: str) -> str | None:
    """`#RRGGBB` of any CSS colour (`royalblue`, `#b9a61c`), or None when it is not one."""
    from PIL import ImageColor

    try:
        rgb = ImageColor.getrgb(str(text).strip())
    except (ValueError, AttributeError):
        return None
    return "#" + "".join(f"{v:02X}" for v in rgb[:3])


@functools.lru_cache(maxsize=1024)
def lab(colour: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour `#RRGGBB`."""
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    xyz = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b, 0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
           0.0193339 * r + 0.1191920 * g + 0.9503041 * b)
    fx, fy, fz = (t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
                  for t in (v / w for v, w in zip(xyz, _WHITE)))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


@functools.lru_cache(maxsize=8192)
def delta_e(a: str, b: str) -> float:
    """CIEDE2000 difference of two colours (`#RRGGBB`)."""
    (l1, a1, b1), (l2, a2, b2) = lab(a), lab(b)
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p if abs(h2p - h1p) <= 180 else h2p - h1p - 360 * math.copysign(1, h2p - h1p))
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    rt = (-2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def smallest_difference(colours: list[str]) -> float:
    """The smallest ΔE00 between two of the colours (infinite for fewer than two)."""
    return min((delta_e(a, b) for a, b in itertools.combinations(colours, 2)), default=float("inf"))


def colours_apart(colours: list[str]) -> bool:
    """Whether every two of the colours differ by at least MIN_DELTA_E (else a picture labels its pieces too).
    A colour given twice answers at once; `assign_colours` gives at most a few dozen distinct ones."""
    distinct = set(colours)
    return len(distinct) == len(colours) and smallest_difference(sorted(distinct)) >= MIN_DELTA_E


@functools.lru_cache(maxsize=64)
def assign_colours(wanted: tuple[tuple[str, str | None], ...]) -> dict[str, str]:
    """Each power's colour: its own (`wanted`, in the board's order) where it is at least MIN_DELTA_E from every
    colour given before it, else the first spare colour (`PALETTE`, then `MORE`) that is; when none is, the next
    spare colour not yet given (they come farthest first); past all sixty, the one given fewest times."""
    out: dict[str, str] = {}
    given: dict[str, int] = {}
    for power, colour in wanted:
        own = hex_colour(colour) if colour else None
        if own is None or any(delta_e(own, c) < MIN_DELTA_E for c in given):
            unused = [p for p in SPARE if p not in given]
            own = next((p for p in unused if all(delta_e(p, c) >= MIN_DELTA_E for c in given)), None)
            if own is None:
                own = unused[0] if unused else min(SPARE, key=lambda p: given[p])
        out[power] = own
        given[own] = given.get(own, 0) + 1
    return out
