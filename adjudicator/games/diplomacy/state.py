"""The position of a game: phase, units, dislodged units, centre owners; checked against the board."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, Iterable

from adjudicator.games.diplomacy.board import ARMY, FLEET, NEUTRAL, Board, join_location, split_location
from adjudicator.errors import StateError
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.games.diplomacy.rulebook import Rulebook, rulebook_from_text

PHASE_TYPES = ("Movement", "Retreat", "Adjustment")


@dataclass(frozen=True, order=True, slots=True)
class Unit:
    """An army or fleet of a power at a location (`stp/nc` for a fleet on a coast)."""

    power: str
    type: str
    location: str
    province: str = field(init=False, compare=False, repr=False)  # the province the unit is in
    coast: str | None = field(init=False, compare=False, repr=False)  # its coast, where the province has several

    def __post_init__(self) -> None:
        province, coast = split_location(self.location)
        object.__setattr__(self, "province", province)  # read on every rule check: split once
        object.__setattr__(self, "coast", coast)

    def __str__(self) -> str:
        return f"{self.power}: {self.type} {self.location}"

    def __reduce__(self) -> tuple[Any, tuple[str, str, str]]:  # (`type` is a field here)
        # Pickled as its three fields (a worker process's jobs and results), faster than the slotted frozen
        # dataclass's own pickling.
        return Unit, (self.power, self.type, self.location)


class _UnitSlots:  # a Unit's layout, made with plain assignments and then given its class (as `new_order`)
    __slots__ = ("power", "type", "location", "province", "coast")

    def __init__(self, power: str, unit_type: str, location: str, province: str, coast: str | None) -> None:
        self.power, self.type, self.location, self.province, self.coast = power, unit_type, location, province, coast


def moved_unit(unit: Unit, location: str) -> Unit:
    """`Unit(unit.power, unit.type, location)` for the judge's hot path: the same value, without the frozen
    dataclass's `__init__` and `__post_init__` (which cost four times as much)."""
    province, _, coast = location.partition("/")
    moved = _UnitSlots(unit.power, unit.type, location, province, coast or None)
    moved.__class__ = Unit  # type: ignore[assignment]
    return moved  # type: ignore[return-value]


@dataclass(frozen=True, order=True)
class Phase:
    """A season, year and phase type, e.g. Summer 2011 Retreat."""

    season: str
    year: int
    type: str

    def __str__(self) -> str:
        return f"{self.season} {self.year} {self.type}"


@dataclass(frozen=True)
class Dislodged:
    """A unit dislodged in the movement phase, with what its retreat needs to know."""

    unit: Unit
    attacker_origin: str | None = None  # province the dislodging unit came from
    by_convoy: bool = False  # the attacker came by convoy: the unit may retreat to its origin


@dataclass
class GameState:
    """Everything needed to adjudicate the next phase."""

    variant: str
    phase: Phase
    units: dict[str, Unit] = field(default_factory=dict)  # by province
    owners: dict[str, str] = field(default_factory=dict)  # centre province -> power
    dislodged: dict[str, Dislodged] = field(default_factory=dict)  # by province
    contested: frozenset[str] = frozenset()  # provinces left empty by a standoff this season
    history: list[dict] = field(default_factory=list)
    options: Rulebook | None = None  # the game's own rules (None: the variant's)
    eliminated: dict[str, int] = field(default_factory=dict)  # power -> the year it was left with nothing

    def survivors(self, board: Board) -> list[str]:
        """The powers with at least one centre or unit (a dislodged one too, which may yet retreat), in the
        board's order."""
        holding = set(self.owners.values()).union(u.power for u in self.units.values())
        holding.update(d.unit.power for d in self.dislodged.values())
        return [p for p in board.powers if p in holding]

    def rule_options(self, board: Board) -> Rulebook:
        """The rules this game is played by: its own, or its variant's."""
        return self.options or board.options

    def set_rules(self, board: Board, *texts: str | None, what: str = "rules") -> None:
        """Play by rules texts (`2000, 4.A.2: szykman`), each applied in turn over the rules in force; a
        RulesError names an unknown set, key or value."""
        rules = self.rule_options(board)
        for text in texts:
            rules = rulebook_from_text(text, rules, what)
        self.options = None if rules == board.options else rules

    def copy(self, **fields) -> "GameState":
        """A copy that can be changed without touching this one (`fields`: given anew, and not copied)."""
        for name in ("units", "owners", "dislodged", "history", "eliminated"):
            if name not in fields:
                value = getattr(self, name)
                fields[name] = type(value)(value)
        if not _STATE_FIELDS.issuperset(fields):  # as `dataclasses.replace` (which costs three times as much)
            raise TypeError(f"GameState has no field {sorted(set(fields) - _STATE_FIELDS)[0]!r}")
        return type(self)(**{name: fields[name] if name in fields else getattr(self, name) for name in _STATE_FIELDS})

    def units_of(self, power: str) -> list[Unit]:
        """A power's units, in location order."""
        return sorted((u for u in self.units.values() if u.power == power), key=lambda u: u.location)

    def centres_of(self, power: str) -> list[str]:
        """The centres a power owns."""
        return sorted(p for p, owner in self.owners.items() if owner == power)


