"""A token ending a migration move or a flight on a circle section, and what its owner gains there: the tile's
bonus, the tile's choice (tile 6, §7.3), or the section's melted-area bonus on its region's face (C5, C29)."""

from __future__ import annotations

from adjudicator.games.arctica.board import Board
from adjudicator.games.arctica.bonuses import describe_cost, gain, pay
from adjudicator.games.arctica.refusals import Refused
from adjudicator.games.arctica.state import State, Token

RETURN = "return"
STAY = "stay"
CHOICE_CODE = "tile6-choice-not-on-tile6"


def place_name(state: State, section: str) -> str:
    """`S4 (ice floe 4)` or `S2 (melted)`."""
    tile = state.circle[section]
    return f"{section} (melted)" if tile is None else f"{section} (ice floe {tile})"


def section_of_tile(state: State, tile: int | None, what: str) -> str:
    """The section an ice floe named by its number lies on; a melted floe is refused (`tile-melted`)."""
    section = next((s for s, t in state.circle.items() if t == tile), None)
    if section is None:
        melted = ", ".join(s for s, t in state.circle.items() if t is None)
        raise Refused("tile-melted", f"{what}: ice floe {tile} has melted; name its section instead "
                                     f"(melted: {melted})")
    return section


def arrive(board: Board, state: State, token: Token, section: str, choice: str | None) -> str:
    """Put the token on the section and resolve its bonus; what happened, in words."""
    tile_number = state.circle[section]
    tile = board.tiles[tile_number] if tile_number is not None else None
    if choice is not None and (tile is None or tile.choice is None):
        raise Refused(CHOICE_CODE, f"'{choice}' is a choice of a tile with a trade (tile 6); "
                                   f"{place_name(state, section)} has none")
    state.circle_tokens[section].append(token)
    if tile is None:
        face = board.section_face(section, state.faces)
        return f"melted-area bonus: {gain(board, state, token.player, board.sections[section].melted_bonus[face])}"
    if tile.choice is None:
        return gain(board, state, token.player, tile.bonus)
    if choice != RETURN:  # no explicit choice: the token stays, nothing is paid (C22)
        return "stays on the ice floe (no bonus)"
    trade = tile.choice
    pay(state, token.player, trade.cost, "tile6-no-card", f"{describe_cost(trade.cost)} to leave ice floe {tile_number}")
    state.circle_tokens[section].remove(token)
    if trade.token_to == "release":
        state.me(token.player).release[token.group] += 1
    gained = gain(board, state, token.player, trade.gain)
    return f"pays {describe_cost(trade.cost)}, returns to the Release Zone, {gained}"
