"""Board pictures looked at: the SVG's elements found by id (every space, unit, centre, border kind, order), where
the marks and arrowheads land, the legend against the board's features, PNG pixels where a unit stands, and the
colour distances between powers."""

from __future__ import annotations

import io
import itertools
import os
import math
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from tests.games.diplomacy.picture.svg_helpers import collisions, distance_to, elements, placed, polyline, svg_of
from tests.helpers import benchmark

from adjudicator.games.diplomacy.board_file import board_from_data
from adjudicator.catalogue import board_from_path, load_variant, variant_names
from adjudicator.games.diplomacy.state_file import state_from_data
from adjudicator.game import rules_of
from adjudicator.games.diplomacy.orders.sheet import orders_from_lists
from adjudicator.games.diplomacy.phase import adjudicate
from adjudicator.games.diplomacy.picture import geometry
from adjudicator.games.diplomacy.picture.draw import power_colours
from adjudicator.games.diplomacy.picture.orders import faded
from adjudicator.render.palette import MIN_DELTA_E, PALETTE, assign_colours, delta_e, smallest_difference
from adjudicator.games.diplomacy.picture.stored import board_key, load_stored
from adjudicator.render.style import CASING, FAILED_EDGE
from adjudicator.resources import data_dir
from adjudicator.games.diplomacy.state import Phase, opening_state

NS = "{http://www.w3.org/2000/svg}"
WATERWAYS = data_dir("variants").parent / "datc_cases" / "features" / "boards" / "waterways.yaml"


def label_boxes(ids: dict[str, ET.Element]) -> dict[str, tuple[float, float, float, float]]:
    out = {}
    for key, e in ids.items():
        if key.startswith("label-"):
            r = e.find(f"{NS}rect")
            x, y, w, h = (float(r.attrib[k]) for k in ("x", "y", "width", "height"))
            out[key[len("label-"):]] = (x, y, x + w, y + h)
    return out


def inside(p, box, pad=0.0) -> bool:
    return box[0] - pad < p[0] < box[2] + pad and box[1] - pad < p[1] < box[3] + pad


def legend_keys(ids) -> set[str]:
    return {k[len("legend-"):] for k in ids if k.startswith("legend-") and k not in ("legend-title", "legend-phase")}


POSITION = benchmark("pictures").POSITION  # the benchmark's phase: the standard board at Fall 1901
ORDERS = {
    "England": ["F nth C A yor - bel", "A yor - bel", "F nrg - nwy"],
    "France": ["A bur - bel", "F mid - por", "A spa S F mid - por"],
    "Germany": ["A ruh S A bur - bel", "F den - swe"],
    "Austria": ["A ser - gre", "F alb S A ser - gre", "A gal - rum"],
    "Italy": ["F ion C A apu - tun", "A apu - tun"],
    "Russia": ["F bot - swe", "F bla - rum", "F stp/nc H"],
    "Turkey": ["A bul S A ser - tyr"],  # illegal: Bulgaria does not border Tyrolia
}


@pytest.fixture(scope="module")
def phase(standard):
    state = state_from_data(POSITION, board=standard)
    report = adjudicate(standard, state, orders_from_lists(standard, ORDERS).orders).to_json()
    return state, report, elements(svg_of(standard, state, report))


# ----- stored drawings ---------------------------------------------------------------------------------------
def test_every_shipped_diplomacy_board_has_its_drawing_stored(monkeypatch):
    import adjudicator.games.diplomacy.picture.stored as stored_drawings

    monkeypatch.setattr(stored_drawings, "_build_geometry",
                        lambda board: pytest.fail(f"{board.name}: geometry computed"))
    for name in variant_names():
        board = load_variant(name)
        if board.rules == "diplomacy":
            stored = load_stored(board)
            assert stored is not None, f"{name}: run python -m adjudicator.games.diplomacy.picture.stored {name}"
            assert set(stored.anchor) == set(board.provinces)
            assert stored_drawings.geometry(board).anchor == stored.anchor  # (read, not computed: see the patch)


def test_a_drawing_is_used_only_for_the_board_it_was_made_from(standard):
    data = dict(standard.raw)
    data["provinces"] = [dict(p) for p in data["provinces"]]
    data["provinces"][0]["pos"] = [43.5, 16.0]  # the Adriatic moved: another board
    moved = board_from_data(data)
    assert board_key(moved) != board_key(standard) and load_stored(moved) is None


