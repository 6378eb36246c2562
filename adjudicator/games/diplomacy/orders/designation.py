"""What an order writes of its units besides their places: the ordered unit's type (DATC 4.C.1, 4.C.2) and
the nationality of a foreign unit it supports or convoys (4.C.5, 4.C.6).

By default (DATC v3.0) both are ignored and this module is not asked. Under `invalid` an order that leaves
one out (or gets it wrong) is refused, and its unit holds; under `valid-unless-other` it is refused only when
another order for the same unit writes it right.
"""

from __future__ import annotations

from adjudicator.games.diplomacy.orders.model import Convoy, Order, Support
from adjudicator.games.diplomacy.rulebook import Rulebook
from adjudicator.games.diplomacy.state import GameState


def _flaw(rules: Rulebook, state: GameState, order: Order) -> tuple[str, str] | None:
    """(the rule's answer, what is wrong) for the first designation of an order the rules hold against it."""
    ref = order.unit
    unit = state.units.get(ref.province) if ref is not None else None
    if ref is None or unit is None:
        return None
    written = ref.type
    if written is None and rules.missing_unit_type != "valid":
        return rules.missing_unit_type, "the order does not say army or fleet (DATC 4.C.1)"
    if written is not None and written != unit.type and rules.wrong_unit_type != "valid":
        return rules.wrong_unit_type, f"the order calls the {unit.type} in {unit.location} {written} (DATC 4.C.2)"
    if isinstance(order, (Support, Convoy)):
        other = state.units.get(order.target.province)
        if other is None:
            return None
        nation = order.target.power
        if nation is None and other.power != unit.power and rules.missing_nationality != "valid":
            return rules.missing_nationality, f"the order does not name the nationality of {other.power}'s unit " \
                                              f"(DATC 4.C.5)"
        if nation is not None and nation != other.power and rules.wrong_nationality != "valid":
            return rules.wrong_nationality, f"the unit in {other.location} is {other.power}'s, not {nation}'s " \
                                            f"(DATC 4.C.6)"
    return None


def refused_designations(rules: Rulebook, state: GameState, orders: list[Order]) -> dict[int, tuple[bool, str]]:
    """The orders the designation rules refuse, by `id`: (illegal, or else ignored for another order; the
    reason)."""
    flaws = {id(o): _flaw(rules, state, o) for o in orders}
    sound = {(o.power, o.unit.province) for o in orders if o.unit is not None and flaws[id(o)] is None}
    refused: dict[int, tuple[bool, str]] = {}
    for order in orders:
        flaw = flaws[id(order)]
        if flaw is None or order.unit is None:  # (an order with a flaw names its unit)
            continue
        if flaw[0] == "invalid":
            refused[id(order)] = (True, flaw[1])
        elif (order.power, order.unit.province) in sound:  # valid-unless-other, and another order writes it right
            refused[id(order)] = (False, f"{flaw[1]}; another order for the unit writes it right and counts")
    return refused
