"""The board of a variant: provinces, coasts, borders and seasonal terrain in networkx graphs (read from its YAML
file by board_file.py).

A border is one of six kinds (the Arctic map document's model, which also describes the standard board):
`land` (armies only), `coast [seas]` (armies; fleets while one listed sea is open water), `water`
(sea-to-sea or sea-to-coast; fleets, and armies onto land or ice), `bridge` (armies only), `canal` (fleets
only, between two land places: a canal armies cannot cross) and `strait` (a canal that convoys cross too: open
water that is no space of its own, as Ancient Med's Baleares-Sardinia). `A > B : kind` is a one-way border.
Every rule that depends on the map asks this module, per season, so a variant is data and not code; every
key of the format is described in `variants/FORMAT.md`.

Long file: the board and the answers it gives per season (who may move, stand, support or convoy where, by
which routes) share its graphs and their caches.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field
from typing import AbstractSet, Any, Iterable

import networkx as nx

from adjudicator.errors import VariantError
from adjudicator.names import NameIndex
from adjudicator.games.diplomacy.rulebook import DEFAULT_RULES, Rulebook

SURFACES = ("land", "sea", "ice")
BORDER_KINDS = ("land", "coast", "water", "bridge", "canal", "strait")
ARMY, FLEET = "A", "F"
NEUTRAL = "Neutral"  # the owner of a board's neutral units (they hold; they are never a power)

# Rule options (FORMAT.md, "options"; adjudicator/games/diplomacy/rulebook.py): a variant sets them, a game file may override them.
VICTORY_RULES = ("centres", "lead")

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
    convoys: bool = False  # a land space a fleet on it may convoy through (an archipelago)
    river: tuple[str, ...] = ()  # locations fleets may stand on with no open sea beside them (river coasts)
    river_builds: bool = False  # a fleet may be built on its river coast


@dataclass(frozen=True)
class Border:
    """Two locations that touch; `seas` lists the seas a `coast` border runs along."""

    a: str
    b: str
    kind: str
    seas: tuple[str, ...] = ()
    line: int | None = None
    one_way: bool = False  # units cross from `a` to `b` only


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
    victory: bool | None = None  # victory is checked after this phase (default: where centres are updated)
    advance: int = 0  # years the year grows by when the calendar reaches this phase (Hundred: Spring 1340, Fall 1345)


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
    options: Rulebook = DEFAULT_RULES
    year_step: int = 1
    neutral_units: list[str] = field(default_factory=list)  # unit texts (`A Bel`) of the neutral units at start
    neutral_rebuilt: bool = False  # a neutral unit is rebuilt at an adjustment where its place is empty and unowned
    start_owners: dict[str, list[str]] = field(default_factory=dict)  # centres owned at start besides home centres
    start_unowned: tuple[str, ...] = ()  # home centres nobody owns at the start (a minor power's, until it takes it)
    content_hash: str | None = None  # sha256 of the board file or inline board it was loaded from

    def __post_init__(self) -> None:
        self.graph: nx.MultiGraph[str] = nx.MultiGraph()
        for province in self.provinces.values():
            self.graph.add_node(province.id, province=province)
        for border in self.borders:
            pa, ca = split_location(border.a)
            pb, cb = split_location(border.b)
            self.graph.add_edge(pa, pb, kind=border.kind, seas=border.seas, coasts={pa: ca, pb: cb}, border=border,
                                one_way=border.one_way)
        self.seasons: list[str] = []
        for step in self.calendar:
            if step.season not in self.seasons:
                self.seasons.append(step.season)
        self.names = NameIndex.build((p.id, p.name, [p.id, p.name, *p.aliases]) for p in self.provinces.values())
        self.power_names = NameIndex.build(
            (p.name, p.name, [p.name, *([p.adjective] if p.adjective else []), *p.aliases]) for p in self.powers.values()
        )
        # Water neighbours a convoy may step to (a one-way border only in its direction), straits included.
        water: dict[str, set[str]] = {p: set() for p in self.provinces}
        for b in self.borders:
            if b.kind in ("water", "strait"):
                pa, pb = split_location(b.a)[0], split_location(b.b)[0]
                water.setdefault(pa, set()).add(pb)  # (an unknown space is reported by _check_references)
                if not b.one_way:
                    water.setdefault(pb, set()).add(pa)
        self.water_adj: dict[str, frozenset[str]] = {p: frozenset(n) for p, n in water.items()}
        self.centres = tuple(p.id for p in self.provinces.values() if p.centre)
        self.location_water_adj: dict[str, set[str]] = {}  # water neighbours (provinces) of each location
        for b in self.borders:
            if b.kind == "water":
                self.location_water_adj.setdefault(b.a, set()).add(split_location(b.b)[0])
                self.location_water_adj.setdefault(b.b, set()).add(split_location(b.a)[0])
        self._locations = {p.id: tuple(join_location(p.id, c) for c in p.coasts) if p.coasts else (p.id,)
                           for p in self.provinces.values()}
        self._views: dict[str, SeasonView] = {}
        self._routes: dict[tuple, frozenset[str]] = {}  # recent convoy-route answers
        # Each province's neighbours over any border (the graph's, as plain tuples: walked by civil disorder)
        self._neighbours = {p: tuple(self.graph.adj[p]) for p in self.graph}
        self._homes = {power: tuple(p.id for p in self.provinces.values() if p.home == power and p.centre)
                       for power in {p.home for p in self.provinces.values() if p.home}}  # each power's, once
        self._movement_stands: dict[str, dict[str, frozenset[str]]] = {}  # by season (see movement_stands)
        self.centre_set = frozenset(self.centres)
        self.unit_owner_set = frozenset(self.unit_owners())

    # ----- locations ---------------------------------------------------------------------------------
    def locations(self, province: str) -> tuple[str, ...]:
        """The places a fleet may stand in a province: its coasts, or the province itself."""
        return self._locations[province]

    def home_centres(self, power: str) -> tuple[str, ...]:
        """The home supply centres of a power."""
        return self._homes.get(power, ())

    def initial_owners(self) -> dict[str, str]:
        """Centre ownership at the start: each power owns its home centres, and the centres `start_owners` gives it."""
        owners = {p.id: p.home for p in self.provinces.values()
                  if p.centre and p.home and p.id not in self.start_unowned}
        for power, centres in self.start_owners.items():
            owners.update((c, power) for c in centres)
        return owners

    def unit_owners(self) -> list[str]:
        """The powers, and `Neutral` when the board has neutral units."""
        return [*self.powers, NEUTRAL] if self.neutral_units else list(self.powers)

    def victory_centres(self, options: Rulebook | None = None, year: int | None = None) -> int:
        """The centres a win needs under the victory option (more than half the board's by default), in a
        year when the board's threshold changes with the year."""
        victory = (options or self.options).victory
        wanted = victory.centres if year is None else victory.centres_in(year)
        return wanted or len(self.centres) // 2 + 1

    def fleet_build_ok(self, location: str) -> bool:
        """A fleet may be built here as far as the board goes: not on a river coast unless the data says so."""
        p = self.provinces[split_location(location)[0]]
        return location not in p.river or p.river_builds

    def coast_key(self, text: str) -> str:
        """The coast a spelling names (`north coast`, `N.C.`, `nc` -> `nc`); an unknown spelling as written, lower-case."""
        t = re.sub(r"\s+", " ", text.strip().lower())
        for key, spellings in self.coast_names.items():
            if t == key.lower() or t in (s.lower() for s in spellings):
                return key
        return t

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

    @property
    def cycle_years(self) -> int:
        """How much the year grows in one turn of the calendar: `year_step` and every phase's `advance`."""
        return self.year_step + sum(step.advance for step in self.calendar)

    @functools.cached_property
    def _first_years(self) -> dict[tuple[str, str], int]:
        """The first year the calendar reaches each (season, type) in, from its start phase."""
        season, year, kind = self.start_phase
        try:
            season = self.season_key(season)
        except VariantError:
            pass  # (the checker reports a start phase the calendar does not have)
        offsets = list(itertools.accumulate(step.advance for step in self.calendar))
        start = next((i for i, s in enumerate(self.calendar) if (s.season, s.type) == (season, kind)), 0)
        first: dict[tuple[str, str], int] = {}
        for i, step in enumerate(self.calendar):  # a phase before the start phase comes first in the next turn
            first.setdefault((step.season, step.type),
                             year - offsets[start] + offsets[i] + (0 if i >= start else self.cycle_years))
        return first

    def phase_years(self, season: str, kind: str) -> tuple[int, int] | None:
        """(the first year, the years between) of the phases the calendar reaches in this season and of this
        type; None when the calendar has no such phase."""
        first = self._first_years.get((season, kind))
        return None if first is None else (first, self.cycle_years)

    def reaches(self, season: str, year: int, kind: str) -> bool:
        """Whether the calendar, from its start, comes to this phase in this year (0 and negative years too)."""
        years = self.phase_years(season, kind)
        return years is not None and year >= years[0] and (year - years[0]) % years[1] == 0

    def year_problem(self, season: str, year: int, kind: str) -> str | None:
        """Why the calendar never comes to this phase in this year (None when it does): any year it reaches from
        its start is valid, 0 and negative ones too (North Sea Wars starts in year 0)."""
        if self.reaches(season, year, kind):
            return None
        years = self.phase_years(season, kind)
        if years is None:
            valid = ", ".join(f"{s.season} {s.type}" for s in self.calendar)
            return f"{season} {kind} is not a phase of the {self.title} calendar ({valid})"
        first, every = years
        years_text = (f"every year from {first}" if every == 1
                      else f"{first}, {first + every}, {first + 2 * every} and so on")
        start = "{} {} {}".format(*self.start_phase)
        return (f"the {self.title} calendar never comes to {season} {year} {kind}: from its start ({start}) it "
                f"comes to {season} {kind} in {years_text}")

    def previous_season(self, season: str) -> str:
        """The season before this one in the calendar's yearly cycle."""
        i = self.seasons.index(season)
        return self.seasons[i - 1]

    # ----- terrain -----------------------------------------------------------------------------------
    def season(self, season: str) -> SeasonView:
        """The board as it is in a season (built on first use)."""
        view = self._views.get(season)
        if view is None:
            view = self._views[season] = _season_view(self, season)
        return view

    def movement_stands(self, season: str) -> dict[str, frozenset[str]]:
        """Where a unit may stand at a movement phase, by unit type: the season's places and the previous
        season's too (a unit the change of season has just stranded stands until the phase ends). When the
        change of season strands no unit, this is the season's own `stands`, the same dict."""
        stands = self._movement_stands.get(season)
        if stands is None:  # one per season of the calendar
            now, before = self.season(season).stands, self.season(self.previous_season(season)).stands
            stands = now if all(before[t] <= places for t, places in now.items()) else \
                {t: places | before[t] for t, places in now.items()}
            self._movement_stands[season] = stands
        return stands

    def surface(self, province: str, season: str) -> str:
        """What a province is this season: `land`, `sea` or `ice`."""
        return self.season(season).surface[province]

    def is_island(self, province: str) -> bool:
        """True for islands whose armies survive a melt but may then leave only by convoy (or bridge)."""
        return bool(self.terrain[self.provinces[province].kind].get("island"))

    def coastal(self, location: str, season: str) -> bool:
        """A land location is coastal this season if one of its water borders leads to open sea."""
        return location in self.season(season).coastal

    def army_can_stand(self, province: str, season: str) -> bool:
        """Armies hold land and ice; an island army survives the melt."""
        return province in self.season(season).army_stand

    def fleet_can_stand(self, location: str, season: str) -> bool:
        """Fleets float on open sea, or on a land location (a coast of it) that is coastal this season."""
        return location in self.season(season).fleet_stand

    def can_stand(self, unit_type: str, location: str, season: str) -> bool:
        """Whether a unit of this type may stand here this season."""
        view = self.season(season)
        return location in (view.army_stand if unit_type == ARMY else view.fleet_stand)

    # ----- movement ----------------------------------------------------------------------------------
    def army_moves(self, season: str) -> nx.DiGraph:
        """Provinces an army may move to without convoy this season (directed: island and melt rules)."""
        return self.season(season).army

    def fleet_moves(self, season: str) -> nx.DiGraph:
        """Locations a fleet may move to this season (directed: the origin need not be legal)."""
        return self.season(season).fleet

    def can_move(self, unit_type: str, origin: str, destination: str, season: str) -> bool:
        """Whether a unit may move from origin to destination (locations) without convoy this season."""
        return self.season(season).can_move(unit_type, origin, destination)

    def can_reach(self, unit_type: str, origin: str, province: str, season: str) -> bool:
        """Whether a unit at `origin` can move to some location of `province` without convoy this season."""
        return self.season(season).can_reach(unit_type, origin, province)

    def reachable_locations(self, unit_type: str, origin: str, province: str, season: str) -> list[str]:
        """The locations of `province` a unit at `origin` can move to this season."""
        view = self.season(season)
        if unit_type == ARMY:
            return [province] if province in view.army_next.get(origin, ()) else []
        nxt = view.fleet_next.get(origin, ())
        return [loc for loc in self.locations(province) if loc in nxt]

    def can_support_into(self, unit_type: str, origin: str, province: str, season: str) -> bool:
        """A unit supports into a province it could move to; a fleet also into bordering ice (Arctic rule)."""
        return self.season(season).can_support_into(unit_type, origin, province)

    # ----- convoys -----------------------------------------------------------------------------------
    def can_convoy_from(self, province: str, season: str) -> bool:
        """A fleet convoys from open sea, or from an archipelago (a land space marked `convoys`) that is land."""
        return province in self.season(season).convoy_spaces

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
        sea = self.season(season).convoy_spaces
        seas = fleets if isinstance(fleets, frozenset) and fleets <= sea else sea.intersection(fleets)
        frontier = [f for f in self.water_adj[origin] if f in seas]
        seen = set(frontier)
        while frontier:
            here = frontier.pop()
            if destination in self.water_adj[here]:
                return True
            for nxt in self.water_adj[here]:
                if nxt in seas and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return False

    def convoy_fleets_on_routes(self, origin: str, destination: str, season: str, fleets: Iterable[str]) -> set[str]:
        """The fleet provinces that lie on at least one minimal convoy route (no fleet on it could be left
        out) from origin to destination: a fleet on no such route is not needed for the convoy (DATC 6.G.19)."""
        fleets = fleets if isinstance(fleets, frozenset) else frozenset(fleets)
        key = (origin, destination, season, fleets)  # every fleet convoying one army asks the same question
        found = self._routes.get(key)
        if found is None:
            if len(self._routes) > 4096:
                self._routes.clear()
            found = self._routes[key] = frozenset(self._fleets_on_routes(origin, destination, season, fleets))
        return set(found)

    def _fleets_on_routes(self, origin: str, destination: str, season: str, fleets: frozenset[str]) -> set[str]:
        seas = self.season(season).convoy_spaces.intersection(fleets)
        if not self.convoy_route_exists(origin, destination, season, seas):
            return set()
        adj = self.water_adj
        found: set[str] = set()
        budget = [20000]  # induced paths can be many on huge generated boards: then every reachable fleet counts
        for first in adj[origin]:
            if first in seas:
                _extend_routes([first], origin, destination, adj, seas, found, budget)
        if budget[0] <= 0:
            return _reach(self, seas, origin) & _reach(self, seas, destination)
        return found

    # ----- distances ---------------------------------------------------------------------------------
    def distances_from(self, sources: Iterable[str], wanted: Iterable[str] | None = None) -> dict[str, int]:
        """Moves from the nearest source province over any border, land and sea alike (civil disorder); with
        `wanted`, the search may stop once those provinces have theirs."""
        distance = {s: 0 for s in sources}
        frontier = list(distance)
        left = None if wanted is None else set(wanted) - set(distance)
        while frontier and (left is None or left):
            following = []
            for here in frontier:
                for there in self._neighbours[here]:
                    if there not in distance:
                        distance[there] = distance[here] + 1
                        following.append(there)
                        if left is not None:
                            left.discard(there)
            frontier = following
        return distance


def _extend_routes(path: list[str], origin: str, destination: str, adj: dict[str, frozenset[str]],
                   seas: frozenset[str], found: set[str], budget: list[int]) -> None:
    """Add to `found` the fleets of every minimal convoy route that continues `path` (a module function, not a
    closure: a closure that calls itself is a reference cycle, left to the garbage collector at every search)."""
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
            _extend_routes(path, origin, destination, adj, seas, found, budget)
            path.pop()


def _reach(board: Board, seas: AbstractSet[str], start: str) -> set[str]:
    frontier = [f for f in board.water_adj[start] if f in seas]
    seen = set(frontier)
    while frontier:
        sea = frontier.pop()
        for nxt in board.water_adj[sea]:
            if nxt in seas and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return seen


# ----- per-season derived data, built once per season ---------------------------------------------------
@dataclass(frozen=True)
class SeasonView:
    """What the board is in one season: each space's surface, coastal places, and who may move where."""

    surface: dict[str, str]
    sea: frozenset[str]  # provinces that are open sea
    convoy_spaces: frozenset[str]  # provinces a fleet may convoy from: open sea, and archipelagos that are land
    coastal: frozenset[str]  # land locations (and their provinces) with open sea beside them
    army: nx.DiGraph  # army moves without convoy
    fleet: nx.DiGraph  # fleet moves (between locations)
    army_stand: frozenset[str]  # provinces an army may stand on
    fleet_stand: frozenset[str]  # locations a fleet may stand on
    army_next: dict[str, frozenset[str]]  # the same moves as plain sets, for the hot paths
    fleet_next: dict[str, frozenset[str]]
    stands: dict[str, frozenset[str]]  # army_stand and fleet_stand by unit type (A, F)
    reach: dict[str, dict[str, frozenset[str]]]  # by unit type and location: provinces it moves to without convoy
    support: dict[str, dict[str, frozenset[str]]]  # ... and provinces it may support into (reach, and for a
    # fleet bordering ice: the Arctic rule)

    def can_move(self, unit_type: str, origin: str, destination: str) -> bool:
        """Whether a unit may move from origin to destination (locations) without convoy."""
        return destination in (self.army_next if unit_type == ARMY else self.fleet_next).get(origin, ())

    def can_reach(self, unit_type: str, origin: str, province: str) -> bool:
        """Whether a unit at `origin` can move to some location of `province` without convoy."""
        return province in self.reach[unit_type].get(origin, ())

    def can_support_into(self, unit_type: str, origin: str, province: str) -> bool:
        """A unit supports into a province it could move to; a fleet also into bordering ice (Arctic rule)."""
        return province in self.support[unit_type].get(origin, ())


def _season_view(board: Board, season: str) -> SeasonView:
    surface: dict[str, Any] = {}
    for p in board.provinces.values():
        spec = board.terrain[p.kind]
        surface[p.id] = spec.get(season, spec.get("default"))
    coastal = set()
    for location, neighbours in board.location_water_adj.items():
        province = split_location(location)[0]
        if surface[province] == "land" and any(surface[n] == "sea" for n in neighbours):
            coastal.add(location)
            coastal.add(province)
    # A river coast carries fleets though no open sea borders it: they reach it along coast or canal borders.
    river = {loc for p in board.provinces.values() if surface[p.id] == "land" for loc in p.river}
    fleet_stand = frozenset(loc for p, prov in board.provinces.items() for loc in board.locations(p)
                            if surface[p] == "sea" or (surface[p] == "land" and (loc in coastal or loc in river)))
    army: nx.DiGraph[str] = nx.DiGraph()
    army.add_nodes_from(board.provinces)
    fleet: nx.DiGraph[str] = nx.DiGraph()
    for pid in board.provinces:
        fleet.add_nodes_from(board.locations(pid))
    for b in board.borders:
        pa, pb = split_location(b.a)[0], split_location(b.b)[0]
        for o, d in ((pa, pb),) if b.one_way else ((pa, pb), (pb, pa)):
            if b.kind in ("land", "coast", "bridge"):
                ok = surface[d] != "sea"
            elif b.kind == "water":  # onto land or ice, and not off an island that is sea this season (A13)
                ok = surface[d] in ("land", "ice") and not (board.is_island(o) and surface[o] == "sea")
            else:  # a canal or a strait carries fleets only (a strait carries armies by convoy)
                ok = False
            if ok:
                army.add_edge(o, d)
        for o, d in ((b.a, b.b),) if b.one_way else ((b.a, b.b), (b.b, b.a)):
            pd = split_location(d)[0]
            if b.kind == "water":
                ok = surface[pd] == "sea" or (surface[pd] == "land" and d in coastal)
            elif b.kind == "coast":  # along the shore, onto a place that carries fleets (never onto dry land)
                ok = (not b.seas or any(surface[x] == "sea" for x in b.seas)) and d in fleet_stand
            elif b.kind in ("canal", "strait"):
                ok = d in fleet_stand
            else:
                ok = False
            if ok:
                fleet.add_edge(o, d)
    sea = frozenset(p for p, surf in surface.items() if surf == "sea")
    convoy_spaces = sea | {p.id for p in board.provinces.values() if p.convoys and surface[p.id] == "land"}
    army_stand = frozenset(p for p, surf in surface.items() if surf in ("land", "ice") or board.is_island(p))
    army_next = {o: frozenset(army.successors(o)) for o in army}
    fleet_next = {o: frozenset(fleet.successors(o)) for o in fleet}
    fleet_reach = {o: frozenset(split_location(d)[0] for d in ds) for o, ds in fleet_next.items()}
    ice = {p for p, surf in surface.items() if surf == "ice"}
    fleet_support = {o: ds | (ice & board.location_water_adj.get(o, set())) for o, ds in fleet_reach.items()}
    return SeasonView(surface, sea, frozenset(convoy_spaces), frozenset(coastal), army, fleet, army_stand, fleet_stand,
                      army_next, fleet_next, {ARMY: army_stand, FLEET: fleet_stand},
                      {ARMY: army_next, FLEET: fleet_reach}, {ARMY: army_next, FLEET: fleet_support})


# ----- loading -----------------------------------------------------------------------------------------
