"""A Diplomacy position read from a game file's data with every rule checked, and written back as data
(the envelope, `variant` and the file's marks, is `adjudicator/gamefile.py`)."""

from __future__ import annotations

from typing import Any

from adjudicator.games.diplomacy.board import NEUTRAL, Board
from adjudicator.games.diplomacy.board_file import options_from_data
from adjudicator.catalogue import load_variant
from adjudicator.errors import AdjudicatorError, StateError
from adjudicator.located import LocatedReader, located_error
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.games.diplomacy.rulebook import Rulebook
from adjudicator.games.diplomacy.state import PHASE_TYPES, Dislodged, GameState, Phase, Unit, check_position, parse_unit_text
from adjudicator.yamlio import line_of, plain


def _err(message: str, file: str | None, node: Any = None, pointer: str | None = None) -> AdjudicatorError:
    return located_error(message, file, node, pointer=pointer)


def _power(board: Board, name: Any, file: str | None, node: Any, pointer: str, neutral: bool = False) -> str:
    if neutral and board.neutral_units and str(name).lower() == NEUTRAL.lower():
        return NEUTRAL
    return LocatedReader(file).name(board.power_names, name, "power", node, pointer,
                                    f"; powers are {', '.join(board.powers)}")


def parse_phase_value(board: Board, value: Any, file: str | None = None, pointer: str = "/phase") -> Phase:
    """A phase from `{season, year, type}` or the text `Fall 2010 Movement`."""
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
        if len(parts) != 3:
            raise _err(f"cannot read the phase {value!r}; write it like 'Fall 2010 Movement'", file, value, pointer)
        value = {"season": parts[0], "year": parts[1], "type": parts[2]}
    if not isinstance(value, dict):
        raise _err("the phase must be {season, year, type}", file, value, pointer)
    try:
        season = board.season_key(str(value.get("season", "")))
    except AdjudicatorError as exc:
        raise _err(exc.message, file, value, pointer + "/season") from None
    year = _year(value.get("year"), file, value, pointer + "/year")
    kind = str(value.get("type", "")).capitalize()
    if kind not in PHASE_TYPES:
        raise _err(f"unknown phase type {value.get('type')!r}; use {', '.join(PHASE_TYPES)}", file, value, pointer + "/type")
    if not any(s.season == season and s.type == kind for s in board.calendar):
        valid = ", ".join(f"{s.season} {s.type}" for s in board.calendar)
        raise _err(f"{season} {kind} is not a phase of the {board.title} calendar ({valid})", file, value, pointer)
    problem = board.year_problem(season, year, kind)
    if problem:
        raise _err(problem, file, value, pointer + "/year")
    return Phase(season, year, kind)


MAX_YEAR = 99_999  # a year past this (either way) is a typo or an attack (5,000 digits cannot even be printed)


def _year(raw: Any, file: str | None, node: Any, pointer: str) -> int:
    """A whole-number year (an integer, or digits in text, a minus sign before them or not) of at most MAX_YEAR
    either way; whether the board's calendar reaches it is `Board.year_problem`'s."""
    shown = repr(raw) if len(repr(raw)) <= 40 else repr(raw)[:40] + "..."
    if isinstance(raw, str) and raw.strip().removeprefix("-").isdigit() and len(raw.strip()) <= 7:
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int) or not -MAX_YEAR <= raw <= MAX_YEAR:
        raise _err(f"the year must be a whole number (0 and negative years too, on a calendar that reaches "
                   f"them), not {shown}", file, node, pointer)
    return raw



