"""Orders between this project and the field's records: a structured order written in the records' notation
(`A PAR - BUR`, `F NTH C A LON - BEL`, `A LON - BEL VIA`, `F LYO R MAR`, `A PAR B`, `F BRE D`, `WAIVE`), a recorded
order read into a structured one, and the records' result codes of a judged phase (`bounce`, `cut`, `dislodged`,
`void`, `disband`, `no convoy`, `disrupted`), drawn from the judge's structured outcomes."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.orders.model import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat,
                                                      Support, UnitRef, Waive)
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.phase import PhaseResult
from adjudicator.games.diplomacy.records.notation import Notation
from adjudicator.games.diplomacy.state import GameState
from adjudicator.outcome import FAILS, ILLEGAL, VOID


@dataclass(frozen=True)
class Unread:
    """A recorded order this project cannot read, located (power, the order as recorded) with the reason."""

    power: str
    text: str
    reason: str


def read_orders(notation: Notation, orders: dict[str, list[str]] | None) -> tuple[list[Order], list[Unread]]:
    """A recorded phase's orders as this project reads them, each bound to the power that sent it, and those
    it cannot read (never dropped unseen: the caller reports them)."""
    read: list[Order] = []
    unread: list[Unread] = []
    for power, texts in (orders or {}).items():
        for text in texts:
            try:
                read.append(parse_order(notation.board, text, power=power))
            except AdjudicatorError as exc:
                unread.append(Unread(power, text, exc.message))
    return read, unread


def _unit(notation: Notation, ref: UnitRef, state: GameState | None) -> str:
    """`A PAR`: the type the order names, else the type of the unit standing there."""
    kind = ref.type
    if kind is None and state is not None:
        here = state.units.get(ref.province) or (state.dislodged[ref.province].unit
                                                 if ref.province in state.dislodged else None)
        kind = here.type if here else None
    place = notation.place(ref.location)
    return f"{kind} {place}" if kind else place


def _dest(notation: Notation, order: Move | Support | Convoy | Retreat, state: GameState | None) -> str:
    """The destination, with the coast a fleet's move must name where the board has several (FAIR always
    writes it): the one coast the fleet can reach, when the order left it out."""
    assert order.dest is not None
    coast = order.dest_coast
    board = notation.board
    if coast is None and isinstance(order, (Move, Retreat)) and board.provinces[order.dest].coasts:
        unit = order.unit
        kind = unit.type or (state.units[unit.province].type if state and unit.province in state.units else None)
        if kind == "F" and state is not None:
            reach = board.reachable_locations("F", unit.location, order.dest, state.phase.season)
            if len(reach) == 1:
                return notation.place(reach[0])
    return notation.place(order.dest if coast is None else f"{order.dest}/{coast}")


def record_order(notation: Notation, order: Order, state: GameState | None = None) -> str:
    """A structured order in the records' notation; `state`, the position it is for, supplies a unit type or
    a fleet's coast the order leaves out."""
    match order:
        case Waive():
            return "WAIVE"
        case Hold(unit=u):
            return f"{_unit(notation, u, state)} H"
        case Move(unit=u, via_convoy=via):
            return f"{_unit(notation, u, state)} - {_dest(notation, order, state)}" + (" VIA" if via else "")
        case Support(unit=u, target=t, dest=None):
            return f"{_unit(notation, u, state)} S {_unit(notation, t, state)}"
        case Support(unit=u, target=t):
            return f"{_unit(notation, u, state)} S {_unit(notation, t, state)} - {_dest(notation, order, state)}"
        case Convoy(unit=u, target=t):
            return f"{_unit(notation, u, state)} C A {notation.place(t.location)} - {_dest(notation, order, state)}"
        case Retreat(unit=u):
            return f"{_unit(notation, u, state)} R {_dest(notation, order, state)}"
        case Disband(unit=u) | Remove(unit=u):
            return f"{_unit(notation, u, state)} D"
        case Build(unit=u):
            return f"{_unit(notation, u, state)} B"
    raise ValueError(f"no record notation for the order {order.describe()}")


def result_codes(notation: Notation, result: PhaseResult) -> dict[str, list[str]]:
    """Each unit's result codes as the records write them (`A PAR` -> `['bounce']`), from the judge's outcomes
    and their causes (an order with none: `[]`)."""
    codes: dict[str, list[str]] = {}
    for line in result.report:
        if line.unit is None:
            continue
        unit = f"{line.unit.type} {notation.place(line.unit.location)}"
        here = codes.setdefault(unit, [])
        cause = line.cause
        if line.status in (VOID, ILLEGAL):
            here.append("void")
        elif line.status == FAILS:
            if cause.get("cut_by"):
                here.append("cut")
            elif cause.get("no_convoy"):
                here.append("no convoy")
            elif cause.get("convoy_disrupted") or isinstance(line.order, Convoy):
                here.append("disrupted" if isinstance(line.order, Convoy) else "no convoy")
            elif isinstance(line.order, (Move, Retreat)):
                here.append("bounce")
    for report in result.dislodged:
        codes.setdefault(f"{report.unit.type} {notation.place(report.unit.location)}", []).append("dislodged")
    for gone in result.destroyed:
        codes.setdefault(f"{gone.type} {notation.place(gone.location)}", []).append("disband")
    return codes
