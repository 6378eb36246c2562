"""The timed runs: each phase of a random game adjudicated by this engine cold, in the game and from order
objects, and by the peer, here or each engine in a process of its own; the games played, their times kept.

Part of benchmarks/compare_peer.py (the command line)."""

from __future__ import annotations

import gc
import random
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from adjudicator.catalogue import load_variant
from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.board import Board
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.orders.structured import orders_from_objects
from adjudicator.games.diplomacy.phase import PhaseResult, adjudicate
from adjudicator.games.diplomacy.state import opening_state

from caches import Caches, find_caches
from peer_side import PeerPosition, time_peer
from timing import CacheFlush, FullCollections, objects_held
from workers import Worker
from .classifier import classify, explained
from .phase_input import PhaseInput, our_outcome, peer_spec
from .random_orders import random_orders

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
        here = Path(__file__).resolve().parent.parent  # benchmarks/
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


def _nothing() -> None:
    pass


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
