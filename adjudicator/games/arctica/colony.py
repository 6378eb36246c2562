"""The Colony action (§7.8): pay 1 Flora, then place tokens of one group from the Release Zone, one space at a
time: the space must accept the token, its cost is paid, its bonus gained, then every Connection it makes
pays its line's bonus to each player in it once (C17-C19; +1 BP to the placing player with two players)."""

from __future__ import annotations

from adjudicator.games.arctica.board import Board
from adjudicator.games.arctica.bonuses import describe, describe_cost, gain, pay
from adjudicator.games.arctica.orders import Colony
from adjudicator.games.arctica.refusals import Refused
from adjudicator.games.arctica.state import State, Token

COLONY_COST = {"flora": 1}  # "Discard a Flora token" (rulebook, Colony)
TWO_PLAYER_BONUS = {"bp": 1}  # 2-Player Connection Rules, to the player who makes the Connection (C19)


def _connections(board: Board, state: State, player: str, space: str) -> list[str]:
    """Pay the bonus of every line from `space` whose far end is occupied (the far end is never covered:
    a covered sub-region holds no token, so dead lines never form Connections, C27)."""
    made = []
    for far in sorted(board.graph.neighbors(space), key=lambda n: board.graph.edges[space, n]["id"]):
        owners = [p for p in state.players if any(t.player == p for t in state.on_space(far))]
        if not owners:
            continue
        line = board.graph.edges[space, far]
        # The placing player and every player on the far end, once each (a player owning both ends: once).
        players = [player] + [p for p in owners if p != player]
        for p in players:
            gain(board, state, p, line["bonus"])
        text = f"Connection {line['id']} ({describe(line['bonus'])}) for {' and '.join(players)}"
        if len(state.players) == 2:
            gain(board, state, player, TWO_PLAYER_BONUS)
            text += f", +1 BP to {player} (two players)"
        made.append(text)
    return made


def _place(board: Board, state: State, player: str, group: str, space: str) -> str:
    info = board.spaces[space]
    name = board.group_name(group)
    if info.subregion in state.covered:
        raise Refused("space-covered", f"{space} lies in {info.subregion}, under an Event tile")
    if group not in info.groups:
        raise Refused("group-not-allowed", f"{space} takes {', '.join(board.group_name(g) for g in info.groups)}, "
                                           f"not a {name}")
    was_empty = not state.on_space(space)
    if not info.shared and not was_empty:
        holder = state.on_space(space)[0]
        raise Refused("space-occupied", f"{space} holds one token and already has {holder.player}'s "
                                        f"{board.group_name(holder.group)}")
    me = state.me(player)
    if me.release[group] < 1:
        raise Refused("no-release-token", f"{player} has no {name} left in the Release Zone for {space}")
    pay(state, player, info.cost, "cost-unpaid", f"the cost of {space}")
    me.release[group] -= 1
    state.place(space, Token(player, group))
    parts = [f"{name} on {space}"]
    if info.cost:
        parts.append(f"pays {describe_cost(info.cost)}")
    if info.bonus:
        parts.append(gain(board, state, player, info.bonus))
    # Only a token arriving on an empty space completes lines; another token on an occupied shared space
    # completes nothing new (C17).
    if was_empty:
        parts += _connections(board, state, player, space)
    return ", ".join(parts)


def colonise(board: Board, state: State, player: str, order: Colony) -> str:
    """Resolve a Colony action on `state` (a working copy); what happened, or a Refused."""
    if not order.spaces:
        raise Refused("no-placement", "a Colony action places at least one token (C21); name the spaces")
    pay(state, player, COLONY_COST, "no-flora", "the Colony action (1 Flora)")
    if state.me(player).release[order.group] < 1:
        raise Refused("no-release-token", f"{player} has no {board.group_name(order.group)} in the Release Zone")
    return "pays 1 Flora; " + "; ".join(_place(board, state, player, order.group, s) for s in order.spaces)
