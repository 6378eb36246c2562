"""Issue 37: the `diplomacy` package's saved games read and written back (200 games it played on four maps), and
what this project writes for a game it did not read (homes, builds, influence, the Zobrist hash) being what the
package writes; the package loads and validates what is written."""

from __future__ import annotations

import pytest

from adjudicator.games.diplomacy.records.mila import read_mila, write_mila
from adjudicator.games.diplomacy.records.notation import RecordError
from tests.games.diplomacy.records.helpers import game, package_games, sorted_lists

diplomacy = pytest.importorskip("diplomacy")
from diplomacy.utils.export import from_saved_game_format, is_valid_saved_game  # noqa: E402


def test_the_fixture_has_200_games_on_four_maps():
    maps = {game(i)["map"] for i in range(len(package_games()))}
    assert len(package_games()) >= 200 and maps >= {"standard", "ancmed", "modern", "pure"}


def test_every_game_read_and_written_back_is_the_game_it_was():
    for i in range(len(package_games())):
        data = game(i)
        assert sorted_lists(write_mila(read_mila(data))) == sorted_lists(data), data["id"]


def test_what_the_package_keeps_is_written_from_the_position_alone():
    """Without the record's kept fields each phase's state is worked out: the same as the package's."""
    for i in range(0, len(package_games()), 4):
        data = game(i)
        recorded = read_mila(data)
        for phase in recorded.phases:
            phase.kept_state = {}
        for ours, theirs in zip(write_mila(recorded)["phases"], data["phases"]):
            for key in ("units", "centers", "retreats", "homes", "influence", "builds", "zobrist_hash", "name"):
                assert sorted_lists(ours["state"][key]) == sorted_lists(theirs["state"][key]), (data["id"], theirs["name"], key)


def test_the_package_loads_and_validates_what_is_written():
    for i in range(0, 40, 4):  # (is_valid_saved_game replays the game in the package: a sample)
        data = game(i)
        recorded = read_mila(data)
        for phase in recorded.phases:
            phase.kept_state = {}  # (every field written by this project)
        out = write_mila(recorded)
        loaded = from_saved_game_format(out)
        assert [p.name for p in loaded.get_phase_history()] + [loaded.get_current_phase()] == \
               [p["name"] for p in data["phases"]]
        assert is_valid_saved_game(out), data["id"]


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(map="narnia"), "the map 'narnia' is not one"),
    (lambda d: d["phases"][1].update(name="X1901Q"), "is not a phase name"),
    (lambda d: d["phases"][1]["state"]["units"].update(ATLANTIS=["A PAR"]), "'ATLANTIS' is not a power"),
    (lambda d: d["phases"][1]["state"]["units"]["FRANCE"].append("A XYZ"), "'XYZ' is not a place"),
    (lambda d: d["phases"][1]["state"]["units"]["FRANCE"].append("Q PAR"), "is not a unit such as 'A PAR'"),
    (lambda d: d.update(phases=[]), "`phases` must be a non-empty list"),
    (lambda d: d["phases"][1]["state"]["units"].update(FRANCE="A PAR"), "units of FRANCE: expected a list of texts"),
    (lambda d: d["phases"][1]["state"].update(centers=["PAR"]), "centers: expected a mapping of each power"),
])
def test_a_broken_record_is_one_clear_error_naming_where(change, message):
    data = game(0)
    change(data)
    with pytest.raises(RecordError, match=message):
        read_mila(data, "games.jsonl line 1")
