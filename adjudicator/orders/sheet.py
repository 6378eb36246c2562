"""Order sheets as players send them: power headers or `Power: order` lines, comments, blank lines.

Every line is accounted for: an order, a header, a comment, a blank, or a problem reported with its line,
column and reason (never silently dropped).
"""

from __future__ import annotations

import re
from adjudicator.board import Board
from adjudicator.errors import AdjudicatorError, OrderError
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.orders.model import Order
from adjudicator.orders.parse import parse_order
from adjudicator.sheets import Sheet, SheetProblem

_COMMENT = re.compile(r"\s*(#|//|--\s|;)")
_PREFIX = re.compile(r"^\s*([A-Za-z][A-Za-z .'-]*?)\s*:\s*(.*)$")
_HEADER = re.compile(r"^\s*([A-Za-z][A-Za-z .'-]*?)\s*:?\s*$")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def _strip_comment(text: str) -> str:
    m = re.search(r"(#|//)", text)
    return text[: m.start()] if m else text


def _power_of(board: Board, text: str, lenient: bool = True) -> tuple[str | None, str | None]:
    try:
        if lenient:
            return board.power_names.lookup_lenient(text, "power")
        return board.power_names.lookup(text, "power"), None
    except (UnknownName, AmbiguousName):
        return None, None


def read_sheet(board: Board, text: str, file: str | None = None, default_power: str | None = None) -> Sheet:
    """Read an order sheet; orders carry their power, line and text."""
    sheet = Sheet(text=text)
    power = default_power
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or _COMMENT.match(raw):
            continue
        content = _strip_comment(raw).rstrip()
        if not content.strip():
            continue
        offset = 0
        header = _HEADER.match(content)
        if header and header.group(1).strip().lower() not in ("waive",):
            # "Russia:" may be misspelt; a bare line is a header only when it is exactly a power's name
            name, note = _power_of(board, header.group(1), lenient=content.rstrip().endswith(":"))
            if name is not None:
                power = name
                if note:
                    sheet.notes.append(f"line {number}: {note}")
                continue
        prefix = _PREFIX.match(content)
        if prefix:
            name, note = _power_of(board, prefix.group(1))
            if name is None:
                sheet.problems.append(SheetProblem(number, 1, raw, f"{prefix.group(1).strip()!r} is not a power of "
                                                   f"the {board.title} board ({', '.join(board.powers)})",
                                                   board.power_names.suggest(prefix.group(1))))
                continue
            if note:
                sheet.notes.append(f"line {number}: {note}")
            line_power = name
            body = prefix.group(2)
            offset = content.index(body) if body else len(content)
        else:
            line_power = power
            body = content
        bullet = _BULLET.match(body)
        if bullet:
            offset += bullet.end()
            body = body[bullet.end():]
        if not body.strip():
            if prefix:
                power = line_power  # "Russia:" followed by nothing is a header
            continue
        if line_power is None:
            sheet.problems.append(SheetProblem(number, 1, raw, "no power for this order: put 'Power:' before it or "
                                               "a 'Power:' header line above it"))
            continue
        lead = len(body) - len(body.lstrip())
        try:
            order = parse_order(board, body.strip(), line=number, file=file, column_offset=offset + lead, power=line_power)
        except OrderError as exc:
            sheet.problems.append(SheetProblem(number, exc.column, raw, exc.message, exc.suggestions))
            continue
        except AdjudicatorError as exc:  # pragma: no cover - parse_order raises OrderError
            sheet.problems.append(SheetProblem(number, None, raw, exc.message))
            continue
        sheet.orders.append(order)
    return sheet


def orders_from_lists(board: Board, orders: dict[str, list[str]]) -> Sheet:
    """Orders given as lists of strings per power (the API's second form)."""
    sheet = Sheet()
    for power_name, texts in orders.items():
        name, note = _power_of(board, power_name)
        if name is None:
            sheet.problems.append(SheetProblem(0, None, power_name, f"{power_name!r} is not a power of the "
                                               f"{board.title} board ({', '.join(board.powers)})"))
            continue
        if note:
            sheet.notes.append(note)
        for i, text in enumerate(texts):
            try:
                order = parse_order(board, str(text), line=i + 1, power=name)
            except OrderError as exc:
                sheet.problems.append(SheetProblem(i + 1, exc.column, str(text), exc.message, exc.suggestions))
                continue
            sheet.orders.append(order)
    return sheet
