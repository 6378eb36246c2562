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
from adjudicator.game import get_rules
from adjudicator.games.arctica.board import load_board
from adjudicator.games.arctica.events import affected
from adjudicator.games.arctica.majorities import awards
from adjudicator.games.arctica.orders import Colony, Event, Flight, Majority, Melt, Migration, NextRound
from adjudicator.yamlio import load_yaml_file, load_yaml_text
from tests.helpers import ENCODINGS, ROOT, best_time, reports_in_encoding

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
    ("Remi: migrate fsh from S3", 1, 15, "unknown fauna group 'fsh'", "fish"),
    ("melt\nRemi: colony fish on B2x", 2, 22, "unknown space 'B2x'", "B2"),
    ("melt; Remi: migrate marine mamal from S4", 1, 21, "unknown fauna group 'marine'", "marine_mammal"),
    ("majority\n\nevent eagel", 3, 7, "unknown region 'eagel'", "Eagle"),
    ("Remi: migrate fish from", 1, 24, "ends too early; expected a circle section or an ice floe", None),
    ("Remi: migrate fish from S3 and", 1, 31, "expected 'return', 'stay', 'then' or a fauna group", None),
    ("Remi migrate fish from S3", 1, 5, "a ':' is missing after the player's name", None),
    ("migrate fish from S3", 1, 1, "Start it with the player's name", None),
    ("Remi: melt", 1, 1, "is an End of Round step", None),
    ("melt\nJoelle: flee bird from E2a to S4", 2, 1, "a flight answers an event", None),
    ("next", 1, 5, "expected 'round' or 'turn'", None),
])
def test_grammar_errors_name_line_column_and_suggestions(board, text, line, column, words, suggestion):
    with pytest.raises(OrderError) as err:
        RULES.parse_orders(board, text, "orders.txt")
    e = err.value
    assert (e.file, e.line, e.column) == ("orders.txt", line, column), str(e)
    assert words in e.message
    if suggestion:
        assert any(suggestion.lower() in s.lower() for s in e.suggestions), e.suggestions


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
    assert err.value.line == 3 and "fish (fish)" in [s.lower() for s in err.value.suggestions]


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
    result = runner.invoke(main, ["adjudicate", str(nxt), str(sheet), "--same-sheet"])
    assert result.exit_code == 0 and "Joelle: migrate bird from S5" in result.output


# ------------------------------------------------------------------------------- the sheet contract (issue 13)

# A bad line among good ones: Joelle's order (her bird on tile 6, S5, jumps to tile 5 on S6: 2 cards) is read and
# judged; Remi's is reported with its line, column, reason and suggestion.
CONTRACT_SHEET = "Remi: migrate fsh from S5   # a typo\nJoelle: migrate bird from tile 6\n"


def test_read_sheet_reports_each_bad_piece_and_reads_the_rest(board):
    sheet = RULES.read_sheet(board, RULES.initial_state(board),
                             "Remi: migrate fsh from S5; Joelle: migrate bird from S5\nmelt\nSamson: colony on\n", "o.txt")
    assert [type(o) for o in sheet.orders] == [Migration, Melt] and sheet.refusal is None
    (bad_group, bad_colony) = sheet.problems
    assert (bad_group.line, bad_group.column, bad_group.reason) == (1, 15, "unknown fauna group 'fsh'")
    assert bad_group.text == "Remi: migrate fsh from S5; Joelle: migrate bird from S5"
    assert any(s.lower().startswith("fish") for s in bad_group.suggestions)
    assert bad_colony.line == 3 and "fauna group" in bad_colony.reason


def test_flights_below_an_unreadable_event_are_not_given_to_another_event(board):
    text = "event lynx\nRemi: flee fish from L1b to S5\nevent egle\nJoelle: flee bird from E2a to S4\n"
    sheet = RULES.read_sheet(board, None, text)
    (event,) = sheet.orders
    assert event.region == "lynx" and [f.player for f in event.flights] == ["Remi"]
    assert [(p.line, p.reason.split(";")[0]) for p in sheet.problems] == [
        (3, "unknown region 'egle'"),
        (4, "not judged: this flight answers the event above it, and line 3 above it could not be read")]
    # A bad flight does not lose the event's other flights: the event is judged (and refused as incomplete).
    sheet = RULES.read_sheet(board, None, "event eagle\nJoelle: flee brd from E2a to S4\nJoelle: flee fish from E2b to S4")
    assert [len(e.flights) for e in sheet.orders] == [1] and [p.line for p in sheet.problems] == [2]


