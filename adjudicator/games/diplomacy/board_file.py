"""A Diplomacy board file read: the YAML data of a variant (every key in `variants/FORMAT.md`) checked and made
into a `Board` (board.py), each problem a VariantError with its line; the border notation (`A - B : kind`,
`A > B`) and adjacency lists read here too."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from adjudicator.errors import VariantError
from adjudicator.located import variant_error
from adjudicator.games.diplomacy.board import (ARMY, BORDER_KINDS, Board, Border, BuildSite, DEFAULT_COAST_NAMES, FLEET, PhaseStep, Power, Province, SURFACES, VICTORY_RULES, join_location, split_location)
from adjudicator.games.diplomacy.rulebook import DEFAULT_RULES, Rulebook, RulesError, Victory
from adjudicator.yamlio import line_of


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


_err = variant_error  # (adjudicator/located.py: a board file's problem at its line)


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