# ----- the board's layers ------------------------------------------------------------------------------------
def test_every_space_unit_and_centre_has_its_element(phase, standard):
    state, _, ids = phase
    assert {k[len("space-"):] for k in ids if k.startswith("space-")} == set(standard.provinces)
    assert {k[len("label-"):] for k in ids if k.startswith("label-")} == set(standard.provinces)
    assert {k[len("centre-"):] for k in ids if k.startswith("centre-")} == set(standard.centres)
    units = {f"unit-{u.power}-{u.type}-{u.location.replace('/', '_')}" for u in state.units.values()}
    assert units <= set(ids) and len([k for k in ids if k.startswith("unit-")]) == len(units)
    colours = power_colours(standard)
    assert ids["centre-vie"].attrib["fill"] == colours["Austria"]  # owned: the owner's colour
    assert ids["centre-bel"].attrib["stroke"] == "#8C8C8C"  # neutral: a grey ring
    assert ids["space-mos"].attrib["fill"] != ids["space-nth"].attrib["fill"]  # land and sea apart


def test_every_border_kind_is_drawn_and_in_the_legend():
    board, _ = board_from_path(WATERWAYS)
    ids = elements(svg_of(board, opening_state(board)))
    for kind in ("canal-aaa-bbb", "one-way-rap-low", "archipelago-isl", "river-ddd-riv", "river-riv-upr"):
        assert kind in ids, kind
    assert not [k for k in ids if k.startswith(("bridge-", "canal-")) and k != "canal-aaa-bbb"]
    keys = legend_keys(ids)
    assert {"canal", "one-way", "archipelago", "river", "land", "sea"} <= keys
    assert not keys & {"ice", "bridge", "impassable", "dislodged"}  # nothing the board lacks


def test_the_arctic_legend_shows_its_ice_and_bridges_and_the_standard_none(arctic, standard):
    winter = opening_state(arctic)
    winter.phase = Phase("Winter", 2010, "Movement")
    ids = elements(svg_of(arctic, winter))
    assert {"ice", "bridge"} <= legend_keys(ids) and any(k.startswith("bridge-") for k in ids)
    assert any(e.attrib.get("fill") == "url(#ice)" for k, e in ids.items() if k.startswith("space-"))
    summer = opening_state(arctic)
    summer.phase = Phase("Summer", 2010, "Movement")
    ice = lambda ids: {k for k, e in ids.items() if k.startswith("space-") and e.attrib.get("fill") == "url(#ice)"}  # noqa: E731
    assert len(ice(elements(svg_of(arctic, summer)))) < len(ice(ids))  # the drawn ice follows the season
    assert not legend_keys(elements(svg_of(standard, opening_state(standard)))) & {"ice", "bridge", "canal"}


def test_shapes_follow_the_borders(standard, arctic):
    assert geometry(standard).unmatched == {"not touching": [], "touching": []}
    unmatched = geometry(arctic).unmatched  # the Bering Strait's five-way point cannot be drawn flat
    assert len(unmatched["not touching"]) <= 5 and len(unmatched["touching"]) <= 5


# ----- orders ------------------------------------------------------------------------------------------------
def test_every_order_is_drawn_and_only_failed_ones_are_crossed(phase):
    _, report, ids = phase
    for n, r in enumerate(report["orders"], 1):
        drawn = [k for k in ids if k.startswith(f"order-{n}-") and k.count("-") == 2]
        crossed = [k for k in ids if k.startswith(f"order-{n}-") and k.endswith(("-failed", "-illegal"))]
        if r["status"] == "illegal":
            assert not drawn and crossed == [f"order-{n}-support-illegal"], r  # no line across the board
        elif r["status"] in ("succeeds", "default"):
            assert drawn and not crossed, r
        else:
            assert drawn and crossed == [f"{drawn[0]}-failed"], r