def _new_game(runner, tmp_path):
    game = tmp_path / "game.yaml"
    assert runner.invoke(main, ["new", "--variant", "arctica", "-o", str(game)]).exit_code == 0
    return game


def test_cli_reports_bad_lines_and_judges_the_rest(tmp_path):
    runner = CliRunner()
    game = _new_game(runner, tmp_path)
    sheet = tmp_path / "orders.txt"
    sheet.write_text(CONTRACT_SHEET)
    result = runner.invoke(main, ["adjudicate", str(game), str(sheet), "-o", str(tmp_path / "next.yaml")])
    assert result.exit_code == 0, result.output
    assert "line 1, column 15: unknown fauna group 'fsh'" in result.output
    assert "Joelle: migrate bird from tile 6" in result.output and "draws 2 cards" in result.output
    data = yaml.safe_load((tmp_path / "next.yaml").read_text())
    assert data["circle_tokens"]["S6"] == ["Joelle bird"] and data["player_state"]["Joelle"]["hand"] == 7


def test_cli_strict_refuses_a_sheet_with_a_bad_line_and_writes_nothing(tmp_path):
    runner = CliRunner()
    game = _new_game(runner, tmp_path)
    sheet = tmp_path / "orders.txt"
    sheet.write_text(CONTRACT_SHEET)
    before = game.read_text()
    result = runner.invoke(main, ["adjudicate", str(game), str(sheet), "-o", str(tmp_path / "next.yaml"), "--strict"])
    assert result.exit_code == 2
    assert "orders.txt:1:15" in result.output and "unknown fauna group 'fsh'" in result.output
    assert not (tmp_path / "next.yaml").exists() and game.read_text() == before
    result = runner.invoke(main, ["adjudicate", str(game), str(sheet), "--in-place", "--strict"])
    assert result.exit_code == 2 and game.read_text() == before and not (tmp_path / "game.yaml.bak").exists()


def test_api_adjudicate_is_lenient_unless_told_not_to_be():
    from api import create_app

    client = create_app().test_client()
    start = client.get("/v1/variants/arctica/start").get_json()
    r = client.post("/v1/adjudicate", json={"state": start, "orders": CONTRACT_SHEET})
    body = r.get_json()
    assert r.status_code == 200, body
    assert [(p["line"], p["column"], p["reason"]) for p in body["sheet_problems"]] == [(1, 15, "unknown fauna group 'fsh'")]
    assert [(o["power"], o["status"]) for o in body["orders"]] == [("Joelle", "succeeds")]
    assert body["next_state"]["circle_tokens"]["S6"] == ["Joelle bird"]
    r = client.post("/v1/adjudicate", json={"state": start, "orders": CONTRACT_SHEET, "lenient": False})
    body = r.get_json()
    assert r.status_code == 400 and "next_state" not in body
    assert [(e["line"], e["column"]) for e in body["errors"]] == [(1, 15)]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_sheet_reads_the_same_whatever_its_encoding(tmp_path, encoding):
    game = _new_game(CliRunner(), tmp_path)
    want, got = reports_in_encoding(game, CONTRACT_SHEET, encoding, tmp_path)
    assert got == want
    assert [o["power"] for o in got["orders"]] == ["Joelle"]  # the first line's player kept


# ------------------------------------------------------------------------------- reading costs linear time


