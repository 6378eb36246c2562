"""The DPjudge map format (`.map` files, as the `diplomacy` package ships its maps) -> board data.

Long file: one format's reader, its keywords read in one pass over shared state (the names, the places, the
notes); writing the board out is writer.py, reading a picture's positions picture.py.

A map file is read line by line, each line split into words (no regular expressions): `BEGIN`, `VICTORY`,
`RULE(S)`, `MAP`/`USE(S)` (other map files, looked up beside this one), `Name = ABC alias...`, power lines
(`ENGLAND (ENGLISH) EDI LON LVP`), `A LON` / `F EDI` units, `UNOWNED`/`NEUTRAL`/`CENTERS` centres, `OWNS`,
`INHABITS`, `HOME(S)`, `UNPLAYED`, `DUMMY`, `DROP`, and place records `WATER|COAST|LAND|PORT|SHUT|AMEND ABC
ABUTS ...`. In an ABUTS list an upper-case neighbour can be reached by both unit types, a lower-case one by
armies only, a capitalised one (`Bal`) by fleets only; a split-coast province is written as its coasts
(`SPA/NC`) and a lower-case record (`spa`) for armies.

Who may move where is worked out the way the DPjudge (and the `diplomacy` package) read it, then written as
borders: both unit types both ways -> `coast`, fleets only with a sea on one side -> `water`, armies only ->
`land`. Everything the board format cannot say (a one-way move, a fleet-only passage between two land
provinces, a port where fleets convoy, build rules, dummy powers) is reported as a note naming the map file
and line, and left out of the board rather than approximated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.importers.notes import MapNote
from adjudicator.games.diplomacy.importers.writer import board_yaml
from adjudicator.textio import read_text

MAX_FILES = 16  # MAP/USES chains deeper than this are refused (and cycles are)
MAX_BYTES = 2 * 1024 * 1024  # per map or picture file
PLACE_TYPES = ("WATER", "COAST", "LAND", "PORT", "SHUT", "AMEND")
PHASE_TYPES = {"MOVEMENT": "Movement", "RETREATS": "Retreat", "ADJUSTMENTS": "Adjustment"}
CALENDAR = [
    {"season": "Spring", "type": "Movement"},
    {"season": "Spring", "type": "Retreat"},
    {"season": "Fall", "type": "Movement"},
    {"season": "Fall", "type": "Retreat", "centres": True},
    {"season": "Fall", "type": "Adjustment"},
]


@dataclass
class _Record:
    """One place record: `COAST SPA/NC ABUTS GAS MAO POR`."""

    type: str
    abuts: list[str]
    file: str
    line: int


@dataclass
class _Power:
    name: str  # as the map writes it, upper case (`ENGLAND`)
    adjective: str | None = None
    homes: list[str] = field(default_factory=list)
    file: str = ""
    line: int = 0


@dataclass
class ImportedMap:
    """A map file read into board data (`data`, the mapping a variant file holds), and what was left out."""

    data: dict[str, Any]
    notes: list[MapNote]
    sources: list[str]  # the map files read, the first one first
    picture: str | None = None  # the picture positions were taken from

    def to_yaml(self) -> str:
        """The board as a variant file: a comment header (source, terms, notes), then the data."""
        origin = self.data.get("origin", {})
        header = [f"{self.data['title']}, imported from a DPjudge map file by `adjudicator variant import`.",
                  f"Source: {origin.get('source', ', '.join(Path(f).name for f in self.sources))}",
                  f"Terms: {origin.get('terms', 'not stated')}"]
        if self.picture:
            header.append(f"Drawing positions: the unit spots of {Path(self.picture).name}")
        return board_yaml(self, header)


class _MapReader:
    """The state of reading one map file and the files it uses, as the DPjudge builds it."""

    def __init__(self) -> None:
        self.records: dict[str, _Record] = {}  # keyed as written: `SPA/NC`, `spa`, `PAR`
        self.names: dict[str, tuple[str, list[str], str, int]] = {}  # LOC -> (name, aliases, file, line)
        self.powers: dict[str, _Power] = {}
        self.unowned: list[str] = []
        self.units: dict[str, list[str]] = {}  # POWER -> ["A LON", ...]
        self.begin: tuple[str, int] | None = None  # (text, line) of BEGIN
        self.begin_file = ""
        self.victory: list[int] = []
        self.notes: list[MapNote] = []
        self.files: list[str] = []
        self.root: str | None = None
        self.builds = "home"  # RULE BUILD_ANY: `owned`
        self.flow: tuple[list[str], str, int] | None = None
        self.owns: dict[str, list[str]] = {}  # POWER -> the centres an OWNS/CENTERS line gives it at the start

    def note(self, file: str, line: int | None, text: str) -> None:
        self.notes.append(MapNote(file, line, text))

    # ----- files ------------------------------------------------------------------------------------------
    def read_file(self, path: Path, depth: int = 0) -> None:
        if len(self.files) >= MAX_FILES or depth > MAX_FILES:
            raise AdjudicatorError(f"more than {MAX_FILES} map files are used: refusing to read more", file=str(path))
        if not path.is_file():
            raise AdjudicatorError("cannot find the map file", file=str(path))
        if path.stat().st_size > MAX_BYTES:
            raise AdjudicatorError(f"the map file is over {MAX_BYTES // 1024} KiB", file=str(path))
        self.files.append(str(path))
        power: _Power | None = None
        for number, raw in enumerate(read_text(path).splitlines(), start=1):
            words = raw.split()
            if not words or words[0].startswith("#"):
                continue
            power = self._statement(path, number, raw, words, power, depth)

    def _statement(self, path: Path, number: int, raw: str, words: list[str], power: _Power | None,
                   depth: int) -> _Power | None:
        """One line; returns the power later lines belong to."""
        file = path.name
        up = words[0].upper()
        if up == "VICTORY":
            try:
                self.victory = [int(w) for w in words[1:]]
            except ValueError:
                self.note(file, number, f"VICTORY needs numbers of centres, not {' '.join(words[1:])!r}: ignored")
            if len(self.victory) > 1:
                self.note(file, number, "VICTORY gives a number of centres per year; the board format has one "
                                        f"number: the first, {self.victory[0]}, is used")
        elif up in ("USE", "USES", "MAP"):
            if up == "MAP":
                self.root = self.root or words[1].split(".")[0] if len(words) > 1 else self.root
            for name in words[1:]:
                other = path.parent / (name if "." in name else f"{name}.map")
                if str(other) in self.files:
                    raise AdjudicatorError(f"the map file {other.name} is used twice (a cycle?)", file=file, line=number)
                self.read_file(other, depth + 1)
        elif up == "FLOW":  # the calendar: FLOW SPRING:MOVEMENT,RETREATS FALL:MOVEMENT,RETREATS WINTER:ADJUSTMENTS
            self.flow = (words[1:], file, number)
        elif up == "BEGIN":
            self.begin, self.begin_file = (" ".join(words[1:]).upper(), number), file
        elif up in ("RULE", "RULES"):
            for rule in (w.upper() for w in words[1:]):
                if rule == "BUILD_ANY":  # a power builds in any centre it owns
                    self.builds = "owned"
                else:
                    self.note(file, number, f"rule {rule}: the board format has no such rule: not imported")
        elif "=" in raw:
            self._names(file, number, raw)
        elif up in ("OWNS", "CENTERS") and power is not None:
            owned = self.owns.setdefault(power.name, [])
            if up == "CENTERS":
                owned.clear()
            owned += [c.upper() for c in words[1:] if c.upper() not in owned]
        elif up in ("INHABITS", "HOME", "HOMES"):
            if power is None:
                self.note(file, number, f"{up} before any power: ignored")
            else:
                power.homes = [h for h in (w.upper().lstrip("-") for w in words[1:]) if h]
        elif up == "UNITS":
            if power is not None:
                self.units[power.name] = []
        elif up in ("A", "F"):
            if power is None or len(words) != 2:
                self.note(file, number, f"unit {' '.join(words)!r} outside a power's lines, or malformed: ignored")
            else:
                unit = f"{up} {words[1].upper()}"
                for units in self.units.values():
                    units[:] = [u for u in units if u.split()[1][:3] != unit.split()[1][:3]]
                self.units.setdefault(power.name, []).append(unit)
        elif up in ("DUMMY", "DUMMIES"):
            who = power.name if len(words) == 1 and power else " ".join(words[1:])
            self.note(file, number, f"DUMMY {who}: a power played by nobody is a choice of the game, not the board: "
                                    "not imported")
            return None if len(words) > 1 else power
        elif up == "DROP":
            for place in (w.upper() for w in words[1:]):
                self._drop(place)
        elif up in PLACE_TYPES and len(words) > 1:
            self._place(file, number, words)
        elif up == "UNPLAYED":
            self._unplayed(file, number, words, power)
            return None
        else:
            return self._power_line(file, number, words)
        return power

    # ----- statements -------------------------------------------------------------------------------------
    def _names(self, file: str, number: int, raw: str) -> None:
        left, _, right = raw.partition("=")
        words = right.split()
        if not words:
            self.note(file, number, "a name line without an abbreviation: ignored")
            return
        name = left.strip()
        if "->" in name:
            self.note(file, number, "renaming a place (`old -> new`) is not supported: the new name is used")
            name = name.split("->")[-1].strip()
        loc = words[0].upper()
        aliases = []
        for alias in words[1:]:
            if alias.endswith("?"):
                self.note(file, number, f"{alias!r} is an ambiguous spelling (ending with '?'); the board has no "
                                        "ambiguous spellings: not imported")
                continue
            aliases.append(alias.replace("+", " ").lower())
        if "/" in loc:  # a coast's own name: its spellings are the province's with the coast
            province = loc.split("/")[0]
            if province in self.names:
                known = self.names[province]
                extra = [a.split("/")[0] for a in aliases if a.split("/")[0] not in known[1]]
                self.names[province] = (known[0], known[1] + extra, known[2], known[3])
            return
        self.names[loc] = (name, aliases, file, number)

    def _place(self, file: str, number: int, words: list[str]) -> None:
        kind = words[0].upper()
        place, other = words[1], words[1].swapcase()
        if other in self.records:
            old = self.records.pop(other)
            if kind == "AMEND":
                self.records[place] = _Record(old.type, old.abuts, file, number)
            if place.isupper():
                for key in [k for k in self.records if k.upper().startswith(place + "/")]:
                    self._drop(key.upper())
        if kind != "AMEND":
            abuts = [] if len(words) > 2 or place not in self.records else self.records[place].abuts
            self.records[place] = _Record(kind, list(abuts), file, number)
        elif place not in self.records:
            self.note(file, number, f"AMEND {place}: no such place to amend: ignored")
            return
        if len(words) > 2 and words[2].upper() != "ABUTS":
            self.note(file, number, f"{place}: expected ABUTS after the place, found {words[2]!r}: the rest is ignored")
            return
        record = self.records[place]
        for dest in words[3:]:
            if dest.startswith("-"):
                record.abuts = [a for a in record.abuts if not a.upper().startswith(dest[1:].upper())]
            else:
                record.abuts.append(dest)

    def _drop(self, place: str) -> None:
        for key in [k for k in self.records if k.upper().startswith(place)]:
            del self.records[key]
        for key in [k for k in self.names if k.startswith(place)]:
            del self.names[key]
        for record in self.records.values():
            record.abuts = [a for a in record.abuts if not a.upper().startswith(place)]
        for p in self.powers.values():
            p.homes = [h for h in p.homes if h != place]
        for units in self.units.values():
            units[:] = [u for u in units if u.split()[1][:3] != place[:3]]
        self.unowned = [c for c in self.unowned if not c.startswith(place)]

    def _unplayed(self, file: str, number: int, words: list[str], power: _Power | None) -> None:
        names = " ".join(words[1:]).replace(",", " ").upper().split()
        if not names:
            goners = [power.name] if power else []
        elif names[0] == "ALL":
            keep = names[2:] if len(names) > 2 and names[1] == "EXCEPT" else []
            goners = [p for p in self.powers if p not in keep]
        else:
            goners = names
        for goner in goners:
            gone = self.powers.pop(goner, None)
            if gone is None:
                self.note(file, number, f"UNPLAYED {goner}: no such power: ignored")
                continue
            self.unowned += [h for h in gone.homes if h not in self.unowned]
            self.units.pop(goner, None)

    def _power_line(self, file: str, number: int, words: list[str]) -> _Power | None:
        if len(words) > 2 and words[1] == "->":
            self.note(file, number, "renaming a power (`old -> new`) is not supported: read as a new power")
            words = words[2:]
        up = words[0].upper()
        rest = words[1:]
        if up in ("UNOWNED", "NEUTRAL", "CENTERS"):
            self.unowned += [c.upper() for c in rest if c.upper() not in self.unowned]
            return None
        power = self.powers.get(up)
        if power is None:
            power = self.powers[up] = _Power(up, file=file, line=number)
        if rest and rest[0].startswith("("):
            own = rest[0][1:-1].split(":")[0]
            power.adjective = own.title() if own else None
            rest = rest[1:]
        for home in (h.upper() for h in rest):
            remove = home.startswith("-")
            home = home.lstrip("-")
            if home in power.homes:
                power.homes.remove(home)
            if not remove:
                power.homes.append(home)
        return power


# ----- who may move where, as the DPjudge reads a map ------------------------------------------------------
class _Moves:
    """The DPjudge's adjacency rules over the place records (`diplomacy.engine.map.Map._abuts`)."""

    def __init__(self, records: dict[str, _Record]) -> None:
        self.records = records
        self.locs = [k.upper() for k, r in records.items() if r.type != "SHUT"]
        self.loc_set = set(self.locs)

    def type(self, loc: str) -> str | None:
        record = self.records.get(loc.upper()) or self.records.get(loc.lower())
        return record.type if record else None

    def abut_list(self, loc: str) -> list[str]:
        record = self.records.get(loc) or self.records.get(loc.lower())
        return record.abuts if record else []

    def can_stand(self, unit: str, loc: str) -> bool:
        kind = self.type(loc)
        if kind in (None, "SHUT"):
            return False
        if unit == "A":
            return "/" not in loc and kind in ("LAND", "COAST", "PORT")
        return kind in ("WATER", "COAST", "PORT") and loc.lower() not in self.records

    def _first_entries(self, loc: str) -> dict[str, str]:
        """For each name a neighbour entry answers to (`BUL/EC` and `BUL`), the first such entry: the DPjudge
        stops at the first entry matching a destination. One pass, so a long ABUTS list costs its length."""
        first: dict[str, str] = {}
        for place in self.abut_list(loc):
            for key in (place.upper(), place.upper()[:3]):
                first.setdefault(key, place)
        return first

    def can_move(self, unit: str, loc: str, dest: str, first: dict[str, str] | None = None) -> bool:
        if not self.can_stand(unit, loc) or ("/" in dest and unit == "A"):
            return False
        place = (first if first is not None else self._first_entries(loc)).get(dest)
        if place is None:
            return False
        dest_type = self.type(dest)
        if dest_type in (None, "SHUT"):
            return False
        if unit == "F":
            return not (dest_type == "LAND" or place[0] != place[0].upper() or dest not in self.records)
        return not (dest_type == "WATER" or place == place.title())

    def moves(self, unit: str, loc: str) -> set[str]:
        """Every location a unit at `loc` may move to (upper case, coasts as `SPA/NC`)."""
        first = self._first_entries(loc)
        return {d for d in first if d in self.loc_set and self.can_move(unit, loc, d, first)}


