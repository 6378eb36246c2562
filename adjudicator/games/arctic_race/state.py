"""An Arctic Race position (board section 7.1) and its game-file data, read with every invariant checked.

```yaml
phase: racing                  # setup (before `players`, `start`, `tiles`), racing, or over
players: [Red, Yellow, Blue]   # clockwise (R9)
start_token: Red
round: 1
turn_order: [Red, Yellow, Blue]  # this round's order, fixed when it began (R16)
to_play: Red                   # whose turn is next in this round
hands: {Red: [5, 4, 3, 2, 1], ...}
played: {Red: [], ...}         # most recent last
racers: {Red 1: 0, Red 5: 17, ...}   # every racer not finished; 0 is the start area (R3)
finished: {5: [Blue, Red]}     # per race, the players in arrival order (R19)
river: [T22, T30, T07, T29, T18]     # S1..S5; `water` for an empty slot (R22)
pile: [T16, T01]               # top first; or a number: that many tiles face down, faces unknown (A17)
out: [T25]                     # pushed off during the game
removed: [...]                 # set aside unseen at set-up (not written when the pile is face down)
standings: {points: {...}, ranking: [...]}   # written for readers; recomputed on reading
game_over: false               # or {reason: three-home | tiles | both, points, ranking}
history: []
```
A game still to be set up is `phase: setup`, with `seed` and `tiles` (the shuffled order) after
`adjudicator new --seed N` (A18).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from adjudicator.errors import StateError
from adjudicator.located import LocatedReader
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.yamlio import plain

from .board import WATER, RaceBoard
from .scoring import standings

SETUP, RACING, OVER = "setup", "racing", "over"
KEYS = ("phase", "players", "start_token", "round", "turn_order", "to_play", "hands", "played", "racers",
        "finished", "river", "pile", "out", "removed", "standings", "game_over", "history", "seed", "tiles")

Racer = tuple[str, int]  # (player, racer number)


@dataclass
class RaceState:
    """Where everything is: players, cards, racers, the river and the pile."""

    phase: str = SETUP
    players: list[str] = field(default_factory=list)
    start_token: str | None = None
    round: int = 1
    turn_order: list[str] = field(default_factory=list)
    to_play: str | None = None
    hands: dict[str, list[int]] = field(default_factory=dict)
    played: dict[str, list[int]] = field(default_factory=dict)
    racers: dict[Racer, int] = field(default_factory=dict)  # every unfinished racer; 0 = the start area
    finished: dict[int, list[str]] = field(default_factory=dict)
    river: list[str] = field(default_factory=list)
    pile: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    end_reason: str | None = None
    history: list = field(default_factory=list)
    face_down: bool = False  # a real set-up: the pile's faces and the tiles removed are unknown (A17)
    pile_unknown: int = 0  # with face_down: the tiles left in the pile; `pile` and `removed` stay empty
    seed: int | None = None  # set-up only: the seed of `new --seed` (A18)
    tile_order: list[str] = field(default_factory=list)  # set-up only: the seeded shuffle, top first (A18)

    def copy(self) -> "RaceState":
        """A deep copy, so resolution never touches the input state."""
        return copy.deepcopy(self)

    def occupant(self, space: Any) -> Racer | None:
        """The racer standing on a track space (never the start area, where any number wait)."""
        if space == 0:
            return None
        for racer, position in self.racers.items():
            if position == space:
                return racer
        return None

    def is_finished(self, player: str, number: int) -> bool:
        """Whether the racer has reached the point board."""
        return player in self.finished.get(number, [])

    def home_count(self, player: str) -> int:
        """How many of the player's racers have finished."""
        return sum(player in order for order in self.finished.values())

    def pile_size(self) -> int:
        """How many tiles are left in the pile, known or face down."""
        return len(self.pile) + self.pile_unknown

    def seen_tiles(self) -> set[str]:
        """Every tile whose place the state knows (river, known pile, out, removed)."""
        return {t for t in self.river if t != WATER} | set(self.pile) | set(self.out) | set(self.removed)

    def alternative_end(self) -> bool:
        """Whether a push found the pile empty (open water in the river): this round is the last (R22, R25)."""
        return WATER in self.river


def racer_name(racer: Racer) -> str:
    """`Red 5`."""
    return f"{racer[0]} {racer[1]}"


