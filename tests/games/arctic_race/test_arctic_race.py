"""Arctic Race on the shared machinery: the board as data, the grammar's errors, set-up, refused turns,
scoring ties and the CLI round trip. The rules themselves are checked by `datc_cases/arctic-race/`."""

from __future__ import annotations

import copy

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.sheets import Sheet
from adjudicator.catalogue import load_variant
from adjudicator.cli import main
from adjudicator.errors import OrderError, StateError, VariantError
from adjudicator.game import get_rules
from adjudicator.games.arctic_race.board import FIN, WATER
from adjudicator.games.arctic_race.orders import SetupPart, Turn
from adjudicator.yamlio import load_yaml_file, load_yaml_text
from tests.helpers import ENCODINGS, ROOT, best_time, reports_in_encoding

RULES = get_rules("arctic-race")
ALL_TILES = " ".join(f"T{i:02d}" for i in range(1, 31))


@pytest.fixture(scope="module")
def board():
    return load_variant("arctic-race")


def position(board, **data):
    base = {"players": ["Red", "Blue"], "river": ["T29", "T30", "T22", "T28", "T02"], "pile": ["T13"]}
    return RULES.state_from_data(board, {**base, **data}, "test")


def play(board, state, text):
    return RULES.adjudicate(board, state, Sheet(orders=RULES.parse_orders(board, text, "orders.txt")))


# ---------------------------------------------------------------- board


def test_board_is_read_from_the_variant_file(board):
    assert (board.name, board.title, board.rules) == ("arctic-race", "Arctic Race", "arctic-race")
    assert len(board.tiles) == 30 and board.last_space == 36
    assert board.slots[0] == [7, 8, 9] and board.slots[-1] == [19, 20, 21]
    assert board.tiles_removed == {2: 8, 3: 6, 4: 4, 5: 2, 6: 0}


def test_track_is_a_path_graph_filled_from_the_river(board):
    graph = board.graph
    assert graph.number_of_nodes() == 38 and graph.number_of_edges() == 37
    assert list(graph.successors(0)) == [1] and list(graph.successors(36)) == [FIN]
    assert "icon" not in graph.nodes[8] and graph.nodes[5]["icon"] == "die"
    track = board.track(["T22", "T30", "T07", "T29", WATER])
    assert [track.nodes[s]["icon"] for s in (7, 11, 13, 14, 19)] == ["hand", "+2", "+2", "arrow", WATER]
    assert "icon" not in graph.nodes[7]  # the board's own graph is untouched
    assert board.ahead(34, 5) == FIN and board.ahead(0, 3) == 3


def test_board_errors_name_their_line():
    text = (ROOT / "variants" / "arctic-race.yaml").read_text()
    bad = text.replace("  T05: [none, arrow, \"+2\"]", "  T05: [none, arow, \"+2\"]")
    with pytest.raises(VariantError) as err:
        RULES.load_board(load_yaml_text(bad, "bad.yaml"), "bad.yaml")
    line = next(i for i, t in enumerate(bad.splitlines(), 1) if t.startswith("  T05"))
    assert err.value.line == line and "unknown icon 'arow'" in err.value.message
    with pytest.raises(VariantError, match="missing the required key 'tiles'"):
        data = load_yaml_file(ROOT / "variants" / "arctic-race.yaml")
        del data["tiles"]
        RULES.load_board(data, "x.yaml")


# ---------------------------------------------------------------- grammar


def test_turns_parse_with_every_input(board):
    steps = RULES.parse_orders(board, "Red: 3 move, roll 4, roll black racer 1 # chain\n"
                                      "blue plays card 5 start token to Red; Red: dog sled, move to 12", None)
    red, blue, sled = steps
    assert isinstance(red, Turn) and red.card == 3 and [str(r) for r in red.rolls] == ["roll 4", "roll black racer 1"]
    assert (blue.player, blue.card, blue.action, blue.tokens) == ("Blue", 5, "start", ("Red",))
    assert (sled.card, sled.destination, sled.line, sled.text) == (4, 12, 2, "dog sled, move to 12")
    assert RULES.parse_orders(board, "  # nothing\n\n", None) == []


