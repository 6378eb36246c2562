"""2019: The ARCTIC: ship movement, conflicts, China's automatic move and the Arctic Council's end of turn, on
the project's machinery (board as data in `variants/arctic2019.yaml`, orders through `grammar/arctic2019.lark`,
step-by-step resolution with reasons, YAML case files in `datc_cases/arctic2019/`).

The data flows one way: `board.py` (variant file -> Board with a networkx graph), `orders.py` (text -> steps,
`steps.py`; the syntax for players is `docs/orders/arctic2019.md`), `resolve.py` (steps -> results -> next
state, through `movement.py`, `diplomacy.py`, `protection.py`, `council.py` and `control.py`), `state.py`
(game-file data <-> State).
"""

from __future__ import annotations

from typing import Any

from collections.abc import Mapping

from adjudicator.game import PICTURES, GameResult, GameRules
from adjudicator.game_end import EndKind, GameEnd
from adjudicator.render.svg import Picture
from adjudicator.sheets import Sheet, read_bounded

from . import board as _board
from . import orders as _orders
from . import resolve as _resolve
from . import state as _state
from .board import Board
from .state import State
from .steps import Step
from .show import position_text, summary_lines
from adjudicator.turn_report import game_result_text


class Arctic2019Rules(GameRules[Board, State, Step, GameResult]):
    """The GameRules of 2019: The ARCTIC."""

    name = "arctic2019"
    year_word = "turn"
    capabilities = frozenset({PICTURES})

    def load_board(self, data: dict[str, Any], source: str | None) -> Board:
        """The board from the variant file's data (VariantError with the YAML line)."""
        return _board.load_board(data, source)

    def initial_state(self, board: Board) -> State:
        """The position after set-up."""
        return _state.initial_state(board)

    def players(self, board: Board, state: State) -> list[str]:
        """The Arctic countries in the order of phase 6, by name (China moves by itself)."""
        return [board.country_name(c) for c in board.arctic_countries]

    def state_from_data(self, board: Board, data: dict[str, Any], file: str | None) -> State:
        """A state from game-file data (StateError with line and pointer)."""
        return _state.state_from_data(board, data, file)

    def state_to_data(self, board: Board, state: State) -> dict[str, Any]:
        """The state as plain data, in a fixed order."""
        return _state.state_to_data(board, state)

    def read_sheet(self, board: Board, state: State | None, text: str, file: str | None = None) -> Sheet[Step]:
        """The sheet's steps, and every piece that is not one as a problem (line, column, reason, suggestions)."""
        return read_bounded(lambda: _orders.read_sheet(board, text, file), text, budget=False)  # it bounds its own

    def read_order_lists(self, board: Board, state: State | None, orders: dict[str, list[str]]) -> Sheet[Step]:
        """Steps given as lists per country or player; a problem's line is the step's place in its list."""
        return _orders.read_order_lists(board, orders)

    def adjudicate(self, board: Board, state: State, sheet: Sheet[Step]) -> GameResult:
        """Resolve the steps in order; refused steps change nothing."""
        return _resolve.adjudicate(board, state, sheet.orders)

    def picture(self, board: Board, state: State, results: Any) -> Picture:
        """The board and its pieces as a picture in layers (`picture.py`)."""
        from .picture import arctic2019_picture  # (the picture: loaded when drawn)

        return arctic2019_picture(board, state, results)


    def game_year(self, state: State) -> int:
        """The turn (1 to the board's last, 9)."""
        return state.turn

    def game_result(self, board: Board, state: State) -> Mapping[str, Any]:
        """No points: the final score (raw materials sold, cash, lobbyists, platforms by material) is counted
        at the table, since the engine keeps neither the sales nor the lobbyists; the record says why it ended."""
        return {"points": {}, "ranking": [],
                "note": "the final score is counted at the table (the engine keeps no sales or lobbyists)"}

    def natural_end(self, board: Board, state: State) -> GameEnd | None:
        """The game's end (after the last turn, or a turn in which China controls the pole): stopped by its
        rules, the winner decided by the final score counted at the table."""
        return self.result_end(board, state, EndKind.STOPPED, ()) if state.ended else None

    def phase_name(self, state: State) -> str:
        """`turn 2, law A`, or the game's end."""
        return f"the game is over (turn {state.turn})" if state.ended else f"turn {state.turn}, law {state.law}"

    def report_text(self, board: Board, state: State, sheet: Sheet[Step], result: GameResult) -> str:
        """Each step with its outcome, what happened, then the turn and law that come next."""


        return game_result_text(board, result, sheet, summary_lines(board, result.next_state))

    def position_text(self, board: Board, state: State) -> str:
        """The countries' treasuries, votes, conflicts and ships; ships by sector; control; platforms; money."""
        return position_text(board, state)


RULES = Arctic2019Rules()
