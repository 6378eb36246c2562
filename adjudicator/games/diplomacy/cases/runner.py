"""Runs case files: builds each case's position, adjudicates it, and compares the outcome."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from adjudicator.games.diplomacy.board import ARMY, NEUTRAL, Board
from adjudicator.catalogue import board_for_file
from adjudicator.games.diplomacy.cases.datc import UNREADABLE, Case, Line, read_cases
from adjudicator.games.diplomacy.cases.jdip_names import read_order, read_place
from adjudicator.verdict import CaseOutcome
from adjudicator.errors import AdjudicatorError
from adjudicator.game import TEXT_CASES, rules_of
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.outcome import OrderResult
from adjudicator.games.diplomacy.orders.model import Move, Order
from adjudicator.games.diplomacy.phase import PhaseResult, adjudicate
from adjudicator.games.diplomacy.state import Dislodged, GameState, Phase, Unit, parse_unit_text


def _power(board: Board, line: Line, notes: list[str]) -> str:
    if board.neutral_units and line.power.strip().lower() == NEUTRAL.lower():
        return NEUTRAL  # the board's neutral units (never a power)
    try:
        power, note = board.power_names.lookup_lenient(line.power)
    except (UnknownName, AmbiguousName) as exc:
        raise AdjudicatorError(exc.message, line=line.line, suggestions=exc.suggestions) from None
    if note:
        notes.append(f"line {line.line}: {note}")
    return power


def _units(board: Board, lines: list[Line], notes: list[str], what: str) -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    for line in lines:
        try:
            unit = parse_unit_text(board, line.text, _power(board, line, notes),
                                   lambda text: read_place(board, text, notes, line.line))
        except AdjudicatorError as exc:
            raise exc.located(line=line.line) from None
        if unit.province in units:
            raise AdjudicatorError(f"two {what} units in {unit.province}", line=line.line)
        units[unit.province] = unit
    return units


def _orders(board: Board, case: Case, notes: list[str], problems: list[str]) -> list[Order]:
    """The case's orders. An order that cannot be read fails the case (a suite must not pass a case it could not
    read) unless the case expects it, with an `UNREADABLE: Power: order` line in POSTSTATE_RESULTS; such a line
    whose order was read fails it too."""
    expected = {(_power(board, line, notes), _folded(line.text)): line for line in case.get("POSTSTATE_RESULTS")
                if line.status == UNREADABLE}
    orders = []
    for line in case.get("ORDERS"):
        power = _power(board, line, notes)
        key = (power, _folded(line.text))
        try:
            order = read_order(board, line.text, notes, line.line, case.file, line.column - 1, power)
        except AdjudicatorError as exc:
            if expected.pop(key, None) is not None:
                notes.append(f"unreadable, as the case expects: {exc}")
            else:
                problems.append(f"an order could not be read: {exc} (write `UNREADABLE: {power}: {line.text}` in "
                                "POSTSTATE_RESULTS if the case means it)")
            continue
        if key in expected:
            problems.append(f"line {expected.pop(key).line}: expected unreadable, but {power}: {line.text} was read "
                            f"as {order.describe()}")
        orders.append(order)
    for (power, _), line in expected.items():
        problems.append(f"line {line.line}: the case expects {power}: {line.text} unreadable, but no such order is given")
    return orders


def _folded(text: str) -> str:
    """An order's text as compared with an UNREADABLE line: blanks and letter case do not count."""
    return " ".join(text.split()).casefold()