def _loc(peer: str) -> str:
    """`SPA/NC` -> `spa/nc`."""
    return peer.lower()


def _province(peer: str) -> str:
    return peer.split("/")[0].upper()


def import_map(path: str | Path, picture: str | Path | None = None, name: str | None = None,
               title: str | None = None, source: str | None = None, terms: str | None = None) -> ImportedMap:
    """Read a DPjudge map file (and the files it uses) into board data, with notes of what was left out.

    `name` is the board's name (default: the map file's), `title` its title; `source` and `terms` (where the
    map comes from, and the terms it may be used under) go into the board's `origin` and its file's header.

    `picture` is an SVG of the map (DPjudge/jDip style, with `jdipNS:PROVINCE` unit spots) or a DPjudge
    PostScript map (`.ps`, its `% INFO` spots); by default one named like the map (or its root map) is looked for
    beside it and in an `svg/` folder beside it (an SVG first). Without one the board carries no positions and is
    laid out from its graph: a note says how to tell the picture which way is north."""
    path = Path(path)
    reader = _MapReader()
    reader.read_file(path)
    if not reader.records:  # a board YAML, an SVG, any text: the DPjudge would read each line as a power's name
        raise AdjudicatorError("this is not a DPjudge map: no line places a space (`LAND PAR ABUTS BRE PIC ...`, "
                               "`WATER ...`, `COAST ...`); nothing was written. A board already in this project's "
                               "format needs no import: play it by its path, or check it with `adjudicator variant "
                               "check`", file=str(path))
    moves = _Moves(reader.records)
    file = path.name
    notes = reader.notes

    provinces: dict[str, dict[str, Any]] = {}  # PROVINCE -> entry
    for key, record in reader.records.items():
        prov = _province(key)
        if record.type == "SHUT":
            notes.append(MapNote(record.file, record.line, f"{key.upper()} is impassable (SHUT): left out of the board "
                                                            "(no unit may enter it; pictures do not show it)"))
            continue
        entry = provinces.setdefault(prov, {"id": prov.lower(), "coasts": []})
        if "/" in key:
            entry["coasts"].append(key.split("/")[1].lower())
            entry.setdefault("_type", record.type)
        else:
            entry["_type"] = record.type
        entry.setdefault("_line", (record.file, record.line))
        if record.type == "PORT":  # land where fleets may also convoy, as at sea
            entry["convoys"] = True

    # Borders from the directed moves of each unit type.
    army: set[tuple[str, str]] = set()
    fleet: set[tuple[str, str]] = set()
    for loc in moves.locs:
        for unit, table in (("A", army), ("F", fleet)):
            if moves.can_stand(unit, loc):
                table.update((loc, dest) for dest in moves.moves(unit, loc))
    borders = _borders(moves, army, fleet)

    # Fleets standing where no sea is beside them: river coasts (the DPjudge lets fleets be built there too).
    beside_sea = {a for a, b in fleet if moves.type(b) == "WATER"}
    fleets_enter = {b for _, b in fleet}
    homes = {h for p in reader.powers.values() for h in p.homes}
    for loc in moves.locs:
        if moves.can_stand("F", loc) and moves.type(loc) != "WATER" and loc not in beside_sea:
            entry = provinces[_province(loc)]
            if loc not in fleets_enter and _province(loc) not in homes:
                rec = reader.records.get(loc) or reader.records.get(loc.lower())
                notes.append(MapNote(rec.file if rec else file, rec.line if rec else None,
                                     f"{loc} is a COAST that no fleet can move to or be built on: imported as land"))
                continue
            if "/" in loc:
                entry.setdefault("river", []).append(loc.split("/")[1].lower())
            else:
                entry["river"] = True
            entry["river_builds"] = True
    # Centres, homes and powers.
    owner: dict[str, str] = {}
    powers: dict[str, dict[str, Any]] = {}
    for p in list(reader.powers.values()):
        if not any(h in provinces for h in p.homes) and not reader.units.get(p.name):
            notes.append(MapNote(p.file, p.line, f"{p.name}: read as a power (the DPjudge reads a line it does not "
                                                 "know as one), but it has no home centre and no unit: left out"))
            del reader.powers[p.name]
            continue
        pname = _power_name(p.name)
        spec: dict[str, Any] = {}
        if p.adjective and p.adjective.upper() != p.name:
            spec["adjective"] = p.adjective
        powers[pname] = spec
        for home in p.homes:
            if home in owner:
                notes.append(MapNote(p.file, p.line, f"{home} is a home centre of both {owner[home]} and {pname}: the "
                                                      f"board format has one home power per centre: {owner[home]} kept"))
                continue
            owner[home] = pname
    centres = set(owner) | {c.split("/")[0] for c in reader.unowned}
    for prov, entry in provinces.items():
        if prov in centres:
            entry["centre"] = True
        if prov in owner:
            entry["home"] = owner[prov]
    for c in sorted(centres - set(provinces)):
        notes.append(MapNote(file, None, f"supply centre {c} is not a place of the map: left out"))

    start: dict[str, list[str]] = {}
    for power_name, units in reader.units.items():
        if power_name not in reader.powers:
            continue
        for unit in units:
            kind, loc = unit.split()
            if not moves.can_stand(kind, loc):
                notes.append(MapNote(file, None, f"starting unit {unit} of {power_name} cannot stand there: left out"))
                continue
            start.setdefault(_power_name(power_name), []).append(f"{kind} {_loc(loc)}")

    entries = []
    for prov in sorted(provinces):
        entry = provinces[prov]
        full, aliases = prov.title(), []
        if prov in reader.names:
            full, aliases = reader.names[prov][0], reader.names[prov][1]
        out: dict[str, Any] = {"id": entry["id"], "name": _title(full),
                               "kind": "sea" if entry.get("_type") == "WATER" else "land"}
        if entry.get("centre"):
            out["centre"] = True
        if entry.get("home"):
            out["home"] = entry["home"]
        if entry["coasts"]:
            out["coasts"] = sorted(entry["coasts"])
        for key in ("convoys", "river", "river_builds"):
            if key in entry:
                out[key] = sorted(entry[key]) if isinstance(entry[key], list) else entry[key]
        kept = _aliases(aliases, entry["id"], out["name"])
        if kept:
            out["aliases"] = kept
        entries.append(out)
    _unique_aliases(entries)

    calendar = _calendar(reader, notes)
    seasons = [step["season"] for step in calendar["phases"]]
    season, year, phase_type = "Spring", 1901, "Movement"
    if reader.begin:
        words = reader.begin[0].split()
        if len(words) == 3 and words[1].lstrip("-").isdigit() and words[2] in PHASE_TYPES:
            season, year, phase_type = words[0].title(), int(words[1]), PHASE_TYPES[words[2]]
            season = calendar.get("aliases", {}).get(season, season)
            if season not in seasons:
                notes.append(MapNote(reader.begin_file, reader.begin[1], f"BEGIN {reader.begin[0]}: not a season of "
                                                                         f"the calendar; {seasons[0]} is used"))
                season = seasons[0]
        else:
            notes.append(MapNote(reader.begin_file, reader.begin[1], f"BEGIN {reader.begin[0]}: expected `season year "
                                                                     "phase`; Spring 1901 Movement is used"))
    victory = reader.victory[0] if reader.victory else len(centres) // 2 + 1

    board_name = name or path.stem.replace("_", "-")
    data: dict[str, Any] = {
        "name": board_name,
        "title": title or _title(path.stem.replace("_", " ")),
        "rules": "diplomacy",
        "powers": powers,
        "terrain": {"land": {"default": "land"}, "sea": {"default": "sea"}},
        "calendar": {"start": {"season": season, "year": year, "type": phase_type}, **calendar},
        "victory": victory,
        "provinces": entries,
        "borders": borders,
        "start": start,
    }
    start_owners = {}
    for power_name, owned in reader.owns.items():
        if power_name not in reader.powers:
            continue
        p = reader.powers[power_name]
        extra = [c.lower() for c in owned if c not in p.homes and c.split("/")[0] in provinces]
        if extra:
            start_owners[_power_name(power_name)] = extra
        unowned = [h for h in p.homes if h not in owned]
        if unowned:
            notes.append(MapNote(p.file, p.line, f"{power_name} does not own its home centres {', '.join(unowned)} at the "
                                                 "start (OWNS): the board format gives every power its home centres"))
        centres.update(c.split("/")[0] for c in owned)
    if start_owners:
        data["start_owners"] = start_owners
    if reader.builds != "home":
        data["options"] = {"builds": reader.builds}
    found = Path(picture) if picture else _find_picture(path, reader.root)
    used = None
    if found is not None:
        from adjudicator.games.diplomacy.importers.picture import positions_from_ps, positions_from_svg  # (picture.py imports nothing of this module)

        drawn = (positions_from_ps if found.suffix.lower() == ".ps" else positions_from_svg)(found, entries, notes)
        if drawn:
            data["drawing"] = drawn["drawing"]
            colours = drawn.get("colours", {})
            for power_name, spec in powers.items():
                if power_name.lower() in colours:
                    spec["colour"] = colours[power_name.lower()]
            used = str(found)
    if used is None:
        notes.append(MapNote(path.name, None, "no picture of the map was found (NAME.svg or NAME.ps): the board is "
                                              "laid out from its graph; `drawing: {compass: {north: [...], west: "
                                              "[...]}}` in the board file turns it north up (variants/FORMAT.md)"))
    data["records"] = {"mila": Path(reader.files[0]).stem}  # the package's records name the map by its file
    data["origin"] = {"source": source or ", ".join(Path(f).name for f in reader.files),
                      "terms": terms or "not stated in the map file",
                      "imported": "adjudicator variant import (adjudicator/games/diplomacy/importers/dpjudge.py)"}
    return ImportedMap(data, notes, reader.files, used)


