"""End of Round step 1, melting (§7.5, C30): the lowest-numbered tile left melts, and the tokens on it go back
to their owners' personal supplies. Tokens elsewhere, even on melted areas, stay."""

from __future__ import annotations

from adjudicator.games.arctica.board import Board
from adjudicator.games.arctica.state import State


def melt(board: Board, state: State) -> str:
    """Melt the lowest tile left on `state` (a working copy); what happened."""
    tiles = state.tile_sections()
    if not tiles:
        return "no ice floe is left to melt"
    tile, section = tiles[0]
    state.circle[section] = None
    gone = state.circle_tokens[section]
    state.circle_tokens[section] = []
    for token in gone:
        state.me(token.player).supply[token.group] += 1
    who = ", ".join(f"{t.player}'s {board.group_name(t.group)}" for t in gone)
    return f"ice floe {tile} on {section} melts" + (f"; back to the supply: {who}" if gone else "; no token on it")
