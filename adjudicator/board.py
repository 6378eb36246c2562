"""The board of a variant: provinces, coasts, borders and seasonal terrain, loaded from YAML into networkx graphs.

A border is one of four kinds (the Arctic map document's model, which also describes the standard board):
`land` (armies only), `coast [seas]` (armies; fleets while one listed sea is open water), `water`
(sea-to-sea or sea-to-coast; fleets, and armies onto land or ice) and `bridge` (armies only). Every rule
that depends on the map asks this module, per season, so a variant is data and not code.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import networkx as nx

from adjudicator.errors import VariantError
from adjudicator.names import NameIndex
from adjudicator.yamlio import line_of, load_yaml_file

SURFACES = ("land", "sea", "ice")
BORDER_KINDS = ("land", "coast", "water", "bridge")
ARMY, FLEET = "A", "F"

# Spellings of coasts people write; a variant may add its own under `coast_names`.
DEFAULT_COAST_NAMES = {
    "nc": ["north coast", "northern coast", "north", "n.c.", "n.c", "n c"],
    "sc": ["south coast", "southern coast", "south", "s.c.", "s.c", "s c"],
    "ec": ["east coast", "eastern coast", "east", "e.c.", "e.c", "e c"],
    "wc": ["west coast", "western coast", "west", "w.c.", "w.c", "w c"],
}


def split_location(location: str) -> tuple[str, str | None]:
    """`stp/nc` -> (`stp`, `nc`); `par` -> (`par`, None)."""
    province, _, coast = location.partition("/")
    return province, (coast or None)


def join_location(province: str, coast: str | None) -> str:
    """(`stp`, `nc`) -> `stp/nc`."""
    return f"{province}/{coast}" if coast else province


@dataclass(frozen=True)
class Province:
    """One space of the board."""

    id: str
    name: str
    kind: str  # a terrain type of the variant (`land`, `sea`, `ice-W`...)
    centre: bool = False
    home: str | None = None
    coasts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    position: tuple[float, float] | None = None  # (latitude, longitude) for drawing
    line: int | None = None


@dataclass(frozen=True)
class Border:
    """Two locations that touch; `seas` lists the seas a `coast` border runs along."""

    a: str
    b: str
    kind: str
    seas: tuple[str, ...] = ()
    line: int | None = None


@dataclass(frozen=True)
class Power:
    """A great power of the variant."""

    name: str
    adjective: str | None = None
    aliases: tuple[str, ...] = ()
    colour: str | None = None


@dataclass(frozen=True)
class BuildSite:
    """A place other than a home centre where a power may build (e.g. Russia in Western Siberia)."""

    power: str
    province: str
    unit_types: tuple[str, ...] = (ARMY, FLEET)
    needs_ownership: bool = True


@dataclass(frozen=True)
class PhaseStep:
    """One phase of the yearly calendar."""

    season: str
    type: str  # Movement, Retreat or Adjustment
    centres: bool = False  # supply-centre ownership is updated (and victory checked) after this phase


@dataclass(eq=False)
class Board:
    """A variant's board and calendar, with graph queries answered per season."""

    name: str
    title: str
    rules: str
    powers: dict[str, Power]
    terrain: dict[str, dict[str, Any]]
    provinces: dict[str, Province]
    borders: list[Border]
    calendar: list[PhaseStep]
    start_phase: tuple[str, int, str]
    season_aliases: dict[str, str]
    victory: int
    start_units: dict[str, list[str]]
    build_sites: list[BuildSite]
    coast_names: dict[str, list[str]]
    source: str | None = None
    raw: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.graph = nx.MultiGraph()
        for province in self.provinces.values():
            self.graph.add_node(province.id, province=province)
        for border in self.borders:
            pa, ca = split_location(border.a)
            pb, cb = split_location(border.b)
            self.graph.add_edge(pa, pb, kind=border.kind, seas=border.seas, coasts={pa: ca, pb: cb}, border=border)
        self.seasons: list[str] = []
        for step in self.calendar:
            if step.season not in self.seasons:
                self.seasons.append(step.season)
        self.names = NameIndex.build((p.id, p.name, [p.id, p.name, *p.aliases]) for p in self.provinces.values())
        self.power_names = NameIndex.build(
            (p.name, p.name, [p.name, *([p.adjective] if p.adjective else []), *p.aliases]) for p in self.powers.values()
        )
        self.water_adj: dict[str, frozenset[str]] = {
            p: frozenset(
                n for n, edges in self.graph.adj[p].items() if any(e["kind"] == "water" for e in edges.values())
            )
            for p in self.provinces
        }
        self.centres = tuple(p.id for p in self.provinces.values() if p.centre)

    # ----- locations ---------------------------------------------------------------------------------
    def locations(self, province: str) -> tuple[str, ...]:
        """The places a fleet may stand in a province: its coasts, or the province itself."""
        p = self.provinces[province]
        return tuple(join_location(province, c) for c in p.coasts) if p.coasts else (province,)

    def home_centres(self, power: str) -> tuple[str, ...]:
        """The home supply centres of a power."""
        return tuple(p.id for p in self.provinces.values() if p.home == power and p.centre)

    def initial_owners(self) -> dict[str, str]:
        """Centre ownership at the start of the game: each power owns its home centres."""
        return {p.id: p.home for p in self.provinces.values() if p.centre and p.home}

    def season_key(self, season: str) -> str:
        """The canonical name of a season of this variant (case-insensitive; aliases such as Winter->Fall)."""
        for s in self.seasons:
            if s.lower() == season.lower():
                return s
        for alias, target in self.season_aliases.items():
            if alias.lower() == season.lower():
                return target
        raise VariantError(
            f"unknown season {season!r} for the {self.title} board; valid seasons are {', '.join(self.seasons)}"
        )

    def previous_season(self, season: str) -> str:
        """The season before this one in the calendar's yearly cycle."""
        i = self.seasons.index(season)
        return self.seasons[i - 1]

    # ----- terrain -----------------------------------------------------------------------------------
    def surface(self, province: str, season: str) -> str:
        """What a province is this season: `land`, `sea` or `ice`."""
        return _surface_table(self, season)[province]

    def is_island(self, province: str) -> bool:
        """True for islands whose armies survive a melt but may then leave only by convoy (or bridge)."""
        return bool(self.terrain[self.provinces[province].kind].get("island"))

    def coastal(self, location: str, season: str) -> bool:
        """A land location is coastal this season if one of its water borders leads to open sea."""
        return location in _coastal_set(self, season)

    def army_can_stand(self, province: str, season: str) -> bool:
        """Armies hold land and ice; an island army survives the melt."""
        s = self.surface(province, season)
        return s in ("land", "ice") or self.is_island(province)

    def fleet_can_stand(self, location: str, season: str) -> bool:
        """Fleets float on open sea, or on a land location that is coastal this season."""
        province, coast = split_location(location)
        if province not in self.provinces:
            return False
        p = self.provinces[province]
        if p.coasts and coast not in p.coasts:
            return False
        if not p.coasts and coast:
            return False
        s = self.surface(province, season)
        return s == "sea" or (s == "land" and self.coastal(location, season))

    def can_stand(self, unit_type: str, location: str, season: str) -> bool:
        """Whether a unit of this type may stand here this season."""
        if unit_type == ARMY:
            return split_location(location)[1] is None and location in self.provinces and self.army_can_stand(location, season)
        return self.fleet_can_stand(location, season)

    # ----- movement ----------------------------------------------------------------------------------
    def army_moves(self, season: str) -> nx.DiGraph:
        """Provinces an army may move to without convoy this season (directed: island and melt rules)."""
        return _army_graph(self, season)

    def fleet_moves(self, season: str) -> nx.DiGraph:
        """Locations a fleet may move to this season (directed: the origin need not be legal)."""
        return _fleet_graph(self, season)

    def can_move(self, unit_type: str, origin: str, destination: str, season: str) -> bool:
        """Whether a unit may move from origin to destination (locations) without convoy this season."""
        graph = self.army_moves(season) if unit_type == ARMY else self.fleet_moves(season)
        return graph.has_edge(origin, destination)

    def reachable_locations(self, unit_type: str, origin: str, province: str, season: str) -> list[str]:
        """The locations of `province` a unit at `origin` can move to this season."""
        graph = self.army_moves(season) if unit_type == ARMY else self.fleet_moves(season)
        if origin not in graph:
            return []
        return [loc for loc in self.locations(province) + ((province,) if unit_type == ARMY else ()) if graph.has_edge(origin, loc)]

    def can_support_into(self, unit_type: str, origin: str, province: str, season: str) -> bool:
        """A unit supports into a province it could move to; a fleet also into bordering ice (Arctic rule)."""
        if self.reachable_locations(unit_type, origin, province, season):
            return True
        if unit_type == FLEET and self.surface(province, season) == "ice":
            return province in _location_water_adj(self).get(origin, ())
        return False

    # ----- convoys -----------------------------------------------------------------------------------
    def convoy_origin_ok(self, province: str, season: str) -> bool:
        """Armies are convoyed from land, or from an island that is sea this season; never from ice."""
        s = self.surface(province, season)
        return s == "land" or (s == "sea" and self.is_island(province))

    def convoy_destination_ok(self, province: str, season: str) -> bool:
        """Armies are convoyed to land, or to ice bordering the last fleet."""
        return self.surface(province, season) in ("land", "ice")

    def convoy_route_exists(self, origin: str, destination: str, season: str, fleets: Iterable[str]) -> bool:
        """Is there a chain of the given fleet provinces (on open sea) from origin to destination?"""
        if origin == destination or not self.convoy_origin_ok(origin, season) or not self.convoy_destination_ok(destination, season):
            return False
        seas = {f for f in fleets if self.surface(f, season) == "sea"}
        frontier = [f for f in self.water_adj[origin] if f in seas]
        seen = set(frontier)
        while frontier:
            sea = frontier.pop()
            if destination in self.water_adj[sea]:
                return True
            for nxt in self.water_adj[sea]:
                if nxt in seas and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return False

    def convoy_fleets_on_routes(self, origin: str, destination: str, season: str, fleets: Iterable[str]) -> set[str]:
        """The fleet provinces that lie on at least one minimal convoy route (no fleet on it could be left
        out) from origin to destination: a fleet on no such route is not needed for the convoy (DATC 6.G.19)."""
        seas = {f for f in fleets if self.surface(f, season) == "sea"}
        if not self.convoy_route_exists(origin, destination, season, seas):
            return set()
        adj = self.water_adj
        found: set[str] = set()
        budget = [20000]  # induced paths can be many on huge generated boards: then every reachable fleet counts

        def extend(path: list[str]) -> None:
            budget[0] -= 1
            last = path[-1]
            if destination in adj[last]:
                found.update(path)
                return
            for n in adj[last]:
                if n in seas and n not in path and n != origin and budget[0] > 0:
                    if n in adj[origin] or any(n in adj[q] for q in path[:-1]):
                        continue  # a shortcut exists: the longer route is not minimal
                    path.append(n)
                    extend(path)
                    path.pop()

        for first in adj[origin]:
            if first in seas:
                extend([first])
        if budget[0] <= 0:
            return _reach(self, seas, origin) & _reach(self, seas, destination)
        return found

    # ----- distances ---------------------------------------------------------------------------------
    def distances_from(self, sources: Iterable[str]) -> dict[str, int]:
        """Moves from the nearest source province over any border, land and sea alike (civil disorder)."""
        return nx.multi_source_dijkstra_path_length(self.graph, set(sources), weight=lambda *_: 1)