def _retreat_context(board: Board, case: Case, units: dict[str, Unit], dislodged: dict[str, Unit],
                     notes: list[str]) -> tuple[dict[str, Dislodged], frozenset[str]]:
    """Who dislodged whom (and whether by convoy), and standoffs, from PRESTATE_RESULTS."""
    attackers: dict[str, tuple[str | None, bool]] = {}
    failed_into: Counter[str] = Counter()
    for line in case.get("PRESTATE_RESULTS"):
        _power(board, line, notes)
        try:
            order = read_order(board, line.text, notes, line.line, case.file)
        except AdjudicatorError as exc:  # who dislodged whom is the case's position: it cannot be run without
            raise exc.located(file=exc.file or case.file, line=line.line) from None
        if not isinstance(order, Move):
            continue
        origin = order.unit.province
        by_convoy = order.via_convoy or (order.unit.type == ARMY and not any(
            board.can_move(ARMY, origin, order.dest, s) for s in board.seasons))
        if line.status == "SUCCESS":
            attackers[order.dest] = (origin, by_convoy)
        else:
            failed_into[order.dest] += 1
    result = {}
    for province, unit in dislodged.items():
        came_from, by_convoy = attackers.get(province, (None, False))
        result[province] = Dislodged(unit, came_from, by_convoy)
    contested = frozenset(p for p, n in failed_into.items() if n >= 2 and p not in units and p not in attackers)
    return result, contested


def build_state(board: Board, case: Case, notes: list[str]) -> GameState:
    """The position a case starts from."""
    if case.setphase:
        season, year, kind = case.setphase
    else:
        season, year, kind = board.start_phase
    try:
        phase = Phase(board.season_key(season), year, kind)
    except AdjudicatorError as exc:
        raise exc.located(line=case.lines.get("PRESTATE_SETPHASE")) from None
    problem = board.year_problem(phase.season, year, kind)
    if problem:
        raise AdjudicatorError(problem, line=case.lines.get("PRESTATE_SETPHASE"))
    units = _units(board, case.get("PRESTATE"), notes, "")
    if case.has("PRESTATE_SUPPLYCENTER_OWNERS"):
        owners = dict(_owners(board, case.get("PRESTATE_SUPPLYCENTER_OWNERS"), notes))
    else:
        owners = board.initial_owners()
    state = GameState(board.name, phase, units, owners)
    if kind == "Retreat":
        dislodged = _units(board, case.get("PRESTATE_DISLODGED"), notes, "dislodged")
        state.dislodged, state.contested = _retreat_context(board, case, units, dislodged, notes)
    return state


def _owners(board: Board, lines: list[Line], notes: list[str]) -> list[tuple[str, str]]:
    """(centre, power) of each owners line: `Russia: war`, `Russia: A war`, `Russia: St Petersburg`."""
    owned = []
    for line in lines:
        power = _power(board, line, notes)
        text = line.text if line.text.split()[0].upper() in ("A", "F", "ARMY", "FLEET") else f"A {line.text}"
        try:
            place = parse_unit_text(board, text, power, lambda name: read_place(board, name, notes, line.line))
        except AdjudicatorError as exc:
            raise exc.located(line=line.line) from None
        if not board.provinces[place.province].centre:
            raise AdjudicatorError(f"{board.provinces[place.province].name} is not a supply centre", line=line.line)
        owned.append((place.province, power))
    return owned


@dataclass
class _Expected:
    """What a case expects after its phase, read (and so checked) before the phase is judged."""

    units: Counter[str]
    dislodged: Counter[str]
    owners: Counter[str] | None
    phase: Phase | None
    winner: str | None  # a power, "none", or None when the case does not say
    results: list[tuple[Line, str, Order]]


def _expected(board: Board, case: Case, state: GameState, notes: list[str]) -> _Expected:
    """The case's POSTSTATE sections; an AdjudicatorError at the line that cannot be read."""
    if case.same:
        units, dislodged = _fmt(state.units.values()), Counter[str]()
    else:
        units = _fmt(_units(board, case.get("POSTSTATE"), notes, "expected").values())
        dislodged = _fmt(_units(board, case.get("POSTSTATE_DISLODGED"), notes, "expected dislodged").values())
    owners = None
    if case.has("POSTSTATE_SUPPLYCENTER_OWNERS"):
        owners = Counter(f"{o}: {p}" for p, o in _owners(board, case.get("POSTSTATE_SUPPLYCENTER_OWNERS"), notes))
    phase = None
    if case.expected_phase:
        season, year, kind = case.expected_phase
        try:
            phase = Phase(board.season_key(season), year, kind)
        except AdjudicatorError as exc:
            raise exc.located(line=case.lines.get("POSTSTATE_SETPHASE")) from None
    winner = case.expected_winner
    if winner is not None and winner.lower() != "none":
        winner = _power(board, Line(winner, "", case.lines.get("POSTSTATE_WINNER", case.line)), notes)
    results = [(line, _power(board, line, notes), read_order(board, line.text, notes, line.line, case.file))
               for line in case.get("POSTSTATE_RESULTS") if line.status != UNREADABLE]  # (checked as orders are read)
    return _Expected(units, dislodged, owners, phase, winner, results)


