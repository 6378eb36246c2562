"""The differential classifier of benchmarks/compare_peer.py: its cache of the peer's outcomes.

The classifier runs the peer under several variants of a phase (orders kept, bugs emulated) and compares each
with this engine's result under an emulated rule. The peer's normalised outcome depends on this engine's
standoff provinces (peer bug 2: the peer's retreats into them are removed), so two emulations with different
standoffs must not share a cached outcome. Skipped when the peer is not installed.
"""

from __future__ import annotations


import pytest

pytest.importorskip("diplomacy", reason="the diplomacy package (the peer) is not installed: pip install '.[bench]'")

from conftest import ROOT, benchmark  # noqa: E402


@pytest.fixture(scope="module")
def cp():
    return benchmark("compare_peer")


@pytest.fixture(scope="module")
def convoy_retreat_phase(cp):
    """Peer bug 2a: a Russian fleet dislodged by a convoyed army, Rumania contested (Austria and Turkey bounce)."""
    from adjudicator.cases.datc import read_cases
    from adjudicator.cases.runner import build_state
    from adjudicator.catalogue import load_variant

    board = load_variant("standard")
    case = read_cases(ROOT / "benchmarks" / "peer_bugs" / "2_convoy_retreats.txt")[0]
    state = build_state(board, case, [])
    orders = [(board.power_names.lookup(line.power), line.text) for line in case.get("ORDERS")]
    inp = cp.PhaseInput(state, orders, [cp.peer_order(cp.parse_order(board, t)) for _, t in orders])
    return board, inp


def _indexed(inp):
    return [(i, p, t) for i, (p, t) in enumerate(inp.orders)]


def test_normalised_outcome_is_not_reused_across_standoffs(cp, convoy_retreat_phase):
    board, inp = convoy_retreat_phase
    with_standoff = cp.ours_with(board, inp, _indexed(inp))
    assert with_standoff.contested == ["rum"]
    # This engine's side under another emulation: Austria's move taken out, so Rumania is no standoff.
    no_standoff = cp.ours_with(board, inp, [x for x in _indexed(inp) if x[2] != "A bud - rum"])
    assert "rum" not in no_standoff.contested

    runs = cp.PeerRuns(board, inp)
    first = runs.outcome(None, True, with_standoff)
    second = runs.outcome(None, True, no_standoff)
    (power, kind, loc, retreats), = first.dislodged
    assert (power, kind, loc) == ("Russia", "F", "sev")
    assert retreats == ("arm",)  # Black Sea occupied, Rumania a standoff of this engine's result
    # The same peer run normalised against a result without the standoff keeps Rumania (only occupied
    # provinces go): a cache keyed without the standoffs returned `first` here.
    assert second.dislodged != first.dislodged
    assert {o for *_, options in second.dislodged for o in options} == {"arm", "rum"}
    assert runs.runs == 2


def test_cache_still_saves_identical_runs(cp, convoy_retreat_phase):
    board, inp = convoy_retreat_phase
    result = cp.ours_with(board, inp, _indexed(inp))
    runs = cp.PeerRuns(board, inp)
    assert runs.outcome(None, False, result) == runs.outcome(None, False, result)
    assert runs.outcome({0, 1, 2}, True, result) == runs.outcome({2, 1, 0}, True, result)
    assert runs.runs == 2


def test_key_holds_everything_the_outcome_depends_on(cp, convoy_retreat_phase):
    board, inp = convoy_retreat_phase
    a = cp.ours_with(board, inp, _indexed(inp))
    b = cp.ours_with(board, inp, [x for x in _indexed(inp) if x[2] != "A bud - rum"])
    key = cp.PeerRuns.key
    assert key(None, True, a) != key(None, True, b)
    assert key({1}, True, a) != key({2}, True, a)
    assert key(None, True, a) != key(None, False, a)
    assert key(None, False, a) == key(None, False, b)  # unnormalised: our standoffs play no part


def test_classifier_explains_the_convoy_retreat_bug(cp, convoy_retreat_phase):
    board, inp = convoy_retreat_phase
    result, _ = cp.run_ours(board, inp)
    game = cp.peer_position(board, inp)
    cp.run_peer(game, inp.peer_orders())
    ours, peer = cp.our_outcome(result), cp.peer_outcome(game)
    assert ours != peer
    assert cp.classify(board, inp, result, ours, peer) == "peer-bug:convoy-retreats"