def test_setup_parses(board):
    (players, start, tiles) = RULES.parse_orders(board, f"players Red, Blue\nstart token Red\ntiles {ALL_TILES}", None)
    assert isinstance(players, SetupPart) and players.values == ("Red", "Blue")
    assert start.values == ("Red",) and len(tiles.values) == 30


@pytest.mark.parametrize("text, line, column, message, suggestion", [
    ("Red: 5 mvoe", 1, 8, "unknown card action 'mvoe'", "move"),
    ("\nRde: 5 move", 2, 1, "unknown player colour 'Rde'", "Red"),
    ("Red: 2 move; Blue: snowboardr move", 1, 20, "unknown card 'snowboardr'", "snowboarder"),
    ("Red: 5 start, token to Bleu", 1, 24, "unknown player colour 'Bleu'", "Blue"),
    ("tiles T01 T3O", 1, 11, "unknown tile 'T3O'", "T"),  # which tiles come first is the name index's choice
])
def test_grammar_errors_have_line_column_and_suggestions(board, text, line, column, message, suggestion):
    with pytest.raises(OrderError) as err:
        RULES.parse_orders(board, text, "orders.txt")
    e = err.value
    assert (e.file, e.line, e.column) == ("orders.txt", line, column)
    assert message in e.message and any(suggestion.lower() in s.lower() for s in e.suggestions), str(e)


def test_grammar_says_what_was_expected(board):
    with pytest.raises(OrderError) as err:
        RULES.parse_orders(board, "Red: 5", None)
    assert err.value.column == 7 and "ends too early; expected ',' or a card action" in err.value.message
    with pytest.raises(OrderError, match="only a move names a racer"):
        RULES.parse_orders(board, "Red: 4 push racer 4", None)


# ---------------------------------------------------------------- set-up


@pytest.mark.parametrize("players, removed, pile", [(2, 8, 17), (3, 6, 19), (4, 4, 21), (5, 2, 23), (6, 0, 25)])
def test_setup_removes_tiles_by_player_count(board, players, removed, pile):
    colours = ", ".join(board.colours[:players])
    result = play(board, RULES.initial_state(board), f"players {colours}\nstart {board.colours[0]}\ntiles {ALL_TILES}")
    data = RULES.state_to_data(board, result.next_state)
    assert (len(data["removed"]), len(data["river"]), len(data["pile"])) == (removed, 5, pile)
    assert data["river"][0] == f"T{removed + 1:02d}"
    assert all(pos == 0 for pos in data["racers"].values()) and len(data["racers"]) == 5 * players


def test_setup_refusals(board):
    start = RULES.initial_state(board)
    for text, why in [(f"players Red, Red\nstart Red\ntiles {ALL_TILES}", "listed twice"),
                      ("players Red, Blue\nstart Red\ntiles T01 T02", "all 30 tiles"),
                      (f"players Red, Blue\nstart Green\ntiles {ALL_TILES}", "one of the players"),
                      ("players Red, Blue\nstart Red", "missing: tiles")]:
        result = play(board, start, text)
        assert result.report[0].status == "illegal" and why in result.report[0].reason
        assert RULES.state_to_data(board, result.next_state)["phase"] == "setup"


# ---------------------------------------------------------------- refusals change nothing


@pytest.mark.parametrize("text, code", [
    ("Red: 5 move back", "backward"),
    ("Red: 5 move to 12", "backward"),
    ("Red: 1 move racer 6", "bad-input"),
    ("Red: 1 move racer 4", "wrong-racer"),
    ("Red: 4 move", "card-not-in-hand"),
    ("Red: 5 push", "no-such-action"),
    ("Blue: 2 move", "out-of-turn"),
    ("Red: 3 move", "bad-input"),            # 26 -> 29: the start icon needs `token to ...`
    ("Red: 3 move, token to Red", "token-must-move"),
    ("Red: 2 move, roll 4", "bad-input"),    # 31 -> 33 (arrow): no die, so the roll is never used
])
def test_a_refused_turn_changes_nothing(board, text, code):
    state = position(board, racers={"Red 5": 14, "Red 3": 26, "Red 2": 31}, played={"Red": [4]})
    before = copy.deepcopy(RULES.state_to_data(board, state))
    result = play(board, state, text)
    assert [r.status for r in result.report] == ["illegal"], result.report
    assert f"refused ({code})" in result.report[0].reason
    assert RULES.state_to_data(board, result.next_state) == before
    assert RULES.state_to_data(board, state) == before


