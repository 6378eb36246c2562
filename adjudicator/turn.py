"""One turn as the command-line tool and the API both play it: orders in, results out, history kept."""

from __future__ import annotations

from typing import Any

from adjudicator.board import Board
from adjudicator.games import GameResult, get_rules
from adjudicator.orders.sheet import Sheet
from adjudicator.phase import PhaseResult, adjudicate
from adjudicator.report import history_entry
from adjudicator.state import GameState


def play_phase(board: Board, state: GameState, sheet: Sheet) -> PhaseResult:
    """Adjudicate a Diplomacy phase from a read order sheet; the next state's history gains this phase."""
    result = adjudicate(board, state, sheet.orders)
    result.next_state.history = list(state.history) + [history_entry(result, sheet)]
    return result


def play_game_turn(board: Any, state: Any, text: str, file: str | None = None) -> GameResult:
    """Parse and resolve another game's orders; the next state's history gains them and their results."""
    rules = get_rules(board.rules)
    result = rules.adjudicate(board, state, rules.parse_orders(board, text, file))
    result.next_state.history = list(getattr(state, "history", [])) + [
        {"orders": text, "results": [r.to_json() for r in result.report]}]
    return result
