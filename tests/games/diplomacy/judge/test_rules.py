"""Each resolution rule, checked through outcomes and the reasons a player reads."""

from __future__ import annotations

from tests.helpers import judge, report_of


def test_bounce_names_the_other_unit():
    o = judge("""
PRESTATE
    Austria: A vie
    Italy: A ven
ORDERS
    Austria: A vie-tyr
    Italy: A ven-tyr
POSTSTATE_SAME
""")
    assert o.passed
    r = report_of(o, "Austria", "A vie-tyr")
    assert r.status == "fails" and "Italy A ven" in r.reason and "1 against 1" in r.reason
    assert o.result.contested == ["tyr"]


def test_supported_move_dislodges_and_lists_retreats():
    o = judge("""
PRESTATE
    Austria: A tri
    Austria: F adr
    Italy: A ven
ORDERS
    Austria: A tri-ven
    Austria: F adr S A tri-ven
POSTSTATE
    Austria: A ven
    Austria: F adr
POSTSTATE_DISLODGED
    Italy: A ven
""")
    assert o.passed, o.problems
    r = report_of(o, "Italy", "A ven")
    assert r.status == "fails" and "dislodged by Austria A tri" in r.reason
    (d,) = o.result.dislodged
    assert d.attacker_origin == "tri" and "tri" not in d.retreats and set(d.retreats) == {"apu", "pie", "rom", "tus", "tyr"}


def test_support_cut_names_the_cutter():
    o = judge("""
PRESTATE
    Austria: A tri
    Austria: A vie
    Italy: A ven
    Italy: A tyr
ORDERS
    Austria: A tri-ven
    Austria: A vie-tyr
    Italy: A tyr S A ven
POSTSTATE_SAME
""")
    r = report_of(o, "Italy", "A tyr S A ven")
    assert r.status == "fails" and "cut by Austria A vie" in r.reason


def test_support_for_a_move_not_made_is_void():
    o = judge("""
PRESTATE
    France: A par
    France: A bur
ORDERS
    France: A par S A bur-pic
    France: A bur H
POSTSTATE_SAME
""")
    assert report_of(o, "France", "A par S").status == "void"


_SUPPORT_TO_BULGARIA = """
PRESTATE
    Turkey: F con
    Turkey: F bla
    Austria: A ser
ORDERS
    Turkey: F con - bul/ec
    Turkey: F bla S F con - bul/{coast}
    Austria: A ser - bul
"""


def test_a_support_naming_another_coast_than_the_move_is_void_and_says_so():
    """DATC 6.B.9 (issue 4.B.4): the coast named in a support must match the move's (Calhamer: "allies should
    be in evident agreement on the moves"); the reason names both coasts, not a move that was not made."""
    o = judge(_SUPPORT_TO_BULGARIA.format(coast="sc") + "POSTSTATE_SAME\n")
    assert o.passed, o.problems
    r = report_of(o, "Turkey", "F bla S")
    assert r.status == "void" and r.reason == "void: Turkey F con moves to bul/ec, not to the sc coast this support names"
    matched = judge(_SUPPORT_TO_BULGARIA.format(coast="ec")
                    + "POSTSTATE\n    Turkey: F bul/ec\n    Turkey: F bla\n    Austria: A ser\n")
    assert matched.passed, matched.problems


def test_illegal_move_holds_and_says_why():
    o = judge("""
PRESTATE
    England: A lvp
ORDERS
    England: A lvp-iri
POSTSTATE_SAME
""")
    r = report_of(o, "England", "A lvp-iri")
    assert r.status == "illegal" and "sea" in r.reason.lower() and "holds" in r.reason


def test_order_for_another_powers_unit_is_ignored():
    o = judge("""
PRESTATE
    England: F lon
ORDERS
    Germany: F lon-nth
POSTSTATE_SAME
""")
    r = report_of(o, "Germany", "F lon-nth")
    assert r.status == "ignored" and "belongs to England" in r.reason


def test_two_different_orders_make_the_unit_hold():
    o = judge("""
PRESTATE
    France: A par
ORDERS
    France: A par-bur
    France: A par-pic
POSTSTATE_SAME
""")
    assert {r.status for r in o.result.report if r.power == "France" and r.order} == {"illegal"}


def test_convoy_without_fleet_order_fails_with_reason():
    o = judge("""
PRESTATE
    England: A lon
    England: F nth
ORDERS
    England: A lon-bel
    England: F nth H
POSTSTATE_SAME
""")
    r = report_of(o, "England", "A lon-bel")
    assert r.status == "fails" and "convoy" in r.reason


