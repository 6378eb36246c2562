"""The round's progress: which End of Round steps the round's card shows, that each is done once and in the
card's order, that actions stop once the end of the round has begun, the turns of a round and the Leader token
(AR16), and preparing the next round (AR3)."""

from __future__ import annotations

from adjudicator.games.arctica.board import STEP_KINDS, Board
from adjudicator.games.arctica.refusals import Refused
from adjudicator.games.arctica.state import State


def check_action_time(state: State) -> None:
    """Actions (migration, colony) belong to the round's turns, before its end begins."""
    if state.end_steps:
        raise Refused("round-ending", f"the end of round {state.round} has begun ({', '.join(state.end_steps)}); "
                                      f"actions resume after `next round`")


def card_shows(board: Board, state: State, kind: str) -> bool:
    """Whether this round's End of Round card shows a step."""
    return kind in board.rounds[state.round].steps


def token_regions(state: State) -> list[str]:
    """The two regions of this round's Double Region token (none after the last token)."""
    return list(state.region_tokens[state.round - 1]) if state.round <= len(state.region_tokens) else []


def scored_regions(board: Board, state: State) -> list[str]:
    """The regions whose majority is checked this round: the Double Region token's, or all."""
    return list(board.regions) if board.rounds[state.round].scored == "all" else token_regions(state)


def begin_step(board: Board, state: State, kind: str, region: str | None = None) -> None:
    """Record an End of Round step, refusing a step done twice or after a later one."""
    key = kind if region is None else f"{kind} {region}"
    if key in state.end_steps:
        raise Refused("step-repeated", f"`{key}` was already done at the end of round {state.round}")
    later = [s for s in state.end_steps if STEP_KINDS.index(s.split()[0]) > STEP_KINDS.index(kind)]
    if later:
        raise Refused("step-out-of-order", f"`{key}` comes before `{later[0]}` at the end of a round "
                                           f"(order: {', '.join(STEP_KINDS)})")
    state.end_steps.append(key)


def _pass_leader(state: State, seats: int) -> None:
    """The Leader token goes `seats` players to the left (clockwise)."""
    order = state.seats_from_leader()
    state.leader = order[seats % len(order)]


def next_turn(board: Board, state: State) -> str:
    """The end of a turn: the Leader token passes to the player on the left (rulebook, Step 3)."""
    check_action_time(state)
    if state.turn >= board.turns_per_round:
        raise Refused("last-turn", f"turn {state.turn} is the last of round {state.round}: the End of Round follows, "
                                   f"and `next round` passes the Leader token")
    _pass_leader(state, 1)
    state.turn += 1
    return f"turn {state.turn} of round {state.round}: {state.leader} is the Leader"


def next_round(board: Board, state: State) -> str:
    """Prepare the next round: the next End of Round card and Double Region token; the Leader token has passed
    once after each turn of the round, the ones no `next turn` recorded included (AR16)."""
    if state.round >= board.last_round():
        raise Refused("game-over", f"round {state.round} is the last round: the game ends after it")
    _pass_leader(state, board.turns_per_round - state.turn + 1)
    state.turn = 1
    state.round += 1
    state.end_steps = []
    card = board.rounds[state.round]
    regions = scored_regions(board, state)
    names = [board.regions[r].name for r in regions]
    where = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return (f"round {state.round} begins: majorities {'/'.join(map(str, card.majority))} in {where}; "
            f"{state.leader} is the Leader")
