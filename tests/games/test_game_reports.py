"""The other three games speak to players (issue 27, finding 10): reports and `show` in words and tables, no
Python repr, no raw YAML with the whole history, and what lies face down never shown."""

from __future__ import annotations

import re

import pytest
import yaml
from click.testing import CliRunner

from adjudicator.cli import main

REPR = re.compile(r"\{'|\['|\[\[|\(\(|: \{|\bNone\b|\bTrue\b|\bFalse\b")  # Python's marks, or YAML's inline maps
GAMES = [
    ("arctic2019", [], "Russia: move 1 ship from KOL to BAR\n"),
    ("arctic-race", ["--setup", "table.txt"], "Red: 5 move, roll 3\nBlue: 4 push, draw T15\n"),
    ("arctica", [], "Remi: migrate fish from tile 6 and fish from S6\nJoelle: migrate bird from tile 6\nnext turn\n"),
]


def cli(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("variant, setup, sheet", GAMES, ids=[g[0] for g in GAMES])
def test_reports_and_show_are_words_and_tables(tmp_path, variant, setup, sheet):
    (tmp_path / "table.txt").write_text("players Red, Blue\nstart Red\nriver T14 T09 T28 T23 T27\n")
    game, orders, after = tmp_path / "g.yaml", tmp_path / "o.txt", tmp_path / "next.yaml"
    orders.write_text(sheet)
    cli("new", "--variant", variant, "-o", game, *[tmp_path / a if a.endswith(".txt") else a for a in setup])
    report = cli("adjudicate", game, orders, "-o", after)
    shown = cli("show", after)
    for text in (report, shown):
        assert not REPR.search(text), text  # finding 10: `points: {'Red': 0, 'Blue': 0}`, `ranking: [['Red', 'Blue']]`
    assert "history" not in shown and "orders:" not in shown  # no raw YAML with the whole history


def test_arctic_race_reads_as_a_race(tmp_path):
    (tmp_path / "table.txt").write_text("players Red, Blue\nstart Red\nriver T14 T09 T28 T23 T27\n")
    (tmp_path / "round1.txt").write_text("Red: 5 move, roll 3\nBlue: 4 push, draw T15\n")
    cli("new", "--variant", "arctic-race", "--setup", tmp_path / "table.txt", "-o", tmp_path / "race.yaml")
    report = cli("adjudicate", tmp_path / "race.yaml", tmp_path / "round1.txt", "-o", tmp_path / "next.yaml")
    assert "Red 5 moves 5 spaces from the start to space 5 and stops on the die icon" in report  # was "...: 5, and stops on die"
    assert "Points: Red 0, Blue 0\nRanking: 1. Red and Blue (tied)\nNext: round 2, Red to play" in report
    shown = cli("show", tmp_path / "next.yaml")
    assert "Red   4 3 2 1        5       start    start    space 3  start    space 5" in shown
    assert "Pile: 16 tiles face down; out of the game: T27" in shown


def test_arctic_race_never_shows_what_lies_face_down(tmp_path):
    # Finding 10: `show` listed a seeded game's face-down pile in order; the set-up's report named the tiles
    # removed unseen.
    seeded, players, started = tmp_path / "seeded.yaml", tmp_path / "players.txt", tmp_path / "started.yaml"
    cli("new", "--variant", "arctic-race", "--seed", "7", "-o", seeded)
    players.write_text("players Red, Blue; start Red\n")
    report = cli("adjudicate", seeded, players, "-o", started)
    data = yaml.safe_load(started.read_text())
    hidden = data["pile"] + data["removed"]
    assert len(hidden) == 25  # the game file keeps them: the program draws from it
    for text in (report, cli("show", started), cli("show", seeded)):
        assert not [tile for tile in hidden if re.search(rf"\b{tile}\b", text)], text
    assert "8 tiles removed unseen" in report and "Pile: 17 tiles face down" in cli("show", started)


def test_arctica_never_shows_the_order_of_face_down_tiles(tmp_path):
    game = tmp_path / "g.yaml"
    cli("new", "--variant", "arctica", "-o", game)
    shown = cli("show", game)
    data = yaml.safe_load(game.read_text())
    assert "Event tiles face down: bear 3, eagle 3, lynx 3" in shown
    later = data["region_tokens"][1:]
    assert f"Double Region, round 1: {' and '.join(data['region_tokens'][0])}" in shown
    assert "Double Region tokens face down: 2" in shown and "round 2" not in shown and len(later) == 2
