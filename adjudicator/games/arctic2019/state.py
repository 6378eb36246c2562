"""The position of 2019: The ARCTIC: ships, control markers, platforms, conflicts, the Council and the money.

```yaml
turn: 1
law: A                                   # the applicable law
ended: false
council: {RU: B, NO: A, EU: A, CA: A, US: C}         # the law each country's vote marker(s) support
conflicts: {RU: null, NO: null, EU: null, CA: US, US: null}   # each country's conflict space
norway_eu_support: 0                     # EU markers on Norway's two special spaces
norway_in_eu: false
control: {NP: null, AMU: null, ...}      # every sea sector and the pole (coastal sectors are their owner's)
ships: {BER: {CN: 1}, ALA: {US: 2}, ...} # ships per sector per country
supply: {RU: 11, ...}                    # ships beside the board (written for reading; checked if given)
platforms: [{sector: KAR, owner: Alfred, legal: false, protected_by: RU, protected_since: {turn: 1, phase: 6}}]
treasury: {RU: 2, NO: 1, EU: 3, CA: 2, US: 4}
cash: {Alfred: 10}                       # the players' money (a platform's owner pays from it)
this_turn: {ship_actions: [RU], diplomacy: [CA], acted: [RU, CA], decisions: {KAR: keep}}
history: []
```

Under law B the sea sectors' control follows from the board (`law_b`), so a state may leave it out.
`protected_since` is when the lobbyist's protection was given (phase 6 of that turn); it lasts to the end of the
protector's actions in phase 6 of the next turn (P19), so it is this turn or the last one.
`this_turn` is what the turn has used so far, when it is judged in several sheets (P1, P12, P19): the
countries whose Ship Movement action (China: its automatic move) is over, those that took their Diplomacy
action, those that have taken a step (kept while a protection from last turn may still end), and the owners'
standing decisions (`keep` or `abandon`); it is written only when not empty, and emptied when the turn ends.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from adjudicator.located import LocatedReader
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.yamlio import plain

from .board import Board

PROTECTION_PHASE = 6  # lobbyists protect platforms in phase 6 ("Lobbyist Reassignment")
_PLATFORM_KEYS = ("sector", "owner", "legal", "protected_by", "protected_since")

KEYS = ("turn", "law", "ended", "council", "conflicts", "norway_eu_support", "norway_in_eu", "control", "ships",
        "supply", "platforms", "treasury", "cash", "this_turn", "history")
_TURN_KEYS = ("ship_actions", "diplomacy", "acted", "decisions")
_DECISIONS = {"keep": True, "abandon": False}


@dataclass
class Platform:
    """A player's mining platform."""

    owner: str
    legal: bool
    protected_by: str | None = None  # the country whose lobbyist protects it
    protected_since: int | None = None  # the turn whose phase 6 the protection was given in (P19)

    def unprotect(self) -> None:
        """The lobbyist leaves: the platform is no longer protected."""
        self.protected_by = None
        self.protected_since = None


@dataclass
class TurnSoFar:
    """What the current turn has used so far, kept between the sheets it is judged in."""

    ship_actions: set[str] = field(default_factory=set)  # countries whose Ship Movement action is over (P1)
    diplomacy: set[str] = field(default_factory=set)  # countries that took their Diplomacy action
    acted: set[str] = field(default_factory=set)  # countries that have taken a step (P19)
    decisions: dict[str, bool] = field(default_factory=dict)  # sector -> the owner pays to keep it (P12)


@dataclass
class State:
    """A position of the game."""

    turn: int
    law: str
    ships: dict[str, dict[str, int]]  # sector -> country -> ships (no zero entries)
    control: dict[str, str | None]  # every non-coastal sector -> its controller (None: uncontrolled)
    platforms: dict[str, Platform]  # sector -> platform (at most one per sector)
    conflicts: dict[str, str | None]  # Arctic country -> the country it declared a conflict against
    council: dict[str, str]  # voting country -> law
    treasury: dict[str, int]
    cash: dict[str, int]
    norway_eu_support: int = 0
    norway_in_eu: bool = False
    ended: bool = False
    history: list = field(default_factory=list)
    this_turn: TurnSoFar = field(default_factory=TurnSoFar)

    def copy(self) -> "State":
        """A deep copy (states are never mutated in place by the rules)."""
        return copy.deepcopy(self)


