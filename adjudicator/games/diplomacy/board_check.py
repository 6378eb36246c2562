"""The checks of a board played by the Diplomacy rules (`adjudicator variant check`): raw data first, then the
loaded board, each problem with its line."""

from __future__ import annotations

import networkx as nx

from adjudicator.games.diplomacy.board import BORDER_KINDS, NEUTRAL, split_location
from adjudicator.games.diplomacy.board_file import _border_entries, board_from_data, borders_from_adjacency_lists, parse_border_text
from adjudicator.errors import AdjudicatorError, BoardWarning
from adjudicator.names import closest
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.state import StateError, parse_unit_text
from adjudicator.variant_check import Problem
from adjudicator.yamlio import line_of


def check_diplomacy_board(data: dict, path: str) -> list[AdjudicatorError]:
    """The problems of a board played by the Diplomacy rules: raw data first, then the loaded board."""
    problems = _check_raw(path, data)
    if problems:
        return [AdjudicatorError(p.message, file=path, line=p.line) for p in problems]
    try:
        board = board_from_data(data, source=path)
    except AdjudicatorError as exc:
        return [exc]
    return [(BoardWarning if p.warning else AdjudicatorError)(p.message, file=path, line=p.line)
            for p in _check_board(path, board, data)]


# The keys of a Diplomacy board and of its provinces (variants/FORMAT.md): any other is a slip that would
# otherwise be dropped unseen (`centr: true` loses a supply centre), so it is reported with the nearest key.
BOARD_KEYS = ("name", "title", "rules", "origin", "powers", "terrain", "calendar", "provinces", "borders", "start",
              "start_owners", "start_unowned", "neutral", "build_sites", "victory", "options", "coast_names",
              "unit_words", "ambiguous_names", "drawing", "records")
PROVINCE_KEYS = ("id", "name", "kind", "centre", "home", "coasts", "coast_aliases", "aliases", "pos", "convoys",
                 "river", "river_builds", "army", "fleet")
PROVINCE_FLAGS = ("centre", "convoys", "river_builds")  # true or false, nothing else


def _unknown_keys(path: str, node: dict, known: tuple[str, ...], what: str) -> list[Problem]:
    """A problem for each key of `node` not in `known`, with the nearest known key (or all of them)."""
    problems = []
    for key in node:
        if str(key) in known:
            continue
        near = closest(str(key), known, limit=1)
        hint = f"did you mean {near[0]!r}?" if near else f"the keys are {', '.join(known)}"
        problems.append(Problem(path, line_of(key) or line_of(node), f"{what}: unknown key {str(key)[:80]!r}; {hint}"))
    return problems


def _check_raw(path: str, data: dict) -> list[Problem]:
    missing = [key for key in ("name", "powers", "terrain", "calendar", "provinces") if key not in data]
    problems = [Problem(path, line_of(data), f"missing the required key {key!r}") for key in missing]
    problems += _unknown_keys(path, data, BOARD_KEYS, "the board")
    if missing:
        return problems
    provinces: dict[str, dict] = {}
    for entry in data["provinces"] or []:
        if not isinstance(entry, dict) or "id" not in entry:
            problems.append(Problem(path, line_of(entry), "a province needs an `id`"))
            continue
        pid = str(entry["id"])
        if pid in provinces:
            problems.append(Problem(path, line_of(entry), f"province {pid!r} is defined twice "
                                                          f"(first on line {line_of(provinces[pid])})"))
        provinces[pid] = entry
        problems += _unknown_keys(path, entry, PROVINCE_KEYS, f"province {pid[:80]}")
        problems += [Problem(path, line_of(entry), f"{pid}: `{flag}` is true or false, not {entry[flag]!r}")
                     for flag in PROVINCE_FLAGS if flag in entry and not isinstance(entry[flag], bool)]
        if entry.get("home") is not None and not entry.get("centre"):
            problems.append(Problem(path, line_of(entry), f"{pid} is a home centre of {entry['home']} but not a supply centre"))
        if entry.get("home") is not None and str(entry["home"]) not in (data.get("powers") or {}):
            problems.append(Problem(path, line_of(entry), f"{pid}: home power {entry['home']!r} is not a power"))
        if str(entry.get("kind", "land")) not in (data.get("terrain") or {}):
            problems.append(Problem(path, line_of(entry), f"{pid}: kind {entry.get('kind')!r} is not a terrain type"))
    _, one_sided = borders_from_adjacency_lists(data["provinces"] or [])
    problems += [Problem(path, line_of(node), message) for node, message in one_sided]
    seen: dict[frozenset[str] | tuple[str, str], int | None] = {}  # a border: its pair (one-way: in order)
    try:
        entries = _border_entries(data.get("borders"), path)
    except AdjudicatorError as exc:
        return problems + [Problem(path, exc.line, exc.message)]
    for text, node in entries:
        parsed = parse_border_text(text)
        if parsed is None:
            problems.append(Problem(path, line_of(node), f"cannot read the border {text[:80]!r}; write it 'A - B : kind', "
                                                         f"'A - B : coast [S1, S2]' or 'A > B : kind'"))
            continue
        a, b, kind, seas = parsed.a, parsed.b, parsed.kind, ", ".join(parsed.seas)
        for loc in (a, b):
            province, coast = split_location(loc)
            if province not in provinces:
                problems.append(Problem(path, line_of(node), f"border {a} - {b}: unknown space {province!r}"))
            elif coast and coast not in (provinces[province].get("coasts") or []):
                problems.append(Problem(path, line_of(node), f"border {a} - {b}: {province} has no coast {coast!r}"))
        for sea in (s.strip() for s in (seas or "").split(",") if s.strip()):
            if sea not in provinces:
                problems.append(Problem(path, line_of(node), f"border {a} - {b}: unknown sea {sea!r}"))
        if kind not in BORDER_KINDS:
            problems.append(Problem(path, line_of(node), f"border {a} - {b}: unknown kind {kind!r}"))
        key = (a, b) if parsed.one_way else frozenset((a, b))
        if key in seen:
            problems.append(Problem(path, line_of(node), f"border {a} - {b} is listed twice (first on line {seen[key]})"))
        seen[key] = line_of(node)
        if a == b:
            problems.append(Problem(path, line_of(node), f"border {a} - {b} joins a space to itself"))
    return problems


