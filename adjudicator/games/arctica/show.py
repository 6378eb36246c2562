"""Arctica for the players to read: the position (`adjudicator show`) and the lines under a report, in words and
tables. What lies face down stays hidden: the order of the Event tiles in their stacks and the Double Region
tokens of rounds still to come (rulebook, set-up steps 5 and 6) are in the game file, never in what is shown."""

from __future__ import annotations

from typing import Any

from adjudicator.turn_report import table
from adjudicator.grammar_tools import and_list

from .board import Board
from .state import State


def summary_lines(state: State, summary: dict[str, Any]) -> list[str]:
    """The Biodiversity Points after the steps, and the majorities they scored."""
    lines = [f"Biodiversity Points: {', '.join(f'{p} {state.me(p).bp}' for p in state.players)}"]
    for region, points in (summary.get("majorities") or {}).items():
        scored = ", ".join(f"{p} {n}" for p, n in points.items()) or "nobody"
        lines.append(f"Majority in {region}: {scored}")
    return lines


def position_text(board: Board, state: State, phase: str) -> str:
    """The players' counters, the Arctic Circle, the tokens on the board, the Event tiles and the Double Region
    tokens (counted while face down)."""
    lines = [f"{board.title}: {phase}", ""]
    rows = [["", "Biodiversity Points", "cards in hand", "Flora", "wheel effects", "wheel Flora"]]
    for p in state.players:
        me = state.me(p)
        rows.append([p, str(me.bp), str(me.hand), str(me.flora), str(me.wheels), str(me.wheel_flora)])
    lines += table(rows, indent="") + [""]
    for p in state.players:
        me = state.me(p)
        lines.append(f"{p}: in the release zone {_groups(me.release)}; in the supply {_groups(me.supply)}")
    lines += ["", "Arctic Circle:"]
    for section, tile in state.circle.items():
        floe = "melted" if tile is None else f"ice floe {tile}"
        lines.append(f"  {section} ({floe}): {_tokens(state.circle_tokens.get(section, []))}")
    if state.space_tokens:
        lines.append("On the board: " + "; ".join(f"{space} {_tokens(tokens)}"
                                                   for space, tokens in state.space_tokens.items()))
    if state.covered:
        lines.append(f"Under an Event tile: {', '.join(state.covered)}")
    lines.append("Event tiles face down: " + ", ".join(f"{group} {len(stack)}"
                                                       for group, stack in state.event_stacks.items()))
    shown = state.region_tokens[:state.round]  # round r's token is turned up when round r begins
    for number, regions in enumerate(shown, start=1):
        lines.append(f"Double Region, round {number}: {and_list(list(regions))}")
    if len(state.region_tokens) > len(shown):
        lines.append(f"Double Region tokens face down: {len(state.region_tokens) - len(shown)}")
    lines.append(f"Region faces: {', '.join(f'{region} {face}' for region, face in state.faces.items())}")
    if state.end_steps:
        lines.append(f"End of round steps done: {', '.join(state.end_steps)}")
    return "\n".join(lines) + "\n"


def _groups(counts: dict[str, int]) -> str:
    shown = [f"{group.replace('_', ' ')} {n}" for group, n in counts.items() if n]
    return ", ".join(shown) or "nothing"


def _tokens(tokens: list[Any]) -> str:
    return ", ".join(f"{t.player} {t.group.replace('_', ' ')}" for t in tokens) or "-"
