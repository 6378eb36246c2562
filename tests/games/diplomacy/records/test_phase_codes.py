"""The record's phase names (`S1901M`, `W1901A`, and `S0001M` on ancmed, whose years the package writes with four
digits) read as this project's phases and written back the same, for every phase of the fixture's games; and the
record's power names."""

from __future__ import annotations

import pytest

from adjudicator.catalogue import load_variant
from adjudicator.games.diplomacy.records.notation import notation
from adjudicator.games.diplomacy.state import Phase
from tests.games.diplomacy.records.package_fixture import saved_games


@pytest.mark.parametrize("map_name", ["standard", "ancmed", "modern", "pure"])
def test_every_recorded_phase_name_reads_and_writes_back(map_name):
    names = notation(load_variant(map_name))
    recorded = {p["name"] for g in saved_games() if g["map"] == map_name for p in g["phases"]} - {"COMPLETED"}
    assert len(recorded) >= 20
    assert {names.phase_code(names.our_phase(name, "test")) for name in recorded} == recorded


def test_a_year_before_1000_is_written_with_four_digits():
    names = notation(load_variant("ancmed"))
    assert names.phase_code(Phase("Spring", 1, "Movement")) == "S0001M"
    assert names.our_phase("W0012A", "test") == Phase("Fall", 12, "Adjustment")


def test_power_names_are_the_packages_without_hyphens():
    # The package's world map names its powers without the hyphens of this project's board (its map file's names).
    names = notation(load_variant("world"))
    assert {names.power(p) for p in ("Near-East", "Frozen-Antarctica", "United-States", "Oz")} == \
        {"NEAREAST", "FROZENANTARCTICA", "UNITEDSTATES", "OZ"}
    assert names.our_power("nearEast", "test") == "Near-East"
    assert notation(load_variant("standard")).power("Austria") == "AUSTRIA"
