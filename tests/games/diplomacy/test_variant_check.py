"""`adjudicator variant check`: each kind of mistake is found, with its line; the shipped variants pass."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from adjudicator.games.diplomacy.board_file import board_from_data
from adjudicator.cli import main
from adjudicator.variant_check import check_variant_file
from adjudicator.yamlio import load_yaml_text
from tests.games.diplomacy.helpers import BASE
from tests.helpers import ROOT


def _check(tmp_path, text):
    f = tmp_path / "tiny.yaml"
    f.write_text(text)
    return [str(p) for p in check_variant_file(f)], f


def _line(text, fragment):
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_a_sound_file_passes(tmp_path):
    problems, _ = _check(tmp_path, BASE)
    assert problems == []


def test_border_to_unknown_space(tmp_path):
    text = BASE.replace("  - b - c : land\n", "  - b - c : land\n  - c - zz : land\n")
    problems, f = _check(tmp_path, text)
    assert problems == [f"{f}:{_line(text, 'c - zz')}: border c - zz: unknown space 'zz'"]


def test_one_sided_adjacency_in_neighbour_lists(tmp_path):
    text = BASE.replace("borders:\n  - a - b : coast\n  - b - c : land\n", "borders:\n").replace(
        "  - {id: c, name: Cland, kind: land}", "  - {id: c, name: Cland, kind: land, army: [b, a]}").replace(
        "  - {id: b, name: Bland, kind: land, centre: true, home: Blue}",
        "  - {id: b, name: Bland, kind: land, centre: true, home: Blue, army: [c]}")
    problems, f = _check(tmp_path, text)
    assert problems == [f"{f}:{_line(text, 'Cland')}: one-sided adjacency: c lists a as a army neighbour, "
                        "but a does not list c"]


def test_neighbour_lists_build_the_same_borders():
    text = BASE.replace("borders:\n  - a - b : coast\n  - b - c : land\n  - a - s : water\n  - b - s : water\n", "").replace(
        "  - {id: a, name: Aland, kind: land, centre: true, home: Red}",
        "  - {id: a, name: Aland, kind: land, centre: true, home: Red, army: [b], fleet: [b, s]}").replace(
        "  - {id: b, name: Bland, kind: land, centre: true, home: Blue}",
        "  - {id: b, name: Bland, kind: land, centre: true, home: Blue, army: [a, c], fleet: [a, s]}").replace(
        "  - {id: c, name: Cland, kind: land}", "  - {id: c, name: Cland, kind: land, army: [b]}").replace(
        "  - {id: s, name: Sea, kind: sea}", "  - {id: s, name: Sea, kind: sea, fleet: [a, b]}")
    board = board_from_data(load_yaml_text(text))
    kinds = sorted((tuple(sorted((b.a, b.b))), b.kind) for b in board.borders)
    assert kinds == [(("a", "b"), "coast"), (("a", "s"), "water"), (("b", "c"), "land"), (("b", "s"), "water")]


def test_unreachable_space(tmp_path):
    text = BASE.replace("  - {id: s, name: Sea, kind: sea}", "  - {id: s, name: Sea, kind: sea}\n  - {id: z, name: Zland, kind: land}")
    problems, f = _check(tmp_path, text)
    assert problems == [f"{f}:{_line(text, 'Zland')}: space z is unreachable: no unit can ever move into it"]


def test_home_centre_that_is_not_a_centre(tmp_path):
    text = BASE.replace("  - {id: c, name: Cland, kind: land}", "  - {id: c, name: Cland, kind: land, home: Red}")
    problems, f = _check(tmp_path, text)
    assert problems == [f"{f}:{_line(text, 'Cland')}: c is a home centre of Red but not a supply centre"]


def test_starting_unit_on_a_space_it_cannot_stand_on(tmp_path):
    text = BASE.replace("Red: [A a]", "Red: [A a, F c, A s]")
    problems, f = _check(tmp_path, text)
    line = _line(text, "Red: [A a")
    assert f"{f}:{line}: starting unit Red F c cannot stand on c in Spring" in problems
    assert f"{f}:{line}: starting unit Red A s cannot stand on s in Spring" in problems


def test_cli_passes_both_shipped_variants_and_fails_a_broken_one(tmp_path):
    r = CliRunner().invoke(main, ["variant", "check", str(ROOT / "variants" / "standard.yaml"),
                                  str(ROOT / "variants" / "arctic.yaml")])
    assert r.exit_code == 0 and r.output.count(": OK") == 2
    bad = tmp_path / "tiny.yaml"
    bad.write_text(BASE.replace("  - b - c : land\n", "  - b - c : land\n  - c - zz : land\n"))
    r = CliRunner().invoke(main, ["variant", "check", str(bad)])
    assert r.exit_code == 1 and "unknown space 'zz'" in r.output and "1 problem(s) found" in r.output


def test_a_name_that_is_not_the_files_is_refused_by_checker_and_loader(tmp_path):
    from adjudicator.catalogue import board_from_file
    from adjudicator.errors import VariantError

    f = tmp_path / "other.yaml"
    f.write_text(BASE)
    (problem,) = check_variant_file(f)
    assert problem.line == 1 and "named 'tiny' but its file is 'other.yaml'" in problem.message
    with pytest.raises(VariantError, match="rename the file or write `name: other`"):
        board_from_file(f)


def test_an_unknown_key_is_a_problem_with_the_nearest_key(tmp_path):
    text = BASE.replace("{id: c, name: Cland, kind: land}", "{id: c, name: Cland, kind: land, centr: true}")
    problems, f = _check(tmp_path, text.replace("borders:", "bordrs:"))
    assert f"{f}:{_line(text, 'Cland')}: province c: unknown key 'centr'; did you mean 'centre'?" in problems
    assert f"{f}:{_line(text, 'borders:')}: the board: unknown key 'bordrs'; did you mean 'borders'?" in problems


def test_a_flag_of_a_province_is_true_or_false(tmp_path):
    text = BASE.replace("{id: c, name: Cland, kind: land}", "{id: c, name: Cland, kind: land, centre: 7}")
    problems, f = _check(tmp_path, text)
    assert problems == [f"{f}:{_line(text, 'Cland')}: c: `centre` is true or false, not 7"]
