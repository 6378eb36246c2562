"""Pictures drawn from the read orders and their outcomes, never from order text read back: a convoyed move
written with its seas is drawn along them, with the fleets' convoy marks, on every road (the judge's results in
process, a report given as JSON, the API, a hosted game's stored phase); a report's entries are read by the
board's own order reader, bound to their power; the picture code holds no regular expression."""

from __future__ import annotations

import json
import math
import re
import sqlite3

import pytest
from click.testing import CliRunner
from tests.games.diplomacy.picture.svg_helpers import distance_to, elements, polyline, svg_of
from tests.helpers import ROOT
from tests.hosted.helpers import make_api

from adjudicator.catalogue import load_variant
from adjudicator.cli import main
from adjudicator.game import rules_of
from adjudicator.games.diplomacy.orders.sheet import orders_from_lists
from adjudicator.games.diplomacy.phase import adjudicate
from adjudicator.games.diplomacy.picture import geometry
from adjudicator.games.diplomacy.picture.draw import power_colours
from adjudicator.games.diplomacy.picture.orders import CONVOY_RING
from adjudicator.games.diplomacy.state_file import state_from_data
from api import create_app

NS = "{http://www.w3.org/2000/svg}"
PICTURE_CODE = ROOT / "adjudicator" / "games" / "diplomacy" / "picture"
POSITION = {"variant": "standard", "phase": "Fall 1901 Movement",
            "units": {"England": ["F nth", "F eng", "A yor"], "France": ["A bel"], "Germany": ["A hol"]}}
CONVOY = {"England": ["F nth C A yor - pic", "F eng C A yor - pic", "A yor - nth - eng - pic"],
          "France": ["A bel S A yor - pic"], "Germany": ["A hol H"]}


@pytest.fixture(scope="module")
def standard():
    return load_variant("standard")


@pytest.fixture(scope="module")
def convoyed(standard):
    state = state_from_data(POSITION, board=standard)
    return state, adjudicate(standard, state, orders_from_lists(standard, CONVOY).orders)


def shaft(ids, key) -> str:
    return list(ids[key].iter(f"{NS}path"))[1].attrib["d"]  # the casing, then the coloured line


def spot(board, location):
    geo = geometry(board)
    return geo.location.get(location) or geo.anchor[location]


def check_the_convoy_path_is_drawn(board, ids) -> None:
    """The army's arrow runs along both seas it names, a leg to each fleet's convoy mark (a ring round the
    fleet, drawn over the arrow), the last leg to Picardy; the support ends on the arrow."""
    legs = [polyline(leg) for leg in shaft(ids, "order-3-move").split("M")[1:]]
    assert len(legs) == 3
    (yor, nth, eng, pic) = (spot(board, p) for p in ("yor", "nth", "eng", "pic"))
    assert math.dist(legs[0][0], yor) < 20 and math.dist(legs[2][-1], pic) < 40
    for leg_end, leg_start, sea in ((legs[0][-1], legs[1][0], nth), (legs[1][-1], legs[2][0], eng)):
        assert abs(math.dist(leg_end, sea) - CONVOY_RING) < 1 and abs(math.dist(leg_start, sea) - CONVOY_RING) < 1
    for n, sea in ((1, nth), (2, eng)):
        ring = ids[f"order-{n}-convoy-ring"].find(f"{NS}circle")
        assert ring is not None, n
        assert math.dist((float(ring.attrib["cx"]), float(ring.attrib["cy"])), sea) < 0.1
        assert abs(float(ring.attrib["r"]) - CONVOY_RING) < 0.1
    support = polyline(shaft(ids, "order-4-support"))
    assert distance_to(support[-1], [p for leg in legs for p in leg]) < 6.0


def test_a_convoy_with_its_seas_is_judged_and_drawn_from_the_judges_results(standard, convoyed):
    state, result = convoyed
    assert [r.status for r in result.report][:3] == ["succeeds"] * 3
    check_the_convoy_path_is_drawn(standard, elements(svg_of(standard, state, result)))


def test_a_report_given_as_json_draws_the_same_picture_as_the_judges_results(standard, convoyed):
    state, result = convoyed
    report = json.loads(json.dumps(result.to_json()))
    assert report["orders"][2]["understood_as"] == "A yor - nth - eng - pic via convoy"
    drawn = svg_of(standard, state, report)
    check_the_convoy_path_is_drawn(standard, elements(drawn))
    assert drawn == svg_of(standard, state, result)


