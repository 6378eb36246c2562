"""The rules in force: every answer to a DATC chapter 4 question, and a board's own rules, as one value.

A `Rulebook` is what the judge is given (through the game's state): the code reads an option where the rule
applies, with the DATC number beside it. The keys and answers are those of `../shared/datc/OPTIONS.md`; a
rule set names an answer for every DATC key, and single keys follow it: `2000, 4.A.2: szykman`.
Boards add their own rules on the same road: where a power builds (`builds`), builds made when none are
ordered (`default_builds`), victory (`victory`, a threshold that may change with the year), and their own
answers to 4.D.8 (`godip`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Mapping, get_args

from adjudicator.errors import AdjudicatorError


class RulesError(AdjudicatorError):
    """An unknown rule set, key or value (the message lists the valid ones)."""


@dataclass(frozen=True)
class Victory:
    """When a power has won: `centres` (at least N centres) or `lead` (at least N centres and `lead` more than
    every other power); `by_year`: from each year on, another number of centres."""

    rule: str = "centres"
    centres: int = 0  # 0: more than half the board's centres
    lead: int = 0
    by_year: tuple[tuple[int, int], ...] = ()  # (first year, centres), in year order

    def centres_in(self, year: int) -> int:
        """The centres the rule asks for in a year (0: more than half the board's)."""
        wanted = self.centres
        for first, centres in self.by_year:
            if year >= first:
                wanted = centres
        return wanted


# The answers to each question, as types: a misspelt answer in the code is a type error (mypy), and the reader
# refuses one in a file (`_checked`). The default is first.
MultiRoute = Literal["all-routes", "one-route"]  # 4.A.1
Paradox = Literal["szykman", "1971", "1982", "2000", "all-hold"]  # 4.A.2
AdjacentConvoy = Literal["2000", "1971", "1982", "2000-fallback", "explicit", "2000-fallback-via-bound"]  # 4.A.3
ConvoyCutsOwnAttack = Literal["not-cut", "cut"]  # 4.A.4
RetreatToConvoyOrigin = Literal["if-convoyed", "never"]  # 4.A.5
ConvoyPath = Literal["ignored", "allowed", "required"]  # 4.A.6
DislodgedBounce = Literal["unless-head-to-head", "never"]  # 4.A.7
OmittedCoast = Literal["only-coast", "fails"]  # 4.B.2
ImpossibleCoast = Literal["illegal", "other-coast"]  # 4.B.3
SupportCoast = Literal["valid", "own-units", "coast-required"]  # 4.B.4
CoastIgnored = Literal["ignored", "fails"]  # 4.B.5, 4.B.6
Designation = Literal["valid", "invalid", "valid-unless-other"]  # 4.C.1, 4.C.2, 4.C.5, 4.C.6
BuildWithoutType = Literal["army-or-fleet-by-coast", "fails", "army-inland"]  # 4.C.3
FleetBuildOnLand = Literal["fails", "army"]  # 4.C.4
SeveralOrders = Literal["hold", "first", "last"]  # 4.D.3
WhichCount = Literal["first", "none", "last"]  # 4.D.4, 4.D.5
TooManyRemovals = Literal["first", "civil-disorder", "last"]  # 4.D.6
Waiving = Literal["allowed", "not-allowed"]  # 4.D.7
CivilDisorder = Literal["2023", "home-centres", "godip", "home-centres-codes"]  # 4.D.8
CivilDisorderSupport = Literal["succeeds", "fails"]  # 4.D.9
Builds = Literal["home", "owned", "any-home"]
DefaultBuilds = Literal["none", "armies"]

# key -> (attribute, answers, the default first). The order is OPTIONS.md's.
DATC_KEYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "4.A.1": ("multi_route", get_args(MultiRoute)),
    "4.A.2": ("paradox", get_args(Paradox)),
    "4.A.3": ("adjacent_convoy", get_args(AdjacentConvoy)),
    "4.A.4": ("convoy_cuts_own_attack", get_args(ConvoyCutsOwnAttack)),
    "4.A.5": ("retreat_to_convoy_origin", get_args(RetreatToConvoyOrigin)),
    "4.A.6": ("convoy_path", get_args(ConvoyPath)),
    "4.A.7": ("dislodged_bounce", get_args(DislodgedBounce)),
    "4.B.2": ("omitted_coast", get_args(OmittedCoast)),
    "4.B.3": ("impossible_coast", get_args(ImpossibleCoast)),
    "4.B.4": ("support_coast", get_args(SupportCoast)),
    "4.B.5": ("wrong_unit_coast", get_args(CoastIgnored)),
    "4.B.6": ("unknown_coast", get_args(CoastIgnored)),
    "4.C.1": ("missing_unit_type", get_args(Designation)),
    "4.C.2": ("wrong_unit_type", get_args(Designation)),
    "4.C.3": ("build_without_type", get_args(BuildWithoutType)),
    "4.C.4": ("fleet_build_on_land", get_args(FleetBuildOnLand)),
    "4.C.5": ("missing_nationality", get_args(Designation)),
    "4.C.6": ("wrong_nationality", get_args(Designation)),
    "4.D.3": ("several_orders", get_args(SeveralOrders)),
    "4.D.4": ("too_many_builds", get_args(WhichCount)),
    "4.D.5": ("two_builds_one_place", get_args(WhichCount)),
    "4.D.6": ("too_many_removals", get_args(TooManyRemovals)),
    "4.D.7": ("waiving", get_args(Waiving)),
    "4.D.8": ("civil_disorder", get_args(CivilDisorder)),
    "4.D.9": ("civil_disorder_support", get_args(CivilDisorderSupport)),
}
# A board's own rules (not DATC questions), with the same road.
BOARD_KEYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "builds": ("builds", get_args(Builds)),
    "default_builds": ("default_builds", get_args(DefaultBuilds)),
}
KEYS = {**DATC_KEYS, **BOARD_KEYS}
# The spellings of 4.D.8 before it had its DATC key (`civil_disorder: distance-from-home` in older files).
ALIASES = {"civil_disorder": "4.D.8", "default-builds": "default_builds"}
VALUE_ALIASES = {"4.D.8": {"datc-2023": "2023", "distance-from-home": "home-centres"}}

