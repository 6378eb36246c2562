"""Typed orders, commands, facts and rule answers (issue 35): each order kind its own class, matched by type; the
movement judge's reasons written from the fact that decided each order; rule answers as Literal types."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from adjudicator.catalogue import load_variant
from adjudicator.games.diplomacy.judge.facts import HeadToHead, Moved, MoveFact, Opposition, Supported, SupportFact
from adjudicator.games.diplomacy.judge.movement import MovementJudge, judge_movement
from adjudicator.games.diplomacy.orders.model import (ORDER_CLASSES, Build, Convoy, Disband, Hold, Move, Order, Remove,
                                                      Retreat, Support, UnitRef, Waive)
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.orders.structured import order_object, orders_from_objects
from adjudicator.games.diplomacy.orders.validate import (ConvoyCommand, HoldCommand, MoveCommand, SupportCommand,
                                                         every_unit_command)
from adjudicator.games.diplomacy.phase import adjudicate
from adjudicator.games.diplomacy.rulebook import KEYS, Rulebook, RulesError
from adjudicator.games.diplomacy.state import GameState, Unit, opening_state

STANDARD = load_variant("standard")

KINDS = [  # (the class, an order of it in canonical form, the power that gives it)
    (Hold, "A par H", "France"), (Move, "A par - bur", "France"), (Move, "A yor - nth - bel via convoy", "England"),
    (Move, "A yor - nwy via convoy", "England"), (Move, "F stp/sc - bot", "Russia"),
    (Support, "F nth S A yor - bel", "England"), (Support, "A mar S A par", "France"),
    (Support, "F mid S F bre - spa/nc", "France"), (Convoy, "F nth C A yor - bel", "England"),
    (Retreat, "A par R bur", "France"), (Disband, "Disband A par", "France"), (Remove, "Remove F kie", "Germany"),
    (Build, "Build F stp/nc", "Russia"), (Waive, "Waive", "Italy"),
]


@pytest.mark.parametrize("cls, text, power", KINDS, ids=[t for _, t, _ in KINDS])
def test_each_kind_reads_as_its_class_and_round_trips_through_text_and_objects(cls, text, power) -> None:
    order = parse_order(STANDARD, text, power=power)
    assert type(order) is cls and isinstance(order, Order) and order.kind == cls.kind
    assert order.describe() == text and parse_order(STANDARD, order.describe(), power=power) == order
    obj = order_object(order)
    assert obj["kind"] == cls.kind  # (the JSON name of the kind is the class's)
    again = orders_from_objects(STANDARD, [obj])
    assert not again.problems and type(again.orders[0]) is cls
    written = dataclasses.replace(order, text="", path=()) if isinstance(order, Move) else \
        dataclasses.replace(order, text="")  # (an object names no convoy path: not one of its fields)
    assert dataclasses.replace(again.orders[0], line=None) == written
    with pytest.raises(dataclasses.FrozenInstanceError):
        order.power = "Austria"  # type: ignore[misc]


def test_the_kinds_are_the_nine_classes_and_each_has_only_its_own_fields() -> None:
    assert list(ORDER_CLASSES) == ["hold", "move", "support", "convoy", "retreat", "disband", "remove", "build",
                                   "waive"]
    fields = {kind: {f.name for f in dataclasses.fields(cls)} - {"unit", "power", "text", "line", "notes"}
              for kind, cls in ORDER_CLASSES.items()}
    assert fields == {"hold": set(), "move": {"dest", "dest_coast", "via_convoy", "path"},
                      "support": {"target", "dest", "dest_coast"}, "convoy": {"target", "dest", "dest_coast"},
                      "retreat": {"dest", "dest_coast"}, "disband": set(), "remove": set(), "build": set(),
                      "waive": set()}
    assert Move(UnitRef("A", "par"), "bur") != Retreat(UnitRef("A", "par"), "bur")  # the class is part of the value


def test_commands_are_typed_by_kind() -> None:
    state = opening_state(STANDARD)
    orders = [parse_order(STANDARD, t, power=p) for p, t in [
        ("France", "A par - bur"), ("France", "A mar S A par - bur"), ("England", "F lon - nth"),
        ("England", "F edi H")]]
    commands, report = every_unit_command(STANDARD, state, orders)
    assert not report
    assert type(commands["par"]) is MoveCommand and commands["par"].dest == "bur"
    assert type(commands["mar"]) is SupportCommand and (commands["mar"].target, commands["mar"].dest) == ("par", "bur")
    assert type(commands["edi"]) is HoldCommand and commands["edi"].order is orders[3]
    assert type(commands["kie"]) is HoldCommand and commands["kie"].order is None  # no order: holds
    assert not any(type(c) is ConvoyCommand for c in commands.values())


def _position(units: dict[str, tuple[str, str]]) -> GameState:
    state = opening_state(STANDARD)
    return state.copy(units={p: Unit(power, unit_type, p) for p, (power, unit_type) in units.items()})


def _judged(state: GameState, orders: list[tuple[str, str]]):
    parsed = [parse_order(STANDARD, t, power=p) for p, t in orders]
    commands, _ = every_unit_command(STANDARD, state, parsed)
    return judge_movement(STANDARD, "Spring", commands), adjudicate(STANDARD, state, parsed)


def test_the_fact_of_a_cut_support_names_the_cutter_and_the_reason_is_written_from_it() -> None:
    state = _position({"mun": ("Germany", "A"), "ber": ("Germany", "A"), "war": ("Russia", "A"),
                       "pru": ("Russia", "A")})
    moved, phase = _judged(state, [("Germany", "A mun - sil"), ("Germany", "A ber S A mun - sil"),
                                   ("Russia", "A war - sil"), ("Russia", "A pru - ber")])
    judge = moved.judge
    assert isinstance(judge, MovementJudge)
    assert judge.settled("ber", moved) == SupportFact("mun", "sil", ["pru"])
    assert judge.settled("mun", moved) == MoveFact("sil", 1, None, [Opposition("war", False, 1)])
    assert judge.settled("pru", moved) == MoveFact("ber", 1, None, [Opposition("ber", True, 1)])
    assert judge.settled("war", moved) == MoveFact("sil", 1, None, [Opposition("mun", False, 1)])
    lines = {r.unit.location: r for r in phase.report if r.unit is not None}
    assert (lines["ber"].status, lines["ber"].reason, lines["ber"].cause) == (
        "fails", "support cut by Russia A pru", {"cut_by": ["pru"]})
    assert lines["mun"].reason == "bounced in sil with Russia A war, 1 against 1"
    assert lines["mun"].cause == {"strength": 1, "bounced_with": ["Russia A war (1 against 1)"]}


def test_the_fact_of_a_head_to_head_battle_names_the_opponent_and_its_defence() -> None:
    state = _position({"mun": ("Germany", "A"), "ber": ("Germany", "A"), "sil": ("Russia", "A"),
                       "boh": ("Austria", "A")})
    moved, phase = _judged(state, [("Russia", "A sil - mun"), ("Germany", "A mun - sil"),
                                   ("Germany", "A ber S A mun - sil"), ("Austria", "A boh S A sil - mun")])
    judge = moved.judge
    assert isinstance(judge, MovementJudge)
    assert judge.settled("sil", moved) == MoveFact("mun", 2, HeadToHead("mun", 2), [])
    assert judge.settled("ber", moved) == Supported("mun", "sil")  # (a support given: nothing cut it)
    lines = {r.unit.location: r for r in phase.report if r.unit is not None}
    assert lines["sil"].reason == "bounced in a head-to-head battle with Germany A mun, 2 against 2"
    assert lines["sil"].cause == {"strength": 2, "head_to_head": "mun", "defence": 2}


def test_a_refused_order_of_a_dislodged_unit_says_what_befell_it_after_the_refusal() -> None:
    state = _position({"ber": ("Germany", "A"), "pru": ("Russia", "A"), "sil": ("Russia", "A")})
    moved, phase = _judged(state, [("Germany", "A ber - mos"), ("Russia", "A pru - ber"),
                                   ("Russia", "A sil S A pru - ber")])
    assert isinstance(moved.judge, MovementJudge) and moved.judge.settled("pru", moved) == Moved(2, "ber")
    line = next(r for r in phase.report if r.unit is not None and r.unit.location == "ber")
    assert line.status == "illegal" and line.reason.endswith("; the unit holds; dislodged by Russia A pru")
    assert line.cause == {"dislodged_by": {"power": "Russia", "type": "A", "from": "pru"}}
    assert sum(1 for r in phase.report if r.unit is not None and r.unit.location == "ber") == 1  # one line


# --- rule answers as types ----------------------------------------------------------------------------------
def test_each_rule_field_is_typed_with_exactly_the_answers_the_reader_takes_default_first() -> None:
    hints = typing.get_type_hints(Rulebook)
    for key, (attribute, answers) in KEYS.items():
        assert typing.get_origin(hints[attribute]) is typing.Literal, key
        assert typing.get_args(hints[attribute]) == answers, key
        assert getattr(Rulebook(), attribute) == answers[0], key


@pytest.mark.parametrize("values, message", [
    ({"4.A.4": "cutt"}, "rules: 4.A.4 'cutt' is not one of not-cut, cut"),
    ({"4.A.2": "szykmann"}, "rules: 4.A.2 'szykmann' is not one of szykman, 1971, 1982, 2000, all-hold"),
    ({"builds": "everywhere"}, "rules: builds 'everywhere' is not one of home, owned, any-home"),
])
def test_a_misspelt_rule_answer_is_refused_naming_the_answers(values, message) -> None:
    with pytest.raises(RulesError) as refused:
        Rulebook().with_values(values)
    assert str(refused.value) == message


def test_a_misspelt_rule_answer_in_code_is_a_type_error(tmp_path) -> None:
    api = pytest.importorskip("mypy.api")
    snippet = tmp_path / "misspelt.py"
    snippet.write_text("from adjudicator.games.diplomacy.rulebook import Rulebook\n\n\n"
                       "def cuts(rules: Rulebook) -> bool:\n"
                       "    return rules.convoy_cuts_own_attack == 'cutt'\n\n\n"
                       "WRONG = Rulebook(paradox='szykmann')\n"
                       "RIGHT = Rulebook(paradox='szykman', convoy_cuts_own_attack='cut')\n")
    out, _, status = api.run(["--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"),
                              str(snippet)])
    assert status == 1
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert len(errors) == 2, out
    assert "misspelt.py:5:" in errors[0] and "comparison-overlap" in errors[0]
    assert "misspelt.py:8:" in errors[1] and "szykmann" in errors[1]