def _reach(board: Board, seas: set[str], start: str) -> set[str]:
    frontier = [f for f in board.water_adj[start] if f in seas]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        for nxt in board.water_adj[sea]:
            if nxt in seas and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return seen


# ----- per-season derived data, cached on the board -------------------------------------------------------
def _cached(fn):
    @functools.wraps(fn)
    def wrapper(board: Board, *args):
        cache = board.__dict__.setdefault("_cache", {})
        key = (fn.__name__, *args)
        if key not in cache:
            cache[key] = fn(board, *args)
        return cache[key]

    return wrapper


@_cached
def _surface_table(board: Board, season: str) -> dict[str, str]:
    table = {}
    for p in board.provinces.values():
        spec = board.terrain[p.kind]
        table[p.id] = spec.get(season, spec.get("default"))
    return table


@_cached
def _location_water_adj(board: Board) -> dict[str, set[str]]:
    """Water neighbours (provinces) of each location, coasts kept apart."""
    adj: dict[str, set[str]] = {}
    for b in board.borders:
        if b.kind == "water":
            adj.setdefault(b.a, set()).add(split_location(b.b)[0])
            adj.setdefault(b.b, set()).add(split_location(b.a)[0])
    return adj


@_cached
def _coastal_set(board: Board, season: str) -> frozenset[str]:
    surface = _surface_table(board, season)
    coastal = set()
    for location, neighbours in _location_water_adj(board).items():
        province = split_location(location)[0]
        if surface[province] == "land" and any(surface[n] == "sea" for n in neighbours):
            coastal.add(location)
            coastal.add(province)
    return frozenset(coastal)


