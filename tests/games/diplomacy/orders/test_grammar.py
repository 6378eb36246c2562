"""The order grammar: the spellings people type, and errors that point at the problem."""

from __future__ import annotations

import pytest

from adjudicator.errors import OrderError
from adjudicator.games.diplomacy.orders.parse import parse_order


@pytest.mark.parametrize("text, canonical", [
    ("A Par-Bur", "A par - bur"),
    ("A PAR -> BUR", "A par - bur"),
    ("a par => bur", "A par - bur"),
    ("A Paris to Burgundy", "A par - bur"),
    ("Army Paris moves to Burgundy", "A par - bur"),
    ("A par – bur", "A par - bur"),
    ("F Lon S F Nth - Eng", "F lon S F nth - eng"),
    ("F lon supports F nth to eng", "F lon S F nth - eng"),
    ("A ven S tyr-tri", "A ven S tyr - tri"),
    ("A Rum S Turkish F Con-Bul", "A rum S F con - bul"),
    ("A mun S A ber", "A mun S A ber"),
    ("A mun S A ber H", "A mun S A ber"),
    ("A Bre - Lon via convoy", "A bre - lon via convoy"),
    ("A bre - lon by convoy", "A bre - lon via convoy"),
    ("A Bre - Lon (via convoy)", "A bre - lon via convoy"),
    ("A yor - nth - bel", "A yor - nth - bel via convoy"),
    ("F nth C A yor - bel", "F nth C A yor - bel"),
    ("F nth convoys yor to bel", "F nth C yor - bel"),
    ("F Spa(sc) - Wes", "F spa/sc - wes"),
    ("F spa/sc H", "F spa/sc H"),
    ("F StP/nc - Bar", "F stp/nc - bar"),
    ("F St. Petersburg (north coast) - Barents Sea", "F stp/nc - bar"),
    ("F stp nc - bar", "F stp/nc - bar"),
    ("F Mid-Atlantic Ocean - Spain (south coast)", "F mid - spa/sc"),
    ("F mid-spa/nc", "F mid - spa/nc"),
    ("F North Atlantic Ocean - Mid Atlantic", "F nat - mid"),
    ("F nrg - nwy", "F nrg - nwy"),
    ("F NWG - NAO", "F nrg - nat"),
    ("F lyo - wes", "F gol - wes"),
    ("F kie HOLD", "F kie H"),
    ("A par", "A par H"),
    ("A par holds", "A par H"),
    ("A Par R Bur", "A par R bur"),
    ("A par retreats to bur", "A par R bur"),
    ("Build A kie", "Build A kie"),
    ("BUILD F stp/nc", "Build F stp/nc"),
    ("build kie", "Build kie"),
    ("Remove A pic", "Remove A pic"),
    ("Remove pic", "Remove pic"),
    ("F gre DISBAND", "Disband F gre"),
    ("disband F gre", "Disband F gre"),
    ("waive", "Waive"),
    ("Build waive", "Waive"),
])
def test_spellings(standard, text, canonical):
    assert parse_order(standard, text).describe() == canonical


def test_unknown_place_names_line_column_and_suggestions(standard):
    with pytest.raises(OrderError) as err:
        parse_order(standard, "F Lon S F Nth - Engl", line=4, file="orders.txt")
    e = err.value
    assert (e.file, e.line, e.column) == ("orders.txt", 4, 17)
    assert "unknown place 'Engl'" in e.message
    assert any("English Channel" in s for s in e.suggestions)
    assert str(e).startswith("orders.txt:4:17: unknown place 'Engl'")


def test_misspelt_full_name_suggests_it(standard):
    with pytest.raises(OrderError) as err:
        parse_order(standard, "A Burgandy - Par")
    assert any("Burgundy" in s for s in err.value.suggestions)


def test_missing_destination_says_what_was_expected(standard):
    with pytest.raises(OrderError) as err:
        parse_order(standard, "A Par - ")
    assert "ends too early" in err.value.message and "a place" in err.value.message
    assert err.value.column == 8


def test_unexpected_word_lists_expected(standard):
    with pytest.raises(OrderError) as err:
        parse_order(standard, "A Par X Bur")
    assert err.value.column == 7
    assert "expected" in err.value.message and "S" in err.value.message


def test_column_offset_for_text_cut_from_a_longer_line(standard):
    with pytest.raises(OrderError) as err:
        parse_order(standard, "A Pxr - Bur", column_offset=9)
    assert err.value.column == 12


def test_empty_order(standard):
    with pytest.raises(OrderError):
        parse_order(standard, "   ")


def test_case_insensitive_and_full_names(standard):
    assert parse_order(standard, "army PARIS - burGUNDY").describe() == "A par - bur"
