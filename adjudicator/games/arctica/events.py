"""End of Round step 5, Events (§7.7): an Event tile covers a sub-region; the tokens on it, and those on spaces
of the adjacent sub-regions with a line into it (C13), flee to a circle section touching their own
sub-region (C14) for 1 Flora each and gain its bonus (never a bird or land mammal onto a melted area), or go
back to their owners' personal supplies. Then the tile covers the sub-region for the rest of the game (C27)."""

from __future__ import annotations

from collections import Counter

from adjudicator.games.arctica.arrival import CHOICE_CODE, arrive, place_name, section_of_tile
from adjudicator.games.arctica.board import Board
from adjudicator.games.arctica.bonuses import pay
from adjudicator.games.arctica.orders import SUPPLY, Event, Flight
from adjudicator.games.arctica.refusals import Refused
from adjudicator.games.arctica.rounds import begin_step, card_shows, token_regions
from adjudicator.games.arctica.state import State, Token
from adjudicator.names import AmbiguousName, UnknownName

FLIGHT_COST = {"flora": 1}  # "Discard 1 Flora" per token helped to safety (rulebook, Events)


def affected(board: Board, state: State, subregion: str) -> list[tuple[str, Token]]:
    """(space, token) for every token that must flee: on the sub-region's spaces, or on a space with a line
    into it (the far end need not be occupied, C13), in board order."""
    inside = {s for s, info in board.spaces.items() if info.subregion == subregion}
    reached = {n for s in inside for n in board.graph.neighbors(s)}  # lines only join neighbours (C9)
    return [(s, t) for s in board.spaces if s in inside | reached for t in state.on_space(s)]


def _tile(board: Board, state: State, event: Event) -> tuple[int, str]:
    """The Event tile drawn (dots) and the sub-region it covers; refuses a region or tile not in play."""
    name = board.regions[event.region].name
    if not card_shows(board, state, "events"):
        raise Refused("no-events-this-round", f"the End of Round card of round {state.round} shows no Events")
    drawn = token_regions(state)
    if event.region not in drawn:
        raise Refused("region-not-drawn", f"round {state.round}'s Double Region token shows "
                                          f"{' and '.join(board.regions[r].name for r in drawn)}, not {name}")
    stack = state.event_stacks.get(event.region, [])
    if not stack:
        raise Refused("no-event-tile", f"no {name} Event tile is left")
    dots = stack[0] if event.dots is None else event.dots
    if dots not in stack:
        left = ", ".join(f"{d} dots" for d in stack)
        raise Refused("tile-not-in-stack", f"no {dots}-dot {name} Event tile is left (left: {left})")
    subregion = board.subregion_of(event.region, dots)
    if subregion is None:  # (a board whose Event stack holds a tile no sub-region has: refused, not drawn on nothing)
        raise Refused("tile-not-on-board", f"the {dots}-dot {name} Event tile covers no sub-region of this board")
    return dots, subregion


def _player(state: State, name: str, index: int) -> str:
    try:
        return state.player_names().lookup(name, "player")
    except (UnknownName, AmbiguousName) as exc:
        hint = f"; did you mean {', '.join(exc.suggestions)}?" if exc.suggestions else ""
        raise Refused("unknown-player", f"{exc.message}; players are {', '.join(state.players)}{hint}", index) from None


def _check_complete(board: Board, flights: list[tuple[str, Flight]], hit: list[tuple[str, Token]]) -> None:
    """Every affected token needs exactly one flight instruction, and no other token may have one."""
    want = Counter((t.player, t.group, s) for s, t in hit)
    got = Counter((p, f.group, f.space) for p, f in flights)
    missing, extra = want - got, got - want
    if not missing and not extra:
        return
    say = lambda key: f"{key[0]}'s {board.group_name(key[1])} on {key[2]}"  # noqa: E731
    parts = []
    if missing:
        parts.append("no flight for " + ", ".join(say(k) for k in sorted(missing.elements())))
    if extra:
        parts.append("not affected (or listed twice): " + ", ".join(say(k) for k in sorted(extra.elements())))
    first_extra = next((i for i, (p, f) in enumerate(flights) if (p, f.group, f.space) in extra), None)
    raise Refused("flights-incomplete", "each affected token needs one flight: " + "; ".join(parts), first_extra)


def _flee(board: Board, state: State, player: str, flight: Flight, index: int) -> str:
    token = Token(player, flight.group)
    name = board.group_name(flight.group)
    state.lift(flight.space, token)
    if flight.to == SUPPLY:
        if flight.choice is not None:
            raise Refused(CHOICE_CODE, f"'{flight.choice}' only applies on a tile with a trade (tile 6)", index)
        state.me(player).supply[flight.group] += 1
        return f"{name} on {flight.space} goes back to {player}'s personal supply"
    sub = board.spaces[flight.space].subregion
    touching = board.touching(sub, state.faces)
    try:
        to = flight.to or section_of_tile(state, flight.to_tile, f"the flight of the {name} on {flight.space}")
        if to not in touching:
            named = f" (ice floe {flight.to_tile})" if flight.to_tile is not None else ""
            raise Refused("not-adjacent", f"{to}{named} does not touch {sub}, where the {name} stands "
                                          f"(it touches {' and '.join(touching) or 'no section'})")
        if flight.group in board.jumpers and state.circle[to] is None:
            raise Refused("melted-forbidden", f"a {name} cannot flee onto melted {to}: birds and land "
                                              f"mammals need an ice floe")
        pay(state, player, FLIGHT_COST, "no-flora", f"1 Flora to save the {name} on {flight.space}")
        where = place_name(state, to)
        got = arrive(board, state, token, to, flight.choice)
    except Refused as refused:
        raise Refused(refused.code, refused.message, index) from None
    return f"{name} on {flight.space} flees to {where} for 1 Flora: {got}"


def resolve_event(board: Board, state: State, event: Event) -> tuple[str, list[str]]:
    """Resolve an event on `state` (a working copy): what happened, and the outcome of each flight."""
    dots, subregion = _tile(board, state, event)
    begin_step(board, state, "events", event.region)
    flights = [(_player(state, f.player, i), f) for i, f in enumerate(event.flights)]
    hit = affected(board, state, subregion)
    _check_complete(board, flights, hit)
    outcomes = [_flee(board, state, player, flight, i) for i, (player, flight) in enumerate(flights)]
    state.covered.append(subregion)
    state.event_stacks[event.region].remove(dots)
    who = ", ".join(f"{t.player}'s {board.group_name(t.group)} on {s}" for s, t in hit) or "no token"
    header = (f"the {board.regions[event.region].name} Event tile ({dots} dot{'s' if dots != 1 else ''}) covers "
              f"{subregion}; affected: {who}")
    return header, outcomes