@pytest.mark.parametrize("make", [
    lambda n: " \t" * (n // 2),                                     # a line of blanks
    lambda n: "Remi" + " \t" * (n // 2) + ":",                      # a name, blanks, the colon
    lambda n: "Remi" + " " * n + "migrate fish",                    # the missing-colon check
    lambda n: "Remi: migrate" + " \t" * (n // 2) + "marine" + " " * n + "mammal from" + " " * n,
    lambda n: "Remi: flee fish from E2a to the" + " " * n + "supply",
    lambda n: "Remi: migrate fish from ice" + " " * n + "floe 4",
    lambda n: "Remi: migrate " + "x" * n,                           # one long unknown word (suggestions)
    lambda n: ";" * n,
], ids=["blanks", "name-blanks-colon", "missing-colon", "multiword-names", "supply", "ice-floe", "long-word",
        "semicolons"])
def test_reading_a_line_costs_linear_time(board, make):
    """Every regex the reader applies to a line is linear: 10x the line costs about 10x (allocation and cache
    effects push that to 15-25x on 100k pieces), where a quadratic reader costs 100x."""
    RULES.read_sheet(board, None, make(1000))  # warm the parser
    small = best_time(lambda: RULES.read_sheet(board, None, make(10_000)))
    large = best_time(lambda: RULES.read_sheet(board, None, make(100_000)), repeats=2)
    assert large / max(small, 1e-4) < 40, (small, large)


# ------------------------------------------------------------------------------- tiles by number, `and`, turns


@pytest.mark.parametrize("text, moves", [
    ("Remi: migrate fish from tile 2, bird from T3", [("fish", None, 2), ("bird", None, 3)]),
    ("Remi: migrate fish from ice floe 4 and return", [("fish", None, 4)]),
    ("Remi: migrate fish from S3 and bird from S1", [("fish", "S3", None), ("bird", "S1", None)]),
    ("Remi: migrate fish from S3, and then bird from floe 3", [("fish", "S3", None), ("bird", None, 3)]),
])
def test_floes_by_number_and_moves_joined_by_and(board, text, moves):
    (order,) = RULES.parse_orders(board, text, None)
    assert [(m.group, m.section, m.tile) for m in order.moves] == moves


def test_and_before_a_choice_belongs_to_the_move_before_it(board):
    (order,) = RULES.parse_orders(board, "Anton: migrate MM from S4 and return and MM from S4, stay", None)
    assert [m.choice for m in order.moves] == ["return", "stay"]
    (order,) = RULES.parse_orders(board, "Remi: colony fish on B1a and E2b, and L2d", None)
    assert order.spaces == ("B1a", "E2b", "L2d")
    with pytest.raises(OrderError, match="a second tile-6 choice"):
        RULES.parse_orders(board, "Anton: migrate MM from S4 return and stay", None)


@pytest.mark.parametrize("text, column, words", [
    ("Remi: migrate fish from tile 7", 30, "there is no ice floe 7; the tiles are 1, 2, 3, 4, 5, 6"),
    ("Remi: migrate fish from T0", 25, "there is no ice floe 0"),
    ("Remi: migrate fish from tile", 29, "expected a number"),
])
def test_a_floe_number_that_is_no_tile_is_reported_at_its_column(board, text, column, words):
    with pytest.raises(OrderError) as err:
        RULES.parse_orders(board, text, None)
    assert err.value.column == column and words in err.value.message, str(err.value)


def test_a_colony_turn_applies_in_seat_order_and_the_state_records_the_turn(board):
    """C33: the Leader acts first; `next turn` passes the token; the written state keeps turn and Leader."""
    pools = {"flora": 2, "release": {"fish": 2}, "supply": {"fish": 4}}
    start = state(board, players=["Remi", "Joelle", "Samson"], leader="Samson", turn=4,
                  player_state={p: pools for p in ("Remi", "Joelle", "Samson")})
    result = run(board, start, "Remi: colony fish on E2b\nSamson: colony fish on E2b\nnext turn\n"
                               "Samson: colony fish on B1a\nRemi: colony fish on B1a\n")
    assert [(r.power, r.status) for r in result.report] == [
        ("Samson", "succeeds"), ("Remi", "illegal"), (None, "succeeds"), ("Remi", "succeeds"), ("Samson", "illegal")]
    data = RULES.state_to_data(board, result.next_state)
    assert (data["turn"], data["leader"]) == (5, "Remi")
    assert data["space_tokens"] == {"B1a": ["Remi fish"], "E2b": ["Samson fish"]}
    assert any("seat order from the Leader, Samson" in t for t in result.trace)
    again = RULES.state_from_data(board, data, None)
    assert (again.turn, again.leader) == (5, "Remi")
    assert RULES.phase_name(again) == "round 1, turn 5, Remi is the Leader"


@pytest.mark.parametrize("data, words", [
    ({"turn": 6}, "turn must be 1 to 5"),
    ({"turn": 0}, "turn must be 1 to 5"),
    ({"leader": "Anton"}, "unknown player 'Anton'"),
    ({"players": ["Remi", "Flee"]}, "'Flee' cannot be a player name"),  # an order keyword (AR8)
])
def test_bad_turn_or_leader_in_a_state_is_refused(board, data, words):
    with pytest.raises(StateError, match=words):
        state(board, **{"players": ["Remi", "Joelle"], **data})