@_cached
def _army_graph(board: Board, season: str) -> nx.DiGraph:
    surface = _surface_table(board, season)
    graph = nx.DiGraph()
    graph.add_nodes_from(board.provinces)
    for b in board.borders:
        pa, pb = split_location(b.a)[0], split_location(b.b)[0]
        for o, d in ((pa, pb), (pb, pa)):
            if b.kind in ("land", "coast", "bridge"):
                ok = surface[d] != "sea"
            else:  # water
                ok = surface[d] in ("land", "ice") and not (board.is_island(o) and surface[o] == "sea")
            if ok:
                graph.add_edge(o, d)
    return graph


@_cached
def _fleet_graph(board: Board, season: str) -> nx.DiGraph:
    surface = _surface_table(board, season)
    graph = nx.DiGraph()
    for p in board.provinces:
        graph.add_nodes_from(board.locations(p))
    for b in board.borders:
        for o, d in ((b.a, b.b), (b.b, b.a)):
            pd = split_location(d)[0]
            if b.kind == "water":
                ok = surface[pd] == "sea" or (surface[pd] == "land" and board.coastal(d, season))
            elif b.kind == "coast":
                ok = not b.seas or any(surface[s] == "sea" for s in b.seas)
            else:
                ok = False
            if ok:
                graph.add_edge(o, d)
    return graph


