"""A recorded game as this project holds it, whatever format it came from: each phase's position (a `GameState`),
the orders each power sent as the record wrote them, the recorded results, messages, and the fields a format keeps
that this project does not use (kept as they were, so a game read and written back is the game it was).

The position of a record's phase is read from the record's own fields (units, `*` for a dislodged unit, centres,
retreat options), which the field's two formats write alike; what a retreat needs that the record does not say
(where each attacker came from, the provinces a standoff left empty) is taken from the phase before."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.catalogue import load_variant, variant_names
from adjudicator.game_end import GameEnd
from adjudicator.games.diplomacy.board import Board, split_location
from adjudicator.games.diplomacy.judge.adjustment import adjustment_due, build_sites
from adjudicator.games.diplomacy.judge.retreat import retreat_options
from adjudicator.games.diplomacy.orders.model import Move
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.records.notation import Notation, RecordError
from adjudicator.games.diplomacy.state import Dislodged, GameState, Phase, Unit, check_position
from adjudicator.errors import AdjudicatorError


@dataclass
class RecordedPhase:
    """One phase of a record: its name as recorded, its position, and what was ordered and recorded in it."""

    name: str  # as the record writes it: `S1901M`, `COMPLETED`
    state: GameState
    orders: dict[str, list[str]] | None = None  # our power -> the orders as written; None: the phase was not played
    results: dict[str, list[str]] = field(default_factory=dict)  # the record's unit (`A PAR`) -> its result codes
    messages: list[dict[str, Any]] = field(default_factory=list)
    kept: dict[str, Any] = field(default_factory=dict)  # the format's other fields of the phase, as they were
    kept_state: dict[str, Any] = field(default_factory=dict)  # ... and of its state
    retreats: dict[str, set[str]] = field(default_factory=dict)  # dislodged province -> recorded options
    silent: frozenset[str] = frozenset()  # the powers the record gives no orders (null), not an empty list

    @property
    def completed(self) -> bool:
        """Whether this is the record's final `COMPLETED` marker (a game over, with no phase left to play)."""
        return self.name.upper() == "COMPLETED"


@dataclass
class RecordedGame:
    """A whole recorded game: the board, the record's id and rules, its phases in order, and its end if it says."""

    board: Board
    id: str
    fmt: str  # the format it was read from (`mila`, `fair`, `game`)
    phases: list[RecordedPhase]
    rules: list[str] = field(default_factory=list)  # the record's own rule names (`NO_PRESS`, `DIFFERENT_ADJUDICATION`)
    end: GameEnd | None = None
    scoring: str | None = None  # the scoring system the record names (this project's name)
    kept: dict[str, Any] = field(default_factory=dict)  # the format's other top-level fields, as they were
    notes: list[str] = field(default_factory=list)  # what was read otherwise than the record says, each located


def unit_text(notation: Notation, unit: Unit) -> str:
    """`A PAR`, `F STP/SC` in the record's notation."""
    return f"{unit.type} {notation.place(unit.location)}"


def _unit(notation: Notation, text: Any, power: str, where: str) -> tuple[Unit, bool]:
    """A record's unit (`A PAR`, `*F STP/SC` dislodged) of a power, and whether it is dislodged."""
    if not isinstance(text, str):
        raise RecordError(f"{where}: a unit is a text such as 'A PAR', not {type(text).__name__}")
    body = text.strip()
    dislodged = body.startswith("*")
    parts = body.lstrip("*").split()
    if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
        raise RecordError(f"{where}: {text[:40]!r} is not a unit such as 'A PAR' or 'F STP/SC' ('*' first when "
                          "dislodged)")
    return Unit(power, parts[0].upper(), notation.our_place(parts[1], where)), dislodged


def _attacker_origins(board: Board, before: RecordedPhase | None, state: GameState) -> dict[str, str]:
    """Where the unit now in each dislodged unit's province came from, by the phase before's orders."""
    if before is None or not before.orders:
        return {}
    origins: dict[str, str] = {}
    for power, texts in before.orders.items():
        for text in texts:
            try:
                order = parse_order(board, text, power=power)
            except AdjudicatorError:
                continue  # an order this project cannot read: the replay reports it
            if isinstance(order, Move):
                dest = order.dest
                here = state.units.get(dest)
                if dest in state.dislodged and here is not None and here.power == power:
                    origins[dest] = order.unit.province
    return origins


