"""Issue 35, finding 4: a hosted submission is checked, not judged (`GameRules.line_statuses`).

The statuses a seat sees on arrival are what they were when each submission ran a whole adjudication of the
seat's orders (every other unit without orders) and dug each line's status out of the report: the oracle
below is that derivation, kept here to hold the check to it, at every kind of phase, on two boards, under rule
options that change refusals and voids, for orders of every kind (legal, another power's, garbage).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.helpers import ROOT

from adjudicator.arrival import GM, LinesRefused
from adjudicator.catalogue import load_variant
from adjudicator.game import rules_of
from adjudicator.games.diplomacy.judge import movement
from adjudicator.hosted.orders import read_orders
from adjudicator.turn import play_turn

DATA = ROOT / "tests" / "data"
_REFUSED = {"illegal", "void", "ignored"}


def oracle(board: Any, state: Any, power: str, lines: list[str]) -> list[dict[str, Any]] | str:
    """The statuses as a whole adjudication of the seat's orders alone gave them (the refusal's reason when the
    lines are refused as a whole)."""
    rules = rules_of(board)
    state = rules.submission_state(board, state, power) if power != GM else state
    sheet = read_orders(board, state, {power: lines})
    if sheet.refusal:
        return sheet.refusal
    problems = {p.line: p for p in sheet.problems}
    read = {getattr(o, "line", None): o for o in sheet.orders}
    report = play_turn(board, state, sheet).report_json() if sheet.orders else {"orders": []}
    entries: dict[int, list[dict[str, Any]]] = {}
    for entry in report.get("orders", []):
        if entry.get("line") and (entry.get("power") in (power, None) if power != GM else True):
            entries.setdefault(int(entry["line"]), []).append(entry)
    statuses = []
    for number, text in enumerate(lines, 1):
        status: dict[str, Any] = {"line": number, "order": text}
        if number in problems:
            p = problems[number]
            status.update(status="unreadable", reason=p.reason, column=p.column, suggestions=list(p.suggestions))
        else:
            found = entries.get(number, [])
            bad = next((e for e in found if e.get("status") in _REFUSED), None)
            if bad is not None and bad["status"] == "void" and not rules.void_known_on_arrival(
                    board, state, power, read.get(number)):
                bad = None
            if bad is not None:
                status.update(status=bad["status"], reason=bad.get("reason", ""))
            else:
                status["status"] = "ok"
            understood = next((e.get("understood_as") for e in found if e.get("understood_as")), None)
            if understood:
                status["understood_as"] = understood
        statuses.append(status)
    return statuses


def checked(board: Any, state: Any, power: str, lines: list[str]) -> list[dict[str, Any]] | str:
    try:
        return [s.to_json() for s in rules_of(board).line_statuses(board, state, power, lines)]
    except LinesRefused as exc:
        return exc.reason


def positions(variant: str, folder: str) -> list[tuple[Any, Any, dict[str, list[str]]]]:
    """(board, state, each power's recorded orders) at every phase of a recorded year."""
    board = load_variant(variant)
    rules = rules_of(board)
    state = rules.initial_state(board)
    out = []
    for path in sorted((DATA / folder).glob("*.txt")):
        sheet = rules.read_sheet(board, state, path.read_text())
        recorded: dict[str, list[str]] = {}
        for o in sheet.orders:
            recorded.setdefault(o.power, []).append(o.text or o.describe())
        out.append((board, state, recorded))
        state = play_turn(board, state, sheet).next_state
    return out


GARBAGE = ["hello", "A xyz - abc", "F lon - nth; A lyv - yor", "build A par", "waive", "A par D", "F nth C A yor - bel",
           "A yor - bel via convoy", "F eng C A lon - bre", "A bur S A par", "remove F bre", "F bre - mao/nc",
           "A lon H"]


def submissions(board: Any, state: Any, recorded: dict[str, list[str]], rng: random.Random,
                count: int) -> list[tuple[str, list[str]]]:
    """Each power's recorded orders, and `count` random ones: legal orders of any power's units, mixed with the
    recorded and garbage, repeated and shuffled."""
    rules = rules_of(board)
    legal = rules.legal_orders(board, state, None)["powers"]
    pool = [o for units in legal.values() for options in units.values() for o in
            (options if isinstance(options, list) else [])] + [o for lines in recorded.values() for o in lines]
    pool += GARBAGE
    out = [(p, lines) for p, lines in recorded.items()]
    for _ in range(count):
        power = rng.choice(list(board.powers))
        own = [o for options in legal.get(power, {}).values() if isinstance(options, list) for o in options]
        lines = [rng.choice(own or pool) if rng.random() < 0.7 else rng.choice(pool) for _ in range(rng.randint(1, 8))]
        out.append((power, lines))
    return out


RULE_TEXTS = [None, "4.D.3: first", "4.D.3: last", "4.A.3: 2000-fallback", "4.A.3: 1971", "1971", "1982",
              "4.B.6: fails, 4.B.5: fails", "4.C.1: invalid, 4.C.2: invalid, 4.B.3: other-coast",
              "4.D.9: fails, 4.B.4: coast-required", "4.A.6: required, 4.A.1: one-route, 4.D.4: none, 4.D.5: last"]


@pytest.mark.parametrize("variant,folder", [("standard", "standard_year"), ("arctic", "arctic_year")])
@pytest.mark.parametrize("rules_text", RULE_TEXTS)
def test_the_check_gives_the_statuses_a_whole_adjudication_gave(variant, folder, rules_text):
    rng = random.Random(f"{variant}{rules_text}")
    for board, state, recorded in positions(variant, folder):
        state = state.copy()
        if rules_text is not None:
            try:
                rules_of(board).play_by(board, state, rules_text)
            except Exception as exc:  # an option text this board does not take: told, not skipped silently
                pytest.fail(f"{rules_text!r}: {exc}")
        for power, lines in submissions(board, state, recorded, rng, 60):
            assert checked(board, state, power, lines) == oracle(board, state, power, lines), (str(state.phase),
                                                                                              power, lines)


def test_a_convoy_whose_army_falls_back_to_land_is_void_on_arrival():
    """Under 2000-fallback an army ordered by convoy to a neighbour whose own convoy cannot carry it (the fleet
    in the North Atlantic alone does not reach Edinburgh: the one in the Norwegian Sea is not ordered) moves by
    land: the fleet's convoy is then void, known from the power's own orders; at the default rules the army
    waits for its convoy, which may not be void."""
    board = load_variant("standard")
    rules = rules_of(board)
    data = rules.state_to_data(board, rules.initial_state(board))
    data["units"]["England"] = ["A lvp", "F nat", "F nwg"]
    lines = ["A lvp - edi via convoy", "F nat C A lvp - edi"]
    for option, status in (("4.A.3: 2000-fallback", "void"), (None, "ok")):
        state = rules.state_from_data(board, data, None)
        rules.play_by(board, state, option)
        got = checked(board, state, "England", lines)
        assert got == oracle(board, state, "England", lines)
        assert got[1]["status"] == status, got
        if status == "void":
            assert got[1]["reason"] == "void: the army in lvp was not ordered to move to edi by convoy"


def test_a_submission_is_not_judged(monkeypatch):
    """The check never runs the movement judge at the default rules (it would have to, to learn the statuses
    from a report)."""
    board = load_variant("standard")
    state = rules_of(board).initial_state(board)

    def refuse(*args, **kwargs):
        raise AssertionError("the board was judged")

    monkeypatch.setattr(movement.MovementJudge, "run", refuse)
    got = checked(board, state, "France", ["A par - bur", "A mar S A par - bur", "F bre S A par - pic", "F xyz - bre"])
    assert [s["status"] for s in got] == ["ok", "ok", "void", "unreadable"]
