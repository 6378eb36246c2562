"""variants/arctic.yaml checked against the map document (../shared/maps/arctic-map.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.errors import OrderError
from adjudicator.names import AmbiguousName
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.state import check_position, opening_state


def test_counts(arctic):
    assert len(arctic.provinces) == 61
    assert Counter(p.kind for p in arctic.provinces.values()) == {
        "land": 31, "island-S": 2, "sea": 13, "ice-W": 5, "ice-S": 5, "ice-P": 5}
    assert len(arctic.centres) == 25
    assert Counter(p.home for p in arctic.provinces.values() if p.home) == {
        "Russia": 3, "Norway": 3, "Canada": 3, "Denmark": 3, "USA": 3}
    assert sorted(p.id for p in arctic.provinces.values() if p.centre and not p.home) == sorted(
        "Bar Bea BfB Chk Ice Kam Lap McK QEI WSi".split())
    assert arctic.victory == 13


def test_borders(arctic):
    assert len(arctic.borders) == 172
    assert Counter(b.kind for b in arctic.borders) == {"water": 127, "coast": 20, "land": 18, "bridge": 7}
    bridges = {frozenset((b.a, b.b)) for b in arctic.borders if b.kind == "bridge"}
    assert bridges == {frozenset(x.split("-")) for x in ["Ura-Nov", "Yel-Vic", "Chu-Vic", "Chu-BfI", "BfI-QEI",
                                                         "QEI-Nrd", "Sev-Yak"]}
    kam_sew = [b for b in arctic.borders if {b.a, b.b} == {"Kam", "Sew"}]
    assert kam_sew[0].kind == "coast" and set(kam_sew[0].seas) == {"Chk", "WBS", "EBS"}


# §4.1 of the map document: coastal land (and Nrd coasts) that is NOT coastal in each season.
NOT_COASTAL = {
    "Spring": {"Nrd/wc"},
    "Summer": set(),
    "Fall": {"Nrd/wc"},
    "Winter": {"Brw", "NWG", "Pev", "QEI", "Nrd/wc", "Vic", "WSi", "Yak", "Yel", "Yuk"},
}
SEA_BESIDES_PERMANENT = {
    "Spring": {"BfB", "Chk", "ESS", "Kar", "McK"},
    "Summer": {"Bea", "BfB", "CAP", "Chk", "ESS", "Kar", "Lap", "McK", "NWP", "Yer", "FJL", "Sev"},
    "Fall": {"BfB", "Chk", "ESS", "Kar", "McK"},
    "Winter": set(),
}
ICE = {
    "Spring": set("AMR AWL Alp Bea CAP FJL Lap Men NP NWP Sev Yer".split()),
    "Summer": set("AMR AWL Alp Men NP".split()),
    "Fall": set("AMR AWL Alp Bea CAP FJL Lap Men NP NWP Sev Yer".split()),
    "Winter": set("AMR AWL Alp Bea BfB CAP Chk ESS FJL Kar Lap McK Men NP NWP Sev Yer".split()),
}
COASTAL_LAND = ("Anc Arc BfI Brw Chu Eur Fin Ice Jun Kam Lyb Mag Nai Nov Nrd/ec Nrd/wc Nuu NWG Osl Pev QEI Sew "
                "Tor Tro TSR Ura Vic WCa WSi Yak Yel Yuk").split()


@pytest.mark.parametrize("season", ["Spring", "Summer", "Fall", "Winter"])
def test_seasonal_table(arctic, season):
    permanent_seas = {p.id for p in arctic.provinces.values() if p.kind == "sea"}
    sea = {p for p in arctic.provinces if arctic.surface(p, season) == "sea"}
    ice = {p for p in arctic.provinces if arctic.surface(p, season) == "ice"}
    assert sea == permanent_seas | SEA_BESIDES_PERMANENT[season]
    assert ice == ICE[season]
    not_coastal = {loc for loc in COASTAL_LAND if not arctic.coastal(loc, season)}
    assert not_coastal == NOT_COASTAL[season]


def test_opening_position_is_legal_in_fall_2010(arctic):
    state = opening_state(arctic)
    assert str(state.phase) == "Fall 2010 Movement"
    check_position(arctic, state)
    for unit in state.units.values():
        assert arctic.can_stand(unit.type, unit.location, "Fall"), unit
    fleets = arctic.fleet_moves("Fall")
    reach = {loc: set(fleets.successors(loc)) for loc in ("Osl", "Tro", "Nai", "Tor", "Nuu", "Jun", "Okh")}
    assert reach == {  # §4.3
        "Osl": {"Nwg", "NAO", "Tro", "Eur"}, "Tro": {"Nwg", "Bar", "Osl", "Fin"}, "Nai": {"Lab", "Hud", "Chu"},
        "Tor": {"Nwg", "NAO"}, "Nuu": {"Lab", "BfB", "DMS", "NAO", "NWG", "Nrd/ec"}, "Jun": {"GoA", "Anc", "WCa"},
        "Okh": {"NPO", "Mag", "Kam", "TSR"}}


def test_nwg_and_nwg_differ_only_by_case(arctic):
    assert parse_order(arctic, "F Nwg - Bar").describe() == "F Nwg - Bar"
    assert parse_order(arctic, "A NWG - Nrd").describe() == "A NWG - Nrd"
    assert parse_order(arctic, "F NRG - Bar").unit.province == "Nwg"
    assert parse_order(arctic, "A NWGL - Nrd").unit.province == "NWG"
    assert parse_order(arctic, "F Norwegian Sea - Barents Sea").unit.province == "Nwg"
    with pytest.raises(OrderError) as err:
        parse_order(arctic, "F nwg - Bar")
    assert "ambiguous" in err.value.message and "Norwegian Sea" in err.value.message \
        and "Northwest Greenland" in err.value.message
    with pytest.raises(AmbiguousName):
        arctic.names.lookup("NwG")


def test_full_names_correct_spellings_and_united_states(arctic):
    assert parse_order(arctic, "A Yukon - McKenzie Delta").describe() == "A Yuk - McK"
    assert parse_order(arctic, "F Sea of Okhotsk - Kamchatka").describe() == "F Okh - Kam"
    assert arctic.power_names.lookup("United States") == "USA"
    assert parse_order(arctic, "F Station Nord (east coast) - Greenland Sea").unit.location == "Nrd/ec"


def test_build_sites(arctic):
    sites = {(s.power, s.province): s for s in arctic.build_sites}
    assert sites[("Canada", "WCa")].unit_types == ("F",) and not sites[("Canada", "WCa")].needs_ownership
    assert sites[("Russia", "WSi")].needs_ownership
