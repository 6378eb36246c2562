"""Arctica: the board as graphs, the order grammar and its errors, refused orders changing nothing, majority
splits, states that round-trip, and the CLI from `new` to `adjudicate`."""

from __future__ import annotations

import json
from collections import Counter

import networkx as nx
import pytest
import yaml
from click.testing import CliRunner

from adjudicator.sheets import Sheet
from adjudicator.catalogue import load_variant
from adjudicator.cli import main
from adjudicator.errors import OrderError, StateError, VariantError
from adjudicator.games import get_rules
from adjudicator.games.arctica.board import load_board
from adjudicator.games.arctica.events import affected
from adjudicator.games.arctica.majorities import awards
from adjudicator.games.arctica.orders import Colony, Event, Flight, Majority, Melt, Migration, NextRound
from adjudicator.yamlio import load_yaml_file, load_yaml_text
from conftest import ROOT

RULES = get_rules("arctica")


@pytest.fixture(scope="module")
def board():
    return load_variant("arctica")


def state(board, **data):
    return RULES.state_from_data(board, data, "<test>")


def run(board, start, text):
    return RULES.adjudicate(board, start, Sheet(orders=RULES.parse_orders(board, text, "orders.txt")))


# ------------------------------------------------------------------------------------------------- board


def test_board_counts_match_the_reference_board(board):
    """arctica-board.md §3.6: 30 spaces (3/4/3 per region), 31 lines (10/11/10), one shared space per region."""
    assert board.name == "arctica" and board.rules == "arctica"
    assert len(board.spaces) == 30 and board.graph.number_of_nodes() == 30
    assert len(board.lines) == 31 and board.graph.number_of_edges() == 31
    per_sub = Counter(s.subregion for s in board.spaces.values())
    for region in board.regions.values():
        assert [per_sub[s] for s in region.subregions] == [3, 4, 3]
        shared = [s for s in board.spaces.values() if s.region == region.id and s.shared]
        assert len(shared) == 1 and shared[0].subregion == region.subregions[1]
        assert not shared[0].cost and not shared[0].bonus
    per_region = Counter(board.spaces[line.ends[0]].region for line in board.lines.values())
    assert per_region == {"bear": 10, "eagle": 11, "lynx": 10}
    for region in board.regions.values():
        for group in board.groups:
            assert sum(group in s.groups for s in board.spaces.values() if s.region == region.id) >= 3


def test_the_circle_is_a_clockwise_cycle(board):
    assert list(board.sections) == ["S1", "S2", "S3", "S4", "S5", "S6"]
    assert nx.is_isomorphic(board.circle, nx.cycle_graph(6, create_using=nx.DiGraph))
    assert [board.next_section(s) for s in board.sections] == ["S2", "S3", "S4", "S5", "S6", "S1"]
    assert sorted(board.tiles) == [1, 2, 3, 4, 5, 6]
    assert [t for t in board.tiles if board.tiles[t].choice] == [6]


def test_faces_mirror_sub_regions_1_and_3(board):
    faces_a = {"bear": "A", "eagle": "A", "lynx": "A"}
    faces_b = {"bear": "B", "eagle": "B", "lynx": "B"}
    assert board.touching("B1", faces_a) == ("S1",) and board.touching("B1", faces_b) == ("S2",)
    assert board.touching("E2", faces_a) == board.touching("E2", faces_b) == ("S3", "S4")
    assert board.sections["S3"].melted_bonus == {"A": {"bp": 1}, "B": {"wheels": 1}}


@pytest.mark.parametrize("sub, reached", [
    ("B1", {"B2a", "B2c"}), ("B2", {"B1a", "B1c", "B3a", "B3b"}), ("B3", {"B2b", "B2d"}),
    ("E1", {"E2a", "E2b"}), ("E2", {"E1a", "E1c", "E3a", "E3b"}), ("E3", {"E2c", "E2d"}),
    ("L1", {"L2a", "L2d"}), ("L2", {"L1a", "L1c", "L3a", "L3b"}), ("L3", {"L2b", "L2c"}),
])
def test_event_reach_table(board, sub, reached):
    """arctica-board.md §3.5: a token on every space; the event reaches its own spaces and those listed."""
    players = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]  # spread out: 6 tokens of a group per player
    everywhere = state(board, players=players, space_tokens={
        s: [f"{players[i % 6]} {info.groups[0]}"] for i, (s, info) in enumerate(board.spaces.items())})
    hit = {space for space, _ in affected(board, everywhere, sub)}
    own = {s for s, info in board.spaces.items() if info.subregion == sub}
    assert hit == own | reached


