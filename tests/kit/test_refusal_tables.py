"""Issue 35, finding 6: one refusal vocabulary. Every kind of refusal has exactly one HTTP status (api/problems.py)
and one exit status (cli.py), a kind added without them fails here; the hosted service names kinds, never HTTP
numbers; every refusal class of the engine, the games and the service is of a kind the tables know; one sheet
policy and one board-and-position loader, as the API and the hosted service answer them."""

from __future__ import annotations

import ast
import enum
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import adjudicator
from adjudicator.cli import EXIT_STATUS
from adjudicator.errors import AdjudicatorError, OrderError, StateError
from adjudicator.games.arctic2019.context import Refused as Arctic2019Refused
from adjudicator.games.arctic_race.movement import Refused as RaceRefused
from adjudicator.games.arctica.refusals import Refused as ArcticaRefused
from adjudicator.hosted.errors import HostedError
from adjudicator.loading import board_of, named_board, position_of
from adjudicator.refusals import Kind, Refusal, Refused, StepRefused
from adjudicator.sheets import Sheet, SheetProblem
from adjudicator.turn import SheetRefused, check_sheet, sheet_refusal
from api.problems import STATUS
from tests.helpers import ROOT



def unmapped(kinds: type[enum.Enum], table: dict) -> set:
    """The kinds a table has no status for, and the keys it has that are no kind."""
    return set(kinds) ^ set(table)


@pytest.mark.parametrize("table", [STATUS, EXIT_STATUS], ids=["http", "exit"])
def test_every_kind_has_exactly_one_status_in_each_table(table):
    assert unmapped(Kind, table) == set()
    assert all(isinstance(status, int) for status in table.values())


def test_a_kind_added_without_a_status_fails():
    grown = enum.Enum("Kind", [(k.name, k.value) for k in Kind] + [("NEW", "new")])  # Kind with one more
    for table in (STATUS, EXIT_STATUS):
        assert {k.name for k in unmapped(grown, {grown[k.name]: v for k, v in table.items()})} == {"NEW"}


def test_http_statuses_are_refusals_and_exit_statuses_say_not_done():
    assert all(400 <= s < 600 and s != 500 for s in STATUS.values())  # a 500 is never a refusal
    assert set(EXIT_STATUS.values()) == {2}  # 0 done, 1 done and found failures: neither is a refusal


def _refusal_classes() -> set[type]:
    for info in pkgutil.walk_packages(adjudicator.__path__, "adjudicator."):
        if info.name.endswith("__main__") or "migrations" in info.name:
            continue
        try:
            importlib.import_module(info.name)
        except ImportError:  # (an optional extra not installed)
            continue
    found, stack = set(), [Refusal]
    while stack:
        cls = stack.pop()
        found.add(cls)
        stack.extend(cls.__subclasses__())
    return found


def test_every_refusal_class_has_a_kind_both_tables_know():
    classes = _refusal_classes()
    assert {AdjudicatorError, SheetRefused, ArcticaRefused, Arctic2019Refused, RaceRefused} <= classes
    for cls in classes - {Refused, HostedError}:  # (a worded refusal's kind is the instance's)
        assert cls.kind in STATUS and cls.kind in EXIT_STATUS, cls


def test_the_games_step_refusals_are_one_kind():
    for refused in (ArcticaRefused("AR-1", "why"), Arctic2019Refused("code", "why", where="x"),
                    RaceRefused("bad-input", "why")):
        assert isinstance(refused, StepRefused) and refused.kind is Kind.REFUSED
        assert (refused.code, refused.message, str(refused)) == (refused.code, "why", "why")


def test_the_hosted_service_names_kinds_not_http_statuses():
    for path in [*(ROOT / "adjudicator/hosted").rglob("*.py"), ROOT / "adjudicator/loading.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("HostedError", "Refused"):
                assert node.args and not isinstance(node.args[0], ast.Constant), (path.name, node.lineno)
    assert re.search(r"\b[1-5]\d\d\b", (ROOT / "adjudicator/refusals.py").read_text()) is None  # nor does the kit


# --- the one sheet policy -----------------------------------------------------------------------------------

def _sheet(refusal: str | None = None, problems: int = 0) -> Sheet:
    return Sheet(orders=["order"], refusal=refusal,
                 problems=[SheetProblem(i + 2, 3, "A Xyz H", "unknown place", ["Yor"]) for i in range(problems)])


def test_the_sheet_policy_refuses_whole_a_sheet_the_game_refuses_lenient_or_not():
    for strict in (False, True):
        refused = sheet_refusal(_sheet("these are build orders; the game is at Spring 1901 movement", 1), strict)
        assert refused is not None and refused.whole and refused.kind is Kind.REFUSED
        assert refused.message.startswith("these are build orders")


def test_the_sheet_policy_reports_bad_lines_one_by_one_unless_strict():
    assert sheet_refusal(_sheet(problems=2), strict=False) is None
    refused = sheet_refusal(_sheet(problems=2), strict=True, file="orders.txt")
    assert refused is not None and not refused.whole and len(refused.problems) == 2
    assert str(refused) == ("orders.txt:2:3: 2 line(s) of the sheet are not orders (strict); first: unknown place; "
                            "did you mean 'Yor'?")
    with pytest.raises(SheetRefused):
        check_sheet(_sheet(problems=1), strict=True)
    check_sheet(_sheet(), strict=True)


# --- the one board and position loader ----------------------------------------------------------------------

def test_the_loader_refuses_an_unknown_variant_as_not_found_located_or_short():
    with pytest.raises(Refused) as located:
        named_board("standrd")
    assert located.value.kind is Kind.NOT_FOUND and located.value.title == "Unknown variant"
    assert located.value.extra["pointer"] == "/variant" and "standard" in located.value.extra["suggestions"]
    assert located.value.detail.endswith("; did you mean 'standard'?")
    with pytest.raises(Refused) as short:  # the hosted service's answer: the message and the pointer alone
        board_of("standrd", None, located=False)
    assert short.value.extra == {"pointer": "/variant"} and "did you mean" not in short.value.detail


def test_the_loader_refuses_an_inline_board_and_a_state_that_breaks_the_rules():
    with pytest.raises(Refused) as bad_board:
        board_of("", ["not", "a", "board"], "/state")
    assert (bad_board.value.kind, bad_board.value.title, bad_board.value.extra["pointer"]) == (
        Kind.REFUSED, "Board refused", "/state/board")
    board = named_board("standard")
    with pytest.raises(Refused) as bad_state:
        position_of(board, {"variant": "standard", "phase": {"season": "Spring", "year": 1901, "type": "Movement"},
                            "units": {"France": ["A Nowhere"]}})
    assert bad_state.value.kind is Kind.REFUSED and bad_state.value.title == "State breaks the rules"
    assert bad_state.value.extra["pointer"].startswith("/state")


def test_an_input_error_is_a_refusal_of_its_class_kind():
    assert OrderError("x").kind is Kind.BAD_INPUT and StateError("x").kind is Kind.REFUSED
    answer = Refused.of(OrderError("unknown place", line=3, column=4, suggestions=["Yor"], pointer="/2"), "Bad request",
                        "/orders")
    assert (answer.kind, answer.detail, answer.extra) == (
        Kind.BAD_INPUT, "unknown place; did you mean 'Yor'?",
        {"pointer": "/orders/2", "line": 3, "column": 4, "suggestions": ["Yor"]})
