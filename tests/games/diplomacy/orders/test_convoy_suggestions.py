"""The places suggested for a misspelt unit of a convoy order, as for a support's: near where the convoying fleet
reaches (before, the score constant CONVOY hid the convoy word's code of the same name, and a convoy's unit was
looked for next to the fleet only)."""

from __future__ import annotations

import pytest

from adjudicator.catalogue import load_variant
from adjudicator.errors import OrderError
from adjudicator.games.diplomacy.orders.parse import parse_order


@pytest.mark.parametrize("text, meant", [
    ("F mid C A Wles - lon", "Wales (wal)"),  # Wales is two steps from the Mid-Atlantic; the Western Med. one
    ("F nat C A Nrway - edi", "Norway (nwy)"),  # the Norwegian Sea borders the North Atlantic, Norway does not
    ("F gol C A Tuns - pie", "Tunis (tun)"),
    ("F mid S A Wles - lon", "Wales (wal)"),  # (a support's unit was already looked for so)
])
def test_a_misspelt_convoyed_unit_is_suggested_first_among_the_places_near_the_fleet(text: str, meant: str) -> None:
    with pytest.raises(OrderError) as caught:
        parse_order(load_variant("standard"), text, use_cache=False)
    assert caught.value.suggestions[0] == meant
