"""The 2019: The ARCTIC board from its variant file: countries, laws, sectors, and a networkx graph of adjacency.

Every fact about the map is data (`variants/arctic2019.yaml`); this module only reads and checks it, so a user
with the physical board can replace the reference board (§1.9 of the board document) by editing the YAML.
The checks are those of §3.3 that any board satisfying the rulebook must pass, against the counts the file's
`rulebook` block states.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from adjudicator.located import variant_error
from adjudicator.names import NameIndex
from adjudicator.yamlio import plain

KINDS = ("polar", "sea", "coastal")
DEPOSITS = ("gas", "oil", "concretions")
SEA_CONTROL = ("none", "coastline", "ships")
ADJACENCY_KINDS = ("side", "corner")
_SECTOR_KEYS = {"id", "name", "aliases", "kind", "owner", "ring", "deposit", "ship_symbol", "north", "law_b", "draw"}


@dataclass(frozen=True)
class Country:
    """One of the six countries."""

    id: str
    name: str
    adjective: str
    ships: int  # pieces in the box: ships on the board never exceed it
    arctic: bool = True  # False for China: no display, no treasury, no votes, always in conflict
    treasury: int = 0
    votes: int = 0
    council: str | None = None  # the law its vote markers start on
    joins: str | None = None  # Norway may join the EU


@dataclass(frozen=True)
class Law:
    """An applicable law of the Arctic Council."""

    id: str
    name: str
    sea_control: str  # none | coastline | ships


@dataclass(frozen=True)
class Sector:
    """A sector of the map."""

    id: str
    name: str
    kind: str  # polar | sea | coastal
    owner: str | None = None
    ring: str | None = None
    deposit: str | None = None
    symbol_country: str | None = None
    setup_ships: int = 0
    north: tuple[str, ...] = ()
    law_b: str | None = None

    @property
    def is_polar(self) -> bool:
        """The polar sector (control by ships under every law)."""
        return self.kind == "polar"

    @property
    def is_coastal(self) -> bool:
        """A coastal sector: always its owner's."""
        return self.kind == "coastal"


@dataclass
class Board:
    """The board of 2019: The ARCTIC."""

    name: str
    title: str
    rules: str
    countries: dict[str, Country]
    laws: dict[str, Law]
    start_law: str
    majority: int
    takeover_fee: int
    last_turn: int
    ring_cost: dict[str, int]
    sectors: dict[str, Sector]  # in the file's order
    graph: nx.Graph
    names: NameIndex  # sector spellings
    country_names: NameIndex
    law_names: NameIndex
    source: str | None = None
    rulebook: dict[str, Any] = field(default_factory=dict)  # the counts found, checked against the file's
    raw: dict[str, Any] = field(default_factory=dict)  # the variant file's data, plain (the API shows it)

    def __hash__(self) -> int:  # boards are cached by identity (the parser cache needs hashing)
        return id(self)

    def adjacent(self, a: str, b: str) -> bool:
        """Whether two sectors share a side or a corner."""
        return self.graph.has_edge(a, b)

    def adjacency_kind(self, a: str, b: str) -> str | None:
        """`side`, `corner`, or None."""
        return self.graph.edges[a, b]["kind"] if self.graph.has_edge(a, b) else None

    @property
    def china(self) -> str:
        """The one country that is not an Arctic region country (its ships move north automatically)."""
        return next(c for c in self.countries.values() if not c.arctic).id

    @property
    def pole(self) -> str:
        """The polar sector."""
        return next(s.id for s in self.sectors.values() if s.is_polar)

    @property
    def arctic_countries(self) -> list[str]:
        """The Arctic region countries, in the file's order (the order of Phase 6)."""
        return [c.id for c in self.countries.values() if c.arctic]

    def country_name(self, country: str | None) -> str:
        """A country's display name."""
        return self.countries[country].name if country in self.countries else "nobody"

    def sector_name(self, sector: str) -> str:
        """`KAR (Kara Sea)`."""
        return f"{sector} ({self.sectors[sector].name})"


_fail = variant_error  # (adjudicator/located.py: a board file's problem at its line)


def _country_id(value: Any, known: dict, source: str | None, node: Any, what: str) -> str:
    if value is False:  # PyYAML reads a bare NO as false
        raise _fail(f"{what}: a bare NO is read by YAML as false; quote it, \"NO\"", source, node)
    if str(value) not in known:
        raise _fail(f"{what}: unknown country {value!r}; countries are {', '.join(known)}", source, node)
    return str(value)


