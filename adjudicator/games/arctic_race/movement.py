"""What an action does to the position: racer movement with its chains, and the four action icons (board
sections 7.4-7.6). Everything happens on a copy of the state, and every step is written down; a missing or
wrong input raises `Refused`, so the caller drops the copy and the turn changes nothing.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from adjudicator.grammar_tools import and_list
from adjudicator.refusals import StepRefused

from .board import FIN, WATER, RaceBoard
from .orders import Roll, Turn
from .state import Racer, RaceState, racer_name


class Refused(StepRefused):
    """A step that breaks a rule: its refusal code (board section 7.8) and why."""


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th..."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def where(space: Any) -> str:
    """A position in words: `the start`, `space 12`, `the finish`."""
    return "the start" if space == 0 else "the finish" if space == FIN else f"space {space}"


class Inputs:
    """The turn's die results and token holders, consumed in the order written."""

    def __init__(self, turn: Turn):
        self.rolls: deque[Roll] = deque(turn.rolls)
        self.tokens: deque[str] = deque(turn.tokens)
        self.draws: deque[str] = deque(turn.draws)

    def roll(self, player: str) -> Roll:
        """The next die result, or a refusal saying that one is needed."""
        if not self.rolls:
            raise Refused("bad-input", f"{player} rolls the die here: give the result in the turn, e.g. "
                                       f"', roll 4' or ', roll black racer 1'")
        return self.rolls.popleft()

    def token(self, player: str) -> str:
        """The next new holder of the start token, or a refusal saying that one is needed."""
        if not self.tokens:
            raise Refused("bad-input", f"the start token moves here: say who {player} gives it to, e.g. "
                                       f"', token to Blue'")
        return self.tokens.popleft()

    def draw(self, slot: str) -> str:
        """The tile drawn from a face-down pile, or a refusal saying that it is needed (A17)."""
        if not self.draws:
            raise Refused("bad-input", f"a tile is drawn from the face-down pile into {slot} here: say which, e.g. "
                                       f"', draw T15'")
        return self.draws.popleft()

    def drawn(self) -> str | None:
        """The next stated draw, if any, taken off the list (checked against a known pile)."""
        return self.draws.popleft() if self.draws else None

    def unused(self) -> list[str]:
        """Inputs the turn never needed."""
        return [str(r) for r in self.rolls] + [f"token to {t}" for t in self.tokens] + [f"draw {t}" for t in self.draws]


