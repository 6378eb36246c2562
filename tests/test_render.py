"""Board pictures (adjudicator/render.py): valid PNG and SVG, one shape per space and per unit, terrain by
season, orders drawn with their outcome, and the drawn shapes touching where the board has borders."""

from __future__ import annotations

import io
import re

import matplotlib.image as mpimg
import pytest

from adjudicator.catalogue import load_variant
from adjudicator.gamefile import state_from_data
from adjudicator.orders.sheet import orders_from_lists
from adjudicator.phase import adjudicate
from adjudicator.render import TERRAIN_FILL, geometry, render_png, render_svg
from adjudicator.state import Phase, opening_state

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def arctic():
    return load_variant("arctic")


@pytest.fixture(scope="module")
def standard():
    return load_variant("standard")


def groups(svg: str, prefix: str) -> dict[str, str]:
    """The SVG groups whose id starts with `prefix`, by the rest of the id, with their content."""
    out = {}
    for m in re.finditer(rf'<g id="{re.escape(prefix)}([^"]+)">', svg):
        depth, i = 1, m.end()
        while depth:  # the matching </g>
            nxt_open, nxt_close = svg.find("<g", i), svg.find("</g>", i)
            if nxt_open != -1 and nxt_open < nxt_close:
                depth, i = depth + 1, nxt_open + 2
            else:
                depth, i = depth - 1, nxt_close + 4
        assert m.group(1) not in out, f"two elements with the id {prefix}{m.group(1)}"
        out[m.group(1)] = svg[m.end():i]
    return out


def unit_ids(state, prefix: str = "unit") -> set[str]:
    return {f"{u.power}-{u.type}-{u.location.replace('/', '_')}" for u in state.units.values()}


def check_png(data: bytes, width: int = 1000) -> None:
    assert data[:8] == PNG_SIGNATURE
    image = mpimg.imread(io.BytesIO(data), format="png")
    height, w = image.shape[:2]
    assert w == width
    assert 0.8 * width < height < 1.4 * width  # the map and the legend below it


@pytest.mark.parametrize("season", ["Spring", "Summer", "Fall", "Winter"])
def test_arctic_opening_in_each_season(arctic, season):
    state = opening_state(arctic)
    state.phase = Phase(season, 2010, "Movement")
    check_png(render_png(arctic, state))
    svg = render_svg(arctic, state)
    assert svg.lstrip().startswith("<?xml") and svg.rstrip().endswith("</svg>")
    spaces = groups(svg, "space-")
    assert set(spaces) == set(arctic.provinces)  # one shape per space...
    assert all(body.count("<path") == 1 for body in spaces.values())  # ...and only one
    assert set(groups(svg, "unit-")) == unit_ids(state)
    for pid, body in spaces.items():  # filled by the season's terrain; ice with a hatch pattern
        surface = arctic.surface(pid, season)
        fill = "fill: url(#" if surface == "ice" else f"fill: {TERRAIN_FILL[surface].lower()}"
        assert fill in body.lower(), (pid, season, surface)
    assert "<text" not in svg  # text is drawn as paths: the SVG looks the same without the fonts
    assert f"{season} 2010 \u00b7 Movement" in svg  # the legend's title (matplotlib keeps it as a comment)


def test_arctic_seasons_differ(arctic):
    counts = {}
    for season in ("Spring", "Summer", "Fall", "Winter"):
        counts[season] = sum(arctic.surface(p, season) == "ice" for p in arctic.provinces)
    assert counts["Summer"] < counts["Fall"] < counts["Winter"]  # the drawn ice follows the board's terrain


def standard_position(board):
    return state_from_data({
        "variant": "standard", "phase": "Fall 1901 Movement",
        "centres": {"England": ["lon", "edi", "lvp"], "France": ["par", "bre", "mar"], "Austria": ["vie", "bud", "tri"],
                    "Italy": ["rom", "nap", "ven"], "Russia": ["mos", "war", "sev", "stp"]},
        "units": {"England": ["F nth", "A yor", "F nrg"], "France": ["A bur", "F mid", "A spa"],
                  "Germany": ["A ruh", "F den"], "Austria": ["A ser", "F alb", "A gal"],
                  "Italy": ["F ion", "A apu"], "Russia": ["F bot", "F bla", "F stp/nc"], "Turkey": ["A bul"]},
    }, board=board)


ORDERS = {
    "England": ["F nth C A yor - bel", "A yor - bel", "F nrg - nwy"],
    "France": ["A bur - bel", "F mid - por", "A spa S F mid - por"],
    "Germany": ["A ruh S A bur - bel", "F den - swe"],
    "Austria": ["A ser - gre", "F alb S A ser - gre", "A gal - rum"],
    "Italy": ["F ion C A apu - tun", "A apu - tun"],
    "Russia": ["F bot - swe", "F bla - rum", "F stp/nc H"],
    "Turkey": ["A bul - gre"],
}


