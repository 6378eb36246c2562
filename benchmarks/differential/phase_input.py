"""One phase as both engines get it: the position and every order in each one's notation, this engine's
orders and phase in the peer's notation, the peer's position built from ours, and this engine's outcome in
the form both are compared in (peer_side.Outcome).

Part of benchmarks/compare_peer.py (the command line)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.games.diplomacy.board import ARMY, Board, join_location
from adjudicator.games.diplomacy.orders.model import Convoy, Move, Order, Support, destination_of
from adjudicator.games.diplomacy.phase import PhaseResult
from adjudicator.games.diplomacy.state import GameState, Phase

from peer_side import Outcome, PeerPosition, game_from_spec, peer_loc, peer_power, peer_unit

PHASE_TYPES = ("Movement", "Retreat", "Adjustment")


def peer_order(order: Order) -> str:
    """An order of this engine in the peer's notation (`A PAR - BUR`, `F NTH C A YOR - BEL`, `A PAR B`).

    A unit type the order leaves out is left out for the peer too."""
    k = order.kind
    if k == "waive":
        return "WAIVE"
    u = order.unit
    me = f"{u.type} {peer_loc(u.location)}" if u.type else peer_loc(u.location)
    where = destination_of(order)
    dest = peer_loc(join_location(*where)) if where else None
    if k == "hold":
        return f"{me} H"
    if isinstance(order, Move):
        return f"{me} - {dest}" + (" VIA" if order.via_convoy else "")
    if isinstance(order, Support):
        t = order.target
        them = f"{t.type} {peer_loc(t.location)}" if t.type else peer_loc(t.location)
        return f"{me} S {them}" + (f" - {dest}" if dest else "")
    if isinstance(order, Convoy):
        return f"{me} C {peer_unit(ARMY, order.target.location)} - {dest}"
    if k == "retreat":
        return f"{me} R {dest}"
    if k in ("disband", "remove"):
        return f"{me} D"
    if k == "build":
        return f"{me} B"
    raise ValueError(f"no peer spelling for {order}")


def peer_phase_code(phase: Phase) -> str:
    """`Spring 1901 Movement` -> `S1901M`; adjustments are the peer's Winter: `W1901A`."""
    if phase.type == "Adjustment":
        return f"W{phase.year}A"
    return f"{phase.season[0].upper()}{phase.year}{phase.type[0]}"


@dataclass
class PhaseInput:
    """One phase to adjudicate: the position and every order, in both notations."""

    state: GameState
    orders: list[tuple[str, str]]  # (power, order text) for this engine
    peer: list[str]  # the same orders in the peer's notation (same index)
    retreats: dict[str, list[str]] = field(default_factory=dict)  # dislodged province -> our retreat options
    odd: dict[int, str] = field(default_factory=dict)  # index in `orders` -> what kind of odd order it is
    objects: list[dict] = field(default_factory=list)  # the same orders as data (orders/structured.py), same index

    def peer_orders(self, keep: set[int] | None = None) -> dict[str, list[str]]:
        """POWER -> the peer's orders (only those at the indices kept)."""
        out: dict[str, list[str]] = {}
        for i, ((power, _), text) in enumerate(zip(self.orders, self.peer)):
            if keep is None or i in keep:
                out.setdefault(peer_power(power), []).append(text)
        return out


def peer_spec(board: Board, inp: PhaseInput) -> PeerPosition:
    """The input's position in the peer's names, as data (what its process builds a game from)."""
    state = inp.state
    units, centres, retreats = {}, {}, {}
    for power in board.powers:
        units[peer_power(power)] = (
            [peer_unit(u.type, u.location) for u in state.units.values() if u.power == power]
            + ["*" + peer_unit(d.unit.type, d.unit.location) for d in state.dislodged.values()
               if d.unit.power == power])
        centres[peer_power(power)] = [peer_loc(c) for c, o in state.owners.items() if o == power]
    if state.phase.type == "Retreat":
        for p, d in state.dislodged.items():
            retreats.setdefault(peer_power(d.unit.power), {})[peer_unit(d.unit.type, d.unit.location)] = \
                [peer_loc(x) for x in inp.retreats[p]]
    return PeerPosition(peer_phase_code(state.phase), units, centres, retreats)


def peer_position(board: Board, inp: PhaseInput) -> Any:
    """A fresh peer game holding the input's position (not timed)."""
    return game_from_spec(peer_spec(board, inp))


def our_outcome(result: PhaseResult) -> Outcome:
    nxt = result.next_state
    units = frozenset((u.power, u.type, u.location) for u in nxt.units.values())
    dislodged = frozenset((d.unit.power, d.unit.type, d.unit.location, tuple(sorted(d.retreats)))
                          for d in result.dislodged)
    centres = frozenset(nxt.owners.items())
    phase = "COMPLETED" if result.winner else str(nxt.phase)
    return Outcome(units, dislodged, centres, phase)
