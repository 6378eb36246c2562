"""Case files: a differing phase written as a case in the project's format, and case files run through both
engines (--cases).

Part of benchmarks/compare_peer.py (the command line)."""

from __future__ import annotations

from typing import Any

from adjudicator.catalogue import load_variant
from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.board import ARMY, Board
from adjudicator.games.diplomacy.judge.retreat import retreat_options
from adjudicator.games.diplomacy.orders.parse import parse_order
from adjudicator.games.diplomacy.phase import PhaseResult

from peer_side import peer_outcome, run_peer
from .phase_input import PhaseInput, our_outcome, peer_order, peer_position
from .timed_runs import run_ours

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


def case_input(board: Board, case: Any, rules: str | None = None) -> PhaseInput:
    """A case's phase as both engines get it (its position under `rules`, or the default's: the case's own RULES
    lines are the caller's to apply), the retreat options the peer is given this engine's."""
    from adjudicator.games.diplomacy.cases.runner import build_state

    state = build_state(board, case, [])
    state.set_rules(board, rules)
    orders = [(board.power_names.lookup_lenient(line.power)[0], line.text) for line in case.get("ORDERS")]
    inp = PhaseInput(state, orders, [peer_order(parse_order(board, t)) for _, t in orders])
    if state.phase.type == "Retreat":
        occupied = set(state.units)
        inp.retreats = {p: retreat_options(board, state.phase.season, d, occupied, state.contested,
                                           state.rule_options(board)) for p, d in state.dislodged.items()}
    return inp


def check_cases(paths: list[str]) -> int:
    """Run case files through both engines and print where the peer's position differs from this engine's
    (and from the case's expected position, which is this engine's when the case passes)."""
    from adjudicator.games.diplomacy.cases.datc import read_cases
    from adjudicator.case_files import collect_files
    from adjudicator.games.diplomacy.cases.runner import run_case

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
                inp = case_input(board, case)
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
