"""The report text every game shares: status marks, the lines a sheet did not read, a turn's step lines."""

from __future__ import annotations

from typing import Any

from adjudicator.sheets import Sheet

MARK = {"succeeds": "ok", "fails": "FAILS", "void": "void", "illegal": "ILLEGAL", "ignored": "ignored",
        "default": "default"}


def problem_lines(sheet: Sheet | None) -> list[str]:
    """The sheet's unread lines and its notes, as report lines."""
    lines: list[str] = []
    if sheet and sheet.problems:
        lines.append("Lines that are not orders:")
        lines += [f"  {p}" for p in sheet.problems]
        lines.append("")
    if sheet and sheet.notes:
        lines += [f"Note: {n}" for n in sheet.notes] + [""]
    return lines


def game_result_text(board: Any, result: Any, sheet: Sheet | None = None) -> str:
    """The report of a game's turn: each order or step with its outcome and reason, then the trace."""
    lines = [f"{board.title}", "=" * len(board.title), "", *problem_lines(sheet)]
    for r in result.report:
        order = f"{r.power}: {r.text}" if r.power else r.text
        lines.append(f"  {order:<48} {MARK.get(r.status, r.status):<8} {r.reason}")
    if result.trace:
        lines += ["", "What happened:"] + [f"  {t}" for t in result.trace]
    for key, value in result.summary.items():
        lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"
