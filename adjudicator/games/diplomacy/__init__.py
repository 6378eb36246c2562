"""Diplomacy as a game on the shared interface: the standard rules, played on any board that uses them
(the standard map, the Arctic variant, a game master's own board).

Everything specific lives in this folder's layers (`board`, `state`, `orders`, `judge`, `phase`, `report`,
`picture`, `cases`, `importers`); this module only maps the interface onto them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.arrival import SeatItem
from collections.abc import Sequence

from adjudicator.errors import AdjudicatorError
from adjudicator.game import ENVIRONMENT, GameRules, LEGAL_ORDERS, PICTURES, RULE_OPTIONS, TEXT_CASES
from adjudicator.game_end import EndKind, GameEnd
from adjudicator.games.diplomacy.arrival import arrival_report, seat_items
from adjudicator.games.diplomacy.board import Board, join_location
from adjudicator.games.diplomacy.board_file import board_from_data
from adjudicator.games.diplomacy.board_check import check_diplomacy_board
from adjudicator.games.diplomacy.cases.runner import run_text_cases
from adjudicator.games.diplomacy import ending
from adjudicator.games.diplomacy.judge.adjustment import adjustment_due, build_sites
from adjudicator.games.diplomacy.judge.retreat import retreat_options
from adjudicator.games.diplomacy.legal import legal_order_parts, legal_orders
from adjudicator.games.diplomacy.orders.model import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support,
                                                      Waive, destination_of, target_of)
from adjudicator.games.diplomacy.orders.sheet import orders_from_lists, read_sheet
from adjudicator.games.diplomacy.orders.structured import orders_from_objects
from adjudicator.games.diplomacy.phase import PhaseResult, adjudicate, phase_json
from adjudicator.games.diplomacy.report import board_json, history_entry, position_text, result_json, result_text
from adjudicator.games.diplomacy.state import GameState, opening_state
from adjudicator.games.diplomacy.state_file import state_from_data, state_to_data
from adjudicator.render.svg import Picture
from adjudicator.outcome import OrderResult
from adjudicator.sheets import Sheet

# The order kinds each kind of phase takes (a move in a retreat phase is read as the retreat).
_PHASE_KINDS: dict[str, tuple[type[Order], ...]] = {
    "Movement": (Hold, Move, Support, Convoy),
    "Retreat": (Retreat, Move, Disband, Remove),
    "Adjustment": (Build, Remove, Disband, Waive),
}
# The phase each kind of order is written for (a removal is an adjustment's, though a retreat phase reads it).
_PHASE_OF: dict[type[Order], str] = {Hold: "Movement", Move: "Movement", Support: "Movement", Convoy: "Movement",
                                     Retreat: "Retreat", Disband: "Retreat", Build: "Adjustment",
                                     Remove: "Adjustment", Waive: "Adjustment"}
_PHASE_WORDS = {"Movement": "movement orders (hold, move, support, convoy)",
                "Retreat": "retreat orders (retreat or disband)",
                "Adjustment": "adjustment orders (build, remove or waive)"}


def check_phase(state: GameState | None, sheet: Sheet[Order]) -> Sheet[Order]:
    """A sheet whose every order is for another kind of phase is refused, naming the game's phase.

    (A single misplaced order is left to the judge, which reports it on its line.)"""
    if state is None:  # read without a position (`/v1/orders/parse`): nothing to check against
        return sheet
    phase = state.phase.type
    wanted = _PHASE_KINDS[phase]
    if sheet.orders and not any(isinstance(o, wanted) for o in sheet.orders):
        other = Counter(_PHASE_OF[type(o)] for o in sheet.orders).most_common(1)[0][0]
        sheet.refusal = (f"this sheet holds {_PHASE_WORDS[other]}, but the game is at {state.phase}: "
                         f"send {_PHASE_WORDS[phase]}")
    return sheet


class DiplomacyRules(GameRules[Board, GameState, Order, PhaseResult]):
    """The GameRules of Diplomacy and every board played by its rules."""

    name = "diplomacy"
    game_steps = False  # every order is a power's
    scored_by_centres = True
    capabilities = frozenset({LEGAL_ORDERS, PICTURES, TEXT_CASES, RULE_OPTIONS, ENVIRONMENT})

    def load_board(self, data: dict[str, Any], source: str | None) -> Board:
        """The board of a variant file (VariantError with the line of a problem)."""
        return board_from_data(data, source=source)

    def initial_state(self, board: Board) -> GameState:
        """The opening position."""
        return opening_state(board)

    def state_from_data(self, board: Board, data: dict[str, Any], file: str | None) -> GameState:
        """A position from game-file data, every rule checked (StateError with line and pointer)."""
        return state_from_data(data, file, board)

    def state_to_data(self, board: Board, state: GameState) -> dict[str, Any]:
        """The position as plain data (without `variant`)."""
        data = state_to_data(board, state)
        data.pop("variant", None)
        return data

    def check_board(self, data: dict[str, Any], source: str) -> list[AdjudicatorError]:
        """Unknown spaces, one-sided borders, unreachable spaces, bad starting units... each with its line."""
        return check_diplomacy_board(data, source)

    def board_json(self, board: Board) -> dict:
        """Every space with its names, kind, terrain by season and centre; borders; powers; calendar."""
        return board_json(board)

    def phase_name(self, state: GameState) -> str:
        """`Fall 2010 Movement`."""
        return str(state.phase)

    def phase_kind(self, state: GameState) -> str:
        """`movement`, `retreat` or `adjustment`: the phase's type."""
        return ending.PHASE_KINDS[state.phase.type]

    def game_year(self, state: GameState) -> int:
        """The phase's year."""
        return state.phase.year

    def survivors(self, board: Board, state: GameState) -> list[str]:
        """The powers with at least one centre or unit."""
        return state.survivors(board)

    def natural_end(self, board: Board, state: GameState) -> GameEnd | None:
        """A solo, once a power holds the victory centres (the judge's `winner`), in the last judged phase's year."""
        return ending.natural_end(board, state)

    def end_as(self, board: Board, state: GameState, kind: EndKind, powers: Sequence[str] = ()) -> GameEnd:
        """A draw (no powers: DIAS), a concession, stopped or abandoned, in the last judged phase's year
        (adjudicator/games/diplomacy/ending.py); each power's centres and recorded year of elimination."""
        named = ([ending.power_named(board, str(p).strip()) for p in powers] if kind is EndKind.SOLO
                 else self.named_powers(board, state, kind, powers))
        return ending.end_as(board, state, kind, named)

    def power_named(self, board: Board, state: GameState, given: str) -> str:
        """The power a name, abbreviation or alias names (`eng`, `England`)."""
        return ending.power_named(board, given)

    def eliminated_in(self, state: GameState, power: str) -> int | None:
        """The year the judge recorded the power's elimination in."""
        return state.eliminated.get(power)

    def actors(self, board: Board, state: GameState) -> list[str]:
        """The powers with a unit to order, a dislodged unit to retreat, or a build or removal due."""
        kind = state.phase.type
        if kind == "Movement":
            return [p for p in board.powers if state.units_of(p)]
        if kind == "Retreat":
            return [p for p in board.powers if any(d.unit.power == p for d in state.dislodged.values())]
        return [p for p in board.powers
                if adjustment_due(state, p) < 0 or (adjustment_due(state, p) > 0 and build_sites(board, state, p))]

    def choosers(self, board: Board, state: GameState) -> list[str]:
        """The actors with a choice: a dislodged unit with somewhere to retreat, a build with a site (or a waive),
        more units than removals due; a forced disband is no choice, so not sending it is no NMR."""
        kind = state.phase.type
        if kind == "Movement":
            return self.actors(board, state)
        if kind == "Retreat":
            occupied, rules = set(state.units), state.rule_options(board)
            return [p for p in self.actors(board, state) if any(
                d.unit.power == p and retreat_options(board, state.phase.season, d, occupied, state.contested, rules)
                for d in state.dislodged.values())]
        return [p for p in self.actors(board, state)
                if adjustment_due(state, p) > 0 or len(state.units_of(p)) > -adjustment_due(state, p)]

    def void_known_on_arrival(self, board: Board, state: GameState, seat: str, order: Order) -> bool:
        """A void support or convoy is void whatever the others order when the unit it names is the seat's own."""
        target = getattr(order, "target", None)
        unit = state.units.get(target.province) if target is not None else None
        return unit is not None and unit.power == seat

    def seat_items(self, board: Board, state: GameState, seat: str, text: str) -> list[SeatItem]:
        """A power's text body split as its sheet is read: headers, comments and blank lines are no orders."""
        return seat_items(board, state, seat, text)

    def arrival_report(self, board: Board, state: GameState, seat: str, sheet: Sheet[Order]) -> list[OrderResult]:
        """One power's orders checked without judging the board: the validation's refusals, and the supports and
        convoys void with every other unit holding (adjudicator/games/diplomacy/arrival.py)."""
        return arrival_report(board, state, sheet.orders)

    def read_sheet(self, board: Board, state: GameState | None, text: str, file: str | None = None) -> Sheet[Order]:
        """Orders and located problems; orders for another kind of phase are reported as such."""
        return check_phase(state, read_sheet(board, text, file=file, state=state))

    def read_order_lists(self, board: Board, state: GameState | None, orders: dict[str, list[str]]) -> Sheet[Order]:
        """Orders given as lists of strings per power."""
        return check_phase(state, orders_from_lists(board, orders, state=state))

    def order_json(self, order: Order) -> dict[str, Any]:
        """An order's power, text, line, kind, unit, target, destination, convoy flag and canonical form."""
        unit = lambda ref: None if ref is None else {"type": ref.type, "location": ref.location}  # noqa: E731
        dest = destination_of(order)
        return {"power": order.power, "text": order.text, "line": order.line, "kind": order.kind,
                "unit": unit(order.unit), "target": unit(target_of(order)),
                "destination": join_location(*dest) if dest else None,
                "via_convoy": isinstance(order, Move) and order.via_convoy, "canonical": order.describe()}

    def read_order_objects(self, board: Board, state: GameState | None, objects: list[Any]) -> Sheet[Order]:
        """Orders as objects {power, kind, unit, target, destination, coast, via_convoy}: no text, no grammar."""
        return check_phase(state, orders_from_objects(board, objects))

    def text_cases(self, path: Any, rules: str | None = None) -> list[Any]:
        """The outcomes of a DATC plain-text case file's cases."""
        return run_text_cases(path, rules)

    def adjudicate(self, board: Board, state: GameState, sheet: Sheet[Order]) -> PhaseResult:
        """The phase's results and next position (a PhaseResult)."""
        return adjudicate(board, state, sheet.orders)

    def history_entry(self, state: GameState, sheet: Sheet[Order], result: PhaseResult) -> dict[str, Any]:
        """The orders as written and their outcomes."""
        return history_entry(result, sheet)

    def report_json(self, board: Board, state: GameState, sheet: Sheet[Order], result: PhaseResult) -> dict[str, Any]:
        """Every order's outcome and reason, dislodged units, centre changes, next phase, winner."""
        return result_json(board, result, sheet)

    def drawn(self, board: Board, state: GameState, sheet: Sheet[Order], result: PhaseResult) -> dict[str, Any]:
        """The phase's read orders and outcomes as its picture draws them (picture/results.py's Drawing)."""
        from adjudicator.games.diplomacy.picture.results import drawing_of  # (the picture: loaded when first used)
        return drawing_of(board, result).to_json()

    def report_text(self, board: Board, state: GameState, sheet: Sheet[Order], result: PhaseResult) -> str:
        """The judge's report as a game master mails it."""
        return result_text(board, result, sheet)

    def position_text(self, board: Board, state: GameState) -> str:
        """Each power's centres and units, dislodged units, neutral centres."""
        return position_text(board, state)

    def legal_orders(self, board: Board, state: GameState, power: str | None, parts: bool = False) -> dict[str, Any]:
        """Each unit's legal orders (or the builds and removals) per power, and the adjustments due; `parts`: each
        order's parts too, as a page picks them on the map (`legal.order_parts`)."""
        powers = [board.power_names.lookup(power, "power")] if power else list(board.powers)
        due = {p: adjustment_due(state, p) for p in powers} if state.phase.type == "Adjustment" else {}
        data = {"phase": phase_json(state.phase), "powers": {p: legal_orders(board, state, p) for p in powers},
                "adjustments": due}
        if parts:
            data["parts"] = {p: legal_order_parts(board, state, p) for p in powers}
        return data

    def play_by(self, board: Board, state: GameState, *texts: str | None, what: str = "rules") -> None:
        """Play by rule options (adjudicator/games/diplomacy/rulebook.py), each text over the rules in force."""
        state.set_rules(board, *texts, what=what)

    def parallel_env(self, board: Board, **options: Any) -> Any:
        """The board as a PettingZoo ParallelEnv (adjudicator/games/diplomacy/env.py: the env extra's)."""
        from adjudicator.games.diplomacy.env import DiplomacyEnv  # (pettingzoo and gymnasium: loaded when asked for)
        return DiplomacyEnv(board, **options)

    def picture(self, board: Board, state: GameState, results: Any) -> Picture:
        """The position as a picture in layers, with a phase's orders drawn when given."""
        from adjudicator.games.diplomacy.picture.draw import diplomacy_picture  # (an extra's parts: loaded when drawn)
        return diplomacy_picture(board, state, results)


RULES = DiplomacyRules()
