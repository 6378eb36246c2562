"""Runs case files: builds each case's position, adjudicates it, and compares the outcome."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Iterable

from adjudicator.board import ARMY, NEUTRAL, Board
from adjudicator.catalogue import board_for_file
from adjudicator.cases.datc import Case, Line, read_cases
from adjudicator.cases.verdict import CaseOutcome
from adjudicator.errors import AdjudicatorError
from adjudicator.games import TEXT_CASES, rules_of
from adjudicator.games.cases import read_yaml_cases, run_game_case
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.orders.model import Order
from adjudicator.orders.parse import parse_order
from adjudicator.phase import PhaseResult, adjudicate
from adjudicator.state import Dislodged, GameState, Phase, Unit, parse_unit_text


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
            unit = parse_unit_text(board, line.text, _power(board, line, notes))
        except AdjudicatorError as exc:
            raise exc.located(line=line.line) from None
        if unit.province in units:
            raise AdjudicatorError(f"two {what} units in {unit.province}", line=line.line)
        units[unit.province] = unit
    return units


def _orders(board: Board, lines: list[Line], notes: list[str], file: str) -> list[Order]:
    orders = []
    for line in lines:
        power = _power(board, line, notes)
        try:
            order = parse_order(board, line.text, line=line.line, file=file, column_offset=line.column - 1, power=power)
        except AdjudicatorError as exc:
            notes.append(f"unreadable order ignored: {exc}")
            continue
        orders.append(order)
    return orders


def _retreat_context(board: Board, case: Case, units: dict[str, Unit], dislodged: dict[str, Unit],
                     notes: list[str]) -> tuple[dict[str, Dislodged], frozenset[str]]:
    """Who dislodged whom (and whether by convoy), and standoffs, from PRESTATE_RESULTS."""
    attackers: dict[str, tuple[str, bool]] = {}
    failed_into: Counter[str] = Counter()
    for line in case.get("PRESTATE_RESULTS"):
        _power(board, line, notes)
        try:
            order = parse_order(board, line.text, line=line.line, file=case.file)
        except AdjudicatorError as exc:
            notes.append(f"unreadable result ignored: {exc}")
            continue
        if order.kind != "move":
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
        origin, by_convoy = attackers.get(province, (None, False))
        result[province] = Dislodged(unit, origin, by_convoy)
    contested = frozenset(p for p, n in failed_into.items() if n >= 2 and p not in units and p not in attackers)
    return result, contested


def build_state(board: Board, case: Case, notes: list[str]) -> GameState:
    """The position a case starts from."""
    if case.setphase:
        season, year, kind = case.setphase
    else:
        season, year, kind = board.start_phase
    phase = Phase(board.season_key(season), year, kind)
    units = _units(board, case.get("PRESTATE"), notes, "")
    if case.has("PRESTATE_SUPPLYCENTER_OWNERS"):
        owners = {}
        for line in case.get("PRESTATE_SUPPLYCENTER_OWNERS"):
            power = _power(board, line, notes)
            text = line.text if line.text.split()[0].upper() in ("A", "F", "ARMY", "FLEET") else f"A {line.text}"
            province = parse_unit_text(board, text.split("/")[0], power).province
            owners[province] = power
    else:
        owners = board.initial_owners()
    state = GameState(board.name, phase, units, owners)
    if kind == "Retreat":
        dislodged = _units(board, case.get("PRESTATE_DISLODGED"), notes, "dislodged")
        state.dislodged, state.contested = _retreat_context(board, case, units, dislodged, notes)
    return state


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
        orders = _orders(board, case.get("ORDERS"), notes, case.file)
        result = adjudicate(board, state, orders)
    except AdjudicatorError as exc:
        where = exc.located(file=exc.file or case.file)
        return CaseOutcome(case, False, [f"cannot run the case: {where}"], notes)

    problems: list[str] = []
    nxt = result.next_state
    if case.same:
        expected_units = _fmt(state.units.values())
        expected_dislodged: Counter[str] = Counter()
    else:
        expected_units = _fmt(_units(board, case.get("POSTSTATE"), notes, "expected").values())
        expected_dislodged = _fmt(_units(board, case.get("POSTSTATE_DISLODGED"), notes, "expected dislodged").values())
    _compare("units", expected_units, _fmt(nxt.units.values()), problems)
    if state.phase.type == "Movement":
        _compare("dislodged units", expected_dislodged, _fmt(d.unit for d in result.dislodged), problems)
    if case.has("POSTSTATE_SUPPLYCENTER_OWNERS"):
        expected_owners = Counter(f"{_power(board, l, notes)}: {board.names.lookup(l.text.split()[-1].split('/')[0])}"
                                  for l in case.get("POSTSTATE_SUPPLYCENTER_OWNERS"))
        _compare("centre owners", expected_owners, Counter(f"{o}: {p}" for p, o in nxt.owners.items()), problems)
    if case.expected_phase:
        season, year, kind = case.expected_phase
        want = Phase(board.season_key(season), year, kind)
        if nxt.phase != want:
            problems.append(f"next phase differs: expected {want}, got {nxt.phase}")
    if case.expected_winner is not None:
        want_winner = None if case.expected_winner.lower() == "none" else case.expected_winner
        if (result.winner or None) != want_winner:
            problems.append(f"winner differs: expected {want_winner}, got {result.winner}")
    if case.has("POSTSTATE_RESULTS"):
        _check_results(board, case, result, notes, problems)
    return CaseOutcome(case, not problems, problems, notes, result)


def _check_results(board: Board, case: Case, result: PhaseResult, notes: list[str], problems: list[str]) -> None:
    """Each expected `SUCCESS:`/`FAILURE:` line must match the outcome of the same order."""
    outcomes = {}
    for r in result.report:
        if r.order is not None and r.applied:
            outcomes[(r.power, r.order.describe())] = r
    for line in case.get("POSTSTATE_RESULTS"):
        power = _power(board, line, notes)
        order = parse_order(board, line.text, line=line.line, file=case.file)
        key = (power, order.describe())
        r = outcomes.get(key)
        if r is None:
            problems.append(f"line {line.line}: no executed order {power}: {order.describe()}")
            continue
        ok = r.status == "succeeds"
        if ok != (line.status == "SUCCESS"):
            problems.append(f"line {line.line}: {power}: {order.describe()} expected {line.status}, got {r.status} ({r.reason})")


def collect_files(paths: Iterable[str | Path]) -> list[Path]:
    """Case files named, or found in folders (`*.txt` and `*.yaml`, recursively)."""
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():  # in a folder, only files that look like case files (a folder may hold other texts)
            files += sorted(x for x in p.rglob("*") if x.is_file() and _looks_like_cases(x))
        else:
            files.append(p)
    return files


def _looks_like_cases(path: Path) -> bool:
    if path.suffix not in (".txt", ".yaml", ".yml"):
        return False
    try:
        head = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True  # let the reader report it
    if path.suffix == ".txt":
        return any(line.startswith(("CASE ", "VARIANT_ALL")) for line in head.splitlines())
    return "cases:" in head


def run_files(paths: Iterable[str | Path], rules: str | None = None) -> tuple[list[CaseOutcome], list[AdjudicatorError]]:
    """Run every case of every file (`rules`: rule options for every case, under what the files say); files that
    cannot be read are returned as errors."""
    outcomes: list[CaseOutcome] = []
    errors: list[AdjudicatorError] = []
    for path in collect_files(paths):
        if not path.exists():
            errors.append(AdjudicatorError("no such file or folder", file=str(path)))
            continue
        try:
            if path.suffix in (".yaml", ".yml"):
                outcomes += [run_game_case(c, rules) for c in read_yaml_cases(path)]
            else:
                outcomes += [run_case(c, rules=rules) for c in read_cases(path)]
        except AdjudicatorError as exc:
            errors.append(exc)
    return outcomes, errors