def _calendar(reader: _MapReader, notes: list[MapNote]) -> dict[str, Any]:
    """The calendar: the DPjudge's default year (Spring and Fall movement, Winter adjustments, as the standard
    board writes it: `Fall Adjustment`, Winter its alias), or the map's FLOW. Centres change hands after the
    phase before each adjustment phase."""
    if reader.flow is None:
        return {"phases": CALENDAR, "aliases": {"Winter": "Fall", "Autumn": "Fall"}}
    words, file, line = reader.flow
    phases: list[dict[str, Any]] = []
    for item in words:
        season, _, kinds = item.partition(":")
        for kind in (k for k in kinds.upper().split(",") if k):
            if kind in PHASE_TYPES:
                phases.append({"season": season.title(), "type": PHASE_TYPES[kind]})
            else:
                notes.append(MapNote(file, line, f"FLOW {item}: unknown phase type {kind!r}: left out"))
    if not phases:
        notes.append(MapNote(file, line, "FLOW names no phase: the standard calendar is used"))
        return {"phases": CALENDAR, "aliases": {"Winter": "Fall", "Autumn": "Fall"}}
    for i, step in enumerate(phases):
        if step["type"] == "Adjustment":
            before = phases[i - 1]
            if before["type"] != "Adjustment":
                before["centres"] = True
    return {"phases": phases, "aliases": {}}


