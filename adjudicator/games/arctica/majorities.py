"""End of Round step 2, majority scoring (§7.6): rank the players with tokens on a region's spaces, award the
End of Round card's values to places 1-3 (0 below, C24); tied players pool the values of the places they
share and split them rounding up, and the players below move down."""

from __future__ import annotations

from collections import Counter
from itertools import groupby

from adjudicator.games.arctica.board import Board
from adjudicator.games.arctica.state import State


def counts(board: Board, state: State, region: str) -> Counter[str]:
    """Tokens per player on the region's spaces (circle sections do not count, C23)."""
    found: Counter[str] = Counter()
    for space, tokens in state.space_tokens.items():
        if board.graph.nodes[space]["region"] == region:
            found.update(t.player for t in tokens)
    return found


def awards(values: list[int] | tuple[int, ...], tally: Counter[str], seats: list[str]) -> list[tuple[str, int, int]]:
    """(player, tokens, points) from most tokens to fewest; ties pool their places and round up."""
    ranked = sorted((p for p in tally if tally[p] > 0), key=lambda p: (-tally[p], seats.index(p)))
    out = []
    place = 0
    for _, run in groupby(ranked, key=lambda p: tally[p]):
        tied = list(run)
        pool = sum(values[place + i] if place + i < len(values) else 0 for i in range(len(tied)))
        share = -(-pool // len(tied))  # ceiling division: "divide evenly, rounding up"
        out += [(p, tally[p], share) for p in tied]
        place += len(tied)
    return out


def score(board: Board, state: State, region: str) -> tuple[str, dict[str, int]]:
    """Score one region on `state` (a working copy); what happened, and the points of each player."""
    values = board.rounds[state.round].majority
    result = awards(values, counts(board, state, region), state.players)
    for player, _, points in result:
        state.me(player).bp += points
    name = board.regions[region].name
    if not result:
        return f"{name}: no token on its spaces, nobody scores", {}
    parts = []
    for n, group in groupby(result, key=lambda r: r[1]):
        run = list(group)
        who = " and ".join(p for p, _, _ in run)
        tie = " each (tied)" if len(run) > 1 else ""
        parts.append(f"{who} {run[0][2]} BP{tie} with {n} token{'s' if n != 1 else ''}")
    return f"{name} ({'/'.join(map(str, values))}): " + "; ".join(parts), {p: pts for p, _, pts in result}