class Resolution:
    """Carries out actions for one turn on a state copy, and writes what happened."""

    def __init__(self, board: RaceBoard, state: RaceState, inputs: Inputs):
        self.board, self.state, self.inputs = board, state, inputs
        self.events: list[str] = []
        self.track = board.track(state.river)

    def icon(self, space: Any) -> str:
        """The icon on a track space now (tile icons follow their tiles)."""
        return self.track.nodes[space].get("icon", "none")

    # ------------------------------------------------------------ movement (R17, R18, R19, R23)

    def move(self, racer: Racer, steps: int) -> Any:
        """Move a racer forward; returns where it came to rest (a space or FIN), before any icon acts."""
        board, state = self.board, self.state
        start = state.racers[racer]
        name = racer_name(racer)
        state.racers[racer] = None  # lifted off its space: it never blocks itself
        space = board.ahead(start, steps)
        hops: list[str] = []
        while True:
            if space == FIN:
                break
            occupant = state.occupant(space)
            if occupant is not None:  # any colour, the mover's own too: on to the next free space (R17)
                hops.append(f"over {racer_name(occupant)} on {space}")
                space = board.ahead(space, 1)
                continue
            icon = self.icon(space)
            if icon != WATER and board.icons[icon].kind == "move_on":  # +N acts at every landing, so +N chains
                hops.append(f"carried by the {icon} on {space}")
                space = board.ahead(space, board.icons[icon].spaces)
                continue
            break
        path = (f"{name} moves {steps} space{'s' if steps != 1 else ''} from {where(start)} to {where(space)}"
                + (f" ({', '.join(hops)})" if hops else ""))
        if space == FIN:  # beyond the last space: the excess is ignored, no icon acts (R19)
            del state.racers[racer]
            order = state.finished.setdefault(racer[1], [])
            order.append(racer[0])
            state.finished = dict(sorted(state.finished.items()))
            self.events.append(f"{path}: {ordinal(len(order))} home in race {racer[1]}")
            return FIN
        icon = self.icon(space)
        if icon == WATER:  # it stopped on open water: it falls in and starts again (R23)
            state.racers[racer] = 0
            self.events.append(f"{path}: open water there, so {name} falls in and goes back to the start")
            return space
        state.racers[racer] = space
        spec = board.icons[icon]
        if spec.kind != "action":
            self.events.append(path)
            return space
        self.events.append(f"{path} and stops on the {icon} icon")
        self.act(racer[0], spec.action)  # one action icon, on the final space, for the mover's owner (R18)
        return space

    # ------------------------------------------------------------ actions (R12, R16, R20, R21)

    def act(self, player: str, action: str) -> None:
        """Carry out an action icon or a card's alternative for a player."""
        {"die": self.roll, "push": lambda _: self.push(), "start": self.pass_token, "collect": self.collect}[
            action](player)

    def roll(self, player: str) -> None:
        """Roll the die: face k moves the player's racer k by k spaces, black one racer of choice one (R20)."""
        board, state = self.board, self.state
        roll = self.inputs.roll(player)
        if roll.face not in board.die_faces:
            raise Refused("bad-input", f"{roll.face!r} is not a face of the die ({', '.join(board.die_faces)})")
        if roll.face == "black":
            if roll.racer is None:
                raise Refused("bad-input", f"{player} rolled black and chooses a racer to move one space: write "
                                           f"'roll black racer N'")
            if roll.racer not in board.racers:
                raise Refused("bad-input", f"there is no racer {roll.racer}; racers are {board.racers}")
            if state.is_finished(player, roll.racer):
                raise Refused("black-racer-finished", f"{player} {roll.racer} has finished: the black face moves "
                                                      f"a racer still in the race")
            self.events.append(f"{player} rolls black and moves {player} {roll.racer} one space")
            self.move((player, roll.racer), 1)
            return
        if roll.racer is not None:
            raise Refused("bad-input", f"only the black face lets {player} choose a racer; {roll.face} moves "
                                       f"{player} {roll.face}")
        number = int(roll.face)
        if state.is_finished(player, number):
            self.events.append(f"{player} rolls {number}: {player} {number} has finished, nothing happens")
            return
        self.events.append(f"{player} rolls {number}")
        self.move((player, number), number)  # face k: racer k moves k spaces (R20); die icons chain

    def push(self) -> None:
        """Shift the river one slot toward the finish (R21): the last slot's racers and tile leave first."""
        board, state = self.board, self.state
        last = len(board.slots) - 1
        slot_of = {space: board.slot_of(space) for space in board.river_spaces()}
        leaving = [r for r, s in state.racers.items() if s in slot_of and slot_of[s][0] == last]
        for racer in leaving:  # the pusher's own racers are not spared
            state.racers[racer] = 0
        tile = state.river[last]
        gone = f"{tile} leaves the game" if tile != WATER else "open water flows off"
        self.events.append(f"the river is pushed: {gone}" + (
            f", and {and_list([racer_name(r) for r in leaving])} go{'es' if len(leaving) == 1 else ''} back to the "
            f"start with it" if leaving else ""))
        if tile != WATER:
            state.out.append(tile)
        carried = []
        for racer, space in state.racers.items():  # carried with their tile: not a move, no icon acts (R21)
            if space in slot_of:
                index, place = slot_of[space]
                state.racers[racer] = board.slots[index + 1][place]
                carried.append(f"{racer_name(racer)} from {space} to {state.racers[racer]}")
        if carried:
            self.events.append("carried with their tiles: " + ", ".join(carried))
        if state.pile:
            new = state.pile.pop(0)
            stated = self.inputs.drawn()
            if stated is not None and stated != new:
                raise Refused("bad-input", f"the top of the pile is {new}, not {stated}")
            self.events.append(f"{new} enters {board.slot_names[0]}")
        elif state.pile_unknown:  # a real set-up: the sheet says what was drawn (A17)
            new = self.inputs.draw(board.slot_names[0])
            if new in state.seen_tiles() or new in state.river:
                raise Refused("bad-input", f"{new} cannot be in the face-down pile: it is "
                                           f"{'in the river' if new in state.river else 'out of the game'}")
            state.pile_unknown -= 1
            self.events.append(f"{new} is drawn and enters {board.slot_names[0]} ({state.pile_unknown} left face down)")
        else:  # the pile is empty: open water, and this round is the last (R22, R25)
            new = WATER
            self.events.append(f"the pile is empty: {board.slot_names[0]} is open water; the game ends after "
                               f"this round")
        state.river = [new] + state.river[:last]
        self.track = board.track(state.river)

    def pass_token(self, player: str) -> None:
        """The start token must change owner; the new order begins next round (R16)."""
        state = self.state
        new = self.inputs.token(player)
        if new not in state.players:
            raise Refused("bad-input", f"{new} is not playing; the players are {', '.join(state.players)}")
        if new == state.start_token:
            raise Refused("token-must-move", f"{new} holds the start token already: it must change owner")
        self.events.append(f"{player} gives the start token to {new} (from the next round)")
        state.start_token = new

    def collect(self, player: str) -> None:
        """Take back every played card, the one revealed this turn included (R12)."""
        state = self.state
        self.events.append(f"{player} collects {', '.join(map(str, state.played[player]))}")
        state.hands[player] = self.board.card_order()
        state.played[player] = []