def turn_order_from(players: list[str], first: str) -> list[str]:
    """The clockwise order starting with `first` (R9)."""
    i = players.index(first)
    return players[i:] + players[:i]


def initial_state(board: RaceBoard) -> RaceState:
    """A game waiting for its set-up (players, the start token's first holder, the shuffled tile order)."""
    return RaceState()


def shuffled_tiles(board: RaceBoard, seed: int) -> list[str]:
    """All the tiles in a shuffled order, top first, the same for the same seed (A18)."""
    import random

    order = list(board.tiles)
    random.Random(seed).shuffle(order)
    return order


def setup_state(board: RaceBoard, players: list[str], start: str, order: list[str]) -> RaceState:
    """The position after set-up from a shuffled tile order, top first (R9, R10; board section 5.4)."""
    removed = board.tiles_removed[len(players)]
    slots = len(board.slots)
    state = table_state(board, players, start, list(order[removed:removed + slots]))
    state.pile, state.face_down, state.pile_unknown = list(order[removed + slots:]), False, 0
    state.removed = list(order[:removed])
    return state


def table_state(board: RaceBoard, players: list[str], start: str, river: list[str]) -> RaceState:
    """The position after a real set-up: the river as laid out on the table, the rest face down (the tiles
    removed unseen, then the pile, whose faces are unknown until drawn) (A17)."""
    unseen = len(board.tiles) - len(river) - board.tiles_removed[len(players)]
    return RaceState(
        phase=RACING, players=list(players), start_token=start, round=1,
        turn_order=turn_order_from(players, start), to_play=start,
        hands={p: board.card_order() for p in players}, played={p: [] for p in players},
        racers={(p, n): 0 for p in players for n in board.racers}, finished={},
        river=list(river), pile=[], face_down=True, pile_unknown=unseen, out=[], removed=[],
    )


# ---------------------------------------------------------------- reading


class _Reader(LocatedReader):
    """Reads state data, naming the line (game files) or JSON pointer (API) of each problem."""

    def __init__(self, board: RaceBoard, data: dict, file: str | None):
        super().__init__(file, data)
        self.board, self.data = board, data

    def player(self, name: Any, players: list[str], node: Any, pointer: str) -> str:
        colour = self.name(self.board.names, name, "player colour", node, pointer,
                           f"; colours are {', '.join(self.board.colours)}")
        if players and colour not in players:
            raise self.fail(f"{colour} is not playing; the players are {', '.join(players)}", node, pointer)
        return colour

    def players(self, key: str, players: list[str]) -> list[str]:
        raw = self.data.get(key)
        if not isinstance(raw, list):
            raise self.fail(f"`{key}` must be a list of player colours", raw, f"/{key}")
        out = [self.player(p, players, raw, f"/{key}/{i}") for i, p in enumerate(raw)]
        if len(set(out)) != len(out):
            raise self.fail(f"`{key}` names a player twice: {', '.join(out)}", raw, f"/{key}")
        return out

    def number(self, value: Any, what: str, node: Any, pointer: str) -> int:
        if isinstance(value, bool):
            raise self.fail(f"{what} must be a number, not {value!r}", node, pointer)
        try:
            return int(str(value))
        except ValueError:
            raise self.fail(f"{what} must be a number, not {value!r}", node, pointer) from None

    def tiles(self, key: str, allow_water: bool = False) -> list[str]:
        raw = self.data.get(key) or []
        if not isinstance(raw, list):
            raise self.fail(f"`{key}` must be a list of tiles", raw, f"/{key}")
        out = []
        for i, tile in enumerate(raw):
            if allow_water and str(tile) == WATER:
                out.append(WATER)
                continue
            try:
                out.append(self.board.tile_names.lookup(str(tile), "tile"))
            except (UnknownName, AmbiguousName) as exc:
                extra = f" or {WATER}" if allow_water else ""
                raise self.fail(f"{exc.message}; tiles are {next(iter(self.board.tiles))}..."
                                f"{list(self.board.tiles)[-1]}{extra}", raw, f"/{key}/{i}", exc.suggestions) from None
        return out

    def cards(self, key: str, players: list[str]) -> dict[str, list[int]] | None:
        raw = self.data.get(key)
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise self.fail(f"`{key}` must map players to lists of cards", raw, f"/{key}")
        out: dict[str, list[int]] = {}
        for name, cards in raw.items():
            player = self.player(name, players, raw, f"/{key}/{name}")
            if not isinstance(cards, list):
                raise self.fail(f"{key} of {player} must be a list of cards", cards, f"/{key}/{name}")
            numbers = [self.number(c, "a card", cards, f"/{key}/{name}") for c in cards]
            bad = [n for n in numbers if n not in self.board.cards]
            if bad or len(set(numbers)) != len(numbers):
                raise self.fail(f"{key} of {player}: {numbers} is not a set of the cards "
                                f"{self.board.card_order()}", cards, f"/{key}/{name}")
            out[player] = numbers
        return out


