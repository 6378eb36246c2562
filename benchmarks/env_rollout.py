"""The research environment's speed: phases per second of random-policy rollouts, and the batch judge's positions
per second, each against a baseline timed in the same run.

    python benchmarks/env_rollout.py                          # 2,000 phases, 2,000 positions, 2 processes
    python benchmarks/env_rollout.py --phases 5000 --variant arctic --peer-phases 0

Rollouts: games of random legal orders (one random index per slot, `infos[power]["legal_orders"]`) of up to
`--years` years, reset at each end, through `adjudicator.env.parallel_env` (observations, masks, rewards and all);
beside them, in the same run, the same games played without the environment (`legal_order_lists` and
`adjudicate` alone: what the environment adds), and the `diplomacy` package's random loop from its README
(`get_all_possible_orders`, `set_orders`, `process`) on the standard board, as the peer a Python user would reach
for. The batch judge: the rollouts' (position, orders) pairs judged one by one (`adjudicate`), by `judge_many` in
this process, and by a `BatchJudge` of `--processes` workers (started before the clock, and its start-up timed
apart). Each figure is the best of `--rounds` runs, in CPU seconds of this process (the machine is shared, and
wall time swings with the other work on it); the batch judge's rows give wall time too, the only time of the
workers.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adjudicator.batch import BatchJudge, judge_many  # noqa: E402
from adjudicator.catalogue import load_variant  # noqa: E402
from adjudicator.env import parallel_env  # noqa: E402
from adjudicator.games.diplomacy.judge.adjustment import adjustments_due, buildable_units  # noqa: E402
from adjudicator.games.diplomacy.legal import legal_order_lists  # noqa: E402
from adjudicator.games.diplomacy.phase import adjudicate  # noqa: E402
from adjudicator.games.diplomacy.state import opening_state  # noqa: E402


def env_rollout(variant: str, phases: int, years: int, seed: int, jobs: list | None = None) -> float:
    """CPU seconds for `phases` phases of random legal orders through the environment (`jobs`: gets each phase's
    position and orders, for the batch judge)."""
    env = parallel_env(variant, max_years=years, seed=seed)
    rng, done = random.Random(seed), 0
    started = time.process_time()
    while done < phases:
        _, infos = env.reset()
        while env.agents and done < phases:
            actions = {a: [rng.randrange(len(o)) for o in infos[a]["legal_orders"]] for a in env.agents}
            if jobs is not None:
                jobs.append((env.position, [infos[a]["legal_orders"][s][i] for a, ix in actions.items()
                                            for s, i in enumerate(ix)]))
            _, _, _, _, infos = env.step(actions)
            done += 1
    return time.process_time() - started


def bare_rollout(variant: str, phases: int, years: int, seed: int) -> float:
    """CPU seconds for the same kind of games without the environment: the legal lists and the judge alone."""
    board = load_variant(variant)
    rng, done = random.Random(seed), 0
    started = time.process_time()
    while done < phases:
        state = opening_state(board)
        last = state.phase.year + years
        while done < phases and state.phase.year < last:
            dues = adjustments_due(state, board.powers) if state.phase.type == "Adjustment" else {}
            orders = []
            for power in board.powers:
                lists = legal_order_lists(board, state, power)
                if state.phase.type != "Adjustment":
                    orders += [rng.choice(o) for o in lists.values()]
                elif dues[power] > 0:
                    count = min(dues[power], len({u.province for u in buildable_units(board, state, power)}))
                    orders += [rng.choice(lists["builds"]) for _ in range(count)]
                elif dues[power] < 0:
                    orders += [rng.choice(lists["removals"]) for _ in range(-dues[power])]
            result = adjudicate(board, state, orders)
            state = result.next_state
            done += 1
            if result.winner:
                break
    return time.process_time() - started


def peer_rollout(phases: int, years: int, seed: int) -> float:
    """CPU seconds for `phases` phases of the `diplomacy` package's random loop (its README's), standard board."""
    from diplomacy import Game

    rng, done = random.Random(seed), 0
    started = time.process_time()
    while done < phases:
        game = Game()
        last = 1901 + years
        while done < phases and not game.is_game_done and int(game.get_current_phase()[1:5]) < last:
            possible = game.get_all_possible_orders()
            for power in game.powers:
                game.set_orders(power, [rng.choice(possible[loc]) for loc in game.get_orderable_locations(power)
                                        if possible[loc]])
            game.process()
            done += 1
    return time.process_time() - started


def best(call, rounds: int) -> float:
    return min(call() for _ in range(rounds))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--phases", type=int, default=2000, help="phases of rollouts timed")
    ap.add_argument("--years", type=int, default=20, help="years a rollout game lasts at most")
    ap.add_argument("--peer-phases", type=int, default=1000,
                    help="phases of the diplomacy package's random loop (standard board; 0: skip)")
    ap.add_argument("--batch", type=int, default=2000, help="positions judged by the batch judge")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"random-policy rollouts: {args.variant}, {args.phases} phases (games of up to {args.years} years), "
          f"seed {args.seed}, best of {args.rounds}")
    ours = best(lambda: env_rollout(args.variant, args.phases, args.years, args.seed), args.rounds)
    bare = best(lambda: bare_rollout(args.variant, args.phases, args.years, args.seed), args.rounds)
    rows = [("the environment (parallel_env, step)", args.phases, ours),
            ("without it (legal_order_lists, adjudicate)", args.phases, bare)]
    if args.peer_phases:
        rows.append(("the peer's random loop (standard)", args.peer_phases,
                     best(lambda: peer_rollout(args.peer_phases, args.years, args.seed), args.rounds)))
    print(f"{'':44} {'phases':>7} {'CPU s':>8} {'phases/s':>9} {'env x':>7}")
    for name, count, seconds in rows:
        print(f"{name:44} {count:>7} {seconds:>8.2f} {count / seconds:>9.0f} {(args.phases / ours) / (count / seconds):>6.2f}x")

    jobs: list = []
    env_rollout(args.variant, args.batch, args.years, args.seed + 1, jobs)
    board = load_variant(args.variant)
    kinds = {k: sum(1 for s, _ in jobs if s.phase.type == k) for k in ("Movement", "Retreat", "Adjustment")}
    print(f"\nbatch judge: {len(jobs)} positions of those rollouts ({', '.join(f'{n} {k}' for k, n in kinds.items())})")
    calls = {"one by one (adjudicate)": lambda: [adjudicate(board, s, o) for s, o in jobs],
             "one by one, each report written": lambda: [adjudicate(board, s, o).report for s, o in jobs],
             "judge_many, in this process": lambda: judge_many(board, jobs)}
    judge = None
    if args.processes > 1:
        started = time.perf_counter()
        judge = BatchJudge(board, args.processes)
        judge.judge(jobs[:args.processes])  # (every worker has the board and its imports)
        start_up = time.perf_counter() - started
        calls[f"BatchJudge, {args.processes} processes (started)"] = lambda: judge.judge(jobs)
    walls = {name: float("inf") for name in calls}
    cpus = dict(walls)
    for _ in range(args.rounds):  # (the rounds interleaved: a slow minute of the machine slows each alike)
        for name, call in calls.items():
            wall, cpu = _timed(call)
            walls[name], cpus[name] = min(walls[name], wall), min(cpus[name], cpu)
    if judge is not None:
        judge.close()
    single = cpus["one by one (adjudicate)"]
    print(f"{'':44} {'CPU s':>7} {'positions/s':>12} {'ratio':>7} {'wall s':>7} {'positions/s':>12}")
    for name in calls:
        print(f"{name:44} {cpus[name]:>7.3f} {len(jobs) / cpus[name]:>12.0f} {single / cpus[name]:>6.2f}x "
              f"{walls[name]:>7.3f} {len(jobs) / walls[name]:>12.0f}")
    if args.processes > 1:
        print(f"(CPU: this process's; the workers' own is not counted, so the processes' row has only what the "
              f"parent spends sending positions and reading results back. Starting the {args.processes} workers "
              f"took {start_up:.2f} s; each result comes back with its report written, which judging in this "
              "process leaves until it is read)")
    return 0


def _timed(call) -> tuple[float, float]:
    """(wall, CPU) seconds of a call."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


if __name__ == "__main__":
    sys.exit(main())