def test_convoy_paradox_is_reported_as_szykman():
    o = judge("""
PRESTATE
    England: F lon
    England: F wal
    France: A bre
    France: F eng
ORDERS
    England: F lon S F wal-eng
    England: F wal-eng
    France: A bre-lon
    France: F eng C A bre-lon
POSTSTATE
    England: F lon
    England: F eng
    France: A bre
POSTSTATE_DISLODGED
    France: F eng
""")
    assert o.passed, o.problems
    assert "Szykman" in report_of(o, "France", "F eng C").reason


def test_circular_movement_succeeds():
    o = judge("""
PRESTATE
    Turkey: F ank
    Turkey: A con
    Turkey: A smy
ORDERS
    Turkey: F ank-con
    Turkey: A con-smy
    Turkey: A smy-ank
POSTSTATE
    Turkey: F con
    Turkey: A smy
    Turkey: A ank
""")
    assert o.passed, o.problems


def test_retreat_phase_bounce_disbands_both():
    o = judge("""
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
    Austria: A vie
PRESTATE_DISLODGED
    Italy: A boh
    Germany: A sil
PRESTATE_RESULTS
    SUCCESS: Austria: A gal-boh
ORDERS
    Italy: A boh-mun
    Germany: A sil-mun
POSTSTATE
    Austria: A vie
""")
    assert o.passed, o.problems
    assert report_of(o, "Italy", "A boh-mun").status == "fails"


def test_retreat_phase_unordered_unit_is_disbanded_and_next_phase_is_fall():
    o = judge("""
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
    Austria: A vie
PRESTATE_DISLODGED
    Italy: A boh
ORDERS
POSTSTATE
    Austria: A vie
POSTSTATE_SETPHASE Fall 1901, Movement
""")
    assert o.passed, o.problems
    assert o.result.report[0].status == "default"


def test_fall_moves_change_centres_and_skip_empty_phases():
    o = judge("""
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE
    England: F nth
    England: F lon
ORDERS
    England: F nth-nwy
POSTSTATE
    England: F nwy
    England: F lon
POSTSTATE_SUPPLYCENTER_OWNERS
    England: edi
    England: lon
    England: lvp
    England: nwy
    France: bre
    France: mar
    France: par
    Germany: ber
    Germany: kie
    Germany: mun
    Italy: nap
    Italy: rom
    Italy: ven
    Russia: mos
    Russia: sev
    Russia: stp
    Russia: war
    Austria: bud
    Austria: tri
    Austria: vie
    Turkey: ank
    Turkey: con
    Turkey: smy
POSTSTATE_SETPHASE Fall 1901, Adjustment
""")
    assert o.passed, o.problems
    assert ("nwy", None, "England") in o.result.centre_changes
    assert [str(p) for p, _ in o.result.skipped] == ["Fall 1901 Retreat"]


def test_missing_builds_are_waived_and_reported():
    o = judge("""
PRESTATE_SETPHASE Fall 1901, Adjustment
PRESTATE_SUPPLYCENTER_OWNERS
    Germany: A ber
    Germany: A kie
    Germany: A mun
PRESTATE
    Germany: A ber
ORDERS
    Germany: Build A mun
POSTSTATE
    Germany: A ber
    Germany: A mun
POSTSTATE_SETPHASE Spring 1902, Movement
""")
    assert o.passed, o.problems
    assert [r.reason for r in o.result.report if r.status == "default"] == ["build not ordered: waived"]


def test_civil_disorder_removes_the_farthest_unit():
    o = judge("""
PRESTATE_SETPHASE Fall 1901, Adjustment
PRESTATE_SUPPLYCENTER_OWNERS
    France: A par
PRESTATE
    France: A par
    France: A gas
    France: F wes
ORDERS
POSTSTATE
    France: A par
""")
    assert o.passed, o.problems
    assert all("civil disorder" in r.reason for r in o.result.report)


def test_victory_is_reported():
    owners = "\n".join(f"    France: {c}" for c in
                       "bre mar par spa por bel hol lon edi lvp mun kie ber den nwy swe tun".split())
    o = judge(f"""
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE_SUPPLYCENTER_OWNERS
{owners}
PRESTATE
    France: A bur
ORDERS
    France: A bur-mun
POSTSTATE
    France: A mun
POSTSTATE_WINNER none
""")
    assert o.passed, o.problems
    o = judge(f"""
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE_SUPPLYCENTER_OWNERS
{owners}
PRESTATE
    France: A ruh
ORDERS
    France: A ruh-mun
POSTSTATE
    France: A mun
POSTSTATE_WINNER France
""")
    assert not o.passed  # mun already counted: France has 17
    o = judge(f"""
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE_SUPPLYCENTER_OWNERS
{owners}
PRESTATE
    France: A tyr
ORDERS
    France: A tyr-ven
POSTSTATE
    France: A ven
POSTSTATE_WINNER France
""")
    assert o.passed, o.problems