# --- queries every rule module uses ---------------------------------------------------------------------

def merged(board: Board, state: State, country: str | None) -> str | None:
    """The country as it now stands: once Norway has joined the EU, Norway's sectors are the EU's (B15)."""
    if country is None or not state.norway_in_eu:
        return country
    return board.countries[country].joins or country


def joiner(board: Board) -> str | None:
    """The country that may join another (Norway)."""
    return next((c.id for c in board.countries.values() if c.joins), None)


def active_countries(board: Board, state: State) -> list[str]:
    """Countries that still exist (Norway is gone once it has joined the EU)."""
    gone = joiner(board) if state.norway_in_eu else None
    return [c for c in board.countries if c != gone]


def controller(board: Board, state: State, sector: str) -> str | None:
    """Who controls a sector: a coastal sector's owner always; otherwise the control marker."""
    s = board.sectors[sector]
    if s.is_coastal:
        return merged(board, state, s.owner)
    return state.control.get(sector)


def law_b_controller(board: Board, state: State, sector: str) -> str | None:
    """The country controlling a sea sector under law B (the pole is unaffected)."""
    s = board.sectors[sector]
    return merged(board, state, s.law_b) if s.kind == "sea" else None


def sea_control_now(board: Board, state: State) -> str:
    """How the applicable law treats sea sectors: none, coastline or ships."""
    return board.laws[state.law].sea_control


def ships_of(state: State, sector: str) -> dict[str, int]:
    """The ships in a sector, by country."""
    return state.ships.get(sector, {})


def voting_countries(board: Board, state: State) -> list[str]:
    """Countries with vote markers in the Council."""
    return [c for c in active_countries(board, state) if board.countries[c].votes]


def votes_of(board: Board, state: State, country: str) -> int:
    """A country's vote markers (the EU gains Norway's when Norway joins)."""
    total = board.countries[country].votes
    j = joiner(board)
    if state.norway_in_eu and j and board.countries[j].joins == country:
        total += board.countries[j].votes
    return total


def non_coastal(board: Board) -> list[str]:
    """The sectors with a control marker (sea sectors and the pole), in board order."""
    return [s.id for s in board.sectors.values() if not s.is_coastal]


# --- the starting position -------------------------------------------------------------------------------

def initial_state(board: Board) -> State:
    """The position after set-up (E0): law A, no control at sea, one ship on each ship symbol (ALA: 2)."""
    ships: dict[str, dict[str, int]] = {}
    for s in board.sectors.values():
        if s.symbol_country and s.setup_ships:
            ships.setdefault(s.id, {})[s.symbol_country] = s.setup_ships
    return State(
        turn=1, law=board.start_law, ships=ships, control={s: None for s in non_coastal(board)}, platforms={},
        conflicts={c: None for c in board.arctic_countries},
        council={c.id: c.council for c in board.countries.values()
                 if c.votes and c.council is not None},  # (every voter has one: the board loader checks it)
        treasury={c.id: c.treasury for c in board.countries.values() if c.arctic}, cash={})


# --- reading ---------------------------------------------------------------------------------------------

class _Reader(LocatedReader):
    """Reads state data with a StateError (line and JSON pointer) for anything wrong."""

    def __init__(self, board: Board, file: str | None):
        super().__init__(file)
        self.board = board

    def country(self, value: Any, node: Any, pointer: str) -> str:
        if value is False:
            raise self.fail("a bare NO is read by YAML as false: quote it (\"NO\") or write Norway", node, pointer)
        return self.name(self.board.country_names, value, "country", node, pointer,
                         f"; countries are {', '.join(self.board.countries)}")

    def sector(self, value: Any, node: Any, pointer: str) -> str:
        return self.name(self.board.names, value, "sector", node, pointer)


