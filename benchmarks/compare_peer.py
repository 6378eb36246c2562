"""Speed and agreement against the `diplomacy` package (the peer): seeded random standard games.

Every movement, retreat and adjustment phase of N random games is adjudicated by both engines, from the same
position and the same orders: by this engine (`adjudicator.games.diplomacy.phase.adjudicate`, its orders parsed from text) and by
the peer (`diplomacy.Game`: the position set on a fresh game, the orders set, `game.process()`), both in this
process (or, with `--own-processes`, each in a process of its own that holds only it). The game then goes on
from this engine's result, so both engines always start from identical positions.

    python benchmarks/compare_peer.py --phases 10000 --seed 1      # 10,000 movement phases (and the rest)
    python benchmarks/compare_peer.py --games 20 --years 10        # 20 games of 10 years
    python benchmarks/compare_peer.py --odd 0 --phases 2000        # legal orders only (default: 10% odd ones)
    python benchmarks/compare_peer.py --games 6 --breakdown        # and each engine's time split into parts
    python benchmarks/compare_peer.py --cases benchmarks/peer_bugs/   # case files through both engines

It prints, per phase type: phases per second of each engine and their ratio, median and p99 time per phase,
peak memory per phase (tracemalloc, in a separate run over a sample, never while timing), and the phases whose
resulting positions differ, classified (see benchmarks/README.md); the first differences of each class are
written as case files (the project's DATC-style format) to `--out` (default benchmarks/out/), their expected
position this engine's, the peer's differences in comments. The last line of the report is
"unexplained differences: N". A difference is explained when one of the documented rule differences or peer
bugs, emulated, accounts for all of it (see `classify`).

What is timed, each phase, one run right after the other (benchmarks/README.md, "What is timed"): this
engine *cold* (every cache it keeps between calls emptied first: benchmarks/caches.py finds them), in the *game*
(the caches as this game's earlier phases left them) and *structured* (the orders given as objects, no text),
each reading every order and `adjudicate()`; the peer's `set_orders()` for every power and `process()`. The
garbage collector runs normally; `--gc-off` also times ours cold and the peer with it paused. Building the
peer's position from ours (and reading its result back) is not timed, nor is choosing the random orders. A
timed run's result is kept only as a fingerprint of its outcome (a string), so that the next run does not start
with its young objects; the phase is adjudicated once more, untimed, for the classifier and the next position.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))
if str(ROOT / "benchmarks") not in sys.path:  # the shared timing helper, when imported by the tests
    sys.path.insert(0, str(ROOT / "benchmarks"))

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board, join_location, split_location  # noqa: E402
from adjudicator.catalogue import load_variant  # noqa: E402
from adjudicator.errors import AdjudicatorError  # noqa: E402
from adjudicator.games.diplomacy.judge.adjustment import adjustment_due  # noqa: E402
from adjudicator.games.diplomacy.judge.retreat import retreat_options  # noqa: E402
from adjudicator.games.diplomacy.orders.legal import legal_orders  # noqa: E402
from adjudicator.games.diplomacy.orders.model import Convoy, Move, Order, Support, destination_of  # noqa: E402
from adjudicator.games.diplomacy.orders.parse import parse_order  # noqa: E402
from adjudicator.games.diplomacy.orders.structured import order_object, orders_from_objects  # noqa: E402
from adjudicator.games.diplomacy.phase import PhaseResult, adjudicate  # noqa: E402
from adjudicator.games.diplomacy.state import GameState, Phase, Unit, opening_state  # noqa: E402
from caches import Caches, find_caches  # noqa: E402
from peer_side import (Outcome, PeerPosition, game_from_spec, our_loc, peer_loc, peer_outcome,  # noqa: E402
                       peer_power, peer_unit, run_peer, time_peer)
from timing import CacheFlush, FullCollections, best_of, objects_held, own_time_by_file, profile_cold  # noqa: E402
from workers import Worker, serve  # noqa: E402

PHASE_TYPES = ("Movement", "Retreat", "Adjustment")

# ----- names: this project's ids <-> the peer's ---------------------------------------------------------
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


# ----- random orders ------------------------------------------------------------------------------------
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

    

def _kind(text: str) -> str:
    t = f" {text} "
    if " S " in t:
        return "support"
    if " C " in t:
        return "convoy"
    if " - " in t:
        return "move"
    return "hold"


def _movement_orders(board: Board, state: GameState, rng: random.Random) -> tuple[list[tuple[str, str]], dict]:
    """Random legal orders, coordinated enough to make supports, convoys and paradoxes happen."""
    options: dict[str, tuple[str, dict[str, list[str]]]] = {}  # unit location -> (power, kind -> orders)
    for power in board.powers:
        for unit, texts in legal_orders(board, state, power).items():
            by_kind: dict[str, list[str]] = defaultdict(list)
            for t in texts:
                by_kind[_kind(t)].append(t)
            options[unit.split()[1]] = (power, by_kind)
    chosen: dict[str, str] = {}
    wants: dict[str, str] = {}
    for loc, (power, by_kind) in options.items():
        r = rng.random()
        kind = ("hold" if r < 0.08 else "move" if r < 0.55 else "support" if r < 0.88 else "convoy")
        if kind == "convoy" and not by_kind.get("convoy"):
            kind = "move" if rng.random() < 0.5 else "support"
        if not by_kind.get(kind):
            kind = "hold"
        wants[loc] = kind
        if kind in ("hold", "move"):
            chosen[loc] = rng.choice(by_kind[kind])
    # Convoys: pick one, and (mostly) make the army go where it is convoyed.
    for loc, kind in wants.items():
        if kind != "convoy":
            continue
        power, by_kind = options[loc]
        text = rng.choice(by_kind["convoy"])
        chosen[loc] = text
        army_loc, dest = text.split(" C ")[1].split()[1], text.split(" - ")[-1]
        if army_loc in options and rng.random() < 0.8:
            moves = [t for t in options[army_loc][1].get("move", ()) if t.split(" - ")[1].split()[0] == dest]
            if moves and wants.get(army_loc) != "convoy":
                move = rng.choice(moves)
                if move.endswith(" via convoy") and rng.random() < 0.5:
                    # Either spelling: to a province the army cannot reach by land the route is by sea anyway.
                    if not board.can_move(ARMY, army_loc, dest, state.phase.season):
                        move = move[: -len(" via convoy")]
                chosen[army_loc] = move
                wants[army_loc] = "move"
    # Supports: mostly for what the supported unit does.
    for loc, kind in wants.items():
        if kind != "support":
            continue
        power, by_kind = options[loc]
        matching = []
        for t in by_kind["support"]:
            target_loc = t.split(" S ")[1].split()[1]
            target_order = chosen.get(target_loc)
            if target_order is None:
                continue
            if " - " in t.split(" S ")[1]:
                if _kind(target_order) == "move" and target_order.split(" - ")[1].split()[0].split("/")[0] == \
                        t.split(" - ")[-1].split("/")[0]:
                    matching.append(t)
            elif _kind(target_order) != "move":
                matching.append(t)
        chosen[loc] = rng.choice(matching) if matching and rng.random() < 0.75 else rng.choice(by_kind["support"])
    out = []
    for loc, text in chosen.items():
        if rng.random() < 0.03:
            continue  # now and then a unit gets no order
        out.append((options[loc][0], text))
    return out, options


def _odd_movement(board: Board, state: GameState, rng: random.Random, power: str, options: dict,
                  chosen: dict[str, str]) -> tuple[str, str] | None:
    """One odd order of a power (DATC chapter 4 situations): (label, text), or None when none fits."""
    season = state.phase.season
    mine = [u for u in state.units.values() if u.power == power]
    if not mine:
        return None
    unit = rng.choice(mine)
    kind = rng.choice(["other-power", "twice", "omitted-coast", "impossible-coast", "army-coast",
                       "wrong-unit-type", "support-coast", "no-unit", "via-no-fleet"])
    if kind == "other-power":
        others = [loc for loc, (p, _) in options.items() if p != power]
        if others:
            loc = rng.choice(others)
            texts = [t for ts in options[loc][1].values() for t in ts]
            return kind, rng.choice(texts)
    elif kind == "twice":
        texts = [t for ts in options[unit.location][1].values() for t in ts if t != chosen.get(unit.location)]
        if texts:
            return kind, rng.choice(texts)
    elif kind in ("omitted-coast", "impossible-coast") and unit.type == FLEET:
        for dest in ("spa", "stp", "bul"):
            reach = board.reachable_locations(FLEET, unit.location, dest, season)
            if kind == "omitted-coast" and len(reach) == 2:
                return kind, f"F {unit.location} - {dest}"
            if kind == "impossible-coast" and len(reach) == 1:
                other = [c for c in board.provinces[dest].coasts if f"{dest}/{c}" not in reach]
                return kind, f"F {unit.location} - {dest}/{other[0]}"
    elif kind == "army-coast" and unit.type == ARMY:
        for dest in ("spa", "stp", "bul"):
            if board.can_move(ARMY, unit.location, dest, season):
                return kind, f"A {unit.location} - {dest}/{rng.choice(board.provinces[dest].coasts)}"
    elif kind == "wrong-unit-type":
        moves = options[unit.location][1].get("move") or options[unit.location][1]["hold"]
        text = rng.choice(moves)
        return kind, ("F" if unit.type == ARMY else "A") + text[1:]
    elif kind == "support-coast":
        # A support naming a coast, right or wrong (DATC 4.B.4, 6.B.9).
        for u in state.units.values():
            if u.type != FLEET or u.province == unit.province:
                continue
            for dest in ("spa", "stp", "bul"):
                reach = board.reachable_locations(FLEET, u.location, dest, season)
                if reach and board.can_support_into(unit.type, unit.location, dest, season) and dest != unit.province:
                    coast = rng.choice(board.provinces[dest].coasts)
                    return kind, f"{unit.type} {unit.location} S F {u.location} - {dest}/{coast}"
    elif kind == "no-unit":
        empty = [p for p in board.provinces if p not in state.units]
        return kind, f"A {rng.choice(empty)} H"
    elif kind == "via-no-fleet" and unit.type == ARMY:
        for dest in sorted(board.army_moves(season).successors(unit.location)):
            if not board.convoy_route_exists(unit.province, dest, season,
                                             [u.province for u in state.units.values() if u.type == FLEET]):
                return kind, f"A {unit.location} - {dest} via convoy"
    return None


def _retreat_orders(board: Board, state: GameState, rng: random.Random, odd: float) -> tuple[list, dict[int, str]]:
    out: list[tuple[str, str]] = []
    oddities: dict[int, str] = {}
    season = state.phase.season
    for power in board.powers:
        for unit, texts in legal_orders(board, state, power).items():
            r = rng.random()
            if r < 0.08:
                pass  # no order: disbanded
            else:
                retreats = [t for t in texts if " R " in t]
                out.append((power, texts[-1] if r < 0.25 or not retreats else rng.choice(retreats)))
            if rng.random() < odd:
                d = state.dislodged[split_location(unit.split()[1])[0]]
                graph = board.army_moves(season) if d.unit.type == ARMY else board.fleet_moves(season)
                bad = [loc for loc in graph.successors(d.unit.location) if f"{unit} R {loc}" not in texts]
                choice = rng.random()
                if bad and choice < 0.5:
                    label, text = "retreat-not-allowed", f"{unit} R {rng.choice(sorted(bad))}"
                elif choice < 0.75:
                    label, text = "retreat-twice", rng.choice(texts)
                else:
                    label, text = "retreat-hold", f"{unit} H"
                # before or after the unit's other order (if it has one)
                where = len(out) - 1 if out and out[-1][1].split()[:2] == text.split()[:2] and rng.random() < 0.5 \
                    else len(out)
                oddities = {(j + 1 if j >= where else j): lab for j, lab in oddities.items()}
                oddities[where] = label
                out.insert(where, (power, text))
    return out, oddities


def _adjustment_orders(board: Board, state: GameState, rng: random.Random, odd: float) -> tuple[list, dict[int, str]]:
    out: list[tuple[str, str]] = []
    oddities: dict[int, str] = {}
    for power in board.powers:
        due = adjustment_due(state, power)
        options = legal_orders(board, state, power)
        if due > 0:
            builds = [t for t in options.get("builds", []) if t != "Waive"]
            rng.shuffle(builds)
            used: set[str] = set()
            for _ in range(due):
                r = rng.random()
                if r < 0.1:
                    out.append((power, "Waive"))
                    continue
                if r < 0.2:
                    continue  # not ordered: waived
                pick = next((b for b in builds if b.split()[2].split("/")[0] not in used), None)
                if pick is None:
                    break
                used.add(pick.split()[2].split("/")[0])
                out.append((power, pick))
        elif due < 0:
            removals = list(options.get("removals", []))
            rng.shuffle(removals)
            ordered = -due if rng.random() < 0.6 else rng.randrange(0, -due)  # sometimes civil disorder
            out += [(power, t) for t in removals[:ordered]]
        if due != 0 and rng.random() < odd:
            label, text = _odd_adjustment(board, state, rng, power, due)
            oddities[len(out)] = label
            out.append((power, text))
    return out, oddities


def _odd_adjustment(board: Board, state: GameState, rng: random.Random, power: str, due: int) -> tuple[str, str]:
    season = state.phase.season
    homes = list(board.home_centres(power))
    kind = rng.choice(["build-occupied", "build-not-owned", "build-not-home", "build-no-coast", "build-no-type",
                       "build-fleet-inland", "extra-build", "remove-foreign", "remove-in-build", "build-in-removal",
                       "build-same-province"])
    if kind == "build-occupied":
        occupied = [h for h in homes if h in state.units]
        if occupied:
            return kind, f"Build A {rng.choice(occupied)}"
    if kind == "build-not-owned":
        lost = [h for h in homes if state.owners.get(h) != power and h not in state.units]
        if lost:
            return kind, f"Build A {rng.choice(lost)}"
    if kind == "build-not-home":
        owned = [c for c, o in state.owners.items() if o == power and c not in homes and c not in state.units]
        if owned:
            return kind, f"Build A {rng.choice(owned)}"
    if kind == "build-no-coast":
        return kind, f"Build F {rng.choice(['stp', 'spa', 'bul'])}"
    if kind == "build-no-type":
        return kind, f"Build {rng.choice(homes)}"
    if kind == "build-fleet-inland":
        inland = [h for h in homes if not board.coastal(h, season)]
        if inland:
            return kind, f"Build F {rng.choice(inland)}"
    if kind == "remove-foreign":
        foreign = [u for u in state.units.values() if u.power != power]
        if foreign:
            u = rng.choice(foreign)
            return kind, f"Remove {u.type} {u.location}"
    if kind == "remove-in-build" or (due > 0 and kind == "extra-build"):
        mine = state.units_of(power)
        if mine and kind == "remove-in-build":
            u = rng.choice(mine)
            return kind, f"Remove {u.type} {u.location}"
    if kind == "build-same-province":
        free = [h for h in homes if h not in state.units]
        if free:
            h = rng.choice(free)
            return kind, f"Build {rng.choice(['A', 'F'])} {h}"
    free = [h for h in homes if h not in state.units]
    if free:
        return "extra-build", f"Build A {rng.choice(free)}"
    return "build-occupied", f"Build A {rng.choice(homes)}"


def random_orders(board: Board, state: GameState, rng: random.Random, odd: float = 0.0) -> PhaseInput:
    """Random legal orders for every unit (or build/removal) of every power in the state's phase; with
    probability `odd` per power, one odd order too (illegal, foreign, repeated, badly written: DATC chapter 4)."""
    kind = state.phase.type
    oddities: dict[int, str] = {}
    if kind == "Movement":
        texts, options = _movement_orders(board, state, rng)
        if odd:
            chosen = {t.split()[1]: t for _, t in texts}
            for power in board.powers:
                if rng.random() < odd:
                    extra = _odd_movement(board, state, rng, power, options, chosen)
                    if extra:
                        oddities[len(texts)] = extra[0]
                        texts.append((power, extra[1]))
        order = list(range(len(texts)))
        rng.shuffle(order)
        texts = [texts[i] for i in order]
        oddities = {order.index(i): label for i, label in oddities.items()}
    elif kind == "Retreat":
        texts, oddities = _retreat_orders(board, state, rng, odd)
    else:
        texts, oddities = _adjustment_orders(board, state, rng, odd)
    parsed = [parse_order(board, text, power=power) for power, text in texts]
    peer = [peer_order(o) for o in parsed]
    retreats = {}
    if kind == "Retreat":
        occupied = set(state.units)
        for p, d in state.dislodged.items():
            retreats[p] = retreat_options(board, state.phase.season, d, occupied, state.contested)
    return PhaseInput(state, texts, peer, retreats, oddities, [order_object(o) for o in parsed])


# ----- the two engines ----------------------------------------------------------------------------------
def run_ours(board: Board, inp: PhaseInput, structured: bool = False, gc_off: bool = False) -> tuple[PhaseResult, float]:
    """This engine: every order read (from its text, or with `structured` from its object: no text), then
    `adjudicate()`. Returns the result and the seconds taken. The garbage collector runs as it normally does,
    unless `gc_off` pauses it while timing. Which caches are warm is the caller's business (see `play`)."""
    paused = gc_off and gc.isenabled()
    if paused:
        gc.disable()
    try:
        t0 = time.perf_counter()
        if structured:
            orders = orders_from_objects(board, inp.objects).orders
        else:
            orders = [parse_order(board, text, power=power) for power, text in inp.orders]
        result = adjudicate(board, inp.state, orders)
        return result, time.perf_counter() - t0
    finally:
        if paused:
            gc.enable()


