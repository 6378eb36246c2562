"""A game master cannot lose a game by a slip (issue 27): no silent step, and every step can be undone.

Each refusal exits 2 and leaves the game file as it was; `rewind` undoes judged steps, any number of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import ROOT, cli

FALL_2010 = ROOT / "examples" / "arctic-fall-2010-orders.txt"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.yaml"
    assert cli("new", "--variant", "arctic", "-o", path).exit_code == 0
    return path


def refused(result, *words: str) -> str:
    """The error of a refused command: exit status 2, every word in it."""
    assert result.exit_code == 2, result.output
    for word in words:
        assert word in result.output, result.output
    return result.output


def test_no_sheet_is_refused_saying_how_to_judge_a_phase_nobody_ordered(game):
    before = game.read_text()
    refused(cli("adjudicate", game, "--in-place"), "no order sheet", "`-`", "Fall 2010 Movement", "--no-orders")
    assert game.read_text() == before and not Path(f"{game}.bak").exists()  # finding 1: it moved on, exit 0
    r = cli("adjudicate", game, "--no-orders", "--in-place")
    assert r.exit_code == 0 and "no order: holds" in r.output
    assert "Winter 2010 Movement" in cli("show", game).output
    refused(cli("adjudicate", game, FALL_2010, "--no-orders"), "leave out the sheet, or the flag")


def test_the_sheet_may_come_from_standard_input(game):
    r = cli("adjudicate", game, "-", "--json", stdin=FALL_2010.read_text())
    assert r.exit_code == 0, r.output
    assert '"next_phase"' in r.output and "Winter 2010 Movement" in r.output


def test_a_sheet_with_no_order_read_is_refused(game, tmp_path):
    for text in ("", "# nothing yet\n\n", "Russia: A Arc - Kzz\n"):  # finding 2: empty; also all comments, all typos
        sheet = tmp_path / "sheet.txt"
        sheet.write_text(text)
        refused(cli("adjudicate", game, sheet, "--in-place"), "no order was read", "--no-orders")
    assert "Fall 2010 Movement" in cli("show", game).output


def test_the_same_sheet_on_the_next_phase_is_refused_naming_the_phase_it_was_judged_for(game, tmp_path):
    assert cli("adjudicate", game, FALL_2010, "--in-place").exit_code == 0
    before = game.read_text()
    copy = tmp_path / "again.txt"  # the same sheet saved again, with other line ends
    copy.write_bytes(FALL_2010.read_text().replace("\n", "\r\n").encode())
    refused(cli("adjudicate", game, copy, "--in-place"), "already judged, for Fall 2010 Movement",
            "now at Winter 2010 Movement", "--same-sheet")  # finding 3: judged, the game at Winter Adjustment
    assert game.read_text() == before
    r = cli("adjudicate", game, FALL_2010, "--same-sheet", "--json")  # forced: judged, orders for units not there
    assert r.exit_code == 0 and "there is no unit in Arc" in r.output


def test_a_sheet_for_another_board_is_refused_naming_the_board(tmp_path):
    game = tmp_path / "std.yaml"
    assert cli("new", "--variant", "standard", "-o", game).exit_code == 0
    out = refused(cli("adjudicate", game, FALL_2010, "-o", tmp_path / "next.yaml"),
                  "the Standard Diplomacy board (standard) does not have", "Arctic Diplomacy (arctic)")
    assert not (tmp_path / "next.yaml").exists()
    # Finding 4: lines under a header that names no power said "put 'Power:' before it", though one was there.
    assert "the header 'Norway' on line 9 is not a power of the Standard Diplomacy board" in out
    mostly = tmp_path / "mostly.txt"  # one readable order among three of another board's
    mostly.write_text("France: A Par - Bur\nRussia: A Arc - Ura\nRussia: A Pev - Yak\nRussia: F Okh - Kam\n")
    refused(cli("adjudicate", game, mostly), "3 of the sheet's 4 order lines")
    one_typo = tmp_path / "typo.txt"  # a typo among orders is no other board's sheet: judged, the line reported
    one_typo.write_text("France: A Par - Bur\nFrance: A Mar - Bxr\nGermany: A Mun - Ruh\n")
    assert cli("adjudicate", game, one_typo).exit_code == 0


def test_swapped_arguments_are_named(game):
    # Finding 8: `orders.txt:12:3: not valid YAML`, with no word that the game file comes first.
    refused(cli("adjudicate", FALL_2010, game), f"but {game} is: the game file comes first")
    refused(cli("parse", FALL_2010, game), "the game file comes first")


def test_rewind_undoes_any_number_of_steps_atomically(game, tmp_path):
    # Finding 5: the .bak was overwritten at each step, so one slip could be undone and two could not.
    opening = cli("show", game).output
    winter = tmp_path / "winter.txt"
    winter.write_text("Russia: A Ura - Kar\n")
    assert cli("adjudicate", game, FALL_2010, "--in-place").exit_code == 0
    after_fall = cli("show", game).output
    assert cli("adjudicate", game, winter, "--in-place").exit_code == 0
    assert "Winter 2010 Adjustment" in cli("show", game).output
    r = cli("rewind", game)
    assert r.exit_code == 0 and "back at Winter 2010 Movement" in r.output
    assert cli("show", game).output == after_fall
    assert cli("adjudicate", game, winter, "--in-place").exit_code == 0  # judged again after the rewind
    assert cli("rewind", game, "--to", "fall 2010 movement").exit_code == 0
    assert cli("show", game).output == opening
    refused(cli("rewind", game), "no judged phase to rewind")
    refused(cli("rewind", Path(f"{game}.bak"), "--to", "Spring 1901 Movement"), "no judged phase 'Spring 1901 Movement'",
            "it holds: Fall 2010 Movement, Winter 2010 Movement")


def test_rewind_refuses_an_entry_that_keeps_no_position(game):
    text = game.read_text().replace("history: []", "history:\n- {phase: Fall 2010 Movement, orders: {}, results: []}")
    game.write_text(text)
    refused(cli("rewind", game), "keeps no position", "restore the game from a backup")
    assert game.read_text() == text


@pytest.mark.parametrize("variant, sheet", [
    ("arctic2019", "Russia: move 1 ship from KOL to BAR\n"),
    ("arctica", "Remi: migrate fish from tile 6 and fish from S6\nnext turn\n"),
])
def test_the_other_games_rewind_too(tmp_path, variant, sheet):
    game, orders = tmp_path / "g.yaml", tmp_path / "o.txt"
    orders.write_text(sheet)
    assert cli("new", "--variant", variant, "-o", game).exit_code == 0
    opening = game.read_text()
    assert cli("adjudicate", game, orders, "--in-place").exit_code == 0
    refused(cli("adjudicate", game, orders, "--in-place"), "already judged")
    assert cli("rewind", game).exit_code == 0
    assert game.read_text() == opening
