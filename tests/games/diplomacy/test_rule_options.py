"""Rule options as data (adjudicator/games/diplomacy/rulebook.py): the named sets, the keys, every shell that chooses them, and
the DATC cases each answer changes (datc_cases/options/), each of which must fail under DATC v3.0's answers."""

from __future__ import annotations

import dataclasses

import pytest
from click.testing import CliRunner

from adjudicator.games.diplomacy.board_file import board_from_data
from adjudicator.games.diplomacy.cases.datc import parse_cases, read_cases
from adjudicator.case_files import collect_files
from adjudicator.games.diplomacy.cases.runner import run_case
from adjudicator.catalogue import board_from_path, load_board_ref
from adjudicator.cli import main
from adjudicator.errors import AdjudicatorError
from adjudicator.gamefile import game_from_data, game_to_data
from adjudicator.game_cases import read_yaml_cases
from adjudicator.games.diplomacy.judge.adjustment import godip_distances
from adjudicator.games.diplomacy.phase import winner
from adjudicator.games.diplomacy.rulebook import BOARD_KEYS, DATC_KEYS, DEFAULT_RULES, Rulebook, rulebook_from_text
from adjudicator.games.diplomacy.state import GameState, Phase
from adjudicator.yamlio import load_yaml_file
from api import create_app
from tests.helpers import ROOT

OPTIONS = ROOT / "datc_cases" / "options"
FEATURES = ROOT / "datc_cases" / "features"
OPTION_CASES = [pytest.param(c, id=f"{p.stem}:{c.name}") for p in collect_files([OPTIONS]) if p.suffix == ".txt"
                for c in read_cases(p)]


# --- the sets and keys of OPTIONS.md -------------------------------------------------------------------------
@pytest.mark.parametrize("name, differences", [
    ("datc-3.0", {}),
    ("datc-2.4", {"4.A.3": "2000-fallback", "4.D.8": "home-centres"}),
    ("1971", {"4.A.1": "one-route", "4.A.2": "1971", "4.A.3": "1971", "4.A.5": "never", "4.D.8": "home-centres"}),
    ("1982", {"4.A.2": "1982", "4.A.3": "1982", "4.A.5": "never", "4.D.8": "home-centres"}),
    ("2000", {"4.A.2": "2000", "4.A.5": "never", "4.D.8": "home-centres"}),
    ("2023", {"4.A.2": "2000"}),
])
def test_each_named_set_resolves_as_the_table_says(name, differences):
    assert rulebook_from_text(name).differences() == differences


def test_the_defaults_are_datc_3_0_and_a_set_and_keys_combine_keys_after_the_set():
    assert Rulebook() == DEFAULT_RULES == rulebook_from_text("datc-3.0")
    assert DEFAULT_RULES.describe() == "datc-3.0"
    combined = rulebook_from_text("2000, 4.A.2: szykman, 4.D.3: last")
    assert combined.differences() == {"4.A.5": "never", "4.D.3": "last", "4.D.8": "home-centres"}
    assert combined.describe() == "2000, 4.A.2: szykman, 4.D.3: last"
    # a set names every DATC answer: it replaces keys given before it (here, the board's), not board rules
    board_rules = Rulebook(paradox="1971", builds="owned")
    assert rulebook_from_text("datc-2.4", board_rules) == Rulebook(adjacent_convoy="2000-fallback",
                                                                    civil_disorder="home-centres", builds="owned")
    assert rulebook_from_text("civil_disorder: distance-from-home").civil_disorder == "home-centres"  # old spelling


@pytest.mark.parametrize("text, words", [
    ("1972", "unknown rule set '1972'; the sets are datc-3.0, datc-2.4, 1971, 1982, 2000, 2023"),
    ("4.A.9: yes", "unknown key '4.A.9'; the keys are 4.A.1, 4.A.2"),
    ("4.A.2: hold", "4.A.2 'hold' is not one of szykman, 1971, 1982, 2000, all-hold"),
    ("4.A.2: 1971, 1971", "the rule set '1971' must come first"),
    ("4.A.2: 1971,, 4.D.3: last", "an empty item"),
])
def test_an_unknown_set_key_or_value_is_refused_listing_the_valid_ones(text, words):
    with pytest.raises(AdjudicatorError, match=words):
        rulebook_from_text(text)


# --- every answer has its case, and the case needs it --------------------------------------------------------
def _answers_used() -> set[tuple[str, str]]:
    """Every (key, answer) some case or test board plays that differs from the default."""
    rulebooks = [_played(c.rules) for c in read_cases_in(OPTIONS)]
    for path in collect_files([OPTIONS, FEATURES]):
        if path.suffix == ".yaml":
            for case in read_yaml_cases(path):
                rulebooks.append(_played(case.rules).with_values((case.prestate or {}).get("options") or {}))
    for board in sorted((FEATURES / "boards").glob("*.yaml")):
        rulebooks.append(board_from_data(load_yaml_file(str(board)), str(board)).options)
    return {(k, v) for book in rulebooks for k, v in book.differences().items()}


