"""Arctic Race on the project's machinery: the track and the river of ice floes as a board in
`variants/arctic-race.yaml`, a turn as orders in `grammar/arctic-race.lark`, resolution with a trace, and
YAML cases in `datc_cases/arctic-race/`. The reference board and its assumptions R1..R30 are
shared/boards/arctic-race-board.md; this game's own assumptions are in `variants/arctic-race.md`.

The flow: text -> steps (`orders`) -> checked turns and their resolution (`resolve`, `movement`) -> results
and the next state (`state`), with the points of `scoring`.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games import GameResult, GameRules
from adjudicator.sheets import Sheet

from . import board as _board
from . import orders as _orders
from . import resolve as _resolve
from . import state as _state


class ArcticRaceRules(GameRules):
    """The GameRules of Arctic Race."""

    name = "arctic-race"

    def load_board(self, data: dict, source: str | None) -> _board.RaceBoard:
        """The board of a variant file (VariantError with the line of a problem)."""
        return _board.load_board(data, source)

    def initial_state(self, board: _board.RaceBoard) -> _state.RaceState:
        """A game waiting for its set-up orders (`players`, `start`, `tiles`)."""
        return _state.initial_state(board)

    def state_from_data(self, board: _board.RaceBoard, data: dict, file: str | None) -> _state.RaceState:
        """A position from game-file data (StateError with line and pointer)."""
        return _state.state_from_data(board, data, file)

    def state_to_data(self, board: _board.RaceBoard, state: _state.RaceState) -> dict[str, Any]:
        """The position as plain data."""
        return _state.state_to_data(board, state)

    def read_sheet(self, board: Any, state: Any, text: str, file: str | None = None) -> Sheet:
        """The sheet's steps; for now the first unreadable line refuses the sheet (reported as its problem)."""
        from adjudicator.errors import OrderError
        from adjudicator.sheets import SheetProblem

        try:
            return Sheet(orders=self.parse_orders(board, text, file), text=text)
        except OrderError as exc:
            line = exc.line or 0
            raw = text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else text
            problem = SheetProblem(line, exc.column, raw, exc.message, exc.suggestions)
            return Sheet(problems=[problem], text=text, refusal=exc.message, refusal_at=problem)

    def parse_orders(self, board: _board.RaceBoard, text: str, file: str | None) -> list[_orders.Step]:
        """Turns and set-up steps from text (OrderError with line, column and suggestions)."""
        return _orders.parse_steps(board, text, file)

    def adjudicate(self, board: _board.RaceBoard, state: _state.RaceState, sheet: Sheet) -> GameResult:
        """Resolve the steps in order; refused steps change nothing."""
        return _resolve.adjudicate(board, state, sheet.orders)


RULES = ArcticRaceRules()
