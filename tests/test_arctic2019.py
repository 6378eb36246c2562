"""2019: The ARCTIC: the board's counts the rulebook requires, the grammar and its errors, refused steps that
change nothing, bad states and boards, and the CLI round trip (the rules themselves are in
datc_cases/arctic2019/, run by test_datc_cases.py)."""

from __future__ import annotations

import copy
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
from adjudicator.games.arctic2019.steps import AutoMove, EndTurn, Header, Keep, Move, PlatformAttack, ShipAttack
from adjudicator.resources import data_dir
from adjudicator.yamlio import load_yaml_file

RULES = get_rules("arctic2019")


@pytest.fixture(scope="module")
def board():
    return load_variant("arctic2019")


def raw_board() -> dict:
    return load_yaml_file(data_dir("variants") / "arctic2019.yaml")


def state(board, **data):
    return RULES.state_from_data(board, data, None)


def run(board, prestate: dict, orders: str):
    before = state(board, **prestate)
    return before, RULES.adjudicate(board, before, Sheet(orders=RULES.parse_orders(board, orders, None)))


# --- the board: every count the rulebook states ----------------------------------------------------------

def test_deposits_16_gas_10_oil_6_concretions(board):
    assert Counter(s.deposit for s in board.sectors.values() if s.deposit) == {"gas": 16, "oil": 10, "concretions": 6}


def test_law_b_sectors_per_country(board):
    assert Counter(s.law_b for s in board.sectors.values() if s.law_b) == {"RU": 7, "NO": 2, "EU": 3, "CA": 3, "US": 3}
    assert all(board.sectors[s].kind == "sea" for s in board.sectors if board.sectors[s].law_b)


def test_ship_symbols_and_setup(board):
    symbols = Counter(s.symbol_country for s in board.sectors.values() if s.symbol_country)
    assert symbols == {"CN": 1, "RU": 3, "NO": 1, "EU": 2, "CA": 2, "US": 3}
    us = sorted(s.setup_ships for s in board.sectors.values() if s.symbol_country == "US")
    assert us == [1, 1, 2]  # 4 ships in 3 sectors: 2 near Alaska, 1 in each of the two east of Canada
    china = [s for s in board.sectors.values() if s.symbol_country == "CN"]
    assert len(china) == 1 and china[0].setup_ships == 1


def test_three_russian_coastal_sectors_have_two_north_neighbours(board):
    two = [s for s in board.sectors.values() if len(s.north) == 2]
    assert len(two) == 3 and all(s.kind == "coastal" and s.owner == "RU" for s in two)
    for s in two:  # the north-east one is the second (B10): it lies further east
        assert all(board.adjacency_kind(s.id, n) == "side" for n in s.north)


def test_north_leads_to_the_pole(board):
    for s in board.sectors.values():
        here, steps = s.id, 0
        while not board.sectors[here].is_polar:
            here, steps = board.sectors[here].north[-1], steps + 1
        assert steps <= 4


def test_adjacency_graph(board):
    g = board.graph
    assert isinstance(g, nx.Graph)
    assert g.number_of_nodes() == 36 and g.number_of_edges() == 105
    kinds = Counter(k for _, _, k in g.edges(data="kind"))
    assert kinds == {"side": 73, "corner": 32}
    assert nx.is_connected(g) and nx.diameter(g) == 5
    assert sorted(g.neighbors(board.pole)) == sorted(s.id for s in board.sectors.values() if s.ring == "inner")
    for a, b in [("KOL", "KAR"), ("CKT", "ALA"), ("NNO", "WAN"), ("BER", "ESS"), ("YAM", "BAR"), ("AMU", "MAK")]:
        assert not board.adjacent(a, b)  # §3.4


def test_kinds_rings_and_costs(board):
    kinds = Counter(s.kind for s in board.sectors.values())
    assert kinds == {"polar": 1, "sea": 21, "coastal": 14}
    assert Counter(s.ring for s in board.sectors.values() if s.kind == "sea") == {"inner": 5, "middle": 6, "outer": 10}
    assert board.ring_cost == {"inner": 3, "middle": 2, "outer": 1}
    assert {c: c_.ships for c, c_ in board.countries.items()} == {"RU": 14, "NO": 6, "EU": 12, "CA": 6, "US": 10, "CN": 4}