def _played(texts: tuple[str, ...]) -> Rulebook:
    book = DEFAULT_RULES
    for text in texts:
        book = rulebook_from_text(text, book)
    return book


def read_cases_in(folder):
    return [c for p in collect_files([folder]) if p.suffix == ".txt" for c in read_cases(p)]


def test_every_answer_of_every_key_is_played_by_a_case():
    used = _answers_used()
    wanted = {(key, value) for key, (_, values) in {**DATC_KEYS, **BOARD_KEYS}.items() for value in values[1:]}
    assert sorted(wanted - used) == []


@pytest.mark.parametrize("case", OPTION_CASES)
def test_an_option_case_ends_otherwise_under_datc_3_0(case):
    assert case.rules, "an option case names its rules"
    assert run_case(case).passed
    default = dataclasses.replace(case, rules=("datc-3.0",))
    if rulebook_from_text(case.rules[-1]).describe().startswith("2000, 4.A.2: szykman"):
        return  # (the one case showing that keys follow a set: it plays as DATC v3.0 does)
    assert not run_case(default).passed, "the case passes without its rules: it does not test them"


@pytest.mark.parametrize("file, rules", [("godip-disorder.txt", "4.D.8: 2023"),
                                         ("default-builds.txt", "default_builds: none")])
def test_a_board_rule_case_fails_without_the_rule(file, rules):
    cases = read_cases(FEATURES / file)
    assert cases and all(run_case(c).passed for c in cases)
    assert not any(run_case(c, rules=rules).passed for c in cases)


def test_godip_counts_no_path_as_0_and_follows_one_way_borders():
    data = load_yaml_file(str(FEATURES / "boards" / "godip-disorder.yaml"))
    data["provinces"].append({"id": "isl", "name": "Isle"})
    data["borders"].append("p1 > isl : land")  # reached one way, and no way leads home from it
    board = board_from_data(data)
    distances = godip_distances(board, board.home_centres("Red"))
    assert (distances["z"], distances["y"], distances["x"]) == (1, 2, 3)  # home from the Landing: by Upper, Lower
    assert "isl" not in distances  # (counted 0 by the civil-disorder order)
    state = GameState("godip-disorder", Phase("Fall", 1901, "Adjustment"), {}, {"r1": "Red"})
    from adjudicator.games.diplomacy.judge.adjustment import civil_disorder_order
    from adjudicator.games.diplomacy.state import Unit
    units = [Unit("Red", "A", "isl"), Unit("Red", "A", "q2")]
    assert civil_disorder_order(board, state, "Red", units)[0].province == "q2"  # 2 before the Isle's 0


def test_the_victory_threshold_changes_with_the_year():
    board = board_from_path(FEATURES / "boards" / "victory-by-year.yaml")[0]
    owners = {"r1": "Red", "r2": "Red", "c1": "Red"}
    assert winner(board, GameState(board.name, Phase("Fall", 1902, "Movement"), {}, owners)) is None
    assert winner(board, GameState(board.name, Phase("Fall", 1903, "Movement"), {}, owners)) == "Red"
    assert board.options.victory.centres_in(1950) == 3 and board.victory_centres(year=1901) == 5


# --- the shells ------------------------------------------------------------------------------------------------
KIDNAP = {"variant": "standard", "phase": "Spring 1901 Movement",
          "units": {"England": ["A nwy"], "Russia": ["F swe"], "Germany": ["F ska"]}}
KIDNAP_ORDERS = {"England": ["A nwy - swe"], "Russia": ["F swe - nwy"], "Germany": ["F ska C A nwy - swe"]}


def test_a_game_file_keeps_its_rules_and_the_report_names_them():
    board, state = game_from_data({**KIDNAP, "options": {"set": 1971, "4.A.2": "szykman"}})
    assert state.rule_options(board).describe() == "1971, 4.A.2: szykman"
    data = game_to_data(board, state)
    assert data["options"] == {"4.A.1": "one-route", "4.A.3": "1971", "4.A.5": "never", "4.D.8": "home-centres"}
    assert game_from_data(data)[1].options == state.options
    with pytest.raises(AdjudicatorError) as exc:
        game_from_data({**KIDNAP, "options": {"4.A.3": "sometimes"}})
    assert exc.value.pointer == "/options" and "2000, 1971, 1982, 2000-fallback, explicit" in exc.value.message