def _countries(data: dict, source: str | None) -> dict[str, Country]:
    raw = data.get("countries")
    if not isinstance(raw, dict) or not raw:
        raise _fail("the board needs `countries`: a mapping of country codes", source, data)
    out: dict[str, Country] = {}
    for key, entry in raw.items():
        if key is False:
            raise _fail("a country code NO must be quoted (\"NO\"): YAML reads a bare NO as false", source, raw)
        if not isinstance(entry, dict) or "name" not in entry or "ships" not in entry:
            raise _fail(f"country {key}: needs at least `name` and `ships`", source, entry or raw)
        try:
            ships = int(entry["ships"])
            treasury = int(entry.get("treasury", 0))
            votes = int(entry.get("votes", 0))
        except (TypeError, ValueError):
            raise _fail(f"country {key}: ships, treasury and votes must be numbers", source, entry) from None
        out[str(key)] = Country(str(key), str(entry["name"]), str(entry.get("adjective", entry["name"])), ships,
                                bool(entry.get("arctic", True)), treasury, votes,
                                str(entry["council"]) if entry.get("council") else None,
                                str(entry["joins"]) if entry.get("joins") not in (None, False) else None)
    non_arctic = [c for c in out.values() if not c.arctic]
    if len(non_arctic) != 1:
        raise _fail("exactly one country must have `arctic: false` (China)", source, raw)
    for c in out.values():
        if c.joins is not None and (c.joins not in out or c.joins == c.id):
            raise _fail(f"country {c.id}: `joins` must name another country", source, raw[c.id])
    return out


def _laws(data: dict, countries: dict[str, Country], source: str | None) -> dict[str, Law]:
    raw = data.get("laws")
    if not isinstance(raw, dict) or not raw:
        raise _fail("the board needs `laws`: the applicable laws of the Arctic Council", source, data)
    laws = {}
    for key, entry in raw.items():
        if not isinstance(entry, dict) or entry.get("sea_control") not in SEA_CONTROL:
            raise _fail(f"law {key}: needs `name` and `sea_control` ({', '.join(SEA_CONTROL)})", source, entry or raw)
        laws[str(key)] = Law(str(key), str(entry.get("name", key)), str(entry["sea_control"]))
    if str(data.get("start_law")) not in laws:
        raise _fail(f"`start_law` must be one of {', '.join(laws)}", source, data)
    for c in countries.values():
        if c.votes and c.council not in laws:
            raise _fail(f"country {c.id}: `council` must name the law its votes start on ({', '.join(laws)})",
                        source, data.get("countries", {}).get(c.id))
    return laws


