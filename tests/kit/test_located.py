"""One located reader for every game's data files: each state reader derives from it, and its errors name the
file, the line and the JSON pointer."""

from __future__ import annotations

import pytest

from adjudicator.errors import StateError
from adjudicator.games.arctic2019 import state as arctic2019_state
from adjudicator.games.arctic_race import state as race_state
from adjudicator.games.arctica import state as arctica_state
from adjudicator.located import LocatedReader
from adjudicator.names import NameIndex
from adjudicator.yamlio import load_yaml_text


@pytest.mark.parametrize("module", [arctic2019_state, race_state, arctica_state])
def test_every_games_state_reader_is_the_located_reader(module) -> None:
    assert issubclass(module._Reader, LocatedReader)


def test_a_problem_names_file_line_and_pointer() -> None:
    data = load_yaml_text("a: 1\nturn: -3\nnames: [x]\n", "game.yaml")
    reader = LocatedReader("game.yaml", data)
    with pytest.raises(StateError) as caught:
        raise reader.fail("turn is wrong", data["turn"], "/turn")
    assert (caught.value.file, caught.value.line, caught.value.pointer) == ("game.yaml", 1, "/turn")
    with pytest.raises(StateError, match="turn must be a whole number from 1 to 9, not -3"):
        reader.whole_number(data["turn"], "turn", data, "/turn", 1, 9)
    with pytest.raises(StateError, match="of at least 0, not True"):
        reader.whole_number(True, "a count", data, "/a")
    with pytest.raises(StateError, match="names must be a mapping") as caught:
        reader.mapping(data["names"], "names", data, "/names")
    assert caught.value.line == 3


def test_a_misspelt_name_gets_suggestions_and_the_valid_ones() -> None:
    index = NameIndex.build([(name, name, [name]) for name in ("Norway", "Russia")])
    reader = LocatedReader("game.yaml")
    assert reader.name(index, "russia", "country", None, "/c") == "Russia"
    with pytest.raises(StateError) as caught:
        reader.name(index, "Norwya", "country", None, "/c", "; countries are Norway, Russia")
    assert "Norway" in caught.value.suggestions and str(caught.value).count("countries are Norway, Russia") == 1


def test_a_value_of_the_wrong_kind_is_named_as_its_author_would_say_it() -> None:
    from adjudicator.game_end import EndError, GameEnd
    from adjudicator.located import what_it_is

    data = load_yaml_text("just a line\n", "end.yaml")
    assert [what_it_is(v) for v in (None, True, 3, "x", data, [1], {})] == [
        "nothing", "true or false", "a number", "a text", "a text", "a list", "a mapping"]
    with pytest.raises(EndError, match="an end record must be a mapping, not a text"):
        GameEnd.from_json(data, "end.yaml")
