"""Instructions per movement phase, by part, counted by callgrind: a figure that does not drift with the machine.

    python benchmarks/instructions.py                      # every part, 150 phases of seed 5
    python benchmarks/instructions.py --parts cold objects --phases 100 --seed 7

Timings on a shared machine drift by a factor 2 from minute to minute; the count of instructions a part runs
does not (the hash seed is fixed). It is no time: a cache miss costs no instruction, so use it to compare two
commits of this engine on the same work, and the timed benchmarks to compare with the peer. Each part is run
twice under `valgrind --tool=callgrind`, over no phases and over `--phases` phases of seeded random standard
games (compare_peer's order generator, odd orders included), and the difference is divided by the phases: the
start of the process (imports, the board, the table of shapes) is not counted.

Parts: `cold` and `structured` (a whole phase as compare_peer times it: every cache emptied and the orders read
from text, or the orders read from objects), `text` and `objects` (the reading alone), `check`
(check_position), `validate` (movement_commands), `judge` (MovementJudge.run, from validated commands),
`adjudicate` (adjudicate() from read orders) and `calendar` (the next phase found, centres and victory;
with the copy of the state it changes).
Needs valgrind (Debian's package); without it the script says so. Each part is two processes that set up the phases
under valgrind, two parts at a time: all the parts take about half an hour on a 2-core machine.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("cold", "structured", "text", "objects", "check", "validate", "judge", "adjudicate", "calendar")


def _inputs(phases: int, seed: int) -> list:
    """(state, order texts, order objects) of `phases` movement phases of seeded random games."""
    import compare_peer as cp

    board = cp.load_variant("standard")
    rng = random.Random(seed)
    out: list = []
    state = cp.opening_state(board)
    while len(out) < phases:
        inp = cp.random_orders(board, state, rng, 0.1)
        result, _ = cp.run_ours(board, inp)
        if state.phase.type == "Movement":
            out.append((state, list(inp.orders), inp.objects))
        state = cp.opening_state(board) if result.winner else result.next_state
    return out


def child(part: str, phases: int, seed: int, count: int) -> None:
    """Set up `phases` phases, then run `part` over the first `count` of them (the process callgrind counts)."""
    sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
    import compare_peer as cp
    from caches import find_caches

    from adjudicator.games.diplomacy import phase as phase_module
    from adjudicator.games.diplomacy.judge.movement import MovementJudge
    from adjudicator.games.diplomacy.orders.parse import parse_order
    from adjudicator.games.diplomacy.orders.structured import orders_from_objects
    from adjudicator.games.diplomacy.orders.validate import every_unit_command, movement_commands
    from adjudicator.games.diplomacy.state import check_position

    board = cp.load_variant("standard")
    caches = find_caches(cp.probe(board))
    work = []
    for state, texts, objects in _inputs(phases, seed):
        orders = orders_from_objects(board, objects).orders
        commands, _ = every_unit_command(board, state, orders)
        after = phase_module.adjudicate(board, state, orders).next_state.copy(phase=state.phase)
        work.append((state, texts, objects, orders, commands, after))
    caches.empty()
    gc.collect()
    season = lambda state: state.phase.season  # noqa: E731
    runs = {
        "cold": lambda w: (caches.empty(), phase_module.adjudicate(board, w[0], [parse_order(board, t, power=p)
                                                                              for p, t in w[1]])),
        "structured": lambda w: phase_module.adjudicate(board, w[0], orders_from_objects(board, w[2]).orders),
        "text": lambda w: (caches.empty(), [parse_order(board, t, power=p) for p, t in w[1]]),
        "objects": lambda w: orders_from_objects(board, w[2]),
        "check": lambda w: check_position(board, w[0]),
        "validate": lambda w: movement_commands(board, w[0], w[3]),
        "judge": lambda w: MovementJudge(board, season(w[0]), dict(w[4])).run(),
        "adjudicate": lambda w: phase_module.adjudicate(board, w[0], w[3]),
        "calendar": lambda w: phase_module._advance(board, w[5].copy(), phase_module.PhaseResult(w[0].phase, [], w[0])),
    }
    run = runs[part]
    for w in work[:count]:
        run(w)


def _collected(part: str, phases: int, seed: int, count: int) -> int:
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
               "--child", part, "--phases", str(phases), "--seed", str(seed), "--count", str(count)]
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed on part {part!r}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_phase(part: str, phases: int, seed: int) -> float:
    """Instructions per phase of one part: over `phases` phases, less over none."""
    return (_collected(part, phases, seed, phases) - _collected(part, phases, seed, 0)) / phases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--phases", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--child", choices=PARTS, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phases < 1:
        parser.error("--phases must be at least 1")
    if args.child:
        child(args.child, args.phases, args.seed, args.count)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind); it counts the instructions",
              file=sys.stderr)
        return 2
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # each part is a pair of processes
        counts = dict(zip(args.parts, pool.map(lambda p: per_phase(p, args.phases, args.seed), args.parts)))
    print(f"instructions per movement phase (callgrind; {args.phases} phases of seed {args.seed}, the start of "
          "the process not counted):")
    for part, n in counts.items():
        print(f"  {part:<11} {n / 1e6:6.3f} million")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "?"
    print(f"(commit {commit})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