def test_report_entries_are_read_by_the_boards_reader_bound_to_their_power(standard):
    state = state_from_data({"variant": "standard", "phase": "Spring 1901 Movement",
                             "units": {"England": ["A yor"], "France": ["A par"]}}, board=standard)
    entries = [  # names and a word order the board's reader knows, no private grammar does
        {"power": "England", "status": "succeeds", "understood_as": "Army Yorkshire -> London",
         "unit": {"type": "A", "location": "yor"}},
        {"power": "France", "status": "fails", "understood_as": "par - bur", "unit": {"type": "A", "location": "par"}},
        {"power": "France", "status": "succeeds", "understood_as": "A par - nowhere"},  # unreadable: left out
        {"power": "France", "status": "succeeds", "understood_as": 7}]
    ids = elements(svg_of(standard, state, {"orders": entries}))
    assert sorted(k for k in ids if re.fullmatch(r"order-\d+-\w+", k)) == ["order-1-move", "order-2-move"]
    colours = power_colours(standard)
    assert list(ids["order-1-move"].iter(f"{NS}path"))[1].attrib["stroke"] == colours["England"]
    assert "order-2-move-failed" in ids


def test_the_picture_code_reads_no_order_text_with_a_regular_expression():
    """The modules that take a phase's orders to the picture import no regular expressions (the package's
    others use one each on a file name or an id, never on an order)."""
    for name in ("results.py", "orders.py", "draw.py", "arrows.py"):
        text = (PICTURE_CODE / name).read_text()
        assert not re.search(r"^\s*(import re\b|from re import)", text, re.M), name


def test_the_command_line_draws_the_convoy_path_from_a_report(tmp_path, standard):
    runner = CliRunner()
    game, sheet, report, picture = (tmp_path / n for n in ("g.yaml", "o.txt", "r.json", "p.svg"))
    game.write_text(json.dumps(POSITION))
    sheet.write_text("".join(f"{p}:\n" + "".join(f"  {o}\n" for o in os) for p, os in CONVOY.items()))
    judged = runner.invoke(main, ["adjudicate", str(game), str(sheet), "--json"])
    assert judged.exit_code == 0, judged.output
    report.write_text(judged.output)
    drawn = runner.invoke(main, ["render", str(game), "--orders", str(report), "-o", str(picture)])
    assert drawn.exit_code == 0, drawn.output
    check_the_convoy_path_is_drawn(standard, elements(picture.read_text()))


def test_the_api_draws_the_convoy_path_from_orders_and_from_results(standard):
    client = create_app({"ADJUDICATOR_PICTURE_PROCESSES": 0}).test_client()
    state = client.post("/v1/start", json={"variant": "standard"}).get_json() | {
        "phase": POSITION["phase"], "units": POSITION["units"]}
    judged = client.post("/v1/adjudicate", json={"state": state, "orders": CONVOY}).get_json()
    by_orders = client.post("/v1/render", json={"state": state, "orders": CONVOY, "format": "svg"})
    by_results = client.post("/v1/render", json={"state": state, "results": judged, "format": "svg"})
    assert by_orders.status_code == by_results.status_code == 200, by_orders.data[:300]
    check_the_convoy_path_is_drawn(standard, elements(by_orders.data))
    assert by_orders.data == by_results.data
    bad = [{"power": "England", "status": "succeeds", "understood_as": "A yor - nth - nowhere"}]
    unreadable = client.post("/v1/render", json={"state": state, "results": bad, "format": "svg"})
    assert unreadable.status_code == 200 and b'id="order-' not in unreadable.data  # left out, not a 500


def test_a_hosted_phase_is_drawn_from_its_stored_orders_not_its_reports_text(tmp_path, standard):
    database = tmp_path / "g.sqlite3"
    api = make_api(f"sqlite:///{database}", ADJUDICATOR_PICTURE_PROCESSES=0)
    created = api.create(variant="standard", state=POSITION)
    gid, gm, tokens = created["id"], created["game_master_token"], created["tokens"]
    for power, lines in CONVOY.items():
        api.submit(gid, tokens[power], lines)
    api.judge(gid, gm)

    def picture() -> bytes:
        got = api.call("get", "/v1/games/{game_id}/phases/{phase_no}/picture", gm, game_id=gid, phase_no=1,
                       query="?format=svg")
        assert got.status_code == 200, got.get_data(as_text=True)[:300]
        return got.data

    drawn = picture()
    check_the_convoy_path_is_drawn(standard, elements(drawn))
    with sqlite3.connect(database) as db:
        stored, report = (json.loads(v) for v in db.execute("SELECT drawn, report FROM hosted_phases").fetchone())
        assert stored["drawn_orders"][2]["path"] == ["nth", "eng"]  # the read order, kept as data
        report["orders"][2]["understood_as"] = "A yor - pic via convoy"  # the report's text says otherwise...
        db.execute("UPDATE hosted_phases SET report = ?", (json.dumps(report),))
    assert picture() == drawn  # ...and is not what the picture is drawn from
    with sqlite3.connect(database) as db:  # a phase judged before the orders were kept: drawn from its report
        db.execute("UPDATE hosted_phases SET drawn = NULL")
    assert "order-3-move" in elements(picture()) and picture() != drawn
    phase = api.call("get", "/v1/games/{game_id}/phases/{phase_no}", gm, game_id=gid, phase_no=1).get_json()
    assert "drawn" not in phase and "drawn_orders" not in json.dumps(phase)  # the public JSON is as it was


