"""The Arctica board as data: the Arctic Circle as a clockwise cycle graph of sections, the Arctic Board as a
graph of spaces joined by lines, and the End of Round cards, loaded from a variant file with checks that name
the line of the problem."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from adjudicator.errors import VariantError
from adjudicator.located import variant_error
from adjudicator.names import NameIndex

BONUS_KINDS = ("bp", "cards", "wheels", "flora")  # what a bonus can give (arctica-board.md §1)
COST_KINDS = ("flora", "cards")  # what a cost can take: Release-Zone Flora, cards from the hand
STEP_KINDS = ("melt", "majority", "events")  # the End of Round steps this engine resolves, in rulebook order
TOKEN_DESTINATIONS = ("release",)  # where a tile choice may send the token
PLAYER_NAME = re.compile(r"[^\W\d_][\w'’-]*")  # one word, so `Name:` starts a player's order (AR8)
# Keywords an order starts with, so never a player's name (AR8): the End of Round steps, then the actions.
RESERVED_NAMES = frozenset({"melt", "melts", "melting", "majority", "majorities", "event", "events", "next",
                            "migrate", "migrates", "migration", "migrations", "colony", "colonise", "colonize",
                            "colonises", "colonizes", "flee", "flees"})


@dataclass(frozen=True)
class TileChoice:
    """A tile's optional trade (tile 6): pay `cost`, send the token to `token_to`, gain `gain`; or stay."""

    cost: dict[str, int]
    gain: dict[str, int]
    token_to: str


@dataclass(frozen=True)
class Tile:
    """An ice-floe tile: a bonus on arrival, or a choice."""

    number: int
    bonus: dict[str, int]
    choice: TileChoice | None


@dataclass(frozen=True)
class Section:
    """A section of the Arctic Circle; its melted-area bonus depends on the face of its region."""

    id: str
    region: str
    side: str
    melted_bonus: dict[str, dict[str, int]]


@dataclass(frozen=True)
class Region:
    """A region of the Arctic Board: its sub-regions in dot order and its circle sections."""

    id: str
    name: str
    subregions: tuple[str, ...]
    sections: tuple[str, ...]


@dataclass(frozen=True)
class Subregion:
    """A sub-region: its dots (the Event tile covering it) and the sections it touches on each face."""

    id: str
    region: str
    dots: int
    touches: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class Space:
    """A space of the Arctic Board."""

    id: str
    subregion: str
    region: str
    groups: tuple[str, ...]
    shared: bool
    cost: dict[str, int]
    bonus: dict[str, int]


@dataclass(frozen=True)
class Line:
    """A line between two spaces, with the bonus of the Connection it makes."""

    id: str
    ends: tuple[str, str]
    bonus: dict[str, int]


@dataclass(frozen=True)
class RoundCard:
    """An End of Round card: majority values for places 1-3, the steps it shows, which regions are scored."""

    round: int
    majority: tuple[int, ...]
    steps: tuple[str, ...]
    scored: str  # "token": the two regions of the Double Region token; "all": every region


@dataclass(frozen=True)
class Seat:
    """A default player: name and the group of their Starting Fauna card."""

    name: str
    start_group: str


@dataclass(frozen=True)
class Setup:
    """Setup inputs (shuffled in a real game, so only defaults)."""

    tile_order: dict[str, int]
    faces: dict[str, str]
    region_tokens: tuple[tuple[str, ...], ...]
    event_stacks: dict[str, tuple[int, ...]]
    start_tile: int
    start_tokens_on_tile: int
    start_tokens_on_wheel: int
    start_wheel_flora: int
    start_hand: int
    start_bp: dict[int, tuple[int, ...]]
    players: tuple[Seat, ...]


