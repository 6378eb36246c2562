"""Arctica: migration on the Arctic Circle, melting ice floes, Events that make tokens flee, majority scoring
and Colony placements with their Connections, on the project's machinery.

The flow, module by module: `board` (variants/arctica.yaml -> networkx graphs) -> `state` (game and case
files) -> `orders` (text -> orders through grammar/arctica.lark) -> `resolve` (each order on a copy of the
state: `migration`, `melting`, `majorities`, `events`, `colony`, with `arrival`, `bonuses` and `rounds`)
-> report lines with reasons and the next state. Refused orders (`refusals`) change nothing.
The rules and the reference board are those of shared/boards/arctica-board.md (C1..C34) and
variants/arctica.md (AR1..).
"""

from __future__ import annotations

from typing import Any

from collections.abc import Mapping

from adjudicator.game import PICTURES, GameResult, GameRules, end_by_ranking, ranked_by_points
from adjudicator.game_end import GameEnd
from adjudicator.render.svg import Picture
from adjudicator.sheets import Sheet, read_bounded
from adjudicator.games.arctica import board as _board
from adjudicator.games.arctica import rounds as _rounds
from adjudicator.games.arctica import state as _state
from adjudicator.games.arctica.orders import Order, parse_sheet, read_order_lists, read_sheet
from adjudicator.games.arctica.resolve import adjudicate as _adjudicate
from adjudicator.games.arctica.show import position_text, summary_lines
from adjudicator.turn_report import game_result_text


class ArcticaRules(GameRules[_board.Board, _state.State, Order, GameResult]):
    """The GameRules of Arctica."""

    name = "arctica"
    year_word = "round"
    capabilities = frozenset({PICTURES})

    def load_board(self, data: dict[str, Any], source: str | None) -> _board.Board:
        """The board of a variant file (VariantError with the line of any problem)."""
        return _board.load_board(data, source)

    def initial_state(self, board: _board.Board) -> _state.State:
        """The position after setup, with the variant's default table."""
        return _state.initial_state(board)

    def state_from_data(self, board: _board.Board, data: dict[str, Any], file: str | None) -> _state.State:
        """A state from game-file or case-file data (StateError naming line and pointer)."""
        return _state.state_from_data(board, data, file)

    def state_to_data(self, board: _board.Board, state: _state.State) -> dict[str, Any]:
        """The state as plain data."""
        return _state.state_to_data(board, state)

    def phase_name(self, state: _state.State) -> str:
        """`round 2, turn 3, Joelle is the Leader`, or the end of the round in progress."""
        if state.end_steps:
            return f"round {state.round}, end of round ({', '.join(state.end_steps)} done)"
        return f"round {state.round}, turn {state.turn}, {state.leader or state.players[0]} is the Leader"

    def game_year(self, state: _state.State) -> int:
        """The round being played, or whose end is being resolved."""
        return state.round

    def game_result(self, board: _board.Board, state: _state.State) -> Mapping[str, Any]:
        """Each player's Biodiversity Points as the engine counts them, and the ranking by them (the tied share
        a place: the Fauna cards of the rulebook's tie-break and end-of-game points are not kept by the engine)."""
        points = {p: state.me(p).bp for p in state.players}
        return {"points": points, "ranking": ranked_by_points(points, state.players),
                "note": "Biodiversity Points scored in the rounds; the end of the game's points for Fauna cards, "
                        "Release Zone and Wheels are counted at the table"}

    def game_over(self, board: _board.Board, state: _state.State) -> bool:
        """Whether the last round's End of Round steps are all done (the game ends after them): melt, each
        scored region's majority, the Double Region token's events."""
        if state.round < board.last_round():
            return False
        card = board.rounds[state.round]
        done = set(state.end_steps)
        regions = {"majority": _rounds.scored_regions(board, state), "events": _rounds.token_regions(state)}
        return all(all(f"{kind} {r}" in done for r in regions[kind]) if kind in regions else kind in done
                   for kind in card.steps)

    def natural_end(self, board: _board.Board, state: _state.State) -> GameEnd | None:
        """The end of the game, after the last round's End of Round steps: a solo of the player with the most
        Biodiversity Points, or a draw of those tied."""
        if not self.game_over(board, state):
            return None
        result = self.game_result(board, state)
        kind, winners = end_by_ranking(result["ranking"])
        return self.result_end(board, state, kind, winners)

    def read_sheet(self, board: _board.Board, state: _state.State | None, text: str,
                   file: str | None = None) -> Sheet[Order]:
        """The sheet's orders and steps; every unreadable piece is a located problem and the rest is read."""
        def read() -> Sheet[Order]:
            orders, problems = read_sheet(board, text, file)
            return Sheet(orders=orders, problems=problems, text=text)

        return read_bounded(read, text)

    def read_order_lists(self, board: _board.Board, state: _state.State | None,
                         orders: dict[str, list[str]]) -> Sheet[Order]:
        """Orders as lists per player, each item one order of its player ('': the game master's steps)."""
        return read_order_lists(board, orders)

    def parse_orders(self, board: _board.Board, text: str, file: str | None) -> list[Order]:
        """Orders and steps from a sheet, the first unreadable piece raised (OrderError with line, column and
        suggestions): a strict reading for tests and tools."""
        return parse_sheet(board, text, file)

    def adjudicate(self, board: _board.Board, state: _state.State, sheet: Sheet[Order]) -> GameResult:
        """Resolve the orders in the order written; refused ones change nothing."""
        return _adjudicate(board, state, sheet.orders)

    def picture(self, board: _board.Board, state: _state.State, results: Any) -> Picture:
        """The board and its pieces as a picture in layers (`picture.py`)."""
        from .picture import arctica_picture  # (the picture: loaded when drawn)

        return arctica_picture(board, state, results)


    def report_text(self, board: _board.Board, state: _state.State, sheet: Sheet[Order], result: GameResult) -> str:
        """Each step with its outcome, what happened, then the Biodiversity Points and majorities scored."""
        return game_result_text(board, result, sheet, summary_lines(result.next_state, result.summary))

    def position_text(self, board: _board.Board, state: _state.State) -> str:
        """The players' counters, the circle, the tokens on the board, the Event tiles and Double Region tokens
        (counted while face down)."""
        return position_text(board, state, self.phase_name(state))


RULES = ArcticaRules()
