"""The Arctic Race board as data: the track as a networkx path graph, the river's slots, the tile faces, the die,
the cards and the point board, all read from `variants/arctic-race.yaml` with the line of every problem.

The track graph runs start (0) -> 1 -> ... -> last space -> FIN. Fixed spaces carry their icon; river spaces
carry only their slot, and `track(river)` fills them from the tiles lying in the slots (R1, R4).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from adjudicator.errors import VariantError
from adjudicator.located import variant_error
from adjudicator.names import NameIndex

FIN = "FIN"  # the point board: reached by moving beyond the last space (R19)
WATER = "water"  # an empty slot after the pile ran out (R22, R23); never printed on a tile
ACTIONS = ("start", "push", "die", "collect")  # what action icons and card alternatives can do


@dataclass(frozen=True)
class Icon:
    """What an icon does when a racer comes to rest on it."""

    name: str
    kind: str  # none, move_on, action
    spaces: int = 0  # move_on: how far it carries the racer on
    action: str | None = None  # action: start, push, die or collect


@dataclass(frozen=True)
class Card:
    """A race card: `move` moves one of `racers` by `steps`; `alternative` is its other action (or None)."""

    number: int
    name: str
    racers: tuple[int, ...]
    steps: int
    alternative: str | None

    @property
    def actions(self) -> tuple[str, ...]:
        """The actions a player may choose on this card."""
        return ("move",) + ((self.alternative,) if self.alternative else ())


@dataclass(eq=False)
class RaceBoard:
    """The Arctic Race board of one variant file."""

    name: str
    title: str
    rules: str
    source: str | None
    min_players: int
    max_players: int
    colours: list[str]
    racer_names: dict[int, str]
    icons: dict[str, Icon]
    last_space: int
    fixed: dict[int, str]
    slot_names: list[str]  # left (insertion) to right (pushed off)
    slots: list[list[int]]
    tiles: dict[str, list[str]]
    tiles_removed: dict[int, int]
    die_faces: list[str]
    cards: dict[int, Card]  # in hand order (5, 4, 3, 2, 1 on the reference board)
    points: dict[int, list[int]]
    tiebreak_races: list[int]
    end_when_home: int
    graph: nx.DiGraph
    raw: dict[str, Any] = field(default_factory=dict)
    names: NameIndex = field(default_factory=NameIndex)  # player colours
    tile_names: NameIndex = field(default_factory=NameIndex)
    card_names: NameIndex = field(default_factory=NameIndex)

    @property
    def racers(self) -> list[int]:
        """The racer numbers every player has (1..5)."""
        return list(self.racer_names)

    def slot_of(self, space: Any) -> tuple[int, int] | None:
        """(slot index, place on the tile) of a river space, or None off the river."""
        data = self.graph.nodes.get(space, {})
        return (data["slot"], data["place"]) if "slot" in data else None

    def river_spaces(self) -> list[int]:
        """Every river space, left to right."""
        return [s for slot in self.slots for s in slot]

    def track(self, river: list[str]) -> nx.DiGraph:
        """The track with the icons of the tiles (or open water) now lying in the slots (R1, R4, R23)."""
        graph = self.graph.copy()
        for index, tile in enumerate(river):
            for place, space in enumerate(self.slots[index]):
                graph.nodes[space]["icon"] = WATER if tile == WATER else self.tiles[tile][place]
        return graph

    def ahead(self, space: Any, steps: int) -> Any:
        """The space `steps` spaces further along the track (FIN once beyond the last space)."""
        for _ in range(steps):
            if space == FIN:
                break
            space = next(iter(self.graph.successors(space)))
        return space

    def card_order(self) -> list[int]:
        """The cards in the order a hand is written."""
        return list(self.cards)


_fail = variant_error  # (adjudicator/located.py: a board file's problem at its line)


def _mapping(data: Any, key: str, source: str | None) -> dict:
    value = data.get(key)
    if not isinstance(value, dict):
        raise _fail(f"`{key}` must be a mapping (see shared/boards/arctic-race-board.md section 6)", source, value,
                    data)
    return value


def _int(value: Any, what: str, source: str | None, node: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            return int(str(value))
        except ValueError:
            raise _fail(f"{what} must be a whole number, not {value!r}", source, node) from None
    return value


def _icons(data: dict, source: str | None) -> dict[str, Icon]:
    icons: dict[str, Icon] = {}
    for name, spec in _mapping(data, "icons", source).items():
        if not isinstance(spec, dict) or spec.get("kind") not in ("none", "move_on", "action"):
            raise _fail(f"icon {name!r} needs `kind: none`, `kind: move_on` (with `spaces`) or `kind: action` "
                        f"(with `action`)", source, spec, data["icons"])
        if spec["kind"] == "move_on":
            spaces = _int(spec.get("spaces"), f"the spaces of icon {name!r}", source, spec)
            if spaces < 1:
                raise _fail(f"icon {name!r} must carry a racer at least 1 space on", source, spec)
            icons[str(name)] = Icon(str(name), "move_on", spaces=spaces)
        elif spec["kind"] == "action":
            if spec.get("action") not in ACTIONS:
                raise _fail(f"icon {name!r}: unknown action {spec.get('action')!r}; use {', '.join(ACTIONS)}",
                            source, spec)
            icons[str(name)] = Icon(str(name), "action", action=str(spec["action"]))
        else:
            icons[str(name)] = Icon(str(name), "none")
    if WATER in icons:
        raise _fail(f"{WATER!r} is reserved for an empty slot; it cannot be an icon", source, data["icons"])
    return icons


def _icon(value: Any, icons: dict[str, Icon], where: str, source: str | None, node: Any) -> str:
    if str(value) not in icons:
        hint = " (quote +N icons: unquoted YAML reads +1 as a number)" if isinstance(value, int) else ""
        raise _fail(f"{where}: unknown icon {value!r}{hint}; icons are {', '.join(icons)}", source, value, node)
    return str(value)


def _track(data: dict, icons: dict[str, Icon], source: str | None) -> tuple[int, dict[int, str]]:
    track = _mapping(data, "track", source)
    if _int(track.get("start", 0), "track start", source, track) != 0:
        raise _fail("the start area is position 0 (R3)", source, track)
    last = _int(track.get("last_space"), "track last_space", source, track)
    fixed_raw = track.get("fixed") or {}
    if not isinstance(fixed_raw, dict):
        raise _fail("`track.fixed` must map space numbers to icons", source, fixed_raw, track)
    fixed: dict[int, str] = {}
    for space, icon in fixed_raw.items():
        number = _int(space, "a fixed space", source, fixed_raw)
        if not 1 <= number <= last:
            raise _fail(f"fixed space {number} is not on the track 1-{last}", source, fixed_raw)
        fixed[number] = _icon(icon, icons, f"space {number}", source, fixed_raw)
    return last, fixed


def _river(data: dict, last: int, fixed: dict[int, str], source: str | None) -> tuple[list[str], list[list[int]], int]:
    river = _mapping(data, "river", source)
    per_tile = _int(river.get("spaces_per_tile"), "river spaces_per_tile", source, river)
    slots_raw = river.get("slots")
    if not isinstance(slots_raw, dict) or not slots_raw:
        raise _fail("`river.slots` must map slot names to their spaces, left to right", source, slots_raw, river)
    names, slots = [], []
    for name, spaces in slots_raw.items():
        if not isinstance(spaces, list) or len(spaces) != per_tile:
            raise _fail(f"slot {name} must list {per_tile} spaces (spaces_per_tile)", source, spaces, slots_raw)
        numbers = [_int(s, f"a space of slot {name}", source, spaces) for s in spaces]
        if numbers != list(range(numbers[0], numbers[0] + per_tile)):
            raise _fail(f"slot {name} must be {per_tile} consecutive spaces, left to right", source, spaces)
        names.append(str(name))
        slots.append(numbers)
    flat = [s for slot in slots for s in slot]
    if flat != list(range(flat[0], flat[0] + len(flat))):
        raise _fail("the slots must follow each other along the track, left (insertion) to right (R1)", source,
                    slots_raw)
    # The river flows toward the finish (R1): a tile enters the first slot and leaves from the last.
    if str(river.get("insert_at", names[0])) != names[0] or str(river.get("push_off_at", names[-1])) != names[-1]:
        raise _fail(f"the river flows left to right toward the finish (R1): insert_at must be {names[0]} and "
                    f"push_off_at {names[-1]}; list the slots in that order", source, river)
    for space in range(1, last + 1):
        in_river = space in flat
        if in_river == (space in fixed):
            what = "both a fixed space and a river space" if in_river else "neither a fixed space nor a river space"
            raise _fail(f"space {space} is {what}; every space 1-{last} must be exactly one", source,
                        data["track"].get("fixed"), data["track"])
    return names, slots, per_tile


def _tiles(data: dict, icons: dict[str, Icon], per_tile: int, source: str | None) -> dict[str, list[str]]:
    tiles: dict[str, list[str]] = {}
    raw = _mapping(data, "tiles", source)
    for name, faces in raw.items():
        if not isinstance(faces, list) or len(faces) != per_tile:
            raise _fail(f"tile {name} must list {per_tile} icons, left to right (R4, R5)", source, faces, raw)
        if str(name) == WATER:
            raise _fail(f"{WATER!r} is reserved for an empty slot; it cannot name a tile", source, raw)
        tiles[str(name)] = [_icon(f, icons, f"tile {name}", source, faces) for f in faces]
    return tiles


def _cards(data: dict, racers: list[int], source: str | None) -> dict[int, Card]:
    cards: dict[int, Card] = {}
    raw = _mapping(data, "cards", source)
    for number, spec in raw.items():
        n = _int(number, "a card number", source, raw)
        if not isinstance(spec, dict):
            raise _fail(f"card {n} needs racers, steps and alternative", source, spec, raw)
        moved = spec.get("racers")
        if not isinstance(moved, list) or not moved:
            raise _fail(f"card {n}: `racers` must list the racers it may move", source, spec)
        moved_numbers = tuple(_int(r, f"a racer of card {n}", source, spec) for r in moved)
        if any(r not in racers for r in moved_numbers):
            raise _fail(f"card {n} names a racer that does not exist; racers are {racers}", source, spec)
        alternative = spec.get("alternative")
        if alternative is not None and alternative not in ACTIONS:
            raise _fail(f"card {n}: unknown alternative {alternative!r}; use {', '.join(ACTIONS)} or null", source,
                        spec)
        steps = _int(spec.get("steps"), f"the steps of card {n}", source, spec)
        cards[n] = Card(n, str(spec.get("name", n)), moved_numbers, steps, alternative)
    return cards


def _points(data: dict, racers: list[int], source: str | None) -> dict[int, list[int]]:
    raw = _mapping(data, "points", source)
    points = {_int(k, "a race", source, raw): v for k, v in raw.items()}
    for race in racers:
        row = points.get(race)
        if not isinstance(row, list) or not row:
            raise _fail(f"points: race {race} needs its points for 1st, 2nd, ... and every later place (R26)",
                        source, row, raw)
        points[race] = [_int(p, f"points of race {race}", source, row) for p in row]
    return points


def load_board(data: Any, source: str | None = None) -> RaceBoard:
    """The board of an Arctic Race variant file; a VariantError names the line of the first problem."""
    if not isinstance(data, dict):
        raise VariantError("a variant file must be a YAML mapping", file=source)
    for key in ("name", "colours", "racers", "icons", "track", "river", "tiles", "tiles_removed", "die_faces",
                "cards", "points"):
        if key not in data:
            raise _fail(f"missing the required key {key!r} (see shared/boards/arctic-race-board.md section 6)",
                        source, data)
    players = _mapping(data, "players", source) if "players" in data else {}
    low = _int(players.get("min", 2), "players min", source, players)
    high = _int(players.get("max", 6), "players max", source, players)
    colours = data["colours"]
    if not isinstance(colours, list) or len(set(map(str, colours))) < high or len(colours) != len(set(colours)):
        raise _fail(f"`colours` must list at least {high} different player colours", source, colours, data)
    racer_raw = _mapping(data, "racers", source)
    racer_names = {_int(k, "a racer number", source, racer_raw): str(v) for k, v in racer_raw.items()}
    racers = list(racer_names)

    icons = _icons(data, source)
    last, fixed = _track(data, icons, source)
    slot_names, slots, per_tile = _river(data, last, fixed, source)
    tiles = _tiles(data, icons, per_tile, source)

    removed_raw = _mapping(data, "tiles_removed", source)
    removed = {_int(k, "a player count", source, removed_raw): _int(v, "a number of tiles", source, removed_raw)
               for k, v in removed_raw.items()}
    for count in range(low, high + 1):
        if count not in removed:
            raise _fail(f"tiles_removed: how many tiles are removed for {count} players? (R10)", source, removed_raw)
        if removed[count] + len(slots) > len(tiles):
            raise _fail(f"tiles_removed: with {removed[count]} removed, {count} players cannot fill the "
                        f"{len(slots)} slots from {len(tiles)} tiles", source, removed_raw)

    faces = data["die_faces"]
    if not isinstance(faces, list) or not faces:
        raise _fail("`die_faces` must list the faces of the die (R8)", source, faces, data)
    die_faces = [str(f) for f in faces]
    for face in die_faces:
        if face != "black" and (not face.isdigit() or int(face) not in racers):
            raise _fail(f"die face {face!r}: a face is a racer number or `black` (R20)", source, faces)

    cards = _cards(data, racers, source)
    points = _points(data, racers, source)
    tiebreak = [_int(r, "a tie-break race", source, data) for r in data.get("tiebreak_races", sorted(racers))]
    home = _int(data.get("end_when_home", 3), "end_when_home", source, data)

    graph: nx.DiGraph[int | str] = nx.DiGraph()  # spaces by number, and FIN
    graph.add_node(0, zone="start")
    slot_place = {space: (i, j) for i, slot in enumerate(slots) for j, space in enumerate(slot)}
    for space in range(1, last + 1):
        if space in slot_place:
            graph.add_node(space, zone="river", slot=slot_place[space][0], place=slot_place[space][1])
        else:
            graph.add_node(space, zone="fixed", icon=fixed[space])
    graph.add_node(FIN, zone="finish")
    nx.add_path(graph, [0, *range(1, last + 1), FIN])

    board = RaceBoard(
        name=str(data["name"]), title=str(data.get("title", data["name"])), rules=str(data.get("rules")),
        source=source, min_players=low, max_players=high, colours=[str(c) for c in colours],
        racer_names=racer_names, icons=icons, last_space=last, fixed=fixed, slot_names=slot_names, slots=slots,
        tiles=tiles, tiles_removed=removed, die_faces=die_faces, cards=cards, points=points,
        tiebreak_races=tiebreak, end_when_home=home, graph=graph, raw=data,
    )
    board.names = NameIndex.build([(c, c, [c]) for c in board.colours])
    board.tile_names = NameIndex.build([(t, t, [t]) for t in tiles])
    # Only names made of words can be written as a card in an order ("dog sled"; not "1, 2 or 3").
    board.card_names = NameIndex.build([(str(n), c.name, [c.name]) for n, c in cards.items()
                                        if re.fullmatch(r"[A-Za-z][A-Za-z -]*", c.name)])
    return board