def _sector(entry: Any, countries: dict, ring_cost: dict, source: str | None) -> tuple[Sector, list[str]]:
    if not isinstance(entry, dict) or "id" not in entry:
        raise _fail("each sector needs at least `id`, `name` and `kind`", source, entry)
    sid = str(entry["id"])
    unknown = set(entry) - _SECTOR_KEYS
    if unknown:
        raise _fail(f"sector {sid}: unknown key(s) {', '.join(sorted(map(str, unknown)))}; "
                    f"known: {', '.join(sorted(_SECTOR_KEYS))}", source, entry)
    kind = str(entry.get("kind"))
    if kind not in KINDS:
        raise _fail(f"sector {sid}: kind must be {', '.join(KINDS)}, not {entry.get('kind')!r}", source, entry)
    owner = None
    if kind == "coastal":
        owner = _country_id(entry.get("owner"), countries, source, entry, f"sector {sid} owner")
        if not countries[owner].arctic:
            raise _fail(f"sector {sid}: only Arctic region countries own coastal sectors", source, entry)
    elif entry.get("owner") is not None:
        raise _fail(f"sector {sid}: only coastal sectors have an owner", source, entry)
    ring = entry.get("ring")
    if kind == "polar":
        if ring is not None:
            raise _fail(f"sector {sid}: the polar sector has no ring (B7)", source, entry)
    elif str(ring) not in ring_cost:
        raise _fail(f"sector {sid}: ring must be one of {', '.join(ring_cost)}", source, entry)
    deposit = entry.get("deposit")
    deposit = None if deposit in (None, "none") else str(deposit)
    if deposit is not None and deposit not in DEPOSITS:
        raise _fail(f"sector {sid}: deposit must be {', '.join(DEPOSITS)} or none", source, entry)
    law_b = entry.get("law_b")
    if law_b is not None:
        law_b = _country_id(law_b, countries, source, entry, f"sector {sid} law_b")
        if kind != "sea":
            raise _fail(f"sector {sid}: only sea sectors have a law-B country (the pole is unaffected)", source, entry)
    if kind == "sea" and deposit is not None and law_b is None:
        # law B: "Illegal platforms cannot be built (since every sector with mineral deposits is controlled)" (B6)
        raise _fail(f"sector {sid}: a sea sector with a deposit needs a law-B country", source, entry)
    symbol, setup = None, 0
    if entry.get("ship_symbol") is not None:
        sym = entry["ship_symbol"]
        if not isinstance(sym, dict):
            raise _fail(f"sector {sid}: ship_symbol is {{country, setup_ships}}", source, entry)
        symbol = _country_id(sym.get("country"), countries, source, entry, f"sector {sid} ship_symbol")
        try:
            setup = int(sym.get("setup_ships", 1))
        except (TypeError, ValueError):
            raise _fail(f"sector {sid}: setup_ships must be a number", source, entry) from None
    north = entry.get("north") or []
    if not isinstance(north, list):
        raise _fail(f"sector {sid}: north is a list of sectors, west to east", source, entry)
    aliases = entry.get("aliases") or []
    return Sector(sid, str(entry.get("name", sid)), kind, owner, None if ring is None else str(ring), deposit,
                  symbol, setup, tuple(str(n) for n in north), law_b), [str(a) for a in aliases]


def _graph(data: dict, sectors: dict[str, Sector], source: str | None) -> nx.Graph:
    graph: nx.Graph[str] = nx.Graph()
    for s in sectors.values():
        graph.add_node(s.id, kind=s.kind)
    raw = data.get("adjacency")
    if not isinstance(raw, dict):
        raise _fail("the board needs `adjacency`: sector -> {side: [...], corner: [...]}", source, data)
    for a, entry in raw.items():
        if str(a) not in sectors:
            raise _fail(f"adjacency: unknown sector {a!r}", source, raw)
        if not isinstance(entry, dict) or set(entry) - set(ADJACENCY_KINDS):
            raise _fail(f"adjacency of {a}: use {{side: [...], corner: [...]}}", source, entry or raw)
        for kind, others in entry.items():
            for b in others or []:
                b = str(b)
                if b not in sectors:
                    raise _fail(f"adjacency of {a}: unknown sector {b!r}", source, others)
                if b == str(a):
                    raise _fail(f"adjacency of {a}: a sector is not its own neighbour", source, others)
                if graph.has_edge(str(a), b):
                    raise _fail(f"adjacency: the pair {a}-{b} is listed twice", source, others)
                graph.add_edge(str(a), b, kind=str(kind))
    if not nx.is_connected(graph):
        raise _fail("adjacency: the board is not connected", source, raw)
    return graph


def _check_north(sectors: dict[str, Sector], graph: nx.Graph, source: str | None, nodes: dict) -> None:
    for s in sectors.values():
        if s.is_polar:
            if s.north:
                raise _fail(f"sector {s.id}: the polar sector has nothing to its north", source, nodes[s.id])
            continue
        if not s.north:
            raise _fail(f"sector {s.id}: every sector but the pole needs a `north` neighbour (China's move)",
                        source, nodes[s.id])
        for n in s.north:
            if n not in sectors or graph.edges.get((s.id, n), {}).get("kind") != "side":
                raise _fail(f"sector {s.id}: north neighbour {n} must be a side neighbour (B10)", source, nodes[s.id])
    for s in sectors.values():  # China's automatic move must reach the pole, without a loop
        seen: list[str] = []
        here = s.id
        while not sectors[here].is_polar:
            if here in seen:
                raise _fail(f"sector {s.id}: going north loops ({' -> '.join(seen + [here])})", source, nodes[s.id])
            seen.append(here)
            here = sectors[here].north[-1]