def _fmt(units: Iterable[Unit]) -> Counter[str]:
    return Counter(f"{u.power}: {u.type} {u.location}" for u in units)


def _compare(label: str, expected: Counter[str], actual: Counter[str], problems: list[str]) -> None:
    if expected == actual:
        return
    missing = sorted((expected - actual).elements())
    extra = sorted((actual - expected).elements())
    lines = [f"{label} differs:"]
    lines += [f"    expected, not found: {x}" for x in missing]
    lines += [f"    found, not expected: {x}" for x in extra]
    lines.append(f"    expected: {', '.join(sorted(expected.elements())) or '(none)'}")
    lines.append(f"    actual:   {', '.join(sorted(actual.elements())) or '(none)'}")
    problems.append("\n".join(lines))


def run_case(case: Case, boards: dict[str, Board] | None = None, rules: str | None = None) -> CaseOutcome:
    """Adjudicate one case and compare it with its expected position (`boards`: boards at hand by lower-case
    name, such as a request's inline board, used before the shipped ones and files; `rules`: rule options
    for every case, under the file's and the case's RULES lines)."""
    notes: list[str] = []
    try:
        board = (boards or {}).get(case.variant.strip().lower()) or board_for_file(case.variant, case.file)
        if TEXT_CASES not in rules_of(board).capabilities:
            return CaseOutcome(case, False, [f"{board.title} cases are written as YAML case files"], notes)
        state = build_state(board, case, notes)
        state.set_rules(board, rules, *case.rules)
        problems: list[str] = []
        orders = _orders(board, case, notes, problems)
        expected = _expected(board, case, state, notes)  # a case whose expectations cannot be read fails alone
        result = adjudicate(board, state, orders)
    except AdjudicatorError as exc:
        where = exc.located(file=exc.file or case.file)
        return CaseOutcome(case, False, [f"cannot run the case: {where}"], notes)

    nxt = result.next_state
    _compare("units", expected.units, _fmt(nxt.units.values()), problems)
    if state.phase.type == "Movement":
        _compare("dislodged units", expected.dislodged, _fmt(d.unit for d in result.dislodged), problems)
    if expected.owners is not None:
        _compare("centre owners", expected.owners, Counter(f"{o}: {p}" for p, o in nxt.owners.items()), problems)
    if expected.phase is not None and nxt.phase != expected.phase:
        problems.append(f"next phase differs: expected {expected.phase}, got {nxt.phase}")
    if expected.winner is not None:
        want_winner = None if expected.winner.lower() == "none" else expected.winner
        if (result.winner or None) != want_winner:
            problems.append(f"winner differs: expected {want_winner}, got {result.winner}")
    if expected.results:
        _check_results(expected.results, result, problems)
    return CaseOutcome(case, not problems, problems, notes, result)


def _check_results(expected: list[tuple[Line, str, Order]], result: PhaseResult, problems: list[str]) -> None:
    """Each expected `SUCCESS:`/`FAILURE:` line must match the outcome of the same order."""
    outcomes: dict[tuple[str | None, str], OrderResult] = {}
    for r in result.report:
        if r.order is not None and r.applied:
            outcomes[(r.power, r.order.describe())] = r
    for line, power, order in expected:
        key = (power, order.describe())
        found = outcomes.get(key)
        if found is None:
            problems.append(f"line {line.line}: no executed order {power}: {order.describe()}")
            continue
        r = found
        ok = r.status == "succeeds"
        if ok != (line.status == "SUCCESS"):
            problems.append(f"line {line.line}: {power}: {order.describe()} expected {line.status}, got {r.status} ({r.reason})")


def run_text_cases(path: str | Path, rules: str | None = None) -> list[CaseOutcome]:
    """Every case of a DATC plain-text case file."""
    return [run_case(c, rules=rules) for c in read_cases(path)]