def _list(value: Any, what: str, file: str | None, node: Any, pointer: str) -> list:
    """A list from the file (nothing is an empty list); anything else is refused, naming what was expected."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise _err(f"{what} must be a list, not {type(value).__name__} {str(value)[:40]!r}", file, node, pointer)
    return value


def state_from_data(data: Any, file: str | None = None, board: Board | None = None) -> GameState:
    """A GameState from a parsed game file, with every rule the position must keep checked."""
    if not isinstance(data, dict):
        raise StateError("a game file must be a mapping with variant, phase, centres and units", file=file, pointer="")
    if board is None:
        if "variant" not in data:
            raise _err("the game file does not name its variant", file, data, "/variant")
        try:
            board = load_variant(str(data["variant"]))
        except AdjudicatorError as exc:
            raise _err(exc.message, file, data.get("variant"), "/variant") from None
    if "phase" not in data:
        raise _err("the game file has no phase", file, data, "/phase")
    phase = parse_phase_value(board, data["phase"], file)

    units: dict[str, Unit] = {}
    raw_units = data.get("units") or {}
    if not isinstance(raw_units, dict):
        raise _err("units must map each power to a list like [A Par, F Bre]", file, raw_units, "/units")
    count = sum(len(v) for v in raw_units.values() if isinstance(v, list))
    if count > len(board.provinces):  # before reading any: two units never share a space
        raise _err(f"{count} units, but the board has {len(board.provinces)} spaces", file, raw_units, "/units")
    for power_name, texts in raw_units.items():
        power = _power(board, power_name, file, raw_units, f"/units/{power_name}", neutral=True)
        texts = _list(texts, f"the units of {str(power_name)[:40]}", file, raw_units, f"/units/{power_name}")
        for i, text in enumerate(texts):
            pointer = f"/units/{power_name}/{i}"
            try:
                unit = parse_unit_text(board, str(text), power)
            except AdjudicatorError as exc:
                raise StateError(exc.message, file=file, line=line_of(text) or line_of(texts),
                                 suggestions=exc.suggestions, pointer=pointer) from None
            if unit.province in units:
                raise StateError(f"two units in {board.provinces[unit.province].name}: {units[unit.province]} and {unit}",
                                 file=file, line=line_of(text) or line_of(texts), pointer=pointer)
            units[unit.province] = unit

    owners: dict[str, str] = {}
    raw_centres = data.get("centres", None)
    if raw_centres is None:
        owners = board.initial_owners()
    elif not isinstance(raw_centres, dict):
        raise _err("centres must map each power to the centres it owns", file, raw_centres, "/centres")
    else:
        for power_name, names in raw_centres.items():
            power = _power(board, power_name, file, raw_centres, f"/centres/{power_name}")
            names = _list(names, f"the centres of {str(power_name)[:40]}", file, raw_centres, f"/centres/{power_name}")
            for i, name in enumerate(names):
                pointer = f"/centres/{power_name}/{i}"
                try:
                    province = board.names.lookup(str(name))
                except (UnknownName, AmbiguousName) as exc:
                    raise StateError(exc.message, file=file, line=line_of(name) or line_of(names),
                                     suggestions=exc.suggestions, pointer=pointer) from None
                if not board.provinces[province].centre:
                    raise StateError(f"{board.provinces[province].name} is not a supply centre", file=file,
                                     line=line_of(name) or line_of(names), pointer=pointer)
                if province in owners:
                    raise StateError(f"{province} is owned twice ({owners[province]} and {power})", file=file,
                                     line=line_of(name) or line_of(names), pointer=pointer)
                owners[province] = power

    dislodged: dict[str, Dislodged] = {}
    for i, entry in enumerate(_list(data.get("dislodged"), "dislodged", file, data, "/dislodged")):
        pointer = f"/dislodged/{i}"
        if not isinstance(entry, dict) or "unit" not in entry or "power" not in entry:
            raise _err("a dislodged unit needs `power` and `unit` (and `attacker_from`)", file, entry, pointer)
        power = _power(board, entry["power"], file, entry, pointer + "/power")
        try:
            unit = parse_unit_text(board, str(entry["unit"]), power)
            origin = board.names.lookup(str(entry["attacker_from"])) if entry.get("attacker_from") else None
        except AdjudicatorError as exc:
            raise StateError(exc.message, file=file, line=line_of(entry), suggestions=exc.suggestions,
                             pointer=pointer) from None
        if unit.province in dislodged:
            raise _err(f"two dislodged units in {unit.province}", file, entry, pointer)
        dislodged[unit.province] = Dislodged(unit, origin, bool(entry.get("by_convoy", False)))
    if dislodged and phase.type != "Retreat":
        raise _err(f"dislodged units are only possible in a retreat phase, not in {phase}", file, data.get("dislodged"),
                   "/dislodged")

    contested = []
    for i, name in enumerate(_list(data.get("contested"), "contested", file, data, "/contested")):
        try:
            contested.append(board.names.lookup(str(name)))
        except (UnknownName, AmbiguousName) as exc:
            raise StateError(exc.message, file=file, line=line_of(name), suggestions=exc.suggestions,
                             pointer=f"/contested/{i}") from None

    history = data.get("history") or []
    if not isinstance(history, list):
        raise _err("history must be a list of past phases", file, history, "/history")
    try:
        options = options_from_data(data.get("options"), file, board.options, "the game's options")
    except AdjudicatorError as exc:
        raise StateError(exc.message, file=file, line=exc.line, pointer="/options") from None
    state = GameState(board.name, phase, units, owners, dislodged, frozenset(contested), plain(history),
                      options if options != board.options else None, _eliminated(board, data, phase, file))
    try:
        check_position(board, state, file)
    except StateError as exc:
        raise StateError(exc.message, file=file, line=line_of(data.get("units")), pointer="/units") from None
    alive = set(state.survivors(board))
    for power in state.eliminated:
        if power in alive:
            raise _err(f"{power} is recorded as eliminated in {state.eliminated[power]}, but it holds "
                       f"{len(state.centres_of(power))} centre(s) and {len(state.units_of(power))} unit(s); "
                       "remove it from `eliminated`", file,
                       next((k for k in data["eliminated"] if str(k) == power), data["eliminated"]),
                       f"/eliminated/{power}")
    return state


def state_to_data(board: Board, state: GameState) -> dict[str, Any]:
    """A game state as plain data (the game file's structure)."""
    data: dict[str, Any] = {"variant": board.name}
    if state.options is not None:
        data["options"] = options_to_data(state.options, board.options)
    data.update({
        "phase": {"season": state.phase.season, "year": state.phase.year, "type": state.phase.type},
        "centres": {p: state.centres_of(p) for p in board.powers if state.centres_of(p)},
        "units": {p: [f"{u.type} {u.location}" for u in state.units_of(p)] for p in board.unit_owners()
                  if state.units_of(p)},
    })
    if state.dislodged:
        data["dislodged"] = [
            {"power": d.unit.power, "unit": f"{d.unit.type} {d.unit.location}", "attacker_from": d.attacker_origin,
             "by_convoy": d.by_convoy}
            for d in sorted(state.dislodged.values(), key=lambda d: d.unit.location)
        ]
    if state.contested:
        data["contested"] = sorted(state.contested)
    if state.eliminated:  # (written only when a power was: every older game file stays as it was)
        data["eliminated"] = {p: state.eliminated[p] for p in board.powers if p in state.eliminated}
    data["history"] = list(state.history)
    return data


def _eliminated(board: Board, data: dict[str, Any], phase: Phase, file: str | None) -> dict[str, int]:
    """`eliminated: {Austria: 1905}`: each power's year of elimination, a year the game has reached; a power
    that still holds a centre or a unit is not eliminated (checked with the position, `check_eliminated`)."""
    raw = data.get("eliminated")
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise _err("eliminated must map each eliminated power to its year (eliminated: {Austria: 1905})", file,
                   raw, "/eliminated")
    out: dict[str, int] = {}
    for name, year in raw.items():
        pointer = f"/eliminated/{name}"
        at = name if line_of(name) else raw  # (a key keeps its line: a year, a number, none)
        power = _power(board, name, file, at, pointer)
        value = _year(year, file, at, pointer)
        if value > phase.year:
            raise _err(f"{power} is eliminated in {value}, after the game's phase ({phase})", file, at, pointer)
        out[power] = value
    return out


def options_to_data(options: Rulebook, base: Rulebook) -> dict[str, Any]:
    """The rule options that differ from the variant's, as the game file writes them (`4.A.2: 1971`)."""
    out: dict[str, Any] = dict(options.differences(base))
    if options.victory != base.victory:
        v = options.victory
        out["victory"] = {"rule": v.rule, "centres": v.centres, "lead": v.lead,
                          **({"by_year": dict(v.by_year)} if v.by_year else {})}
    return out