def state_from_data(board: Board, data: Any, file: str | None = None) -> State:
    """A State from game-file data, every rule a position must keep checked (StateError with line and pointer)."""
    r = _Reader(board, file)
    if not isinstance(data, dict):
        raise r.fail("the game state must be a mapping (turn, law, ships, control, platforms...)", data, "")
    unknown = [k for k in data if str(k) not in KEYS and k != "variant"]
    if unknown:
        raise r.fail(f"unknown key {unknown[0]!r}; the state's keys are {', '.join(KEYS)}", data, f"/{unknown[0]}")
    start = initial_state(board)
    turn = r.whole_number(data.get("turn", 1), "turn", data, "/turn", 1, board.last_turn)
    law_text = data.get("law", board.start_law)
    try:
        law = board.law_names.lookup(str(law_text), "law")
    except (UnknownName, AmbiguousName) as exc:
        raise r.fail(f"{exc.message}; laws are {', '.join(board.laws)}", data, "/law", exc.suggestions) from None
    joined = data.get("norway_in_eu", False)
    if not isinstance(joined, bool):
        raise r.fail("norway_in_eu must be true or false", data, "/norway_in_eu")
    support = r.whole_number(data.get("norway_eu_support", 0), "norway_eu_support", data, "/norway_eu_support", 0, 2)
    ended = data.get("ended", False)
    if not isinstance(ended, bool):
        raise r.fail("ended must be true or false", data, "/ended")
    state = State(turn, law, {}, {s: None for s in non_coastal(board)}, {}, {}, {}, {}, {}, support, joined, ended)
    gone = joiner(board) if joined else None
    _read_ships(r, state, data, gone)
    _read_control(r, state, data, gone)
    _read_platforms(r, state, data, gone)
    _read_politics(r, state, data, start, gone)
    state.this_turn = _read_turn(r, state, data, gone)
    history = data.get("history") or []
    if not isinstance(history, list):
        raise r.fail("history must be a list", data, "/history")
    state.history = plain(history)
    return state


def _read_ships(r: _Reader, state: State, data: dict, gone: str | None) -> None:
    raw = r.mapping(data.get("ships"), "ships (sector -> country -> number)", data, "/ships")
    totals: dict[str, int] = {}
    for sector_key, by_country in raw.items():
        sector = r.sector(sector_key, raw, f"/ships/{sector_key}")
        by_country = r.mapping(by_country, f"the ships in {sector_key} (country -> number)", raw, f"/ships/{sector_key}")
        for country_key, n in by_country.items():
            pointer = f"/ships/{sector_key}/{country_key}"
            country = r.country(country_key, by_country, pointer)
            n = r.whole_number(n, f"the number of {country} ships in {sector}", by_country, pointer)
            if country == gone and n:
                raise r.fail("Norway has joined the EU: its ships are EU ships now", by_country, pointer)
            if n:
                state.ships.setdefault(sector, {})
                state.ships[sector][country] = state.ships[sector].get(country, 0) + n
                totals[country] = totals.get(country, 0) + n
    for country, n in totals.items():
        pieces = r.board.countries[country].ships
        if n > pieces:
            raise r.fail(f"{r.board.country_name(country)} has {n} ships on the board but only {pieces} in the game",
                         raw, "/ships")
    supply = data.get("supply")
    if supply is not None:
        supply = r.mapping(supply, "supply (country -> ships beside the board)", data, "/supply")
        for country_key, n in supply.items():
            country = r.country(country_key, supply, f"/supply/{country_key}")
            left = r.board.countries[country].ships - totals.get(country, 0)
            if n != left:
                raise r.fail(f"supply says {r.board.country_name(country)} has {n} ships beside the board, but the "
                             f"ships on the board leave {left}; remove `supply` to have it recomputed",
                             supply, f"/supply/{country_key}")