def test_the_command_line_takes_rules(tmp_path):
    game = tmp_path / "g.yaml"
    game.write_text("variant: standard\nphase: Spring 1901 Movement\n"
                    "units: {England: [A nwy], Russia: [F swe], Germany: [F ska]}\n")
    orders = tmp_path / "o.txt"
    orders.write_text("England: A nwy - swe\nRussia: F swe - nwy\nGermany: F ska C A nwy - swe\n")
    run = CliRunner().invoke(main, ["adjudicate", str(game), str(orders), "--rules", "4.A.3: 1971",
                                    "-o", str(tmp_path / "n.yaml")])
    assert run.exit_code == 0, run.output
    assert "Rules: datc-3.0, 4.A.3: 1971" in run.output and "moves to swe" in run.output
    assert "4.A.3: '1971'" in (tmp_path / "n.yaml").read_text()  # the next position keeps the rules played
    bad = CliRunner().invoke(main, ["adjudicate", str(game), str(orders), "--rules", "4.A.3: 1972"])
    assert bad.exit_code != 0 and "--rules: 4.A.3 '1972' is not one of" in bad.output
    cases = tmp_path / "c.txt"
    cases.write_text("RULES 4.A.3: 1971\nCASE kidnap\nPRESTATE\n England: A nwy\n Russia: F swe\n Germany: F ska\n"
                     "ORDERS\n England: A nwy-swe\n Russia: F swe-nwy\n Germany: F ska C A nwy-swe\nPOSTSTATE\n"
                     " England: A swe\n Russia: F nwy\n Germany: F ska\nEND\n")
    assert CliRunner().invoke(main, ["datc", str(cases)]).exit_code == 0
    assert CliRunner().invoke(main, ["datc", str(cases), "--rules", "1982"]).exit_code == 0  # the file's key over it
    refused = CliRunner().invoke(main, ["datc", str(cases), "--rules", "nonsense"])
    assert refused.exit_code != 0 and "unknown rule set 'nonsense'" in refused.output


def test_a_rules_line_with_an_unknown_value_fails_its_case_alone_located():
    cases = parse_cases("CASE a\nRULES 4.A.1: some-routes\nPRESTATE\n England: A lon\nORDERS\nPOSTSTATE_SAME\nEND\n"
                        "CASE b\nPRESTATE\n England: A lon\nORDERS\nPOSTSTATE_SAME\nEND\n", "c.txt")
    first, second = (run_case(c) for c in cases)
    assert not first.passed and "c.txt:2: RULES: 4.A.1 'some-routes' is not one of all-routes, one-route" in \
        first.problems[0]
    assert second.passed


def test_the_api_takes_rules(client):
    judged = client.post("/v1/adjudicate", json={"state": KIDNAP, "orders": KIDNAP_ORDERS, "rules": "1971"}).get_json()
    assert judged["rules"] == "1971" and judged["next_state"]["units"]["England"] == ["A swe"]
    plain = client.post("/v1/adjudicate", json={"state": KIDNAP, "orders": KIDNAP_ORDERS}).get_json()
    assert plain["rules"] == "datc-3.0" and plain["next_state"]["units"]["England"] == ["A nwy"]
    refused = client.post("/v1/adjudicate", json={"state": KIDNAP, "orders": KIDNAP_ORDERS, "rules": "4.Z.1: x"})
    assert refused.status_code == 400 and refused.get_json()["pointer"] == "/rules"
    arctic = client.get("/v1/variants/arctic2019/start").get_json()
    other = client.post("/v1/orders/legal", json={"state": arctic, "rules": "1971"})
    assert other.status_code in (400, 422)  # rule options are Diplomacy's
    text = "CASE kidnap\nPRESTATE\n England: A nwy\n Russia: F swe\n Germany: F ska\nORDERS\n England: A nwy-swe\n" \
           " Russia: F swe-nwy\n Germany: F ska C A nwy-swe\nPOSTSTATE\n England: A swe\n Russia: F nwy\n" \
           " Germany: F ska\nEND\n"
    assert client.post("/v1/datc", json={"text": text, "rules": "1971"}).get_json()["passed"] == 1
    assert client.post("/v1/datc", json={"text": text}).get_json()["failed"] == 1


def test_legal_orders_follow_the_rules(client):
    state = {"variant": "standard", "phase": "Spring 1901 Movement",
             "units": {"France": ["F por", "F mid"], "Austria": ["A rum"], "Turkey": ["F bla"]}}
    lists = client.post("/v1/orders/legal", json={"state": state}).get_json()["powers"]
    assert "F por S F mid - spa" in lists["France"]["F por"]
    assert "F bla S A rum - arm" not in lists["Turkey"]["F bla"]  # DATC 6.D.31: the only route runs through it
    assert "F bla S A rum" in lists["Turkey"]["F bla"]
    strict = client.post("/v1/orders/legal", json={"state": state, "rules": "4.B.4: coast-required"}).get_json()
    assert "F por S F mid - spa" not in strict["powers"]["France"]["F por"]