def test_the_board_is_replaceable_data(board):
    """The engine names no sector: renaming every sector in the data changes nothing in play."""
    data = copy.deepcopy(raw_board())
    rename = {s["id"]: "Z" + s["id"] for s in data["sectors"]}
    for s in data["sectors"]:
        s["id"] = rename[s["id"]]
        s["name"] = "Z " + s["name"]
        s.pop("aliases", None)
        s["north"] = [rename[n] for n in s["north"]]
    data["adjacency"] = {rename[a]: {k: [rename[b] for b in v] for k, v in e.items()} for a, e in data["adjacency"].items()}
    other = RULES.load_board(data, "renamed.yaml")
    start = RULES.initial_state(other)
    result = RULES.adjudicate(other, start, Sheet(orders=RULES.parse_orders(other, "China: move north\nUSA: move 2 ZALA -> ZCHS", None)))
    assert [r.status for r in result.report] == ["succeeds", "succeeds"]
    assert result.next_state.ships["ZCHS"] == {"CN": 1, "US": 2}


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["sectors"][1].update(deposit="oil"), "rulebook deposits"),
    (lambda d: d["sectors"][1].update(law_b="RU"), "rulebook law_b"),
    (lambda d: d["sectors"][1].update(north=["LIN"]), "north neighbour LIN must be a side neighbour"),
    (lambda d: d["sectors"][1].update(kind="ocean"), "kind must be"),
    (lambda d: d["sectors"][2].update(law_b=False), "quote it"),
    (lambda d: d["adjacency"]["NP"]["side"].append("XXX"), "unknown sector 'XXX'"),
    (lambda d: d["adjacency"]["AMU"]["side"].append("NP"), "listed twice"),
    (lambda d: d["sectors"][0].update(kind="sea", ring="inner"), "exactly one polar sector"),
])
def test_bad_boards_are_refused_with_a_reason(edit, message):
    data = copy.deepcopy(raw_board())
    edit(data)
    with pytest.raises(VariantError) as exc:
        RULES.load_board(data, "bad.yaml")
    assert message in str(exc.value)


def test_board_errors_name_the_line():
    data = raw_board()
    bad = copy.deepcopy(data)
    bad["sectors"][3]["ring"] = "outermost"
    with pytest.raises(VariantError) as exc:
        RULES.load_board(bad, "bad.yaml")
    assert exc.value.line == data["sectors"][3].line  # the line of MAK in the file


# --- the grammar -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("USA: move 3 ships from CHS to BEA", Move(ships=3, source="CHS", dest="BEA", country="US")),
    ("USA: move CHS -> BEA", Move(ships=1, source="CHS", dest="BEA", country="US")),
    ("usa: MOVE 2 Chukchi Sea to Beaufort Sea", Move(ships=2, source="CHS", dest="BEA", country="US")),
    ("United States: move ship from chs into bea", Move(ships=1, source="CHS", dest="BEA", country="US")),
    ("USA: attack Canada in BEA", ShipAttack(sector="BEA", target="CA", ships=1, country="US")),
    ("USA: attack 2 Canadian ships at BEA", ShipAttack(sector="BEA", target="CA", ships=2, country="US")),
    ("USA: destroy platform in BEA with 2 ships", PlatformAttack(sector="BEA", ships=2, country="US")),
    ("Russia: attack the platform in Kara Sea", PlatformAttack(sector="KAR", ships=None, country="RU")),
    ("China: move north", AutoMove(country="CN")),
    ("automatic move", AutoMove(country="CN")),
    ("keep platform in ESS", Keep(sector="ESS", pay=True)),
    ("Alfred: abandon platform in ESS", Keep(sector="ESS", pay=False, player="Alfred")),
    ("end of turn", EndTurn()),
])
def test_grammar_reads_steps(board, text, expected):
    (step,) = RULES.parse_orders(board, text, None)
    got = {k: v for k, v in vars(step).items() if k not in ("text", "line")}
    assert got == {k: v for k, v in vars(expected).items() if k not in ("text", "line")}


def test_sheet_prefix_carries_over_lines_and_semicolons(board):
    steps = RULES.parse_orders(board, "# Russia's action\nRussia:\n  move KOL - BAR  # north\n"
                                      "  attack China in BAR; destroy platform in BAR\n\nend of turn", None)
    assert [type(s).__name__ for s in steps] == ["Header", "Move", "ShipAttack", "PlatformAttack", "EndTurn"]
    assert [s.country for s in steps] == ["RU", "RU", "RU", "RU", None]
    assert [s.line for s in steps] == [2, 3, 4, 4, 6]
    assert isinstance(steps[0], Header)