def _read_control(r: _Reader, state: State, data: dict, gone: str | None) -> None:
    board = r.board
    raw = r.mapping(data.get("control"), "control (sector -> country)", data, "/control")
    given: dict[str, str] = {}  # sector -> the key it was written with
    for sector_key, who in raw.items():
        pointer = f"/control/{sector_key}"
        sector = r.sector(sector_key, raw, pointer)
        if board.sectors[sector].is_coastal:
            raise r.fail(f"{board.sector_name(sector)} is coastal: it is always its owner's; do not list it",
                         raw, pointer)
        country = None if who is None else r.country(who, raw, pointer)
        if country is not None and country == gone:
            raise r.fail("Norway has joined the EU: its control markers are EU markers now", raw, pointer)
        state.control[sector] = country
        given[sector] = str(sector_key)
    kind = sea_control_now(board, state)  # P11: under laws A and B the law decides
    if kind == "ships":
        return
    for sector in non_coastal(board):
        if board.sectors[sector].is_polar:
            continue  # the Council's laws do not apply to the pole
        want = law_b_controller(board, state, sector) if kind == "coastline" else None
        if sector in given and state.control[sector] != want:
            rule = (f"under law {state.law} ({board.laws[state.law].name}) {board.sector_name(sector)} is "
                    f"controlled by {board.country_name(want)}")
            raise r.fail(f"{rule}, not {board.country_name(state.control[sector])}", raw, f"/control/{given[sector]}")
        state.control[sector] = want


def _read_platforms(r: _Reader, state: State, data: dict, gone: str | None) -> None:
    board = r.board
    raw = data.get("platforms") or []
    if isinstance(raw, dict):  # also accepted: sector -> {owner, legal, protected_by}
        raw_items = [({"sector": k, **(v if isinstance(v, dict) else {})}, f"/platforms/{k}", v) for k, v in raw.items()]
    elif isinstance(raw, list):
        raw_items = [(e, f"/platforms/{i}", e) for i, e in enumerate(raw)]
    else:
        raise r.fail("platforms must be a list of {sector, owner, legal, protected_by}", data, "/platforms")
    for entry, pointer, node in raw_items:
        if not isinstance(entry, dict) or "sector" not in entry or "owner" not in entry:
            raise r.fail("a platform needs `sector` and `owner` (and `legal`, `protected_by`)", node or raw, pointer)
        extra = set(map(str, entry)) - set(_PLATFORM_KEYS)
        if extra:
            raise r.fail(f"unknown platform key {sorted(extra)[0]!r}; use {', '.join(_PLATFORM_KEYS)}", node, pointer)
        sector = r.sector(entry["sector"], node, pointer + "/sector")
        s = board.sectors[sector]
        if s.deposit is None:
            raise r.fail(f"{board.sector_name(sector)} has no deposit: no platform can stand there", node, pointer)
        if sector in state.platforms:
            raise r.fail(f"two platforms in {board.sector_name(sector)}: a sector has at most one", node, pointer)
        owner = "" if entry["owner"] is None else str(entry["owner"]).strip()
        if not owner:
            raise r.fail("a platform's owner is a player's name", node, pointer + "/owner")
        protector = entry.get("protected_by")
        if protector is not None:
            protector = r.country(protector, node, pointer + "/protected_by")
            if not board.countries[protector].arctic:
                raise r.fail("only lobbyists of Arctic region countries protect platforms", node, pointer)
            if protector == gone:
                raise r.fail("Norway has joined the EU: its lobbyists no longer protect platforms", node, pointer)
        legal_now = s.is_coastal or controller(board, state, sector) is not None  # P10
        legal = entry.get("legal", legal_now)
        if not isinstance(legal, bool):
            raise r.fail("legal must be true or false", node, pointer + "/legal")
        if legal != legal_now:
            why = ("platforms in coastal sectors are always legal" if s.is_coastal else
                   f"{board.sector_name(sector)} is {'controlled' if legal_now else 'uncontrolled'}, so its platform "
                   f"is {'legal' if legal_now else 'illegal'}")
            raise r.fail(why, node, pointer + "/legal")
        since = _protected_since(r, state, entry, protector, node, pointer)
        state.platforms[sector] = Platform(owner, legal, protector, since)