def state_from_data(board: RaceBoard, data: Any, file: str | None = None) -> RaceState:
    """A position from game-file (or case) data; a StateError names the problem's line and JSON pointer."""
    if not isinstance(data, dict):
        raise StateError("an Arctic Race state must be a mapping (phase, players, racers, river, ...)", file=file,
                         pointer="")
    r = _Reader(board, data, file)
    for key in data:
        if key not in KEYS and key != "variant":
            raise r.fail(f"unknown key {key!r}; a state has {', '.join(KEYS)}", data, f"/{key}")
    history = data.get("history") or []
    if not isinstance(history, list):
        raise r.fail("`history` must be a list", history, "/history")
    game_over = data.get("game_over") or False
    phase = str(data.get("phase") or (OVER if game_over else RACING if "players" in data else SETUP))
    if phase not in (SETUP, RACING, OVER):
        raise r.fail(f"unknown phase {phase!r}; use {SETUP}, {RACING} or {OVER}", data.get("phase"), "/phase")
    if phase == SETUP:
        extra = [k for k in data if k not in ("phase", "history", "variant", "game_over", "standings", "seed", "tiles")
                 and not (k == "players" and not data[k])]
        if extra:
            raise r.fail(f"a game still to be set up has no {', '.join(extra)}; set it up with the orders "
                         f"`players ...`, `start ...` and `tiles ...` (or `river ...`)", data, f"/{extra[0]}")
        state = RaceState(history=plain(history))
        if "tiles" in data:
            state.tile_order = r.tiles("tiles")
            if sorted(state.tile_order) != sorted(board.tiles):
                raise r.fail(f"`tiles` (the shuffled order) must list all {len(board.tiles)} tiles once each",
                             data.get("tiles"), "/tiles")
        if data.get("seed") is not None:
            state.seed = r.number(data["seed"], "the seed", data, "/seed")
        return state

    players = r.players("players", [])
    if not board.min_players <= len(players) <= board.max_players:
        raise r.fail(f"{len(players)} players: the game is for {board.min_players} to {board.max_players}",
                     data.get("players"), "/players")
    state = RaceState(phase=phase, players=players, history=plain(history))
    state.start_token = r.player(data.get("start_token", players[0]), players, data, "/start_token")
    state.round = r.number(data.get("round", 1), "the round", data, "/round")
    if state.round < 1:
        raise r.fail("the round must be 1 or more", data, "/round")
    state.turn_order = r.players("turn_order", players) if "turn_order" in data else \
        turn_order_from(players, state.start_token)
    if state.turn_order != turn_order_from(players, state.turn_order[0] if state.turn_order else players[0]):
        raise r.fail(f"the turn order {state.turn_order} is not the clockwise order of {players} (R9)",
                     data.get("turn_order"), "/turn_order")
    if phase == RACING:
        state.to_play = r.player(data.get("to_play", state.turn_order[0]), players, data, "/to_play")
    _read_cards(r, state)
    _read_racers(r, state)
    _read_tiles(r, state)
    if phase == OVER:
        reason = game_over.get("reason") if isinstance(game_over, dict) else None
        if reason not in ("three-home", "tiles", "both"):
            raise r.fail("a finished game needs `game_over: {reason: three-home | tiles | both}`",
                         data.get("game_over"), "/game_over")
        state.end_reason = str(reason)
    return state


def _read_cards(r: _Reader, state: RaceState) -> None:
    all_cards = r.board.card_order()
    hands = r.cards("hands", state.players) or {}
    played = r.cards("played", state.players) or {}
    for p in state.players:
        if p in hands and p in played:
            if sorted(hands[p] + played[p]) != sorted(all_cards):
                raise r.fail(f"the hand and the played cards of {p} must together be the cards {all_cards}",
                             r.data.get("hands"), f"/hands/{p}")
        elif p in played:
            hands[p] = [c for c in all_cards if c not in played[p]]
        else:
            hands.setdefault(p, list(all_cards))
            played[p] = [c for c in all_cards if c not in hands[p]]
        state.hands[p] = [c for c in all_cards if c in hands[p]]
        state.played[p] = played[p]


