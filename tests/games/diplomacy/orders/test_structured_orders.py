"""Orders as data (adjudicator/games/diplomacy/orders/structured.py and POST /v1/adjudicate with order objects).

The same orders given as objects and as text must be judged alike (same report, same next position); every bad
object is a located problem (a JSON pointer into the list) and the others are read.
"""

from __future__ import annotations

import random

import pytest

from adjudicator.catalogue import load_variant
from adjudicator.game import NotAvailable, rules_of
from adjudicator.games.diplomacy.orders.model import Move, Order
from adjudicator.games.diplomacy.orders.sheet import orders_from_lists
from adjudicator.games.diplomacy.orders.structured import SUGGESTED_PROBLEMS, order_object, orders_from_objects
from adjudicator.games.diplomacy.phase import adjudicate
from adjudicator.games.diplomacy.state import opening_state
from tests.api_helpers import check_response
from tests.helpers import benchmark


@pytest.fixture(scope="module")
def board():
    return load_variant("standard")


def as_object(order: Order) -> dict:
    """An order read from text, as the object a program would send (the entry point's own writer)."""
    return order_object(order)


def _same_judgement(board, state, text_orders: dict[str, list[str]]):
    rules = rules_of(board)
    by_text = orders_from_lists(board, text_orders)
    assert not by_text.problems
    objects = [as_object(o) for o in by_text.orders]
    sheet = rules.read_order_objects(board, state, objects)
    assert not sheet.problems, sheet.problems
    a, b = adjudicate(board, state, by_text.orders), rules.adjudicate(board, state, sheet)
    assert a.next_state.units == b.next_state.units and a.next_state.dislodged == b.next_state.dislodged
    assert a.next_state.phase == b.next_state.phase and a.next_state.owners == b.next_state.owners
    # the same report: each order's status and reason (the text column shows the canonical spelling)
    assert [(r.power, r.status, r.reason, r.unit) for r in a.report] == \
           [(r.power, r.status, r.reason, r.unit) for r in b.report]
    return a


def _random_orders():
    """The seeded random order generator of benchmarks/compare_peer.py (coordinated supports and convoys, odd
    orders of DATC chapter 4); it needs only this engine."""
    return benchmark("compare_peer").random_orders


def test_random_games_are_judged_alike_from_objects_and_from_text(board):
    random_orders = _random_orders()
    rng = random.Random(7)
    kinds: dict[str, int] = {}
    for _ in range(2):
        state = opening_state(board)
        for _ in range(24):
            inp = random_orders(board, state, rng, odd=0.3)
            orders: dict[str, list[str]] = {}
            for power, text in inp.orders:
                orders.setdefault(power, []).append(text)
            result = _same_judgement(board, state, orders)
            kinds[state.phase.type] = kinds.get(state.phase.type, 0) + 1
            if result.winner:
                break
            state = result.next_state
    assert set(kinds) == {"Movement", "Retreat", "Adjustment"}, kinds


def test_every_kind_and_every_way_to_name_a_unit(board):
    objects = [
        {"power": "France", "kind": "move", "unit": "A par", "destination": "bur"},
        {"power": "french", "kind": "hold", "unit": "Army Marseilles"},
        {"power": "England", "kind": "support", "unit": "F nth", "target": "A yor", "destination": "bel"},
        {"power": "England", "kind": "support", "unit": "F lon", "target": "nth"},
        {"power": "England", "kind": "convoy", "unit": "F nth", "target": "A yor", "destination": "nwy"},
        {"power": "England", "kind": "move", "unit": "A yor", "destination": "nwy", "via_convoy": True},
        {"power": "Russia", "kind": "move", "unit": "F bot", "destination": "stp", "coast": "south coast"},
        {"power": "Russia", "kind": "move", "unit": {"type": "F", "location": "sev"}, "destination": "Black Sea"},
        {"power": "Russia", "kind": "build", "unit": "F stp/nc"},
        {"power": "Russia", "kind": "retreat", "unit": "A mos", "destination": "St Petersburg"},
        {"power": "Russia", "kind": "disband", "unit": "war"},
        {"power": "Russia", "kind": "remove", "unit": "F Sevastopol"},
        {"power": "Italy", "kind": "waive"},
        {"power": "Russia", "kind": "move", "unit": "F bot", "destination": "stp/sc", "coast": "sc"},
    ]
    sheet = orders_from_objects(board, objects)
    assert not sheet.problems
    described = [o.describe() for o in sheet.orders]
    assert described == ["A par - bur", "A mar H", "F nth S A yor - bel", "F lon S nth", "F nth C A yor - nwy",
                         "A yor - nwy via convoy", "F bot - stp/sc", "F sev - bla", "Build F stp/nc", "A mos R stp",
                         "Disband war", "Remove F sev", "Waive", "F bot - stp/sc"]
    assert [o.power for o in sheet.orders][:2] == ["France", "France"]
    assert [o.line for o in sheet.orders] == list(range(1, len(objects) + 1))
    assert sheet.orders[3].target.type is None  # a unit type left out is left out (DATC 4.C)


