"""Text taken at the door of hosted games: printable, bounded, and storable by every database.

A name, label, seat or order that holds a control character, a lone surrogate (which no UTF-8 database
stores), a line break, or a bidirectional override (which shows text as something else) is refused with a
400 saying which character and where, before any database sees it. Path ids and phase numbers are ASCII
digits or id characters within range: `"²".isdigit()` and `"١".isdigit()` are true, so `isdigit` is not used.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from adjudicator.hosted.errors import HostedError
from adjudicator.sheets import LINE_BREAKS, char_name

# Categories never printable: controls, lone surrogates, line and paragraph separators (and, below, the
# noncharacters among the unassigned).
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
# Format characters that reorder what is shown (Trojan-Source style): the only format characters refused.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_ASCII_DIGITS = frozenset("0123456789")
MAX_ID = 32  # characters of a game id (ids made by `tokens.new_id` have 16)
MAX_PHASE = 2**31 - 1  # the largest phase number a database integer holds


def _bad_char(text: str, allow_tab: bool) -> tuple[int, str] | None:
    """The first character that is not printable text: (its index, why)."""
    for at, ch in enumerate(text):
        if ch == "\t" and allow_tab:
            continue
        if ch in LINE_BREAKS:
            return at, f"a line break ({char_name(ch)})"
        if ch in _BIDI_CONTROLS:
            return at, f"a bidirectional control ({char_name(ch)}), which shows text as other text"
        category = unicodedata.category(ch)
        if category == "Cs":
            return at, f"a lone surrogate (U+{ord(ch):04X}), which is not a character and no database stores"
        if category in _REFUSED_CATEGORIES or (category == "Cn" and _noncharacter(ch)):
            return at, f"a control character ({char_name(ch)})"
    return None


def _noncharacter(ch: str) -> bool:
    code = ord(ch)
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def _checked(value: str, what: str, pointer: str, limit: int, allow_tab: bool, line_hint: str = "") -> str:
    """`value` stripped, if it is at most `limit` characters of printable text; else a 413 or a 400 naming the
    character and where (`line_hint` added when it is a line break)."""
    if len(value) > limit:
        raise HostedError(413, "Request too large", f"{what} is over {limit} characters", pointer=pointer)
    bad = _bad_char(value, allow_tab)
    if bad is not None:
        at, why = bad
        hint = line_hint if value[at] in LINE_BREAKS and line_hint else "only printable text is taken"
        raise HostedError(400, "Bad request", f"{what} holds {why} at character {at + 1}: {hint}", pointer=pointer)
    return value.strip()


def printable(value: str, what: str, pointer: str, limit: int) -> str:
    """`value` stripped, if it is printable text of 1 to `limit` characters; else a 400 (413 past the limit)."""
    text = _checked(value, what, pointer, limit, allow_tab=False)
    if not text:
        raise HostedError(400, "Bad request", f"{what} is blank", pointer=pointer)
    return text


def order_item(value: str, number: int, limit: int) -> str:
    """One order of a submitted list, stripped (blank stays blank): one line of printable text (tabs allowed)."""
    return _checked(value, f"order {number}", f"/orders/{number - 1}", limit, allow_tab=True,
                    line_hint="one list item is one order, on one line; send each order as an item of its own")


def storable(data: Any, pointer: str) -> None:
    """Every string of JSON data (keys and values) free of NUL and lone surrogates, which the databases cannot
    store (PostgreSQL refuses both, in text and in JSON); else a 400 naming where. Walked with a stack."""
    stack: list[tuple[Any, str]] = [(data, pointer)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                stack.append((key, where))
                stack.append((value, f"{where}/{key}"))
        elif isinstance(item, list):
            stack.extend((value, f"{where}/{i}") for i, value in enumerate(item))
        elif isinstance(item, str) and not _storable(item):
            raise HostedError(400, "Bad request", f"{where or '/'} holds a NUL or a lone surrogate, which no "
                              "database stores", pointer=where or "/")


def _storable(text: str) -> bool:
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")  # fails on a lone surrogate, and only then
    except UnicodeEncodeError:
        return False
    return True


def game_id(text: str) -> bool:
    """Whether a path's game id could be one: 1 to MAX_ID ASCII letters, digits, `_` or `-`."""
    return 0 < len(text) <= MAX_ID and all(ch in _ID_CHARS for ch in text)


def phase_number(text: str) -> int | None:
    """A path's phase number: ASCII digits from 1 to MAX_PHASE (None otherwise)."""
    if not 0 < len(text) <= 10 or not all(ch in _ASCII_DIGITS for ch in text):
        return None
    number = int(text)
    return number if 1 <= number <= MAX_PHASE else None