class OurTimer:
    """This engine's timed runs of each phase, and the caches of the game they belong to."""

    def __init__(self, board: Board, caches: Caches, flush: Callable[[], None],
                 timing: Callable[[str, Callable[[], Any]], Any]) -> None:
        self.board, self.caches, self.flush, self.timing = board, caches, flush, timing
        self.in_game = caches.snapshot()

    def new_game(self) -> None:
        """A new game: no earlier phase's texts kept."""
        self.caches.empty()
        self.in_game = self.caches.snapshot()

    def run(self, inp: PhaseInput, gc_off: bool) -> tuple[list[float], float | None, list[str]]:
        """Cold, game and structured, each right after a flush: their seconds, the seconds of cold once more with
        the collector paused (`gc_off`, else None), and the fingerprints of their outcomes. Each result is let go
        as soon as its fingerprint is taken, so that no run starts with the young objects of the one before
        (the young collections they would bring land in whichever run comes next). Before the game and
        structured runs the caches hold what the game's earlier phases left (saved after each game run, put
        back before the next: the other runs, and in this process the classifier, read texts too, and must not
        warm the next phase)."""
        board, caches, flush, timing = self.board, self.caches, self.flush, self.timing
        caches.empty()
        flush()
        cold = _fingerprint(*timing("cold", lambda: run_ours(board, inp)))
        caches.restore(self.in_game)
        flush()
        game = _fingerprint(*timing("game", lambda: run_ours(board, inp)))
        self.in_game = caches.snapshot()
        caches.restore(self.in_game)
        flush()
        structured = _fingerprint(*timing("structured", lambda: run_ours(board, inp, structured=True)))
        paused = None
        if gc_off:
            caches.empty()
            flush()
            paused = run_ours(board, inp, gc_off=True)[1]
        return [cold[1], game[1], structured[1]], paused, [cold[0], game[0], structured[0]]