def _borders(moves: _Moves, army: set[tuple[str, str]], fleet: set[tuple[str, str]]) -> list[str]:
    """Border strings from the directed moves: a pair crossed both ways by both unit types is a `coast`
    border; by fleets only, `water` (a sea on one side), `strait` (two land places, one a PORT that convoys, so
    a convoy route may step along it, as the DPjudge routes one) or `canal` (two other land places); by armies
    only, `land`.
    A move allowed one way only is a one-way border (`A > B : kind`)."""
    out: list[str] = []
    army_done: set[tuple[str, str]] = set()
    fleet_done: set[tuple[str, str]] = set()

    def fleet_kind(a: str, b: str) -> str:
        kinds = (moves.type(a), moves.type(b))
        return "water" if "WATER" in kinds else "strait" if "PORT" in kinds else "canal"

    for a, b in sorted(fleet):  # both unit types, both ways or one way
        pa, pb = _province(a), _province(b)
        if (a, b) in fleet_done or moves.type(a) == "WATER" or moves.type(b) == "WATER":
            continue
        if (b, a) in fleet and (pa, pb) in army and (pb, pa) in army:
            if a < b:
                out.append(f"{_loc(a)} - {_loc(b)} : coast")
                fleet_done |= {(a, b), (b, a)}
                army_done |= {(pa, pb), (pb, pa)}
        elif (b, a) not in fleet and (pa, pb) in army and (pb, pa) not in army:
            out.append(f"{_loc(a)} > {_loc(b)} : coast")
            fleet_done.add((a, b))
            army_done.add((pa, pb))
    _single_type_borders(fleet, fleet_done, fleet_kind, out)
    _single_type_borders(army, army_done, lambda a, b: "land", out)
    return sorted(out)