def test_standard_position_with_orders(standard):
    state = standard_position(standard)
    result = adjudicate(standard, state, orders_from_lists(standard, ORDERS).orders)
    report = result.to_json()
    check_png(render_png(standard, state, report["orders"]))
    svg = render_svg(standard, state, report)  # the whole report is accepted as well as its `orders`
    assert set(groups(svg, "space-")) == set(standard.provinces)
    assert set(groups(svg, "unit-")) == unit_ids(state)
    assert "stp_nc" in " ".join(groups(svg, "unit-"))  # a fleet on a coast
    orders = groups(svg, "order-")
    drawn = [k for k in orders if not k.endswith(("-failed", "-ring"))]
    assert len(drawn) == sum(len(v) for v in ORDERS.values())  # every order drawn...
    kinds = {k.split("-", 1)[1] for k in drawn}
    assert kinds == {"move", "support", "convoy", "hold"}
    failed = {r["understood_as"] for r in report["orders"] if r["status"] != "succeeds"}
    assert failed >= {"A yor - bel", "F den - swe", "F bot - swe", "F bla - rum", "A bul - gre"}
    assert len([k for k in orders if k.endswith("-failed")]) == len(failed)  # ...the failed ones crossed out
    centres = groups(svg, "centre-")
    assert set(centres) == set(standard.centres)
    assert "#d55e00" in centres["vie"].lower() and "#8c8c8c" in centres["bel"].lower()  # owner's colour; neutral


def test_dislodged_units_and_retreats(standard):
    state = state_from_data({
        "variant": "standard", "phase": "Spring 1902 Movement",
        "units": {"France": ["A bur", "A par"], "Germany": ["A mun", "A ruh", "A bel"]}}, board=standard)
    moves = orders_from_lists(standard, {"Germany": ["A mun - bur", "A ruh S A mun - bur", "A bel S A mun - bur"],
                                         "France": ["A bur H", "A par S A bur"]})
    retreat_state = adjudicate(standard, state, moves.orders).next_state
    assert retreat_state.phase.type == "Retreat" and "bur" in retreat_state.dislodged
    svg = render_svg(standard, retreat_state)
    assert set(groups(svg, "unit-")) == unit_ids(retreat_state)
    assert set(groups(svg, "dislodged-France-")) == {"A-bur"}
    retreat = adjudicate(standard, retreat_state, orders_from_lists(standard, {"France": ["A bur R gas"]}).orders)
    svg = render_svg(standard, retreat_state, retreat.to_json())
    assert "1-retreat" in groups(svg, "order-")
    check_png(render_png(standard, retreat_state, retreat.to_json(), width=600), width=600)


def test_adjustments_drawn(standard):
    state = state_from_data({
        "variant": "standard", "phase": "Fall 1901 Adjustment",
        "centres": {"France": ["par", "bre", "mar", "spa", "por"], "Germany": ["ber"]},
        "units": {"France": ["A par", "A spa", "F por"], "Germany": ["A ber", "A mun"]}}, board=standard)
    result = adjudicate(standard, state, orders_from_lists(
        standard, {"France": ["Build F bre", "Build A mar"], "Germany": ["Remove A mun"]}).orders)
    svg = render_svg(standard, state, result.to_json())
    kinds = [k.split("-", 1)[1] for k in groups(svg, "order-") if not k.endswith(("-ring", "-failed"))]
    assert sorted(kinds) == ["build", "build", "disband"]


def test_unreadable_and_foreign_results_are_skipped(standard):
    state = opening_state(standard)
    results = [{"power": "France", "order": "A par - nowhere", "status": "illegal"},  # no understood_as
               {"power": "France", "order": "A xyz - par", "status": "ignored", "understood_as": "A xyz - par"},
               {"power": "France", "order": "A par - bur", "status": "succeeds", "understood_as": "A par - bur",
                "unit": {"type": "A", "location": "par", "power": "France"}}]
    svg = render_svg(standard, state, results)
    assert set(groups(svg, "order-")) == {"3-move"}


def test_drawn_shapes_follow_the_borders(standard, arctic):
    # Every border of the standard board is a shared edge in the picture, and no other spaces touch.
    assert geometry(standard).unmatched == {"not touching": [], "touching": []}
    # The Arctic's Bering Strait is a five-way point (Kam, Sew, Chk, WBS, EBS all border each other), which
    # no flat map can draw with edges only; a few short contacts elsewhere are tolerated.
    unmatched = geometry(arctic).unmatched
    assert len(unmatched["not touching"]) <= 5
    assert len(unmatched["touching"]) <= 5