def position(notation: Notation, data: Any, phase: Phase, before: RecordedPhase | None,
             eliminated: dict[str, int], where: str) -> GameState:
    """The position a record's state describes (`units`, `centers`, `retreats`), checked against the board."""
    board = notation.board
    if not isinstance(data, dict):
        raise RecordError(f"{where}: the phase's state must be a mapping with units and centers")
    units: dict[str, Unit] = {}
    dislodged: dict[str, Dislodged] = {}
    for power_name, texts in _mapping(data.get("units"), f"{where}, units").items():
        power = notation.our_power(str(power_name), f"{where}, units")
        for text in _texts(texts, f"{where}, units of {power_name}"):
            unit, is_dislodged = _unit(notation, text, power, f"{where}, units of {power_name}")
            table: dict[str, Any] = dislodged if is_dislodged else units
            if unit.province in table:
                raise RecordError(f"{where}: two units in {unit.province.upper()}")
            table[unit.province] = Dislodged(unit) if is_dislodged else unit
    owners: dict[str, str] = {}
    for power_name, names in _mapping(data.get("centers"), f"{where}, centers").items():
        power = notation.our_power(str(power_name), f"{where}, centers")
        for name in _texts(names, f"{where}, centers of {power_name}"):
            owners[split_location(notation.our_place(str(name), f"{where}, centers of {power_name}"))[0]] = power
    state = GameState(board.name, phase, units, owners, dislodged, frozenset(), [], None, dict(eliminated))
    if dislodged:
        _retreat_facts(notation, data, state, before, where)
    try:
        check_position(board, state)
    except AdjudicatorError as exc:
        raise RecordError(f"{where}: {exc.message}") from None
    return state


def _retreat_facts(notation: Notation, data: dict[str, Any], state: GameState, before: RecordedPhase | None,
                   where: str) -> None:
    """Each dislodged unit's attacker origin (by the phase before's orders) and whether it came by convoy (its
    origin is a recorded retreat option), and the provinces a standoff left empty: those closed to a retreat for no
    other reason."""
    board = notation.board
    recorded = {province: {split_location(p)[0] for p in places}
                for province, places in recorded_retreats(notation, data, where).items()}
    origins = _attacker_origins(board, before, state)
    occupied = set(state.units)
    contested: set[str] = set()
    for province, d in list(state.dislodged.items()):
        origin = origins.get(province)
        options = recorded.get(province, set())
        state.dislodged[province] = Dislodged(d.unit, origin, origin is not None and origin in options)
        neighbours = {split_location(loc)[0] for loc in
                      retreat_options(board, state.phase.season, Dislodged(d.unit), occupied, frozenset())}
        contested |= neighbours - options - ({origin} if origin else set())
    state.contested = frozenset(contested)


def recorded_retreats(notation: Notation, data: dict[str, Any], where: str) -> dict[str, set[str]]:
    """The retreat options a record's state gives each dislodged unit, by its province (our locations)."""
    recorded: dict[str, set[str]] = {}
    table_of = data.get("retreats") or {}
    if not isinstance(table_of, dict):
        raise RecordError(f"{where}: `retreats` must map each power to its dislodged units' options")
    for power_name, table in table_of.items():
        if not isinstance(table, dict):
            raise RecordError(f"{where}: the retreats of {str(power_name)[:20]} must map each unit to its options")
        for text, places in table.items():
            unit, _ = _unit(notation, str(text).lstrip("*"), notation.our_power(str(power_name), where), where)
            recorded[unit.province] = {notation.our_place(str(p), where) for p in _texts(places, where)}
    return recorded


def retreats_of(board: Board, state: GameState) -> dict[str, dict[Unit, list[str]]]:
    """Each power's dislodged units and where each may retreat (our locations), as the judge offers them."""
    occupied = set(state.units)
    rules = state.rule_options(board)
    out: dict[str, dict[Unit, list[str]]] = {}
    for d in state.dislodged.values():
        out.setdefault(d.unit.power, {})[d.unit] = retreat_options(board, state.phase.season, d, occupied,
                                                                   state.contested, rules)
    return out


def state_fields(notation: Notation, state: GameState) -> dict[str, Any]:
    """The fields both formats write for a position: units (`*` before a dislodged one), centers, retreats, by
    every power of the board (an empty list for one with nothing)."""
    board = notation.board
    retreats = retreats_of(board, state)
    units: dict[str, list[str]] = {}
    centers: dict[str, list[str]] = {}
    retreat_table: dict[str, dict[str, list[str]]] = {}
    for power in board.powers:
        name = notation.power(power)
        units[name] = [unit_text(notation, u) for u in state.units_of(power)]
        units[name] += ["*" + unit_text(notation, d.unit) for d in
                        sorted(state.dislodged.values(), key=lambda d: d.unit.location) if d.unit.power == power]
        centers[name] = [notation.place(c) for c in state.centres_of(power)]
        retreat_table[name] = {unit_text(notation, u): [notation.place(p) for p in places]
                               for u, places in retreats.get(power, {}).items()}
    return {"units": units, "centers": centers, "retreats": retreat_table}


STATE_FIELDS = ("name", "units", "centers", "retreats")  # what a phase's position is read from (the rest is kept)


