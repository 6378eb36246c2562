"""Arctic Race for the players to read: the position (`adjudicator show`) and the standings under a report, in
words and tables. What lies face down stays hidden: the pile's order and the tiles removed unseen at the set-up
are in the game file (the program draws from it), never in what is shown (rulebook: set-up; A17, A18)."""

from __future__ import annotations

from typing import Any

from adjudicator.turn_report import table
from adjudicator.grammar_tools import and_list

from .board import FIN, WATER, RaceBoard
from .movement import ordinal, where
from .scoring import standings
from .state import OVER, SETUP, RaceState


def ranking_text(ranking: list[Any]) -> str:
    """`1. Blue; 2. Red and Green (tied)`: the ranking with its shared places."""
    parts, place = [], 1
    for entry in ranking:
        group = entry if isinstance(entry, list) else [entry]
        parts.append(f"{place}. {and_list(group)}" + (" (tied)" if len(group) > 1 else ""))
        place += len(group)
    return "; ".join(parts)


def standings_lines(board: RaceBoard, state: RaceState) -> list[str]:
    """Points and ranking, and what comes next (the lines under a report, and the end of `show`)."""
    if state.phase == SETUP:
        return ["Next: the set-up (`players ...` and `start ...`" + (")" if state.tile_order else
                ", with `river ...` as laid out or `tiles ...`)")]
    score = standings(board, state)
    lines = [f"Points: {', '.join(f'{p} {n}' for p, n in score['points'].items())}",
             f"Ranking: {ranking_text(score['ranking'])}"]
    if state.phase == OVER:
        lines.append(f"The game is over ({state.end_reason}).")
    else:
        lines.append(f"Next: round {state.round}, {state.to_play} to play")
    return lines


def position_text(board: RaceBoard, state: RaceState, phase: str) -> str:
    """`adjudicator show`: the players and their cards, every racer's place, the river and the pile (counted)."""
    lines = [f"{board.title}: {phase}", ""]
    if state.phase == SETUP:
        lines += ["The tiles are shuffled face down." if state.tile_order else "The table is not laid out yet.", ""]
        return "\n".join(lines + standings_lines(board, state)) + "\n"
    lines.append(f"Players (clockwise): {', '.join(state.players)}; the start token: {state.start_token}")
    if state.phase != OVER:
        lines.append(f"This round's order: {', '.join(state.turn_order)}; {state.to_play} to play")
    lines.append("")
    numbers = sorted(board.racers)
    rows = [["", "cards in hand", "played", *(f"racer {n}" for n in numbers)]]
    for player in state.players:
        rows.append([player, " ".join(map(str, state.hands.get(player, []))) or "-",
                     " ".join(map(str, state.played.get(player, []))) or "-",
                     *(_racer_place(state, player, n) for n in numbers)])
    lines += table(rows, indent="") + [""]
    river = [f"{slot} {tile if tile != WATER else 'open water'}" for slot, tile in zip(board.slot_names, state.river)]
    lines.append(f"River: {', '.join(river)}")
    lines.append(f"Pile: {state.pile_size()} tile{'s' if state.pile_size() != 1 else ''} face down"
                 + (f"; out of the game: {', '.join(state.out)}" if state.out else ""))
    lines.append("")
    return "\n".join(lines + standings_lines(board, state)) + "\n"


def _racer_place(state: RaceState, player: str, number: int) -> str:
    """Where one racer is: `start`, `space 12`, `home (2nd)`."""
    order = state.finished.get(number, [])
    if player in order:
        return f"home ({ordinal(order.index(player) + 1)})"
    space = state.racers.get((player, number))
    return "-" if space is None else "start" if space == 0 else where(space) if space != FIN else "home"