def test_resolution_never_mutates_its_input(board):
    state = position(board, racers={"Red 3": 8, "Blue 5": 20})
    before = copy.deepcopy(RULES.state_to_data(board, state))
    result = play(board, state, "Red: 4 push\nBlue: 2 move")
    assert [r.status for r in result.report] == ["succeeds", "succeeds", "succeeds"]
    assert RULES.state_to_data(board, state) == before
    assert result.next_state.racers[("Blue", 5)] == 0 and result.next_state.racers[("Red", 3)] == 11


# ---------------------------------------------------------------- positions


@pytest.mark.parametrize("data, message", [
    ({"racers": {"Red 5": 22, "Blue 5": 22}}, "both stand on 22"),
    ({"racers": {"Red 5": 25}}, "no racer can stop on a +2 space"),
    ({"racers": {"Red 9": 3}}, "racers are numbered"),
    ({"racers": {"Green 1": 3}}, "Green is not playing"),
    ({"pile": ["T13", "T29"]}, "tiles in two places at once: T29"),
    ({"river": [WATER, "T30", "T22", "T28", "T02"]}, "open water only appears once the pile is empty"),
    ({"hands": {"Red": [5, 4]}, "played": {"Red": [3]}}, "must together be the cards"),
    ({"turn_order": ["Blue", "Red", "Red"]}, "names a player twice"),
])
def test_a_position_that_breaks_the_rules_is_refused(board, data, message):
    with pytest.raises(StateError) as err:
        position(board, **data)
    assert message in err.value.message


def test_state_errors_name_the_line(board):
    text = "players: [Red, Blue]\nriver: [T29, T30, T22, T28, T02]\nracers:\n  Red 5: 25\n"
    with pytest.raises(StateError) as err:
        RULES.state_from_data(board, load_yaml_text(text, "g.yaml"), "g.yaml")
    assert err.value.line == 4 and err.value.pointer == "/racers/Red 5"


def test_state_round_trip(board):
    state = position(board, racers={"Red 3": 8, "Blue 1": 36}, finished={5: ["Blue"]}, played={"Blue": [2, 5]})
    data = RULES.state_to_data(board, state)
    again = RULES.state_to_data(board, RULES.state_from_data(board, yaml.safe_load(yaml.safe_dump(data)), None))
    assert again == data and "Blue 5" not in data["racers"] and data["racers"]["Red 1"] == 0


# ---------------------------------------------------------------- scoring


def test_scoring_ties_go_to_race_1_then_2(board):
    # Red 4 (race 2, 2nd) + 5 (race 3, 1st) = 9; Blue 6 (race 2, 1st) + 3 (race 4, 2nd) = 9: race 2 decides.
    data = RULES.state_to_data(board, position(board, players=["Red", "Blue", "Green"],
                                               finished={2: ["Blue", "Red"], 3: ["Red"], 4: ["Green", "Blue"]}))
    assert data["standings"] == {"points": {"Red": 9, "Blue": 9, "Green": 5}, "ranking": ["Blue", "Red", "Green"]}
    data = RULES.state_to_data(board, position(board, players=["Red", "Blue", "Green"], finished={1: ["Green"],
                                                                                                   5: ["Red", "Blue"]}))
    assert data["standings"]["ranking"] == ["Green", "Red", "Blue"]  # 7 beats 5 beats 3


def test_scoring_shared_place_and_later_places(board):
    players = ["Red", "Yellow", "Blue", "Green", "Purple", "Orange"]
    data = RULES.state_to_data(board, position(board, players=players, finished={3: players[:5]}))
    assert data["standings"]["points"] == {"Red": 5, "Yellow": 3, "Blue": 2, "Green": 1, "Purple": 1, "Orange": 0}
    # Green and Purple: 1 point each; race 3 places 4th and 5th decide.
    assert data["standings"]["ranking"] == ["Red", "Yellow", "Blue", "Green", "Purple", "Orange"]
    data = RULES.state_to_data(board, position(board, players=["Red", "Blue", "Green"]))
    assert data["standings"]["ranking"] == [["Red", "Blue", "Green"]]


