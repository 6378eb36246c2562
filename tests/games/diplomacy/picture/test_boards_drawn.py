"""Boards drawn as their players know them (issue 38, item 6): a board without positions laid out north up and
unmirrored where its data says where north is (a `drawing:` compass or rough places, a DPjudge PostScript map's
spots), its drawing computed once and kept (stored at import, kept by the command line); colours for any number
of powers and the neutral units in the legend; a river drawn as a course, and nothing cut at the picture's edge."""

from __future__ import annotations

import copy
import itertools
import re

import pytest
from click.testing import CliRunner

from adjudicator import catalogue
from adjudicator.catalogue import board_from_path, load_variant, variant_names
from adjudicator.cli import main
from adjudicator.errors import VariantError
from adjudicator.game import rules_of
from adjudicator.games.diplomacy.board_file import board_from_data
from adjudicator.games.diplomacy.importers import import_map
from adjudicator.games.diplomacy.picture import stored
from adjudicator.games.diplomacy.picture.draw import power_colours, power_tags
from adjudicator.games.diplomacy.picture.layout import graph_layout
from adjudicator.render.palette import MIN_DELTA_E, MORE, PALETTE, SPARE, smallest_difference
from adjudicator.render.style import WIDTH
from tests.games.diplomacy.picture.svg_helpers import NS, covered, elements, svg_of
from tests.helpers import ROOT

GEOMETRY_BUILDS = "adjudicator.games.diplomacy.picture.stored._build_geometry"


def unplaced(standard, drawing: dict | None = None):
    """The standard board without its positions (as a map imported without a picture is): laid out from its graph."""
    data = copy.deepcopy(standard.raw)
    data["name"] = "unplaced"
    for p in data["provinces"]:
        p.pop("pos", None)
    data.pop("drawing", None)
    data.pop("records", None)
    if drawing is not None:
        data["drawing"] = drawing
    return board_from_data(data)


def agreement(standard, layout) -> tuple[float, float]:
    """The share of pairs of spaces far apart north-south (east-west) that the layout puts the right way round."""
    real = {p: standard.provinces[p].position for p in standard.provinces}
    north = [(layout[a][1] > layout[b][1]) == (real[a][0] > real[b][0])
             for a, b in itertools.combinations(layout, 2) if abs(real[a][0] - real[b][0]) > 8]
    east = [(layout[a][0] > layout[b][0]) == (real[a][1] > real[b][1])
            for a, b in itertools.combinations(layout, 2) if abs(real[a][1] - real[b][1]) > 12]
    return sum(north) / len(north), sum(east) / len(east)


# ----- which way is north --------------------------------------------------------------------------------------
@pytest.mark.parametrize("drawing", [
    {"compass": {"north": ["nwy", "stp"], "south": ["tun", "naf"], "west": ["por"], "east": ["mos", "sev"]}},
    {"rough": {"lon": [51.5, -0.1], "mos": [55.8, 37.6], "tun": [36.8, 10.2]}}])
def test_a_board_without_positions_is_laid_out_north_up_where_its_drawing_says_where_north_is(standard, drawing):
    """Before: the graph's layout came out turned and mirrored (half the north-south pairs wrong, England south
    of France), whatever the board said."""
    north, east = agreement(standard, graph_layout(unplaced(standard, drawing)))
    assert north >= 0.9 and east >= 0.9, (north, east)
    layout = graph_layout(unplaced(standard, drawing))
    assert layout["edi"][1] > layout["par"][1] and layout["bre"][0] < layout["mos"][0]  # England north of France


def test_one_direction_turns_the_map_north_up(standard):
    north, _ = agreement(standard, graph_layout(unplaced(standard, {"compass": {"north": ["stp", "nwy"]}})))
    assert north >= 0.9


@pytest.mark.parametrize("drawing, words", [
    ({"compass": {"up": ["stp"]}}, "'up' is no direction"),
    ({"compass": {"north": ["atlantis"]}}, "compass names 'atlantis', which is no space"),
    ({"rough": {"lon": "north"}}, "lon: 'north' is not [latitude, longitude]"),
    ({"rough": {"lon": [1, 2]}, "compass": {"north": ["stp"]}}, "not both")])