def _phases(standard):
    """Phases whose pictures hold every kind of order and mark: a Fall movement with convoys, supports, holds
    and an illegal order; a retreat; an adjustment in civil disorder; the Arctic's ice disbanding units."""
    arctic = load_variant("arctic")
    fall = state_from_data(POSITION, board=standard)
    spring = state_from_data({"variant": "standard", "phase": "Spring 1902 Movement",
                              "units": {"France": ["A bur", "A par"], "Germany": ["A mun", "A ruh", "A bel"]}},
                             board=standard)
    moves = {"Germany": ["A mun - bur", "A ruh S A mun - bur", "A bel S A mun - bur"],
             "France": ["A bur H", "A par S A bur"]}
    retreat = adjudicate(standard, spring, orders_from_lists(standard, moves).orders).next_state
    adjustment = state_from_data({"variant": "standard", "phase": "Fall 1901 Adjustment",
                                  "centres": {"France": ["par"]}, "units": {"France": ["A par", "A bur", "F bre"]}},
                                 board=standard)
    summer = state_from_data({"variant": "arctic", "phase": "Summer 2011 Movement",
                              "centres": {"USA": ["Jun", "Anc", "Brw"]}, "units": {"USA": ["A Bea", "A Anc", "F Jun"]}},
                             board=arctic)
    return [(standard, fall, CONVOY | {"Germany": ["A hol S A yor - lon"]}, "support-illegal\""),
            (standard, spring, moves, 'id="order-1-move"'), (standard, retreat, {"France": ["A bur R gas"]},
                                                            'id="order-1-retreat"'),
            (standard, adjustment, {}, 'id="civil-disorder-'), (arctic, summer, {"USA": ["A Bea H"]},
                                                                 'id="ice-disbanded-Bea"')]


def test_every_road_draws_the_same_picture(standard):
    """The judge's results, their drawing as data (what the API and a hosted phase pass) and the report as JSON
    (what a user gives) draw byte-identical pictures."""
    for board, state, orders, drawn in _phases(standard):
        result = adjudicate(board, state, orders_from_lists(board, orders).orders)
        rules = rules_of(board)
        pictures = {svg_of(board, state, result), svg_of(board, state, json.loads(json.dumps(result.to_json()))),
                    svg_of(board, state, json.loads(json.dumps(rules.drawn(board, state, None, result))))}
        assert len(pictures) == 1, (state.phase, orders)
        assert drawn in pictures.pop(), (state.phase, drawn)


def test_a_drawing_given_as_data_is_checked_not_trusted(standard):
    state = state_from_data({"variant": "standard", "phase": "Spring 1901 Movement",
                             "units": {"France": ["A par"], "England": ["F lon"]}}, board=standard)
    good = {"kind": "move", "power": "France", "status": "succeeds", "origin": "par", "unit_type": "A", "dest": "bur",
            "number": 4, "path": []}
    drawing = {"drawn_orders": [5, {"kind": "move", "status": 3}, good | {"dest": "nowhere"}, good | {"number": "1"},
                                good | {"kind": "fly"}, good | {"path": ["nth", 7]}, good],
               "marks": [{"kind": "destroyed", "location": "lon"}, {"kind": "ice-disbanded", "location": "nowhere"},
                         {"kind": "blessed", "location": "lon"}, "x"]}
    ids = elements(svg_of(standard, state, drawing))
    assert sorted(k for k in ids if k.startswith(("order-", "destroyed-", "ice-", "blessed"))) == [
        "destroyed-lon", "destroyed-lon-badge", "order-4-move"]
