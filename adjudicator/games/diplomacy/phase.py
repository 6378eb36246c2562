"""One phase end to end: orders + position -> results -> next position (and the calendar that follows).

This is the function the case runner, the CLI and the API all call.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from adjudicator.games.diplomacy.board import NEUTRAL, Board
from adjudicator.errors import StateError
from adjudicator.games.diplomacy.judge.adjustment import adjudicate_adjustments, adjustments_due, build_sites, neutral_rebuilds
from adjudicator.games.diplomacy.judge.movement import judge_movement
from adjudicator.outcome import DEFAULT, FAILS, OrderResult
from adjudicator.games.diplomacy.judge.retreat import adjudicate_retreats, retreat_options
from adjudicator.games.diplomacy.orders.model import Order
from adjudicator.games.diplomacy.orders.validate import every_unit_command
from adjudicator.games.diplomacy.state import Dislodged, GameState, Phase, Unit, check_position


@dataclass
class DislodgedReport:
    """A unit dislodged this phase and where it may retreat."""

    unit: Unit
    attacker_origin: str | None
    by_convoy: bool
    retreats: list[str]


@dataclass
class PhaseResult:
    """Everything the judge reports for one phase, and the position that follows.

    The report (a line for every order and unit, with its reason) is written when first read: a program that
    needs only the next position (an AI's search, a benchmark) does not pay for the sentences."""

    phase: Phase
    lines: list[OrderResult] | Callable[[], list[OrderResult]]
    next_state: GameState
    dislodged: list[DislodgedReport] = field(default_factory=list)
    destroyed: list[Unit] = field(default_factory=list)  # dislodged with no retreat
    disbanded_by_terrain: list[Unit] = field(default_factory=list)
    built: list[Unit] = field(default_factory=list)
    removed: list[Unit] = field(default_factory=list)
    centre_changes: list[tuple[str, str | None, str]] = field(default_factory=list)
    skipped: list[tuple[Phase, str]] = field(default_factory=list)
    winner: str | None = None
    contested: list[str] = field(default_factory=list)

    @property
    def report(self) -> list[OrderResult]:
        """Every order's outcome and reason, and a line for each unit without an order."""
        if callable(self.lines):
            self.lines = self.lines()
        return self.lines

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (the next state is serialised by the game-file module)."""
        unit = lambda u: {"power": u.power, "type": u.type, "location": u.location}  # noqa: E731
        return {
            "phase": phase_json(self.phase),
            "orders": [r.to_json() for r in self.report],
            "dislodged": [{**unit(d.unit), "attacker_origin": d.attacker_origin, "by_convoy": d.by_convoy,
                           "retreats": d.retreats} for d in self.dislodged],
            "destroyed": [unit(u) for u in self.destroyed],
            "disbanded_by_terrain": [unit(u) for u in self.disbanded_by_terrain],
            "built": [unit(u) for u in self.built],
            "removed": [unit(u) for u in self.removed],
            "contested": self.contested,
            "centre_changes": [{"centre": c, "from": old, "to": new} for c, old, new in self.centre_changes],
            "skipped": [{**phase_json(p), "reason": why} for p, why in self.skipped],
            "next_phase": phase_json(self.next_state.phase),
            "winner": self.winner,
        }


def phase_json(phase: Phase) -> dict[str, Any]:
    """A phase as JSON-ready data."""
    return {"season": phase.season, "year": phase.year, "type": phase.type, "name": str(phase)}


def adjudicate(board: Board, state: GameState, orders: list[Order]) -> PhaseResult:
    """Adjudicate the state's phase with these orders (each with its power) and compute the next state."""
    check_position(board, state)
    if state.phase.type == "Movement":
        return _movement(board, state, orders)
    if state.phase.type == "Retreat":
        return _retreat(board, state, orders)
    if state.phase.type == "Adjustment":
        return _adjustment(board, state, orders)
    raise StateError(f"unknown phase type {state.phase.type!r}; use Movement, Retreat or Adjustment")


def _movement(board: Board, state: GameState, orders: list[Order]) -> PhaseResult:
    season = state.phase.season
    rules = state.rule_options(board)
    commands, rejected = every_unit_command(board, state, orders)
    idle: frozenset[str] = frozenset()  # the powers in civil disorder: they gave no order (DATC 4.D.9)
    if rules.civil_disorder_support != "succeeds":
        idle = frozenset(u.power for u in state.units.values() if u.power != NEUTRAL).difference(o.power for o in orders)
    moved = judge_movement(board, season, commands, rules, idle)

    units = dict(state.units)
    for origin in moved.moved.values():  # the units that moved leave; those dislodged are taken off
        del units[origin]
    for p in moved.dislodged:
        del units[p]
    units.update(moved.arrivals)
    result = PhaseResult(state.phase, [], state)

    # Units the season's terrain no longer carries are disbanded (dislodged ones too: they do not retreat).
    stands = board.season(season).stands
    if board.movement_stands(season) is not stands:  # (the same: this season strands no unit)
        for p, unit in list(units.items()):
            if unit.location not in stands[unit.type]:
                result.disbanded_by_terrain.append(unit)
                del units[p]
    dislodged: dict[str, Dislodged] = {}
    occupied = set(units)
    for p, d in moved.dislodged.items():
        if d.unit.location not in stands[d.unit.type]:
            result.disbanded_by_terrain.append(d.unit)
            continue
        if d.unit.power == NEUTRAL:  # a neutral unit never retreats
            result.destroyed.append(d.unit)
            continue
        options = retreat_options(board, season, d, occupied, moved.contested, rules)
        if options:
            dislodged[p] = d
            result.dislodged.append(DislodgedReport(d.unit, d.attacker_origin, d.by_convoy, options))
        else:
            result.destroyed.append(d.unit)
    result.contested = sorted(moved.contested)

    disbanded = result.disbanded_by_terrain  # (not `result`: the report, which the result holds, must not hold it)

    def report() -> list[OrderResult]:
        # A unit whose order was refused gets one line: the refusal, with what befell the unit instead.
        refused = {u.province: r for r in rejected if (u := unit_of(r)) is not None and r.status == "illegal"}
        lost = {u.province: u for u in disbanded}
        kept = []
        for explained in moved.explain():
            r, befell = explained.result, explained.befell
            unit = unit_of(r)
            if unit is not None and lost.get(unit.province) == unit:
                terrain = stranded(board, season, unit)
                r.reason += terrain
                befell = (*befell, terrain.removeprefix("; "))
            refusal = refused.get(unit.province) if unit is not None and r.status in (DEFAULT, FAILS) \
                and r.order is None else None
            if refusal is not None:  # (its reason already says the unit holds: only what befell it is added)
                refusal.reason += "".join(f"; {b}" for b in befell)
                refusal.cause.update(r.cause)
                continue
            kept.append(r)
        return rejected + kept

    result.lines = report

    nxt = state.copy(units=units, dislodged=dislodged, contested=frozenset(moved.contested))
    result.next_state = _advance(board, nxt, result)
    return result


def unit_of(result: OrderResult) -> Unit | None:
    """A report line's unit, as Diplomacy's judges write it (the kit's lines name any game's pieces)."""
    return result.unit if isinstance(result.unit, Unit) else None


def stranded(board: Board, season: str, unit: Unit) -> str:
    """What the report adds to the line of a unit left where the season's terrain cannot carry it (disbanded
    after the movement phase), or nothing when it can."""
    stands = board.season(season).stands
    if board.movement_stands(season) is stands or unit.location in stands[unit.type]:
        return ""
    return (f"; disbanded: {board.provinces[unit.province].name} is {board.surface(unit.province, season)} in "
            f"{season} and cannot carry it")


def _retreat(board: Board, state: GameState, orders: list[Order]) -> PhaseResult:
    arrivals, report = adjudicate_retreats(board, state, orders)
    nxt = state.copy()
    nxt.units.update(arrivals)
    nxt.dislodged = {}
    nxt.contested = frozenset()
    result = PhaseResult(state.phase, report, state)
    result.next_state = _advance(board, nxt, result)
    return result


def _adjustment(board: Board, state: GameState, orders: list[Order]) -> PhaseResult:
    built, removed, report = adjudicate_adjustments(board, state, orders)
    nxt = state.copy()
    for unit in removed:
        nxt.units.pop(unit.province, None)
    nxt.units.update(built)
    for unit in neutral_rebuilds(board, nxt):  # after the powers' builds: a power's build there comes first
        nxt.units[unit.province] = unit
        built[unit.province] = unit
        report.append(OrderResult(NEUTRAL, f"build {unit.type} {unit.location}", DEFAULT,
                                  "a neutral unit is rebuilt where it stood at the start (its place is empty and unowned)",
                                  unit=unit))
    result = PhaseResult(state.phase, report, state, built=list(built.values()), removed=removed)
    result.next_state = _advance(board, nxt, result)
    return result


# ----- the calendar ------------------------------------------------------------------------------------
def _step_index(board: Board, phase: Phase) -> int:
    for i, step in enumerate(board.calendar):
        if step.season == phase.season and step.type == phase.type:
            return i
    raise StateError(f"{phase.season} {phase.type} is not a phase of the {board.title} calendar")


def _end_of_step(board: Board, state: GameState, result: PhaseResult, step: Any) -> None:
    """After a calendar step: centre ownership updated where the step says, victory checked where it says."""
    if step.centres:
        _update_centres(board, state, result)
    if step.centres if step.victory is None else step.victory:
        result.winner = winner(board, state) or result.winner


def _update_centres(board: Board, state: GameState, result: PhaseResult) -> None:
    for province in board.centres:
        unit = state.units.get(province)
        if unit is not None and unit.power != NEUTRAL and state.owners.get(province) != unit.power:
            result.centre_changes.append((province, state.owners.get(province), unit.power))
            state.owners[province] = unit.power


def winner(board: Board, state: GameState) -> str | None:
    """The power that has won under the game's victory option, if one has."""
    options = state.rule_options(board)
    victory = options.victory
    owned = Counter(state.owners.values())
    counts = sorted(((owned[p], p) for p in board.powers), key=lambda c: -c[0])
    if not counts:
        return None
    best, power = counts[0]
    second = counts[1][0] if len(counts) > 1 else 0
    if victory.rule == "lead":  # at least `centres` (0: no minimum) and `lead` more than every other power
        return power if best >= victory.centres_in(state.phase.year) and best - second >= victory.lead else None
    return power if best >= board.victory_centres(options, state.phase.year) and best > second else None


def adjustments_needed(board: Board, state: GameState) -> bool:
    """Whether some power has a build it can make or a unit it must remove."""
    dues = adjustments_due(state, board.powers)
    for power in board.powers:
        due = dues[power]
        if due < 0 or (due > 0 and build_sites(board, state, power)):
            return True
    return bool(neutral_rebuilds(board, state))


def _record_eliminations(board: Board, state: GameState, year: int) -> None:
    """Each power left with no centre and no unit after the phase judged in `year` is eliminated that year."""
    alive = set(state.survivors(board))
    for power in board.powers:
        if power not in alive and power not in state.eliminated:
            state.eliminated[power] = year


def _advance(board: Board, state: GameState, result: PhaseResult) -> GameState:
    """Move to the next phase with something to do, applying centre updates of the phases passed, and record
    the powers the phase eliminated."""
    state = _next_phase(board, state, result)
    _record_eliminations(board, state, result.phase.year)
    return state


def _next_phase(board: Board, state: GameState, result: PhaseResult) -> GameState:
    """Move to the next phase with something to do, applying centre updates of the phases passed."""
    i = _step_index(board, state.phase)
    step = board.calendar[i]
    _end_of_step(board, state, result, step)
    year = state.phase.year
    while True:
        i += 1
        if i == len(board.calendar):
            i, year = 0, year + board.year_step
        step = board.calendar[i]
        year += step.advance  # (0 but on a calendar whose year grows inside the cycle)
        state.phase = Phase(step.season, year, step.type)
        if state.dislodged and step.type != "Retreat":  # a calendar without a retreat here: they are disbanded
            for d in sorted(state.dislodged.values(), key=lambda d: d.unit.location):
                result.destroyed.append(d.unit)
                for r in result.dislodged:
                    if r.unit == d.unit:
                        result.dislodged.remove(r)
                        break
            state.dislodged = {}
            state.contested = frozenset()
        if step.type == "Retreat" and not state.dislodged:
            result.skipped.append((state.phase, "no unit was dislodged"))
        elif step.type == "Adjustment" and not adjustments_needed(board, state):
            result.skipped.append((state.phase, "no power has builds or removals to make"))
        else:
            return state
        _end_of_step(board, state, result, step)

