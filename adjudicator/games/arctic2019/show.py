"""2019: The ARCTIC for the players to read: the position (`adjudicator show`) and the lines under a report, in
words and tables (the game has no hidden information: every piece is on the table)."""

from __future__ import annotations

from adjudicator.turn_report import table

from .board import Board
from .state import State, active_countries, controller, state_to_data


def phase_text(board: Board, state: State) -> str:
    """`turn 2, law A (Countries can not control sea sectors)`, or the end of the game."""
    if state.ended:
        return f"the game is over (turn {state.turn})"
    return f"turn {state.turn}, law {state.law} ({board.laws[state.law].name})"


def summary_lines(board: Board, state: State) -> list[str]:
    """Where the game stands, under a report."""
    return ["The game is over." if state.ended else f"The game stands at {phase_text(board, state)}."]


def position_text(board: Board, state: State) -> str:
    """Each country's treasury, vote, conflict and ships; ships by sector; control; platforms; the players' money."""
    data = state_to_data(board, state)
    name = board.country_name
    lines = [f"{board.title}: {phase_text(board, state)}", ""]
    active = active_countries(board, state)
    on_board = {c: sum(n.get(c, 0) for n in state.ships.values()) for c in board.countries}
    rows = [["", "treasury", "council vote", "conflict with", "ships on the board", "ships beside it"]]
    for c in board.countries:
        arctic = board.countries[c].arctic and c in active
        rows.append([name(c), str(state.treasury.get(c, 0)) if arctic else "-",
                     str(state.council.get(c) or "-") if arctic else "-",
                     name(state.conflicts[c]) if state.conflicts.get(c) else "-",
                     str(on_board[c]), str((data.get("supply") or {}).get(c, "-"))])
    lines += table(rows, indent="") + [""]
    lines.append("Ships:")
    for sector, fleet in state.ships.items():
        lines.append(f"  {board.sector_name(sector)}: " + ", ".join(f"{name(c)} {n}" for c, n in fleet.items()))
    held = [f"{board.sector_name(s)} ({name(controller(board, state, s))})" for s in state.control
            if controller(board, state, s)]
    lines.append(f"Sea sectors controlled: {', '.join(held) or 'none'}")
    for sector, p in state.platforms.items():
        lines.append(f"Platform on {board.sector_name(sector)}: {p.owner}'s, {'legal' if p.legal else 'illegal'}"
                     + (f", protected by {name(p.protected_by)}" if p.protected_by else ""))
    if state.cash:
        lines.append(f"The players' money: {', '.join(f'{p} {n}' for p, n in state.cash.items())}")
    if state.norway_in_eu:
        lines.append("Norway has joined the EU.")
    elif state.norway_eu_support:
        lines.append(f"EU markers on Norway's special spaces: {state.norway_eu_support}")
    return "\n".join(lines) + "\n"