def test_a_failed_order_is_washed_out_and_its_cross_lies_on_its_own_line(phase, standard):
    _, report, ids = phase
    colours = power_colours(standard)
    lines = {}
    for n, r in enumerate(report["orders"], 1):
        key = next((k for k in ids if k.startswith(f"order-{n}-") and k.count("-") == 2), None)
        if key is None or "move" not in key and "support" not in key:
            continue
        casing, shaft = [p for p in ids[key].iter(f"{NS}path")][:2]  # the casing, then the coloured line
        assert casing.attrib["stroke"] == (CASING if r["status"] == "succeeds" else FAILED_EDGE)  # a yellow line
        assert float(casing.attrib["stroke-width"]) > float(shaft.attrib["stroke-width"])  # shows on white ice
        lines[n] = (r, polyline(shaft.attrib["d"]), shaft.attrib["stroke"])
    for n, (r, line, stroke) in lines.items():
        own = colours[r["power"]]
        assert stroke == (own if r["status"] == "succeeds" else faded(own)), r
        if r["status"] in ("fails", "void"):
            cross = [p for p in ids[f"order-{n}-{'support' if ' S ' in r['understood_as'] else 'move'}-failed"]
                     .iter(f"{NS}path")][0]
            centre = tuple(sum(v) / len(v) for v in zip(*polyline(cross.attrib["d"])))
            assert distance_to(centre, line) < 2.0, r  # on its own line...
            for m, (other, other_line, _) in lines.items():
                if other["status"] == "succeeds":
                    assert distance_to(centre, other_line) > 6.0, (r, other)  # ...never on a successful one


def test_arrowheads_and_marks_never_cover_a_label(phase):
    _, _, ids = phase
    boxes = label_boxes(ids)
    for key, e in ids.items():
        if re.fullmatch(r"order-\d+-(move|retreat)", key):
            head = polyline([p for p in e.iter(f"{NS}path")][-1].attrib["d"])
            assert not [n for n, b in boxes.items() for p in head if inside(p, b)], key
        if key.endswith(("-failed", "-illegal")):
            centre = tuple(sum(v) / len(v) for v in zip(*polyline([p for p in e.iter(f"{NS}path")][0].attrib["d"])))
            assert not [n for n, b in boxes.items() if inside(centre, b, pad=4)], key


def test_a_short_move_keeps_a_shaft(standard):
    state = state_from_data({"variant": "standard", "phase": "Spring 1901 Movement",
                             "units": {"Germany": ["A kie"], "France": ["A par"]}}, board=standard)
    report = adjudicate(standard, state, orders_from_lists(standard, {"Germany": ["A kie - hol"],
                                                                      "France": ["A par - pic"]}).orders).to_json()
    ids = elements(svg_of(standard, state, report))
    for n in (1, 2):
        paths = list(ids[f"order-{n}-move"].iter(f"{NS}path"))
        shaft, head = polyline(paths[1].attrib["d"]), polyline(paths[2].attrib["d"])
        assert sum(math.dist(a, b) for a, b in zip(shaft, shaft[1:])) > 8
        assert math.dist(head[0], head[1]) > 4


def test_units_disbanded_by_the_ice_and_in_civil_disorder_are_marked(arctic, standard):
    summer = state_from_data({"variant": "arctic", "phase": "Summer 2011 Movement",
                              "centres": {"USA": ["Jun", "Anc", "Brw"]},
                              "units": {"USA": ["A Bea", "A Anc", "F Jun"]}}, board=arctic)
    report = adjudicate(arctic, summer, orders_from_lists(arctic, {"USA": ["A Bea H"]}).orders).to_json()
    assert report["disbanded_by_terrain"]
    ids = elements(svg_of(arctic, summer, report))
    assert {"ice-disbanded-Bea", "ice-disbanded-Bea-badge"} <= set(ids) and "ice-disbanded" in legend_keys(ids)
    fall = state_from_data({"variant": "standard", "phase": "Fall 1901 Adjustment",
                            "centres": {"France": ["par"]}, "units": {"France": ["A par", "A bur", "F bre"]}},
                           board=standard)
    report = adjudicate(standard, fall, []).to_json()
    ids = elements(svg_of(standard, fall, report))
    marked = {k for k in ids if k.startswith("civil-disorder-") and not k.endswith("-badge")}
    assert len(marked) == 2 and {f"{k}-badge" for k in marked} <= set(ids) and "civil-disorder" in legend_keys(ids)


