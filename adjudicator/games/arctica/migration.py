"""Migration around the Arctic Circle (§7.2): each move advances one token clockwise, a swimmer to the next
section, a bird or land mammal to the next ice-floe tile over any melted areas (one move), and its owner
gains the bonus where it stops."""

from __future__ import annotations

from adjudicator.games.arctica.arrival import arrive, place_name, section_of_tile
from adjudicator.games.arctica.board import Board
from adjudicator.games.arctica.orders import Migration, Move
from adjudicator.games.arctica.refusals import Refused
from adjudicator.games.arctica.state import State, Token


def destination(board: Board, state: State, section: str, group: str) -> tuple[str, list[str]]:
    """Where a token leaving `section` stops, and the melted sections it passes on the way."""
    nxt = board.next_section(section)
    if group not in board.jumpers:
        return nxt, []
    passed: list[str] = []
    while nxt != section:  # walk the cycle graph clockwise to the first section with a tile
        if state.circle[nxt] is not None:
            return nxt, passed
        passed.append(nxt)
        nxt = board.next_section(nxt)
    raise Refused("no-ice-floe", f"no other ice floe is left on the circle for a {board.group_name(group)} to reach")


def _move(board: Board, state: State, player: str, move: Move, number: int) -> str:
    token = Token(player, move.group)
    name = board.group_name(move.group)
    section = move.section or section_of_tile(state, move.tile, f"move {number}")
    if not state.lift_from_circle(section, token):
        named = f" (ice floe {move.tile})" if move.tile is not None else ""
        raise Refused("no-such-token", f"move {number}: {player} has no {name} on {section}{named}")
    dest, passed = destination(board, state, section, move.group)
    where = place_name(state, dest)
    got = arrive(board, state, token, dest, move.choice)
    over = f" over melted {', '.join(passed)}" if passed else ""
    return f"{name} {section} → {where}{over}: {got}"


def migrate(board: Board, state: State, player: str, order: Migration) -> str:
    """Resolve a migration on `state` (a working copy); what happened, or a Refused."""
    if len(order.moves) > order.allowance:
        raise Refused("too-many-moves", f"{len(order.moves)} moves written, but this migration allows "
                                        f"{order.allowance}")
    return "; ".join(_move(board, state, player, m, i) for i, m in enumerate(order.moves, 1))