# ----- boards without drawing positions, and positions taken from a map's picture ----------------------------
def _grid_board():
    """A board with no positions: a 4 x 5 grid of land, a sea along its top row, two powers."""
    from adjudicator.board import board_from_data

    ids = [f"r{r}c{c}" for r in range(4) for c in range(5)]
    provinces = [{"id": i, "name": f"Province {i}", "centre": n % 3 == 0} for n, i in enumerate(ids)]
    provinces[0]["home"], provinces[19]["home"] = "North", "South"
    provinces.append({"id": "mid", "name": "Middle Sea", "kind": "sea"})
    borders = []
    for r in range(4):
        for c in range(5):
            if c < 4:
                borders.append(f"r{r}c{c} - r{r}c{c + 1} : land")
            if r < 3:
                borders.append(f"r{r}c{c} - r{r + 1}c{c} : land")
    borders += [f"mid - r0c{c} : water" for c in range(5)]
    data = {"name": "grid", "powers": {"North": {}, "South": {}}, "terrain": {"land": {"default": "land"},
            "sea": {"default": "sea"}}, "calendar": {"phases": [{"season": "Spring", "type": "Movement"}]},
            "provinces": provinces, "borders": borders,
            "start": {"North": ["A r0c0"], "South": ["A r3c4"]}}
    return board_from_data(data)


def _label_boxes(board, state):
    """Each space's label as drawn: its box in pixels, by province id."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from adjudicator.render.paint import _Painter

    fig = _Painter(board, state, None).figure()
    renderer = FigureCanvasAgg(fig).get_renderer()
    boxes = {}
    for ax in fig.axes:
        for t in ax.texts:
            gid = t.get_gid() or ""
            if gid.startswith("label-"):
                boxes[gid[len("label-"):]] = t.get_window_extent(renderer)
    return boxes


def _overlapping(boxes) -> list[tuple[str, str]]:
    items = sorted(boxes.items())
    return [(a, b) for i, (a, p) in enumerate(items) for b, q in items[i + 1:]
            if p.x0 < q.x1 - 0.5 and q.x0 < p.x1 - 0.5 and p.y0 < q.y1 - 0.5 and q.y0 < p.y1 - 0.5]


def test_board_without_positions_is_laid_out_from_its_graph():
    board = _grid_board()
    geo = geometry(board)
    assert set(geo.anchor) == set(board.provinces)
    assert geo.unmatched["not touching"] == []  # every border of the data is drawn
    # Where four cells of the grid meet at a corner, two of them may touch across it: at most one per corner.
    assert len(geo.unmatched["touching"]) <= 3 * 4
    state = opening_state(board)
    boxes = _label_boxes(board, state)
    assert set(boxes) == set(board.provinces)  # every space labelled
    assert _overlapping(boxes) == []
    svg = render_svg(board, state)
    assert set(groups(svg, "space-")) == set(board.provinces)


def test_a_crowded_board_without_positions_has_no_overlapping_labels():
    from adjudicator.render.layout import graph_layout

    board = load_variant("pure")  # seven spaces, each bordering all the others: not planar
    data = dict(board.raw)
    data.pop("drawing")
    data["provinces"] = [{k: v for k, v in p.items() if k != "pos"} for p in data["provinces"]]
    from adjudicator.board import board_from_data

    bare = board_from_data(data)
    assert all(p.position is None for p in bare.provinces.values())
    layout = graph_layout(bare)
    assert len({(round(x), round(y)) for x, y in layout.values()}) == 7
    boxes = _label_boxes(bare, opening_state(bare))
    assert set(boxes) == set(bare.provinces) and _overlapping(boxes) == []


def test_positions_from_a_maps_picture_are_used():
    board = load_variant("ancmed")  # imported with the unit spots of the diplomacy package's ancmed.svg
    assert board.raw["drawing"]["projection"] == {"name": "plane"}
    geo = geometry(board)
    # The picture's x grows eastwards and its y southwards: Lusitania is west of Syria, Gaul north of Libya.
    assert geo.anchor["lus"][0] < geo.anchor["syr"][0]
    assert geo.anchor["gau"][1] > geo.anchor["lib"][1]
    assert len(geo.unmatched["not touching"]) <= len(board.borders) // 40  # spots from a picture, not fitted
    svg = render_svg(board, opening_state(board))
    assert set(groups(svg, "space-")) == set(board.provinces)
    assert set(groups(svg, "label-")) == set(board.provinces)
