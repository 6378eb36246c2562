"""Points for completed races and the ranking with its tie-break (R26, R27; board section 7.7)."""

from __future__ import annotations

from typing import Any, Protocol

from .board import RaceBoard


class ScoredState(Protocol):
    """What scoring reads of a game's state (state.RaceState, which imports this module, has it)."""

    players: list[str]  # in seating order
    finished: dict[int, list[str]]  # race -> its finishers, first first


def place_points(board: RaceBoard, race: int, place: int) -> int:
    """Points for finishing `place` (0 = 1st) in a race: the last entry counts for every later place (R26)."""
    row = board.points[race]
    return row[min(place, len(row) - 1)]


def points(board: RaceBoard, state: ScoredState) -> dict[str, int]:
    """Each player's points: finished racers only; racers still on the track score nothing."""
    total = {p: 0 for p in state.players}
    for race, order in state.finished.items():
        for place, player in enumerate(order):
            total[player] += place_points(board, race, place)
    return total


def _tiebreak_key(board: RaceBoard, state: ScoredState, player: str, total: int) -> tuple:
    # Race by race (race 1 first): a better place wins, a finisher beats a non-finisher, and a race where
    # neither has a finisher decides nothing (R27).
    places = []
    for race in board.tiebreak_races:
        order = state.finished.get(race, [])
        places.append(order.index(player) if player in order else len(state.players) + 1)
    return (-total, *places)


def ranking(board: RaceBoard, state: ScoredState) -> list[Any]:
    """Players best first; players still tied after every race share a place, written as a nested list."""
    total = points(board, state)
    keys = {p: _tiebreak_key(board, state, p, total[p]) for p in state.players}
    out: list[Any] = []
    for key in sorted(set(keys.values())):
        group = [p for p in state.players if keys[p] == key]
        out.append(group[0] if len(group) == 1 else group)
    return out


def standings(board: RaceBoard, state: ScoredState) -> dict[str, Any]:
    """`{points: {player: n}, ranking: [...]}`, the players in seating order."""
    return {"points": points(board, state), "ranking": ranking(board, state)}