# ---------------------------------------------------------------- CLI


def test_cli_new_and_adjudicate_round_trip(tmp_path):
    runner = CliRunner()
    game = tmp_path / "g0.yaml"
    result = runner.invoke(main, ["new", "--variant", "arctic-race", "-o", str(game)])
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(game.read_text()) == {"variant": "arctic-race", "phase": "setup", "history": []}

    setup = tmp_path / "setup.txt"
    setup.write_text("players Red, Blue\nstart Red\n"
                     "tiles T22 T06 T16 T30 T08 T29 T10 T01 T14 T09 T28 T23 T27 T15 T24\n"
                     "tiles T25 T20 T07 T17 T26 T19 T12 T04 T18 T03 T02 T21 T13 T05 T11\n")
    result = runner.invoke(main, ["adjudicate", str(game), str(setup), "-o", str(tmp_path / "g1.yaml")])
    assert result.exit_code == 0, result.output

    turns = tmp_path / "round1.txt"
    turns.write_text("Red: 5 move, roll 3   # onto the die on 5: Red 3 moves 3\nBlue: 4 move\n")
    result = runner.invoke(main, ["adjudicate", str(tmp_path / "g1.yaml"), str(turns), "-o", str(tmp_path / "g2.yaml"),
                                  "--json"])
    assert result.exit_code == 0, result.output
    report = yaml.safe_load(result.output)
    assert [o["status"] for o in report["orders"]] == ["succeeds", "succeeds", "succeeds"]
    data = yaml.safe_load((tmp_path / "g2.yaml").read_text())
    assert data["variant"] == "arctic-race" and data["round"] == 2
    assert (data["racers"]["Red 5"], data["racers"]["Red 3"], data["racers"]["Blue 4"]) == (5, 3, 4)
    assert data["river"] == ["T14", "T09", "T28", "T23", "T27"] and len(data["history"]) == 2

    bad = tmp_path / "bad.txt"
    bad.write_text("Red: 4 mvoe\n")
    result = runner.invoke(main, ["adjudicate", str(tmp_path / "g2.yaml"), str(bad), "--strict"])
    assert result.exit_code == 2 and "bad.txt:1:8" in result.output
    assert "unknown card action 'mvoe'; did you mean 'move'?" in result.output


# ---------------------------------------------------------------- the sheet contract (issue 13)

# Red's turn has a typo and is reported; Blue's turn is then out of turn?  No: a bad line is not a turn, so the
# round goes on with the readable turns: Red (card 5, to the die on 5, rolls 3) and Blue (card 4, to the hand).
CONTRACT_SHEET = "Red: 2 mvoe     # a typo\nRed: 5 move, roll 3\nBlue: 4 move\n"
SET_UP = "players Red, Blue\nstart Red\nriver T14 T09 T28 T23 T27\n"


def test_read_sheet_reports_each_bad_piece_and_reads_the_rest(board):
    sheet = RULES.read_sheet(board, None, "Red: 2 mvoe; Blue: 4 move\n\nplayers Red, Bleu\nRed: 5 move", "o.txt")
    assert [s.text for s in sheet.orders] == ["4 move", "5 move"] and sheet.refusal is None
    (typo, colour) = sheet.problems
    assert (typo.line, typo.column, typo.reason, typo.text) == (1, 8, "unknown card action 'mvoe'",
                                                               "Red: 2 mvoe; Blue: 4 move")
    assert any("move" in s for s in typo.suggestions)
    assert (colour.line, colour.column) == (3, 14) and "Blue" in " ".join(colour.suggestions)


def _table_game(runner, tmp_path):
    setup, game = tmp_path / "table.txt", tmp_path / "game.yaml"
    setup.write_text(SET_UP)
    result = runner.invoke(main, ["new", "--variant", "arctic-race", "--setup", str(setup), "-o", str(game)])
    assert result.exit_code == 0 and "Arctic Race, round 1, Red to play" in result.output, result.output
    return game