def _single_type_borders(moves: set[tuple[str, str]], done: set[tuple[str, str]], kind: Callable[[str, str], str],
                         out: list[str]) -> None:
    """The borders of one unit type's moves not written yet (`done`, updated): both ways, or one way."""
    for a, b in sorted(moves - done):
        if (a, b) in done:
            continue
        if (b, a) in moves:
            if a < b:
                out.append(f"{_loc(a)} - {_loc(b)} : {kind(a, b)}")
                done |= {(a, b), (b, a)}
        else:
            out.append(f"{_loc(a)} > {_loc(b)} : {kind(a, b)}")
            done.add((a, b))


def _power_name(name: str) -> str:
    """`ENGLAND` -> `England`, `FROZEN-ANTARCTICA` -> `Frozen-Antarctica`."""
    return "-".join(part.capitalize() for part in name.split("-"))


def _title(text: str) -> str:
    """A name as people write it: `GULF OF LYON` -> `Gulf of Lyon`; mixed case is kept."""
    if text not in (text.upper(), text.lower()):
        return text
    small = {"of", "the", "and", "de", "la", "del"}
    words = text.lower().split()
    return " ".join(w if (i and w in small) else w.capitalize() for i, w in enumerate(words))


def _aliases(aliases: list[str], pid: str, name: str) -> list[str]:
    out = []
    for a in aliases:
        if a and a.lower() not in (pid.lower(), name.lower()) and a not in out and "/" not in a:
            out.append(a)
    return out


def _unique_aliases(entries: list[dict[str, Any]]) -> None:
    """Spellings claimed by two places, or equal to another place's id or name, are dropped from both."""
    claimed: dict[str, int] = {}
    for e in entries:
        for word in {e["id"].lower(), e["name"].lower(), *(a.lower() for a in e.get("aliases", ()))}:
            claimed[word] = claimed.get(word, 0) + 1
    for e in entries:
        if "aliases" in e:
            e["aliases"] = [a for a in e["aliases"] if claimed[a.lower()] == 1]
            if not e["aliases"]:
                del e["aliases"]


def _find_picture(path: Path, root: str | None) -> Path | None:
    for stem in (path.stem, root):
        if not stem:
            continue
        for candidate in (path.parent / f"{stem}.svg", path.parent / "svg" / f"{stem}.svg", path.parent / f"{stem}.ps"):
            if candidate.is_file():
                return candidate
    return None
