"""The shortcuts of validation and judging (issue 17) give what the long ways give: the season view's reach and
support tables against the move graphs, the movement-phase stands, the judge's settling of unopposed orders
against the resolver, and a position's copy with fields given anew."""

from __future__ import annotations

import random

import pytest

from adjudicator.games.diplomacy.board import ARMY, FLEET, split_location
from adjudicator.catalogue import load_variant
from adjudicator.games.diplomacy.judge.movement import MovementJudge
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.orders.validate import HoldCommand, every_unit_command, movement_commands
from adjudicator.games.diplomacy.phase import adjudicate
from adjudicator.games.diplomacy.state import opening_state
from tests.helpers import benchmark

VARIANTS = ["standard", "arctic"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_reach_and_support_tables_are_the_move_graphs(variant: str) -> None:
    board = load_variant(variant)
    for season in board.seasons:
        view = board.season(season)
        for location in view.fleet:
            for province in board.provinces:
                moves = [d for d in view.fleet.successors(location) if split_location(d)[0] == province]
                assert board.can_reach(FLEET, location, province, season) == bool(moves)
                ice = view.surface[province] == "ice" and province in board.location_water_adj.get(location, ())
                assert board.can_support_into(FLEET, location, province, season) == (bool(moves) or ice)
        for origin in view.army:
            for province in board.provinces:
                moves = view.army.has_edge(origin, province)
                assert board.can_reach(ARMY, origin, province, season) == moves
                assert board.can_support_into(ARMY, origin, province, season) == moves


@pytest.mark.parametrize("variant", VARIANTS)
def test_movement_stands_add_the_previous_seasons_places(variant: str) -> None:
    board = load_variant(variant)
    for season in board.seasons:
        now, before = board.season(season).stands, board.season(board.previous_season(season)).stands
        assert board.movement_stands(season) == {t: now[t] | before[t] for t in (ARMY, FLEET)}


def _phases(variant: str, count: int, seed: int):
    """Movement phases of random games (the differential benchmark's generator: odd orders included)."""
    cp = benchmark("compare_peer")
    board = load_variant(variant)
    rng = random.Random(seed)
    state, found = opening_state(board), []
    while len(found) < count:
        inp = cp.random_orders(board, state, rng, odd=0.2 if variant == "standard" else 0.0)
        orders = [parse_order(board, text, power=power) for power, text in inp.orders]
        if state.phase.type == "Movement":
            found.append((state, orders))
        result = adjudicate(board, state, orders)
        state = opening_state(board) if result.winner else result.next_state
    return board, found


@pytest.mark.parametrize("variant", VARIANTS)
def test_settling_unopposed_orders_changes_no_result(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    board, phases = _phases(variant, 60, 7)

    def outcome(state, orders):
        result = adjudicate(board, state, orders)
        return (result.next_state.units, result.next_state.dislodged, result.contested,
                [(r.status, r.reason) for r in result.report])

    settled = [outcome(s, o) for s, o in phases]
    calls = []
    real = MovementJudge._settle_unopposed
    monkeypatch.setattr(MovementJudge, "_settle_unopposed", lambda self: calls.append(real))
    assert [outcome(s, o) for s, o in phases] == settled
    assert len(calls) == len(phases)  # the long way was taken


def test_unopposed_orders_are_settled_before_the_resolver_runs() -> None:
    board = load_variant("standard")
    state = opening_state(board)
    orders = [parse_order(board, t, power=p) for p, t in [
        ("France", "A par - bur"), ("France", "A mar S A par - bur"), ("Germany", "A mun - bur"),
        ("England", "F lon - nth"), ("England", "F edi - nwg"), ("Russia", "F sev - bla")]]
    commands, _ = movement_commands(board, state, orders)
    for province, unit in state.units.items():
        commands.setdefault(province, HoldCommand(unit))
    judge = MovementJudge(board, "Spring", commands)
    assert judge.resolver.resolved == {"lon": True, "edi": True, "sev": True, "mar": True}  # par, mun: contested
    result = judge.run()
    assert result.success["par"] and not result.success["mun"] and result.success["mar"]  # 2 against 1


def test_a_copy_copies_what_is_not_given_and_keeps_what_is() -> None:
    state = opening_state(load_variant("standard"))
    units = {}
    copy = state.copy(units=units)
    assert copy.units is units and copy.owners == state.owners and copy.owners is not state.owners
    assert copy.dislodged is not state.dislodged and copy.history is not state.history
    full = state.copy()
    assert full == state and full.units is not state.units


def test_every_unit_gets_a_command_the_unordered_ones_hold_after_the_ordered() -> None:
    board = load_variant("standard")
    state = opening_state(board)
    orders = [parse_order(board, "A par - bur", power="France"), parse_order(board, "A mun - bur", power="Russia")]
    commands, report = every_unit_command(board, state, orders)
    assert list(commands) == ["par", *[p for p in state.units if p != "par"]]
    assert commands["par"].kind == "move" and commands["mun"].kind == "hold" and commands["mun"].order is None
    assert [r.status for r in report] == ["ignored"]  # Russia has no unit in Munich
    assert commands["par"] == movement_commands(board, state, orders)[0]["par"]


def test_a_phase_leaves_no_reference_cycle_for_the_collector() -> None:
    """Every object of a phase (the judge, its resolver, the result, the report read) is freed by reference
    counting once the result is dropped: a cycle would leave it to the garbage collector, whose collections a
    server judging phase after phase would then pay for."""
    import gc

    from adjudicator.games.diplomacy.state import units_from_list

    board = load_variant("standard")
    paradox = opening_state(board).copy(units=units_from_list(board, [
        ("England", "F lon"), ("England", "F wal"), ("France", "A bre"), ("France", "F eng"),
        ("Turkey", "F ank"), ("Turkey", "A con"), ("Turkey", "A smy")]), owners={})
    orders = [parse_order(board, t, power=p) for p, t in [  # DATC 6.F.14, and a circular movement
        ("England", "F lon S F wal - eng"), ("England", "F wal - eng"), ("France", "A bre - lon"),
        ("France", "F eng C A bre - lon"), ("Turkey", "F ank - con"), ("Turkey", "A con - smy"),
        ("Turkey", "A smy - ank")]]
    phases = [(paradox, orders)]
    cp = benchmark("compare_peer")
    for variant in VARIANTS:
        board_of, rng = load_variant(variant), random.Random(11)
        state = opening_state(board_of)
        for _ in range(40):  # every phase type, with odd orders and convoys
            inp = cp.random_orders(board_of, state, rng, odd=0.2 if variant == "standard" else 0.0)
            phases.append((state, [parse_order(board_of, text, power=power) for power, text in inp.orders]))
            result = adjudicate(board_of, state, phases[-1][1])
            state = opening_state(board_of) if result.winner else result.next_state
    gc.collect()
    gc.disable()
    try:
        for state, orders in phases:
            result = adjudicate(load_variant(state.variant), state, orders)
            assert result.report is not None
            if state is paradox:
                assert result.report and "paradox" in " ".join(r.reason for r in result.report)
            del result
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_moved_unit_is_the_unit_the_constructor_makes() -> None:
    import dataclasses
    import pickle

    from adjudicator.games.diplomacy.state import Unit, _UnitSlots, moved_unit

    for location in ("stp/nc", "par", "bul/ec"):
        made, built = moved_unit(Unit("Russia", "F", "mos"), location), Unit("Russia", "F", location)
        assert type(made) is Unit and made == built and hash(made) == hash(built) and repr(made) == repr(built)
        assert (made.province, made.coast) == (built.province, built.coast) and not hasattr(made, "__dict__")
        assert pickle.loads(pickle.dumps(made)) == built and dataclasses.astuple(made) == dataclasses.astuple(built)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.location = "mos"  # type: ignore[misc]
    # The slotted twin keeps the dataclass's fields in their order (else `__class__` assignment fails).
    assert _UnitSlots.__slots__ == tuple(f.name for f in dataclasses.fields(Unit))
