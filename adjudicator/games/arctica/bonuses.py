"""Gaining bonuses and paying costs, the same way everywhere (tiles, melted areas, spaces, lines).

Wheel activations and Flora for the Long Generation Wheel only add to pending counters: the Generation board
is not simulated, so they never pay for anything inside the same step (C6, C32)."""

from __future__ import annotations

from adjudicator.games.arctica.board import Board
from adjudicator.games.arctica.refusals import Refused
from adjudicator.games.arctica.state import State


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe(amounts: dict[str, int]) -> str:
    """A bonus or cost in words: `draw 2 cards`, `2 BP`, `activate wheels once`, `1 Flora`."""
    words = []
    for kind, n in amounts.items():
        if kind == "bp":
            words.append(f"{n} BP")
        elif kind == "cards":
            words.append(f"draw {_plural(n, 'card')}" if n else "no card")
        elif kind == "wheels":
            words.append("activate wheels " + {1: "once", 2: "twice"}.get(n, f"{n} times"))
        elif kind == "flora":
            words.append(f"{n} Flora")
    return ", ".join(words) or "nothing"


def describe_cost(cost: dict[str, int]) -> str:
    """A cost in words: `1 card`, `1 Flora`."""
    words = [_plural(n, "card") if kind == "cards" else f"{n} Flora" for kind, n in cost.items()]
    return " and ".join(words) or "nothing"


def gain(board: Board, state: State, player: str, bonus: dict[str, int]) -> str:
    """Give a player a bonus; what they got, in words (a draw stops at the hand limit, C25)."""
    me = state.me(player)
    got = []
    for kind, n in bonus.items():
        if kind == "bp":
            me.bp += n
            got.append(f"+{n} BP")
        elif kind == "cards":
            drawn = max(0, min(n, board.hand_limit - me.hand))
            me.hand += drawn
            got.append(f"draws {_plural(drawn, 'card')}" +
                       (f" (of {n}: hand limit {board.hand_limit})" if drawn < n else ""))
        elif kind == "wheels":
            me.wheels += n
            got.append("activates wheels " + {1: "once", 2: "twice"}.get(n, f"{n} times"))
        elif kind == "flora":
            me.wheel_flora += n
            got.append(f"{n} Flora to the Long Generation Wheel")
    return ", ".join(got) or "no bonus"


def shortfall(state: State, player: str, cost: dict[str, int]) -> str | None:
    """What a player lacks to pay a cost (Release-Zone Flora, cards in hand), or None if they can pay."""
    me = state.me(player)
    if cost.get("flora", 0) > me.flora:
        return f"{cost['flora']} Flora needed, {me.flora} in the Release Zone"
    if cost.get("cards", 0) > me.hand:
        return f"{_plural(cost['cards'], 'card')} to discard, {me.hand} in hand"
    return None


def pay(state: State, player: str, cost: dict[str, int], code: str, what: str) -> None:
    """Pay a cost, or refuse with `code` saying what is missing."""
    missing = shortfall(state, player, cost)
    if missing:
        raise Refused(code, f"{player} cannot pay {what}: {missing}")
    me = state.me(player)
    me.flora -= cost.get("flora", 0)
    me.hand -= cost.get("cards", 0)