def test_cli_reports_bad_lines_and_judges_the_rest(tmp_path):
    runner = CliRunner()
    game = _table_game(runner, tmp_path)
    sheet = tmp_path / "round1.txt"
    sheet.write_text(CONTRACT_SHEET)
    result = runner.invoke(main, ["adjudicate", str(game), str(sheet), "-o", str(tmp_path / "next.yaml")])
    assert result.exit_code == 0, result.output
    assert "line 1, column 8: unknown card action 'mvoe'" in result.output
    data = yaml.safe_load((tmp_path / "next.yaml").read_text())
    assert (data["round"], data["racers"]["Red 5"], data["racers"]["Red 3"], data["racers"]["Blue 4"]) == (2, 5, 3, 4)


def test_cli_strict_refuses_a_sheet_with_a_bad_line_and_writes_nothing(tmp_path):
    runner = CliRunner()
    game = _table_game(runner, tmp_path)
    sheet = tmp_path / "round1.txt"
    sheet.write_text(CONTRACT_SHEET)
    before = game.read_text()
    result = runner.invoke(main, ["adjudicate", str(game), str(sheet), "--strict", "-o", str(tmp_path / "next.yaml")])
    assert result.exit_code == 2 and "round1.txt:1:8" in result.output
    assert not (tmp_path / "next.yaml").exists() and game.read_text() == before


def test_api_adjudicate_is_lenient_unless_told_not_to_be(board):
    from api import create_app

    client = create_app().test_client()
    start = {"variant": "arctic-race", **RULES.state_to_data(board, RULES.new_game(board, setup_text=SET_UP))}
    r = client.post("/v1/adjudicate", json={"state": start, "orders": CONTRACT_SHEET})
    body = r.get_json()
    assert r.status_code == 200, body
    assert [(p["line"], p["column"]) for p in body["sheet_problems"]] == [(1, 8)]
    assert [o["status"] for o in body["orders"]] == ["succeeds", "succeeds", "succeeds"]
    assert body["next_state"]["round"] == 2
    r = client.post("/v1/adjudicate", json={"state": start, "orders": CONTRACT_SHEET, "lenient": False})
    assert r.status_code == 400 and [e["line"] for e in r.get_json()["errors"]] == [1]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_sheet_reads_the_same_whatever_its_encoding(tmp_path, encoding):
    runner = CliRunner()
    game = _table_game(runner, tmp_path)
    want, got = reports_in_encoding(game, CONTRACT_SHEET, encoding, tmp_path)
    assert got == want
    # The set-up file itself, saved the same way, sets the same table up.
    setup = tmp_path / "table-bom.txt"
    setup.write_bytes(ENCODINGS[encoding](SET_UP))
    result = runner.invoke(main, ["new", "--variant", "arctic-race", "--setup", str(setup), "-o", str(tmp_path / "g2.yaml")])
    assert result.exit_code == 0, result.output
    assert yaml.safe_load((tmp_path / "g2.yaml").read_text())["players"] == ["Red", "Blue"]