# ----- loading -----------------------------------------------------------------------------------------
_BORDER_RE = re.compile(r"^\s*(\S+)\s*-\s*(\S+)\s*:\s*(\w+)\s*(?:\[([^\]]*)\])?\s*(?:\(\w+\))?\s*$")


def _err(message: str, source: str | None, node: Any = None) -> VariantError:
    return VariantError(message, file=source, line=line_of(node))


def _border_entries(raw: Any, source: str | None) -> list[tuple[str, Any]]:
    """Border entries are `A - B : kind [seas]` strings, or one-key mappings YAML made of them."""
    out = []
    for entry in raw or []:
        if isinstance(entry, dict) and len(entry) == 1:
            (key, value), = entry.items()
            out.append((f"{key} : {value}", entry))
        elif isinstance(entry, str):
            out.append((entry, entry))
        else:
            raise _err(f"a border must be written 'A - B : kind', not {entry!r}", source, entry)
    return out


def borders_from_adjacency_lists(provinces: list) -> tuple[list[Border], list[tuple[Any, str]]]:
    """Borders from per-province `army:` / `fleet:` neighbour lists (the form other adjudicators' map files use),
    and every one-sided entry found (a neighbour that does not list the province back)."""
    army: dict[tuple[str, str], Any] = {}
    fleet: dict[tuple[str, str], Any] = {}
    for entry in provinces:
        if not isinstance(entry, dict) or "id" not in entry:
            continue
        pid = str(entry["id"])
        for q in entry.get("army") or []:
            army[(pid, str(q))] = entry
        fleets = entry.get("fleet") or []
        if isinstance(fleets, dict):  # per coast: {nc: [...], sc: [...]}
            for coast, targets in fleets.items():
                for q in targets or []:
                    fleet[(join_location(pid, str(coast)), str(q))] = entry
        else:
            for q in fleets:
                fleet[(pid, str(q))] = entry
    one_sided = []
    for pairs, kind in ((army, "army"), (fleet, "fleet")):
        for (a, b), node in pairs.items():
            if (b, a) not in pairs:
                one_sided.append((node, f"one-sided adjacency: {a} lists {b} as a {kind} neighbour, but {b} "
                                        f"does not list {a}"))
    borders: list[Border] = []
    done: set[frozenset] = set()
    for (a, b), node in fleet.items():
        key = frozenset((a, b))
        if key in done or (b, a) not in fleet:
            continue
        done.add(key)
        pa, pb = split_location(a)[0], split_location(b)[0]
        kind = "coast" if (pa, pb) in army and (pb, pa) in army else "water"
        borders.append(Border(a, b, kind, (), line_of(node)))
    fleet_provinces = {frozenset((split_location(a)[0], split_location(b)[0])) for a, b in fleet}
    for (a, b), node in army.items():
        key = frozenset((a, b))
        if key in done or (b, a) not in army or key in fleet_provinces:
            continue
        done.add(key)
        borders.append(Border(a, b, "land", (), line_of(node)))
    return borders, one_sided


