"""The state of an Arctica game between steps, read from and written to plain data (game files, case files).

```yaml
round: 2                                   # the round being played, or whose end is being resolved
turn: 3                                    # the turn of the round being played (1-5, AR16)
players: [Remi, Joelle, Samson]            # seat order, clockwise (C33)
leader: Samson                             # who holds the Leader token this turn (default: the first player)
faces: {bear: A, eagle: A, lynx: A}
circle: {S1: 3, S2: melted, S3: 2, S4: 4, S5: 6, S6: 5}
covered: [L1, B3]                          # sub-regions under an Event tile, in the order they were covered
event_stacks: {bear: [1, 2], eagle: [3, 2, 1], lynx: [3, 2]}   # Event tiles left, top first
region_tokens: [[lynx, bear], [eagle, lynx], [eagle, bear]]    # Double Region token of rounds 1, 2, 3
end_steps: []                              # End of Round steps done this round (`melt`, `majority bear`...)
circle_tokens: {S1: [], S2: [Joelle fish], ...}                # every section, clockwise
space_tokens: {E2b: [Joelle fish]}        # occupied spaces only
player_state:
  Remi: {bp: 10, hand: 3, flora: 1, wheels: 0, wheel_flora: 0, release: {...}, supply: {...}}
history: []
```
A token is written `<player> <group>`. Numbers left out are 0; keys left out take the setup's defaults.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from adjudicator.located import LocatedReader
from adjudicator.games.arctica.board import PLAYER_NAME, RESERVED_NAMES, STEP_KINDS, Board
from adjudicator.names import NameIndex
from adjudicator.yamlio import line_of, plain

MELTED = "melted"
NUMBERS = ("bp", "hand", "flora", "wheels", "wheel_flora")
POOLS = ("release", "supply")


class Token(NamedTuple):
    """A fauna token: whose, and which group."""

    player: str
    group: str


@dataclass
class PlayerState:
    """A player's counters: Biodiversity Points, hand size, Release-Zone Flora, pending wheel effects (C6),
    fauna tokens per group in the Release Zone and in the personal supply."""

    bp: int = 0
    hand: int = 0
    flora: int = 0
    wheels: int = 0
    wheel_flora: int = 0
    release: dict[str, int] = field(default_factory=dict)
    supply: dict[str, int] = field(default_factory=dict)


@dataclass
class State:
    """A position: the circle, the board, the round's progress and every player's counters."""

    round: int
    players: list[str]
    faces: dict[str, str]
    circle: dict[str, int | None]  # section -> tile number, None once melted
    covered: list[str]
    event_stacks: dict[str, list[int]]
    region_tokens: list[list[str]]
    end_steps: list[str]
    circle_tokens: dict[str, list[Token]]
    space_tokens: dict[str, list[Token]]
    player_state: dict[str, PlayerState]
    history: list = field(default_factory=list)
    leader: str = ""  # the current Leader (AR16); "" reads as the first player
    turn: int = 1  # the turn of the round being played, 1..board.turns_per_round (AR16)

    def copy(self) -> "State":
        """A deep copy to resolve a step on (the input state is never changed)."""
        return copy.deepcopy(self)

    def me(self, player: str) -> PlayerState:
        """A player's counters."""
        return self.player_state[player]

    def on_space(self, space: str) -> list[Token]:
        """The tokens on a space."""
        return self.space_tokens.get(space, [])

    def place(self, space: str, token: Token) -> None:
        """Put a token on a space."""
        self.space_tokens.setdefault(space, []).append(token)

    def lift(self, space: str, token: Token) -> bool:
        """Take a token off a space; False when it is not there."""
        tokens = self.space_tokens.get(space, [])
        if token not in tokens:
            return False
        tokens.remove(token)
        if not tokens:
            del self.space_tokens[space]
        return True

    def lift_from_circle(self, section: str, token: Token) -> bool:
        """Take a token off a circle section; False when it is not there."""
        tokens = self.circle_tokens[section]
        if token not in tokens:
            return False
        tokens.remove(token)
        return True

    def seats_from_leader(self) -> list[str]:
        """The players clockwise from the current Leader: the order Colony turns are taken in (C33)."""
        i = self.players.index(self.leader) if self.leader in self.players else 0
        return self.players[i:] + self.players[:i]

    def player_names(self) -> NameIndex:
        """The players' names, for looking up names written in orders."""
        return NameIndex.build((p, p, [p]) for p in self.players)

    def tile_sections(self) -> list[tuple[int, str]]:
        """(tile, section) for every tile still on the circle, lowest tile first."""
        return sorted((t, s) for s, t in self.circle.items() if t is not None)