@pytest.mark.parametrize("make", [
    lambda n: " \t" * (n // 2),
    lambda n: "Red" + " \t" * (n // 2) + ": 5 move",
    lambda n: "Red: 5 move" + " \t" * (n // 2) + "roll" + " " * n + "3",
    lambda n: "tile" + " " * n + "order T01",                      # a keyword with a blank inside
    lambda n: "starting" + " " * n + "player Red",
    lambda n: "tiles " + "T01 " * (n // 4),                         # a long list
    lambda n: "Red: 5 " + "x" * n,                                  # one long unknown word (suggestions)
    lambda n: ";" * n,
], ids=["blanks", "name-blanks", "inputs-blanks", "tile-order", "starting-player", "long-list", "long-word",
        "semicolons"])
def test_reading_a_line_costs_linear_time(board, make):
    """Every regex the reader applies to a line is linear: 10x the line costs about 10x (allocation and cache
    effects push that to 15-25x on 100k pieces), where a quadratic reader costs 100x."""
    RULES.read_sheet(board, None, make(1000))
    small = best_time(lambda: RULES.read_sheet(board, None, make(10_000)))
    large = best_time(lambda: RULES.read_sheet(board, None, make(100_000)), repeats=2)
    assert large / max(small, 1e-4) < 40, (small, large)


# ---------------------------------------------------------------- starting a game: the table, or a seeded shuffle


def test_new_from_the_table_counts_the_face_down_pile(board, tmp_path):
    state = RULES.new_game(board, setup_text="players Red, Yellow, Blue\nstart Yellow\nriver T01 T02 T03 T04 T05")
    data = RULES.state_to_data(board, state)
    assert (data["river"], data["pile"], "removed" in data) == (["T01", "T02", "T03", "T04", "T05"], 19, False)
    assert data["to_play"] == "Yellow" and data["history"][0]["orders"].startswith("players Red")
    again = RULES.state_from_data(board, yaml.safe_load(yaml.safe_dump(data)), None)
    assert RULES.state_to_data(board, again) == data
    # The pile empties tile by tile; an empty face-down pile is still written as a count (the removed stay unknown).
    state.pile_unknown = 0
    data = RULES.state_to_data(board, state)
    assert data["pile"] == 0 and "removed" not in data
    with pytest.raises(StateError, match="the face-down pile holds 19, not 0"):
        RULES.state_from_data(board, data, None)


@pytest.mark.parametrize("data, message", [
    ({"pile": 18}, "so the face-down pile holds 17, not 18"),
    ({"pile": 17, "removed": ["T01"]}, "leave out `removed`"),
    ({"pile": 17, "river": ["T14", "T14", "T28", "T23", "T27"]}, "tiles in two places at once: T14"),
    ({"pile": -1}, "0 tiles or more"),
])
def test_a_face_down_pile_that_does_not_add_up_is_refused(board, data, message):
    with pytest.raises(StateError, match=message):
        RULES.state_from_data(board, {"players": ["Red", "Blue"], "river": ["T14", "T09", "T28", "T23", "T27"],
                                      **data}, None)


def test_new_seed_shuffles_the_same_way_every_time(tmp_path):
    runner = CliRunner()
    orders = []
    for name, seed in (("a.yaml", "7"), ("b.yaml", "7"), ("c.yaml", "8")):
        result = runner.invoke(main, ["new", "--variant", "arctic-race", "--seed", seed, "-o", str(tmp_path / name)])
        assert result.exit_code == 0 and f"Arctic Race, set-up (tiles shuffled by seed {seed})" in result.output
        data = yaml.safe_load((tmp_path / name).read_text())
        assert data["phase"] == "setup" and data["seed"] == int(seed) and sorted(data["tiles"]) == ALL_TILES.split()
        orders.append(data["tiles"])
    assert orders[0] == orders[1] != orders[2]
    # Players and the start token finish the set-up with the shuffled tiles.
    sheet = tmp_path / "players.txt"
    sheet.write_text("players Red, Blue\nstart Red\n")
    result = runner.invoke(main, ["adjudicate", str(tmp_path / "a.yaml"), str(sheet), "-o", str(tmp_path / "a1.yaml")])
    assert result.exit_code == 0, result.output
    data = yaml.safe_load((tmp_path / "a1.yaml").read_text())
    assert data["removed"] + data["river"] + data["pile"] == orders[0] and len(data["removed"]) == 8


def test_new_seed_and_setup_together(tmp_path):
    runner = CliRunner()
    sheet = tmp_path / "players.txt"
    sheet.write_text("players Red, Blue, Green\nstart Green\n")
    result = runner.invoke(main, ["new", "--variant", "arctic-race", "--seed", "7", "--setup", str(sheet),
                                  "-o", str(tmp_path / "g.yaml")])
    assert result.exit_code == 0, result.output
    data = yaml.safe_load((tmp_path / "g.yaml").read_text())
    assert data["phase"] == "racing" and data["river"] == ["T10", "T01", "T14", "T09", "T28"]  # 6 removed for 3


@pytest.mark.parametrize("args, setup, message", [
    (["--variant", "arctic", "--seed", "3"], None, "--seed does not apply"),
    (["--variant", "arctica", "--setup", "SETUP"], "players Red", "--setup does not apply"),
    (["--variant", "arctic-race", "--setup", "SETUP"], "players Red, Blue\nstart Red\nRed: 5 move",
     "SETUP:3: a set-up sheet holds only"),
    (["--variant", "arctic-race", "--setup", "SETUP"], "players Red, Blue\nstart Red\nriver T01 T02",
     "the set-up is refused: refused (bad-input): the river holds 5 different tiles"),
    (["--variant", "arctic-race", "--setup", "SETUP"], "players Red, Bleu\n", "SETUP:1:14: the set-up sheet: unknown"),
    (["--variant", "arctic-race", "--seed", "x"], None, "'x' is not a valid integer"),
])
def test_new_refuses_what_it_cannot_set_up(tmp_path, args, setup, message):
    path = tmp_path / "setup.txt"
    if setup is not None:
        path.write_text(setup)
    args = [str(path) if a == "SETUP" else a for a in args]
    result = CliRunner().invoke(main, ["new", *args, "-o", str(tmp_path / "g.yaml")])
    assert result.exit_code == 2, result.output
    assert message.replace("SETUP", str(path)) in result.output
    assert not (tmp_path / "g.yaml").exists()


# ---------------------------------------------------------------- the README quickstarts and the order docs


def _readme_quickstarts() -> list[str]:
    """The `sh` blocks of the README section on the other Arctic games, each a quickstart."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Other Arctic games on the same machinery", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, re.S)


def _run_shell_line(runner: CliRunner, line: str):
    """A quickstart line: `adjudicator ...` through click's runner, or `echo`/`printf` writing a sheet."""
    import shlex

    words = shlex.split(line, comments=True)
    if words[0] == "adjudicator":
        return runner.invoke(main, words[1:], catch_exceptions=False)
    assert words[0] in ("echo", "printf") and words[-2] == ">", f"a quickstart line this test cannot run: {line}"
    body = words[1] + "\n" if words[0] == "echo" else words[1].replace("\\n", "\n")
    with open(words[-1], "w", encoding="utf-8") as f:
        f.write(body)
    return None


def test_the_readme_has_a_quickstart_for_each_other_game():
    blocks = _readme_quickstarts()
    variants = {v for b in blocks for v in ("arctic2019", "arctic-race", "arctica") if f"--variant {v} " in b}
    assert variants == {"arctic2019", "arctic-race", "arctica"}
    for block in blocks:  # each: new, a sheet, adjudicate, show
        commands = [line.split()[1] for line in block.splitlines() if line.startswith("adjudicator ")]
        assert commands[0] == "new" and "adjudicate" in commands and commands[-1] == "show", block


@pytest.mark.parametrize("block", _readme_quickstarts(), ids=lambda b: b.split("--variant ")[1].split()[0])
def test_readme_quickstart_commands_work(tmp_path, monkeypatch, block):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for line in filter(str.strip, block.splitlines()):
        result = _run_shell_line(runner, line)
        if result is None:
            continue
        assert result.exit_code == 0, f"{line}\n{result.output}"
        if " adjudicate " in f" {line} ":
            assert "illegal" not in result.output and "not orders" not in result.output, result.output
        if line.startswith("adjudicator show"):  # the position in words, under the game's title (not YAML)
            title = load_variant(block.split("--variant ")[1].split()[0]).title
            assert result.output.startswith(f"{title}: ") and "variant: " not in result.output


@pytest.mark.parametrize("variant", ["arctica", "arctic-race"])
def test_every_example_in_the_order_docs_reads(variant):
    """docs/orders/<variant>.md: every `text` block is a sheet the reader reads without a problem."""
    import re

    doc = (ROOT / "docs" / "orders" / f"{variant}.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(.*?)```", doc, re.S)
    board, rules = load_variant(variant), get_rules(variant)
    assert len(blocks) >= 5
    for block in blocks:
        sheet = rules.read_sheet(board, None, block)
        assert not sheet.problems and sheet.orders, (block, [str(p) for p in sheet.problems])
