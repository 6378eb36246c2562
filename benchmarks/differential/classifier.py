"""The differences classified: a difference is explained when one of the documented rule differences or peer
bugs, emulated (emulations.py), accounts for all of it.

Part of benchmarks/compare_peer.py (the command line)."""

from __future__ import annotations

from typing import Any

from adjudicator.games.diplomacy.board import Board, split_location
from adjudicator.games.diplomacy.phase import PhaseResult

from peer_side import Outcome, our_loc, peer_outcome, run_peer
from .emulations import (_civil_disorder, _drop_peer_refused, _fallback, _last_order, _reduced_swaps,
                         _retreat_illegal_first, _self_supports, _support_coast_dropped, our_refused, ours_with,
                         peer_refused)
from .phase_input import PhaseInput, our_outcome, peer_position

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
_TRANSFORMS = [("peer-refuses", _drop_peer_refused), ("several-orders", _last_order),
               ("convoy-fallback", _fallback), ("civil-disorder", _civil_disorder),
               ("peer-bug:h2h-self-support", _reduced_swaps), ("bug-here:retreat-illegal-first", _retreat_illegal_first),
               ("peer-bug:support-wrong-coast", _support_coast_dropped)]


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
