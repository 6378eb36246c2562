"""The standard board as data, the loader, and its errors."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.games.diplomacy.board_file import board_from_data
from adjudicator.catalogue import load_variant
from adjudicator.errors import VariantError
from adjudicator.yamlio import load_yaml_text


def test_standard_counts(standard):
    assert len(standard.provinces) == 75
    assert Counter(p.kind for p in standard.provinces.values()) == {"land": 56, "sea": 19}
    assert len(standard.centres) == 34
    homes = Counter(p.home for p in standard.provinces.values() if p.home)
    assert homes == {"Austria": 3, "England": 3, "France": 3, "Germany": 3, "Italy": 3, "Russia": 4, "Turkey": 3}
    assert sum(len(v) for v in standard.start_units.values()) == 22


def test_split_coasts(standard):
    assert standard.locations("stp") == ("stp/nc", "stp/sc")
    assert standard.locations("spa") == ("spa/nc", "spa/sc")
    assert standard.locations("bul") == ("bul/ec", "bul/sc")
    fleet = standard.fleet_moves("Spring")
    assert set(fleet.successors("stp/nc")) == {"bar", "nwy"}
    assert set(fleet.successors("bul/sc")) == {"aeg", "con", "gre"}
    assert not fleet.has_edge("spa/nc", "mar")
    assert fleet.has_edge("gol", "spa/sc") and not fleet.has_edge("gol", "spa/nc")


def test_armies_and_fleets_follow_their_borders(standard):
    army = standard.army_moves("Spring")
    fleet = standard.fleet_moves("Spring")
    assert army.has_edge("par", "bur") and not fleet.has_edge("par", "bur")
    assert not army.has_edge("lvp", "iri") and fleet.has_edge("lvp", "iri")
    assert not fleet.has_edge("rom", "ven")  # coasts do not touch
    assert army.has_edge("nwy", "stp") and fleet.has_edge("nwy", "stp/nc")
    assert fleet.has_edge("kie", "ber") and fleet.has_edge("den", "swe")


def test_adjacency_is_symmetric_on_the_standard_board(standard):
    for graph in (standard.army_moves("Fall"), standard.fleet_moves("Fall")):
        for a, b in graph.edges:
            if standard.provinces[a.split("/")[0]].kind == "land" or graph is standard.fleet_moves("Fall"):
                assert graph.has_edge(b, a), (a, b)


def test_names_and_alternates(standard):
    for name, pid in [("nrg", "nrg"), ("nwg", "nrg"), ("Norwegian Sea", "nrg"), ("NAO", "nat"), ("mao", "mid"),
                      ("Mid-Atlantic Ocean", "mid"), ("lyo", "gol"), ("Gulf of Lyon", "gol"), ("St Petersburg", "stp"),
                      ("st. petersburg", "stp"), ("Heligoland Bight", "hel")]:
        assert standard.names.lookup(name) == pid


def test_convoy_route_needs_fleets_on_open_sea(standard):
    assert standard.convoy_route_exists("lon", "bel", "Spring", ["nth"])
    assert standard.convoy_route_exists("lvp", "edi", "Spring", ["nat", "nrg"])
    assert not standard.convoy_route_exists("lvp", "edi", "Spring", ["nat"])
    assert standard.convoy_fleets_on_routes("mar", "spa", "Spring", ["gol", "wes"]) == {"gol"}


def _minimal(extra_borders="", provinces=None):
    provinces = provinces or """
  - {id: a, name: Aland, kind: land, centre: true, home: P}
  - {id: b, name: Bland, kind: land}
  - {id: s, name: Sea, kind: sea}
"""
    return f"""
name: tiny
powers: {{P: {{}}}}
terrain: {{land: {{default: land}}, sea: {{default: sea}}}}
calendar:
  phases: [{{season: Spring, type: Movement}}]
provinces:{provinces}
borders:
  - a - b : coast
  - a - s : water
{extra_borders}
"""


def test_loader_builds_a_small_variant():
    board = board_from_data(load_yaml_text(_minimal()))
    assert board.army_moves("Spring").has_edge("a", "b")
    assert board.fleet_moves("Spring").has_edge("b", "a")


def test_unknown_space_in_a_border_names_the_line():
    text = _minimal("  - a - zz : water")
    with pytest.raises(VariantError) as err:
        board_from_data(load_yaml_text(text, "tiny.yaml"), "tiny.yaml")
    assert "unknown space 'zz'" in err.value.message
    assert err.value.line == text.splitlines().index("  - a - zz : water") + 1


def test_bad_border_kind():
    with pytest.raises(VariantError) as err:
        board_from_data(load_yaml_text(_minimal("  - a - s : tunnel")))
    assert "tunnel" in err.value.message


def test_unknown_variant_is_a_clear_error():
    from adjudicator.errors import AdjudicatorError

    with pytest.raises(AdjudicatorError) as err:
        load_variant("atlantis")
    assert "unknown variant 'atlantis'" in str(err.value) and "standard" in str(err.value)
