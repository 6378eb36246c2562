"""Cases the type check (mypy, `.ci/run`) found where a value the types allow to be missing reached the rules:
each is refused with its reason and changes nothing, instead of being played with nothing in its place."""

from __future__ import annotations

import copy

import pytest

from adjudicator.catalogue import load_variant
from adjudicator.game import get_rules
from adjudicator.games.arctic2019.steps import Declare, Move, PlatformAttack
from adjudicator.outcome import ILLEGAL
from adjudicator.resources import data_dir
from adjudicator.sheets import Sheet
from adjudicator.yamlio import load_yaml_file


@pytest.mark.parametrize("step", [Move(source="ALA", dest="CHS", ships=1), PlatformAttack(sector="ESS"),
                                  Declare(target="RU")], ids=["move", "platform attack", "declare"])
def test_a_2019_country_step_given_without_its_country_is_refused(step):
    # A sheet always gives a country's step its country; a program building steps as data may not.
    rules = get_rules("arctic2019")
    board = load_variant("arctic2019")
    before = rules.initial_state(board)
    result = rules.adjudicate(board, before, Sheet(orders=[step]))
    [line] = result.report
    assert line.status == ILLEGAL
    assert line.reason.startswith("whose step is this?")
    assert line.cause == {"refusal": "no_country"}
    assert rules.state_to_data(board, result.next_state) == rules.state_to_data(board, before)


def test_an_arctica_event_tile_that_covers_no_sub_region_is_refused():
    # A board whose Eagle stack holds a 9-dot tile though no Eagle sub-region has 9 dots: the tile was placed
    # on nothing (`covered` gained a null, which no game file can read back).
    rules = get_rules("arctica")
    raw = copy.deepcopy(load_yaml_file(data_dir("variants") / "arctica.yaml"))
    raw["setup"]["event_stacks"]["eagle"] = [3, 2, 1, 9]
    board = rules.load_board(raw, None)
    before = rules.state_from_data(board, {
        "round": 3, "players": ["Joelle", "Remi", "Samson"], "covered": ["L1", "B3", "E3", "L3"],
        "circle": {"S1": "melted", "S2": "melted", "S3": "melted", "S4": 4, "S5": 6, "S6": 5}}, "<test>")
    result = rules.adjudicate(board, before, Sheet(orders=rules.parse_orders(board, "event eagle 9 dots", "o.txt")))
    [line] = result.report
    assert line.status == ILLEGAL
    assert line.reason == "the 9-dot Eagle Event tile covers no sub-region of this board [tile-not-on-board]"
    assert rules.state_to_data(board, result.next_state)["covered"] == ["L1", "B3", "E3", "L3"]
