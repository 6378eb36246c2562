"""The `diplomacy` package's own answers to DATC chapter 4 (the rule set `diplomacy-package`), found on the DATC option
cases and checked on games the package played.

    python benchmarks/package_rules.py                     # both parts: the option cases, and the fixture's games
    python benchmarks/package_rules.py --games g.jsonl.gz --sets datc-3.0,datc-2.4,diplomacy-package --show 20
    python benchmarks/package_rules.py --cases datc_cases/options/ datc_cases/standard/ --no-games
    python benchmarks/package_rules.py --no-cases --answers   # and the set with each other answer the records show

Part 1, the DATC option cases (datc_cases/options/: for each answer of chapter 4 that is not DATC v3.0's, cases of
chapter 6 whose result that answer changes): each case's position and orders through the package (a fresh
`diplomacy.Game` given the position, `set_orders`, `process`: benchmarks/differential/cases.py) and through this
judge under DATC v3.0, under the case's own rules and under `diplomacy-package`; and, for each key the case's rules
change, the answers of that key (the others DATC v3.0's) under which this judge gives the package's result.

Part 2, the recorded games (default: tests/data/package_games.jsonl.gz, 200 games of benchmarks/package_games.py on
four maps): every recorded phase's position (units, dislodged units and their retreats, centres, as the record
writes them) is judged again by this judge with the phase's recorded orders, under each rule set, and compared with
the record's next phase (units, dislodged units with their retreat options, centre owners, phase name). A phase that
differs under a set is put down to the single key of `diplomacy-package` that makes it agree, when one does. The
records hold the orders as the package kept them (`Game.get_orders`: one order a unit, no VOID or WAIVE), so what
the package decides while reading orders (DATC 4.D.3, 4.D.5, 4.D.7, 4.C.x) shows in part 1 only.

Part 3, removals in civil disorder (DATC 4.D.8, `--removals N` per map): random positions on the four maps in which
a power sending no orders must remove units, through the package and this judge under datc-3.0, datc-2.4 and
`diplomacy-package`: the positions whose removals differ.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "benchmarks"):
    if str(_path) not in sys.path:  # run from a checkout without installing; the benchmarks' own modules
        sys.path.insert(0, str(_path))

from adjudicator.catalogue import load_variant  # noqa: E402
from adjudicator.errors import AdjudicatorError  # noqa: E402
from adjudicator.games.diplomacy.board import ARMY, FLEET, Board  # noqa: E402
from adjudicator.games.diplomacy.orders.parse import parse_order  # noqa: E402
from adjudicator.games.diplomacy.phase import adjudicate  # noqa: E402
from adjudicator.games.diplomacy.records.notation import Notation, notation  # noqa: E402
from adjudicator.games.diplomacy.records.recorded import RecordedPhase, position  # noqa: E402
from adjudicator.games.diplomacy.rulebook import DATC_KEYS, RulesError, rulebook_from_text  # noqa: E402
from adjudicator.games.diplomacy.state import GameState, Phase, Unit  # noqa: E402
from peer_side import Outcome  # noqa: E402
from differential.phase_input import PHASE_TYPES, our_outcome  # noqa: E402

FIXTURE = ROOT / "tests" / "data" / "package_games.jsonl.gz"
MAPS = ("standard", "ancmed", "modern", "pure")
SET = "diplomacy-package"
DEFAULT_SETS = ("datc-3.0", "datc-2.4", SET)
ANSWER_KEYS = ("4.A.3", "4.D.4", "4.D.6", "4.D.8")  # the keys whose answers the recorded orders show


# ----- part 1: the DATC option cases ----------------------------------------------------------------------------
@dataclass
class CaseVerdict:
    """One option case: whether this judge gives the package's result under each rules text (`yes`; `bug 2`: once
    the package's peer bug 2 is undone, benchmarks/README.md; `-`: not), and the answers of each key the case's
    rules change under which it does."""

    name: str
    agrees: dict[str, str]  # rules text -> yes, bug 2 or -
    answers: dict[str, list[str]]  # key -> the answers (the other keys DATC v3.0's) giving the package's result


def option_cases(paths: list[str]) -> Iterator[CaseVerdict]:
    """Every text case of the paths through the package and this judge (see the module's first lines)."""
    from adjudicator.case_files import collect_files
    from adjudicator.games.diplomacy.cases.datc import read_cases
    from differential.cases import case_input
    from differential.classifier import _normalised_peer
    from differential.phase_input import peer_position
    from differential.timed_runs import run_ours
    from peer_side import peer_outcome, run_peer

    board = load_variant("standard")
    for path in collect_files(paths):
        if path.suffix != ".txt":
            continue
        for case in read_cases(path):
            own = ", ".join(case.rules) or "datc-3.0"

            def played() -> Any:
                game = peer_position(board, case_input(board, case))
                run_peer(game, case_input(board, case).peer_orders())
                return game

            try:
                peer = peer_outcome(played())

                def verdict(rules: str) -> str:
                    inp = case_input(board, case, rules)
                    result = run_ours(board, inp)[0]
                    if our_outcome(result) == peer:
                        return "yes"
                    return "bug 2" if our_outcome(result) == _normalised_peer(board, inp, played(), result) else "-"

                agrees = {rules: verdict(rules) for rules in ("datc-3.0", own, SET)}
                changed = rulebook_from_text(own).differences()
                answers = {key: [v for v in DATC_KEYS[key][1] if verdict(f"{key}: {v}") != "-"]
                           for key in changed if key in DATC_KEYS}
            except AdjudicatorError as exc:
                print(f"{path.name}: {case.name}: cannot be run: {exc}", file=sys.stderr)
                continue
            yield CaseVerdict(f"{case.name}", agrees, answers)


def print_cases(verdicts: list[CaseVerdict]) -> None:
    """The option cases' table: the package's result is this judge's under which rules."""
    print("DATC option cases: the package's result is this judge's under (yes; bug 2: once the package's peer bug 2 "
          "is undone; -: no)")
    print(f"{'case':<78} {'datc-3.0':>8} {'its rules':>9} {SET:>17}   the key's answers that give it")
    for v in verdicts:
        own = [r for r in v.agrees if r not in ("datc-3.0", SET)]
        marks = [v.agrees["datc-3.0"], v.agrees[own[0]] if own else v.agrees["datc-3.0"], v.agrees[SET]]
        answers = "; ".join(f"{k}: {', '.join(a) or 'none of its answers'}" for k, a in v.answers.items())
        print(f"{v.name[:78]:<78} {marks[0]:>8} {marks[1]:>9} {marks[2]:>17}   {answers}")
    counts = {rules: Counter(v.agrees[rules] for v in verdicts) for rules in ("datc-3.0", SET)}
    print(f"cases: {len(verdicts)}; the package's result under datc-3.0: {_counted(counts['datc-3.0'])}; under {SET}: "
          f"{_counted(counts[SET])}")


def _counted(marks: Counter) -> str:
    return f"{marks['yes']} yes, {marks['bug 2']} with peer bug 2 undone, {marks['-']} no"


# ----- part 2: the recorded games -------------------------------------------------------------------------------
@dataclass
class RecordedStep:
    """One recorded phase to judge: the game, the position, the recorded orders, and the record's next position."""

    game: str
    map: str
    name: str
    state: GameState
    orders: list[tuple[str, str]]  # (our power, the order as recorded)
    recorded: Outcome


@dataclass
class Tally:
    """One rule set's verdicts on the recorded phases."""

    agree: Counter = field(default_factory=Counter)  # phase type -> phases agreeing
    differ: Counter = field(default_factory=Counter)
    causes: Counter = field(default_factory=Counter)  # the diplomacy-package key that makes a phase agree
    shown: list[str] = field(default_factory=list)


def recorded_outcome(names: Notation, data: dict[str, Any], name: str, where: str) -> Outcome:
    """A recorded phase's position in the form this judge's results are compared in."""
    units, dislodged, centres = set(), set(), set()
    for power_name, texts in data["units"].items():
        power = names.our_power(power_name, where)
        table = data.get("retreats", {}).get(power_name, {})
        for text in texts:
            unit_type, place = text.lstrip("*").split()
            location = names.our_place(place, where)
            if text.startswith("*"):
                options = tuple(sorted(names.our_place(p, where) for p in table.get(text.lstrip("*"), ())))
                dislodged.add((power, unit_type, location, options))
            else:
                units.add((power, unit_type, location))
    for power_name, places in data["centers"].items():
        for place in places:
            centres.add((names.our_place(place, where), names.our_power(power_name, where)))
    phase = "COMPLETED" if name == "COMPLETED" else str(names.our_phase(name, where))
    return Outcome(frozenset(units), frozenset(dislodged), frozenset(centres), phase)


def recorded_phases(path: Path) -> Iterator[RecordedStep]:
    """Every played phase of every game of a saved-game JSONL file (gzip when it ends in `.gz`)."""
    opener: Any = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            saved = json.loads(line)
            board = load_variant(saved["map"])
            names = notation(board)
            before: RecordedPhase | None = None
            phases = saved["phases"]
            for now, after in zip(phases, phases[1:]):
                where = f"{saved['id']} {now['name']}"
                state = position(names, now["state"], names.our_phase(now["name"], where), before, {}, where)
                orders = [(names.our_power(p, where), text) for p, texts in now["orders"].items() for text in texts or ()]
                yield RecordedStep(saved["id"], saved["map"], now["name"], state, orders,
                            recorded_outcome(names, after["state"], after["name"], where))
                before = RecordedPhase(now["name"], state, {p: [t for q, t in orders if q == p] for p, _ in orders})


def judged(board: Board, phase: RecordedStep, rules: str) -> Outcome:
    """This judge's outcome of a recorded phase under a rules text."""
    state = phase.state.copy()
    state.set_rules(board, rules)
    orders = [parse_order(board, text, power=power) for power, text in phase.orders]
    return our_outcome(adjudicate(board, state, orders))


def compare_games(path: Path, sets: list[str], show: int) -> tuple[dict[str, Tally], Counter, Counter]:
    """Each set's tally over the file's phases, the phases by type and the games by map."""
    tallies = {name: Tally() for name in sets}
    phases: Counter = Counter()
    maps: Counter = Counter()
    seen: set[str] = set()
    package = rulebook_from_text(SET)
    for phase in recorded_phases(path):
        board = load_variant(phase.map)
        kind = phase.state.phase.type
        phases[kind] += 1
        if phase.game not in seen:
            seen.add(phase.game)
            maps[phase.map] += 1
        for name in sets:
            tally = tallies[name]
            ours = judged(board, phase, name)
            if ours == phase.recorded:
                tally.agree[kind] += 1
                continue
            tally.differ[kind] += 1
            base = rulebook_from_text(name)
            cause = next((f"{k}: {package.value(k)}" for k in DATC_KEYS if base.value(k) != package.value(k)
                          and judged(board, phase, f"{name}, {k}: {package.value(k)}") == phase.recorded),
                         "no single key")
            tally.causes[cause] += 1
            if len(tally.shown) < show:
                lines = ours.diff(phase.recorded)
                tally.shown.append(f"{phase.game} {phase.name} ({cause}): " + "; ".join(
                    line.replace("peer only", "recorded only").replace(", peer ", ", recorded ") for line in lines))
    return tallies, phases, maps


def print_games(path: Path, tallies: dict[str, Tally], phases: Counter, maps: Counter, seconds: float) -> None:
    """The recorded games' table: phases agreeing under each set, and what differs."""
    total = sum(phases.values())
    print(f"recorded games: {path.name}: {sum(maps.values())} games ({', '.join(f'{m} {n}' for m, n in maps.items())}), "
          f"{total} phases judged again under each set")
    width = max(20, *(len(name) + 1 for name in tallies))
    print(f"{'rules':<{width}}" + "".join(f"{k.lower():>14}" for k in PHASE_TYPES) + f"{'all':>14}{'differ':>8}")
    for name, tally in tallies.items():
        cells = "".join(f"{tally.agree[k]:>8}/{phases[k]:<5}" for k in PHASE_TYPES)
        print(f"{name:<{width}}{cells}{sum(tally.agree.values()):>8}/{total:<5}{sum(tally.differ.values()):>8}")
    for name, tally in tallies.items():
        if tally.causes:
            print(f"{name}: the differing phases agree with one key of {SET}: "
                  + ", ".join(f"{cause} {n}" for cause, n in tally.causes.most_common()))
        for line in tally.shown:
            print(f"    {line}")
    print(f"(wall time {seconds:.1f} s)")


# ----- part 3: removals in civil disorder ----------------------------------------------------------------------
def removal_trials(maps: list[str], trials: int, seed: int, sets: list[str]) -> dict[str, Counter]:
    """Random positions in which a power sending no orders must remove units (2-6 units of random types on random
    places, 0 to one fewer centres than units), through the package and this judge under each set: per map, the
    trials and the positions whose removals differ under each set."""
    from diplomacy import Game

    rng = random.Random(seed)
    out: dict[str, Counter] = {}
    for map_name in maps:
        board = load_variant(map_name)
        names = notation(board)
        places = {t: [loc for loc in names.place_out if board.can_stand(t, loc, "Fall")] for t in (ARMY, FLEET)}
        tally: Counter = Counter()
        for _ in range(trials):
            power = rng.choice(list(board.powers))
            units: dict[str, Unit] = {}
            for _ in range(rng.randint(2, 6)):
                unit_type = rng.choice([t for t in (ARMY, FLEET) if places[t]])
                unit = Unit(power, unit_type, rng.choice(places[unit_type]))
                units.setdefault(unit.province, unit)
            owned = rng.sample(list(board.centres), rng.randint(0, len(units) - 1))
            game = Game(map_name=map_name)
            game.clear_units()
            game.clear_centers()
            game.set_current_phase("W1905A")
            game.set_units(names.power(power), [f"{u.type} {names.place(u.location)}" for u in units.values()])
            game.set_centers(names.power(power), [names.place(c) for c in owned])
            game.process()
            kept = {(u.split()[0], names.our_place(u.split()[1], "the package's units"))
                    for u in game.get_units(names.power(power))}
            tally["trials"] += 1
            for rules in sets:
                state = GameState(board.name, Phase("Fall", 1905, "Adjustment"), dict(units),
                                  {c: power for c in owned})
                state.set_rules(board, rules)
                removed = {(u.type, u.location) for u in adjudicate(board, state, []).removed}
                if removed != {(u.type, u.location) for u in units.values()} - kept:
                    tally[rules] += 1
        out[map_name] = tally
    return out


def print_removals(tallies: dict[str, Counter], sets: list[str], seed: int) -> None:
    """The removal trials' table."""
    print(f"removals in civil disorder: random positions, no orders (seed {seed}); positions whose removals differ")
    print(f"{'map':<10}{'trials':>8}" + "".join(f"{s:>20}" for s in sets))
    for map_name, tally in tallies.items():
        print(f"{map_name:<10}{tally['trials']:>8}" + "".join(f"{tally[s]:>20}" for s in sets))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=Path, default=FIXTURE, help="saved games, JSONL (default: the tests' fixture)")
    ap.add_argument("--sets", default=";".join(DEFAULT_SETS),
                    help="rules to judge by, separated by ';': sets or texts (default: %(default)s)")
    ap.add_argument("--answers", action="store_true",
                    help=f"also {SET} with each other answer of the keys the records show (4.A.3, 4.D.4, 4.D.6, "
                         "4.D.8), one at a time: the phases each would get wrong")
    ap.add_argument("--cases", nargs="*", default=[str(ROOT / "datc_cases" / "options")],
                    help="DATC option case files or folders (default: datc_cases/options/)")
    ap.add_argument("--no-games", action="store_true", help="only the option cases")
    ap.add_argument("--no-cases", action="store_true", help="only the recorded games")
    ap.add_argument("--show", type=int, default=10, help="differing phases shown per set (default %(default)s)")
    ap.add_argument("--removals", type=int, default=250, metavar="N",
                    help="random civil-disorder removals per map through both engines (default %(default)s; 0: none)")
    ap.add_argument("--seed", type=int, default=1, help="the removals' seed")
    args = ap.parse_args(argv)
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("the diplomacy package is not installed: pip install '.[bench]'", file=sys.stderr)
        return 2
    if args.cases and not args.no_cases:
        print_cases(list(option_cases(args.cases)))
        print()
    if args.removals:
        removal_sets = ["datc-3.0", "datc-2.4", SET]
        print_removals(removal_trials(list(MAPS), args.removals, args.seed, removal_sets), removal_sets, args.seed)
        print()
    if not args.no_games:
        started = time.perf_counter()
        sets = [s.strip() for s in args.sets.split(";") if s.strip()]
        if args.answers:
            package = rulebook_from_text(SET)
            sets += [f"{SET}, {key}: {value}" for key in ANSWER_KEYS for value in DATC_KEYS[key][1]
                     if value != package.value(key)]
        for text in sets:
            try:
                rulebook_from_text(text, what="--sets")
            except RulesError as exc:
                print(exc.message, file=sys.stderr)
                return 2
        tallies, phases, maps = compare_games(args.games, sets, args.show)
        print_games(args.games, tallies, phases, maps, time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
