"""The board of a variant: provinces, coasts, borders and seasonal terrain, loaded from YAML into networkx graphs.

A border is one of six kinds (the Arctic map document's model, which also describes the standard board):
`land` (armies only), `coast [seas]` (armies; fleets while one listed sea is open water), `water`
(sea-to-sea or sea-to-coast; fleets, and armies onto land or ice), `bridge` (armies only), `canal` (fleets
only, between two land places: a canal armies cannot cross) and `strait` (a canal that convoys cross too: open
water that is no space of its own, as Ancient Med's Baleares-Sardinia). `A > B : kind` is a one-way border.
Every rule that depends on the map asks this module, per season, so a variant is data and not code; every
key of the format is described in `variants/FORMAT.md`.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field, replace
from typing import AbstractSet, Any, Iterable

import networkx as nx

from adjudicator.errors import VariantError
from adjudicator.names import NameIndex
from adjudicator.games.diplomacy.rulebook import DEFAULT_RULES, Rulebook, RulesError, Victory
from adjudicator.yamlio import line_of

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
@dataclass(frozen=True)
class BorderText:
    """A border entry as written: `A - B : kind [S1, S2]`, or `A > B : kind` for a one-way border."""

    a: str
    b: str
    kind: str
    seas: tuple[str, ...]
    one_way: bool


_WORD = re.compile(r"\w+")
_ARROWS = {"-": False, ">": True, "->": True}


def parse_border_text(text: str) -> BorderText | None:
    """Read a border entry by splitting it (no backtracking regex: boards may come from requests); None if unreadable."""
    left, colon, right = text.partition(":")
    if not colon:
        return None
    ends = left.split()
    if len(ends) == 1 and ends[0].count("-") == 1:  # `A-B`
        ends = [ends[0].split("-")[0], "-", ends[0].split("-")[1]]
    if len(ends) != 3 or ends[1] not in _ARROWS or not ends[0] or not ends[2]:
        return None
    body, bracket, rest = right.partition("[")
    kind = body.strip()
    seas: tuple[str, ...] = ()
    if bracket:
        inside, close, tail = rest.partition("]")
        if not close:
            return None
        seas = tuple(x.strip() for x in inside.split(",") if x.strip())
        tail = tail.strip()
        if tail and not (tail.startswith("(") and tail.endswith(")") and _WORD.fullmatch(tail[1:-1])):
            return None
    else:
        words = kind.split()
        if len(words) == 2 and words[1].startswith("(") and words[1].endswith(")") and _WORD.fullmatch(words[1][1:-1]):
            kind = words[0]  # a trailing `(tag)` is a note
    if not _WORD.fullmatch(kind):
        return None
    return BorderText(ends[0], ends[2], kind, seas, _ARROWS[ends[1]])


def _err(message: str, source: str | None, node: Any = None) -> VariantError:
    return VariantError(message, file=source, line=line_of(node))


def _border_entries(raw: Any, source: str | None) -> list[tuple[str, Any]]:
    """Border entries are `A - B : kind [seas]` strings, or one-key mappings YAML made of them."""
    out: list[tuple[str, Any]] = []
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
        coasts = tuple(str(c) for c in entry.get("coasts", ()) or ())
        river = entry.get("river", False)
        if river is True:
            river_locs = tuple(join_location(pid, c) for c in coasts) or (pid,)
        elif isinstance(river, list):
            bad = [str(c) for c in river if str(c) not in coasts]
            if bad:
                raise _err(f"province {pid!r}: river coast {bad[0]!r} is not one of its coasts ({', '.join(coasts) or 'none'})",
                           source, entry)
            river_locs = tuple(join_location(pid, str(c)) for c in river)
        elif river in (False, None):
            river_locs = ()
        else:
            raise _err(f"province {pid!r}: `river` is true or a list of its coasts, not {river!r}", source, entry)
        provinces[pid] = Province(
            id=pid,
            name=str(entry.get("name", pid)),
            kind=kind,
            centre=bool(entry.get("centre", False)),
            home=str(home) if home is not None else None,
            coasts=coasts,
            aliases=tuple(str(a) for a in entry.get("aliases", ()) or ()),
            position=(float(pos[0]), float(pos[1])) if pos else None,
            line=line_of(entry),
            convoys=bool(entry.get("convoys", False)),
            river=river_locs,
            river_builds=bool(entry.get("river_builds", False)),
        )

    listed, one_sided = borders_from_adjacency_lists(data["provinces"] or [])
    if one_sided:
        node, message = one_sided[0]
        raise _err(message, source, node)
    borders = list(listed)
    for text, node in _border_entries(data.get("borders"), source):
        parsed = parse_border_text(text)
        if parsed is None:
            raise _err(f"cannot read the border {text[:80]!r}; write it 'A - B : kind', 'A - B : coast [S1, S2]' or "
                       f"'A > B : kind' (one way)", source, node)
        if parsed.kind not in BORDER_KINDS:
            raise _err(f"border {parsed.a} - {parsed.b}: kind {parsed.kind!r} is not one of {', '.join(BORDER_KINDS)}",
                       source, node)
        borders.append(Border(parsed.a, parsed.b, parsed.kind, parsed.seas, line_of(node), parsed.one_way))

    cal = data["calendar"] or {}
    if not isinstance(cal, dict) or not isinstance(cal.get("phases"), list) or not cal["phases"]:
        raise _err("the calendar needs `phases`: a list of {season, type}", source, cal)
    steps: list[PhaseStep] = []
    for s in cal["phases"]:
        if not isinstance(s, dict) or "season" not in s or "type" not in s:
            raise _err("each calendar phase needs `season` and `type` (Movement, Retreat or Adjustment)", source, s)
        kind = str(s["type"]).capitalize()
        if kind not in ("Movement", "Retreat", "Adjustment"):
            raise _err(f"calendar phase type {s['type']!r} is not Movement, Retreat or Adjustment", source, s)
        advance = s.get("advance", 0)
        if isinstance(advance, bool) or not isinstance(advance, int) or advance < 0 or (advance and not steps):
            raise _err(f"a calendar phase's `advance` is a whole number of years, 0 or more, on a phase after the "
                       f"first (the year grows by `year_step` at the first), not {advance!r}", source, s)
        steps.append(PhaseStep(str(s["season"]), kind, bool(s.get("centres", False)),
                               None if s.get("victory") is None else bool(s["victory"]), advance))
    start = cal.get("start") or {}
    try:
        start_phase = (str(start.get("season", steps[0].season)), int(start.get("year", 1901)),
                       str(start.get("type", steps[0].type)).capitalize())
        year_step = int(cal.get("year_step", 1))
    except (TypeError, ValueError):
        raise _err("the calendar's start year and year_step must be whole numbers", source, cal) from None
    if year_step < 1:
        raise _err(f"the calendar's year_step must be at least 1, not {year_step}", source, cal)

    sites = []
    for power, entries in (data.get("build_sites") or {}).items():
        for e in entries or []:
            sites.append(BuildSite(str(power), str(e["province"]), tuple(e.get("units", (ARMY, FLEET))),
                                   bool(e.get("needs_ownership", True))))

    options = options_from_data(data.get("options"), source,
                                replace(DEFAULT_RULES, victory=_victory_from_data(data.get("victory"), source)))
    neutral = data.get("neutral") or {}
    if not isinstance(neutral, dict):
        raise _err("`neutral` is a mapping: {units: [A Bel, ...], rebuilt: true|false}", source, neutral)
    start_owners = {}
    for power, centres in (data.get("start_owners") or {}).items():
        if str(power) not in powers:
            raise _err(f"start_owners: {power!r} is not a power of this variant", source, data.get("start_owners"))
        start_owners[str(power)] = [str(c) for c in centres or []]
    start_unowned = data.get("start_unowned") or []
    if not isinstance(start_unowned, list):
        raise _err("start_unowned is a list of home centres nobody owns at the start", source, start_unowned)

    coast_names = {k: list(v) for k, v in DEFAULT_COAST_NAMES.items()}
    for k, v in (data.get("coast_names") or {}).items():
        coast_names.setdefault(str(k), []).extend(str(x) for x in v)
    for p in provinces.values():  # a board's own coast ids (`meo/river`) are words of its orders too
        for c in p.coasts:
            coast_names.setdefault(c, [])

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
        victory=0,
        start_units={str(k): [str(u) for u in v] for k, v in (data.get("start") or {}).items()},
        build_sites=sites,
        coast_names=coast_names,
        source=source,
        raw=data,
        options=options,
        year_step=year_step,
        neutral_units=[str(u) for u in neutral.get("units") or []],
        neutral_rebuilt=bool(neutral.get("rebuilt", False)),
        start_owners=start_owners,
        start_unowned=tuple(str(c) for c in start_unowned),
    )
    board.victory = board.victory_centres()
    _check_references(board, source)
    return board


def _victory_from_data(raw: Any, source: str | None, base: Victory = Victory()) -> Victory:
    """`victory: 18`, or `victory: {rule: centres|lead, centres: N, lead: N, by_year: {YEAR: N}}`."""
    if raw is None:
        return base
    if isinstance(raw, bool):
        raise _err(f"victory is a number of centres or {{rule, centres, lead}}, not {raw!r}", source, raw)
    if isinstance(raw, int):
        return Victory("centres", raw, 0)
    if not isinstance(raw, dict):
        raise _err(f"victory is a number of centres or {{rule, centres, lead}}, not {raw!r}", source, raw)
    unknown = sorted(set(map(str, raw)) - {"rule", "centres", "lead", "by_year"})
    if unknown:
        raise _err(f"victory: unknown key {unknown[0]!r}; the keys are rule, centres, lead, by_year", source, raw)
    rule = str(raw.get("rule", "lead" if "lead" in raw else base.rule))
    if rule not in VICTORY_RULES:
        raise _err(f"victory rule {rule!r} is not one of {', '.join(VICTORY_RULES)}", source, raw)
    try:
        centres, lead = int(raw.get("centres", base.centres) or 0), int(raw.get("lead", base.lead) or 0)
        by_year = raw.get("by_year", dict(base.by_year)) or {}
        steps = tuple(sorted((int(year), int(n)) for year, n in by_year.items())) if isinstance(by_year, dict) else None
    except (TypeError, ValueError):
        raise _err("victory centres, lead and by_year's years and centres are whole numbers", source, raw) from None
    if steps is None:
        raise _err("victory by_year maps a year to the centres needed from that year on: {1910: 17}", source, raw)
    if centres < 0 or lead < 0 or (rule == "lead" and lead < 1) or any(n < 0 for _, n in steps):
        raise _err("victory centres must be at least 0, and a lead rule needs a lead of at least 1", source, raw)
    return Victory(rule, centres, lead, steps)


def options_from_data(raw: Any, source: str | None, base: Rulebook = DEFAULT_RULES,
                      what: str = "options") -> Rulebook:
    """The rule options from a variant's (or a game file's) `options:` mapping, over `base`: DATC keys
    (`4.A.2: 1971`), a rule set (`set: 1971`, applied first), `builds`, `default_builds` and `victory`."""
    if raw is None:
        return base
    if not isinstance(raw, dict):
        raise _err(f"{what} is a mapping of rule keys to answers (`4.D.8: home-centres`, `builds: owned`, "
                   f"`set: 1971`, `victory: 18`)", source, raw)
    values = {str(k): v for k, v in raw.items()}
    if "victory" in values:
        values["victory"] = _victory_from_data(values["victory"], source, base.victory)
    try:
        return base.with_values(values, what)
    except RulesError as exc:
        raise _err(str(exc), source, raw) from None


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