def board_from_data(data: Any, source: str | None = None) -> Board:
    """Build a Board from parsed YAML, with errors that name the file and line."""
    if not isinstance(data, dict):
        raise VariantError("a variant file must be a YAML mapping", file=source)
    for key in ("name", "provinces", "powers", "terrain", "calendar"):
        if key not in data:
            raise _err(f"missing the required key {key!r}", source, data)

    powers = {}
    for name, spec in (data.get("powers") or {}).items():
        spec = spec or {}
        powers[str(name)] = Power(str(name), spec.get("adjective"), tuple(spec.get("aliases", ())), spec.get("colour"))

    terrain = {}
    for kind, spec in (data["terrain"] or {}).items():
        spec = dict(spec or {})
        for season_or_default, surf in spec.items():
            if season_or_default != "island" and surf not in SURFACES:
                raise _err(f"terrain {kind!r}: {surf!r} is not one of {', '.join(SURFACES)}", source, spec)
        terrain[str(kind)] = spec

    provinces: dict[str, Province] = {}
    for entry in data["provinces"] or []:
        if not isinstance(entry, dict) or "id" not in entry:
            raise _err("each province needs at least an `id`", source, entry)
        pid = str(entry["id"])
        if pid in provinces:
            raise _err(f"province {pid!r} is defined twice", source, entry)
        kind = str(entry.get("kind", "land"))
        if kind not in terrain:
            raise _err(f"province {pid!r} has kind {kind!r}, which is not a terrain type ({', '.join(terrain)})", source, entry)
        home = entry.get("home")
        if home is not None and str(home) not in powers:
            raise _err(f"province {pid!r}: home power {home!r} is not a power of this variant", source, entry)
        pos = entry.get("pos")
        provinces[pid] = Province(
            id=pid,
            name=str(entry.get("name", pid)),
            kind=kind,
            centre=bool(entry.get("centre", False)),
            home=str(home) if home is not None else None,
            coasts=tuple(str(c) for c in entry.get("coasts", ()) or ()),
            aliases=tuple(str(a) for a in entry.get("aliases", ()) or ()),
            position=(float(pos[0]), float(pos[1])) if pos else None,
            line=line_of(entry),
        )

    listed, one_sided = borders_from_adjacency_lists(data["provinces"] or [])
    if one_sided:
        node, message = one_sided[0]
        raise _err(message, source, node)
    borders = list(listed)
    for text, node in _border_entries(data.get("borders"), source):
        m = _BORDER_RE.match(text)
        if not m:
            raise _err(f"cannot read the border {text!r}; write it 'A - B : kind' or 'A - B : coast [S1, S2]'", source, node)
        a, b, kind, seas = m.group(1), m.group(2), m.group(3), m.group(4)
        if kind not in BORDER_KINDS:
            raise _err(f"border {a} - {b}: kind {kind!r} is not one of {', '.join(BORDER_KINDS)}", source, node)
        borders.append(
            Border(a, b, kind, tuple(s.strip() for s in seas.split(",") if s.strip()) if seas else (), line_of(node))
        )

    cal = data["calendar"] or {}
    steps = [
        PhaseStep(str(s["season"]), str(s["type"]).capitalize(), bool(s.get("centres", False)))
        for s in cal.get("phases", [])
    ]
    start = cal.get("start") or {}
    start_phase = (str(start.get("season", steps[0].season if steps else "Spring")), int(start.get("year", 1901)),
                   str(start.get("type", "Movement")).capitalize())

    sites = []
    for power, entries in (data.get("build_sites") or {}).items():
        for e in entries or []:
            sites.append(BuildSite(str(power), str(e["province"]), tuple(e.get("units", (ARMY, FLEET))),
                                   bool(e.get("needs_ownership", True))))

    coast_names = {k: list(v) for k, v in DEFAULT_COAST_NAMES.items()}
    for k, v in (data.get("coast_names") or {}).items():
        coast_names.setdefault(str(k), []).extend(str(x) for x in v)

    board = Board(
        name=str(data["name"]),
        title=str(data.get("title", data["name"])),
        rules=str(data.get("rules", "diplomacy")),
        powers=powers,
        terrain=terrain,
        provinces=provinces,
        borders=borders,
        calendar=steps,
        start_phase=start_phase,
        season_aliases={str(k): str(v) for k, v in (cal.get("aliases") or {}).items()},
        victory=int(data.get("victory", 0) or 0),
        start_units={str(k): [str(u) for u in v] for k, v in (data.get("start") or {}).items()},
        build_sites=sites,
        coast_names=coast_names,
        source=source,
        raw=data,
    )
    _check_references(board, source)
    return board


def _check_references(board: Board, source: str | None) -> None:
    """The errors that make a board unusable: borders to unknown places (the full check is in `variant_check`)."""
    for b in board.borders:
        for loc in (b.a, b.b):
            province, coast = split_location(loc)
            if province not in board.provinces:
                hint = board.names.suggest(province)
                raise VariantError(f"border {b.a} - {b.b}: unknown space {province!r}", file=source, line=b.line,
                                   suggestions=hint)
            if coast and coast not in board.provinces[province].coasts:
                raise VariantError(f"border {b.a} - {b.b}: {province} has no coast {coast!r}", file=source, line=b.line)
        for sea in b.seas:
            if sea not in board.provinces:
                raise VariantError(f"border {b.a} - {b.b}: unknown sea {sea!r}", file=source, line=b.line)


def load_board_file(path: str | Path) -> Board:
    """Load a Diplomacy variant YAML file."""
    return board_from_data(load_yaml_file(path), source=str(path))
