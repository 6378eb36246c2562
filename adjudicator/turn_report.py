"""The report text every game shares: status marks, the lines a sheet did not read, a turn's step lines."""

from __future__ import annotations

from typing import Any

from adjudicator.sheets import Sheet

MARK = {"succeeds": "ok", "fails": "FAILS", "void": "void", "illegal": "ILLEGAL", "ignored": "ignored",
        "default": "default"}


def problem_lines(sheet: Sheet[Any] | None) -> list[str]:
    """The sheet's unread lines and its notes, as report lines."""
    lines: list[str] = []
    if sheet and sheet.problems:
        lines.append("Lines that are not orders:")
        lines += [f"  {p}" for p in sheet.problems]
        lines.append("")
    if sheet and sheet.notes:
        lines += [f"Note: {n}" for n in sheet.notes] + [""]
    return lines


def game_result_text(board: Any, result: Any, sheet: Sheet[Any] | None = None,
                     summary: list[str] | None = None) -> str:
    """The report of a game's turn: each order or step with its outcome and reason, then the trace, then the
    game's `summary` lines (by default its result's summary, in words)."""
    lines = [f"{board.title}", "=" * len(board.title), "", *problem_lines(sheet)]
    for r in result.report:
        order = f"{r.power}: {r.text}" if r.power else r.text
        lines.append(f"  {order:<48} {MARK.get(r.status, r.status):<8} {r.reason}")
    if result.trace:
        lines += ["", "What happened:"] + [f"  {t}" for t in result.trace]
    if summary is None:
        summary = [f"{key.replace('_', ' ').capitalize()}: {in_words(value)}" for key, value in result.summary.items()]
    if summary:
        lines += ["", *summary]
    return "\n".join(lines) + "\n"


def in_words(value: Any) -> str:
    """A value of a game's data as a person reads it: `Red 0, Blue 0`, `yes`, `none`; never a Python repr."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k} {in_words(v)}" for k, v in value.items()) or "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(in_words(v) for v in value) or "none"
    return str(value)


def table(rows: list[list[str]], indent: str = "  ") -> list[str]:
    """Rows (the first the header) as lines of aligned columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
