"""check_position passes a sound position with set operations and names each kind of problem otherwise."""

from __future__ import annotations

import pytest

from adjudicator.errors import StateError
from adjudicator.games.diplomacy.state import Unit, check_position, opening_state


def test_a_sound_position_passes(standard) -> None:
    check_position(standard, opening_state(standard))


@pytest.mark.parametrize("change, message", [
    (lambda s: s.units.__setitem__("bur", Unit("France", "A", "par")), "is filed under bur"),
    (lambda s: s.units.__setitem__("bur", Unit("Narnia", "A", "bur")), "unknown power 'Narnia'"),
    (lambda s: s.units.__setitem__("nth", Unit("England", "A", "nth")), "cannot stand on North Sea"),
    (lambda s: s.units.__setitem__("mun", Unit("Germany", "F", "mun")), "a fleet cannot stand on Munich"),
    (lambda s: s.units.__setitem__("bur", Unit("France", "Z", "bur")), "cannot stand on Burgundy"),
    (lambda s: s.owners.__setitem__("bur", "France"), "'bur' is not a supply centre"),
    (lambda s: s.owners.__setitem__("bel", "Narnia"), "unknown power 'Narnia' owns bel"),
])
def test_each_problem_is_named(standard, change, message) -> None:
    state = opening_state(standard)
    change(state)
    with pytest.raises(StateError, match=message):
        check_position(standard, state)
