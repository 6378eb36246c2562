"""The `diplomacy` package's Zobrist hash computed from this project's positions: equal to the hash the package
recorded for every phase of the fixture's 200 games on four maps, and to the package's own on positions built live
(dislodged units, a neutral centre); the tables drawn without touching the global random generator."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from adjudicator.catalogue import load_variant
from adjudicator.games.diplomacy.records.notation import notation
from adjudicator.games.diplomacy.records.recorded import position
from adjudicator.games.diplomacy.records.zobrist import map_seed, zobrist_hash, zobrist_tables, zobrist_value
from adjudicator.games.diplomacy.state import Dislodged, GameState, Phase, Unit, opening_state
from tests.games.diplomacy.records.package_fixture import saved_games

MAPS = ("standard", "ancmed", "modern", "pure")


@pytest.mark.parametrize("map_name", MAPS)
def test_every_recorded_phase_of_the_fixture_has_the_package_hash(map_name):
    board = load_variant(map_name)
    names = notation(board)
    checked, wrong = Counter(), []
    for game in saved_games():
        if game["map"] != map_name:
            continue
        phase = None
        for recorded in game["phases"]:
            where = f"{game['id']} {recorded['name']}"
            if recorded["name"] != "COMPLETED":  # (the end's marker: the position is the last phase's)
                phase = names.our_phase(recorded["name"], where)
            state = position(names, recorded["state"], phase, None, {}, where)
            checked[phase.type] += 1
            if zobrist_hash(board, state) != recorded["state"]["zobrist_hash"]:
                wrong.append(where)
    assert wrong == []
    assert checked["Movement"] >= 500 and checked["Adjustment"] >= 50
    assert map_name == "pure" or checked["Retreat"] >= 20  # (pure has no retreats: every space is a centre)


def test_the_hash_is_the_packages_decimal_string():
    board = load_variant("standard")
    value = zobrist_value(board, opening_state(board))
    assert zobrist_hash(board, opening_state(board)) == str(value) and 0 < value < 2 ** 63


def test_live_positions_hash_as_the_package_does():
    diplomacy = pytest.importorskip("diplomacy")
    board = load_variant("standard")
    state = GameState("standard", Phase("Fall", 1902, "Retreat"),
                      units={"stp": Unit("Russia", "F", "stp/nc"), "bur": Unit("France", "A", "bur"),
                             "nrg": Unit("England", "F", "nrg")},
                      owners={"stp": "Russia", "par": "France", "bel": "Germany"},
                      dislodged={"bul": Dislodged(Unit("Turkey", "F", "bul/ec")),
                                 "mun": Dislodged(Unit("Germany", "A", "mun"))})
    game = diplomacy.Game(map_name="standard")
    game.clear_units()
    game.clear_centers()
    game.set_current_phase("F1902R")
    game.set_units("RUSSIA", ["F STP/NC"])
    game.set_units("FRANCE", ["A BUR"])
    game.set_units("ENGLAND", ["F NWG"])
    game.set_units("TURKEY", ["*F BUL/EC"])
    game.set_units("GERMANY", ["*A MUN"])
    for power, centre in (("RUSSIA", "STP"), ("FRANCE", "PAR"), ("GERMANY", "BEL")):
        game.set_centers(power, [centre])
    assert zobrist_hash(board, state) == game.get_hash() == game.rebuild_hash()


def test_each_part_of_the_position_counts():
    board = load_variant("standard")
    base = opening_state(board)
    seen = {zobrist_value(board, base)}
    moved = base.copy()
    moved.units["bur"] = Unit("France", "A", "bur")
    del moved.units["par"]
    other_type = base.copy()
    other_type.units["par"] = Unit("France", "F", "par")  # (a position the judge refuses, hashed all the same)
    other_power = base.copy()
    other_power.units["par"] = Unit("Germany", "A", "par")
    dislodged = base.copy()
    dislodged.dislodged["par"] = Dislodged(dislodged.units.pop("par"))
    owner = base.copy()
    owner.owners["par"] = "Germany"
    for state in (moved, other_type, other_power, dislodged, owner):
        seen.add(zobrist_value(board, state))
    assert len(seen) == 6


def test_the_tables_leave_the_global_generator_alone_and_are_kept_per_board():
    zobrist_tables.cache_clear()
    random.seed(99)
    before = random.getstate()
    tables = zobrist_tables(load_variant("modern"))
    assert random.getstate() == before
    assert zobrist_tables(load_variant("modern")) is tables
    assert zobrist_tables.cache_info().maxsize is not None  # bounded
    assert len(tables.locations) == 143 and len(tables.powers) == 10 and len(tables.homes) == 10


def test_the_seed_is_the_packages():
    # The package's own formula for a map with two locations and centres AB, C: 12345 + 2 + the letters' codes
    # weighted by powers of 7 over "AB-C", modulo 2**32.
    text = "AB-C"
    assert map_seed(2, ["C", "AB"]) == (12345 + 2 + sum(ord(c) * 7 ** i for i, c in enumerate(text))) % 2 ** 32
