"""The turn driver: each order or step resolved on a copy of the state that is kept only if no rule is broken.
Steps apply in the order written; the players' orders of one turn apply in seat order from the Leader when
the turn has a Colony order (C33, AR7). Every order (and every flight) gets one report line with its reason."""

from __future__ import annotations

from typing import Callable

from adjudicator.game import GameResult
from adjudicator.games.arctica.board import Board
from adjudicator.games.arctica.colony import colonise
from adjudicator.games.arctica.events import resolve_event
from adjudicator.games.arctica.majorities import score
from adjudicator.games.arctica.melting import melt
from adjudicator.games.arctica.migration import migrate
from adjudicator.games.arctica.orders import Colony, Event, Majority, Melt, Migration, NextRound, NextTurn, Order
from adjudicator.games.arctica.refusals import Refused
from adjudicator.games.arctica.rounds import (begin_step, card_shows, check_action_time, next_round, next_turn,
                                              scored_regions)
from adjudicator.games.arctica.state import State
from adjudicator.outcome import ILLEGAL, SUCCEEDS, VOID, OrderResult
from adjudicator.names import AmbiguousName, UnknownName


def _player(state: State, name: str) -> str:
    """The player an order names, exactly as the state spells them."""
    try:
        return state.player_names().lookup(name, "player")
    except (UnknownName, AmbiguousName) as exc:
        hint = f"; did you mean {', '.join(exc.suggestions)}?" if exc.suggestions else ""
        raise Refused("unknown-player", f"{exc.message}; players are {', '.join(state.players)}{hint}") from None


class _Turn:
    """The state as it stands after the orders resolved so far, and the report being written."""

    def __init__(self, board: Board, state: State):
        self.board = board
        self.state = state.copy()
        self.report: list[OrderResult] = []
        self.trace: list[str] = []
        self.majorities: dict[str, dict[str, int]] = {}

    def attempt(self, who: str | None, text: str, line: int | None, step: Callable[[State], str]) -> Refused | None:
        """Run a step on a copy; keep the copy and report success, or report the refusal and keep the state."""
        work = self.state.copy()
        try:
            what = step(work)
        except Refused as refused:
            self.report.append(OrderResult(who, text, ILLEGAL, refused.reason, line=line, cause={"code": refused.code}))
            self.trace.append(f"{who + ': ' if who else ''}{text}: refused, {refused.message}")
            return refused
        self.state = work
        self.report.append(OrderResult(who, text, SUCCEEDS, what, line=line))
        self.trace.append(f"{who + ': ' if who else ''}{what}")
        return None

    def player_order(self, order: Migration | Colony) -> None:
        def step(work: State) -> str:
            player = _player(work, order.player)
            check_action_time(work)
            if isinstance(order, Migration):
                return migrate(self.board, work, player, order)
            return colonise(self.board, work, player, order)
        self.attempt(order.player, order.text, order.line, step)

    def melt(self, order: Melt) -> None:
        if not card_shows(self.board, self.state, "melt"):
            reason = f"nothing melts at the end of round {self.state.round}: its End of Round card shows no melting"
            self.report.append(OrderResult(None, order.text, VOID, reason, line=order.line))
            return

        def step(work: State) -> str:
            begin_step(self.board, work, "melt")
            return melt(self.board, work)
        self.attempt(None, order.text, order.line, step)

    def majority(self, order: Majority) -> None:
        regions = [order.region] if order.region else scored_regions(self.board, self.state)
        for region in regions:
            points: dict[str, int] = {}

            def step(work: State, region: str = region) -> str:
                if region not in scored_regions(self.board, work):
                    shown = " and ".join(self.board.regions[r].name for r in scored_regions(self.board, work))
                    raise Refused("region-not-scored", f"round {work.round} scores {shown}, not "
                                                       f"{self.board.regions[region].name}")
                begin_step(self.board, work, "majority", region)
                text, got = score(self.board, work, region)
                points.update(got)
                return text
            text = order.text if order.region else f"{order.text} {region}"
            if self.attempt(None, text, order.line, step) is None:
                self.majorities[region] = points
                self.report[-1].cause = {"awards": dict(points)}

    def event(self, order: Event) -> None:
        outcome: list[str] = []

        def step(work: State) -> str:
            header, flights = resolve_event(self.board, work, order)
            outcome.extend(flights)
            return header
        refused = self.attempt(None, order.text, order.line, step)
        for i, flight in enumerate(order.flights):
            if refused is None:
                self.report.append(OrderResult(flight.player, flight.text, SUCCEEDS, outcome[i], line=flight.line))
                self.trace.append(f"{flight.player}: {outcome[i]}")
            elif refused.index == i:
                self.report.append(OrderResult(flight.player, flight.text, ILLEGAL, refused.reason, line=flight.line,
                                               cause={"code": refused.code}))
            else:
                self.report.append(OrderResult(flight.player, flight.text, VOID, "not resolved: the event was refused "
                                               "(fix it and send the event with all its flights again)",
                                               line=flight.line))

    def next_turn(self, order: NextTurn) -> None:
        self.attempt(None, order.text, order.line, lambda work: next_turn(self.board, work))

    def next_round(self, order: NextRound) -> None:
        self.attempt(None, order.text, order.line, lambda work: next_round(self.board, work))

    def players_turn(self, orders: list[Migration | Colony]) -> None:
        """The players' orders of one turn. With a Colony order, players act one after another clockwise from
        the Leader (rulebook, Colony; C33), so the orders are applied in that order, each player's own in the
        order written; otherwise they are simultaneous and independent, and apply as written."""
        if any(isinstance(o, Colony) for o in orders):
            seats = self.state.seats_from_leader()

            def seat(order: Migration | Colony) -> int:
                try:
                    return seats.index(self.state.player_names().lookup(order.player, "player"))
                except (UnknownName, AmbiguousName):
                    return len(seats)  # refused as unknown-player in its turn; after the players who exist
            ordered = sorted(orders, key=seat)
            if ordered != orders:
                self.trace.append(f"turn {self.state.turn}: Colony is available, so the players act in seat order "
                                  f"from the Leader, {self.state.leader or seats[0]} (C33): "
                                  f"{', '.join(dict.fromkeys(o.player for o in ordered))}")
            orders = ordered
        for order in orders:
            self.player_order(order)


def adjudicate(board: Board, state: State, orders: list[Order]) -> GameResult:
    """Resolve orders and steps; the players' orders between two steps are one turn (`players_turn`)."""
    turn = _Turn(board, state)
    pending: list[Migration | Colony] = []
    for order in orders:
        if isinstance(order, (Migration, Colony)):
            pending.append(order)
            continue
        if pending:
            turn.players_turn(pending)
            pending = []
        if isinstance(order, NextTurn):
            turn.next_turn(order)
        elif isinstance(order, Melt):
            turn.melt(order)
        elif isinstance(order, Majority):
            turn.majority(order)
        elif isinstance(order, Event):
            turn.event(order)
        elif isinstance(order, NextRound):
            turn.next_round(order)
    if pending:
        turn.players_turn(pending)
    summary: dict = {"round": turn.state.round, "scores": {p: turn.state.me(p).bp for p in turn.state.players}}
    if turn.majorities:
        summary["majorities"] = turn.majorities
    return GameResult(turn.report, turn.state, turn.trace, summary)
