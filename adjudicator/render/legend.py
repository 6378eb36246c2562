"""The legend under a picture: a title line, then rows of entries (a symbol and its words), laid out left to
right and wrapped. A picture lists only the entries for what it draws, so the legend never names a thing the
board does not have."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.render.style import LEGEND_BG, MUTED, TEXT, WIDTH
from adjudicator.render.svg import group, ident, path, rect
from adjudicator.render.text import text, text_width

SIZE = 12.0  # the entries' font size
TITLE = 17.0
ROW = 26.0
MARGIN = 16.0
GAP = 20.0  # between two entries


@dataclass
class Entry:
    """One entry: `symbol(x, y)` draws it with its left middle at (x, y), `symbol_width` wide; then the words
    (`label` in bold when `strong`, then `note`)."""

    key: str
    label: str
    symbol: Callable[..., str]  # symbol(x, y); (`...`: a lambda binds its colour as a default argument)
    symbol_width: float = 22.0
    note: str = ""
    strong: bool = False

    def width(self) -> float:
        """The entry's width: symbol, words, note."""
        w = self.symbol_width + 6 + text_width(self.label, SIZE, "bold" if self.strong else "regular")
        return w + (6 + text_width(self.note, SIZE) if self.note else 0.0)

    def draw(self, x: float, y: float) -> str:
        """The entry as SVG with its left middle at (x, y)."""
        face = "bold" if self.strong else "regular"
        parts = [self.symbol(x, y), text(x + self.symbol_width + 6, y, self.label, SIZE, face=face,
                                         fill=TEXT if self.strong else MUTED)]
        if self.note:
            parts.append(text(x + self.symbol_width + 12 + text_width(self.label, SIZE, face), y, self.note, SIZE,
                              fill=MUTED))
        return group(ident("legend", self.key), parts)


def _rows(entries: list[Entry], left: float, columns: bool) -> list[list[tuple[float, Entry]]]:
    """Entries placed in rows within the picture's width: in even columns (powers), or one after another."""
    room = WIDTH - left - MARGIN
    if columns and entries:
        widest = max(e.width() for e in entries) + GAP
        per_row = max(1, int(room // widest))
        rows_needed = -(-len(entries) // per_row)
        per_row = -(-len(entries) // rows_needed)  # the rows filled evenly
        step = room / per_row
        return [[(left + i * step, e) for i, e in enumerate(entries[r:r + per_row])]
                for r in range(0, len(entries), per_row)]
    rows: list[list[tuple[float, Entry]]] = [[]]
    x = left
    for e in entries:
        w = e.width()
        if rows[-1] and x + w > WIDTH - MARGIN:
            rows.append([])
            x = left
        rows[-1].append((x, e))
        x += w + GAP
    return rows


def legend(top: float, title: str, subtitle: str, sections: list[tuple[str, list[Entry], bool]]) -> tuple[str, float]:
    """The legend's SVG from `top` down, and its height. Each section is (heading, entries, in columns)."""
    parts: list[str] = []
    y = top + 20
    parts.append(text(MARGIN, y, title, TITLE, face="bold", fill=TEXT, element_id="legend-title"))
    parts.append(text(WIDTH - MARGIN, y, subtitle, TITLE, face="bold", fill=TEXT, anchor="end",
                      element_id="legend-phase"))
    y += 28
    for heading, entries, columns in sections:
        if not entries:
            continue
        left = MARGIN + (text_width(heading, SIZE, "bold") + 10 if heading else 0.0)
        if heading:
            parts.append(text(MARGIN, y, heading, SIZE, face="bold", fill=MUTED))
        for row in _rows(entries, left, columns):
            parts.extend(e.draw(x, y) for x, e in row)
            y += ROW
    height = y - top - ROW + 22
    background = rect(0, top, WIDTH, height, fill=LEGEND_BG) + path(f"M0 {top + 0.5} H{WIDTH}", stroke="#4A4A48",
                                                                      stroke_width=1.2)
    return group("legend", [background, *parts]), height