_STATE_FIELDS = frozenset(f.name for f in fields(GameState))


def parse_unit_text(board: Board, text: str, power: str, lookup: Callable[[str], str] | None = None) -> Unit:
    """`A par`, `F stp/nc`, `Army Paris`, `Fleet Bulgaria (south coast).` -> a Unit of the power, with names
    checked (`lookup`: how a place's name is read, when not as the board reads it)."""
    text = text.strip()
    if text.endswith("."):  # a full stop may end the line, as it may end an order
        text = text[:-1]
    parts = text.split(None, 1)
    if len(parts) != 2 or parts[0].upper() not in ("A", "F", "ARMY", "FLEET"):
        raise StateError(f"cannot read the unit {text!r}; write it like 'A Par' or 'F StP/nc'")
    unit_type = ARMY if parts[0].upper().startswith("A") else FLEET
    place = parts[1].strip()
    coast = None
    for sep in ("/", "("):
        if sep in place:
            place, _, coast = place.partition(sep)
            coast = coast.strip(" )").lower() or None
            place = place.strip()
    try:
        province = (lookup or board.names.lookup)(place)
    except (UnknownName, AmbiguousName) as exc:
        raise StateError(exc.message, suggestions=exc.suggestions) from None
    if coast:
        coast = board.coast_key(coast)
    return make_unit(board, power, unit_type, province, coast)


def make_unit(board: Board, power: str, unit_type: str, province: str, coast: str | None) -> Unit:
    """A unit with its coast made canonical: armies drop coasts; fleets get one where the province has several."""
    p = board.provinces[province]
    if unit_type == ARMY or not p.coasts:
        coast = None
    elif coast not in p.coasts:
        valid = ", ".join(join_location(province, c) for c in p.coasts)
        raise StateError(f"a fleet in {p.name} needs one of its coasts: {valid}" if not coast
                         else f"{p.name} has no coast {coast!r}; its coasts are {valid}")
    return Unit(power, unit_type, join_location(province, coast))


def check_position(board: Board, state: GameState, file: str | None = None) -> None:
    """A StateError for a position the rules cannot have: unknown powers, bad places, units where they cannot stand."""
    season = state.phase.season
    # At a movement phase a unit may stand where the season's change has just stranded it (it is
    # disbanded after this phase if it stays), so the previous season's terrain also counts.
    stands = board.movement_stands(season) if state.phase.type == "Movement" else board.season(season).stands
    powers = board.unit_owner_set
    units = state.units.values()
    armies = [u.location for u in units if u.type == ARMY]
    fleets = [u.location for u in units if u.type == FLEET]
    if (len(armies) + len(fleets) == len(state.units) and stands[ARMY].issuperset(armies)
            and stands[FLEET].issuperset(fleets) and powers.issuperset([u.power for u in units])
            and [u.province for u in units] == list(state.units) and board.centre_set.issuperset(state.owners)
            and board.powers.keys() >= set(state.owners.values())):
        return  # the common case, checked with set operations; otherwise the loops below name the problem
    for province, unit in state.units.items():
        if unit.power not in powers:
            raise StateError(f"unknown power {unit.power!r}; powers are {', '.join(board.unit_owners())}", file=file)
        if unit.province != province:
            raise StateError(f"unit {unit} is filed under {province}", file=file)
        if unit.location not in stands.get(unit.type, ()):
            kind = "an army" if unit.type == ARMY else "a fleet"
            raise StateError(
                f"{unit}: {kind} cannot stand on {board.provinces[unit.province].name} in {season} "
                f"(it is {board.surface(unit.province, season)} then)", file=file)
    for province, owner in state.owners.items():
        if province not in board.provinces or not board.provinces[province].centre:
            raise StateError(f"{province!r} is not a supply centre but is listed as owned by {owner}", file=file)
        if owner not in board.powers:
            raise StateError(f"unknown power {owner!r} owns {province}", file=file)


def units_from_list(board: Board, entries: Iterable[tuple[str, str]], what: str = "unit") -> dict[str, Unit]:
    """Units from (power, text) pairs; two units in one province is an error."""
    units: dict[str, Unit] = {}
    for power, text in entries:
        unit = parse_unit_text(board, text, power)
        if unit.province in units:
            raise StateError(f"two {what}s in {board.provinces[unit.province].name}: {units[unit.province]} and {unit}")
        units[unit.province] = unit
    return units


def opening_state(board: Board) -> GameState:
    """The variant's starting position."""
    season, year, phase_type = board.start_phase
    entries = [(power, text) for power, texts in board.start_units.items() for text in texts]
    entries += [(NEUTRAL, text) for text in board.neutral_units]
    return GameState(
        variant=board.name,
        phase=Phase(board.season_key(season), year, phase_type),
        units=units_from_list(board, entries),
        owners=board.initial_owners(),
    )