def _check_names(path: str, board, data: dict) -> list[Problem]:
    """A spelling that reads as two places is reported, unless the file lists it in `ambiguous_names` (then an
    order settles it by its units or is refused naming both); a listed name that names one place is stale."""
    line = {p.id: p.line for p in board.provinces.values()}
    listed = {str(n).casefold() for n in data.get("ambiguous_names") or []}
    problems = []
    for spelling, ids in board.names.folded.items():
        if len(ids) > 1 and spelling not in listed:
            names = " and ".join(f"{i} ({board.names.display[i]})" for i in sorted(ids))
            problems.append(Problem(path, max(line[i] or 0 for i in ids) or None,
                                    f"the spelling {spelling!r} reads as two places, {names}: drop it from one, or "
                                    f"list it in `ambiguous_names` if players write it for both"))
    for spelling in sorted(listed):
        if len(board.names.folded.get(spelling, ())) < 2:
            problems.append(Problem(path, line_of(data.get("ambiguous_names")),
                                    f"`ambiguous_names` lists {spelling!r}, which does not name two places"))
    return problems


def _check_board(path: str, board, data: dict) -> list[Problem]:
    problems: list[Problem] = []
    line = {p.id: p.line for p in board.provinces.values()}
    # A coast border's seas must touch both ends (Arctic map invariant), and land borders never touch water.
    for b in board.borders:
        pa, pb = split_location(b.a)[0], split_location(b.b)[0]
        for sea in b.seas:
            if pa not in board.water_adj[sea] or pb not in board.water_adj[sea]:
                problems.append(Problem(path, b.line, f"border {b.a} - {b.b}: the sea {sea} does not border both ends"))
        if b.kind in ("land", "coast", "canal", "strait"):
            for p in (pa, pb):
                if any(board.surface(p, s) != "land" for s in board.seasons):
                    problems.append(Problem(path, b.line, f"border {b.a} - {b.b}: a {b.kind} border must join land spaces"))
    # One-sided adjacency: a unit able to stand at both ends crosses one way but not back (unless the border says so).
    one_way = {(split_location(b.a)[0], split_location(b.b)[0]) for b in board.borders if b.one_way}
    lines = _border_lines(board)
    for season in board.seasons:
        for unit_type, graph in (("army", board.army_moves(season)), ("fleet", board.fleet_moves(season))):
            def stand(loc: str, unit_type: str = unit_type, season: str = season) -> bool:
                if unit_type == "army":
                    return board.army_can_stand(loc, season) and not board.is_island(loc)
                return board.fleet_can_stand(loc, season)

            for o, d in graph.edges:
                if (stand(o) and stand(d) and not graph.has_edge(d, o)
                        and (split_location(o)[0], split_location(d)[0]) not in one_way):
                    problems.append(Problem(path, _border_line(lines, o, d),
                                            f"one-sided adjacency in {season}: an {unit_type} may move {o} -> {d} but not back"))
    # Unreachable spaces: no unit can ever enter them, in any season.
    union: nx.DiGraph[str] = nx.DiGraph()
    for season in board.seasons:
        union.add_edges_from(board.army_moves(season).edges)
        union.add_edges_from((split_location(a)[0], split_location(b)[0]) for a, b in board.fleet_moves(season).edges)
    union.add_nodes_from(board.provinces)
    for p in board.provinces:
        if union.in_degree(p) == 0:
            problems.append(Problem(path, line[p], f"space {p} is unreachable: no unit can ever move into it"))
    components = list(nx.weakly_connected_components(union))
    if len(components) > 1:
        main = max(components, key=len)
        for comp in components:
            if comp is not main and not all(union.in_degree(p) == 0 for p in comp):
                problems.append(Problem(path, line[min(comp)], f"spaces {', '.join(sorted(comp))} are cut off from the rest of the board"))
    # Starting units must stand where they can in the first phase's season.
    season = board.season_key(board.start_phase[0])
    start = board.year_problem(season, board.start_phase[1], board.start_phase[2])
    if start:  # `new` would write a game that nothing reads back
        problems.append(Problem(path, line_of(data["calendar"]), f"the calendar's start: {start}"))
    start_line = line_of(data.get("start"))
    seen_units: dict[str, str] = {}
    for power, texts in board.start_units.items():
        if power not in board.powers:
            problems.append(Problem(path, start_line, f"starting units for unknown power {power!r}"))
            continue
        for text in texts:
            try:
                unit = parse_unit_text(board, text, power)
            except (StateError, AdjudicatorError) as exc:
                problems.append(Problem(path, line_of(text) or start_line, f"starting unit {text!r} of {power}: {exc.message}"))
                continue
            if not board.can_stand(unit.type, unit.location, season):
                problems.append(Problem(path, line_of(text) or start_line,
                                        f"starting unit {power} {text} cannot stand on {unit.location} in {season}"))
            if unit.province in seen_units:
                problems.append(Problem(path, line_of(text) or start_line,
                                        f"two starting units in {unit.province}: {seen_units[unit.province]} and {power} {text}"))
            seen_units[unit.province] = f"{power} {text}"
    problems += _check_names(path, board, data)
    if board.victory and board.victory > len(board.centres):
        problems.append(Problem(path, line_of(data.get("victory")) or line_of(data),
                                f"victory needs {board.victory} centres but the board has {len(board.centres)}"))
    for site in board.build_sites:
        if site.province not in board.provinces:
            problems.append(Problem(path, line_of(data.get("build_sites")), f"build site {site.province!r} is not a space"))
        elif not board.provinces[site.province].centre and site.needs_ownership:
            problems.append(Problem(path, line_of(data.get("build_sites")),
                                    f"build site {site.province} of {site.power} is not a supply centre, so it can never "
                                    f"be owned: mark it `centre: true`, or write `needs_ownership: false`"))
        if site.power not in board.powers:
            problems.append(Problem(path, line_of(data.get("build_sites")), f"build site {site.province}: {site.power!r} "
                                                                            f"is not a power"))
    problems += _check_features(path, board, data, union)
    problems += _check_orientation(path, board, data)
    return problems