def _protected_since(r: _Reader, state: State, entry: dict, protector: str | None, node: Any, pointer: str
                     ) -> int | None:
    """The turn a platform's protection was given (P19): this turn or the last; this turn when not written."""
    raw = entry.get("protected_since")
    if protector is None:
        if raw is not None:
            raise r.fail("protected_since without protected_by: say which country's lobbyist protects it",
                         node, pointer + "/protected_since")
        return None
    if raw is None:
        return state.turn  # P19: a protection written without its turn was given this turn
    where = pointer + "/protected_since"
    if not isinstance(raw, dict) or "turn" not in raw or set(map(str, raw)) - {"turn", "phase"}:
        raise r.fail("protected_since is {turn: N, phase: 6}: the turn whose phase 6 the lobbyist was moved in",
                     node, where)
    phase = raw.get("phase", PROTECTION_PHASE)
    if phase != PROTECTION_PHASE:
        raise r.fail(f"protection is given in phase {PROTECTION_PHASE} (Lobbyist Reassignment), not phase "
                     f"{phase!r}", raw, where + "/phase")
    turn = r.whole_number(raw["turn"], "the turn of a protection", raw, where + "/turn", 1, state.turn)
    if turn < state.turn - 1:
        raise r.fail(f"a protection given in turn {turn} ended in turn {turn + 1}, at the end of "
                     f"{r.board.country_name(protector)}'s actions in phase {PROTECTION_PHASE}; remove "
                     f"protected_by (or give the turn it was renewed)", raw, where + "/turn")
    return turn


def _read_politics(r: _Reader, state: State, data: dict, start: State, gone: str | None) -> None:
    board = r.board
    raw = r.mapping(data.get("conflicts"), "conflicts (country -> the country it is in conflict with)", data, "/conflicts")
    state.conflicts = {c: None for c in board.arctic_countries if c != gone}
    for key, target in raw.items():
        pointer = f"/conflicts/{key}"
        who = r.country(key, raw, pointer)
        if who not in state.conflicts:
            raise r.fail(f"{board.country_name(who)} has no conflict space", raw, pointer)
        if target is None:
            continue
        target = r.country(target, raw, pointer)
        if target == who or not board.countries[target].arctic or target == gone:
            why = ("a country cannot be in conflict with itself" if target == who else
                   "every Arctic country is always in conflict with China: no marker needed" if not
                   board.countries[target].arctic else "Norway has joined the EU")
            raise r.fail(why, raw, pointer)
        state.conflicts[who] = target
    voters = voting_countries(board, state)
    raw_council = data.get("council")
    if raw_council is None:
        state.council = {c: start.council.get(c, board.start_law) for c in voters}
    else:
        raw_council = r.mapping(raw_council, "council (country -> law)", data, "/council")
        for key, law in raw_council.items():
            pointer = f"/council/{key}"
            who = r.country(key, raw_council, pointer)
            if who not in voters:
                raise r.fail(f"{board.country_name(who)} has no vote in the Arctic Council", raw_council, pointer)
            try:
                state.council[who] = board.law_names.lookup(str(law), "law")
            except (UnknownName, AmbiguousName) as exc:
                raise r.fail(exc.message, raw_council, pointer, exc.suggestions) from None
        missing = [c for c in voters if c not in state.council]
        if missing:
            raise r.fail(f"the council must give every vote; missing {', '.join(missing)}", raw_council, "/council")
    raw_treasury = r.mapping(data.get("treasury"), "treasury (country -> money)", data, "/treasury")
    state.treasury = {c: v for c, v in start.treasury.items()}
    if gone:
        state.treasury[gone] = 0
    for key, money in raw_treasury.items():
        pointer = f"/treasury/{key}"
        who = r.country(key, raw_treasury, pointer)
        if who not in state.treasury:
            raise r.fail(f"{board.country_name(who)} has no treasury (payments to it go to the bank)",
                         raw_treasury, pointer)
        state.treasury[who] = r.whole_number(money, f"{who}'s treasury", raw_treasury, pointer)
    raw_cash = r.mapping(data.get("cash"), "cash (player -> money)", data, "/cash")
    for player, money in raw_cash.items():
        state.cash[str(player)] = r.whole_number(money, f"{player}'s cash", raw_cash, f"/cash/{player}")