def test_a_broken_board_names_its_line():
    text = (ROOT / "variants" / "arctica.yaml").read_text()
    broken = text.replace("  - {ends: [B1a, B1b], bonus: {cards: 1}}", "  - {ends: [B1a, B3b], bonus: {cards: 1}}")
    line = next(i for i, l in enumerate(broken.splitlines(), 1) if "[B1a, B3b]" in l)
    with pytest.raises(VariantError) as err:
        load_board(load_yaml_text(broken, "arctica.yaml"), "arctica.yaml")
    assert err.value.line == line and "not adjacent" in err.value.message


def test_variant_check_accepts_the_shipped_board():
    result = CliRunner().invoke(main, ["variant", "check", str(ROOT / "variants" / "arctica.yaml")])
    assert result.exit_code == 0 and "OK" in result.output


# ------------------------------------------------------------------------------------------------- grammar


@pytest.mark.parametrize("text, expected", [
    ("Remi: migrate fish from S3, bird from S1", Migration("Remi", 2, ())),
    ("Joelle: migrate 1 move: Fish S1", Migration("Joelle", 1, ())),
    ("Anton: migrate marine mammals from S4 and return then MM from s4 stay", Migration("Anton", 2, ())),
    ("Remi: colony invertebrate on E2c, B2c", Colony("Remi", "invertebrate", ("E2c", "B2c"))),
    ("Remi: colonise In E2c B2c", Colony("Remi", "invertebrate", ("E2c", "B2c"))),
    ("melt", Melt()), ("MAJORITY Eagle", Majority("eagle")), ("majority", Majority(None)),
    ("next round", NextRound()),
])
def test_spellings(board, text, expected):
    (order,) = RULES.parse_orders(board, text, None)
    assert type(order) is type(expected)
    if isinstance(order, Migration):
        assert (order.player, order.allowance) == (expected.player, expected.allowance)
    elif isinstance(order, Colony):
        assert (order.player, order.group, order.spaces) == (expected.player, expected.group, expected.spaces)
    elif isinstance(order, Majority):
        assert order.region == expected.region


def test_moves_and_tile6_choices(board):
    (order,) = RULES.parse_orders(board, "Anton: migrate MM from S4 and return, marine mammal S4 stay", None)
    assert [(m.group, m.section, m.choice) for m in order.moves] == [
        ("marine_mammal", "S4", "return"), ("marine_mammal", "S4", "stay")]


def test_flights_gather_under_their_event(board):
    orders = RULES.parse_orders(board, "event eagle 2 dots  # E2\n"
                                       "Joelle: flee bird from E2a to S4; Joelle: flee fish on E2b to supply\n"
                                       "event E1\nmelt", None)
    assert [type(o) for o in orders] == [Event, Event, Melt]
    first = orders[0]
    assert (first.region, first.dots) == ("eagle", 2)
    assert first.flights == (Flight("Joelle", "bird", "E2a", "S4", None, "flee bird from E2a to S4", 2),
                             Flight("Joelle", "fish", "E2b", "supply", None, "flee fish on E2b to supply", 2))
    assert (orders[1].region, orders[1].dots, orders[1].flights) == ("eagle", 1, ())


@pytest.mark.parametrize("text, line, column, words, suggestion", [
    ("Remi: migrate fsh from S3", 1, 15, "unknown fauna group 'fsh'", "fish (Fish)"),
    ("melt\nRemi: colony fish on B2x", 2, 22, "unknown space 'B2x'", "B2d"),
    ("melt; Remi: migrate marine mamal from S4", 1, 21, "unknown fauna group 'marine'", "marine_mammal (Marine Mammal)"),
    ("majority\n\nevent eagel", 3, 7, "unknown region 'eagel'", "Eagle"),
    ("Remi: migrate fish from", 1, 24, "ends too early; expected a circle section", None),
    ("Remi: migrate fish from S3 and", 1, 31, "expected 'return' or 'stay'", None),
    ("Remi migrate fish from S3", 1, 5, "a ':' is missing after the player's name", None),
    ("migrate fish from S3", 1, 1, "Start it with the player's name", None),
    ("Remi: melt", 1, 1, "is an End of Round step", None),
    ("melt\nJoelle: flee bird from E2a to S4", 2, 1, "a flight answers an event", None),
    ("next", 1, 5, "expected 'round'", None),
])
def test_grammar_errors_name_line_column_and_suggestions(board, text, line, column, words, suggestion):
    with pytest.raises(OrderError) as err:
        RULES.parse_orders(board, text, "orders.txt")
    e = err.value
    assert (e.file, e.line, e.column) == ("orders.txt", line, column), str(e)
    assert words in e.message
    if suggestion:
        assert suggestion in e.suggestions