def test_dislodged_units_and_retreats(standard):
    state = state_from_data({
        "variant": "standard", "phase": "Spring 1902 Movement",
        "units": {"France": ["A bur", "A par"], "Germany": ["A mun", "A ruh", "A bel"]}}, board=standard)
    moves = orders_from_lists(standard, {"Germany": ["A mun - bur", "A ruh S A mun - bur", "A bel S A mun - bur"],
                                         "France": ["A bur H", "A par S A bur"]})
    retreat_state = adjudicate(standard, state, moves.orders).next_state
    retreat = adjudicate(standard, retreat_state, orders_from_lists(standard, {"France": ["A bur R gas"]}).orders)
    ids = elements(svg_of(standard, retreat_state, retreat.to_json()))
    assert "dislodged-France-A-bur" in ids and "order-1-retreat" in ids and "dislodged" in legend_keys(ids)


def test_unreadable_and_foreign_results_are_skipped(standard):
    results = [{"power": "France", "order": "A par - nowhere", "status": "illegal"},
               {"power": "France", "order": "A xyz - par", "status": "ignored", "understood_as": "A xyz - par"},
               {"power": ["not", "a", "name"], "order": "A par - bur", "status": "succeeds",
                "understood_as": "A par - bur", "unit": {"type": "A", "location": "par"}}]
    ids = elements(svg_of(standard, opening_state(standard), {"orders": results, "destroyed": [{"location": 5}]}))
    assert [k for k in ids if k.startswith("order-")] == ["order-3-move"]


# ----- PNG ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rasteriser", ["skia", "resvg"])
def test_png_pixels_where_units_stand(phase, standard, rasteriser, monkeypatch):
    from adjudicator.render import raster

    if rasteriser == "resvg":  # as on a machine without the libGL and libEGL Skia needs
        monkeypatch.setattr(raster, "_SKIA", None)
    elif raster.skia_module() is None:  # pictures are drawn by resvg there (the resvg case); CI must test Skia
        message = "Skia cannot load here (apt-get install libgl1 libegl1; .ci/run does)"
        pytest.fail(message) if os.environ.get("CI") == "true" else pytest.skip(message)
    state, report, ids = phase
    png = rules_of(standard).render(standard, state, report, "png", 1000)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    root_h = float(ET.fromstring(svg_of(standard, state, report)).attrib["height"])
    assert image.size == (1000, round(root_h))
    colours = power_colours(standard)
    geo = geometry(standard)
    for unit in state.units.values():
        x, y = geo.location.get(unit.location) or geo.anchor[unit.province]
        want = tuple(int(colours[unit.power][i:i + 2], 16) for i in (1, 3, 5))
        got = image.getpixel((round(x), round(y + 3)))  # inside the hull or the body
        assert max(abs(a - b) for a, b in zip(got, want)) <= 12, (unit, got, want)
    if rasteriser == "skia":  # (resvg draws a picture in one piece: slow enough to draw once)
        half = Image.open(io.BytesIO(rules_of(standard).render(standard, state, report, "png", 500)))
        assert half.size[0] == 500 and abs(half.size[1] - root_h / 2) <= 1


# ----- colours -----------------------------------------------------------------------------------------------
def test_the_palette_keeps_twenty_powers_apart():
    assert len(PALETTE) == 20 and smallest_difference(list(PALETTE)) >= MIN_DELTA_E
    assert smallest_difference(list(PALETTE)) > 21.5  # the figure the palette's docstring states
    twenty = assign_colours(tuple((f"P{i}", None) for i in range(20)))
    assert smallest_difference(list(twenty.values())) >= MIN_DELTA_E


def test_the_colour_measure_is_ciede2000_as_a_colour_library_computes_it():
    from coloraide import Color

    pairs = list(itertools.combinations(PALETTE + ("#56B4E9", "#0072B2", "#BCD7EC", "#4169E1"), 2))
    for a, b in pairs:
        assert delta_e(a, b) == pytest.approx(Color(a).delta_e(b, method="2000"), abs=0.05), (a, b)
    # ...and the palette's first eight (Okabe-Ito) stay apart as colour-blind players see them
    for deficiency in ("protan", "deutan"):
        seen = [Color(c).filter(deficiency) for c in PALETTE[:8]]
        assert min(x.delta_e(y, method="2000") for x, y in itertools.combinations(seen, 2)) > 11