def _read_turn(r: _Reader, state: State, data: dict, gone: str | None) -> TurnSoFar:
    raw = r.mapping(data.get("this_turn"), "this_turn (what the turn has used so far)", data, "/this_turn")
    unknown = [k for k in raw if str(k) not in _TURN_KEYS]
    if unknown:
        raise r.fail(f"unknown key {unknown[0]!r}; this_turn's keys are {', '.join(_TURN_KEYS)}", raw,
                     f"/this_turn/{unknown[0]}")
    turn = TurnSoFar()
    for key in ("ship_actions", "diplomacy", "acted"):
        countries = raw.get(key) or []
        if not isinstance(countries, list):
            raise r.fail(f"this_turn's {key} is a list of countries", raw, f"/this_turn/{key}")
        for i, value in enumerate(countries):
            country = r.country(value, countries, f"/this_turn/{key}/{i}")
            if country == gone:
                raise r.fail("Norway has joined the EU: it takes no action", countries, f"/this_turn/{key}/{i}")
            getattr(turn, key).add(country)
    decisions = r.mapping(raw.get("decisions"), "decisions (sector -> keep or abandon)", raw, "/this_turn/decisions")
    for key, word in decisions.items():
        pointer = f"/this_turn/decisions/{key}"
        sector = r.sector(key, decisions, pointer)
        if sector not in state.platforms:
            raise r.fail(f"no platform in {r.board.sector_name(sector)}: a decision is for a platform", decisions,
                         pointer)
        if word not in _DECISIONS:
            raise r.fail(f"a decision is keep or abandon, not {word!r}", decisions, pointer)
        turn.decisions[sector] = _DECISIONS[word]
    return turn


# --- writing ---------------------------------------------------------------------------------------------

def supply(board: Board, state: State) -> dict[str, int]:
    """Ships beside the board, per country."""
    on_board = {c: 0 for c in board.countries}
    for by_country in state.ships.values():
        for c, n in by_country.items():
            on_board[c] += n
    return {c: board.countries[c].ships - n for c, n in on_board.items()
            if c in active_countries(board, state)}


def state_to_data(board: Board, state: State) -> dict[str, Any]:
    """The state as plain data, in a fixed order (board order for sectors, file order for countries)."""
    countries = list(board.countries)
    platforms = []
    for sector in board.sectors:
        p = state.platforms.get(sector)
        if p is not None:
            entry: dict[str, Any] = {"sector": sector, "owner": p.owner, "legal": p.legal}
            if p.protected_by:
                entry["protected_by"] = p.protected_by
                entry["protected_since"] = {"turn": p.protected_since, "phase": PROTECTION_PHASE}
            platforms.append(entry)
    return {
        "turn": state.turn,
        "law": state.law,
        "ended": state.ended,
        "council": {c: state.council[c] for c in countries if c in state.council},
        "conflicts": {c: state.conflicts[c] for c in countries if c in state.conflicts},
        "norway_eu_support": state.norway_eu_support,
        "norway_in_eu": state.norway_in_eu,
        "control": {s: state.control.get(s) for s in non_coastal(board)},
        "ships": {s: {c: state.ships[s][c] for c in countries if state.ships[s].get(c)}
                  for s in board.sectors if any(state.ships.get(s, {}).values())},
        "supply": supply(board, state),
        "platforms": platforms,
        "treasury": {c: state.treasury[c] for c in countries if c in state.treasury},
        "cash": {p: state.cash[p] for p in sorted(state.cash)},
        **({"this_turn": turn} if (turn := _turn_to_data(board, state)) else {}),
        "history": list(state.history),
    }


def _turn_to_data(board: Board, state: State) -> dict[str, Any]:
    """`this_turn`, countries in file order, sectors in board order, empty entries left out."""
    turn = state.this_turn
    out: dict[str, Any] = {key: [c for c in board.countries if c in getattr(turn, key)]
                           for key in ("ship_actions", "diplomacy", "acted") if getattr(turn, key)}
    decisions = {s: "keep" if turn.decisions[s] else "abandon" for s in board.sectors
                 if s in turn.decisions and s in state.platforms}
    if decisions:
        out["decisions"] = decisions
    return out