# ------------------------------------------------------------------------------------------ initial state


def initial_state(board: Board) -> State:
    """The position after setup with the default table (AR2): tiles, faces, tokens and stacks as set up."""
    setup = board.setup
    players = [seat.name for seat in setup.players]
    start_section = next(s for s, t in setup.tile_order.items() if t == setup.start_tile)
    circle_tokens: dict[str, list[Token]] = {s: [] for s in board.sections}
    player_state = {}
    for seat, bp in zip(setup.players, setup.start_bp[len(players)]):
        supply = {g: board.tokens_per_group for g in board.groups}
        # The starting card's token goes on the (unsimulated) wheel, two more on the start tile (AR2, C6).
        supply[seat.start_group] -= setup.start_tokens_on_wheel + setup.start_tokens_on_tile
        circle_tokens[start_section] += [Token(seat.name, seat.start_group)] * setup.start_tokens_on_tile
        player_state[seat.name] = PlayerState(bp=bp, hand=setup.start_hand, wheel_flora=setup.start_wheel_flora,
                                              release={g: 0 for g in board.groups}, supply=supply)
    return State(1, players, dict(setup.faces), {s: t for s, t in setup.tile_order.items()}, [],
                 {r: list(s) for r, s in setup.event_stacks.items()}, [list(t) for t in setup.region_tokens], [],
                 _sorted_circle(board, players, circle_tokens), {}, player_state, leader=players[0])


# ------------------------------------------------------------------------------------------ from data


class _Reader(LocatedReader):
    """Reads state data, raising StateErrors that name the line and JSON pointer of the problem."""

    def __init__(self, board: Board, file: str | None):
        super().__init__(file)
        self.board = board


def state_from_data(board: Board, data: Any, file: str | None = None) -> State:
    """A State from game-file or case-file data, checked against the board and the rules (§7.1)."""
    r = _Reader(board, file)
    if not isinstance(data, dict):
        raise r.fail("an Arctica state must be a mapping (round, players, circle, ...)", data, "")
    known = {"round", "turn", "leader", "players", "faces", "circle", "covered", "event_stacks", "region_tokens", "end_steps",
             "circle_tokens", "space_tokens", "player_state", "history"}
    for key in data:
        if key not in known:
            raise r.fail(f"unknown key {key!r}; an Arctica state has {', '.join(sorted(known))}", data, f"/{key}")
    setup = board.setup

    rounds = board.last_round()
    round_ = data.get("round", 1)
    if isinstance(round_, bool) or not isinstance(round_, int) or not 1 <= round_ <= rounds:
        raise r.fail(f"round must be 1 to {rounds}, not {round_!r}", data, "/round")

    players = _players(r, data.get("players", [s.name for s in setup.players]), data)
    turn = data.get("turn", 1)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= board.turns_per_round:
        raise r.fail(f"turn must be 1 to {board.turns_per_round} (the turns of a round), not {turn!r}", data, "/turn")
    leader = players[0]
    if data.get("leader") is not None:
        leader = r.name(NameIndex.build((p, p, [p]) for p in players), data["leader"], "player", data, "/leader")
    faces = _faces(r, data.get("faces"), data)
    circle = _circle(r, data.get("circle"), data)
    covered = _covered(r, data.get("covered"), data)
    stacks = _stacks(r, data.get("event_stacks"), covered, data)
    tokens = _region_tokens(r, data.get("region_tokens"), data)
    end_steps = _end_steps(r, data.get("end_steps"), data)

    index = NameIndex.build((p, p, [p]) for p in players)
    circle_tokens: dict[str, list[Token]] = {s: [] for s in board.sections}
    raw = r.mapping(data.get("circle_tokens"), "circle_tokens", data, "/circle_tokens")
    for key, texts in raw.items():
        section = r.name(board.names["section"], key, "section", raw, f"/circle_tokens/{key}")
        circle_tokens[section] += _tokens(r, index, texts, raw, f"/circle_tokens/{key}")
    space_tokens: dict[str, list[Token]] = {}
    raw = r.mapping(data.get("space_tokens"), "space_tokens", data, "/space_tokens")
    for key, texts in raw.items():
        space = r.name(board.names["space"], key, "space", raw, f"/space_tokens/{key}")
        found = _tokens(r, index, texts, raw, f"/space_tokens/{key}")
        if found:
            space_tokens.setdefault(space, []).extend(found)

    player_state = _player_state(r, data.get("player_state"), index, players, data)
    history = data.get("history") or []
    if not isinstance(history, list):
        raise r.fail("history must be a list", history, "/history")
    state = State(round_, players, faces, circle, covered, stacks, tokens, end_steps,
                  _sorted_circle(board, players, circle_tokens), _sorted_spaces(board, players, space_tokens),
                  player_state, plain(history), leader=leader, turn=turn)
    problem = position_problem(board, state)
    if problem:
        message, pointer = problem
        node = data.get(pointer.split("/")[1]) if pointer else data
        raise r.fail(message, node if line_of(node) else data, pointer)
    return state


