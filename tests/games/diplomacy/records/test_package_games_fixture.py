"""The fixture of games the `diplomacy` package played is benchmarks/package_games.py's output (the script writes its
first games again, exactly), covers the four maps and the odd orders the script plants, and the package loads every
game back. Skipped when the package is not installed."""

from __future__ import annotations

import json
from collections import Counter

import pytest

pytest.importorskip("diplomacy", reason="the diplomacy package is not installed: pip install '.[bench]'")

from tests.games.diplomacy.records.package_fixture import saved_games  # noqa: E402
from tests.helpers import benchmark  # noqa: E402


def _args():
    script = benchmark("package_games")
    return script, script.parser().parse_args(script.FIXTURE_ARGS)


@pytest.mark.parametrize("index", [0, 1])
def test_the_script_writes_the_fixtures_games_again(index):
    script, args = _args()
    again = json.loads(json.dumps(script.saved_game(args, index)))
    assert again == saved_games()[index]


def test_the_fixture_has_every_game_of_the_command_on_the_four_maps():
    script, args = _args()
    games = saved_games()
    assert len(games) == args.games == 200
    assert Counter(g["map"] for g in games) == {"standard": 50, "ancmed": 50, "modern": 50, "pure": 50}
    assert [g["id"] for g in games] == [f"pkg-{args.seed}-{i}" for i in range(200)]
    long = [g for i, g in enumerate(games) if script.game_plan(args, i)[2] is not None]
    assert len(long) == 4 and all(g["phases"][-2]["name"] == "W1910A" for g in long)


def test_the_odd_orders_reach_the_records():
    """Builds beyond those allowed and removals beyond those due are recorded (the package drops an order it voids,
    such as a second build in one province, from the record); VIA moves and silent powers too."""
    extra_builds = extra_removals = via = silent = 0
    for game in saved_games():
        for phase in game["phases"][:-1]:
            state = phase["state"]
            for power, orders in phase["orders"].items():
                due = len(state["centers"][power]) - len(state["units"][power])
                if phase["name"].endswith("A"):
                    builds = sum(o.endswith(" B") for o in orders)
                    extra_builds += due > 0 and builds > min(due, len(state["builds"][power]["homes"]))
                    extra_removals += due < 0 and sum(o.endswith(" D") for o in orders) > -due
                via += sum(o.endswith(" VIA") for o in orders)
                silent += not orders and phase["name"].endswith("M") and bool(state["units"][power])
    assert extra_builds >= 50 and extra_removals >= 30 and via >= 100 and silent >= 100


def test_the_package_loads_every_game_with_its_phases():
    from diplomacy.utils.export import from_saved_game_format

    for saved in saved_games():
        game = from_saved_game_format(saved)
        assert [p.name for p in game.get_phase_history()] + [game.get_current_phase()] == \
            [p["name"] for p in saved["phases"]]
        assert game.get_hash() == saved["phases"][-1]["state"]["zobrist_hash"]