@pytest.mark.parametrize("obj, pointer, words", [
    ("A par - bur", "/0", "an order is an object"),
    ({"power": "France", "kind": "move", "unit": "A par", "dest": "bur"}, "/0/dest", "unknown field 'dest'"),
    ({"power": "France", "unit": "A par"}, "/0/kind", "no kind"),
    ({"power": "France", "kind": "mvoe", "unit": "A par", "destination": "bur"}, "/0/kind", "unknown kind"),
    ({"kind": "hold", "unit": "A par"}, "/0/power", "no power"),
    ({"power": "Narnia", "kind": "hold", "unit": "A par"}, "/0/power", "not a power"),
    ({"power": "France", "kind": "move", "unit": "A par"}, "/0/destination", "needs a destination"),
    ({"power": "France", "kind": "hold", "unit": "A par", "target": "A bur"}, "/0/target", "has no target"),
    ({"power": "France", "kind": "support", "unit": "A par", "destination": "bur"}, "/0/target", "needs a target"),
    ({"power": "France", "kind": "move", "unit": "A par", "destination": "Burgandy"}, "/0/destination",
     "unknown place 'Burgandy'"),
    ({"power": "France", "kind": "move", "unit": "A prs", "destination": "bur"}, "/0/unit", "unknown place"),
    ({"power": "France", "kind": "move", "unit": 7, "destination": "bur"}, "/0/unit", "must be a unit"),
    ({"power": "France", "kind": "move", "unit": {"type": "X", "location": "par"}, "destination": "bur"},
     "/0/unit/type", "neither A"),
    ({"power": "France", "kind": "move", "unit": {"kind": "A", "location": "par"}, "destination": "bur"},
     "/0/unit/kind", "unknown field 'kind' in unit"),
    ({"power": "Russia", "kind": "move", "unit": "F bot", "destination": "stp", "coast": "xc"}, "/0/coast",
     "unknown coast 'xc'"),
    ({"power": "Russia", "kind": "move", "unit": "F bot", "destination": "stp/nc", "coast": "sc"}, "/0/coast",
     "names the nc coast"),
    ({"power": "Russia", "kind": "hold", "unit": "F bot", "coast": "sc"}, "/0/coast", "give a destination"),
    ({"power": "France", "kind": "move", "unit": "A par", "destination": "bur", "via_convoy": "yes"},
     "/0/via_convoy", "true or false"),
    ({"power": "France", "kind": "support", "unit": "A par", "target": "A mar", "destination": "bur",
      "via_convoy": True}, "/0/via_convoy", "for moves"),
    ({"power": "France", "kind": "waive", "unit": "A par"}, "/0/unit", "has no unit"),
])
def test_each_bad_object_is_a_located_problem(board, obj, pointer, words):
    good = {"power": "Germany", "kind": "move", "unit": "A mun", "destination": "ruh"}
    sheet = orders_from_objects(board, [obj, good])
    (problem,) = sheet.problems
    assert problem.pointer == pointer and problem.line == 1
    assert words in problem.reason, problem.reason
    assert problem.to_json()["pointer"] == pointer
    assert [o.describe() for o in sheet.orders] == ["A mun - ruh"]  # the rest is read


def test_misspellings_get_suggestions_within_a_bound(board):
    sheet = orders_from_objects(board, [{"power": "France", "kind": "move", "unit": "A par", "destination": "Burgandy"},
                                        {"power": "Frnace", "kind": "hold", "unit": "A par"},
                                        {"power": "France", "kind": "suport", "unit": "A par", "target": "A mar"}])
    assert any("Burgundy" in s for s in sheet.problems[0].suggestions)
    assert "France" in sheet.problems[1].suggestions
    assert sheet.problems[2].suggestions == ["support"]
    many = [{"power": "France", "kind": "move", "unit": "A par", "destination": f"Burgandy{i}"}
            for i in range(SUGGESTED_PROBLEMS + 10)]
    sheet = orders_from_objects(board, many)
    assert len(sheet.problems) == SUGGESTED_PROBLEMS + 10
    assert all(p.suggestions for p in sheet.problems[:SUGGESTED_PROBLEMS])
    assert not any(p.suggestions for p in sheet.problems[SUGGESTED_PROBLEMS:])
    assert any("first 50 problems" in n and "10 more" in n for n in sheet.notes)