def _read_racers(r: _Reader, state: RaceState) -> None:
    board = r.board
    finished = r.data.get("finished") or {}
    if not isinstance(finished, dict):
        raise r.fail("`finished` must map each race to its finishers in arrival order", finished, "/finished")
    for race, order in finished.items():
        number = r.number(race, "a race", finished, f"/finished/{race}")
        if number not in board.racers:
            raise r.fail(f"there is no race {race}; races are {board.racers}", finished, f"/finished/{race}")
        if not isinstance(order, list):
            raise r.fail(f"the finishers of race {number} must be a list of players", order, f"/finished/{race}")
        names = [r.player(p, state.players, order, f"/finished/{race}/{i}") for i, p in enumerate(order)]
        if len(set(names)) != len(names):
            raise r.fail(f"race {number}: a player has one racer per race, but {names} repeats one", order,
                         f"/finished/{race}")
        if names:
            state.finished[number] = names
    state.finished = {k: state.finished[k] for k in sorted(state.finished)}

    raw = r.data.get("racers") or {}
    if not isinstance(raw, dict):
        raise r.fail("`racers` must map racers (`Red 5`) to their spaces (0 is the start)", raw, "/racers")
    given: dict[Racer, int] = {}
    for key, position in raw.items():
        pointer = f"/racers/{key}"
        parts = str(key).rsplit(None, 1)
        if len(parts) != 2 or not parts[1].isdigit():
            raise r.fail(f"cannot read the racer {key!r}; write a colour and a number, like `Red 5`", raw, pointer)
        racer = (r.player(parts[0], state.players, raw, pointer), int(parts[1]))
        if racer[1] not in board.racers:
            raise r.fail(f"{racer_name(racer)}: racers are numbered {board.racers}", raw, pointer)
        if state.is_finished(*racer):
            raise r.fail(f"{racer_name(racer)} has finished (see `finished`); it is not on the track", raw, pointer)
        space = 0 if str(position).lower() == "start" else r.number(position, f"the space of {key}", raw, pointer)
        if not 0 <= space <= board.last_space:
            raise r.fail(f"{racer_name(racer)} on {space}: the track runs 1-{board.last_space} (0 is the start)",
                         raw, pointer)
        given[racer] = space
    state.racers = {(p, n): given.get((p, n), 0) for p in state.players for n in board.racers
                    if not state.is_finished(p, n)}


def _read_tiles(r: _Reader, state: RaceState) -> None:
    board = r.board
    if "river" not in r.data:
        raise r.fail(f"`river` must list the tiles in {', '.join(board.slot_names)}", r.data, "/river")
    state.river = r.tiles("river", allow_water=True)
    if len(state.river) != len(board.slots):
        raise r.fail(f"the river has {len(board.slots)} slots ({', '.join(board.slot_names)}), not "
                     f"{len(state.river)}", r.data.get("river"), "/river")
    state.out = r.tiles("out")
    if isinstance(r.data.get("pile"), int) and not isinstance(r.data.get("pile"), bool):
        _read_face_down_pile(r, state)
        return _check_racers(r, state)
    state.pile = r.tiles("pile")
    # Water enters at the first slot and moves along like a tile, so it is always a prefix (R22).
    water = state.river.count(WATER)
    if state.river[:water] != [WATER] * water:
        raise r.fail("open water enters at the first slot and moves along: it can only lead the river (R22)",
                     r.data.get("river"), "/river")
    if water and state.pile:
        raise r.fail("open water only appears once the pile is empty (R22)", r.data.get("river"), "/river")
    listed = [t for t in state.river if t != WATER] + state.pile + state.out
    if "removed" in r.data:
        state.removed = r.tiles("removed")
        listed += state.removed
    else:
        state.removed = [t for t in board.tiles if t not in listed]
    twice = sorted({t for t in listed if listed.count(t) > 1})
    if twice:
        raise r.fail(f"tiles in two places at once: {', '.join(twice)}", r.data.get("river"), "/river")
    missing = [t for t in board.tiles if t not in listed + state.removed]
    if missing:
        raise r.fail(f"tiles nowhere (river, pile, out or removed): {', '.join(missing)}", r.data.get("removed"),
                     "/removed")
    _check_racers(r, state)


