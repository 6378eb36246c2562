"""Differential test against the `diplomacy` package (the peer): seeded random standard games.

Every phase of a small seeded sample (a few hundred phases of every type, random legal orders plus a share of
odd ones) is adjudicated by this engine and by the peer from the same position and orders; every difference
must be explained by a documented rule difference or peer bug (see benchmarks/README.md and
benchmarks/compare_peer.py). Skipped, with the reason shown, when the peer is not installed.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("diplomacy", reason="the diplomacy package (the peer) is not installed: pip install '.[bench]'")

from tests.helpers import ROOT, benchmark  # noqa: E402


def _compare_peer():
    return benchmark("compare_peer")


@pytest.fixture(scope="module")
def sample():
    cp = _compare_peer()
    from adjudicator.catalogue import load_variant

    board = load_variant("standard")
    stats = cp.Stats()
    rng = random.Random(2024)
    for _ in range(14):
        cp.play(board, stats, rng, years=6, movement_budget=None, odd=0.15, keep_examples=2)
    return cp, stats


def test_sample_covers_every_phase_type(sample):
    _, stats = sample
    assert len(stats.ours["Movement"]) >= 150
    assert len(stats.ours["Retreat"]) >= 10
    assert len(stats.ours["Adjustment"]) >= 60


def test_no_unexplained_differences(sample):
    cp, stats = sample
    lines = []
    for kind, counts in stats.differences.items():
        for cls, n in counts.items():
            if not cp.explained(cls):
                lines.append(f"{kind}: {cls}: {n}")
                for inp, _, diff in stats.examples.get(cls, []):
                    lines.append(f"  {inp.state.phase}: " + "; ".join(diff))
                    lines += [f"    {p}: {t}" for p, t in inp.orders]
    assert stats.unexplained == 0, "unexplained differences with the peer:\n" + "\n".join(lines)


def test_peer_bug_cases_still_differ_and_pass_here():
    """The peer bugs documented in benchmarks/peer_bugs/ are real: this engine passes each case and the peer
    gives another position for the cases that show a bug (the control cases agree)."""
    cp = _compare_peer()
    from adjudicator.games.diplomacy.cases.datc import read_cases
    from adjudicator.games.diplomacy.cases.runner import run_case

    folder = ROOT / "benchmarks" / "peer_bugs"
    for path in sorted(folder.glob("*.txt")):
        for case in read_cases(path):
            assert run_case(case).passed, case.name
    # 1a, 2a, 2b, 3a, 3c, 4, 5a and 5b differ; the controls 1b, 1c, 3b, 3d and 5c agree
    assert cp.check_cases([str(folder)]) == 8


def test_cold_means_cold():
    """The benchmark's cold run empties every cache: the caches it finds hold the texts just read, and after
    emptying them no reading of those texts is left anywhere the engine keeps one."""
    cp = _compare_peer()
    from adjudicator.catalogue import load_variant
    from caches import find_caches

    board = load_variant("standard")
    caches = find_caches(cp.probe(board))
    assert caches.slots, "no cache found: the probe read no new text"
    text = "F nrg S A edi - lvp"  # a text the probe's random orders never write (their supports name coasts' ids)
    cp.parse_order(board, text)
    cp.parse_order(board, text)
    holding = [slot for slot in caches.slots if _holds(slot, text)]
    assert holding, f"no cache found holds {text!r}: {caches.describe()}"
    saved = caches.snapshot()
    caches.empty()
    assert all(size == 0 for size in caches.sizes())
    caches.restore(saved)  # a game's caches come back as they were
    assert all(_holds(slot, text) for slot in holding)


def _holds(slot, text: str) -> bool:
    value = slot.get() if hasattr(slot, "get") else None
    return isinstance(value, dict) and any(text in str(key) for key in value)


def test_a_flush_comes_right_before_every_timed_run(monkeypatch):
    cp = _compare_peer()
    import peer_side
    from adjudicator.catalogue import load_variant

    board = load_variant("standard")
    events: list[str] = []
    real_ours, real_peer = cp.run_ours, peer_side.run_peer
    monkeypatch.setattr(benchmark("differential.timed_runs"), "run_ours", lambda *a, **k: (events.append("ours"), real_ours(*a, **k))[1])
    monkeypatch.setattr(peer_side, "run_peer", lambda *a, **k: (events.append("peer"), real_peer(*a, **k))[1])
    stats = cp.Stats()
    cp.play(board, stats, random.Random(3), years=1, movement_budget=None, gc_off=True,
            runs=cp.HereRuns(board, flush=lambda: events.append("flush")))
    phases = sum(len(v) for v in stats.peer.values())
    # the first phase: cold, game, structured and cold with the collector paused, then the peer and the peer
    # paused; then ours once more, untimed, for the classifier and the next position
    assert events[:13] == ["flush", "ours"] * 4 + ["flush", "peer"] * 2 + ["ours"]
    assert phases >= 2 and events.count("flush") == 6 * phases  # (the classifier's own runs are not timed)
    assert len(cp.CacheFlush(1).buffer) == 1 << 20


def test_no_timed_run_starts_with_the_result_of_the_one_before(monkeypatch):
    """Each run's result is let go as soon as its fingerprint is taken: held, the young objects of the cold
    and game results made the structured run pass the threshold of a young collection more often."""
    import gc

    cp = _compare_peer()
    from adjudicator.catalogue import load_variant
    from adjudicator.games.diplomacy.phase import PhaseResult

    def results_alive() -> int:
        return sum(isinstance(o, PhaseResult) for o in gc.get_objects())

    board = load_variant("standard")
    inp = cp.random_orders(board, cp.opening_state(board), random.Random(7))
    timer = cp.OurTimer(board, cp.Caches(), lambda: None, lambda run, call: call())
    real, alive = cp.run_ours, []
    monkeypatch.setattr(benchmark("differential.timed_runs"), "run_ours", lambda *a, **k: (alive.append(results_alive()), real(*a, **k))[1])
    before = results_alive()
    seconds, paused, prints = timer.run(inp, gc_off=False)
    monkeypatch.undo()
    assert alive == [before] * 3  # no run found an earlier run's result alive
    assert len(seconds) == 3 and paused is None and all(isinstance(f, str) for f in prints)
    result, _ = cp.run_ours(board, inp)
    assert prints == [cp.our_outcome(result).fingerprint()] * 3


def test_a_fingerprint_is_the_outcome_whatever_the_order_it_was_built_in():
    cp = _compare_peer()
    units = [("England", "F", "lon"), ("France", "A", "par"), ("Russia", "F", "stp/sc")]
    a = cp.Outcome(frozenset(units), frozenset(), frozenset({("lon", "England")}), "Fall 1901 Movement")
    b = cp.Outcome(frozenset(reversed(units)), frozenset(), frozenset({("lon", "England")}), "Fall 1901 Movement")
    c = cp.Outcome(frozenset(units[:2]), frozenset(), frozenset({("lon", "England")}), "Fall 1901 Movement")
    assert a.fingerprint() == b.fingerprint() != c.fingerprint()
    assert cp.Outcome(a.units, a.dislodged, a.centres, "Fall 1901 Retreat").fingerprint() != a.fingerprint()


def test_each_engine_can_be_timed_in_a_process_that_holds_only_it(capsys, tmp_path):
    cp = _compare_peer()
    assert cp.main(["--phases", "2", "--years", "1", "--seed", "5", "--memory-sample", "0", "--own-processes",
                    "--gc-off", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "timed: each engine in a process of its own that holds only it" in out
    assert "unexplained differences: 0" in out and "GC paused" in out
    assert "Board._routes" in out  # the caches, as the process that timed this engine found them


def test_a_worker_that_fails_says_where_and_why():
    import sys

    workers = benchmark("workers")
    Worker, WorkerError = workers.Worker, workers.WorkerError
    worker = Worker([sys.executable, str(ROOT / "benchmarks" / "peer_side.py")])
    try:
        with pytest.raises(WorkerError, match="failed in 'nothing-like-it':\nno call named 'nothing-like-it' here; "
                                              "the calls are collections, peer, setup"):
            worker.call("nothing-like-it")
        assert worker.call("setup", 0, False)["ours"] is False  # the peer's process holds no part of this engine
        with pytest.raises(WorkerError, match="(?s)failed in 'peer':.*Traceback.*AttributeError"):
            worker.call("peer", None, {}, False)  # a position that is none
        assert worker.call("setup", 0, False)["tracked"] > 0  # and the worker goes on answering
    finally:
        worker.close()
    with pytest.raises(WorkerError, match="stopped"):
        worker.call("setup", 0, False)


def test_the_report_gives_the_goals_by_median_too(sample):
    cp, stats = sample
    from adjudicator.catalogue import load_variant

    lines = cp.report(load_variant("standard"), stats, None, {})
    median = next(line for line in lines if line.startswith("the same by the median phase"))
    want = cp._ms(stats.peer["Movement"], .5) / cp._ms(stats.times("structured")["Movement"], .5)
    assert f"movement structured {want:.1f}x" in median and "movement cold" in median


def test_gc_freeze_and_flush_are_reported(capsys, tmp_path):
    import gc

    cp = _compare_peer()
    try:
        assert cp.main(["--phases", "2", "--years", "1", "--seed", "5", "--memory-sample", "0", "--gc-freeze",
                        "--flush", "1", "--out", str(tmp_path)]) == 0
    finally:
        gc.unfreeze()
    out = capsys.readouterr().out
    assert "--gc-freeze: " in out and "objects that existed before the first game" in out
    assert "--flush: before every timed run of either engine, 1 MiB" in out


def test_a_case_file_the_engine_cannot_run_is_named_not_a_traceback(tmp_path, capsys):
    cp = _compare_peer()
    bad = tmp_path / "bad.txt"
    bad.write_text("VARIANT_ALL Standard\nCASE two units\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n"
                   "\tRussia: F con\nORDERS\n\tRussia: F con H\nPOSTSTATE\n\tRussia: F con\n\tTurkey: A con\n"
                   "END\n", encoding="utf-8")
    assert cp.check_cases([str(bad)]) == 0
    assert "two units: cannot be run: " in capsys.readouterr().out


def test_the_probe_finds_the_caches_of_rare_orders_too():
    cp = _compare_peer()
    from adjudicator.catalogue import load_variant
    from caches import find_caches

    from adjudicator.games.diplomacy.orders import parse

    board = load_variant("standard")
    # As in a fresh process (the benchmark looks once, at its start): earlier tests may have filled these caches
    # to their bounds, and a cache that clears itself when full does not look as if it grew.
    parser = parse.parser_for(board)
    for cache in (parser.readings, parser.refs, parse._SHAPES, board._routes):
        cache.clear()
    found = find_caches(cp.probe(board)).describe()
    for name in ("OrderParser.readings", "OrderParser.refs", "parse._SHAPES", "Board._routes"):
        assert name in found  # a unit named with its power, an order longer than the shape table's


def test_full_collections_are_counted_by_the_run_they_land_in():
    import gc

    cp = _compare_peer()
    watch = cp.FullCollections()
    gc.disable()  # only the collections asked for below
    try:
        watch.timing("structured", lambda: gc.collect(2))
        gc.collect(2)
        gc.collect(1)  # not the whole heap: counted apart, with the young ones
        watch.timing("cold", lambda: gc.collect(0))
    finally:
        gc.enable()
        watch.close()
    assert watch.count == {"structured": 1, "untimed": 1} and watch.seconds["structured"] > 0
    assert watch.young == {("untimed", 1): 1, ("cold", 0): 1} and watch.young_seconds["cold"] > 0
    assert watch._event not in gc.callbacks
    whole, young = watch.describe().split("\n")
    assert whole.startswith("collections of the whole heap: 2 in all")
    assert young.startswith("young collections (generation 0 + generation 1) by the run they landed in: cold 1 + 0")
    assert "untimed 0 + 1" in young and "the count of new objects at the start of each run" in young
    assert len(watch.starts["structured"]) == len(watch.starts["cold"]) == 1