def test_not_a_list(board):
    sheet = orders_from_objects(board, {"power": "France"})
    assert sheet.problems[0].pointer == "" and "must be a list" in sheet.problems[0].reason


def test_same_validation_as_text(board):
    state = opening_state(board)
    rules = rules_of(board)
    objects = [{"power": "France", "kind": "move", "unit": "A par", "destination": "mun"},  # not adjacent
               {"power": "France", "kind": "hold", "unit": "A mun"},  # another power's unit
               {"power": "Russia", "kind": "move", "unit": "F sev", "destination": "stp"}]  # no coast reaches
    result = rules.adjudicate(board, state, rules.read_order_objects(board, state, objects))
    text = adjudicate(board, state, orders_from_lists(board, {"France": ["A par - mun", "A mun H"],
                                                               "Russia": ["F sev - stp"]}).orders)
    by_line = lambda res: {(r.power, r.line): (r.status, r.reason) for r in res.report if r.line}  # noqa: E731
    mine = by_line(result)
    assert mine[("France", 1)][0] == "illegal" and mine[("France", 2)][0] == "ignored"
    assert sorted(mine.values()) == sorted(by_line(text).values())


def test_objects_for_another_phase_are_refused(board):
    state = opening_state(board)
    sheet = rules_of(board).read_order_objects(board, state, [{"power": "France", "kind": "build", "unit": "A par"}])
    assert sheet.refusal and "Spring 1901 Movement" in sheet.refusal


def test_other_games_do_not_read_objects():
    other = load_variant("arctic2019")
    with pytest.raises(NotAvailable):
        rules_of(other).read_order_objects(other, rules_of(other).initial_state(other), [])


def test_arctic_names_are_read_exactly(board):
    arctic = load_variant("arctic")
    sheet = orders_from_objects(arctic, [{"power": "Norway", "kind": "move", "unit": "F Nwg", "destination": "Bar"},
                                         {"power": "Canada", "kind": "hold", "unit": "F NWG"},
                                         {"power": "Canada", "kind": "hold", "unit": "F nwg"}])
    assert [o.unit.province for o in sheet.orders] == ["Nwg", "NWG"]
    assert sheet.problems[0].pointer == "/2/unit" and "ambiguous" in sheet.problems[0].reason  # A17


# ----- the API -------------------------------------------------------------------------------------------
def test_api_adjudicates_orders_as_objects(client):
    start = client.get("/v1/variants/standard/start").get_json()
    objects = [{"power": "France", "kind": "move", "unit": "A par", "destination": "bur"},
               {"power": "Germany", "kind": "move", "unit": "A mun", "destination": "bur"},
               {"power": "England", "kind": "move", "unit": "F lon", "destination": "nth"}]
    r = client.post("/v1/adjudicate", json={"state": start, "orders": objects})
    assert r.status_code == 200, r.get_json()
    check_response("/v1/adjudicate", "post", r)
    data = r.get_json()
    text = client.post("/v1/adjudicate", json={"state": start, "orders": {
        "France": ["A par - bur"], "Germany": ["A mun - bur"], "England": ["F lon - nth"]}}).get_json()
    assert data["next_state"] == text["next_state"] or \
        {k: v for k, v in data["next_state"].items() if k != "history"} == \
        {k: v for k, v in text["next_state"].items() if k != "history"}
    assert [(o["power"], o["status"], o["reason"]) for o in data["orders"]] == \
           [(o["power"], o["status"], o["reason"]) for o in text["orders"]]
    bounce = next(o for o in data["orders"] if o["order"] == "A par - bur")
    assert bounce["status"] == "fails" and bounce["line"] == 1


def test_api_reports_bad_objects_with_pointers(client):
    start = client.get("/v1/variants/standard/start").get_json()
    objects = [{"power": "France", "kind": "move", "unit": "A par", "destination": "bur"},
               {"power": "France", "kind": "move", "unit": "A mar", "destination": "Burgandy"}]
    r = client.post("/v1/adjudicate", json={"state": start, "orders": objects})
    assert r.status_code == 200
    check_response("/v1/adjudicate", "post", r)
    (problem,) = r.get_json()["sheet_problems"]
    assert problem["pointer"] == "/orders/1/destination" and problem["line"] == 2
    assert "A bur" in r.get_json()["next_state"]["units"]["France"]
    r = client.post("/v1/adjudicate", json={"state": start, "orders": objects, "lenient": False})
    assert r.status_code == 400 and r.content_type == "application/problem+json"
    check_response("/v1/adjudicate", "post", r)
    body = r.get_json()
    assert body["pointer"] == "/orders/1/destination"
    assert any("Burgundy" in s for s in body["errors"][0]["suggestions"])
    r = client.post("/v1/adjudicate", json={"state": start, "orders": [{"power": "France", "kind": "build",
                                                                         "unit": "A par"}]})
    assert r.status_code == 422 and "Spring 1901 Movement" in r.get_json()["detail"]