@dataclass(eq=False)
class Board:
    """The whole board; `circle` (a directed cycle, clockwise) and `graph` (spaces and lines) are networkx graphs."""

    name: str
    title: str
    rules: str
    groups: dict[str, str]  # id -> display name, in state order
    jumpers: frozenset[str]
    hand_limit: int
    tokens_per_group: int
    faces: tuple[str, ...]
    regions: dict[str, Region]
    sections: dict[str, Section]  # clockwise order
    tiles: dict[int, Tile]
    subregions: dict[str, Subregion]
    spaces: dict[str, Space]  # board order
    lines: dict[str, Line]
    rounds: dict[int, RoundCard]
    setup: Setup
    circle: nx.DiGraph = field(repr=False)
    graph: nx.Graph = field(repr=False)
    names: dict[str, NameIndex] = field(repr=False)  # "group", "section", "space", "region", "subregion"
    turns_per_round: int = 5  # "Each Round consists of 5 Turns, regardless of the number of players"

    def next_section(self, section: str) -> str:
        """The section clockwise after `section`."""
        return next(iter(self.circle.successors(section)))

    def section_face(self, section: str, faces: dict[str, str]) -> str:
        """The face of the region segment a section is printed on (C29)."""
        return faces[self.sections[section].region]

    def touching(self, subregion: str, faces: dict[str, str]) -> tuple[str, ...]:
        """The circle sections a sub-region touches, on its region's face."""
        sub = self.subregions[subregion]
        return sub.touches[faces[sub.region]]

    def subregion_of(self, region: str, dots: int) -> str | None:
        """The sub-region of a region with that many dots."""
        return next((s for s in self.regions[region].subregions if self.subregions[s].dots == dots), None)

    def last_round(self) -> int:
        """The number of rounds (one End of Round card each)."""
        return max(self.rounds)

    def group_name(self, group: str) -> str:
        """A group as players say it (`land mammal`)."""
        return self.groups[group].lower()


# ----------------------------------------------------------------------------------------------- loading


_fail = variant_error  # (adjudicator/located.py: a board file's problem at its line)


def _mapping(data: Any, key: str, source: str | None, parent: Any) -> dict:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, dict) or not value:
        raise _fail(f"`{key}` must be a non-empty mapping", source, value if value is not None else parent)
    return value


def _list(data: Any, key: str, source: str | None, parent: Any) -> list:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, list) or not value:
        raise _fail(f"`{key}` must be a non-empty list", source, value if value is not None else parent)
    return value