def _fingerprint(result: PhaseResult, seconds: float) -> tuple[str, float]:
    return our_outcome(result).fingerprint(), seconds


class HereRuns:
    """Both engines timed in this process (the default): the peer's import makes a full collection here cost
    about as much as hundreds of this engine's phases, whichever run it lands in."""

    def __init__(self, board: Board, caches: Caches | None = None, flush: Callable[[], None] | None = None,
                 collections: FullCollections | None = None) -> None:
        self.flush = flush or _nothing
        self._collections = collections
        self.timing = collections.timing if collections else lambda run, call: call()
        self.timer = OurTimer(board, caches if caches is not None else Caches(), self.flush, self.timing)

    def new_game(self) -> None:
        self.timer.new_game()

    def ours(self, inp: PhaseInput, gc_off: bool) -> tuple[list[float], float | None, list[str]]:
        """This engine's seconds (cold, game, structured), cold paused, and the three outcomes' fingerprints."""
        return self.timer.run(inp, gc_off)

    def peer(self, spec: PeerPosition, orders: dict[str, list[str]], gc_off: bool) -> tuple:
        """The peer's seconds, paused seconds (or None) and outcome."""
        return time_peer(spec, orders, gc_off, self.flush, self.timing)

    def counted(self) -> FullCollections | None:
        """The collections counted by the run they landed in (no more are counted after this)."""
        if self._collections is not None:
            self._collections.close()
        return self._collections

    def close(self) -> None:
        """Nothing to end here (`OwnProcesses` ends its processes)."""


class OwnProcesses:
    """Each engine timed in a process of its own that holds only it (`--own-processes`): this one's holds about
    56,000 objects the collector tracks, the peer's about 940,000. Positions, orders and outcomes go to them and
    back pickled, untimed; this process plays the games and classifies, and that work, between two phases,
    evicts the engines' data from the processor's caches (benchmarks/README.md)."""

    def __init__(self, flush_mb: int = 0, freeze: bool = False) -> None:
        here = Path(__file__).resolve().parent
        self.workers = {"ours": Worker([sys.executable, str(here / "compare_peer.py"), "--serve-ours"]),
                        "peer": Worker([sys.executable, str(here / "peer_side.py")])}
        try:
            self.held = {name: w.call("setup", flush_mb, freeze) for name, w in self.workers.items()}
        except Exception:
            self.close()
            raise

    def new_game(self) -> None:
        self.workers["ours"].call("new_game")

    def ours(self, inp: PhaseInput, gc_off: bool) -> tuple[list[float], float | None, list[str]]:
        return self.workers["ours"].call("ours", inp, gc_off)

    def peer(self, spec: PeerPosition, orders: dict[str, list[str]], gc_off: bool) -> tuple:
        return self.workers["peer"].call("peer", spec, orders, gc_off)

    def counted(self) -> FullCollections:
        """The collections both processes counted, by the run they landed in."""
        merged = FullCollections(watch=False)
        for worker in self.workers.values():
            merged.merge(worker.call("collections"))
        return merged

    def close(self) -> None:
        for worker in self.workers.values():
            worker.close()


class _OursChild:
    """The handlers of `compare_peer.py --serve-ours`: this engine's timed runs, in a process without the peer."""

    def setup(self, flush_mb: int, freeze: bool) -> dict:
        """Load the board, find the caches, and say what this process holds (its collections counted from here)."""
        board = load_variant("standard")
        caches = find_caches(probe(board))
        tracked, frozen = objects_held(freeze)
        self.collections = FullCollections()
        self.timer = OurTimer(board, caches, CacheFlush(flush_mb) if flush_mb else _nothing, self.collections.timing)
        return {"tracked": tracked, "frozen": frozen, "caches": caches.describe(), "peer": "diplomacy" in sys.modules}

    def new_game(self) -> None:
        self.timer.new_game()

    def ours(self, inp: PhaseInput, gc_off: bool) -> tuple[list[float], float | None, list[str]]:
        return self.timer.run(inp, gc_off)

    def collections_counted(self) -> FullCollections:
        self.collections.close()
        return self.collections

    def handlers(self) -> dict[str, Callable[..., Any]]:
        return {"setup": self.setup, "new_game": self.new_game, "ours": self.ours,
                "collections": self.collections_counted}


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


# ----- outcomes -----------------------------------------------------------------------------------------
def our_outcome(result: PhaseResult) -> Outcome:
    nxt = result.next_state
    units = frozenset((u.power, u.type, u.location) for u in nxt.units.values())
    dislodged = frozenset((d.unit.power, d.unit.type, d.unit.location, tuple(sorted(d.retreats)))
                          for d in result.dislodged)
    centres = frozenset(nxt.owners.items())
    phase = "COMPLETED" if result.winner else str(nxt.phase)
    return Outcome(units, dislodged, centres, phase)


# ----- classification of differences --------------------------------------------------------------------
# A difference is explained when a rule the two engines are known to treat differently accounts for all of
# it: the phase is adjudicated again with that rule emulated (on this engine's side: the orders rewritten the
# way the peer reads them; or on the peer's side: the orders this engine refuses taken away from the peer)
# and the two positions then agree. Every class is documented in benchmarks/README.md; a class not listed in
# EXPLAINED (for example the peer refusing an order that this engine's legal-order list offers) counts as
# unexplained until someone looks at it.
EXPLAINED = {
    "convoy-fallback":
        "DATC 4.A.3/6.G.8: an army that could move over land, ordered 'via convoy' or shown to mean a convoy by a "
        "convoy order of its own power's fleet, but with no whole route of fleets ordered to convoy it (or, without "
        "VIA, with its own power's convoy disrupted), moves over land in the peer (fallback, the DATC v2 "
        "preference; the peer takes intent from VIA only); in DATC v3.0 (this engine) the move fails",
    "civil-disorder":
        "DATC 4.D.8/6.J: missing removals; this engine uses the 2023 rule (distance to the nearest owned centre, "
        "moves over land and sea alike), the peer the older one (distance to a home centre, fleets by sea only)",
    "several-orders":
        "DATC 4.D.3: a unit given several different orders holds (in a retreat phase: is disbanded) in this "
        "engine (DATC preference c); the peer keeps the last order it accepts (in a retreat phase: the first)",
    "peer-refuses[wrong-unit-type]":
        "DATC 4.C.2: an order naming the wrong unit type is carried out by this engine (type ignored, the "
        "preference); the peer refuses it",
    "peer-refuses[build-no-type]":
        "DATC 4.C.3: a build without unit type in an inland centre builds an army in this engine (preference c); "
        "the peer refuses it",
    "refused-by-us[support-coast]":
        "DATC 4.B.4/6.B.9: a support naming a coast the supported fleet cannot reach is illegal in this engine (a "
        "coast in a support must be possible, and match); the peer accepts it",
    "refused-by-us[extra-build]":
        "DATC 4.D.4/4.D.7: too many build orders; this engine executes adjustment orders top to bottom, a Waive "
        "taking one build like a build order does (the first legal orders count); the peer drops Waive orders "
        "while builds are ordered",
    "peer-bug:via-self-dislodgement":
        "peer bug 1 (benchmarks/README.md): for a move written with VIA, the peer counts a support given by the "
        "power of the unit attacked towards dislodging it (DATC 6.D.12 forbids it)",
    "peer-bug:h2h-self-support":
        "peer bug 3 (benchmarks/README.md): in a head-to-head battle the peer counts a support given by the power "
        "of the unit attacked when comparing the attack with that unit's defend strength (DATC 5.B, 6.E.2-3)",
    "peer-bug:convoyer-self-support":
        "peer bug 4 (benchmarks/README.md): a convoying fleet attacked with the support of its own power is taken "
        "as dislodged and the convoy disrupted, although the support does not count (DATC 6.D.12)",
    "peer-bug:support-wrong-coast":
        "peer bug 5 (benchmarks/README.md): a support naming one coast of a province, for a fleet ordered to its "
        "other coast, counts in the peer, which drops the coast the support names and gives it the fleet's (DATC "
        "6.B.9: the support is void)",
    "peer-bug:convoy-retreats":
        "peer bug 2 (benchmarks/README.md): a unit dislodged by a convoyed army may, in the peer, retreat to every "
        "neighbour, occupied or left empty by a standoff (DATC 6.H.6)",
}

def _parsed(board: Board, orders: list[tuple[int, str, str]]) -> list[tuple[int, str, Order]]:
    return [(i, power, parse_order(board, text)) for i, power, text in orders]


def ours_with(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]]) -> PhaseResult:
    """This engine on the input's position with other orders ((index, power, text) triples)."""
    parsed = [parse_order(board, text, line=i, power=power) for i, power, text in orders]
    return adjudicate(board, inp.state, parsed)


def peer_with(board: Board, inp: PhaseInput, keep: set[int] | None) -> Outcome:
    game = peer_position(board, inp)
    run_peer(game, inp.peer_orders(keep))
    return peer_outcome(game)