def _check_orientation(path: str, board, data: dict) -> list[Problem]:
    """The drawing's compass or rough places (which way is north on a board without positions), as the picture
    reads them: a name that is no space, a direction that is none, a place that is no pair of numbers."""
    from adjudicator.games.diplomacy.picture.layout import orientation_hints  # (the pictures' part: loaded when asked)

    try:
        orientation_hints(board)
    except AdjudicatorError as exc:
        return [Problem(path, line_of(data.get("drawing")) or line_of(data), exc.message)]
    return []


def _check_features(path: str, board, data: dict, union: nx.DiGraph) -> list[Problem]:
    """The rules of the newer board features: river coasts, one-way borders, owners and neutral units at start."""
    problems: list[Problem] = []
    # A river coast (or any place that carries fleets) no fleet can ever move onto is a data error.
    reached = {d for s in board.seasons for _, d in board.fleet_moves(s).edges}
    for p in board.provinces.values():
        for loc in p.river:
            if loc not in reached:
                problems.append(Problem(path, p.line, f"river coast {loc}: no fleet can reach it (it needs a coast or "
                                                      f"canal border to a place that carries fleets)"))
        for loc in (board.locations(p.id) if p.coasts else ()):  # a named coast with no fleet route onto it
            if loc not in p.river and loc not in reached:
                problems.append(Problem(path, p.line, _unreached_coast(board, loc)))
        problems += [Problem(path, p.line, message) for message in _unwritable_coasts(board, p)]
        if p.convoys and not board.water_adj[p.id]:
            problems.append(Problem(path, p.line, f"{p.id} is marked `convoys` but has no water border to convoy along"))
    # A one-way border whose far end has no way back to its near end, by any unit in any season, traps units: a
    # rule some boards mean (North Sea Wars' trade provinces "can't return back"), so a warning.
    for b in board.borders:
        if b.one_way:
            a, z = split_location(b.a)[0], split_location(b.b)[0]
            if not nx.has_path(union, z, a):
                problems.append(Problem(path, b.line, f"one-way border {b.a} > {b.b}: no way leads back from {z} to {a} "
                                                      f"(a unit that crosses can never return)", warning=True))
    for power, centres in board.start_owners.items():
        for c in centres:
            if c not in board.provinces or not board.provinces[c].centre:
                problems.append(Problem(path, line_of(data.get("start_owners")),
                                        f"start_owners: {power} is given {c!r}, which is not a supply centre"))
            elif c in board.start_unowned:
                problems.append(Problem(path, line_of(data.get("start_unowned")),
                                        f"start_unowned lists {c}, which start_owners gives {power}"))
    for c in board.start_unowned:
        if c not in board.provinces or not board.provinces[c].centre or not board.provinces[c].home:
            problems.append(Problem(path, line_of(data.get("start_unowned")),
                                    f"start_unowned lists {c!r}, which is not a home centre (a centre that is no "
                                    f"power's home is nobody's at the start already)"))
    season = board.season_key(board.start_phase[0])
    for text in board.neutral_units:
        try:
            unit = parse_unit_text(board, text, NEUTRAL)
        except (StateError, AdjudicatorError) as exc:
            problems.append(Problem(path, line_of(data.get("neutral")), f"neutral unit {text!r}: {exc.message}"))
            continue
        if not board.can_stand(unit.type, unit.location, season):
            problems.append(Problem(path, line_of(data.get("neutral")), f"neutral unit {text} cannot stand on "
                                                                         f"{unit.location} in {season}"))
        if any(parse_unit_text(board, t, p).province == unit.province for p, ts in board.start_units.items()
               for t in ts if _readable(board, t, p)):
            problems.append(Problem(path, line_of(data.get("neutral")), f"neutral unit {text} starts where a power's "
                                                                         f"unit starts"))
    return problems


