"""Issue 37: one converter between the records and this project's game file: a recorded game becomes a game file
with its whole history and back; a project game file goes out as a record and back keeping its history; FAIR's
game JSON written and read back equal, a draw carried as its powers' `<DRAW>` votes."""

from __future__ import annotations

import json

import pytest

from adjudicator.game_end import EndKind
from adjudicator.games.diplomacy.records.convert import from_game_file, to_game_data
from adjudicator.games.diplomacy.records.fair import read_fair, write_fair
from adjudicator.games.diplomacy.records.mila import read_mila, write_mila
from adjudicator.games.diplomacy.records.notation import RecordError
from tests.games.diplomacy.records.helpers import game, package_games, sorted_lists
from tests.helpers import cli

PLAYED = ("name", "orders", "results")


def _phases(data):
    return [sorted_lists({**{k: p[k] for k in PLAYED},
                          **{k: p["state"][k] for k in ("units", "centers", "retreats")}}) for p in data["phases"]]


@pytest.mark.parametrize("i", range(0, 200, 25))
def test_a_saved_game_through_a_game_file_and_back_keeps_every_phase(tmp_path, i):
    source = tmp_path / "game.jsonl"
    source.write_text(package_games()[i], encoding="utf-8")
    assert cli("convert", source, "-o", tmp_path / "game.yaml").exit_code == 0
    result = cli("convert", tmp_path / "game.yaml", "-o", tmp_path / "back.json")
    assert result.exit_code == 0, result.output
    back, original = _phases(json.loads((tmp_path / "back.json").read_text())), _phases(game(i))
    assert back[:-1] == original[:-1] and len(back) == len(original)
    assert {k: v for k, v in back[-1].items() if k != "orders"} == {k: v for k, v in original[-1].items() if k != "orders"}


def test_a_project_game_file_goes_out_and_back_with_its_history(tmp_path):
    start = tmp_path / "start.yaml"
    assert cli("new", "-o", start).exit_code == 0
    sheets = ["Austria: A vie - gal\nEngland: F lon - nth\nFrance: A par - bur\nGermany: A mun - ruh\n"
              "Russia: A war - gal\nTurkey: F ank - bla",
              "France: A bur - bel\nEngland: F nth - hol\nGermany: A ruh S A bur - bel"]
    for i, sheet in enumerate(sheets):
        (tmp_path / f"s{i}.txt").write_text(sheet, encoding="utf-8")
        result = cli("adjudicate", start, tmp_path / f"s{i}.txt", "--in-place")
        assert result.exit_code == 0, result.output
    out = tmp_path / "out.jsonl"
    assert cli("convert", start, "-o", out, "--to", "mila").exit_code == 0
    record = json.loads(out.read_text())
    assert [p["name"] for p in record["phases"]] == ["S1901M", "F1901M", "W1901A"]
    assert "A PAR - BUR" in record["phases"][0]["orders"]["FRANCE"]
    assert record["phases"][0]["results"]["A VIE"] == ["bounce"]  # (Vienna and Warsaw into Galicia)
    assert cli("convert", out, "-o", tmp_path / "back.yaml").exit_code == 0
    back = from_game_file(tmp_path / "back.yaml")
    original = from_game_file(start)
    assert [(p.name, p.state.units, p.state.owners, p.orders) for p in back.phases] == \
           [(p.name, p.state.units, p.state.owners, p.orders) for p in original.phases]


def test_fair_json_written_and_read_back_is_equal():
    for i in range(0, 200, 4):
        if game(i)["map"] != "standard":
            continue
        fair = write_fair(read_mila(game(i)))
        assert fair["version"] == "1.0" and fair["map"] == "standard"
        again = write_fair(read_fair(json.loads(json.dumps(fair))))
        assert again == fair
        retreats = [u for p in fair["phases"] for us in p["orders"].values() for u in us if " R " in u]
        assert all(" - " not in u for u in retreats)  # (FAIR writes a retreat with R, never -)


def test_a_draw_goes_out_as_draw_votes_and_comes_back_as_the_draw():
    recorded = read_mila(game(0))
    last = recorded.phases[-1].state
    from adjudicator.game import rules_of

    rules = rules_of(recorded.board)
    survivors = rules.survivors(recorded.board, last)
    recorded.end = rules.end_as(recorded.board, last, EndKind.DRAW, survivors)
    recorded.scoring = "sum-of-squares"
    fair = write_fair(recorded)
    assert fair["scoring_system"] == "sum_of_squares"
    votes = [m for p in fair["phases"] for m in p["messages"] if m["message"] == "<DRAW>"]
    assert sorted(m["sender"] for m in votes) == sorted(s.upper() for s in survivors)
    back = read_fair(fair)
    assert back.end is not None and back.end.kind is EndKind.DRAW and set(back.end.powers) == set(survivors)
    assert back.scoring == "sum-of-squares"
    _, _, end = to_game_data(back)
    assert end is not None and end.end.kind is EndKind.DRAW


def test_fair_refuses_a_board_it_does_not_have():
    with pytest.raises(RecordError, match="no map in FAIR's game JSON"):
        write_fair(read_mila(game(1)))  # (ancmed)


def test_a_file_that_is_no_game_is_refused_plainly(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}\n', encoding="utf-8")
    result = cli("convert", bad, "-o", tmp_path / "x.yaml")
    assert result.exit_code == 2 and "neither a saved game of the diplomacy package" in result.output
    result = cli("convert", bad, "-o", tmp_path / "x.txt")
    assert result.exit_code == 2 and "say which format to write with --to" in result.output