def _check_rulebook(data: dict, sectors: dict[str, Sector], source: str | None) -> dict:
    """The counts the rulebook states (the file's `rulebook` block) must be the board's."""
    book = data.get("rulebook") or {}
    found: dict[str, Any] = {
        "deposits": Counter(s.deposit for s in sectors.values() if s.deposit),
        "law_b": Counter(s.law_b for s in sectors.values() if s.law_b),
        "ship_symbol_sectors": Counter(s.symbol_country for s in sectors.values() if s.symbol_country),
        "setup_ships": Counter(),
        "two_north_neighbours": sum(1 for s in sectors.values() if len(s.north) == 2),
    }
    for s in sectors.values():
        if s.symbol_country:
            found["setup_ships"][s.symbol_country] += s.setup_ships
    for key, want in book.items():
        if key not in found:
            raise _fail(f"rulebook: unknown count {key!r}; known: {', '.join(found)}", source, book)
        got = found[key]
        if isinstance(want, dict):
            want_plain = {str(k): int(v) for k, v in want.items()}
            got_plain = {k: v for k, v in got.items() if v}
            if want_plain != got_plain:
                raise _fail(f"rulebook {key}: the rulebook says {want_plain}, the sectors give {dict(got_plain)}",
                            source, want)
        elif int(want) != got:
            raise _fail(f"rulebook {key}: the rulebook says {want}, the sectors give {got}", source, book)
    for s in sectors.values():
        if len(s.north) > 2:
            raise _fail(f"sector {s.id}: at most two north neighbours (north-west and north-east)", source, book)
    return {k: (dict(v) if isinstance(v, Counter) else v) for k, v in found.items()}


def load_board(data: dict, source: str | None = None) -> Board:
    """The board from a variant file's data; a VariantError names the line of what is wrong."""
    countries = _countries(data, source)
    laws = _laws(data, countries, source)
    ring_cost = data.get("ring_cost")
    if not isinstance(ring_cost, dict) or not ring_cost:
        raise _fail("the board needs `ring_cost`: {inner: 3, middle: 2, outer: 1}", source, data)
    raw_sectors = data.get("sectors")
    if not isinstance(raw_sectors, list) or not raw_sectors:
        raise _fail("the board needs a list of `sectors`", source, data)
    sectors: dict[str, Sector] = {}
    nodes: dict[str, Any] = {}
    entries = []
    for entry in raw_sectors:
        sector, aliases = _sector(entry, countries, ring_cost, source)
        if sector.id in sectors:
            raise _fail(f"sector {sector.id} is defined twice", source, entry)
        sectors[sector.id] = sector
        nodes[sector.id] = entry
        entries.append((sector.id, sector.name, [sector.id, sector.name, *aliases]))
    if sum(1 for s in sectors.values() if s.is_polar) != 1:
        raise _fail("the board needs exactly one polar sector", source, raw_sectors)
    for s in sectors.values():
        for n in s.north:
            if n not in sectors:
                raise _fail(f"sector {s.id}: unknown north neighbour {n!r}", source, nodes[s.id])
    graph = _graph(data, sectors, source)
    _check_north(sectors, graph, source, nodes)
    for c in countries.values():
        if c.arctic and not any(s.owner == c.id for s in sectors.values()):
            raise _fail(f"country {c.id} owns no coastal sector", source, data.get("countries"))
    rulebook = _check_rulebook(data, sectors, source)
    for s in sectors.values():
        nx.set_node_attributes(graph, {s.id: {"ring": s.ring, "deposit": s.deposit, "owner": s.owner,
                                              "law_b": s.law_b, "north": s.north}})
    country_names = NameIndex.build(
        (c.id, c.name, [c.id, c.name, c.adjective, *[str(a) for a in (data["countries"][c.id].get("aliases") or [])]])
        for c in countries.values())
    law_names = NameIndex.build((law.id, law.name, [law.id, law.name]) for law in laws.values())
    try:
        majority = int(data.get("council_majority", 4))
        fee = int(data.get("takeover_fee", 2))
        last_turn = int(data.get("last_turn", 9))
    except (TypeError, ValueError):
        raise _fail("council_majority, takeover_fee and last_turn must be numbers", source, data) from None
    return Board(str(data.get("name", "arctic2019")), str(data.get("title", "2019: The ARCTIC")),
                 str(data.get("rules", "arctic2019")), countries, laws, str(data["start_law"]), majority, fee, last_turn,
                 {str(k): int(v) for k, v in ring_cost.items()}, sectors, graph,
                 NameIndex.build(entries), country_names, law_names, source, rulebook, plain(data))