def test_every_shipped_board_draws_its_powers_apart():
    for name in variant_names():
        board = load_variant(name)
        if board.rules == "diplomacy":
            colours = power_colours(board)
            assert set(colours) == set(board.powers)
            assert smallest_difference(list(colours.values())) >= MIN_DELTA_E, name
    standard = power_colours(load_variant("standard"))
    assert delta_e(standard["England"], standard["France"]) > 30  # the two blues, once close (22)


def test_a_board_keeps_its_own_colours_unless_they_clash():
    kept = assign_colours((("A", "#D55E00"), ("B", "royalblue")))
    assert kept == {"A": "#D55E00", "B": "#4169E1"}
    clash = assign_colours((("A", "#0072B2"), ("B", "#0070B0"), ("C", "not a colour")))
    assert clash["A"] == "#0072B2" and clash["B"] != "#0070B0" and clash["C"] in PALETTE
    assert smallest_difference(list(clash.values())) >= MIN_DELTA_E


# ----- the shipped examples -----------------------------------------------------------------------------------
def docs_pictures():
    """docs/pictures.py, the script that draws the pictures in docs/, as a module (its EXAMPLES)."""
    import importlib.util
    import sys

    if "docs_pictures" not in sys.modules:
        spec = importlib.util.spec_from_file_location("docs_pictures", data_dir("variants").parent / "docs" /
                                                      "pictures.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["docs_pictures"] = module
        spec.loader.exec_module(module)
    return sys.modules["docs_pictures"]


def _shipped_examples():
    """Every Diplomacy example docs/ shows, and every shipped Diplomacy board at its start."""
    out = []
    for example in docs_pictures().EXAMPLES:
        board, state, results = example.make()
        if board.rules == "diplomacy":
            out.append((example.file, board, state, results))
    for name in variant_names():
        board = load_variant(name)
        if board.rules == "diplomacy":
            out.append((f"{name} at its start", board, rules_of(board).initial_state(board), None))
    return out


@pytest.mark.parametrize("example", _shipped_examples(), ids=lambda e: e[0])
def test_no_two_marks_or_labels_of_the_shipped_examples_overlap(example):
    """Boxes read from the SVG: no mark (a failure or illegal order's cross, a badge, a convoy's diamond, a
    dislodged unit) covers a label, a centre marker, a unit or another mark, and no two labels overlap."""
    name, board, state, results = example
    svg = svg_of(board, state, results)
    assert collisions(svg) == [], name
    assert placed(svg)  # (the boxes were read)


# ----- every board and game ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", variant_names())
def test_every_shipped_board_draws(name):
    board = load_variant(name)
    rules = rules_of(board)
    state = rules.initial_state(board)
    ids = elements(rules.render(board, state, None, "svg", 1000))
    assert "legend" in ids and "legend-title" in ids
    png = rules.render(board, state, None, "png", 300)
    assert Image.open(io.BytesIO(png)).size[0] == 300


def test_the_other_games_draw_their_pieces():
    race = load_variant("arctic-race")
    rules = rules_of(race)
    state = rules.new_game(race, setup_text="players Red, Blue\nstart Red\nriver T14 T09 T28 T23 T27\n")
    ids = elements(rules.render(race, state, None, "svg", 1000))
    assert {f"slot-S{i}" for i in range(1, 6)} <= set(ids) and "space-36" in ids
    assert {f"racer-{p}-{n}" for p in ("Red", "Blue") for n in range(1, 6)} <= set(ids)
    arctica = load_variant("arctica")
    state = rules_of(arctica).initial_state(arctica)
    ids = elements(rules_of(arctica).render(arctica, state, None, "svg", 1000))
    assert {f"section-S{i}" for i in range(1, 7)} <= set(ids) and "space-B2b" in ids and "line-B1a-B1b" in ids
    assert len([k for k in ids if k.startswith("token-S5-")]) == len(state.circle_tokens["S5"])
    ship = load_variant("arctic2019")
    state = rules_of(ship).initial_state(ship)
    ids = elements(rules_of(ship).render(ship, state, None, "svg", 1000))
    assert {f"sector-{s}" for s in ship.sectors} <= set(ids)
    assert {f"ships-{s}-{c}" for s, by in state.ships.items() for c in by} <= {k for k in ids if k.startswith("ships-")}
