"""A recorded game as this project holds it, whatever format it came from: each phase's position (a `GameState`),
the orders each power sent as the record wrote them, the recorded results, messages, and the fields a format keeps
that this project does not use (kept as they were, so a game read and written back is the game it was).

The position of a record's phase is read from the record's own fields (units, `*` for a dislodged unit, centres,
retreat options), which the field's two formats write alike; what a retreat needs that the record does not say
(where each attacker came from, the provinces a standoff left empty) is taken from the phase before."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.game_end import GameEnd
from adjudicator.games.diplomacy.board import Board, split_location
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
    for power_name, texts in (data.get("units") or {}).items():
        power = notation.our_power(str(power_name), f"{where}, units")
        for text in texts or []:
            unit, is_dislodged = _unit(notation, text, power, f"{where}, units of {power_name}")
            table: dict[str, Any] = dislodged if is_dislodged else units
            if unit.province in table:
                raise RecordError(f"{where}: two units in {unit.province.upper()}")
            table[unit.province] = Dislodged(unit) if is_dislodged else unit
    owners: dict[str, str] = {}
    for power_name, names in (data.get("centers") or {}).items():
        power = notation.our_power(str(power_name), f"{where}, centers")
        for name in names or []:
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
    recorded: dict[str, set[str]] = {}
    for power_name, table in (data.get("retreats") or {}).items():
        for text, places in (table or {}).items():
            unit, _ = _unit(notation, str(text).lstrip("*"), notation.our_power(str(power_name), where), where)
            recorded[unit.province] = {split_location(notation.our_place(str(p), where))[0] for p in places or []}
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
