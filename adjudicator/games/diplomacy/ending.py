"""How a game of Diplomacy ends, as the kit's end record (adjudicator/game_end.py): the solo its judge reaches,
and the ends declared at a position (a draw, a concession, stopped, abandoned).

The end's year is the year of the last phase judged: the year of the calendar's phase before the current one
(a draw declared at Spring 1906 Movement, before its orders, ends in 1905; a solo reached in Fall 1910 ends in 1910,
whether the game then stands at Winter 1910 or Spring 1911), and never before the board's first year. So the
years a power played (ManorCon's 0.1 a year, Carnage's later elimination) count the years judged."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from adjudicator.game_end import EndError, EndKind, GameEnd, PowerAtEnd
from adjudicator.games.diplomacy.board import Board
from adjudicator.games.diplomacy.phase import winner
from adjudicator.games.diplomacy.state import GameState, Phase
from adjudicator.names import AmbiguousName, UnknownName

PHASE_KINDS = {"Movement": "movement", "Retreat": "retreat", "Adjustment": "adjustment"}


def first_year(board: Board) -> int:
    """The board's first game year (its start phase's)."""
    return board.start_phase[1]


def end_year(board: Board, state: GameState) -> int:
    """The year of the last phase judged at this position: the calendar's phase before the current one."""
    phase = state.phase
    steps = board.calendar
    i = next((n for n, s in enumerate(steps) if (s.season, s.type) == (phase.season, phase.type)), 0)
    before = phase.year - steps[i].advance - (board.year_step if i == 0 else 0)
    return max(first_year(board), before)


def standing(board: Board, state: GameState, year: int) -> tuple[PowerAtEnd, ...]:
    """Every power at the end: its centres, its year of elimination (recorded by the judge; a power with nothing
    left that the judge did not record, as in a game file set up by hand, in the end's year), and the units of a
    power that survives on its units alone."""
    centres = Counter(state.owners.values())
    units = Counter(u.power for u in state.units.values())
    units.update(d.unit.power for d in state.dislodged.values())
    out = []
    for power in board.powers:
        if centres[power]:
            out.append(PowerAtEnd(power, centres[power]))
        elif units[power]:
            out.append(PowerAtEnd(power, 0, None, units[power]))
        else:
            out.append(PowerAtEnd(power, 0, min(state.eliminated.get(power, year), year)))
    return tuple(out)


def _end(board: Board, state: GameState, kind: EndKind, powers: tuple[str, ...], year: int) -> GameEnd:
    victory = min(board.victory_centres(state.rule_options(board), year), len(board.centres))
    return GameEnd(kind, powers, standing(board, state, year), year, min(first_year(board), year),
                   len(board.centres), victory)


def natural_end(board: Board, state: GameState) -> GameEnd | None:
    """A solo, once a power holds the victory centres as the judge decides them (`phase.winner`) in the year of
    the last phase judged; else None."""
    year = end_year(board, state)
    judged = state if year == state.phase.year else state.copy(phase=Phase(state.phase.season, year, state.phase.type))
    soloist = winner(board, judged)
    return None if soloist is None else _end(board, state, EndKind.SOLO, (soloist,), year)


def end_as(board: Board, state: GameState, kind: EndKind, named: Sequence[str]) -> GameEnd:
    """The end declared at this position, of the powers named (checked survivors, by their board names): a
    draw, a concession, stopped or abandoned; a solo only where the judge reaches one (an EndError otherwise)."""
    if kind is EndKind.SOLO:
        reached = natural_end(board, state)
        if reached is None:
            raise EndError("no power holds the centres a solo needs at this position: declare a draw, a concession, "
                           "or stopped")
        if named and list(named) != list(reached.powers):
            raise EndError(f"the solo is {reached.powers[0]}'s, not {', '.join(named)}'s")
        return reached
    return _end(board, state, kind, tuple(named), end_year(board, state))


def power_named(board: Board, given: str) -> str:
    """The power a name, abbreviation or alias names; an EndError listing the board's powers."""
    try:
        return board.power_names.lookup(given, "power")
    except (UnknownName, AmbiguousName) as exc:
        raise EndError(f"{exc.message}: not a power of {board.title}; the powers: {', '.join(board.powers)}") from None