def test_a_wrong_orientation_hint_is_refused_naming_it(standard, drawing, words):
    with pytest.raises(VariantError, match=re.escape(words)):
        graph_layout(unplaced(standard, drawing))


TINY_MAP = """\
BEGIN SPRING 1901 MOVEMENT
NORTH (NORTHERN) NOR
A NOR
SOUTH (SOUTHERN) SOU
A SOU
UNOWNED MID
North Land = NOR
South Land = SOU
Middle = MID
West Sea = WES
LAND NOR ABUTS SOU MID
LAND SOU ABUTS NOR MID
COAST MID ABUTS NOR SOU WES
WATER WES ABUTS MID
"""
TINY_PS = """\
%!PS-Adobe-3.0
%%Title: Diplomacy Map (Tiny)
% INFO
%  200  400 NOR    North Land
%  210  100 SOU    South Land
%  230  250 MID    Middle
%   80  240 WES    West Sea
% MAP
%%BeginSetup
"""


def test_a_dpjudge_postscript_map_beside_the_map_file_gives_its_positions_north_up(tmp_path):
    """The DPjudge draws its maps in PostScript (`NAME.ps` beside `NAME.map`), whose `% INFO` block lists each
    place's spot, y up. Before: only an SVG was read, so such a map was laid out from its graph."""
    (tmp_path / "tiny.map").write_text(TINY_MAP, encoding="utf-8")
    (tmp_path / "tiny.ps").write_text(TINY_PS, encoding="utf-8")
    imported = import_map(tmp_path / "tiny.map")
    assert imported.picture == str(tmp_path / "tiny.ps")
    pos = {p["id"]: p["pos"] for p in imported.data["provinces"]}
    assert pos["nor"][1] < pos["mid"][1] < pos["sou"][1]  # north at the top of the picture (y down)
    assert pos["wes"][0] < pos["mid"][0]
    assert imported.data["drawing"]["projection"] == {"name": "plane"}


def test_a_map_imported_without_a_picture_says_how_to_turn_it_north_up(tmp_path):
    (tmp_path / "tiny.map").write_text(TINY_MAP, encoding="utf-8")
    imported = import_map(tmp_path / "tiny.map")
    assert imported.picture is None
    assert any("compass" in n.text for n in imported.notes)


# ----- computed once, kept ---------------------------------------------------------------------------------------
def _forget() -> None:
    """What the next command starts without: the process's boards and drawings."""
    catalogue._boards.clear()
    stored.forget()


def test_an_imported_boards_drawing_is_stored_beside_it_and_never_computed_again(tmp_path, monkeypatch):
    """Before: a board imported without a stored drawing was computed again by every `render` (4-20 s for a large
    one) until someone stored it by hand."""
    (tmp_path / "tiny.map").write_text(TINY_MAP, encoding="utf-8")
    (tmp_path / "tiny.ps").write_text(TINY_PS, encoding="utf-8")
    board_file = tmp_path / "tiny.yaml"
    runner = CliRunner()
    imported = runner.invoke(main, ["variant", "import", str(tmp_path / "tiny.map"), "-o", str(board_file)])
    assert imported.exit_code == 0, imported.output
    assert (tmp_path / "tiny.drawing.json").is_file() and "tiny.drawing.json (the board's drawing)" in imported.output
    game = tmp_path / "g.yaml"
    assert runner.invoke(main, ["new", "--variant", str(board_file), "-o", str(game)]).exit_code == 0
    _forget()
    monkeypatch.setattr(GEOMETRY_BUILDS, lambda *a, **k: pytest.fail("the drawing was computed again"))
    drawn = runner.invoke(main, ["render", str(game), "-o", str(tmp_path / "g.svg")])
    assert drawn.exit_code == 0, drawn.output


