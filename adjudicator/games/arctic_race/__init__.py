"""Arctic Race on the project's machinery: the track and the river of ice floes as a board in
`variants/arctic-race.yaml`, a turn as orders in `grammar/arctic-race.lark`, resolution with a trace, and
YAML cases in `datc_cases/arctic-race/`. The reference board and its assumptions R1..R30 are
shared/boards/arctic-race-board.md; this game's own assumptions are in `variants/arctic-race.md`.

The flow: text -> steps (`orders`) -> checked turns and their resolution (`resolve`, `movement`) -> results
and the next state (`state`), with the points of `scoring`.
"""

from __future__ import annotations

from typing import Any

from collections.abc import Mapping

from adjudicator.game import PICTURES, GameResult, GameRules, end_by_ranking
from adjudicator.game_end import GameEnd
from adjudicator.render.svg import Picture
from adjudicator.sheets import Sheet, read_bounded, read_items

from . import board as _board
from . import orders as _orders
from . import resolve as _resolve
from . import state as _state
from .scoring import standings
from .show import position_text, standings_lines
from adjudicator.errors import AdjudicatorError
from adjudicator.turn_report import game_result_text


class ArcticRaceRules(GameRules[_board.RaceBoard, _state.RaceState, _orders.Step, GameResult]):
    """The GameRules of Arctic Race."""

    name = "arctic-race"
    year_word = "round"
    capabilities = frozenset({PICTURES})

    def load_board(self, data: dict[str, Any], source: str | None) -> _board.RaceBoard:
        """The board of a variant file (VariantError with the line of a problem)."""
        return _board.load_board(data, source)

    def initial_state(self, board: _board.RaceBoard) -> _state.RaceState:
        """A game waiting for its set-up orders (`players`, `start`, `tiles`)."""
        return _state.initial_state(board)

    def new_game(self, board: _board.RaceBoard, seed: int | None = None, setup_text: str | None = None,
                 file: str | None = None) -> _state.RaceState:
        """A game to set up; `seed` shuffles the tiles (A18), a set-up sheet (`players`, `start`, `river` as laid
        out or `tiles`) sets it up at once (A17). A set-up that cannot be read or is refused is an error."""
        state = _state.initial_state(board)
        if seed is not None:
            state.seed, state.tile_order = seed, _state.shuffled_tiles(board, seed)
        if setup_text is None:
            return state
        sheet = self.read_sheet(board, state, setup_text, file)
        if sheet.problems:
            first = sheet.problems[0]
            raise AdjudicatorError(f"the set-up sheet: {first.reason}", file=file, line=first.line,
                                   column=first.column, suggestions=first.suggestions)
        turns = [s for s in sheet.orders if not isinstance(s, _orders.SetupPart)]
        if turns or not sheet.orders:
            at = turns[0].line if turns else None
            raise AdjudicatorError("a set-up sheet holds only `players ...`, `start ...` and `river ...` or "
                                   "`tiles ...`; turns go to `adjudicator adjudicate`", file=file, line=at)
        result = self.adjudicate(board, state, sheet)
        refused = next((r for r in result.report if r.status != "succeeds"), None)
        if refused is not None:
            raise AdjudicatorError(f"the set-up is refused: {refused.reason}", file=file, line=refused.line)
        result.next_state.history = [self.history_entry(state, sheet, result)]
        return result.next_state

    def submission_state(self, board: _board.RaceBoard, state: _state.RaceState, seat: str) -> _state.RaceState:
        """The position as if it were `seat`'s turn, when the seat still plays this round: a turn sent before its
        turn comes is checked for what it can check (a card held, a racer of one's own), not refused as out of turn."""
        import copy

        if state.to_play is None or seat not in (state.turn_order or []) or seat == state.to_play:
            return state
        played = state.turn_order[: state.turn_order.index(state.to_play)]
        if seat in played:
            return state  # it has played this round: out of turn it is
        preview = copy.deepcopy(state)
        preview.to_play = seat
        return preview

    def state_from_data(self, board: _board.RaceBoard, data: dict[str, Any], file: str | None) -> _state.RaceState:
        """A position from game-file data (StateError with line and pointer)."""
        return _state.state_from_data(board, data, file)

    def state_to_data(self, board: _board.RaceBoard, state: _state.RaceState) -> dict[str, Any]:
        """The position as plain data."""
        return _state.state_to_data(board, state)

    def phase_name(self, state: _state.RaceState) -> str:
        """`set-up`, `round 3, Blue to play` or `game over`."""
        if state.phase == _state.SETUP:
            return "set-up" + (f" (tiles shuffled by seed {state.seed})" if state.tile_order else "")
        if state.phase == _state.OVER:
            return "game over"
        return f"round {state.round}, {state.to_play} to play"

    def game_year(self, state: _state.RaceState) -> int:
        """The round being played (1 at the set-up)."""
        return state.round

    def game_result(self, board: _board.RaceBoard, state: _state.RaceState) -> Mapping[str, Any]:
        """The points of the races finished and the ranking with its tie-break (R26, R27), and once the game is
        over why it ended (`three-home`, `tiles`, `both`)."""
        return {**standings(board, state), **({"reason": state.end_reason} if state.phase == _state.OVER else {})}

    def natural_end(self, board: _board.RaceBoard, state: _state.RaceState) -> GameEnd | None:
        """Game over (three racers home, or the tiles run out): a solo of the first ranked, or a draw of those
        still tied after the tie-break (R27)."""
        if state.phase != _state.OVER or not state.players:
            return None
        kind, winners = end_by_ranking(standings(board, state)["ranking"])
        return self.result_end(board, state, kind, winners)

    def read_sheet(self, board: _board.RaceBoard, state: _state.RaceState | None, text: str,
                   file: str | None = None) -> Sheet[_orders.Step]:
        """The sheet's steps; every unreadable piece is a located problem and the others are read."""
        sheet = read_bounded(lambda: Sheet(*_orders.read_steps(board, text, file), text=text), text)
        return self._for_phase(state, sheet)

    def read_order_lists(self, board: _board.RaceBoard, state: _state.RaceState | None,
                         orders: dict[str, list[str]]) -> Sheet[_orders.Step]:
        """Turns as lists per player, each item one turn of its player ('': the game master's set-up steps)."""
        sheet = self._for_phase(state, read_items(orders, lambda seat, text, n: _orders.read_item(board, seat, text, n)))
        players = [seat for seat, items in orders.items() if seat and items]
        if sheet.refusal and state is not None and state.phase == _state.SETUP and players and "" not in orders:
            # A player's turns before the set-up: the set-up is the game master's to send, not theirs.
            sheet.refusal = ("the game is at its set-up, which the game master sends (`players ...` and `start ...`"
                             f"{'' if state.tile_order else ', and the tiles'}); {', '.join(players)}: send your "
                             "turns once the race has begun")
        return sheet

    def _for_phase(self, state: _state.RaceState | None, sheet: Sheet[_orders.Step]) -> Sheet[_orders.Step]:
        """A sheet for another phase of the game is refused whole, naming it."""
        steps = sheet.orders
        setup = [s for s in steps if isinstance(s, _orders.SetupPart)]
        if state is not None and steps:
            if state.phase == _state.SETUP and not setup:
                sheet.refusal = ("this sheet holds turns, but the game is at its set-up: send `players ...`, "
                                 "`start ...` and `river ...` (as laid out) or `tiles ...` first")
            elif state.phase == _state.OVER:
                sheet.refusal = "the game is over: there is nothing left to play"
            elif state.phase != _state.SETUP and len(setup) == len(steps):
                sheet.refusal = (f"this sheet sets the game up, but it is set up already ({self.phase_name(state)}): "
                                 "send the round's turns")
        return sheet

    def parse_orders(self, board: _board.RaceBoard, text: str, file: str | None) -> list[_orders.Step]:
        """Turns and set-up steps from text, the first unreadable piece raised (OrderError with line, column and
        suggestions): a strict reading for tests and tools."""
        return _orders.parse_steps(board, text, file)

    def adjudicate(self, board: _board.RaceBoard, state: _state.RaceState, sheet: Sheet[_orders.Step]) -> GameResult:
        """Resolve the steps in order; refused steps change nothing."""
        return _resolve.adjudicate(board, state, sheet.orders)

    def report_text(self, board: _board.RaceBoard, state: _state.RaceState, sheet: Sheet[_orders.Step],
                    result: GameResult) -> str:
        """Each step with its outcome, what happened, then the points, the ranking and whose turn is next."""


        return game_result_text(board, result, sheet, standings_lines(board, result.next_state))

    def position_text(self, board: _board.RaceBoard, state: _state.RaceState) -> str:
        """The players' cards, each racer's place, the river and the pile (counted, never shown), the standings."""
        return position_text(board, state, self.phase_name(state))

    def picture(self, board: _board.RaceBoard, state: _state.RaceState, results: Any) -> Picture:
        """The board and its pieces as a picture in layers (`picture.py`)."""
        from .picture import race_picture  # (the picture: loaded when drawn)

        return race_picture(board, state, results)


RULES = ArcticRaceRules()