# ------------------------------------------------------------------------------------------------- refusals


ROUND_2 = dict(round=2, players=["Remi", "Joelle"], circle={"S1": 3, "S2": "melted", "S3": 2, "S4": 4, "S5": 6, "S6": 5},
               covered=["L1", "B3"], circle_tokens={"S3": ["Remi fish"], "S1": ["Remi bird"]},
               space_tokens={"E2b": ["Joelle fish"]},
               player_state={"Remi": {"bp": 4, "hand": 1, "flora": 1, "release": {"fish": 1}}})


@pytest.mark.parametrize("text, code", [
    ("Remi: migrate fish from S3, bird from S1, fish from S4", "too-many-moves"),
    ("Remi: migrate fish from S3, bird from S2", "no-such-token"),
    ("Remi: migrate fish from S3 and return", "tile6-choice-not-on-tile6"),
    ("Remi: colony fish on E2b", "space-occupied"),
    ("Remi: colony fish on B2d", "cost-unpaid"),
    ("Remi: colony fish on L1b", "space-covered"),
    ("Remi: colony fish on B2d, E2d", "cost-unpaid"),
    ("Remy: colony fish on B2b", "unknown-player"),
    ("majority bear", "region-not-scored"),
    ("event eagle 2 dots\nJoelle: flee fish from E2b to S2", "not-adjacent"),
    ("event eagle 2 dots", "flights-incomplete"),
])
def test_a_refused_order_changes_nothing(board, text, code):
    start = state(board, **ROUND_2)
    before = RULES.state_to_data(board, start)
    result = run(board, start, text)
    assert result.report[0].status == "illegal" and result.report[0].cause == {"code": code}, result.report[0]
    assert RULES.state_to_data(board, result.next_state) == before
    assert RULES.state_to_data(board, start) == before  # the input state is never changed


def test_a_refused_order_does_not_stop_the_next(board):
    start = state(board, **ROUND_2)
    result = run(board, start, "Remi: migrate fish from S4\nRemi: migrate fish from S3")
    assert [r.status for r in result.report] == ["illegal", "succeeds"]
    assert RULES.state_to_data(board, result.next_state)["circle_tokens"]["S4"] == ["Remi fish"]
    assert RULES.state_to_data(board, start)["circle_tokens"]["S3"] == ["Remi fish"]


# ------------------------------------------------------------------------------------------------- majorities


@pytest.mark.parametrize("values, tally, expected", [
    ((5, 2, 1), {"S": 3, "J": 2, "R": 2}, {"S": 5, "J": 2, "R": 2}),          # the rulebook's 3-2-2
    ((5, 2, 1), {"A": 2, "J": 2, "R": 2, "S": 1}, {"A": 3, "J": 3, "R": 3, "S": 0}),
    ((5, 2, 1), {"A": 3, "J": 2, "R": 1, "S": 1}, {"A": 5, "J": 2, "R": 1, "S": 1}),   # ceil((1+0)/2)
    ((7, 4, 2), {"J": 3, "R": 3, "S": 1}, {"J": 6, "R": 6, "S": 2}),          # ceil(11/2), Samson moves down
    ((4, 2, 1), {"A": 3, "J": 2, "R": 2, "S": 1}, {"A": 4, "J": 2, "R": 2, "S": 0}),
    ((3, 2, 1), {"A": 1, "B": 1, "C": 1, "D": 1}, {"A": 2, "B": 2, "C": 2, "D": 2}),   # ceil(6/4)
    ((3, 2, 1), {"A": 4, "B": 0}, {"A": 3}),                                  # no token, no rank
    ((3, 2, 1), {}, {}),
])
def test_majority_splits(values, tally, expected):
    seats = sorted(tally)
    assert {p: pts for p, _, pts in awards(values, Counter(tally), seats)} == expected


# ------------------------------------------------------------------------------------------------- states


