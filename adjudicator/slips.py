"""The game master's slips, caught before a phase is judged from a file (`adjudicator adjudicate`): a sheet from
which no order was read, a sheet written for another board, and the sheet of the phase before sent again.

Each is refused (SheetRefused) saying what was seen and what to do instead; nothing is judged or written. The
game file's history keeps a digest of each judged sheet (`keep_for_rewind` in `rewind.py` records it), which is
how a repeated sheet is recognised.
"""

from __future__ import annotations

import hashlib
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.catalogue import load_variant, variant_summaries
from adjudicator.game import rules_of
from adjudicator.sheets import Sheet
from adjudicator.turn import SheetRefused

# A sheet is "mostly unknown names" when more than half of its order lines name places or powers the board does
# not have, and at least this many do (one misspelt line of a short sheet is a typo, not another board's sheet).
MIN_UNKNOWN_LINES = 2


def sheet_digest(text: str) -> str:
    """`sha256:<hex>` of a sheet as read: line ends, trailing blanks and blank lines at its end do not count, so
    the same sheet saved again has the same digest."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "sha256:" + hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def check_not_repeated(board: Any, state: Any, digest: str, file: str | None) -> None:
    """Refuse the sheet that was judged for the phase before this one (the `--in-place` command run twice)."""
    history = getattr(state, "history", None) or []
    last = history[-1] if history and isinstance(history[-1], dict) else {}
    if last.get("sheet") == digest:
        judged = last.get("phase") or "the phase before"
        now = rules_of(board).phase_name(state)
        raise SheetRefused(f"this sheet was already judged, for {judged}" + (f"; the game is now at {now}" if now else "")
                           + ": send this phase's sheet, or add --same-sheet to judge the same orders again",
                           file=file)


def check_board_fits(board: Any, sheet: Sheet[Any], file: str | None) -> None:
    """Refuse a sheet whose order lines mostly name places or powers the board does not have, naming the board
    (and the shipped board it reads as, when one does)."""
    unknown = [p for p in sheet.problems if p.unknown_name]
    lines = len(sheet.orders) + len(sheet.problems)
    if len(unknown) < MIN_UNKNOWN_LINES or 2 * len(unknown) <= lines:
        return
    other = _board_it_reads_as(board, sheet.text)
    raise SheetRefused(f"{len(unknown)} of the sheet's {lines} order lines name places or powers that the "
                       f"{board.title} board ({board.name}) does not have, the first on line {unknown[0].line}: "
                       + (f"it reads as a sheet for {other}, " if other else "")
                       + f"not for this game, which plays {board.title}. Check that sheet and game file go together",
                       file=file, line=unknown[0].line)


def check_something_read(board: Any, state: Any, sheet: Sheet[Any], file: str | None) -> None:
    """Refuse a sheet from which no order was read (an empty file, or nothing but unreadable lines)."""
    if sheet.orders or sheet.refusal:
        return
    unread = f" ({len(sheet.problems)} line(s) are not orders)" if sheet.problems else " (it is empty)"
    phase = rules_of(board).phase_name(state) or "the game's turn"
    raise SheetRefused(f"no order was read from the sheet{unread}: nothing was judged. To judge {phase} with no "
                       "orders at all, run without a sheet and with --no-orders", file=file)


def _board_it_reads_as(board: Any, text: str) -> str | None:
    """The shipped board of the same game that reads every order line of the sheet, if one does (the sheet's own
    board, so the refusal can name it); worked out only when a sheet is refused."""
    for summary in variant_summaries():
        if summary.get("rules") != board.rules or summary["name"] == board.name:
            continue
        try:
            other = load_variant(summary["name"])
            sheet = rules_of(other).read_sheet(other, None, text)
        except (AdjudicatorError, AttributeError, TypeError):  # a game that reads sheets only against a position
            continue
        if sheet.orders and not sheet.problems:
            return f"{other.title} ({other.name})"
    return None