def test_legal_orders_name_the_convoy_path_when_the_rules_require_it(client):
    # DATC 4.A.6 `required`: a convoyed move that names no path is illegal, so the list offers each destination
    # along its shortest path (Spain two fleets away, through the Channel and the Mid-Atlantic).
    state = {"variant": "standard", "phase": "Spring 1901 Movement",
             "units": {"England": ["A lon", "F eng", "F mid", "F nth"]}}
    plain = client.post("/v1/orders/legal", json={"state": state}).get_json()["powers"]["England"]["A lon"]
    assert "A lon - bre via convoy" in plain
    required = client.post("/v1/orders/legal", json={"state": state, "rules": "4.A.6: required"}).get_json()
    army = required["powers"]["England"]["A lon"]
    assert "A lon - bre via convoy" not in army and "A lon - eng - bre via convoy" in army
    assert "A lon - eng - mid - spa via convoy" in army and "A lon - nth - nwy via convoy" in army
    for order in (o for o in army if "convoy" in o):  # each one offered is one the judge accepts under those rules
        judged = client.post("/v1/adjudicate", json={"state": state, "orders": f"England: {order}",
                                                     "rules": "4.A.6: required"}).get_json()
        assert judged["orders"][0]["status"] not in ("illegal", "unreadable"), judged["orders"][0]
    unnamed = client.post("/v1/adjudicate", json={"state": state, "orders": "England: A lon - bre via convoy",
                                                  "rules": "4.A.6: required"}).get_json()
    assert unnamed["orders"][0]["status"] == "illegal"  # (the test above could fail)


def test_a_hosted_game_is_fixed_to_its_rules_when_created(tmp_path):
    client = create_app({"ADJUDICATOR_DATABASE_URL": f"sqlite:///{tmp_path / 'g.sqlite3'}"}).test_client()
    bad = client.post("/v1/games", json={"variant": "standard", "rules": "1999"})
    assert bad.status_code == 400 and bad.get_json()["pointer"] == "/rules"
    created = client.post("/v1/games", json={"variant": "standard", "state": KIDNAP, "rules": "4.A.3: 1971"})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    for power, orders in KIDNAP_ORDERS.items():
        r = client.put(f"/v1/games/{game['id']}/orders", json={"orders": orders, "phase_no": 1},
                       headers={"Authorization": f"Bearer {game['tokens'][power]}"})
        assert r.status_code == 200, r.get_json()
    gm = {"Authorization": f"Bearer {game['game_master_token']}"}
    assert client.post(f"/v1/games/{game['id']}/adjudicate", json={"phase_no": 1}, headers=gm).status_code == 200
    phase = client.get(f"/v1/games/{game['id']}/phases/1", headers=gm).get_json()
    assert phase["report"]["rules"] == "datc-3.0, 4.A.3: 1971"  # kidnapped (by default the armies do not move)
    assert phase["position_after"]["units"]["England"] == ["A swe"]
    assert phase["position_after"]["options"] == {"4.A.3": "1971"}


GODIP_TIE = """\
CASE godip removes the fleet at equal distance (issue 34)
RULES 4.D.8: godip
PRESTATE_SETPHASE Fall 1901, Adjustment
PRESTATE_SUPPLYCENTER_OWNERS
	France: par
PRESTATE
	France: A bur
	France: F spa/nc
ORDERS
POSTSTATE
	France: A bur
END
"""


def test_godip_removes_a_fleet_before_an_army_at_equal_distance_then_by_province_id():
    # godip's remoteUnitSlice.Less: farther first; at equal distance a fleet before an army, then the province id
    assert run_case(parse_cases(GODIP_TIE, "godip.txt")[0]).passed  # Burgundy and Spain: one move from Marseilles
    board = load_board_ref("standard")
    state = GameState("standard", Phase("Fall", 1901, "Adjustment"), {}, {"par": "France"},
                      options=rulebook_from_text("4.D.8: godip"))
    from adjudicator.games.diplomacy.judge.adjustment import civil_disorder_order
    from adjudicator.games.diplomacy.state import Unit
    units = [Unit("France", "A", "bur"), Unit("France", "A", "gas"), Unit("France", "F", "spa/nc")]
    assert [u.location for u in civil_disorder_order(board, state, "France", units)] == ["spa/nc", "bur", "gas"]
