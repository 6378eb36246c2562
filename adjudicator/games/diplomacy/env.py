"""A PettingZoo `ParallelEnv` over any Diplomacy board (`adjudicator.env.parallel_env`): every power acts at once
each phase, observations are the position as structured data, actions are orders (the judge's own order values,
order objects, or indices into each unit's legal orders), rewards the game's end scored by a scoring system.

Each power's *slots* are what it orders this phase: one per unit in a movement phase (its units in location
order), one per dislodged unit in a retreat phase, one per build it may make (at most as many as it has sites)
or removal it owes in an adjustment phase. `infos[power]["legal_orders"][i]` lists slot i's legal orders (the
list `adjudicator legal` prints, as order values with their power) and `observation["action_mask"][i]` marks
them; an action may be
  - a sequence of indices, one per slot (a `MultiDiscrete` sample: entries past the power's slots are ignored,
    -1 gives the slot no order); an index past its slot's list is an `IllegalAction`, naming the valid range;
  - a sequence of order values (`adjudicator.games.diplomacy.orders.model`) or order objects (`{"kind": "move",
    "unit": "A par", "destination": "bur"}`, `orders/structured.py`; the power may be left out): judged as the
    judge judges any order, so an illegal one is refused with its reason (in `infos[power]["result"].report`)
    and its unit holds; an order for another power, or an object that cannot be read, is an `IllegalAction`;
  - None or an empty sequence: no orders (units hold, dislodged units disband, the rules' civil disorder).
A power whose phase asks nothing of it has no slots. Powers stay agents until the game ends, eliminated or not
(a scoring system may score an eliminated power by its year of elimination).

Rewards are 0 until the game ends: at a solo (the board's victory condition, as the judge decides it: every
agent *terminated*), or at `max_phases` phases or `max_years` game years (every agent *truncated*: the game is
stopped, which the scoring systems score as a draw of every survivor); then each power's score under
`scoring` (draw-size by default; any system or choice `adjudicator.scoring.choose` takes) is its reward, and
`infos[power]` holds the `end` (a GameEnd) and the exact `scores`.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from adjudicator.errors import AdjudicatorError
from adjudicator.game_end import EndKind, GameEnd
from adjudicator.games.diplomacy import ending
from adjudicator.games.diplomacy.board import ARMY, FLEET, NEUTRAL, Board
from adjudicator.games.diplomacy.judge.adjustment import adjustments_due, buildable_units
from adjudicator.games.diplomacy.judge.retreat import retreat_options
from adjudicator.games.diplomacy.legal import legal_order_lists
from adjudicator.games.diplomacy.orders.model import Order
from adjudicator.games.diplomacy.orders.structured import orders_from_objects
from adjudicator.games.diplomacy.phase import PhaseResult, adjudicate
from adjudicator.games.diplomacy.report import position_text
from adjudicator.games.diplomacy.state import GameState, check_position, opening_state
from adjudicator.refusals import Kind
from adjudicator.scoring import Scoring, choose

KINDS = {"Movement": "movement", "Retreat": "retreat", "Adjustment": "adjustment"}


class IllegalAction(AdjudicatorError):
    """An action the environment cannot take: an index past its slot's legal orders, another power's order, an
    order object that cannot be read, an agent that is not in the game."""

    kind = Kind.REFUSED


class EnvOptionError(AdjudicatorError):
    """An option of the environment that cannot be used: what is wrong and what would be valid."""


def max_slots(board: Board) -> int:
    """The most slots a power can have: its units never outnumber the board's centres after an adjustment (nor
    its starting units before the first), and it builds or removes no more than that."""
    return max(len(board.centres), max((len(u) for u in board.start_units.values()), default=0), 1)


def max_units(board: Board) -> int:
    """The most units on the board at once (every power's, and the neutral units)."""
    starting = sum(len(u) for u in board.start_units.values()) + len(board.neutral_units)
    return max(starting, len(board.centres) + len(board.neutral_units))


def max_orders(board: Board) -> int:
    """A bound on the legal orders of one slot, from the board's graphs alone: for a unit, its hold, its moves,
    its convoyed moves, a support for each other unit into each space it supports into, and (a fleet that
    convoys) a convoy for each army to each space a convoy reaches; for a build, every unit that could be built;
    for a removal, each unit. (The action mask's width: every legal order has an index under it.)"""
    others = max_units(board) - 1
    best = max_slots(board) + 1
    for season in board.seasons:
        view = board.season(season)
        beside = {p for sea in view.convoy_spaces for p in board.water_adj.get(sea, ())}
        landings = len(beside - view.convoy_spaces)  # the spaces a convoy might land in
        for unit_type, nexts in ((ARMY, view.army_next), (FLEET, view.fleet_next)):
            for location in view.stands[unit_type]:
                count = 1 + len(nexts.get(location, ()))
                count += len(view.support[unit_type].get(location, ())) * others
                if unit_type == ARMY:
                    count += landings
                elif location.partition("/")[0] in view.convoy_spaces:
                    count += others * landings
                best = max(best, count)
    builds = sum(1 + len(board.locations(p)) for p in board.provinces) + 1
    return max(best, builds)


def _text(strings: Sequence[str]) -> spaces.Text:
    """A Text space for names of this board (its characters, any length up to the longest)."""
    chars = set("".join(strings)) | set("0123456789- /")
    return spaces.Text(max_length=max(len(s) for s in strings) + 12, min_length=1, charset=frozenset(chars))


class DiplomacyEnv(ParallelEnv):  # (pettingzoo has no type marker: its classes are Any to mypy)
    """The parallel environment of one Diplomacy board (module docstring)."""

    metadata = {"name": "adjudicator_diplomacy_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, board: Board, rules: str | None = None, scoring: str | Mapping[str, Any] | Scoring | None = None,
                 max_phases: int | None = None, max_years: int | None = None, seed: int | None = None,
                 render_mode: str | None = None, position: GameState | None = None) -> None:
        for name, value in (("max_phases", max_phases), ("max_years", max_years)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise EnvOptionError(f"{name} must be a whole number of at least 1 (or None: no limit), not {value!r}")
        if render_mode not in (None, "ansi"):
            raise EnvOptionError(f"render_mode must be None or 'ansi' (the position as text), not {render_mode!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise EnvOptionError(f"seed must be a whole number or None, not {seed!r}")
        self.board = board
        self.rules = rules
        self.scoring: Scoring = scoring if isinstance(scoring, Scoring) else choose(scoring or "draw-size")
        self.max_phases, self.max_years, self.seed = max_phases, max_years, seed
        self.render_mode = render_mode
        self.start = position
        start = self._start_position()  # (rules and a position refused here, not at the first reset)
        self.possible_agents: list[str] = list(board.powers)
        self.agents: list[str] = []
        self.slots, self.width = max_slots(board), max_orders(board)
        names = [*board.powers, NEUTRAL, *board.provinces, *(board.locations(p)[0] for p in board.provinces),
                 *(loc for p in board.provinces for loc in board.locations(p)), *board.seasons, *KINDS, *KINDS.values(),
                 f"{start.phase}", ARMY, FLEET]
        self._observation_spaces = {a: self._observation_space(names) for a in self.possible_agents}
        self._action_spaces = {a: spaces.MultiDiscrete(np.full(self.slots, self.width, dtype=np.int64))
                               for a in self.possible_agents}
        self.position: GameState = start
        self._seeded = False  # whether a game has been reset yet
        self.phases = 0  # phases judged since the reset
        self.result: PhaseResult | None = None  # the last phase judged
        self.end: GameEnd | None = None

    # --- spaces ---------------------------------------------------------------------------------------------
    def _observation_space(self, names: list[str]) -> spaces.Dict:
        board, text = self.board, _text(names)
        units, centres, slots = max_units(self.board), len(board.centres), self.slots
        unit: dict[str, spaces.Space[Any]] = {"power": text, "type": text, "location": text}
        return spaces.Dict({
            "phase": text, "season": text, "year": spaces.Discrete(2**62, start=-2**61), "kind": text,
            "units": spaces.Sequence(spaces.Dict(unit)),
            "dislodged": spaces.Sequence(spaces.Dict({**unit, "retreats": spaces.Sequence(text)})),
            "centres": spaces.Dict({p: spaces.Sequence(text) for p in board.powers}),
            "counts": spaces.Dict({p: spaces.Dict({"units": spaces.Discrete(units + 1),
                                                   "centres": spaces.Discrete(centres + 1)}) for p in board.powers}),
            "adjustments": spaces.Dict({p: spaces.Discrete(2 * slots + 1, start=-slots) for p in board.powers}),
            "action_mask": spaces.Tuple([spaces.Box(0, 1, (self.width,), np.int8)] * slots),
        })

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation's space (the same object every time): the structured position and the action mask."""
        return self._observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.MultiDiscrete:
        """The action's space (the same object every time): an index into each slot's legal orders."""
        return self._action_spaces[self._known(agent)]

    def _known(self, agent: str) -> str:
        if agent not in self.board.powers:
            raise IllegalAction(f"{agent!r} is no power of {self.board.title}; the powers: "
                                f"{', '.join(self.board.powers)}")
        return agent

    # --- the game -------------------------------------------------------------------------------------------
    def _start_position(self) -> GameState:
        if self.start is not None and self.start.variant != self.board.name:
            raise EnvOptionError(f"the position is one of the {self.start.variant} board, and this environment plays "
                                 f"{self.board.name}")
        state = self.start.copy() if self.start is not None else opening_state(self.board)
        if self.rules is not None:
            state.set_rules(self.board, self.rules)
        check_position(self.board, state)  # (a position of another board refused here, not at the first step)
        return state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game from the start (`options={"position": GameState}`: from that position); `seed` seeds
        the action spaces' sampling (the game itself has no chance in it)."""
        options = dict(options or {})
        position = options.pop("position", None)
        if options:
            warnings.warn(f"reset ignores the options {', '.join(map(str, options))}; it takes 'position'",
                          stacklevel=2)
        if position is not None and not isinstance(position, GameState):
            raise EnvOptionError(f"options['position'] must be a GameState of {self.board.title}, not "
                                 f"{type(position).__name__}")
        if seed is None and not self._seeded:
            seed = self.seed  # (the environment's seed seeds its first game; the next games go on from there)
        self._seeded = True
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self._action_spaces[agent].seed(seed + i)
        if position is not None:
            self.start = position
        self.position = self._start_position()
        self.agents = list(self.possible_agents)
        self.phases, self.result, self.end = 0, None, None
        self._lists = self._legal()
        return self._observations(), self._infos()

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                          dict[str, bool], dict[str, Any]]:
        """Judge the phase with every agent's action (an agent left out orders nothing); the next observations,
        rewards, terminations, truncations and infos."""
        if not self.agents:
            raise IllegalAction("the game is over: reset the environment to play another")
        orders: list[Order] = []
        for agent, action in actions.items():
            if agent not in self.agents:
                raise IllegalAction(f"{agent!r} is not an agent of this game; the agents: {', '.join(self.agents)}")
            orders.extend(self._orders(agent, action))
        self.result = adjudicate(self.board, self.position, orders)
        self.position = self.result.next_state
        self.phases += 1
        self.end = ending.natural_end(self.board, self.position)
        terminated = self.end is not None
        truncated = not terminated and self._at_limit()
        if truncated:
            self.end = ending.end_as(self.board, self.position, EndKind.STOPPED, ())
        agents = self.agents
        scores = self.scoring.scores(self.end) if self.end is not None else {}
        rewards = {a: float(scores.get(a, Fraction(0))) for a in agents}
        self._lists = {} if self.end is not None else self._legal()
        observations, infos = self._observations(), self._infos()
        if self.end is not None:
            for a in agents:
                infos[a].update(end=self.end, scores=scores)
            self.agents = []
        return (observations, rewards, dict.fromkeys(agents, terminated), dict.fromkeys(agents, truncated),
                infos)

    def _at_limit(self) -> bool:
        if self.max_phases is not None and self.phases >= self.max_phases:
            return True
        first = ending.first_year(self.board)
        return self.max_years is not None and self.position.phase.year >= first + self.max_years * self.board.year_step

    # --- slots, actions -------------------------------------------------------------------------------------
    def _legal(self) -> dict[str, tuple[list[str], list[list[Order]]]]:
        """Each power's slots this phase: their labels and their legal orders."""
        board, state = self.board, self.position
        out: dict[str, tuple[list[str], list[list[Order]]]] = {}
        dues = adjustments_due(state, board.powers) if state.phase.type == "Adjustment" else {}
        for power in self.possible_agents:
            lists = legal_order_lists(board, state, power)
            if state.phase.type != "Adjustment":
                labels, orders = list(lists), list(lists.values())
            elif dues[power] > 0:
                sites = len({u.province for u in buildable_units(board, state, power)})
                count = min(dues[power], sites)
                labels, orders = [f"build {i + 1}" for i in range(count)], [lists["builds"]] * count
            elif dues[power] < 0:
                labels = [f"removal {i + 1}" for i in range(-dues[power])]
                orders = [lists["removals"]] * -dues[power]
            else:
                labels, orders = [], []
            if len(orders) > self.slots or any(len(o) > self.width for o in orders):  # (the bounds' own check)
                raise AssertionError(f"{power} has {len(orders)} slots of up to {max(map(len, orders))} orders, "
                                     f"past the spaces' {self.slots} by {self.width}")
            out[power] = labels, orders
        return out

    def _orders(self, agent: str, action: Any) -> list[Order]:
        """The orders an action gives (module docstring)."""
        if action is None:
            return []
        if isinstance(action, (str, bytes, Mapping)) or not isinstance(action, (Sequence, np.ndarray)):
            raise IllegalAction(f"{agent}'s action must be a sequence of indices, of orders or of order objects "
                                f"(or None), not {type(action).__name__}")
        items = list(action)
        if items and all(isinstance(i, (Order, Mapping)) for i in items):
            return self._given_orders(agent, items)
        labels, lists = self._lists[agent]
        orders = []
        for slot, index in enumerate(items[:len(lists)]):
            if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
                raise IllegalAction(f"{agent}'s action mixes indices with {type(index).__name__} (slot {slot}): "
                                    "give one index per slot, or a sequence of orders")
            if index == -1:
                continue
            if not 0 <= index < len(lists[slot]):
                raise IllegalAction(f"{agent}'s slot {slot} ({labels[slot]}) has {len(lists[slot])} legal orders, "
                                    f"indices 0 to {len(lists[slot]) - 1} (or -1: no order); {int(index)} is none of "
                                    f"them (infos[{agent!r}]['legal_orders'][{slot}] lists them)")
            orders.append(lists[slot][index])
        return orders

    def _given_orders(self, agent: str, items: list[Any]) -> list[Order]:
        objects = [dict(i, power=i.get("power", agent)) for i in items if isinstance(i, Mapping)]
        sheet = orders_from_objects(self.board, objects)
        if sheet.problems:
            first = sheet.problems[0]
            raise IllegalAction(f"{agent}'s order object {first.pointer}: {first.reason}", suggestions=first.suggestions)
        read = iter(sheet.orders)
        orders = []
        for item in items:
            order = next(read) if isinstance(item, Mapping) else item
            if order.power is None:
                order = dataclasses.replace(order, power=agent)  # type: ignore[type-var]  # (each kind is one)
            if order.power != agent:
                raise IllegalAction(f"{agent} cannot give {order.power}'s order {order.describe()!r}")
            orders.append(order)
        return orders

    # --- observations ---------------------------------------------------------------------------------------
    def _observations(self) -> dict[str, dict[str, Any]]:
        board, state = self.board, self.position
        unit = lambda u: {"power": u.power, "type": u.type, "location": u.location}  # noqa: E731
        rules, occupied = state.rule_options(board), set(state.units)
        owned = Counter(state.owners.values())
        units = Counter(u.power for u in state.units.values())
        dues = adjustments_due(state, board.powers) if state.phase.type == "Adjustment" else {}
        common = {
            "phase": str(state.phase), "season": state.phase.season, "year": state.phase.year,
            "kind": KINDS[state.phase.type],
            "units": tuple(unit(u) for u in sorted(state.units.values(), key=lambda u: u.location)),
            "dislodged": tuple({**unit(d.unit), "retreats": tuple(retreat_options(
                board, state.phase.season, d, occupied, state.contested, rules))}
                for d in sorted(state.dislodged.values(), key=lambda d: d.unit.location)),
            "centres": {p: tuple(state.centres_of(p)) for p in board.powers},
            "counts": {p: {"units": units[p], "centres": owned[p]} for p in board.powers},
            "adjustments": {p: max(-self.slots, min(self.slots, dues.get(p, 0))) for p in board.powers},
        }
        out = {}
        for agent in self.agents:
            mask = np.zeros((self.slots, self.width), dtype=np.int8)
            for slot, orders in enumerate(self._lists.get(agent, ((), ()))[1]):
                mask[slot, :len(orders)] = 1
            out[agent] = {**common, "action_mask": tuple(mask)}
        return out

    def _infos(self) -> dict[str, dict[str, Any]]:
        return {agent: {"phase": str(self.position.phase), "slots": self._lists.get(agent, ([], []))[0],
                        "legal_orders": self._lists.get(agent, ([], []))[1], "result": self.result}
                for agent in self.agents}

    def render(self) -> str | None:
        """The position as text (render_mode 'ansi'), else None."""
        if self.render_mode != "ansi":
            return None
        return position_text(self.board, self.position)

    def close(self) -> None:
        """Nothing to release."""
