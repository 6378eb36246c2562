"""The peer's side of benchmarks/compare_peer.py: its names, its games, its outcomes, and its timed runs.

Nothing here imports this engine: `python benchmarks/peer_side.py` is the process that times the peer (see
benchmarks/workers.py), and it holds only the peer, as the peer's users run it. The `diplomacy` package is
imported when a game is first built.
"""

from __future__ import annotations

import gc
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

from timing import CacheFlush, FullCollections, objects_held

# ----- names: this project's ids <-> the peer's ---------------------------------------------------------
_TO_PEER = {"nrg": "NWG", "nat": "NAO", "mid": "MAO", "gol": "LYO"}
_FROM_PEER = {v: k for k, v in _TO_PEER.items()}


def peer_loc(location: str) -> str:
    """`stp/nc` -> `STP/NC`, `nrg` -> `NWG`."""
    province, _, coast = location.partition("/")
    name = _TO_PEER.get(province, province.upper())
    return f"{name}/{coast.upper()}" if coast else name


def our_loc(location: str) -> str:
    """`STP/NC` -> `stp/nc`, `NWG` -> `nrg`."""
    province, _, coast = location.upper().partition("/")
    name = _FROM_PEER.get(province, province.lower())
    return f"{name}/{coast.lower()}" if coast else name


def peer_power(power: str) -> str:
    return power.upper()


def our_power(power: str) -> str:
    return power.capitalize()


def peer_unit(unit_type: str, location: str) -> str:
    return f"{unit_type} {peer_loc(location)}"


def our_phase_name(peer_phase: str) -> str:
    """`WINTER 1901 ADJUSTMENTS` -> `Fall 1901 Adjustment` (as this engine names it)."""
    if peer_phase in ("COMPLETED", "FORMING"):
        return peer_phase
    season, year, kind = peer_phase.split()
    kind = {"M": "Movement", "R": "Retreat", "A": "Adjustment"}[kind[0]]
    season = "Fall" if season == "WINTER" else season.capitalize()
    return f"{season} {year} {kind}"


# ----- the peer's games ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class PeerPosition:
    """A position in the peer's names, as plain data (built by compare_peer.peer_spec from this engine's)."""

    phase: str  # `S1901M`
    units: dict[str, list[str]]  # POWER -> `A PAR`, and `*F BRE` for a dislodged unit
    centres: dict[str, list[str]]  # POWER -> centres
    retreats: dict[str, dict[str, list[str]]]  # POWER -> dislodged unit -> where it may retreat


def game_from_spec(spec: PeerPosition) -> Any:
    """A fresh peer game holding the position (not timed)."""
    from diplomacy import Game

    game = Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(spec.phase)
    for power, units in spec.units.items():
        game.set_units(power, units, reset=True)
    for power, centres in spec.centres.items():
        game.set_centers(power, centres, reset=True)
    for power, options in spec.retreats.items():
        game.get_power(power).retreats.update(options)
    return game


def run_peer(game: Any, orders: dict[str, list[str]], gc_off: bool = False) -> float:
    """The peer: set every power's orders (its text reading and validation), process. Returns the seconds taken
    (the garbage collector as it normally runs, unless `gc_off`)."""
    paused = gc_off and gc.isenabled()
    if paused:
        gc.disable()
    try:
        t0 = time.perf_counter()
        for power, texts in orders.items():
            game.set_orders(power, texts)
        game.process()
        return time.perf_counter() - t0
    finally:
        if paused:
            gc.enable()


# ----- outcomes -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """A position after a phase, in this engine's names: what both engines are compared on."""

    units: frozenset  # (power, type, location)
    dislodged: frozenset  # (power, type, location, retreat options)
    centres: frozenset  # (centre, power)
    phase: str

    def fingerprint(self) -> str:
        """The outcome as one canonical string: equal outcomes give equal strings, and a string is no container
        for the garbage collector to count (a timed run's result is kept only as this)."""
        return repr((sorted(self.units), sorted(self.dislodged), sorted(self.centres), self.phase))

    def diff(self, other: Outcome) -> list[str]:
        lines = []
        for label in ("units", "dislodged", "centres"):
            a, b = getattr(self, label), getattr(other, label)
            for x in sorted(a - b, key=str):
                lines.append(f"{label}: ours only {_show(x)}")
            for x in sorted(b - a, key=str):
                lines.append(f"{label}: peer only {_show(x)}")
        if self.phase != other.phase:
            lines.append(f"next phase: ours {self.phase}, peer {other.phase}")
        return lines


def _show(x: tuple) -> str:
    if len(x) == 4:
        return f"{x[0]}: {x[1]} {x[2]} (retreats: {', '.join(x[3]) or 'none'})"
    if len(x) == 3:
        return f"{x[0]}: {x[1]} {x[2]}"
    return f"{x[1]}: {x[0]}"


def peer_outcome(game: Any) -> Outcome:
    units, dislodged, centres = set(), set(), set()
    for power in game.powers.values():
        name = our_power(power.name)
        for u in power.units:
            t, loc = u.split()
            units.add((name, t, our_loc(loc)))
        for u, options in power.retreats.items():
            t, loc = u.split()
            if options:
                dislodged.add((name, t, our_loc(loc), tuple(sorted(our_loc(o) for o in options))))
        for c in power.centers:
            centres.add((our_loc(c), name))
    return Outcome(frozenset(units), frozenset(dislodged), frozenset(centres), our_phase_name(game.phase))


def time_peer(spec: PeerPosition, orders: dict[str, list[str]], gc_off: bool, flush: Callable[[], None],
              timing: Callable[[str, Callable[[], Any]], Any]) -> tuple[float, float | None, Outcome]:
    """The peer's timed run of a phase on a game built untimed (`flush` right before it, `timing` counting the
    collections), and with `gc_off` once more with the collector paused: the seconds of each, and the outcome."""
    game = game_from_spec(spec)
    flush()
    seconds = timing("peer", lambda: run_peer(game, orders))
    paused = None
    if gc_off:
        again = game_from_spec(spec)
        flush()
        paused = run_peer(again, orders, gc_off=True)
    return seconds, paused, peer_outcome(game)


# ----- the process that times the peer -------------------------------------------------------------------
class _Child:
    """The handlers of `python benchmarks/peer_side.py` (workers.serve)."""

    def setup(self, flush_mb: int, freeze: bool) -> dict:
        """Load the peer (and its map: one game), and say what this process holds (its collections counted from
        here)."""
        game_from_spec(PeerPosition("S1901M", {}, {}, {}))
        self.flush: Callable[[], None] = CacheFlush(flush_mb) if flush_mb else lambda: None
        tracked, frozen = objects_held(freeze)
        self.collections = FullCollections()
        return {"tracked": tracked, "frozen": frozen, "ours": "adjudicator" in sys.modules}

    def peer(self, spec: PeerPosition, orders: dict[str, list[str]], gc_off: bool) -> tuple:
        return time_peer(spec, orders, gc_off, self.flush, self.collections.timing)

    def collections_counted(self) -> FullCollections:
        self.collections.close()
        return self.collections


if __name__ == "__main__":
    import peer_side  # (this module by its name, so that what it answers unpickles in the parent)
    from workers import serve

    child = peer_side._Child()
    serve({"setup": child.setup, "peer": child.peer, "collections": child.collections_counted})