# The named sets of OPTIONS.md: each answer that differs from DATC v3.0's preference.
_PRE_2023 = {"4.A.5": "never", "4.D.8": "home-centres"}
SETS: dict[str, dict[str, str]] = {
    "datc-3.0": {},
    "datc-2.4": {"4.A.3": "2000-fallback", "4.D.8": "home-centres"},
    "1971": {"4.A.1": "one-route", "4.A.2": "1971", "4.A.3": "1971", **_PRE_2023},
    "1982": {"4.A.2": "1982", "4.A.3": "1982", **_PRE_2023},
    "2000": {"4.A.2": "2000", **_PRE_2023},
    "2023": {"4.A.2": "2000"},
    # The `diplomacy` package's engine (1.1.2, diplomacy/engine/game.py), found on the DATC option cases and its
    # own games (benchmarks/package_rules.py; benchmarks/README.md has the figures and what no answer here says):
    # 4.A.3 `_resolve_moves` takes a "VIA" army by convoy only when the fleets ordered to convoy it form a whole
    #   route (then with no fallback), otherwise over land, and an army convoyed without "VIA" by its own fleets
    #   over land when that convoy fails, unless that land move would cut a support for the attack on its convoy
    #   (`_check_disruptions`, "Paradox Detection #2");
    # 4.C.2, 4.C.3 `_add_order` / `_add_adjust_orders` refuse an order naming the wrong unit type, and a build
    #   naming none;
    # 4.D.3 `_add_order` keeps the last order it accepts for a unit in a movement phase (in a retreat phase
    #   `_add_retreat_orders` keeps the first: no answer says both);
    # 4.D.4-4.D.6 `_resolve` (adjustments) counts builds and removals in the order given, voiding the rest, and
    #   `_add_adjust_orders` voids a second build in one site: the first count;
    # 4.D.7 a WAIVE order never takes a build's place (`_add_adjust_orders` drops it while builds are ordered,
    #   `_resolve` voids it, `get_orders` leaves it out): as `not-allowed`, where builds not ordered are waived;
    # 4.D.8 `_get_distance_to_home`: distance to a home centre, fleets by fleet moves from their coast, armies
    #   over any border; on a tie fleets first, then by the unit's name (`A CAR` before `A GAU`).
    "diplomacy-package": {"4.A.3": "2000-fallback-via-bound", "4.C.2": "invalid", "4.C.3": "fails",
                          "4.D.3": "last", "4.D.7": "not-allowed", "4.D.8": "home-centres-codes"},
}