def peer_refused(board: Board, inp: PhaseInput) -> set[int]:
    """The orders the peer refuses when given, each alone, on this position."""
    refused = set()
    for i, ((power, _), text) in enumerate(zip(inp.orders, inp.peer)):
        if text == "WAIVE":
            continue
        game = peer_position(board, inp)
        game.set_orders(peer_power(power), [text])
        if not game.get_orders(peer_power(power)):
            refused.add(i)
    return refused


def our_refused(result: PhaseResult) -> set[int]:
    """The orders (by index, from `ours_with`) this engine refuses: illegal, or not for a unit of the power (an
    order that is one of several different orders to a unit, or that comes after another order of the unit, is
    not refused in itself; nor is a removal beyond the number due: DATC 4.D.6, both engines carry out the first
    removals ordered and leave the rest, though the peer, offered such an order alone, accepts it)."""
    not_refused = ("several different orders", "already has a retreat order", "the same order was given twice",
                   "needs to remove only")
    return {r.line for r in result.report if r.line is not None and r.status in ("illegal", "ignored")
            and not any(why in r.reason for why in not_refused)}


def _fallback(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """The peer's reading of 4.A.3: an army that could go by land goes by convoy only when the fleets ordered to
    convoy it form a whole route; otherwise it moves over land ('via convoy' dropped, and the convoy orders of its
    own fleets, which show intent in DATC v3.0, read as holds)."""
    season = inp.state.phase.season
    parsed = _parsed(board, orders)
    fallback: set[tuple[str, str]] = set()
    refused = ctx.our_refused if ctx is not None else set()
    disrupted: set[int] | None = None  # the moves (by index) whose convoy this engine finds disrupted
    for i, power, o in parsed:
        if i in refused:
            continue  # e.g. 'via convoy' where no fleet could ever carry the army: both engines refuse it
        if o.kind != "move" or (o.unit.type or ARMY) != ARMY or not board.can_move(ARMY, o.unit.province, o.dest, season):
            continue
        army = inp.state.units.get(o.unit.province)
        if army is None or army.type != ARMY or army.power != power:
            continue
        fleets, own_intent = [], False
        for _, p, c in parsed:
            unit = inp.state.units.get(c.unit.province) if c.unit else None
            if c.kind == "convoy" and c.target.province == o.unit.province and c.dest == o.dest \
                    and unit is not None and unit.power == p and unit.type == FLEET:
                fleets.append(c.unit.province)
                own_intent = own_intent or unit.power == army.power
        if (o.via_convoy or own_intent) and not board.convoy_route_exists(o.unit.province, o.dest, season, fleets):
            fallback.add((o.unit.province, o.dest))
        elif own_intent and not o.via_convoy:
            # Without VIA the peer does not read its own fleet's convoy order as intent: it moves the army by the
            # convoy while the route holds (as this engine does: a swap with the unit in the destination works),
            # and over land when the convoy is disrupted (the fleet dislodged), so the army still arrives there.
            # Only the second case differs: the army whose convoy this engine finds disrupted falls back.
            if disrupted is None:
                disrupted = {r.line for r in ours_with(board, inp, orders).report
                             if r.line is not None and r.cause.get("convoy_disrupted")}
            if i in disrupted:
                fallback.add((o.unit.province, o.dest))
    if not fallback:
        return None
    out = []
    for (i, power, text), (_, _, o) in zip(orders, parsed):
        if o.kind == "move" and (o.unit.province, o.dest) in fallback:
            text = text.replace(" via convoy", "")
        elif o.kind == "convoy" and (o.target.province, o.dest) in fallback:
            text = f"{o.unit.type or FLEET} {o.unit.location} H"
        out.append((i, power, text))
    return out


def _last_order(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """The peer's reading of 4.D.3: of several orders to one unit, the last one it accepts counts in a movement
    phase, the first one in a retreat phase (this engine, DATC choice c: none counts; the unit holds, or, in a
    retreat phase, is disbanded)."""
    kind = inp.state.phase.type
    if kind not in ("Movement", "Retreat"):
        return None
    units = inp.state.units if kind == "Movement" else {p: d.unit for p, d in inp.state.dislodged.items()}
    refused = ctx.peer_refused
    kept: dict[tuple[str, str], int] = {}
    count: Counter = Counter()
    parsed = _parsed(board, orders)
    for (i, power, text), (_, _, o) in zip(orders, parsed):
        unit = units.get(o.unit.province) if o.unit else None
        if unit is None or unit.power != power:
            continue
        key = (power, o.unit.province)
        count[key] += 1
        if i not in refused and (kind == "Movement" or key not in kept):
            kept[key] = i
    keys = {k for k, n in count.items() if n > 1}
    if not keys:
        return None
    out = []
    for (i, power, text), (_, _, o) in zip(orders, parsed):
        key = (power, o.unit.province) if o.unit else None
        if key in keys and kept.get(key) != i:
            continue
        out.append((i, power, text))
    return out


def old_civil_disorder(board: Board, state: GameState, power: str, candidates: list[Unit]) -> list[Unit]:
    """The units a power loses in civil disorder by the peer's (pre-2023) rule, worked out independently here:
    farthest from any of its home centres (owned or not) first, armies counting moves over any border and fleets
    only fleet moves; on a tie fleets first, then by the peer's unit name (`A BUD` < `A VIE`)."""
    season = state.phase.season
    homes = set(board.home_centres(power))

    def distance(unit: Unit) -> int:
        if not homes:
            return 99999
        graph = board.army_moves(season) if unit.type == ARMY else board.fleet_moves(season)
        if unit.type == ARMY:
            neighbours = lambda loc: board.graph.adj[loc]  # noqa: E731
        else:
            neighbours = graph.successors
        seen, frontier, d = {unit.location}, [unit.location], 0
        while frontier:
            if any(split_location(loc)[0] in homes for loc in frontier):
                return d
            nxt = []
            for loc in frontier:
                for n in neighbours(loc):
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            frontier, d = nxt, d + 1
        return 99999

    return sorted(candidates, key=lambda u: (-distance(u), u.type != FLEET, peer_unit(u.type, u.location)))


def _civil_disorder(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """The removals the peer made by its civil-disorder rule, ordered explicitly, when they are exactly what that
    rule (worked out independently by `old_civil_disorder`) removes."""
    if inp.state.phase.type != "Adjustment":
        return None
    result = ours_with(board, inp, orders)
    defaulted = Counter(r.unit.power for r in result.report if r.status == "default" and r.text.startswith("remove"))
    if not defaulted:
        return None
    peer_units = set(ctx.peer.units)
    by_order = {u.province for u in result.removed} - {r.unit.province for r in result.report
                                                       if r.status == "default" and r.unit is not None}
    extra = []
    for power, missing in defaulted.items():
        left = [u for u in inp.state.units_of(power) if u.province not in by_order]
        expected = set(old_civil_disorder(board, inp.state, power, left)[:missing])
        removed_by_peer = {u for u in left if (u.power, u.type, u.location) not in peer_units}
        if removed_by_peer != expected:
            return None  # the peer did something its own rule does not say
        extra += [(-1, power, f"Remove {u.type} {u.location}") for u in sorted(expected)]
    return orders + extra


def _drop_peer_refused(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: dict) -> list | None:
    """The orders the peer refuses, taken away from this engine's orders too."""
    drop = ctx.peer_refused - ctx.our_refused
    if not drop:
        return None
    return [(i, p, t) for i, p, t in orders if i not in drop]


def _reduced_swaps(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """Peer bug 3 as the peer's code has it (`Game._resolve_moves`, step 6): in a swap of unequal full strengths
    each attack is compared with the other attack, both without the supports given by the power they attack,
    and those supports are void. This engine gives the same verdict with those supports taken out of its
    orders (a swap of equal full strengths bounces under both rules, and then no phase differs)."""
    h2h = {i for i, kind in _self_supports(board, inp).items() if kind == "h2h"}
    if not h2h:
        return None
    return [(i, p, t) for i, p, t in orders if i not in h2h]


def _retreat_illegal_first(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """Bug here 1 (benchmarks/README.md): an illegal retreat order hides a later legal one for the same unit;
    emulated by taking the illegal order out (DATC 4.E.1: it is ignored entirely)."""
    if inp.state.phase.type != "Retreat":
        return None
    parsed = _parsed(board, orders)
    count = Counter((p, o.unit.province) for _, p, o in parsed if o.unit is not None)
    refused = {i for i, p, t in orders if count[(p, parse_order(board, t).unit.province)] > 1 if t}
    refused = {i for i in refused if i in our_refused(ours_with(board, inp, [x for x in orders if x[0] == i]))}
    seen_legal: set[tuple[str, str]] = set()
    drop = set()
    for i, power, o in parsed:
        if o.unit is None or count[(power, o.unit.province)] < 2:
            continue
        key = (power, o.unit.province)
        if i in refused and key not in seen_legal:
            if any(j not in refused for j, p2, o2 in parsed if j > i and o2.unit is not None
                   and (p2, o2.unit.province) == key):
                drop.add(i)
        elif i not in refused:
            seen_legal.add(key)
    if not drop:
        return None
    return [(i, p, t) for i, p, t in orders if i not in drop]


# Known bugs of this engine, recognised by emulating the fix; they stay unexplained (they are to be fixed).
BUGS_HERE = {
    "bug-here:retreat-illegal-first":
        "bug here 1: in a retreat phase an illegal retreat order followed by a legal one for the same unit "
        "disbands it; DATC 4.D.3/4.E.1: the illegal order is ignored and the legal one is carried out "
        "(benchmarks/README.md has the case)",
    "bug-here:mode-mismatch":
        "the same phase gives another position when its orders are read cold, in the game, or from objects",
}

# In the order the peer applies them: which orders it accepts and keeps (set_orders), then how it reads them
# (process: the convoy fallback, civil disorder). A class such as `several-orders+convoy-fallback` needs both, in
# that order: a fleet's convoy order replaced by its later support leaves the army with no convoy, and only then
# does the peer fall back to the land route.
def _support_coast_dropped(board: Board, inp: PhaseInput, orders: list[tuple[int, str, str]], ctx: Any) -> list | None:
    """Peer bug 5 (benchmarks/README.md): the peer drops the coast a support names and gives it the supported
    fleet's, so a support naming the wrong coast counts (DATC 6.B.9: it is void). Emulated by taking the coast
    out of the supports whose supported fleet is ordered to the same province at another coast (a support
    without coast matches the move: DATC 6.B.7)."""
    if inp.state.phase.type != "Movement":
        return None
    parsed = _parsed(board, orders)
    moves: dict[tuple[str, str], set] = defaultdict(set)  # (unit, destination) -> coasts its own moves name
    for _, power, o in parsed:
        unit = inp.state.units.get(o.unit.province) if o.unit else None
        if o.kind == "move" and unit is not None and unit.power == power:
            moves[(o.unit.province, o.dest)].add(o.dest_coast)
    out, changed = [], False
    for (i, power, text), (_, _, o) in zip(orders, parsed):
        named = f"{o.dest}/{o.dest_coast}" if o.kind == "support" and o.dest_coast else None
        if named and named in text and moves.get((o.target.province, o.dest), set()) - {o.dest_coast, None}:
            text, changed = text.replace(named, o.dest), True
        out.append((i, power, text))
    return out if changed else None


_TRANSFORMS = [("peer-refuses", _drop_peer_refused), ("several-orders", _last_order),
               ("convoy-fallback", _fallback), ("civil-disorder", _civil_disorder),
               ("peer-bug:h2h-self-support", _reduced_swaps), ("bug-here:retreat-illegal-first", _retreat_illegal_first),
               ("peer-bug:support-wrong-coast", _support_coast_dropped)]


def _self_supports(board: Board, inp: PhaseInput) -> dict[int, str]:
    """Supports given by the power whose unit stands in the supported move's destination (they may not help to
    dislodge it: DATC 6.D.10-12, 6.E.2-3), where the peer gets that rule wrong, by index and bug:
    `via` the move is written with VIA (peer bug 1), `h2h` the unit attacked moves back at the attacker
    (peer bug 3), `convoyer` the unit attacked is a fleet ordered to convoy (peer bug 4)."""
    parsed = [parse_order(board, t) for _, t in inp.orders]
    state = inp.state
    moves: dict[str, tuple[str, bool]] = {}  # province -> (destination, written with VIA) of its owner's move
    convoying: set[str] = set()
    for (power, _), o, pt in zip(inp.orders, parsed, inp.peer):
        unit = state.units.get(o.unit.province) if o.unit else None
        if unit is None or unit.power != power:
            continue
        if o.unit.type and o.unit.type != unit.type:
            continue  # the peer refuses an order naming the wrong unit type: the unit's other order is its own
        if o.kind == "move":
            moves[o.unit.province] = (o.dest, pt.endswith(" VIA"))
        elif o.kind == "convoy":
            convoying.add(o.unit.province)
    out = {}
    for i, ((power, _), o) in enumerate(zip(inp.orders, parsed)):
        if o.kind != "support" or not o.dest:
            continue
        defender, supporter = state.units.get(o.dest), state.units.get(o.unit.province)
        if defender is None or supporter is None or not supporter.power == power == defender.power:
            continue
        dest, via = moves.get(o.target.province, (None, False))
        if dest != o.dest:
            continue
        if via:
            out[i] = "via"
        elif moves.get(o.dest, (None, False))[0] == o.target.province:
            out[i] = "h2h"
        elif o.dest in convoying:
            out[i] = "convoyer"
    return out


_SELF_SUPPORT_BUGS = {"via": "peer-bug:via-self-dislodgement", "h2h": "peer-bug:h2h-self-support",
                      "convoyer": "peer-bug:convoyer-self-support"}


def _normalised_peer(board: Board, inp: PhaseInput, game: Any, result: PhaseResult) -> Outcome:
    """The peer's position with its retreat options cleaned of occupied and standoff provinces (peer bug 2 in
    benchmarks/README.md: after a convoyed attack it offers every neighbour); when that leaves no retreat at
    all, the peer's (needless) retreat phase is played out with no orders, as its game would go on."""
    raw = peer_outcome(game)
    occupied = {split_location(loc)[0] for _, _, loc in raw.units}
    contested = set(result.contested)
    by_convoy = set()  # the dislodged units whose attacker the peer moved by convoy
    for unit, site in getattr(game, "dislodged", {}).items():
        attacker = next((u for u in game.command if u[2:5] == site[:3] and game.command[u][0] == "-"), None)
        if attacker and game._is_moving_via_convoy(attacker):
            by_convoy.add(our_loc(unit.split()[1]))
    dislodged = set()
    for power, t, loc, options in raw.dislodged:
        if loc not in by_convoy:
            dislodged.add((power, t, loc, options))
            continue
        kept = tuple(o for o in options if split_location(o)[0] not in occupied | contested)
        if kept:
            dislodged.add((power, t, loc, kept))
    if dislodged == set(raw.dislodged):
        return raw
    if not dislodged and game.phase_type == "R":
        game.process()
        return peer_outcome(game)
    return Outcome(raw.units, frozenset(dislodged), raw.centres, raw.phase)


def _refusal_kind(reason: str, odd_label: str) -> str:
    """What kind of order this engine refused, from its reason (the odd order's label otherwise)."""
    if "may build only" in reason:
        return "extra-build"
    if "cannot reach the" in reason and "coast of" in reason:
        return "support-coast"
    return odd_label


class _Context:
    """What the classifier learns about a phase, computed when first needed."""

    def __init__(self, board: Board, inp: PhaseInput, peer: Outcome):
        self.board, self.inp, self.peer = board, inp, peer
        self._peer_refused: set[int] | None = None
        self._our_refused: set[int] | None = None
        self.reasons: dict[int, str] = {}

    @property
    def peer_refused(self) -> set[int]:
        if self._peer_refused is None:
            self._peer_refused = peer_refused(self.board, self.inp)
        return self._peer_refused

    @property
    def our_refused(self) -> set[int]:
        if self._our_refused is None:
            orders = [(i, p, t) for i, (p, t) in enumerate(self.inp.orders)]
            result = ours_with(self.board, self.inp, orders)
            self._our_refused = our_refused(result)
            self.reasons = {r.line: r.reason for r in result.report if r.line is not None}
        return self._our_refused

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)


class PeerRuns:
    """The peer's outcomes of one phase under the classifier's variants, each run once.

    The key holds everything the outcome depends on: the orders kept, whether the outcome is normalised, and,
    when it is, the standoff provinces of this engine's result it is normalised against (`_normalised_peer`
    removes them from the peer's retreats; two emulations of this engine's side can leave different ones)."""

    def __init__(self, board: Board, inp: PhaseInput):
        self.board, self.inp = board, inp
        self.cache: dict[tuple, Outcome] = {}
        self.runs = 0  # how many times the peer was actually run

    @staticmethod
    def key(keep: set[int] | None, normalise: bool, ours_result: PhaseResult) -> tuple:
        """What the outcome depends on."""
        return (None if keep is None else frozenset(keep), normalise,
                frozenset(ours_result.contested) if normalise else None)

    def outcome(self, keep: set[int] | None, normalise: bool, ours_result: PhaseResult) -> Outcome:
        """The peer's outcome with only the orders at `keep` (all: None), normalised against `ours_result`."""
        key = self.key(keep, normalise, ours_result)
        if key not in self.cache:
            game = peer_position(self.board, self.inp)
            run_peer(game, self.inp.peer_orders(keep))
            self.runs += 1
            self.cache[key] = (_normalised_peer(self.board, self.inp, game, ours_result) if normalise
                               else peer_outcome(game))
        return self.cache[key]


def classify(board: Board, inp: PhaseInput, result: PhaseResult, ours: Outcome, peer: Outcome) -> str:
    """The class of a difference: the rules (emulated) that account for all of it, or `unexplained`."""
    from itertools import combinations

    orders = [(i, p, t) for i, (p, t) in enumerate(inp.orders)]
    ctx = _Context(board, inp, peer)

    def label(name: str) -> str:
        if name == "peer-refuses":
            idx = ctx.peer_refused - ctx.our_refused
        elif name == "refused-by-us":
            idx = ctx.our_refused - ctx.peer_refused
        else:
            return name
        if name == "refused-by-us":
            kinds = sorted({_refusal_kind(ctx.reasons.get(i, ""), inp.odd.get(i, "legal")) for i in idx})
        else:
            kinds = sorted({inp.odd.get(i, "legal") for i in idx})
        return f"{name}[{','.join(kinds)}]"

    def peer_variants():
        """(names, peer outcome) for the peer run as it is and with its known bugs and refusals taken out."""
        all_orders = set(range(len(inp.orders)))
        self_support = _self_supports(board, inp)
        bugs = sorted({_SELF_SUPPORT_BUGS[kind] for kind in self_support.values()})
        yield [], None, False
        yield ["peer-bug:convoy-retreats"], None, True
        if self_support:
            yield bugs, all_orders - set(self_support), False
            yield bugs + ["peer-bug:convoy-retreats"], all_orders - set(self_support), True
            if len(self_support) > 1:  # the peer may misuse only one of them
                for i, kind in sorted(self_support.items()):
                    yield [_SELF_SUPPORT_BUGS[kind]], all_orders - {i}, False
        if ctx.our_refused - ctx.peer_refused:
            keep = all_orders - (ctx.our_refused - ctx.peer_refused)
            yield ["refused-by-us"], keep, False
            yield ["refused-by-us", "peer-bug:convoy-retreats"], keep, True
            if self_support:
                yield ["refused-by-us"] + bugs, keep - set(self_support), False

    peer_outcome_for = PeerRuns(board, inp).outcome

    for size in range(len(_TRANSFORMS) + 1):
        for combo in combinations(_TRANSFORMS, size):
            current, used = orders, []
            for name, transform in combo:
                changed = transform(board, inp, current, ctx)
                if changed is None:
                    break
                current, used = changed, used + [name]
            else:
                mine_result = ours_with(board, inp, current) if used else result
                mine = our_outcome(mine_result) if used else ours
                for names, keep, normalise in peer_variants():
                    if not used and not names:
                        continue
                    if mine == peer_outcome_for(keep, normalise, mine_result):
                        return "+".join([label(n) for n in used] + [label(n) for n in names])
    return "unexplained"


def explained(cls: str) -> bool:
    """Whether every part of a class is a documented rule difference."""
    return all(part in EXPLAINED for part in cls.split("+"))


# ----- case files ---------------------------------------------------------------------------------------
def case_text(board: Board, inp: PhaseInput, result: PhaseResult, name: str, comments: list[str]) -> str:
    """The phase as a case in the project's case format; the expected position is this engine's result, and the
    peer's differing result is written in the comments."""
    state = inp.state
    phase = state.phase
    lines = ["VARIANT_ALL Standard", ""]
    lines += [f"# {c}" for c in comments]
    lines.append(f"CASE {name}")
    lines.append(f"PRESTATE_SETPHASE {phase.season} {phase.year}, {phase.type}")
    lines.append("PRESTATE_SUPPLYCENTER_OWNERS")
    for c, o in sorted(state.owners.items(), key=lambda x: (x[1], x[0])):
        lines.append(f"\t{o}: {c}")
    lines.append("PRESTATE")
    for u in sorted(state.units.values()):
        lines.append(f"\t{u.power}: {u.type} {u.location}")
    if phase.type == "Retreat":
        lines.append("PRESTATE_DISLODGED")
        for d in sorted(state.dislodged.values(), key=lambda d: d.unit):
            lines.append(f"\t{d.unit.power}: {d.unit.type} {d.unit.location}")
        lines.append("PRESTATE_RESULTS")
        for d in sorted(state.dislodged.values(), key=lambda d: d.unit):
            if d.attacker_origin:
                arrived = state.units.get(d.unit.province)
                who = arrived.power if arrived else d.unit.power
                t = arrived.type if arrived else ARMY
                lines.append(f"\tSUCCESS: {who}: {t} {d.attacker_origin} - {d.unit.province}"
                             + (" via convoy" if d.by_convoy else ""))
        for c in sorted(state.contested):
            near = sorted(board.graph.adj[c])[:2]
            for n in near:
                lines.append(f"\tFAILURE: {next(iter(board.powers))}: A {n} - {c}")
    lines.append("ORDERS")
    for power, text in inp.orders:
        lines.append(f"\t{power}: {text}")
    nxt = result.next_state
    lines.append("POSTSTATE")
    for u in sorted(nxt.units.values()):
        lines.append(f"\t{u.power}: {u.type} {u.location}")
    if phase.type == "Movement":
        lines.append("POSTSTATE_DISLODGED")
        for d in sorted(result.dislodged, key=lambda d: d.unit):
            lines.append(f"\t{d.unit.power}: {d.unit.type} {d.unit.location}")
    lines.append("POSTSTATE_SUPPLYCENTER_OWNERS")
    for c, o in sorted(nxt.owners.items(), key=lambda x: (x[1], x[0])):
        lines.append(f"\t{o}: {c}")
    if not result.winner:
        p = nxt.phase
        lines.append(f"POSTSTATE_SETPHASE {p.season} {p.year}, {p.type}")
    lines.append("END")
    return "\n".join(lines) + "\n"


# ----- the run ------------------------------------------------------------------------------------------
MODES = ("cold", "game", "structured")
MODE_WORDS = {
    "cold": "every cache emptied before the phase (no text read before, no route answer kept)",
    "game": "the caches hold what this game's earlier phases left (their order texts), as a real game runs",
    "structured": "the orders given as data (orders/structured.py): no text read; other caches as in the game",
}


@dataclass
class Stats:
    ours: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # cold, per phase type
    game: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    structured: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    peer: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    flush_mb: int = 0  # --flush: megabytes read before each timed run
    frozen: int = 0  # --gc-freeze: objects moved to the permanent generation before the first game
    where: str = ""  # which processes timed the runs, and what they held
    caches_found: str = ""  # the caches emptied for cold, as the timing process found them
    collections: FullCollections | None = None  # the full collections, by the timed run they land in
    ours_gc_off: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # cold, GC paused
    peer_gc_off: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    differences: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    mode_mismatch: Counter = field(default_factory=Counter)  # phases whose result depends on the mode (a bug)
    examples: dict[str, list[tuple[PhaseInput, PhaseResult, list[str]]]] = field(default_factory=lambda: defaultdict(list))
    samples: dict[str, list[PhaseInput]] = field(default_factory=lambda: defaultdict(list))
    games: int = 0

    def times(self, mode: str) -> dict[str, list[float]]:
        """Seconds per phase of this engine in a mode (`cold`, `game`, `structured`), by phase type."""
        return {"cold": self.ours, "game": self.game, "structured": self.structured}[mode]

    @property
    def unexplained(self) -> int:
        return (sum(n for kind in self.differences.values() for cls, n in kind.items() if not explained(cls))
                + sum(self.mode_mismatch.values()))


def play(board: Board, stats: Stats, rng: random.Random, years: int, movement_budget: int | None,
         odd: float = 0.0, keep_examples: int = 3, memory_sample: int = 0, runs: Any = None,
         gc_off: bool = False) -> None:
    """One random game: every phase adjudicated by this engine cold, in the game and from order objects, and by
    the peer, from the same position; the game goes on from this engine's result.

    `runs` times them: `HereRuns` (both engines in this process; by default one with no caches to empty) or
    `OwnProcesses` (each engine in a process of its own)."""
    runs = runs if runs is not None else HereRuns(board)
    state = opening_state(board)
    last_year = state.phase.year + years - 1
    stats.games += 1
    runs.new_game()
    while state.phase.year <= last_year:
        if movement_budget is not None and len(stats.ours["Movement"]) >= movement_budget:
            return
        inp = random_orders(board, state, rng, odd)
        kind = state.phase.type
        seconds, paused, fingerprints = runs.ours(inp, gc_off)
        peer_orders = inp.peer_orders()
        t_peer, peer_paused, peer = runs.peer(peer_spec(board, inp), peer_orders, gc_off)
        for column, t in zip((stats.ours, stats.game, stats.structured), seconds):
            column[kind].append(t)
        stats.peer[kind].append(t_peer)
        if gc_off:
            stats.ours_gc_off[kind].append(paused)
            stats.peer_gc_off[kind].append(peer_paused)
        result, _ = run_ours(board, inp)  # once more, untimed: for the game and the classifier
        if len(stats.samples[kind]) < memory_sample:
            stats.samples[kind].append(inp)
        ours = our_outcome(result)
        if any(f != ours.fingerprint() for f in fingerprints):
            stats.mode_mismatch[kind] += 1
            if len(stats.examples["bug-here:mode-mismatch"]) < keep_examples:
                stats.examples["bug-here:mode-mismatch"].append((inp, result, ["the cold, game and structured runs "
                                                                               "give different positions"]))
        if ours != peer:
            cls = classify(board, inp, result, ours, peer)
            stats.differences[kind][cls] += 1
            if len(stats.examples[cls]) < keep_examples:
                stats.examples[cls].append((inp, result, ours.diff(peer)))
        if result.winner:
            return
        state = result.next_state


def _nothing() -> None:
    pass


def peak_memory(board: Board, inputs: list[PhaseInput], caches: Caches | None = None) -> tuple[int, int]:
    """The largest tracemalloc peak of one phase, for each engine (bytes), over these phases (ours cold)."""
    best_ours = best_peer = 0
    for inp in inputs:
        game = peer_position(board, inp)
        gc.collect()
        tracemalloc.start()
        tracemalloc.reset_peak()
        run_peer(game, inp.peer_orders())
        best_peer = max(best_peer, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        if caches is not None:
            caches.empty()
        gc.collect()
        tracemalloc.start()
        run_ours(board, inp)
        best_ours = max(best_ours, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return best_ours, best_peer


def probe(board: Board, odd: float = 0.3) -> Callable[[random.Random], None]:
    """Phases for `find_caches`: a few phases of a random game, every order read from text and from its object
    (odd orders are written for the standard board: `odd=0` elsewhere)."""

    def play_some(rng: random.Random) -> None:
        state = opening_state(board)
        for _ in range(8):
            inp = random_orders(board, state, rng, odd=odd)
            run_ours(board, inp, structured=True)
            result, _ = run_ours(board, inp)
            _rare_texts(board, rng)
            if result.winner:
                return
            state = result.next_state

    return play_some


def _rare_texts(board: Board, rng: random.Random) -> None:
    """Orders the random games seldom write, read so that the caches they fill grow in the probe and are
    emptied for cold too: a unit named with its power, an order longer than the table of shapes."""
    places, powers = sorted(board.provinces), sorted(board.powers)
    for _ in range(3):
        power, a = rng.choice(powers), rng.choice(places)
        path = " - ".join(rng.choice(places) for _ in range(rng.randint(5, 60)))  # a new long shape each time
        for text in (f"{power} A {a} H", f"A {a} - {path}"):
            try:
                parse_order(board, text)
            except AdjudicatorError:
                pass  # (a reading refused still fills what it read)


def breakdown(board: Board, inputs: list[PhaseInput], caches: Caches | None = None, rounds: int = 3) -> list[str]:
    """Where each engine spends a phase: ms per phase by part (best of `rounds`; the garbage collector paused so
    that the parts add up; ours cold: every cache emptied before each phase, which the figure includes)."""
    from adjudicator.games.diplomacy.judge.movement import MovementJudge
    from adjudicator.games.diplomacy.orders.validate import every_unit_command, movement_commands
    from adjudicator.games.diplomacy.state import check_position

    caches = caches if caches is not None else Caches()

    def cold(fn):
        def run():
            for inp in inputs:
                caches.empty()
                fn(inp)
        return run

    parsed = [[parse_order(board, t, power=p) for p, t in inp.orders] for inp in inputs]
    by_input = {id(inp): os for inp, os in zip(inputs, parsed)}
    parts: dict[str, Any] = {
        "ours: read orders from text (cold)": cold(lambda inp: [parse_order(board, t, power=p) for p, t in inp.orders]),
        "ours: read orders from objects": lambda: [orders_from_objects(board, inp.objects) for inp in inputs],
        "ours: adjudicate (all, cold)": cold(lambda inp: adjudicate(board, inp.state, by_input[id(inp)])),
        "ours:   check_position": lambda: [check_position(board, inp.state) for inp in inputs],
    }
    if inputs and inputs[0].state.phase.type == "Movement":
        commands = []
        for inp, os in zip(inputs, parsed):
            commands.append((inp.state.phase.season, every_unit_command(board, inp.state, os)[0]))
        parts["ours:   validation (movement_commands)"] = cold(
            lambda inp: movement_commands(board, inp.state, by_input[id(inp)]))
        parts["ours:   judge (MovementJudge.run)"] = lambda: [MovementJudge(board, season, c).run()
                                                            for season, c in commands]
    out = []
    n = max(1, len(inputs))
    measured = {}
    for label, fn in parts.items():
        measured[label] = best_of(fn, rounds) / n
        out.append(f"  {label:<44} {1000 * measured[label]:7.3f} ms")
    if "ours:   judge (MovementJudge.run)" in measured:
        rest = measured["ours: adjudicate (all, cold)"] - sum(
            measured[k] for k in ("ours:   check_position", "ours:   validation (movement_commands)",
                                  "ours:   judge (MovementJudge.run)"))
        out.append(f"  {'ours:   the rest (next position, calendar)':<44} {1000 * rest:7.3f} ms")
    set_time = process_time = 0.0
    for inp in inputs:
        game = peer_position(board, inp)
        gc.disable()
        try:
            t0 = time.perf_counter()
            for power, texts in inp.peer_orders().items():
                game.set_orders(power, texts)
            t1 = time.perf_counter()
            game.process()
            t2 = time.perf_counter()
        finally:
            gc.enable()
        set_time += t1 - t0
        process_time += t2 - t1
    out.append(f"  {'peer: set_orders (reading and validation)':<44} {1000 * set_time / n:7.3f} ms")
    out.append(f"  {'peer: process':<44} {1000 * process_time / n:7.3f} ms")
    return out


def profile_table(board: Board, inputs: list[PhaseInput], caches: Caches, top: int = 15) -> list[str]:
    """cProfile of this engine's cold phases (every cache emptied before each): own time by file, and the
    functions with the most own time."""
    import io

    stats = profile_cold(inputs, lambda inp: run_ours(board, inp), caches.empty)
    lines = ["  own time by file (cProfile, cold): " + own_time_by_file(stats)]
    stream = io.StringIO()
    stats.stream = stream  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(top)
    body = stream.getvalue().splitlines()
    start = next((i for i, line in enumerate(body) if line.strip().startswith("ncalls")), 0)
    lines += ["  " + line for line in body[start:start + top + 1] if line.strip()]
    return lines


def _ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return 1000 * s[min(len(s) - 1, int(q * len(s)))]


GOALS = {("Movement", "cold"): 10.0, ("Movement", "structured"): 15.0, ("Retreat", "cold"): 5.0,
         ("Adjustment", "cold"): 5.0}


def _rate(values: list[float]) -> float:
    return len(values) / sum(values) if values and sum(values) else float("nan")


def report(board: Board, stats: Stats, out: Path | None, memory: dict[str, tuple[int, int]],
           caches: Caches | None = None) -> list[str]:
    """The report: phases per second of each mode beside the peer's, latency and memory, differences."""
    lines = [f"games: {stats.games}"]
    gc_off = any(stats.ours_gc_off.values())
    head = (f"{'phase type':<11} {'phases':>7} {'peer/s':>8} {'cold/s':>8} {'ratio':>6} {'game/s':>8} {'ratio':>6} "
            f"{'struct/s':>9} {'ratio':>6}")
    if gc_off:
        head += f" | {'GC paused: cold/s':>17} {'peer/s':>7} {'ratio':>6}"
    lines.append(head + f" {'differ':>7}")
    ratios: dict[tuple[str, str], float] = {}
    for kind in PHASE_TYPES:
        p = stats.peer.get(kind, [])
        if not p:
            continue
        peer_rate = _rate(p)
        row = f"{kind:<11} {len(p):>7} {peer_rate:>8.0f}"
        for mode in MODES:
            rate = _rate(stats.times(mode).get(kind, []))
            ratios[(kind, mode)] = rate / peer_rate
            row += f" {rate:>{9 if mode == 'structured' else 8}.0f} {rate / peer_rate:>5.1f}x"
        if gc_off:
            ours_off, peer_off = _rate(stats.ours_gc_off.get(kind, [])), _rate(stats.peer_gc_off.get(kind, []))
            row += f" | {ours_off:>17.0f} {peer_off:>7.0f} {ours_off / peer_off:>5.1f}x"
        lines.append(row + f" {sum(stats.differences[kind].values()):>7}")
    lines.append("")
    lines.append(f"{'phase type':<11} {'cold med':>9} {'cold p99':>9} {'game med':>9} {'struct med':>10} "
                 f"{'peer med':>9} {'peer p99':>9} {'ours peak':>10} {'peer peak':>10}")
    for kind in PHASE_TYPES:
        o, p = stats.ours.get(kind, []), stats.peer.get(kind, [])
        if not o:
            continue
        mem = memory.get(kind)
        mo = f"{mem[0] / 1024:.0f} KiB" if mem else "-"
        mp = f"{mem[1] / 1024:.0f} KiB" if mem else "-"
        lines.append(f"{kind:<11} {_ms(o, .5):>7.3f}ms {_ms(o, .99):>7.3f}ms {_ms(stats.game[kind], .5):>7.3f}ms "
                     f"{_ms(stats.structured[kind], .5):>8.3f}ms {_ms(p, .5):>7.3f}ms {_ms(p, .99):>7.3f}ms "
                     f"{mo:>10} {mp:>10}")
    lines.append("")
    for mode in MODES:
        lines.append(f"{mode}: {MODE_WORDS[mode]}")
    found = stats.caches_found or (caches.describe() if caches is not None else "")
    if found:
        lines.append(f"caches emptied for cold (found by benchmarks/caches.py): {found}")
    if stats.where:
        lines.append(f"timed: {stats.where}")
    lines.append("the peer: its game built from the position untimed; timed: set_orders() of every power (its text "
                 "reading and validation) and process(). The garbage collector runs normally"
                 + ("; the GC-paused columns time ours cold and the peer again with it paused" if gc_off else ""))
    if stats.collections is not None:
        lines.append(stats.collections.describe())
    if stats.frozen:
        lines.append(f"--gc-freeze: {stats.frozen:,} objects that existed before the first game (the timing "
                     "processes' imports and boards) were frozen (gc.freeze); the collector ran normally over "
                     "everything made after")
    if stats.flush_mb:
        lines.append(f"--flush: before every timed run of either engine, {stats.flush_mb} MiB of other memory were "
                     "read, so that no run found its own data in the processor's caches")
    goals = []
    for (kind, mode), goal in GOALS.items():
        if (kind, mode) in ratios:
            got = ratios[(kind, mode)]
            goals.append(f"{kind.lower()} {mode} {got:.1f}x (goal {goal:.0f}x: "
                         f"{'met' if got >= goal else f'missed by {goal - got:.1f}x'})")
    if goals:
        lines.append("goals: " + "; ".join(goals))
        medians = [f"{kind.lower()} {mode} {_ms(stats.peer[kind], .5) / _ms(stats.times(mode)[kind], .5):.1f}x"
                   for kind, mode in GOALS if stats.times(mode).get(kind) and stats.peer.get(kind)]
        lines.append("the same by the median phase of each side (the rates above are totals, in which a full "
                     "collection of the garbage collector weighs on whichever run it lands in): " + "; ".join(medians))
    if stats.mode_mismatch:
        lines.append(f"PHASES WHOSE RESULT DEPENDS ON THE MODE (a bug here): {dict(stats.mode_mismatch)}")
    lines.append("")
    lines.append("differences by class:")
    total = Counter()
    for kind in PHASE_TYPES:
        for cls, n in sorted(stats.differences[kind].items()):
            total[cls] += n
            lines.append(f"  {kind:<11} {cls:<44} {n:>6}  ({'explained' if explained(cls) else 'UNEXPLAINED'})")
    if not total:
        lines.append("  (none)")
    if out is not None and stats.examples:
        out.mkdir(parents=True, exist_ok=True)
        for cls, examples in stats.examples.items():
            for i, (inp, result, diff) in enumerate(examples, 1):
                name = f"{cls} {i} ({inp.state.phase})"
                odd = [f"odd order ({label}): {inp.orders[j][0]}: {inp.orders[j][1]}" for j, label in sorted(inp.odd.items())]
                why = "; ".join(EXPLAINED.get(part) or BUGS_HERE.get(part) or f"{part}: not explained"
                                for part in cls.split("+"))
                comments = [f"Difference with the diplomacy package ({cls}): {why}.",
                            "POSTSTATE is this engine's result; the peer's differs by:"] + [f"  {d}" for d in diff] + odd
                (out / f"{_file_name(cls)}_{i}.txt").write_text(case_text(board, inp, result, name, comments), encoding="utf-8")
        lines.append(f"case files of the first differences of each class: {out}")
    lines.append(f"unexplained differences: {stats.unexplained}")
    return lines


def check_cases(paths: list[str]) -> int:
    """Run case files through both engines and print where the peer's position differs from this engine's
    (and from the case's expected position, which is this engine's when the case passes)."""
    from adjudicator.games.diplomacy.cases.datc import read_cases
    from adjudicator.case_files import collect_files
    from adjudicator.games.diplomacy.cases.runner import build_state, run_case

    from adjudicator.errors import AdjudicatorError

    board = load_variant("standard")
    differing = 0
    for path in collect_files(paths):
        try:
            cases = read_cases(path)
        except AdjudicatorError as exc:
            print(f"{path}: cannot be read: {exc}")
            continue
        for case in cases:
            try:
                notes: list[str] = []
                state = build_state(board, case, notes)
                orders = [(board.power_names.lookup_lenient(line.power)[0], line.text) for line in case.get("ORDERS")]
                inp = PhaseInput(state, orders, [peer_order(parse_order(board, t)) for _, t in orders])
                if state.phase.type == "Retreat":
                    occupied = set(state.units)
                    inp.retreats = {p: retreat_options(board, state.phase.season, d, occupied, state.contested)
                                    for p, d in state.dislodged.items()}
                outcome = run_case(case)
            except AdjudicatorError as exc:  # a case this engine cannot run (its report says where and why)
                print(f"{path}: {case.name}: cannot be run: {exc}")
                continue
            if outcome.result is None:  # run_case could not judge it (an expectation it cannot read): it says why
                print(f"{path}: {case.name}: cannot be run: {outcome.problems[0].removeprefix('cannot run the case: ')}")
                continue
            result, _ = run_ours(board, inp)
            game = peer_position(board, inp)
            run_peer(game, inp.peer_orders())
            diff = our_outcome(result).diff(peer_outcome(game))
            verdict = "passes" if outcome.passed else "FAILS"
            print(f"{path}: {case.name}: this engine {verdict} the case; the peer "
                  + ("agrees" if not diff else "differs:"))
            for line in diff:
                print(f"    {line}")
            differing += bool(diff)
    return differing


def _file_name(cls: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in cls)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None, help="number of games (default: as many as --phases needs)")
    ap.add_argument("--phases", type=int, default=None, help="stop after this many movement phases")
    ap.add_argument("--years", type=int, default=10, help="years per game (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--odd", type=float, default=0.1,
                    help="chance per power and phase of one odd order (illegal, foreign, repeated, badly written; "
                         "DATC chapter 4) besides the legal ones (default 0.1; 0: legal orders only)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out", help="where difference cases go")
    ap.add_argument("--memory-sample", type=int, default=100,
                    help="phases of each type measured for peak memory (separately from timing; 0: skip)")
    ap.add_argument("--breakdown", action="store_true",
                    help="also split each engine's time per phase into its parts (on the memory sample)")
    ap.add_argument("--profile", action="store_true",
                    help="also profile this engine's cold movement phases (cProfile, on the memory sample)")
    ap.add_argument("--gc-off", action="store_true",
                    help="also time ours cold and the peer with the garbage collector paused (extra columns)")
    ap.add_argument("--flush", type=int, default=0, metavar="MB",
                    help="before every timed run of either engine, read MB megabytes of other memory (64 evicts the "
                         "processor's caches here), so that each run starts with none of its data cached")
    ap.add_argument("--gc-freeze", action="store_true",
                    help="move every object that exists before the first game (each timing process's imports and "
                         "board) into the collector's permanent generation (gc.freeze), so that a full collection "
                         "costs what the games' own objects cost; the collector still runs")
    ap.add_argument("--own-processes", action="store_true",
                    help="time each engine in a process of its own that holds only it (benchmarks/workers.py), "
                         "instead of both in this one: a full collection then costs what one engine holds, but "
                         "this process's work between phases evicts each engine's data from the processor's caches")
    ap.add_argument("--progress", type=int, default=0, metavar="N",
                    help="print a progress line to stderr every N games (default: none)")
    ap.add_argument("--cases", nargs="+", metavar="PATH",
                    help="instead: run these case files through both engines and show where the peer differs")
    ap.add_argument("--serve-ours", action="store_true", help=argparse.SUPPRESS)  # the process OwnProcesses starts
    args = ap.parse_args(argv)
    if args.serve_ours:
        serve(_OursChild().handlers())
        return 0
    if args.cases:
        check_cases(args.cases)
        return 0
    if args.games is None and args.phases is None:
        args.games = 10
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("the diplomacy package is not installed: pip install '.[bench]'", file=sys.stderr)
        return 2
    board = load_variant("standard")
    caches = find_caches(probe(board))  # (here for the memory, breakdown and profile runs)
    rng = random.Random(args.seed)
    stats = Stats(flush_mb=args.flush)
    runs = timed_runs(board, caches, stats, args)
    started = time.perf_counter()
    try:
        while True:
            if args.games is not None and stats.games >= args.games:
                break
            if args.phases is not None and len(stats.ours["Movement"]) >= args.phases:
                break
            play(board, stats, rng, args.years, args.phases, odd=args.odd, memory_sample=args.memory_sample,
                 runs=runs, gc_off=args.gc_off)
            if args.progress and stats.games % args.progress == 0:
                print(f"... {stats.games} games, {len(stats.ours['Movement'])} movement phases, unexplained "
                      f"{stats.unexplained}, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        stats.collections = runs.counted()  # (the games' collections only)
    finally:
        runs.close()
    memory = {k: peak_memory(board, v, caches) for k, v in stats.samples.items() if v}
    elapsed = time.perf_counter() - started
    for line in report(board, stats, args.out, memory, caches):
        print(line)
    if args.breakdown:
        for kind, inputs in stats.samples.items():
            orders = sum(len(inp.orders) for inp in inputs) / max(1, len(inputs))
            print(f"time per {kind.lower()} phase, by part ({len(inputs)} phases, {orders:.0f} orders each; "
                  "GC paused):")
            for line in breakdown(board, inputs, caches):
                print(line)
    if args.profile and stats.samples.get("Movement"):
        print(f"profile of {len(stats.samples['Movement'])} cold movement phases:")
        for line in profile_table(board, stats.samples["Movement"], caches):
            print(line)
    print(f"(wall time {elapsed:.0f} s, seed {args.seed}, {_commit()}, load average {_load()})")
    return 0


def timed_runs(board: Board, caches: Caches, stats: Stats, args: argparse.Namespace) -> HereRuns | OwnProcesses:
    """Where the timed runs happen (this process, or with `--own-processes` one per engine), set up, and said in
    `stats.where`."""
    if not args.own_processes:
        tracked, stats.frozen = objects_held(args.gc_freeze)
        stats.collections = FullCollections()  # (from here: the games' collections only)
        stats.where = (f"both engines in this process, which holds {tracked:,} objects the collector tracks before "
                       "the first game (about 925,000 of them from the peer's import)")
        stats.caches_found = caches.describe()
        return HereRuns(board, caches, CacheFlush(args.flush) if args.flush else None, stats.collections)
    runs = OwnProcesses(args.flush, args.gc_freeze)
    ours, peer = runs.held["ours"], runs.held["peer"]
    if ours["peer"] or peer["ours"]:
        runs.close()
        raise RuntimeError("a timing process holds the other engine too")
    stats.frozen = ours["frozen"] + peer["frozen"]
    stats.where = (f"each engine in a process of its own that holds only it (--own-processes; before the first game "
                   f"this engine's holds {ours['tracked']:,} objects the collector tracks, the peer's "
                   f"{peer['tracked']:,}); positions, orders and outcomes pass between them pickled, untimed")
    stats.caches_found = ours["caches"]
    return runs


def _load() -> str:
    """The machine's load average (1, 5, 15 minutes): other processes share the cores and stretch both engines'
    times (the ratios, timed in the same run, one run after the other, stretch much less)."""
    import os

    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _commit() -> str:
    """The commit measured (and whether the tree had changes), for the README."""
    import subprocess

    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        head, dirty = "", ""
    if not head:  # an exported snapshot (git archive) is no repository: its commit is given as BENCH_COMMIT
        import os

        return f"commit {os.environ.get('BENCH_COMMIT', 'unknown')}"
    return f"commit {head}" + (" with uncommitted changes" if dirty else "")


if __name__ == "__main__":
    sys.exit(main())