def _players(r: _Reader, value: Any, data: dict) -> list[str]:
    if not isinstance(value, list) or not value:
        raise r.fail("players must be a non-empty list of names, in seat order", value or data, "/players")
    names = [str(p) for p in value]
    for i, name in enumerate(names):
        if not PLAYER_NAME.fullmatch(name) or name.lower() in RESERVED_NAMES:
            raise r.fail(f"{name!r} cannot be a player name: one word of letters (digits, - and ' after the first), "
                         f"not a step keyword", value, f"/players/{i}")
    folded = [n.casefold() for n in names]
    if len(set(folded)) != len(folded):
        raise r.fail("two players have the same name", value, "/players")
    return names


def _faces(r: _Reader, value: Any, data: dict) -> dict[str, str]:
    board = r.board
    faces = dict(board.setup.faces)
    for key, face in r.mapping(value, "faces", data, "/faces").items():
        region = r.name(board.names["region"], key, "region", value, f"/faces/{key}")
        if str(face) not in board.faces:
            raise r.fail(f"face {face!r} of {region}: use {' or '.join(board.faces)}", value, f"/faces/{key}")
        faces[region] = str(face)
    return faces


def _circle(r: _Reader, value: Any, data: dict) -> dict[str, int | None]:
    board = r.board
    if value is None:
        return dict(board.setup.tile_order)
    raw = r.mapping(value, "circle", data, "/circle")
    circle: dict[str, int | None] = {}
    for key, tile in raw.items():
        section = r.name(board.names["section"], key, "section", raw, f"/circle/{key}")
        if str(tile).lower() == MELTED:
            circle[section] = None
        elif isinstance(tile, int) and not isinstance(tile, bool) and tile in board.tiles:
            if tile in circle.values():
                raise r.fail(f"tile {tile} is on two sections", raw, f"/circle/{key}")
            circle[section] = tile
        else:
            raise r.fail(f"{section} must hold a tile ({', '.join(map(str, board.tiles))}) or `melted`, not {tile!r}",
                         raw, f"/circle/{key}")
    missing = [s for s in board.sections if s not in circle]
    if missing:
        raise r.fail(f"circle must give every section; missing {', '.join(missing)}", raw, "/circle")
    return {s: circle[s] for s in board.sections}


def _covered(r: _Reader, value: Any, data: dict) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise r.fail("covered must be a list of sub-regions", data, "/covered")
    covered = []
    for i, key in enumerate(value):
        sub = r.name(r.board.names["subregion"], key, "sub-region", value, f"/covered/{i}")
        if sub in covered:
            raise r.fail(f"{sub} is covered twice", value, f"/covered/{i}")
        covered.append(sub)
    return covered