@dataclass(frozen=True)
class Rulebook:
    """Every rule option in force; the defaults are DATC v3.0's preferences and the standard board's rules."""

    multi_route: MultiRoute = "all-routes"  # 4.A.1
    paradox: Paradox = "szykman"  # 4.A.2
    adjacent_convoy: AdjacentConvoy = "2000"  # 4.A.3
    convoy_cuts_own_attack: ConvoyCutsOwnAttack = "not-cut"  # 4.A.4
    retreat_to_convoy_origin: RetreatToConvoyOrigin = "if-convoyed"  # 4.A.5
    convoy_path: ConvoyPath = "ignored"  # 4.A.6
    dislodged_bounce: DislodgedBounce = "unless-head-to-head"  # 4.A.7
    omitted_coast: OmittedCoast = "only-coast"  # 4.B.2
    impossible_coast: ImpossibleCoast = "illegal"  # 4.B.3
    support_coast: SupportCoast = "valid"  # 4.B.4
    wrong_unit_coast: CoastIgnored = "ignored"  # 4.B.5
    unknown_coast: CoastIgnored = "ignored"  # 4.B.6
    missing_unit_type: Designation = "valid"  # 4.C.1
    wrong_unit_type: Designation = "valid"  # 4.C.2
    build_without_type: BuildWithoutType = "army-or-fleet-by-coast"  # 4.C.3
    fleet_build_on_land: FleetBuildOnLand = "fails"  # 4.C.4
    missing_nationality: Designation = "valid"  # 4.C.5
    wrong_nationality: Designation = "valid"  # 4.C.6
    several_orders: SeveralOrders = "hold"  # 4.D.3
    too_many_builds: WhichCount = "first"  # 4.D.4
    two_builds_one_place: WhichCount = "first"  # 4.D.5
    too_many_removals: TooManyRemovals = "first"  # 4.D.6
    waiving: Waiving = "allowed"  # 4.D.7
    civil_disorder: CivilDisorder = "2023"  # 4.D.8
    civil_disorder_support: CivilDisorderSupport = "succeeds"  # 4.D.9
    builds: Builds = "home"
    default_builds: DefaultBuilds = "none"
    victory: Victory = field(default_factory=Victory)

    @property
    def strict_designations(self) -> bool:
        """Whether a unit type or nationality written in an order can change what it does (DATC 4.C.1, 4.C.2,
        4.C.5, 4.C.6); by default they are ignored."""
        return (self.missing_unit_type, self.wrong_unit_type, self.missing_nationality,
                self.wrong_nationality) != ("valid", "valid", "valid", "valid")

    def value(self, key: str) -> str:
        """The answer in force for a key (`4.A.2`, `builds`)."""
        return getattr(self, KEYS[key][0])

    def differences(self, base: "Rulebook | None" = None) -> dict[str, str]:
        """The keys whose answers differ from `base` (DATC v3.0's by default), in OPTIONS.md's order."""
        base = base or DEFAULT_RULES
        return {key: self.value(key) for key in KEYS if self.value(key) != base.value(key)}

    def describe(self) -> str:
        """The shortest text naming these answers: the set they differ least from, then single keys
        (`1971`, `2000, 4.A.2: szykman`); board rules are not named."""
        return self._description

    @functools.cached_property
    def _description(self) -> str:  # (every report names its rules: worked out once per Rulebook)
        datc = {key: self.value(key) for key in DATC_KEYS}
        best = min(SETS, key=lambda name: sum(datc[k] != v for k, v in with_set(name).items()))
        rest = [f"{k}: {v}" for k, v in datc.items() if with_set(best)[k] != v]
        return ", ".join([best, *rest])

    def with_text(self, text: str, what: str = "rules") -> "Rulebook":
        """These rules with a text's set and keys applied over them (`2000, 4.A.2: szykman`); a RulesError
        names an unknown set, key or value and lists the valid ones."""
        items = [item.strip() for item in text.split(",")]
        changes: dict[str, str] = {}
        for i, item in enumerate(items):
            if not item:
                if len(items) > 1:
                    raise RulesError(f"{what}: an empty item in {text.strip()!r}")
                continue
            key, colon, value = item.partition(":")
            if not colon:
                if i > 0:
                    raise RulesError(f"{what}: the rule set {item!r} must come first, before single keys")
                changes.update(with_set(item, what))
                continue
            key, value = _checked(key.strip(), value.strip(), what)
            changes[key] = value
        return self.with_values(changes)

    def with_values(self, values: Mapping[str, Any], what: str = "rules") -> "Rulebook":
        """These rules with single keys changed (`{"4.A.2": "1971", "builds": "owned"}`); a `set` key names a
        rule set, applied first."""
        changes: dict[str, Any] = {}
        if "set" in values:
            for key, value in with_set(str(values["set"]), what).items():
                changes[KEYS[key][0]] = value
        for raw_key, raw_value in values.items():
            if raw_key == "set":
                continue
            if raw_key == "victory":
                changes["victory"] = raw_value  # (read by the board loader; a Victory here)
                continue
            key, value = _checked(str(raw_key), str(raw_value), what)
            changes[KEYS[key][0]] = value
        return replace(self, **changes) if changes else self


