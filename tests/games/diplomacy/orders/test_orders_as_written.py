"""Orders as people write them (issue 15): read as meant, never misread; suggestions that help; order sheets
with the phase known; bounded work on hostile sheets (issue 16)."""

from __future__ import annotations


import pytest

from adjudicator.catalogue import load_variant
from adjudicator.errors import OrderError
from adjudicator.games.diplomacy.orders.parse import parse_order, parser_for
from adjudicator.games.diplomacy.orders.sheet import MAX_LINES, MAX_PER_LINE, MAX_SUGGESTED, orders_from_lists, read_sheet
from adjudicator.games.diplomacy.state import Phase, opening_state
from adjudicator.variant_check import check_variant_file
from tests.helpers import ROOT, best_time

DATA = ROOT / "tests" / "data"
VARIANTS = ROOT / "variants"


def _lines(name: str) -> list[str]:
    return [line.rstrip("\n") for line in (DATA / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _suggested_id(suggestion: str) -> str:
    """`Burgundy (bur)` -> `bur`."""
    return suggestion.rsplit("(", 1)[-1].rstrip(")")


# ----- the corpus: read as meant, never misread -----------------------------------------------------------
def test_corpus_is_read_as_meant_and_never_misread(standard):
    lines = _lines("orders_as_written.txt")
    assert len(lines) >= 400
    meant, refused, misread = 0, [], []
    for line in lines:
        text, want = (part.strip() for part in line.rsplit("==>", 1))
        power = want.split(":", 1)[0] if ":" in want else None
        sheet = read_sheet(standard, text, default_power=None if power else "England")
        got = [o.describe() for o in sheet.orders]
        if want == "REFUSED":
            if sheet.orders:
                misread.append((text, got))
            else:
                meant += 1
            continue
        wanted = [w.strip() for w in want.split(":", 1)[-1].split(";")]
        if sheet.problems:
            refused.append((text, str(sheet.problems[0])))
        elif got == wanted and (power is None or all(o.power == power for o in sheet.orders)):
            meant += 1
        else:
            misread.append((text, got))
    share = meant / len(lines)
    print(f"orders as written: {meant} of {len(lines)} read as meant ({100 * share:.1f} %), "
          f"{len(refused)} refused, {len(misread)} misread")
    assert not misread, misread
    assert share >= 0.99, refused


def test_misspellings_put_the_place_meant_first(standard):
    lines = _lines("misspellings.txt")
    assert len(lines) >= 50
    first = 0
    misses = []
    for line in lines:
        text, want = (part.strip() for part in line.split("|"))
        with pytest.raises(OrderError) as err:
            parse_order(standard, text, use_cache=False)
        suggestions = err.value.suggestions
        if suggestions and _suggested_id(suggestions[0]) == want:
            first += 1
        else:
            misses.append((text, want, suggestions))
    share = first / len(lines)
    print(f"misspellings: the place meant is suggested first for {first} of {len(lines)} ({100 * share:.1f} %)")
    assert share >= 0.9, misses


# ----- item 1: never misread -----------------------------------------------------------------------------
@pytest.mark.parametrize("text, meant, note", [
    ("A Edi - Liv", "A edi - lvp", "Liverpool"),       # an army in Edinburgh reaches Liverpool, not Livonia
    ("A War - liv", "A war - lvn", "Livonia"),
    ("A Liv - Edi", "A lvp - edi", "Liverpool"),       # the unit's own place, settled by where it goes
    ("F Nap - Tyr", "F nap - tys", "Tyrrhenian"),       # a fleet cannot enter Tyrolia
    ("Nap.-Tyr.", "nap - tys", "Tyrrhenian"),           # no unit type: still only one reading works
    ("F Tyr - Ion", "F tys - ion", "Tyrrhenian"),
])
def test_a_name_of_two_places_is_settled_by_the_unit_and_says_so(standard, text, meant, note):
    order = parse_order(standard, text, use_cache=False)
    assert order.describe() == meant
    assert len(order.notes) == 1 and note in order.notes[0] and "read" in order.notes[0]


def test_a_spaces_own_id_reads_as_that_space_without_a_note(standard):
    order = parse_order(standard, "A Ven - Tyr", use_cache=False)
    assert order.describe() == "A ven - tyr" and order.notes == ()


@pytest.mark.parametrize("text", ["A liv H", "Liv H", "F liv H", "Remove A liv"])
def test_a_name_the_units_cannot_settle_is_refused_naming_both(standard, text):
    with pytest.raises(OrderError) as err:
        parse_order(standard, text, use_cache=False)
    message = err.value.message
    assert "ambiguous" in message and "Liverpool" in message and "Livonia" in message
    assert err.value.column == text.lower().index("liv") + 1


def test_the_sheet_reports_how_a_name_was_settled(standard):
    sheet = read_sheet(standard, "England:\nA Edi - Liv\n")
    assert [o.describe() for o in sheet.orders] == ["A edi - lvp"]
    assert any(n.startswith("line 2:") and "Liverpool" in n for n in sheet.notes)


def test_a_build_is_settled_by_the_supply_centre(standard):
    assert parse_order(standard, "Build A Liv", use_cache=False).describe() == "Build A lvp"


def test_the_position_settles_the_place_of_the_ordered_unit(standard):
    state = opening_state(standard)  # England's army is in Liverpool; nobody's unit is in Livonia
    sheet = read_sheet(standard, "England:\nA liv H\nRussia:\nA liv H\n", state=state)
    assert [o.describe() for o in sheet.orders] == ["A lvp H"]
    assert any(n.startswith("line 2:") and "the unit ordered is there" in n for n in sheet.notes)
    assert [p.line for p in sheet.problems] == [4] and "ambiguous" in sheet.problems[0].reason
    assert read_sheet(standard, "England:\nA liv H\n").problems  # without the position: refused


def test_names_differing_only_by_case_stay_refused_in_another_case():
    arctic = load_variant("arctic")
    # A17: NWG / Nwg are read exactly as written; `nwg` is refused even where the unit could settle it.
    with pytest.raises(OrderError) as err:
        parse_order(arctic, "F nwg - Bar", use_cache=False)
    assert "Norwegian Sea" in err.value.message and "Northwest Greenland" in err.value.message


@pytest.mark.parametrize("variant", sorted(p.name for p in VARIANTS.glob("*.yaml")))
def test_no_board_alias_reads_as_two_places_unless_the_board_says_so(variant):
    problems = [p for p in check_variant_file(VARIANTS / variant) if "reads as two places" in p.message]
    assert problems == []


def test_the_checker_reports_an_alias_that_reads_as_two_places(tmp_path):
    text = (VARIANTS / "standard.yaml").read_text(encoding="utf-8")
    text = text.replace("aliases: [Tyrol]", "aliases: [Tyrol, Burg]").replace("name: Burgundy, kind: land,",
                                                                            "name: Burgundy, kind: land, aliases: [burg],")
    f = tmp_path / "standard.yaml"
    f.write_text(text, encoding="utf-8")
    messages = [p.message for p in check_variant_file(f)]
    assert any("'burg' reads as two places" in m and "bur" in m and "tyr" in m for m in messages), messages


def _adjustment(board):
    state = opening_state(board)
    state.phase = Phase("Fall", 1901, "Adjustment")
    return state


def test_in_an_adjustment_phase_signs_are_removals_and_builds(standard):
    sheet = read_sheet(standard, "France:\n- F Bre\n+ A Par\n- Build A Mar\n* Waive\n", state=_adjustment(standard))
    assert [o.describe() for o in sheet.orders] == ["Remove F bre", "Build A par", "Build A mar", "Waive"]
    assert sheet.problems == []


def test_in_an_adjustment_phase_a_unit_alone_is_refused_with_the_reason(standard):
    state = _adjustment(standard)
    sheet = read_sheet(standard, "France:\nA Par\nF Bre H\n", state=state)
    assert sheet.orders == []
    assert [p.line for p in sheet.problems] == [2, 3]
    assert all("not read as a hold" in p.reason and "Build" in p.reason for p in sheet.problems)
    lists = orders_from_lists(standard, {"France": ["A Par"]}, state=state)
    assert lists.orders == [] and "not read as a hold" in lists.problems[0].reason


def test_no_adjustment_phase_line_becomes_a_hold(standard):
    state = _adjustment(standard)
    lines = ["A Par", "F Bre", "A par H", "Army Paris", "- A Par", "+ F Bre", "A Par holds", "F Bre stands",
             "Build A Par", "Remove F Bre", "Disband A Par", "waive", "1. A Par", "- F Bre H"]
    sheet = read_sheet(standard, "France:\n" + "\n".join(lines), state=state)
    assert all(o.kind != "hold" for o in sheet.orders)
    assert len(sheet.orders) + len(sheet.problems) == len(lines)


def test_outside_adjustment_phases_a_leading_dash_is_a_bullet(standard):
    sheet = read_sheet(standard, "France:\n- A Par - Bur\n* F Bre - Mid\n1. A Mar - Spa\n2) A Mar H\n")
    assert [o.describe() for o in sheet.orders] == ["A par - bur", "F bre - mid", "A mar - spa", "A mar H"]


# ----- item 2: standard notation --------------------------------------------------------------------------
@pytest.mark.parametrize("text, meant", [
    ("A Ber.-Kiel.", "A ber - kie"),                         # full stops after abbreviations
    ("Army Trieste HOLD.", "A tri H"),                       # and at the end
    ("F Lon. - North Sea.", "F lon - nth"),
    ("F St. Petersburg (South Coast) - Gulf of Bothnia.", "F stp/sc - bot"),
    ("A(Vie)-Bud", "A vie - bud"),                           # the unit's place in parentheses
    ("F(StP/sc)-Bot", "F stp/sc - bot"),
    ("A Vie -> Bud", "A vie - bud"),
    ("A Vie --> Bud", "A vie - bud"),
    ("A Vie => Bud", "A vie - bud"),
    ("A Vie moves to Bud", "A vie - bud"),
    ("A Vie attacks Bud", "A vie - bud"),
    ("A Lon - Bel VIA", "A lon - bel via convoy"),          # as the diplomacy package writes convoyed moves
    ("A Lon - Bel (via convoy)", "A lon - bel via convoy"),
    ("F Bulgaria (North Coast) - Black Sea", "F bul/ec - bla"),  # webDiplomacy's name of the east coast
    ("F Con - Bul (north coast)", "F con - bul/ec"),
    ("F Spain (N.C.) - Mid", "F spa/nc - mid"),
    ("Armee Paris - Burgundy", "A par - bur"),              # unit words from the board data
    ("Flotte Brest S Armée Paris - Picardy", "F bre S A par - pic"),
    ("F Lon - the North Sea", "F lon - nth"),               # articles are skipped
    ("A Bud S Eng F Lon - Nth", "A bud S F lon - nth"),    # a power's abbreviation as the nationality
    ("F Eng - Bre", "F eng - bre"),                         # ... and the English Channel where a place stands
])
def test_standard_notation(standard, text, meant):
    assert parse_order(standard, text, use_cache=False).describe() == meant


def test_nationality_abbreviation_is_read_as_the_power(standard):
    order = parse_order(standard, "A Bud S Eng F Lon - Nth", use_cache=False)
    assert order.target.power == "England"


@pytest.mark.parametrize("line, orders", [
    ("A Vie - Bud; A Bud - Ser", ["A vie - bud", "A bud - ser"]),
    ("A Vie - Bud, A Bud - Ser", ["A vie - bud", "A bud - ser"]),
    ("A Vie - Bud ; A Bud - Ser ; F Tri H", ["A vie - bud", "A bud - ser", "F tri H"]),
])
def test_several_orders_on_one_line(standard, line, orders):
    sheet = read_sheet(standard, "Austria: " + line)
    assert [o.describe() for o in sheet.orders] == orders and sheet.problems == []
    assert all(o.line == 1 and o.power == "Austria" for o in sheet.orders)


def test_a_line_holds_a_bounded_number_of_orders(standard):
    sheet = read_sheet(standard, "Austria: " + "; ".join(["A Vie H"] * (MAX_PER_LINE + 1)))
    assert sheet.orders == [] and f"at most {MAX_PER_LINE}" in sheet.problems[0].reason


def test_a_comma_inside_one_order_is_not_a_separator_of_orders(standard):
    sheet = read_sheet(standard, "Austria: A Vie - Bud, Ser")
    assert sheet.orders == [] and len(sheet.problems) == 1 and sheet.problems[0].column == 21


def test_a_bad_order_among_several_is_located(standard):
    sheet = read_sheet(standard, "Austria: A Vie - Bud; A Bud - Serbai")
    assert [o.describe() for o in sheet.orders] == ["A vie - bud"]
    assert sheet.problems[0].column == 31 and "Serbia" in sheet.problems[0].suggestions[0]


@pytest.mark.parametrize("text, power", [
    ("Fra: A Par - Bur", "France"), ("Eng: F Lon - Nth", "England"), ("Aus\nA Vie - Bud", "Austria"),
    ("Aus A Vie - Bud", "Austria"), ("Ger:\nA Mun - Ruh", "Germany"), ("Russia F Sev - Bla", "Russia"),
])
def test_power_abbreviations(standard, text, power):
    sheet = read_sheet(standard, text)
    assert len(sheet.orders) == 1 and sheet.orders[0].power == power and sheet.problems == []


# ----- item 3: suggestions --------------------------------------------------------------------------------
def test_suggestions_rank_what_the_unit_could_reach_first(standard):
    with pytest.raises(OrderError) as err:
        parse_order(standard, "A Mos - Sevastapol", use_cache=False)
    assert _suggested_id(err.value.suggestions[0]) == "sev"
    with pytest.raises(OrderError) as err:  # `Ber` from Kiel's neighbours: Berlin, not the Barents Sea
        parse_order(standard, "A Kie - Berln", use_cache=False)
    assert _suggested_id(err.value.suggestions[0]) == "ber"


def test_a_misspelt_name_of_two_words_is_suggested_whole(standard):
    with pytest.raises(OrderError) as err:
        parse_order(standard, "F Bre - Mid Atlantik", use_cache=False)
    assert err.value.column == 9 and "'Mid Atlantik'" in err.value.message
    assert _suggested_id(err.value.suggestions[0]) == "mid"


def test_a_word_in_the_power_position_suggests_a_power(standard):
    sheet = read_sheet(standard, "Frnace: A Par - Bur\nItaly: A Ven H\nTurky: F Ank H")
    assert [o.power for o in sheet.orders] == ["France", "Italy", "Turkey"]  # close to one power: read, noted
    assert len(sheet.notes) == 2
    sheet = read_sheet(standard, "Narnia: A Par - Bur")
    assert "not a power" in sheet.problems[0].reason and sheet.problems[0].suggestions


@pytest.mark.parametrize("text, says", [
    ("F Spa(sc - Wes", "parenthesis opened at column 6 is not closed"),
    ("F Spa sc) - Wes", "closes no '('"),
    ("A Par - . Bur", "full stop"),
    ("A Par ( - Bur)", "parenthes"),
])
def test_a_full_stop_or_parenthesis_that_is_the_problem_is_named(standard, text, says):
    with pytest.raises(OrderError) as err:
        parse_order(standard, text, use_cache=False)
    assert says in err.value.message


# ----- issue 16: bounded work -----------------------------------------------------------------------------
def test_a_sheet_has_a_maximum_number_of_lines(standard):
    sheet = read_sheet(standard, "England:\n" + "F Lon H\n" * MAX_LINES)
    assert sheet.refusal and f"{MAX_LINES:,}" in sheet.refusal and sheet.orders == []
    sheet = orders_from_lists(standard, {"England": ["F Lon H"] * (MAX_LINES + 1)})
    assert sheet.refusal and sheet.orders == []


def test_suggestions_are_worked_out_for_a_bounded_number_of_problems(standard):
    sheet = read_sheet(standard, "England:\n" + "F Lon - Nrth Sea\n" * (MAX_SUGGESTED + 20))
    assert len(sheet.problems) == MAX_SUGGESTED + 20
    assert all(p.suggestions for p in sheet.problems[:MAX_SUGGESTED])
    assert not any(p.suggestions for p in sheet.problems[MAX_SUGGESTED:])
    assert any(f"first {MAX_SUGGESTED} problems" in n for n in sheet.notes)


def _seconds(fn, text: str) -> float:
    return best_time(lambda: fn(text))


HOSTILE = {  # a line of n characters of each kind
    "spaces": lambda n: " " * n,
    "tabs": lambda n: "\t" * n,
    "spaces then a colon": lambda n: "Russia" + " " * n + ":",
    "a power and spaces": lambda n: "Russia" + " " * n,
    "name characters": lambda n: "Ru. ss'ia-" * (n // 10),
    "colons": lambda n: ":" * n,
    "junk": lambda n: "A (Par -/ ." * (n // 11),
    "words": lambda n: "xq " * (n // 3),
    "places": lambda n: "Par " * (n // 4),
    "mixed blanks": lambda n: " \t\u00a0" * (n // 3),
    "commas and semicolons": lambda n: "A Par, ;" * (n // 8),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_the_sheet_reader_is_linear_on_hostile_lines(standard, kind):
    def read(text):
        read_sheet(standard, "England:\n" + text + "\n")

    make = HOSTILE[kind]
    read(make(1000))  # warm up
    small, large = _seconds(read, make(10_000)), _seconds(read, make(100_000))
    ratio = large / max(small, 1e-6)
    print(f"sheet reader, {kind}: 10k {1e3 * small:.2f} ms, 100k {1e3 * large:.2f} ms, ratio {ratio:.1f}")
    assert ratio < 30 or large < 0.05  # linear is ~10; quadratic would be ~100


def test_parser_for_is_bounded():
    assert parser_for.cache_info().maxsize is not None