def test_initial_state_round_trips(board):
    start = RULES.initial_state(board)
    data = RULES.state_to_data(board, start)
    assert data["circle_tokens"]["S5"] == ["Remi fish", "Remi fish", "Joelle bird", "Joelle bird",
                                           "Samson marine_mammal", "Samson marine_mammal"]
    assert [data["player_state"][p]["bp"] for p in ("Remi", "Joelle", "Samson")] == [0, 2, 5]
    assert data["player_state"]["Remi"]["supply"]["fish"] == 3
    again = RULES.state_to_data(board, RULES.state_from_data(board, json.loads(json.dumps(data)), None))
    assert again == data


@pytest.mark.parametrize("data, words", [
    ({"round": 5}, "round must be 1 to 4"),
    ({"circle_tokens": {"S2": ["Remi bird"]}, "circle": {"S1": 3, "S2": "melted", "S3": 2, "S4": 4, "S5": 6, "S6": 5}},
     "never stand on a melted area"),
    ({"space_tokens": {"E2b": ["Remi fish", "Joelle fish"]}}, "E2b holds one token, not 2"),
    ({"space_tokens": {"E2c": ["Remi fish"]}}, "E2c does not take a fish"),
    ({"covered": ["L1"], "space_tokens": {"L1a": ["Remi bird"]}}, "which an Event tile covers"),
    ({"player_state": {"Remi": {"hand": 11}}}, "the hand limit is 10"),
    ({"player_state": {"Remi": {"supply": {"fish": 6}}}, "circle_tokens": {"S3": ["Remi fish"]}}, "7 fish tokens"),
    ({"space_tokens": {"E2b": ["Remy fish"]}}, "unknown player 'Remy'"),
])
def test_bad_states_are_refused_with_a_reason(board, data, words):
    with pytest.raises(StateError) as err:
        RULES.state_from_data(board, {"players": ["Remi", "Joelle"], **data}, "game.yaml")
    assert words in err.value.message and err.value.pointer


def test_bad_state_in_a_file_names_its_line(board, tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("players: [Remi, Joelle]\nspace_tokens:\n  E2b: [Remi fsh]\n")
    with pytest.raises(StateError) as err:
        RULES.state_from_data(board, load_yaml_file(path), str(path))
    assert err.value.line == 3 and "fish (Fish)" in err.value.suggestions


# ------------------------------------------------------------------------------------------------- CLI


def test_cli_new_and_adjudicate_round_trip(tmp_path):
    runner = CliRunner()
    game, nxt = tmp_path / "game.yaml", tmp_path / "next.yaml"
    result = runner.invoke(main, ["new", "--variant", "arctica", "-o", str(game)])
    assert result.exit_code == 0, result.output
    sheet = tmp_path / "orders.txt"
    sheet.write_text("Joelle: migrate bird from S5\nRemi: migrate 1 move: fish from S5\n"
                     "Samson: colony fish on B2d   # no Flora: refused\nmelt\nmajority\nevent lynx\nevent bear\n"
                     "next round\n")
    result = runner.invoke(main, ["adjudicate", str(game), str(sheet), "-o", str(nxt), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [o["status"] for o in report["orders"]] == ["succeeds", "succeeds", "illegal", "succeeds", "succeeds",
                                                       "succeeds", "succeeds", "succeeds", "succeeds"]
    assert "[no-flora]" in report["orders"][2]["reason"]
    data = yaml.safe_load(nxt.read_text())
    assert data["variant"] == "arctica" and data["round"] == 2 and data["covered"] == ["L1", "B3"]
    assert data["circle_tokens"]["S6"] == ["Remi fish", "Joelle bird"]
    assert data["player_state"]["Joelle"]["hand"] == 7
    assert len(data["history"]) == 1 and data["history"][0]["orders"].startswith("Joelle:")
    # The written file is a game again, and a text report names each order.
    result = runner.invoke(main, ["adjudicate", str(nxt), str(sheet)])
    assert result.exit_code == 0 and "Joelle: migrate bird from S5" in result.output


def test_cli_reports_an_unreadable_sheet_with_its_position(tmp_path):
    runner = CliRunner()
    game = tmp_path / "game.yaml"
    runner.invoke(main, ["new", "--variant", "arctica", "-o", str(game)])
    sheet = tmp_path / "orders.txt"
    sheet.write_text("melt\nRemi: migrate fsh from S5\n")
    result = runner.invoke(main, ["adjudicate", str(game), str(sheet)])
    assert result.exit_code == 2
    assert "orders.txt:2:15: unknown fauna group 'fsh'; did you mean 'fish (Fish)'?" in result.output