def board_for(fmt: str, map_name: Any, where: str) -> Board:
    """The shipped board a record's map name (`standard`, `ancmed`) stands for in a format: the variant of that
    name when it says so (the shipped boards do), else the one whose `records:` names it."""
    name = str(map_name) if isinstance(map_name, str) else None
    if name in variant_names():
        board = load_variant(name)
        if (getattr(board, "raw", None) or {}).get("records", {}).get(fmt) == name:
            return board
    named = {}
    for variant in variant_names():
        board = load_variant(variant)
        records = (getattr(board, "raw", None) or {}).get("records") or {}
        if records.get(fmt):
            named[str(records[fmt])] = board
    found = named.get(name) if name else None
    if found is None:
        raise RecordError(f"{where}: the map {str(map_name)[:40]!r} is not one this project has a board for in "
                          f"{fmt} records (the maps: {', '.join(sorted(named))})")
    return found


def _mapping(value: Any, where: str) -> dict[Any, Any]:
    """A record's table of each power's units or centres; anything else is a RecordError."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError(f"{where}: expected a mapping of each power to its list, got {type(value).__name__}")
    return value


def _texts(value: Any, where: str) -> list[str]:
    """A list of texts (orders, units, centres) as a record writes it; anything else is a RecordError."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RecordError(f"{where}: expected a list of texts, got {type(value).__name__}")
    return value


def read_phases(notation: Notation, raw: Any, where: str) -> list[RecordedPhase]:
    """A record's phases in order: each position read from its state, the orders and results as recorded, the
    other fields kept."""
    if not isinstance(raw, list) or not raw:
        raise RecordError(f"{where}: `phases` must be a non-empty list of phases")
    phases: list[RecordedPhase] = []
    eliminated: dict[str, int] = {}
    before: RecordedPhase | None = None
    for i, data in enumerate(raw):
        at = f"{where}, phase {i + 1}"
        if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
            raise RecordError(f"{at}: a phase must be a mapping with `name` and `state`")
        name = str(data.get("name") or data["state"].get("name") or "")
        at = f"{where}, phase {name[:12] or i + 1}"
        if name.upper() == "COMPLETED":
            if before is None:
                raise RecordError(f"{at}: a game cannot begin COMPLETED")
            phase = following(notation.board, before.state.phase)
        else:
            phase = notation.our_phase(name, at)
        state = position(notation, data["state"], phase, before, eliminated, at)
        year = before.state.phase.year if before else phase.year
        alive = set(state.survivors(notation.board))
        for power in notation.board.powers:
            if power not in alive and power not in eliminated:
                eliminated[power] = year
        state.eliminated = dict(eliminated)
        orders = data.get("orders")
        if orders is not None and not isinstance(orders, dict):
            raise RecordError(f"{at}: `orders` must map each power to its orders")
        unplayed = orders is not None and all(o is None for o in orders.values())  # the package's current phase
        results = data.get("results") or {}
        if not isinstance(results, dict):
            raise RecordError(f"{at}: `results` must map each unit to its result codes")
        messages = data.get("messages")
        phase_out = RecordedPhase(
            name, state,
            None if orders is None or unplayed else {notation.our_power(str(p), f"{at}, orders"): _texts(o, f"{at}, orders of {p}")
                                         for p, o in orders.items()},
            {str(u): _texts(c, f"{at}, results of {u}") for u, c in results.items()},
            messages if isinstance(messages, list) else [],
            {k: v for k, v in data.items() if k not in ("name", "state", "results")
             and not (k == "orders" and not unplayed) and not (k == "messages" and isinstance(v, list))},
            {k: v for k, v in data["state"].items() if k not in STATE_FIELDS})
        if orders and not unplayed:
            phase_out.silent = frozenset(notation.our_power(str(p), f"{at}, orders") for p, o in orders.items()
                                         if o is None)
        if state.dislodged:
            phase_out.retreats = recorded_retreats(notation, data["state"], at)
        phases.append(phase_out)
        before = phase_out
    return phases


def following(board: Board, phase: Phase) -> Phase:
    """The calendar's step after a phase (skipping none): where a finished game's final position stands."""
    steps = board.calendar
    i = next(i for i, s in enumerate(steps) if (s.season, s.type) == (phase.season, phase.type))
    if i + 1 < len(steps):
        step, year = steps[i + 1], phase.year
    else:
        step, year = steps[0], phase.year + board.year_step
    return Phase(step.season, year + step.advance, step.type)


def builds_of(n: Notation, state: GameState, power: str) -> dict[str, Any]:
    """The package's `builds` of a power: in an adjustment phase, the count (capped by the free sites) and the
    sites; else a count of 0."""
    if state.phase.type != "Adjustment":
        return {"count": 0, "homes": []}
    due = adjustment_due(state, power)
    if due <= 0:
        return {"count": due, "homes": []}
    sites = [n.place(s) for s in build_sites(n.board, state, power)]
    return {"count": min(due, len(sites)), "homes": sites}
