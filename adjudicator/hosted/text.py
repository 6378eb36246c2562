"""Text taken at the door of hosted games: printable, bounded, and storable by every database.

Every string of every request body (keys and values, at any depth, inline boards too) is first checked by
`storable`, the one door every endpoint's body goes through (api/routes.py `_body`): a NUL or a lone
surrogate, which no database stores and no UTF-8 encoder writes, is a 400 naming the field by its JSON
pointer. A name, label, seat or order that holds a control character, a lone surrogate, a line break, or a
bidirectional override (which shows text as something else) is refused with a 400 saying which character and
where, before any database sees it; so is one over its length (400 too: 413 is for a request too large as a
whole, its body, its board or its number of orders). A message (`message`) is the same but for its lines: `\n`
(and `\r\n`, read as `\n`) end them, and a refusal names the line and the character. Path ids, phase numbers
and a query's numbers are ASCII digits or id characters within range: `"²".isdigit()` and `"١".isdigit()` are true, so `isdigit` is not used.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from adjudicator.hosted.errors import HostedError
from adjudicator.refusals import Kind
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


def _bad_char(text: str, allow_tab: bool, allow_newline: bool = False) -> tuple[int, str] | None:
    """The first character that is not printable text: (its index, why)."""
    for at, ch in enumerate(text):
        if (ch == "\t" and allow_tab) or (ch == "\n" and allow_newline):
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
    """`value` stripped, if it is at most `limit` characters of printable text; else a 400 saying it is too
    long, or naming the character and where (`line_hint` added when it is a line break)."""
    if len(value) > limit:
        raise HostedError(Kind.BAD_INPUT, "Bad request", f"{what} is over {limit} characters", pointer=pointer)
    bad = _bad_char(value, allow_tab)
    if bad is not None:
        at, why = bad
        hint = line_hint if value[at] in LINE_BREAKS and line_hint else "only printable text is taken"
        raise HostedError(Kind.BAD_INPUT, "Bad request",
                          f"{what} holds {why} at character {at + 1}: {hint}", pointer=pointer)
    return value.strip()


def printable(value: str, what: str, pointer: str, limit: int) -> str:
    """`value` stripped, if it is printable text of 1 to `limit` characters; else a 400."""
    text = _checked(value, what, pointer, limit, allow_tab=False)
    if not text:
        raise HostedError(Kind.BAD_INPUT, "Bad request", f"{what} is blank", pointer=pointer)
    return text


def order_item(value: str, number: int, limit: int) -> str:
    """One order of a submitted list, stripped (blank stays blank): one line of printable text (tabs allowed)."""
    return _checked(value, f"order {number}", f"/orders/{number - 1}", limit, allow_tab=True,
                    line_hint="one list item is one order, on one line; send each order as an item of its own")


def sheet_line(value: str, line: int, limit: int) -> str:
    """One order of a submitted text, stripped: printable text (tabs allowed), at most `limit` characters."""
    return _checked(value, f"the order on line {line}", "/orders", limit, allow_tab=True)


def message(value: str, pointer: str, limit: int) -> str:
    """A message's text, stripped: 1 to `limit` characters of printable text in lines (`\n`, `\r\n` read as
    `\n`; tabs allowed); any other line break, a control character, a bidirectional control or a lone surrogate
    is a 400 saying which and where, as for every other string."""
    text = value.replace("\r\n", "\n")
    if len(text) > limit:
        raise HostedError(Kind.BAD_INPUT, "Bad request", f"the message is over {limit} characters ({len(text)})",
                          pointer=pointer)
    bad = _bad_char(text, allow_tab=True, allow_newline=True)
    if bad is not None:
        at, why = bad
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        hint = "a message's lines end with \\n" if text[at] in LINE_BREAKS else "only printable text is taken"
        raise HostedError(Kind.BAD_INPUT, "Bad request", f"the message holds {why} on line {line}, character "
                          f"{column}: {hint}", pointer=pointer, line=line, column=column)
    text = text.strip()
    if not text:
        raise HostedError(Kind.BAD_INPUT, "Bad request", "the message is blank", pointer=pointer)
    return text


def storable(data: Any, pointer: str = "") -> None:
    """Every string of JSON data (keys and values, at any depth) free of NUL and lone surrogates, which no
    database stores (PostgreSQL refuses both, in text and in JSON) and no UTF-8 encoder writes; else a 400
    naming the first such field, in the document's order, by its JSON pointer (RFC 6901; for a bad key, the
    object holding it) and the character. Walked with a stack: the body may nest as deep as the door allows."""
    # A path is (parent path, token), spelled out only for the answer: a long key deep down is not copied into
    # the path of every value under it.
    stack: list[tuple[Any, Any]] = [(data, (None, pointer))]
    while stack:
        item, path = stack.pop()
        if isinstance(item, dict):
            for key in item:
                if isinstance(key, str) and not _storable(key):
                    where = _spelled(path)
                    _refuse(key, f"a key of {where or 'the body'}", where)
            stack.extend((value, (path, "/" + _pointer_token(key))) for key, value in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((value, (path, f"/{i}")) for i, value in reversed(list(enumerate(item))))
        elif isinstance(item, str) and not _storable(item):
            where = _spelled(path)
            _refuse(item, where or "the body", where)


def _spelled(path: Any) -> str:
    tokens = []
    while path is not None:
        path, token = path
        tokens.append(token)
    return "".join(reversed(tokens))


def _refuse(value: str, what: str, where: str) -> None:
    at, ch = next((at, ch) for at, ch in enumerate(value) if ch == "\x00" or "\ud800" <= ch <= "\udfff")
    why = "a NUL (U+0000)" if ch == "\x00" else f"a lone surrogate (U+{ord(ch):04X}), which is not a character,"
    raise HostedError(Kind.BAD_INPUT, "Bad request",
                      f"{what} holds {why} at character {at + 1}: no database stores it; "
                      "send text without it", pointer=where)


def _pointer_token(key: Any) -> str:
    """A key as a JSON pointer's token (RFC 6901: `~` as `~0`, `/` as `~1`)."""
    return str(key).replace("~", "~0").replace("/", "~1")


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
    return whole_number(text, 1, MAX_PHASE)


def whole_number(text: str, low: int, high: int) -> int | None:
    """A path's or a query's number: ASCII digits from `low` to `high` at most MAX_PHASE (None otherwise)."""
    if not 0 < len(text) <= 10 or not all(ch in _ASCII_DIGITS for ch in text):
        return None
    number = int(text)
    return number if low <= number <= min(high, MAX_PHASE) else None