FLEET_BORDERS = ("water", "coast", "canal", "strait")  # the kinds of border a fleet may cross


def _unreached_coast(board, loc: str) -> str:
    """Why no fleet ever reaches a named coast: no border a fleet crosses leads onto it, or the coast can carry no
    fleet (neither coastal, by a water border to open sea, nor a river coast), or only places without fleets lead
    onto it."""
    onto = sorted({b.b if b.a == loc else b.a for b in board.borders if loc in (b.a, b.b) and b.kind in FLEET_BORDERS})
    if not onto:
        return (f"coast {loc}: no fleet can reach it in any season (no water, coast, canal or strait border leads "
                f"onto it)")
    if not any(loc in board.season(s).fleet_stand for s in board.seasons):
        province, _, coast = loc.partition("/")
        return (f"coast {loc}: no fleet can reach it in any season: it is neither coastal (no water border joins it "
                f"to open sea) nor marked `river`, so no fleet can stand on it, though borders from "
                f"{', '.join(onto)} lead onto it; mark it `river: [{coast}]` on {province} if fleets sail up to it")
    return (f"coast {loc}: no fleet can reach it in any season: the borders onto it come from {', '.join(onto)}, "
            f"where no fleet stands")


def _unwritable_coasts(board, p) -> list[str]:
    """A named coast of the board that an order (`F stp/nc H`) or a position line cannot name."""
    problems = []
    for loc in board.locations(p.id) if p.coasts else ():
        text = f"F {loc}"
        try:
            held = parse_order(board, f"{text} H")
            read = {held.unit.location if held.unit else "", parse_unit_text(board, text, "").location}
            why = None if read == {loc} else f"{text!r} reads as {' or '.join(sorted(read - {loc}))}"
        except AdjudicatorError as exc:
            why = f"{text!r} is refused: {exc.message}"
        if why:
            problems.append(f"coast {loc}: orders cannot name it ({why}); give the coast an id orders read: a word "
                            f"that names no place and is no order word")
    return problems


def _readable(board, text: str, power: str) -> bool:
    try:
        parse_unit_text(board, text, power)
    except AdjudicatorError:
        return False
    return True


def _border_lines(board) -> dict[frozenset, int | None]:
    """The line of each border, by its two locations and by its two provinces (looked up once per problem)."""
    lines: dict[frozenset, int | None] = {}
    for b in reversed(board.borders):  # the first border listed wins
        lines[frozenset((b.a, b.b))] = b.line
        lines[frozenset((split_location(b.a)[0], split_location(b.b)[0]))] = b.line
    return lines


def _border_line(lines: dict[frozenset, int | None], o: str, d: str) -> int | None:
    key = frozenset((o, d))
    if key in lines:
        return lines[key]
    return lines.get(frozenset((split_location(o)[0], split_location(d)[0])))