DEFAULT_RULES = Rulebook()


def with_set(name: str, what: str = "rules") -> dict[str, str]:
    """Every DATC key's answer under a named set."""
    answers = SETS.get(name.strip().lower())
    if answers is None:
        raise RulesError(f"{what}: unknown rule set {name.strip()[:40]!r}; the sets are {', '.join(SETS)} "
                         f"(or write keys: {', '.join(KEYS)})")
    return {key: answers.get(key, choices[0]) for key, (_, choices) in DATC_KEYS.items()}


def _checked(key: str, value: str, what: str) -> tuple[str, str]:
    """(key, value) as the Rulebook names them, or a RulesError listing the valid keys or values."""
    key = ALIASES.get(key, key)
    if key.upper() in DATC_KEYS:
        key = key.upper()
    if key not in KEYS:
        raise RulesError(f"{what}: unknown key {key[:40]!r}; the keys are {', '.join(KEYS)}, and victory "
                         f"(in a board's or game's options)")
    choices = KEYS[key][1]
    value = VALUE_ALIASES.get(key, {}).get(value.lower(), value.lower())
    if value not in choices:
        raise RulesError(f"{what}: {key} {value[:40]!r} is not one of {', '.join(choices)}")
    return key, value


def rulebook_from_text(text: str | None, base: Rulebook = DEFAULT_RULES, what: str = "rules") -> Rulebook:
    """`base` with a rules text applied (None or blank: `base`)."""
    return base if text is None or not text.strip() else base.with_text(text, what)


def rulebook_json(rules: Rulebook, base: Rulebook = DEFAULT_RULES) -> dict[str, Any]:
    """The rules played, as JSON-ready data: the description and every key that differs from DATC v3.0."""
    return {"rules": rules.describe(), "differences": rules.differences(base)}

