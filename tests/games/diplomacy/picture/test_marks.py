"""The marks of a phase read at a glance (issue 38, item 6): a convoy's mark over the army's arrow, no failure
cross on a label or a unit, an illegal build's cross beside the unit, a dislodged unit beside the unit now in its
place, a crowded phase's marks apart, a white power's failed orders outlined, retreats and their options drawn as
retreats, waived builds drawn, and the legend naming each. Boxes are read from the SVG the code writes."""

from __future__ import annotations

import math

import pytest

from adjudicator.games.diplomacy.orders.sheet import orders_from_lists
from adjudicator.games.diplomacy.phase import adjudicate
from adjudicator.games.diplomacy.state_file import state_from_data
from adjudicator.render.style import TERRAIN_FILL
from tests.games.diplomacy.picture.svg_helpers import (
    NS,
    collisions,
    distance_to,
    elements,
    overlap,
    placed,
    polyline,
    svg_of,
)


def judged(board, position: dict, orders: dict[str, list[str]]):
    """A standard phase judged: the position, its result, and the picture's SVG."""
    state = state_from_data({"variant": "standard", **position}, board=board)
    result = adjudicate(board, state, orders_from_lists(board, orders).orders)
    return state, result, svg_of(board, state, result)


def legend_keys(ids) -> set[str]:
    return {k[len("legend-"):] for k in ids if k.startswith("legend-") and k not in ("legend-title", "legend-phase")}


