"""DATC 4.A.3's fallback: which armies convoyed to an adjacent space may take the land route when their convoy
fails (`judge_movement` judges the phase again with them moving by land), and which may not: under the 2000
fallbacks, an army whose land move would cut a support for the attack on its own convoy (DATC v2.4 6.G.11: the convoy
fails in a paradox, and the army does not advance); under `2000-fallback-via-bound`, an army ordered "via convoy"
with a whole route of fleets ordered to convoy it."""

from __future__ import annotations

from adjudicator.games.diplomacy.board import Board
from adjudicator.games.diplomacy.orders.commands import Command, ConvoyCommand, MoveCommand, SupportCommand
from adjudicator.games.diplomacy.orders.model import Move
from adjudicator.games.diplomacy.rulebook import Rulebook

# The DATC 4.A.3 answers under which an army whose convoy to an adjacent space fails may take the land route.
ADJACENT_FALLBACK: frozenset[str] = frozenset({"2000-fallback", "2000-fallback-via-bound", "1971"})


def no_fallback(board: Board, season: str, commands: dict[str, Command], rules: Rulebook) -> set[str]:
    """The armies (by province) that may not fall back to the land route under the rules' 4.A.3 answer."""
    bound = land_paradox(commands) if rules.adjacent_convoy != "1971" else set()
    if rules.adjacent_convoy == "2000-fallback-via-bound":
        bound |= via_bound(board, season, commands)
    return bound


def via_bound(board: Board, season: str, commands: dict[str, Command]) -> set[str]:
    """The armies (by province) written "via convoy" to an adjacent space for which a whole route of fleets (any
    power's) is ordered to convoy them: under `2000-fallback-via-bound` (DATC 4.A.3) they go by that convoy or not
    at all, as the 2000 rules' "could arrive" read as "a convoy is ordered along the whole path"."""
    fleets: dict[tuple[str, str], list[str]] = {}
    for p, c in commands.items():
        if isinstance(c, ConvoyCommand):
            fleets.setdefault((c.target, c.dest), []).append(p)
    return {p for p, c in commands.items() if isinstance(c, MoveCommand) and isinstance(c.order, Move)
            and c.order.via_convoy and (p, c.dest) in fleets
            and board.convoy_route_exists(p, c.dest, season, fleets[(p, c.dest)])}


def land_paradox(commands: dict[str, Command]) -> set[str]:
    """The armies (by province) moving by convoy to an adjacent space whose move over land would cut a support
    for an attack on one of the fleets ordered to convoy them: the unit in the destination supports such an attack,
    or supports or convoys a unit that does, and so on (as the diplomacy package's `_detect_paradox` follows it)."""
    fleets: dict[tuple[str, str], set[str]] = {}
    for p, c in commands.items():
        if isinstance(c, ConvoyCommand):
            fleets.setdefault((c.target, c.dest), set()).add(p)
    out = set()
    for p, c in commands.items():
        convoying = fleets.get((p, c.dest)) if isinstance(c, MoveCommand) else None
        if not convoying:
            continue
        node: str | None = c.dest if isinstance(c, MoveCommand) else None
        seen: set[str] = set()
        while node is not None and node not in seen:
            seen.add(node)
            here = commands.get(node)
            if isinstance(here, SupportCommand) and here.dest in convoying:
                out.add(p)
                break
            node = (here.dest or here.target) if isinstance(here, SupportCommand) else \
                here.dest if isinstance(here, ConvoyCommand) else None
    return out
