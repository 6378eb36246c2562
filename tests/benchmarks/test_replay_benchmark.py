"""benchmarks/replay.py: every part runs on a tiny input (4 games, one of each map) and prints its figures."""

from __future__ import annotations

import json
import re

import pytest

from tests.games.diplomacy.records.helpers import package_games
from tests.helpers import benchmark


@pytest.fixture
def tiny(tmp_path):
    """A game of each of the fixture's four maps."""
    replay = benchmark("replay")
    path = tmp_path / "tiny.jsonl"
    path.write_text("".join(item.text for item in replay.warming_items(list(package_games()))), encoding="utf-8")
    return path


def test_every_part_runs_and_prints_its_figures(tiny, capsys) -> None:
    assert benchmark("replay").main(["--fixture", str(tiny), "--peer-games", "1", "--games", "6", "--rounds", "1",
                                     "--memory", "2,5"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"the package: json.loads \+ is_valid_saved_game +\d+ phases/s +\(1 of 1 games valid\)", out)
    assert re.search(r"ratio on the same games: [\d.]+x by the default rules", out)
    assert re.search(r"2 local workers .* speed-up [\d.]+x over 1", out)
    assert re.search(r"Dask, 2 workers .* [\d.]+x the local workers' speed", out)
    assert re.search(r"\n +5 games +peak RSS +[\d.]+ MB +\([\d.]+ s, exit status 0\)", out)
    assert re.search(r"extrapolated: 156,000 games x 40 phases = 6,240,000 phases .* = [\d.]+ minutes", out)


def test_the_copies_have_fresh_ids(tmp_path) -> None:
    replay = benchmark("replay")
    lines = list(package_games()[:2])
    path = replay.write_games(lines, 5, tmp_path / "five.jsonl.gz")
    copies = [json.loads(line) for line in replay.fixture_lines(path)]
    first, second = (json.loads(line) for line in lines)
    assert [c["id"] for c in copies] == [first["id"], second["id"], f"{first['id']}-copy1", f"{second['id']}-copy1",
                                         f"{first['id']}-copy2"]
    assert copies[4]["phases"] == first["phases"]


def test_an_unknown_part_is_refused() -> None:
    with pytest.raises(SystemExit):
        benchmark("replay").main(["--parts", "one-core,gpu"])