@pytest.mark.parametrize("text, message, line, column", [
    ("Russia: move 1 ship from KOL to KARR", "unknown sector 'KARR'", 1, 33),
    ("Russia: move 1 ship from KOL", "the step ends too early", 1, 29),
    ("Rusia: move 1 ship from KOL to BAR", "unknown country 'Rusia'", 1, 1),
    ("Russia: move KOL to BAR\nmove BAR to NAN; jump BAR", "unexpected 'jump'", 2, 18),
    ("move 1 ship from KOL to BAR", "whose step is this?", 1, 1),
    ("USA: end of turn", "no country's step", 1, 1),
    ("USA: attack Canda in BEA", "unknown country 'Canda'", 1, 13),
    ("Russia: vote for law D", "unknown law", 1, 22),
])
def test_grammar_errors_point_at_the_problem(board, text, message, line, column):
    with pytest.raises(OrderError) as exc:
        RULES.parse_orders(board, text, "orders.txt")
    err = exc.value
    assert message in err.message and (err.file, err.line, err.column) == ("orders.txt", line, column)


def test_grammar_suggests_close_names(board):
    with pytest.raises(OrderError) as exc:
        RULES.parse_orders(board, "Russia: move 1 ship from KOL to Barents See", None)
    assert any("Barents Sea" in s for s in exc.value.suggestions)
    with pytest.raises(OrderError) as exc:
        RULES.parse_orders(board, "Rusia: move KOL to BAR", None)
    assert "Russia" in exc.value.suggestions


# --- refused steps change nothing ------------------------------------------------------------------------

REFUSED = [
    ({"ships": {"KOL": {"RU": 1}}}, "Russia: move KOL to KAR"),                                  # not adjacent
    ({"ships": {"BAR": {"RU": 1, "NO": 1}}}, "Russia: attack Norway in BAR"),                    # no conflict
    ({"law": "B", "conflicts": {"CA": "US"}, "ships": {"CAB": {"US": 1}},
      "platforms": [{"sector": "CAB", "owner": "Alfred"}]}, "USA: destroy platform in CAB with 1 ship"),  # too weak
    ({"ships": {"LAP": {"US": 3}}, "platforms": [{"sector": "LAP", "owner": "B", "protected_by": "RU"}]},
     "USA: destroy platform in LAP"),                                                            # protected
    ({"control": {"NP": "RU"}, "ships": {"NP": {"RU": 1}, "MAK": {"US": 1}}}, "USA: move 2 MAK -> NP"),  # too few
    ({"ships": {"BER": {"CN": 1}}}, "USA: move north"),                                          # not China
    ({"conflicts": {"CA": "US"}}, "Canada: declare conflict with USA"),                          # no effect
]


@pytest.mark.parametrize("prestate, orders", REFUSED)
def test_a_refused_step_changes_nothing(board, prestate, orders):
    before, result = run(board, prestate, orders)
    assert result.report[0].status == "illegal"
    assert RULES.state_to_data(board, result.next_state) == RULES.state_to_data(board, before)


def test_adjudicate_never_mutates_its_input(board):
    prestate = {"law": "C", "control": {"ESS": "RU"}, "ships": {"CHS": {"US": 2}},
                "platforms": [{"sector": "ESS", "owner": "Alfred", "protected_by": "RU"}], "cash": {"Alfred": 5}}
    before = state(board, **prestate)
    snapshot = RULES.state_to_data(board, before)
    result = RULES.adjudicate(board, before, Sheet(orders=RULES.parse_orders(board, "keep ESS\nUSA: move 2 CHS - ESS", None)))
    assert RULES.state_to_data(board, before) == snapshot
    assert result.next_state.cash == {"Alfred": 3} and result.next_state.control["ESS"] == "US"


def test_a_refused_step_among_others_leaves_the_rest(board):
    _, result = run(board, {"ships": {"KOL": {"RU": 2}}}, "Russia: move KOL-BAR; move KOL-KAR; move KOL-NEN")
    assert [r.status for r in result.report] == ["succeeds", "illegal", "succeeds"]
    assert result.next_state.ships == {"BAR": {"RU": 1}, "NEN": {"RU": 1}}
    assert result.report[1].cause["refusal"] == "not_adjacent"