def test_api_parse_and_other_games(client):
    r = client.post("/v1/orders/parse", json={"variant": "standard", "orders": [
        {"power": "England", "kind": "convoy", "unit": "F nth", "target": "A yor", "destination": "nwy"}]})
    assert r.status_code == 200
    check_response("/v1/orders/parse", "post", r)
    assert r.get_json()["orders"][0]["canonical"] == "F nth C A yor - nwy"
    other = client.get("/v1/variants/arctic2019/start").get_json()
    r = client.post("/v1/adjudicate", json={"state": other, "orders": [{"power": "Russia", "kind": "hold"}]})
    assert r.status_code == 422 and "as text" in r.get_json()["detail"]


def test_the_plain_path_reads_what_the_general_reader_reads(board):
    """`_Reader.plain` (lookups only) takes the common objects and gives the Order `_Reader.order` gives; any
    other object (a coast field, a name that is not an id, a wrong type) it leaves to `order`."""
    from adjudicator.games.diplomacy.orders.structured import _Reader
    random_orders = _random_orders()
    rng = random.Random(11)
    reader, taken, state = _Reader(board), 0, opening_state(board)
    objects: list = []
    for _ in range(12):
        inp = random_orders(board, state, rng, odd=0.2)
        objects += inp.objects
        state = adjudicate(board, state, [o for o in orders_from_objects(board, inp.objects).orders]).next_state
    for i, obj in enumerate(objects):
        fast = reader.plain(obj, i + 1)
        if fast is not None:
            taken += 1
            assert fast == reader.order(obj, i + 1) and fast.line == i + 1, obj
    assert taken >= 0.97 * len(objects)
    move = {"power": "France", "kind": "move", "unit": "A par", "destination": "bur"}
    assert reader.plain(move, 1) == Move(reader.texts["A par"], "bur", power="France", line=1)
    assert reader.plain({**move, "via_convoy": True}, 1).via_convoy is True
    others = [{**move, "coast": "nc"}, {**move, "destination": "Burgundy"}, {**move, "power": "French"},
              {**move, "unit": "Army Paris"}, {**move, "unit": {"type": "A", "location": "par"}},
              {**move, "via_convoy": 1}, {**move, "via_convoy": False}, {**move, "kind": "retreat", "via_convoy": True},
              {**move, "kind": "hold"}, {**move, "destination": ["bur"]},
              {"power": "France", "kind": "support", "unit": "A par", "target": 3, "destination": "bur"},
              {"power": "Italy", "kind": "waive"}, [("kind", "move")], {**move, "target": None},
              {**move, "via": True}, {**move, "kind": "support"}, {**move, "kind": "convoy"}]
    for obj in others:
        assert reader.plain(obj, 1) is None, obj


def test_hostile_objects_are_located_problems_with_short_reasons(board):
    """Nested deeper than JSON can encode, values JSON has not (a set, keys that are not strings), huge strings:
    each object is a problem at its pointer, and the reason echoes a bounded part of what was sent."""
    deep_dict: object = {"kind": "move"}
    deep_list: object = [1]
    for _ in range(5000):
        deep_dict, deep_list = {"unit": deep_dict}, [deep_list]
    move = {"power": "France", "kind": "move", "unit": "A par", "destination": "bur"}
    hostile = [deep_dict, [deep_dict], {"kind": deep_list}, {**move, "unit": deep_list}, {"kind": {1, 2}},
               {1: 2}, {**move, "unit": {1: "x", "a": 2}}, {**move, "unit": "A par" * 100_000},
               {**move, "power": "Fr" * 1000}, {**move, "destination": "bur/" + "q" * 1000},
               {**move, "target": ["x"] * 100_000, "kind": "support"}, {"kind": ["move"]}]
    sheet = orders_from_objects(board, hostile)
    assert not sheet.orders and [p.line for p in sheet.problems] == list(range(1, len(hostile) + 1))
    for problem in sheet.problems:
        assert len(problem.reason) < 300 and len(problem.text) <= 200, problem
    assert sheet.problems[11].suggestions == ["move"]  # (the kind, written as a list, still suggests its word)
    (only,) = orders_from_objects(board, deep_list).problems  # the list itself, nested all the way down
    assert only.pointer == "/0" and only.reason.startswith("an order is an object") and len(only.reason) < 300
