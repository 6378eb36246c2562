"""One turn as every shell plays it (CLI, API, hosted games): a read sheet in, the result out, history kept.

The same road for every game: `rules_of(board)` reads the sheet, judges it and writes the report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.game import AnyRules, rules_of
from adjudicator.game_end import GameEnd
from adjudicator.refusals import Kind
from adjudicator.sheets import Sheet, SheetProblem


@dataclass
class SheetRefused(AdjudicatorError):
    """A sheet that is not judged: orders for another kind of phase (refused whole), or, when strict, the lines
    that are not orders (`problems`); or a game master's slip (slips.py)."""

    kind = Kind.REFUSED
    problems: list[SheetProblem] = field(default_factory=list)

    @property
    def whole(self) -> bool:
        """Whether the sheet is refused as a whole, not for its lines (strict)."""
        return not self.problems


@dataclass
class Turn:
    """A judged turn: the sheet it was read from, the game's result, and the next state (history included)."""

    rules: AnyRules
    board: Any
    state: Any
    sheet: Sheet[Any]
    result: Any

    @property
    def next_state(self) -> Any:
        """The position after the turn."""
        return self.result.next_state

    def report_json(self) -> dict[str, Any]:
        """The report as JSON-ready data (without the next state)."""
        return self.rules.report_json(self.board, self.state, self.sheet, self.result)

    def drawn(self) -> Any:
        """The turn as its picture draws it, JSON-ready (None for a game whose pictures draw no turn)."""
        return self.rules.drawn(self.board, self.state, self.sheet, self.result)

    def report_text(self) -> str:
        """The report as a game master mails it."""
        return self.rules.report_text(self.board, self.state, self.sheet, self.result)

    def natural_end(self) -> GameEnd | None:
        """The end the rules reach after the turn (a solo, an Arctic game over), else None."""
        return self.rules.natural_end(self.board, self.next_state)


def read_sheet(board: Any, state: Any, text: str, file: str | None = None) -> Sheet[Any]:
    """The sheet as the board's game reads it: orders and located problems."""
    return rules_of(board).read_sheet(board, state, text, file)


def sheet_refusal(sheet: Sheet[Any], strict: bool, file: str | None = None) -> SheetRefused | None:
    """The sheet policy of every shell (CLI, API, hosted games): a sheet the game refuses as a whole (orders for
    another kind of phase, too many lines: `Sheet.refusal`) is never judged; otherwise each line that is not an
    order is reported line by line and the others are judged, unless `strict`, when any such line refuses it."""
    if sheet.refusal:
        return SheetRefused(sheet.refusal, file=file)
    if strict and sheet.problems:
        first = sheet.problems[0]
        return SheetRefused(f"{len(sheet.problems)} line(s) of the sheet are not orders (strict); first: {first.reason}",
                            file=file, line=first.line or None, column=first.column, suggestions=first.suggestions,
                            problems=list(sheet.problems))
    return None


def check_sheet(sheet: Sheet[Any], strict: bool, file: str | None = None) -> None:
    """Refuse (SheetRefused) a sheet the policy (`sheet_refusal`) does not judge."""
    refusal = sheet_refusal(sheet, strict, file)
    if refusal is not None:
        raise refusal


def play_turn(board: Any, state: Any, sheet: Sheet[Any], strict: bool = False, file: str | None = None) -> Turn:
    """Judge a read sheet (after `check_sheet`); the next state's history gains this turn."""
    check_sheet(sheet, strict, file)
    rules = rules_of(board)
    result = rules.adjudicate(board, state, sheet)
    result.next_state.history = list(getattr(state, "history", None) or []) + [rules.history_entry(state, sheet, result)]
    return Turn(rules, board, state, sheet, result)