# --- states ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, message", [
    ({"ships": {"NNO": {False: 1}}}, "quote it"),
    ({"ships": {"KOL": {"CN": 5}}}, "China has 5 ships on the board but only 4"),
    ({"ships": {"KARR": {"RU": 1}}}, "unknown sector 'KARR'"),
    ({"platforms": [{"sector": "BER", "owner": "A"}]}, "no deposit"),
    ({"platforms": [{"sector": "KAR", "owner": "A", "legal": True}]}, "uncontrolled, so its platform is illegal"),
    ({"law": "A", "control": {"KAR": "RU"}}, "under law A"),
    ({"law": "B", "control": {"KAR": "US"}}, "controlled by Russia"),
    ({"control": {"KOL": "RU"}}, "coastal"),
    ({"conflicts": {"CA": "CN"}}, "always in conflict with China"),
    ({"council": {"RU": "A"}}, "must give every vote"),
    ({"supply": {"RU": 3}}, "supply says Russia has 3 ships"),
    ({"sips": {}}, "unknown key 'sips'"),
    ({"turn": 10}, "turn must be a whole number from 1 to 9"),
])
def test_bad_states_are_refused_with_a_reason(board, data, message):
    with pytest.raises(StateError) as exc:
        RULES.state_from_data(board, data, "game.yaml")
    assert message in str(exc.value)


def test_state_round_trip(board):
    start = RULES.initial_state(board)
    data = RULES.state_to_data(board, start)
    again = RULES.state_from_data(board, yaml.safe_load(yaml.safe_dump(data)), None)
    assert RULES.state_to_data(board, again) == data
    assert data["supply"] == {"RU": 11, "NO": 5, "EU": 10, "CA": 4, "US": 6, "CN": 3}


# --- the CLI ---------------------------------------------------------------------------------------------

def test_cli_new_and_adjudicate_round_trip(tmp_path):
    cli = CliRunner()
    game, nxt, last = tmp_path / "g.yaml", tmp_path / "g2.yaml", tmp_path / "g3.yaml"
    r = cli.invoke(main, ["new", "--variant", "arctic2019", "-o", str(game)])
    assert r.exit_code == 0, r.output
    orders = tmp_path / "turn1.txt"
    orders.write_text("China: move north\nUSA: move 2 ships from ALA to CHS\nattack China in CHS\nend of turn\n")
    r = cli.invoke(main, ["adjudicate", str(game), str(orders), "-o", str(nxt)])
    assert r.exit_code == 0, r.output
    assert "BER -> CHS" in r.output and "1 American ship and 1 Chinese ship destroyed" in r.output
    data = yaml.safe_load(nxt.read_text())
    assert data["variant"] == "arctic2019" and data["turn"] == 2
    assert data["ships"]["CHS"] == {"US": 1} and data["supply"]["CN"] == 4
    assert data["history"][0]["results"][0]["status"] == "succeeds"
    orders2 = tmp_path / "turn2.txt"
    orders2.write_text("USA: move CHS to CKT; move ALA to BER\n")
    r = cli.invoke(main, ["adjudicate", str(nxt), str(orders2), "-o", str(last), "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output)
    assert [o["status"] for o in report["orders"]] == ["succeeds", "illegal"]
    assert report["orders"][1]["cause"]["refusal"] == "no_ships"
    assert len(yaml.safe_load(last.read_text())["history"]) == 2


def test_cli_reports_bad_orders_with_their_place(tmp_path):
    cli = CliRunner()
    game = tmp_path / "g.yaml"
    cli.invoke(main, ["new", "--variant", "arctic2019", "-o", str(game)])
    orders = tmp_path / "bad.txt"
    orders.write_text("USA: move 2 ships from ALA to CHS\nRussia: move KOL to Barentz\n")
    r = cli.invoke(main, ["adjudicate", str(game), str(orders), "-o", str(tmp_path / "n.yaml")])
    assert r.exit_code == 2
    assert "bad.txt:2:21" in r.output and "unknown sector 'Barentz'" in r.output
    assert not (tmp_path / "n.yaml").exists()


def test_variant_check_accepts_the_board():
    r = CliRunner().invoke(main, ["variant", "check", str(data_dir("variants") / "arctic2019.yaml")])
    assert r.exit_code == 0 and "OK" in r.output