def _int(value: Any, what: str, source: str | None, node: Any, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _fail(f"{what} must be a whole number of at least {minimum}, not {value!r}", source, node)
    return value


def _amounts(value: Any, kinds: tuple[str, ...], what: str, source: str | None, node: Any) -> dict[str, int]:
    """A bonus or cost such as `{cards: 2}`: known kinds, positive amounts."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _fail(f"{what} must be a mapping like {{{kinds[0]}: 1}}", source, node)
    out = {}
    for kind, amount in value.items():
        if kind not in kinds:
            raise _fail(f"{what}: unknown kind {kind!r}; use {', '.join(kinds)}", source, value)
        out[str(kind)] = _int(amount, f"{what} {kind}", source, value, 1)
    return out


def _ref(value: Any, known: dict | set, what: str, source: str | None, node: Any) -> str:
    if str(value) not in known:
        raise _fail(f"unknown {what} {value!r}; known: {', '.join(map(str, known))}", source, node)
    return str(value)


def load_board(data: dict, source: str | None = None) -> Board:
    """A Board from a variant file's data; a VariantError names the line of any problem."""
    if not isinstance(data, dict):
        raise VariantError("a variant file must be a YAML mapping", file=source)
    name = str(data.get("name", "")).strip()
    if not name:
        raise _fail("the variant needs a `name`", source, data)

    raw_groups = _mapping(data, "groups", source, data)
    groups = {str(g): str((v or {}).get("name", g)) for g, v in raw_groups.items()}
    jumpers = frozenset(_ref(j, groups, "group", source, data.get("jumpers")) for j in data.get("jumpers") or [])
    faces = tuple(str(f) for f in _list(data, "faces", source, data))

    raw_regions = _mapping(data, "regions", source, data)
    raw_circle = _mapping(data, "circle", source, data)
    clockwise = [str(s) for s in _list(raw_circle, "clockwise", source, raw_circle)]
    raw_sections = _mapping(raw_circle, "sections", source, raw_circle)
    if sorted(clockwise) != sorted(map(str, raw_sections)) or len(set(clockwise)) != len(clockwise):
        raise _fail("circle.clockwise must list every section of circle.sections exactly once", source,
                    raw_circle.get("clockwise"))
    sections: dict[str, Section] = {}
    for sid in clockwise:
        raw = raw_sections[sid]
        region = _ref(raw.get("region"), raw_regions, "region", source, raw)
        melted = raw.get("melted_bonus")
        if not isinstance(melted, dict) or sorted(map(str, melted)) != sorted(faces):
            raise _fail(f"section {sid}: melted_bonus needs one bonus per face ({', '.join(faces)})", source, raw)
        sections[sid] = Section(sid, region, str(raw.get("side", "")),
                                {str(f): _amounts(b, BONUS_KINDS, f"section {sid} melted_bonus", source, melted)
                                 for f, b in melted.items()})

    raw_subs = _mapping(data, "subregions", source, data)
    subregions: dict[str, Subregion] = {}
    for sid, raw in raw_subs.items():
        sid = str(sid)
        region = _ref(raw.get("region"), raw_regions, "region", source, raw)
        touches = raw.get("touches")
        if not isinstance(touches, dict) or sorted(map(str, touches)) != sorted(faces):
            raise _fail(f"sub-region {sid}: touches needs a list of sections per face ({', '.join(faces)})", source, raw)
        by_face = {}
        for face, secs in touches.items():
            secs = tuple(_ref(s, sections, "section", source, touches) for s in secs or [])
            if any(sections[s].region != region for s in secs):
                raise _fail(f"sub-region {sid} touches a section of another region", source, touches)
            by_face[str(face)] = secs
        subregions[sid] = Subregion(sid, region, _int(raw.get("dots"), f"sub-region {sid} dots", source, raw, 1), by_face)

    regions: dict[str, Region] = {}
    for rid, raw in raw_regions.items():
        rid = str(rid)
        subs = tuple(_ref(s, subregions, "sub-region", source, raw) for s in _list(raw, "subregions", source, raw))
        if sorted(subs) != sorted(s for s, v in subregions.items() if v.region == rid):
            raise _fail(f"region {rid}: `subregions` must list exactly its sub-regions", source, raw)
        dots = [subregions[s].dots for s in subs]
        if len(set(dots)) != len(dots):
            raise _fail(f"region {rid}: two sub-regions with the same dots", source, raw)
        regions[rid] = Region(rid, str(raw.get("name", rid)), subs,
                              tuple(s for s in clockwise if sections[s].region == rid))

    tiles: dict[int, Tile] = {}
    for number, raw in _mapping(data, "tiles", source, data).items():
        number = _int(number, "a tile number", source, data.get("tiles"), 1)
        raw = raw or {}
        choice = None
        if "choice" in raw:
            c = raw["choice"] or {}
            choice = TileChoice(_amounts(c.get("cost"), COST_KINDS, f"tile {number} choice cost", source, c),
                                _amounts(c.get("gain"), BONUS_KINDS, f"tile {number} choice gain", source, c),
                                _ref(c.get("token_to"), set(TOKEN_DESTINATIONS), "token destination", source, c))
        tiles[number] = Tile(number, _amounts(raw.get("bonus"), BONUS_KINDS, f"tile {number} bonus", source, raw), choice)

    spaces: dict[str, Space] = {}
    for sid, raw in _mapping(data, "spaces", source, data).items():
        sid = str(sid)
        sub = _ref(raw.get("subregion"), subregions, "sub-region", source, raw)
        allowed = tuple(_ref(g, groups, "group", source, raw) for g in _list(raw, "groups", source, raw))
        kind = str(raw.get("kind", "single"))
        if kind not in ("single", "shared"):
            raise _fail(f"space {sid}: kind must be single or shared, not {kind!r}", source, raw)
        spaces[sid] = Space(sid, sub, subregions[sub].region, allowed, kind == "shared",
                            _amounts(raw.get("cost"), COST_KINDS, f"space {sid} cost", source, raw),
                            _amounts(raw.get("bonus"), BONUS_KINDS, f"space {sid} bonus", source, raw))

    lines: dict[str, Line] = {}
    for raw in _list(data, "lines", source, data):
        ends = raw.get("ends") if isinstance(raw, dict) else None
        if not isinstance(ends, list) or len(ends) != 2:
            raise _fail("a line needs `ends: [space, space]`", source, raw)
        a, b = (_ref(e, spaces, "space", source, raw) for e in ends)
        lid = str(raw.get("id", f"{a}-{b}"))
        if a == b or lid in lines or any({a, b} == set(l.ends) for l in lines.values()):
            raise _fail(f"line {lid}: a line joins two different spaces, once", source, raw)
        _check_line_geometry(regions, subregions, spaces[a], spaces[b], lid, source, raw)
        lines[lid] = Line(lid, (a, b), _amounts(raw.get("bonus"), BONUS_KINDS, f"line {lid} bonus", source, raw))

    rounds: dict[int, RoundCard] = {}
    for number, raw in _mapping(data, "end_of_round", source, data).items():
        number = _int(number, "a round number", source, data.get("end_of_round"), 1)
        values = tuple(_int(v, f"round {number} majority value", source, raw) for v in _list(raw, "majority", source, raw))
        steps = tuple(_ref(s, set(STEP_KINDS), "End of Round step", source, raw) for s in raw.get("steps") or [])
        if list(steps) != sorted(steps, key=STEP_KINDS.index):
            raise _fail(f"round {number}: steps must follow the rulebook order {', '.join(STEP_KINDS)}", source, raw)
        scored = _ref(raw.get("scored", "token"), {"token", "all"}, "scoring rule", source, raw)
        rounds[number] = RoundCard(number, values, steps, scored)
    if sorted(rounds) != list(range(1, len(rounds) + 1)):
        raise _fail("end_of_round must number the rounds 1, 2, 3...", source, data.get("end_of_round"))

    setup = _load_setup(_mapping(data, "setup", source, data), sections, tiles, regions, groups, faces, rounds, source)
    board = Board(name, str(data.get("title", name)), str(data.get("rules", "arctica")), groups, jumpers,
                  _int(data.get("hand_limit", 10), "hand_limit", source, data, 1),
                  _int(data.get("tokens_per_group", 6), "tokens_per_group", source, data, 1), faces, regions,
                  sections, tiles, subregions, spaces, lines, rounds, setup, _circle_graph(clockwise),
                  _space_graph(spaces, lines),
                  _names(raw_groups, sections, {str(k): [str(x) for x in (v or {}).get("spellings") or []]
                                                for k, v in raw_sections.items()}, spaces, regions, subregions),
                  turns_per_round=_int(data.get("turns_per_round", 5), "turns_per_round", source, data, 1))
    return board


def _check_line_geometry(regions, subregions, a: Space, b: Space, lid: str, source, raw) -> None:
    """Lines stay in a region and join a sub-region to itself or its neighbour, never two shared spaces (C9)."""
    if a.region != b.region:
        raise _fail(f"line {lid} crosses a region border (C9)", source, raw)
    order = regions[a.region].subregions
    if abs(order.index(a.subregion) - order.index(b.subregion)) > 1:
        raise _fail(f"line {lid} joins sub-regions that are not adjacent (C9)", source, raw)
    if a.shared and b.shared:
        raise _fail(f"line {lid} joins two shared spaces (C9)", source, raw)


def _load_setup(raw: dict, sections, tiles, regions, groups, faces, rounds, source) -> Setup:
    order = _mapping(raw, "tile_order", source, raw)
    tile_order = {_ref(s, sections, "section", source, order): _int(t, "a tile", source, order, 1) for s, t in order.items()}
    if sorted(tile_order) != sorted(sections) or sorted(tile_order.values()) != sorted(tiles):
        raise _fail("setup.tile_order must put each tile on one section, every section covered", source, order)
    raw_faces = _mapping(raw, "faces", source, raw)
    face_of = {_ref(r, regions, "region", source, raw_faces): _ref(f, set(faces), "face", source, raw_faces)
               for r, f in raw_faces.items()}
    if sorted(face_of) != sorted(regions):
        raise _fail("setup.faces needs a face for every region", source, raw_faces)
    tokens = tuple(tuple(_ref(r, regions, "region", source, raw) for r in pair) for pair in _list(raw, "region_tokens", source, raw))
    stacks_raw = _mapping(raw, "event_stacks", source, raw)
    stacks = {_ref(r, regions, "region", source, stacks_raw): tuple(int(d) for d in s) for r, s in stacks_raw.items()}
    start_tile = _int(raw.get("start_tile"), "setup.start_tile", source, raw, 1)
    if start_tile not in tiles:
        raise _fail(f"setup.start_tile {start_tile} is not a tile", source, raw)
    start_bp = {int(n): tuple(int(v) for v in values) for n, values in _mapping(raw, "start_bp", source, raw).items()}
    players: list[Seat] = []
    for p in _list(raw, "players", source, raw):
        name = str(p.get("name") if isinstance(p, dict) else p)
        if not PLAYER_NAME.fullmatch(name) or name.lower() in RESERVED_NAMES or name in (s.name for s in players):
            raise _fail(f"setup player {name!r}: one word, not an order keyword, different from the others", source, p)
        players.append(Seat(name, _ref(p.get("start_group"), groups, "group", source, p)))
    if len(players) not in start_bp:
        raise _fail(f"setup.start_bp has no line for {len(players)} players", source, raw)
    return Setup(tile_order, face_of, tokens, stacks, start_tile,
                 _int(raw.get("start_tokens_on_tile", 0), "start_tokens_on_tile", source, raw),
                 _int(raw.get("start_tokens_on_wheel", 0), "start_tokens_on_wheel", source, raw),
                 _int(raw.get("start_wheel_flora", 0), "start_wheel_flora", source, raw),
                 _int(raw.get("start_hand", 0), "start_hand", source, raw), start_bp, tuple(players))


def _circle_graph(clockwise: list[str]) -> nx.DiGraph:
    """The Arctic Circle: a directed cycle, each edge pointing clockwise."""
    circle: nx.DiGraph[str] = nx.DiGraph()
    circle.add_nodes_from(clockwise)
    circle.add_edges_from(zip(clockwise, clockwise[1:] + clockwise[:1]))
    return circle


def _space_graph(spaces: dict[str, Space], lines: dict[str, Line]) -> nx.Graph:
    """The Arctic Board: a node per space (with its sub-region and region), an edge per line (with its bonus)."""
    graph: nx.Graph[str] = nx.Graph()
    for s in spaces.values():
        graph.add_node(s.id, subregion=s.subregion, region=s.region)
    for line in lines.values():
        graph.add_edge(*line.ends, id=line.id, bonus=line.bonus)
    return graph


def _names(raw_groups, sections, section_spellings, spaces, regions, subregions) -> dict[str, NameIndex]:
    """Spellings orders may use for each kind of name (ids, display names, and any `spellings` in the file)."""
    group_entries = []
    for gid, raw in raw_groups.items():
        spellings = [str(s) for s in (raw or {}).get("spellings") or []]
        group_entries.append((str(gid), str((raw or {}).get("name", gid)), [str(gid), *spellings]))
    return {
        "group": NameIndex.build(group_entries),
        "section": NameIndex.build((s, s, [s, *section_spellings.get(s, [])]) for s in sections),
        "space": NameIndex.build((s, s, [s]) for s in spaces),
        "region": NameIndex.build((r, v.name, [r, v.name]) for r, v in regions.items()),
        "subregion": NameIndex.build((s, s, [s]) for s in subregions),
    }