def test_the_command_line_keeps_a_drawing_it_computed_for_the_next_command(tmp_path, monkeypatch, standard):
    """A board edited since its drawing was stored (here: one given no drawing) is computed once, by the first
    `render`, and kept in the user's cache folder, where the next `render` (a new process) finds it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("ADJUDICATOR_DRAWINGS", raising=False)
    (tmp_path / "tiny.map").write_text(TINY_MAP, encoding="utf-8")
    board_file = tmp_path / "tiny.yaml"
    board_file.write_text(import_map(tmp_path / "tiny.map", name="tiny").to_yaml(), encoding="utf-8")
    runner = CliRunner()
    game = tmp_path / "g.yaml"
    assert runner.invoke(main, ["new", "--variant", str(board_file), "-o", str(game)]).exit_code == 0
    _forget()
    assert runner.invoke(main, ["render", str(game), "-o", str(tmp_path / "a.svg")]).exit_code == 0
    assert len(list((tmp_path / "cache" / "adjudicator" / "drawings").glob("*.json"))) == 1
    _forget()
    monkeypatch.setattr(GEOMETRY_BUILDS, lambda *a, **k: pytest.fail("the drawing was computed again"))
    again = runner.invoke(main, ["render", str(game), "-o", str(tmp_path / "b.svg")])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()


# ----- colours ---------------------------------------------------------------------------------------------------
def chaos(standard):
    """The standard board with a power for each of its 34 centres, as the Chaos variant plays it."""
    data = copy.deepcopy(standard.raw)
    data["name"] = "chaos-test"
    data.pop("records", None)
    centres = [p for p in data["provinces"] if p.get("centre")]
    data["powers"] = {p["name"].replace(" ", ""): {"colour": "#E69F00"} for p in centres}  # all asking for orange
    for p in data["provinces"]:
        p.pop("home", None)
        if p.get("centre"):
            p["home"] = p["name"].replace(" ", "")
    data["start"] = {p["name"].replace(" ", ""): [f"A {p['id']}"] for p in centres}
    return board_from_data(data)


def test_the_spare_colours_keep_sixty_powers_apart():
    assert len(SPARE) == 60 and len(set(SPARE)) == 60 and SPARE[:20] == PALETTE
    assert smallest_difference(list(SPARE)) > 13.0  # the figures palette.py's docstring states
    assert smallest_difference(list(PALETTE + MORE[:5])) >= MIN_DELTA_E


def test_thirty_four_powers_get_thirty_four_colours_and_letters_on_their_units(standard):
    """Before: past twenty powers every colour was the same (Chaos: fifteen powers orange)."""
    board = chaos(standard)
    colours = power_colours(board)
    assert len(set(colours.values())) == 34 and smallest_difference(list(colours.values())) > 12
    tags = power_tags(board)
    assert len(set(tags.values())) == 34 and all(1 < len(t) <= 3 for t in tags.values())
    state = rules_of(board).initial_state(board)
    ids = elements(svg_of(board, state))
    for unit in state.units.values():
        drawn = ids[f"unit-{unit.power}-A-{unit.location}"]
        assert [p.attrib["aria-label"] for p in drawn.iter(f"{NS}path") if "aria-label" in p.attrib] == [
            tags[unit.power]]
    swatch = ids["legend-power-Vienna"]
    assert tags["Vienna"] in [p.attrib.get("aria-label") for p in swatch.iter(f"{NS}path")]
    assert power_tags(standard) == {}  # seven powers: colours alone


def test_neutral_units_are_in_the_legend():
    board, _ = board_from_path(ROOT / "datc_cases" / "features" / "boards" / "neutrals.yaml")
    state = rules_of(board).initial_state(board)
    assert any(u.power not in board.powers for u in state.units.values())
    ids = elements(svg_of(board, state))
    assert "legend-neutral-unit" in ids  # before: grey units with no word for them
    assert "legend-neutral-unit" not in elements(svg_of(*_opening("standard")))


def _opening(name: str):
    board = load_variant(name)
    return board, rules_of(board).initial_state(board)


# ----- the map's own drawing ---------------------------------------------------------------------------------------
def test_a_river_is_drawn_as_its_course_not_a_triangle():
    """Ancient Mediterranean's Nile: Memphis, Thebes and Bayuda border each other along the river; before, all
    three reaches were drawn, straight: a triangle."""
    ids = elements(svg_of(*_opening("ancmed")))
    reaches = [k.split("-")[1:] for k in ids if k.startswith("river-")]
    places = {p for r in reaches for p in r}
    assert len(reaches) == len(places) - 1  # a tree: no reach closes a loop
    assert {frozenset(r) for r in reaches} >= {frozenset(("ale", "mem"))}
    for key in (k for k in ids if k.startswith("river-")):
        assert " Q" in ids[key].attrib["d"]  # a curve through the boundary it crosses


@pytest.mark.parametrize("name", [n for n in variant_names() if load_variant(n).rules == "diplomacy"])
def test_every_label_and_centre_lies_inside_the_picture(name):
    """Before: Damascus's centre marker (Ancient Mediterranean) was cut by the picture's right edge."""
    board, state = _opening(name)
    svg = svg_of(board, state)
    ids = elements(svg)
    height = float(ids["legend"].find(f"{NS}rect").attrib["y"])
    for key, e in ids.items():
        if key.startswith(("centre-", "label-")):
            x0, y0, x1, y1 = covered(e)
            assert 0 <= x0 and x1 <= WIDTH and 0 <= y0 and y1 <= height, (key, (x0, y0, x1, y1))


def test_the_packages_empire_map_imported_without_a_picture_is_turned_north_up_by_a_compass(tmp_path):
    """How the mirrored boards reached the tester: a map of the `diplomacy` package that has no picture (`empire`,
    the Americas) imported with `variant import`, its layout computed from the graph. A compass in its
    `drawing:` turns it north up and unmirrored."""
    pytest.importorskip("diplomacy", reason="the diplomacy package (the peer) is not installed: pip install '.[bench]'")
    from adjudicator.games.diplomacy.importers.shipped import package_maps

    imported = import_map(package_maps() / "empire.map", name="empire")
    assert imported.picture is None and any("compass" in n.text for n in imported.notes)
    data = copy.deepcopy(imported.data)
    data["drawing"] = {"compass": {"north": ["anc", "ung"], "south": ["mex", "gua"], "west": ["sfr", "van"],
                                   "east": ["nyc", "mon"]}}
    layout = graph_layout(board_from_data(data))
    x, y = {p: xy[0] for p, xy in layout.items()}, {p: xy[1] for p, xy in layout.items()}
    assert x["sfr"] < x["chi"] < x["nyc"] and x["lan"] < x["mia"]  # California west, New York east
    assert y["mex"] < y["chi"] < y["anc"] and y["mia"] < y["chi"]  # Mexico south, Alaska north


def test_any_number_of_powers_gets_colours_and_letters_in_linear_time():
    """Past sixty powers colours repeat (each the one given fewest times) and the letters tell them apart;
    neither step compares every pair of powers."""
    from adjudicator.render.palette import assign_colours, colours_apart
    from adjudicator.render.pieces import short_names

    names = tuple(f"Power {i}" for i in range(3000))  # one initial for all
    tags = short_names(names)
    assert len(set(tags.values())) == 3000
    colours = assign_colours(tuple((n, None) for n in names))
    counts = {c: list(colours.values()).count(c) for c in SPARE}
    assert max(counts.values()) - min(counts.values()) <= 1  # spread evenly over the sixty
    assert not colours_apart(list(colours.values()))


def test_variant_check_reports_a_wrong_compass(tmp_path):
    (tmp_path / "tiny.map").write_text(TINY_MAP, encoding="utf-8")
    text = import_map(tmp_path / "tiny.map", name="tiny").to_yaml() + "drawing: {compass: {north: [nowhere]}}\n"
    (tmp_path / "tiny.yaml").write_text(text, encoding="utf-8")
    checked = CliRunner().invoke(main, ["variant", "check", str(tmp_path / "tiny.yaml")])
    assert checked.exit_code == 1 and "compass names 'nowhere', which is no space of the board" in checked.output