def _read_face_down_pile(r: _Reader, state: RaceState) -> None:
    """`pile: N`: N tiles face down (A17). The tiles the state does not place are those N and the ones removed
    unseen at set-up, so the counts must agree; water comes only once the pile is empty."""
    board = r.board
    state.face_down = True
    state.pile_unknown = r.number(r.data["pile"], "the pile", r.data, "/pile")
    if state.pile_unknown < 0:
        raise r.fail("the pile holds 0 tiles or more", r.data.get("pile"), "/pile")
    if "removed" in r.data:
        raise r.fail("with a face-down pile (`pile: N`) the tiles removed at set-up are unknown too: leave out "
                     "`removed`", r.data.get("removed"), "/removed")
    listed = [t for t in state.river if t != WATER] + state.out
    twice = sorted({t for t in listed if listed.count(t) > 1})
    if twice:
        raise r.fail(f"tiles in two places at once: {', '.join(twice)}", r.data.get("river"), "/river")
    unseen = len(board.tiles) - len(listed)
    removed = board.tiles_removed[len(state.players)]
    if unseen != state.pile_unknown + removed:
        raise r.fail(f"the river and `out` place {len(listed)} tiles, {removed} were removed unseen for "
                     f"{len(state.players)} players, so the face-down pile holds {unseen - removed}, not "
                     f"{state.pile_unknown}", r.data.get("pile"), "/pile")
    water = state.river.count(WATER)
    if state.river[:water] != [WATER] * water or (water and state.pile_unknown):
        raise r.fail("open water enters at the first slot once the pile is empty, and can only lead the river "
                     "(R22)", r.data.get("river"), "/river")


def _check_racers(r: _Reader, state: RaceState) -> None:
    """At most one racer per space; none stops on a move-on icon or on water (R17, R23)."""
    board = r.board
    track = board.track(state.river)
    seen: dict[int, Racer] = {}
    for racer, space in state.racers.items():
        if space == 0:
            continue
        pointer = f"/racers/{racer_name(racer)}"
        if space in seen:
            raise r.fail(f"{racer_name(seen[space])} and {racer_name(racer)} both stand on {space}; one racer per "
                         f"space (R17)", r.data.get("racers"), pointer)
        seen[space] = racer
        icon = track.nodes[space]["icon"]
        if icon == WATER or board.icons[icon].kind == "move_on":
            raise r.fail(f"{racer_name(racer)} stands on {space} ({icon}); no racer can stop on "
                         f"{'open water' if icon == WATER else 'a ' + icon + ' space'} (R17, R23)",
                         r.data.get("racers"), pointer)



# ---------------------------------------------------------------- writing


def state_to_data(board: RaceBoard, state: RaceState) -> dict[str, Any]:
    """The state as plain data, in a fixed order (the game file's body; what case files compare)."""
    if state.phase == SETUP:
        seeded: dict[str, Any] = {"seed": state.seed} if state.seed is not None else {}
        if state.tile_order:
            seeded["tiles"] = list(state.tile_order)
        return {"phase": SETUP, **seeded, "history": list(state.history)}
    score = standings(board, state)
    data: dict[str, Any] = {
        "phase": state.phase,
        "players": list(state.players),
        "start_token": state.start_token,
        "round": state.round,
        "turn_order": list(state.turn_order),
    }
    if state.phase == RACING:
        data["to_play"] = state.to_play
    data.update({
        "hands": {p: list(state.hands[p]) for p in state.players},
        "played": {p: list(state.played[p]) for p in state.players},
        "racers": {racer_name((p, n)): state.racers[(p, n)] for p in state.players for n in board.racers
                   if (p, n) in state.racers},
        "finished": {race: list(order) for race, order in sorted(state.finished.items()) if order},
        "river": list(state.river),
        "pile": state.pile_unknown if state.face_down else list(state.pile),
        "out": list(state.out),
        **({} if state.face_down else {"removed": list(state.removed)}),
        "standings": score,
        # a fresh copy: shared objects would be written as YAML anchors
        "game_over": {"reason": state.end_reason, **standings(board, state)} if state.phase == OVER else False,
        "history": list(state.history),
    })
    return data