def _stacks(r: _Reader, value: Any, covered: list[str], data: dict) -> dict[str, list[int]]:
    """Event stacks; by default the setup's, without the tiles already placed."""
    board = r.board
    covered_dots = {(board.subregions[s].region, board.subregions[s].dots) for s in covered}
    stacks = {reg: [d for d in s if (reg, d) not in covered_dots] for reg, s in board.setup.event_stacks.items()}
    for key, dots in r.mapping(value, "event_stacks", data, "/event_stacks").items():
        region = r.name(board.names["region"], key, "region", value, f"/event_stacks/{key}")
        pointer = f"/event_stacks/{key}"
        if not isinstance(dots, list):
            raise r.fail("an event stack is a list of dots, top first", value, pointer)
        valid = sorted(board.subregions[s].dots for s in board.regions[region].subregions)
        for d in dots:
            if d not in valid or dots.count(d) > 1:
                raise r.fail(f"the {region} stack holds each of {valid} at most once, not {d!r}", dots, pointer)
            if (region, d) in covered_dots:
                raise r.fail(f"the {region} {d}-dot Event tile is already on the board ({board.subregion_of(region, d)} "
                             f"is covered)", dots, pointer)
        stacks[region] = [int(d) for d in dots]
    return stacks


def _region_tokens(r: _Reader, value: Any, data: dict) -> list[list[str]]:
    board = r.board
    if value is None:
        return [list(t) for t in board.setup.region_tokens]
    if not isinstance(value, list):
        raise r.fail("region_tokens must list the Double Region token of each round", data, "/region_tokens")
    return [[r.name(board.names["region"], reg, "region", value, f"/region_tokens/{i}") for reg in pair]
            for i, pair in enumerate(value)]


def _end_steps(r: _Reader, value: Any, data: dict) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise r.fail("end_steps must be a list like [melt, majority bear]", data, "/end_steps")
    steps = []
    for i, text in enumerate(value):
        parts = str(text).split()
        ok = parts and parts[0] in STEP_KINDS and (len(parts) == 1 if parts[0] == "melt" else
                                                   len(parts) == 2 and parts[1] in r.board.regions)
        if not ok:
            raise r.fail(f"unknown End of Round step {text!r}; write melt, majority <region> or events <region>",
                         value, f"/end_steps/{i}")
        steps.append(" ".join(parts))
    return steps


def _tokens(r: _Reader, players: NameIndex, texts: Any, node: Any, pointer: str) -> list[Token]:
    if texts is None:
        return []
    if not isinstance(texts, list):
        raise r.fail("tokens are a list like [Remi fish, Joelle land_mammal]", node, pointer)
    out = []
    for i, text in enumerate(texts):
        parts = str(text).split(None, 1)
        if len(parts) != 2:
            raise r.fail(f"a token is written '<player> <group>', not {text!r}", texts, f"{pointer}/{i}")
        player = r.name(players, parts[0], "player", texts, f"{pointer}/{i}")
        group = r.name(r.board.names["group"], parts[1], "group", texts, f"{pointer}/{i}")
        out.append(Token(player, group))
    return out


def _player_state(r: _Reader, value: Any, index: NameIndex, players: list[str], data: dict) -> dict[str, PlayerState]:
    board = r.board
    states = {p: PlayerState(release={g: 0 for g in board.groups}, supply={g: 0 for g in board.groups})
              for p in players}
    for key, raw in r.mapping(value, "player_state", data, "/player_state").items():
        player = r.name(index, key, "player", value, f"/player_state/{key}")
        pointer = f"/player_state/{key}"
        raw = r.mapping(raw, f"{player}'s state", value, pointer)
        for field_name, amount in raw.items():
            if field_name in NUMBERS:
                setattr(states[player], field_name, r.whole_number(amount, f"{player}'s {field_name}", raw,
                                                            f"{pointer}/{field_name}"))
            elif field_name in POOLS:
                pool = getattr(states[player], field_name)
                for g, n in r.mapping(amount, f"{player}'s {field_name}", raw, f"{pointer}/{field_name}").items():
                    group = r.name(board.names["group"], g, "group", amount, f"{pointer}/{field_name}/{g}")
                    pool[group] = r.whole_number(n, f"{player}'s {field_name} of {group}", amount, f"{pointer}/{field_name}/{g}")
            else:
                raise r.fail(f"unknown counter {field_name!r}; use {', '.join(NUMBERS + POOLS)}", raw,
                             f"{pointer}/{field_name}")
        if states[player].hand > board.hand_limit:
            raise r.fail(f"{player} holds {states[player].hand} cards; the hand limit is {board.hand_limit}", raw,
                         f"{pointer}/hand")
    return states