def luminance(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


FALL_1901 = {"phase": "Fall 1901 Movement", "units": {
    "England": ["F nth", "A yor", "F lon"], "France": ["A par", "A bur", "A pic", "A gas"],
    "Germany": ["A mun", "A ber", "A sil", "A ruh", "F den"], "Austria": ["A vie", "A tri", "A bud", "A boh"],
    "Italy": ["A ven", "A pie"], "Russia": ["F bot", "A lvn", "F bal"]}}
CROWDED = {"England": ["F nth C A yor - bel", "A yor - bel", "F lon - eng"],
           "France": ["A par - bur", "A bur - par", "A pic - par", "A gas - par"],
           "Germany": ["A mun - tyr", "A ber - mun", "A sil - boh", "A ruh - bur", "F den - swe"],
           "Austria": ["A vie - tyr", "A bud - vie", "A tri S A vie - tyr", "A boh - mun"],
           "Italy": ["A ven - tyr", "A pie - tyr"],
           "Russia": ["F bot - swe", "A lvn - pru", "F bal S A lvn - pru"]}


@pytest.fixture(scope="module")
def crowded(standard):
    return judged(standard, FALL_1901, CROWDED)


def test_a_convoys_mark_lies_on_the_armys_arrow_and_is_drawn_over_it(crowded):
    """Before: the convoy's diamond was drawn with the convoy, under the army's arrow (a plain move to see)."""
    _, result, svg = crowded
    ids = elements(svg)
    number = {r.text: n for n, r in enumerate(result.report, 1)}
    convoy, move = number["F nth C A yor - bel"], number["A yor - bel"]
    mark = ids[f"order-{convoy}-convoy-mark"]
    arrow = ids[f"order-{move}-move"]
    order = list(ids)  # (in the document's order)
    assert order.index(f"order-{convoy}-convoy-mark") > order.index(f"order-{move}-move")  # drawn after it: on top
    diamond = polyline(list(mark.iter(f"{NS}path"))[-1].attrib["d"])
    centre = (sum(x for x, _ in diamond) / len(diamond), sum(y for _, y in diamond) / len(diamond))
    assert distance_to(centre, polyline(list(arrow.iter(f"{NS}path"))[1].attrib["d"])) < 2.0


def test_no_mark_of_a_crowded_phase_covers_a_label_a_unit_or_another_mark(crowded):
    """Before: six marks within 60 px around Munich, Tyrolia and Vienna, crosses on the Par and Mun labels and
    on units (the crosses went to the first spot of their line when every spot met a label)."""
    _, result, svg = crowded
    assert collisions(svg) == []
    crosses = [k for k, (kind, _) in placed(svg).items() if kind == "mark" and k.endswith("-failed")]
    assert len(crosses) >= 10  # (the phase is crowded: most of its orders fail)


def test_an_illegal_builds_cross_is_beside_the_unit_it_names(standard):
    """`Build A vie` with Austria's army in Vienna: before, its cross sat on the army."""
    _, _, svg = judged(standard, {"phase": "Fall 1901 Adjustment", "centres": {"Austria": ["vie", "bud", "tri", "ser"]},
                                  "units": {"Austria": ["A vie"]}}, {"Austria": ["Build A vie", "Build A bud"]})
    boxes = placed(svg)
    cross = boxes["order-1-build-illegal"][1]
    assert not overlap(cross, boxes["unit-Austria-A-vie"][1]) and not overlap(cross, boxes["label-vie"][1])
    assert math.dist(cross[:2], boxes["unit-Austria-A-vie"][1][:2]) < 40  # beside it, not elsewhere
    assert collisions(svg) == []


@pytest.fixture(scope="module")
def retreats(standard):
    """Spring 1902: Burgundy's French army and Tyrolia's Austrian army dislodged; their retreats judged."""
    state = state_from_data({"variant": "standard", "phase": "Spring 1902 Movement", "units": {
        "France": ["A bur", "A par"], "Germany": ["A mun", "A ruh", "A bel"], "Austria": ["A tyr", "A vie"],
        "Italy": ["A ven", "A pie"]}}, board=standard)
    moves = orders_from_lists(standard, {"Germany": ["A mun - bur", "A ruh S A mun - bur", "A bel S A mun - bur"],
                                         "France": ["A bur H", "A par S A bur"],
                                         "Italy": ["A ven - tyr", "A pie S A ven - tyr"]})
    retreat = adjudicate(standard, state, moves.orders).next_state
    result = adjudicate(standard, retreat, orders_from_lists(standard, {"France": ["A bur - gas"],
                                                                        "Austria": ["A tyr R boh"]}).orders)
    return retreat, svg_of(standard, retreat, result), svg_of(standard, retreat)


def test_a_dislodged_unit_is_drawn_beside_the_unit_now_in_its_place(retreats):
    """Before: the dislodged Austrian army covered the Italian army now in Tyrolia."""
    _, svg, _ = retreats
    boxes = placed(svg)
    for dislodged, occupant in (("dislodged-Austria-A-tyr", "unit-Italy-A-tyr"),
                                ("dislodged-France-A-bur", "unit-Germany-A-bur")):
        assert not overlap(boxes[dislodged][1], boxes[occupant][1]), dislodged
    assert collisions(svg) == []


def test_a_retreat_phase_draws_retreats_from_the_dislodged_units_and_their_options(retreats, standard):
    """`A bur - gas` in a retreat phase is a retreat: before, it was drawn (and named in the legend) as a move from
    the German army now in Burgundy, and no retreat option was drawn."""
    state, svg, position = retreats
    ids = elements(svg)
    assert {"order-1-retreat", "order-2-retreat"} <= set(ids) and not any(k.endswith("-move") for k in ids)
    assert {"retreat", "retreat-option"} <= legend_keys(ids) and "move" not in legend_keys(ids)
    boxes = placed(svg)
    start = polyline(list(ids["order-1-retreat"].iter(f"{NS}path"))[1].attrib["d"])[0]
    ring = boxes["dislodged-France-A-bur"][1]
    assert ring[0] - 4 < start[0] < ring[2] + 4 and ring[1] - 4 < start[1] < ring[3] + 4  # from the dislodged unit
    for shown in (ids, elements(position)):  # the options, with or without the retreats judged
        options = {k for k in shown if k.startswith("retreat-option-")}
        assert {"retreat-option-bur-gas", "retreat-option-bur-pic", "retreat-option-bur-mar",
                "retreat-option-tyr-boh"} <= options
        assert "retreat-option-bur-par" not in options  # occupied
        assert "retreat-option-bur-mun" not in options  # where the attacker came from


def test_waived_builds_are_drawn_and_counted(standard):
    """Before: a waive was not drawn at all."""
    _, _, svg = judged(standard, {"phase": "Fall 1901 Adjustment",
                                  "centres": {"Russia": ["mos", "war", "sev", "stp", "rum"]}, "units": {"Russia": ["A rum"]}},
                       {"Russia": ["Build A mos", "Waive", "Waive"]})
    ids = elements(svg)
    waived = [k for k in ids if k.startswith("order-") and k.endswith("-waive")]
    assert len(waived) == 2 and "waive" in legend_keys(ids)
    spots = {k: placed(svg)[k][1] for k in waived}
    assert not overlap(*spots.values())
    note = [p for p in ids["legend-power-Russia"].iter(f"{NS}path") if p.attrib.get("aria-label")]
    assert any("2 builds waived" in p.attrib["aria-label"] for p in note)
    assert collisions(svg) == []


def test_a_white_powers_failed_order_keeps_an_edge_that_shows_on_land(crowded, standard):
    """Russia is white: its failed order, washed out, vanished on the land colour (a pale grey edge, 2:1)."""
    _, result, svg = crowded
    ids = elements(svg)
    number = {r.text: n for n, r in enumerate(result.report, 1)}
    n = number["F bot - swe"]
    assert result.report[n - 1].status == "fails"
    edge = list(ids[f"order-{n}-move"].iter(f"{NS}path"))[0].attrib["stroke"]
    for ground in TERRAIN_FILL.values():
        assert contrast(edge, ground) >= 3.0, (edge, ground)
