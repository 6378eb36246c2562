"""YAML case files for the other games: the DATC sections (prestate, orders, poststate) as YAML.

```yaml
variant: arctic2019
rules: "1971"                  # optional (Diplomacy boards): rule options for every case; a case may add its own
cases:
  - name: a ship may not move twice
    prestate: {...}            # the state, as the game file writes it (omitted: the game's initial state)
    orders: |
      USA: move 1 ship from A to B; move 1 ship from B to C
    poststate: {...}           # the expected state; only the keys given are compared (null: must be absent)
    problems:                  # optional: lines the sheet reader reports instead of reading (none by default)
      - {line: 2, reason: not a sector}
    refusal: another phase     # optional, instead of poststate: the sheet is refused whole, the reason says this
    results:                   # optional: expected outcome of each report line, in order
      - {status: succeeds}
      - {status: illegal, reason: moved twice}     # reason: a part of the reason text
```
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.verdict import CaseOutcome
from adjudicator.catalogue import board_for_file
from adjudicator.errors import AdjudicatorError, CaseFileError
from adjudicator.game import RULE_OPTIONS, rules_of
from adjudicator.yamlio import line_of, load_yaml_file, plain


@dataclass
class GameCase:
    """One YAML case."""

    name: str
    variant: str
    file: str
    line: int | None
    orders: str
    prestate: dict[str, Any] | None = None
    poststate: dict[str, Any] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)  # expected unreadable lines: {line, reason}
    refusal: str | None = None  # expected: the sheet is refused as a whole, with a reason holding this text
    rules: tuple[str, ...] = ()  # rule options (Diplomacy boards): the file's `rules:`, then the case's


def read_yaml_cases(path: str | Path) -> list[GameCase]:
    """The cases of a YAML case file; a malformed file gives a CaseFileError with its line."""
    path = str(path)
    data = load_yaml_file(path)
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise CaseFileError("a YAML case file needs `variant` and a list of `cases`", file=path, line=line_of(data))
    variant = str(data.get("variant", ""))
    file_rules = () if data.get("rules") is None else (str(data["rules"]),)
    cases = []
    for entry in data["cases"]:
        if not isinstance(entry, dict) or "name" not in entry:
            raise CaseFileError("each case needs a `name`", file=path, line=line_of(entry))
        orders = entry.get("orders", "")
        if isinstance(orders, list):
            orders = "\n".join(str(o) for o in orders)
        cases.append(GameCase(str(entry["name"]), str(entry.get("variant", variant)), path, line_of(entry),
                              str(orders or ""), entry.get("prestate"), entry.get("poststate") or {},
                              list(entry.get("results") or []), list(entry.get("problems") or []),
                              None if entry.get("refusal") is None else str(entry["refusal"]),
                              file_rules + (() if entry.get("rules") is None else (str(entry["rules"]),))))
    return cases


def _differences(expected: Any, actual: Any, where: str) -> list[str]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key, value in expected.items():
            if key not in actual:
                if value is not None:  # an expected null means "absent"
                    out.append(f"{where}/{key}: expected {value!r}, missing")
            else:
                out += _differences(value, actual[key], f"{where}/{key}")
        return out
    if plain(expected) != plain(actual):
        return [f"{where or '/'}: expected {plain(expected)!r}, got {plain(actual)!r}"]
    return []


def _refusal_outcome(case: GameCase, sheet: Any) -> CaseOutcome:
    """A case whose sheet is, or is expected to be, refused whole (orders for another phase)."""
    if case.refusal is None:
        return CaseOutcome(case, False, [f"cannot run the case: {case.file}: the sheet is refused: {sheet.refusal}"])
    if not sheet.refusal:
        return CaseOutcome(case, False, [f"expected the sheet to be refused ({case.refusal!r}), but it was read"])
    if case.refusal.lower() not in sheet.refusal.lower():
        return CaseOutcome(case, False, [f"refusal {sheet.refusal!r} does not mention {case.refusal!r}"])
    return CaseOutcome(case, True, [])


def _sheet_differences(case: GameCase, sheet: Any) -> list[str]:
    """The sheet's unreadable lines against the case's `problems:` (none expected when it has none)."""
    out = []
    for i, got in enumerate(sheet.problems):
        want = case.problems[i] if i < len(case.problems) else None
        if want is None:
            out.append(f"orders line {got.line}: not read: {got.reason}")
        elif ("line" in want and int(want["line"]) != got.line) or \
                ("reason" in want and str(want["reason"]).lower() not in got.reason.lower()):
            out.append(f"orders problem {i + 1}: expected {plain(want)}, got line {got.line}: {got.reason}")
    for want in case.problems[len(sheet.problems):]:
        out.append(f"expected an unreadable line {plain(want)}, but the sheet was read")
    return out


def run_game_case(case: GameCase, rules_text: str | None = None) -> CaseOutcome:
    """Run a YAML case through its game's rules and compare the outcome (`rules_text`: rule options for every
    case of a Diplomacy board, under the file's and the case's `rules:`)."""
    try:
        board = board_for_file(case.variant, case.file)
        rules = rules_of(board)
        state = rules.initial_state(board) if case.prestate is None else \
            rules.state_from_data(board, case.prestate, case.file)
        given = (rules_text,) if RULE_OPTIONS in rules.capabilities else ()  # (--rules: for the games that have them)
        rules.play_by(board, state, *given, *case.rules)
        sheet = rules.read_sheet(board, state, case.orders, case.file)
        if case.refusal is not None or sheet.refusal:
            return _refusal_outcome(case, sheet)
        result = rules.adjudicate(board, state, sheet)
    except AdjudicatorError as exc:
        return CaseOutcome(case, False, [f"cannot run the case: {exc.located(file=exc.file or case.file)}"])
    problems = _sheet_differences(case, sheet)
    problems += _differences(case.poststate, rules.state_to_data(board, result.next_state), "")
    for i, want in enumerate(case.results):
        if i >= len(result.report):
            problems.append(f"result {i + 1}: expected {want}, but there are only {len(result.report)} report lines")
            continue
        got = result.report[i]
        if "status" in want and str(want["status"]) != got.status:
            problems.append(f"result {i + 1} ({got.text}): expected {want['status']}, got {got.status} ({got.reason})")
        if "reason" in want and str(want["reason"]).lower() not in got.reason.lower():
            problems.append(f"result {i + 1} ({got.text}): reason {got.reason!r} does not mention {want['reason']!r}")
    return CaseOutcome(case, not problems, problems, [], result)
