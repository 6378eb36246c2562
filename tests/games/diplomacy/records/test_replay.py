"""Issue 37: `adjudicator replay` on the 200 games the package played: every phase agrees or its difference is
classified; a planted difference is reported as exactly that phase; a malformed line is one error with its line
number, and the rest of the file is still replayed; workers give the same records."""

from __future__ import annotations

import gzip
import json

from adjudicator.games.diplomacy.records.dataset import Item, Summary, replay_all, replay_item
from adjudicator.games.diplomacy.records.mila import read_mila
from adjudicator.games.diplomacy.records.replay import AGREES, BY_HAND, EXPLAINED, UNEXPLAINED, replay_game
from tests.games.diplomacy.records.helpers import FIXTURE, game, package_games
from tests.helpers import cli


def _summary(paths, rules=None, workers=1):
    summary = Summary()
    records = [r for game_records in replay_all(paths, rules, workers) for r in game_records]
    for r in records:
        summary.add(r)
    return summary, records


def test_every_phase_the_package_judged_agrees_or_is_explained():
    summary, records = _summary([str(FIXTURE)])
    assert summary.games == 200 and summary.errors == 0
    assert summary.phases[UNEXPLAINED] == 0 and summary.phases[AGREES] > 3000
    # The package moves a VIA army overland when no fleet convoys it (DATC 4.A.3 as in v2.4): explained so.
    assert summary.phases[EXPLAINED] > 0 and set(summary.explained_by) == {"rule set datc-2.4"}


def test_under_the_packages_rules_every_phase_agrees():
    summary, _ = _summary([str(FIXTURE)], rules="diplomacy-package")
    assert summary.phases[UNEXPLAINED] == summary.phases[EXPLAINED] == 0 and summary.phases[AGREES] > 3000


def _planted() -> tuple[dict, str]:
    """A game with one recorded order changed: a move that succeeded in its first phase written as a hold, so
    that only that phase's recorded result is not what the orders make."""
    data = game(0)
    first = data["phases"][0]
    for power, orders in first["orders"].items():
        for i, order in enumerate(orders):
            unit = " ".join(order.split()[:2])
            if " - " in order and first["results"].get(unit) == []:
                orders[i] = f"{unit} H"
                return data, first["name"]
    raise AssertionError("no move succeeded in the first phase")


def test_a_planted_difference_is_exactly_that_phase():
    data, name = _planted()
    checks = replay_game(read_mila(data))
    assert [c.phase for c in checks if c.verdict == UNEXPLAINED] == [name]
    (planted,) = [c for c in checks if c.phase == name]
    assert planted.differences and planted.differences[0].startswith("units: ")


def test_a_phase_the_site_judged_by_hand_is_named_so():
    data, name = _planted()
    data["rules"] = data.get("rules", []) + ["DIFFERENT_ADJUDICATION"]
    (planted,) = [c for c in replay_game(read_mila(data)) if c.phase == name]
    assert planted.verdict == BY_HAND


def test_a_malformed_line_is_one_error_and_the_rest_is_replayed(tmp_path):
    lines = [line.strip() for line in package_games()[:3]]
    lines.insert(1, lines[1][: len(lines[1]) // 2])  # a truncated line
    path = tmp_path / "games.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    summary, records = _summary([str(tmp_path)])
    errors = [r for r in records if r["verdict"] == "error"]
    assert len(errors) == 1 and "line 2: not a JSON game record" in errors[0]["error"]
    assert summary.games == 3


def test_two_workers_give_the_same_records_in_the_same_order(tmp_path):
    path = tmp_path / "some.jsonl"
    path.write_text("".join(package_games()[:12]), encoding="utf-8")
    assert _summary([str(path)], workers=2)[1] == _summary([str(path)])[1]


def test_the_command_writes_jsonl_and_a_summary_and_exits_by_what_it_found(tmp_path):
    data, name = _planted()
    path = tmp_path / "planted.jsonl"
    path.write_text(json.dumps(data) + "\n" + package_games()[1], encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = cli("replay", path, "-o", out)
    assert result.exit_code == 1, result.output
    assert "unexplained" in result.output and "games replayed" in result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["phase"] for r in records if r["verdict"] == UNEXPLAINED] == [name]
    assert cli("replay", FIXTURE, "--rules", "diplomacy-package", "-o", out).exit_code == 0
    refused = cli("replay", path, "--rules", "datc-9")
    assert refused.exit_code == 2 and "unknown rule set 'datc-9'" in refused.output


def test_a_game_record_of_one_item_replays_on_its_own():
    records = replay_item(Item("mem", 1, package_games()[0]))
    assert records[-1]["verdict"] == "game" and records[-1]["phases"] > 10


def test_a_json_file_is_one_game_however_it_is_laid_out(tmp_path):
    (tmp_path / "pretty.json").write_text(json.dumps(game(3), indent=2), encoding="utf-8")
    (tmp_path / "cut.json").write_text(json.dumps(game(3), indent=2)[:500], encoding="utf-8")
    summary, records = _summary([str(tmp_path)])
    assert summary.games == 1 and summary.phases[AGREES] > 10
    (error,) = [r for r in records if r["verdict"] == "error"]
    assert "cut.json: not a JSON game record" in error["error"] and "line " in error["error"]


def test_json_nested_deeper_than_any_game_is_one_error(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n" + package_games()[0], encoding="utf-8")
    summary, records = _summary([str(path)])
    (error,) = [r for r in records if r["verdict"] == "error"]
    assert "line 1: not a JSON game record (nested too deeply)" in error["error"] and summary.games == 1