def position_problem(board: Board, state: State) -> tuple[str, str] | None:
    """The first rule a position breaks (§7.1), with the JSON pointer of the part at fault, or None."""
    for section, tokens in state.circle_tokens.items():
        if state.circle[section] is None:
            for t in tokens:
                if t.group in board.jumpers:
                    return (f"{t.player}'s {board.group_name(t.group)} stands on melted {section}: birds and land "
                            f"mammals never stand on a melted area (C26)", f"/circle_tokens/{section}")
    for space, tokens in state.space_tokens.items():
        info = board.spaces[space]
        if info.subregion in state.covered:
            return f"{space} lies in {info.subregion}, which an Event tile covers", f"/space_tokens/{space}"
        if not info.shared and len(tokens) > 1:
            return f"{space} holds one token, not {len(tokens)}", f"/space_tokens/{space}"
        for t in tokens:
            if t.group not in info.groups:
                return (f"{space} does not take a {board.group_name(t.group)} (it takes "
                        f"{', '.join(board.group_name(g) for g in info.groups)})", f"/space_tokens/{space}")
    for player in state.players:
        me = state.me(player)
        for group in board.groups:
            total = me.release[group] + me.supply[group]
            total += sum(t == (player, group) for ts in state.circle_tokens.values() for t in ts)
            total += sum(t == (player, group) for ts in state.space_tokens.values() for t in ts)
            if total > board.tokens_per_group:
                return (f"{player} has {total} {board.group_name(group)} tokens; a player has "
                        f"{board.tokens_per_group} of each group", f"/player_state/{player}")
    return None


# ------------------------------------------------------------------------------------------ to data


def _order_key(board: Board, players: list[str]):
    groups = list(board.groups)
    return lambda t: (players.index(t.player), groups.index(t.group))


def _sorted_circle(board: Board, players: list[str], tokens: dict[str, list[Token]]) -> dict[str, list[Token]]:
    key = _order_key(board, players)
    return {s: sorted(tokens.get(s, []), key=key) for s in board.sections}


def _sorted_spaces(board: Board, players: list[str], tokens: dict[str, list[Token]]) -> dict[str, list[Token]]:
    key = _order_key(board, players)
    return {s: sorted(tokens[s], key=key) for s in board.spaces if tokens.get(s)}


def _token_text(t: Token) -> str:
    return f"{t.player} {t.group}"


def state_to_data(board: Board, state: State) -> dict[str, Any]:
    """The state as plain data, in a fixed order (tokens by seat, then group)."""
    circle_tokens = _sorted_circle(board, state.players, state.circle_tokens)
    space_tokens = _sorted_spaces(board, state.players, state.space_tokens)
    return {
        "round": state.round,
        "turn": state.turn,
        "players": list(state.players),
        "leader": state.leader or state.players[0],
        "faces": {r: state.faces[r] for r in board.regions},
        "circle": {s: MELTED if state.circle[s] is None else state.circle[s] for s in board.sections},
        "covered": list(state.covered),
        "event_stacks": {r: list(state.event_stacks.get(r, [])) for r in board.regions},
        "region_tokens": [list(t) for t in state.region_tokens],
        "end_steps": list(state.end_steps),
        "circle_tokens": {s: [_token_text(t) for t in ts] for s, ts in circle_tokens.items()},
        "space_tokens": {s: [_token_text(t) for t in ts] for s, ts in space_tokens.items()},
        "player_state": {p: _player_data(board, state.me(p)) for p in state.players},
        "history": list(state.history),
    }


def _player_data(board: Board, me: PlayerState) -> dict[str, Any]:
    data: dict[str, Any] = {k: getattr(me, k) for k in NUMBERS}
    data["release"] = {g: me.release.get(g, 0) for g in board.groups}
    data["supply"] = {g: me.supply.get(g, 0) for g in board.groups}
    return data

