"""Random games played by the `diplomacy` package, written in its saved-game format (JSONL, gzip when the name ends
in `.gz`): the games other tools record, to read, replay and check against this project's judge.

    python benchmarks/package_games.py --games 200 --maps standard,ancmed,modern,pure --max-phases 20 --seed 1 -o g.jsonl.gz

Each game is played by `diplomacy.Game(map_name=...)` alone: every phase, each power's orders are drawn from
`game.get_all_possible_orders()` for its orderable locations (supports and convoys matched now and then to the moves
drawn, so that units are dislodged, retreat and are convoyed), and now and then what real games have: a power that
sends no orders, more builds or removals than it may make, two builds in one province, two orders for one unit, an
army moved `VIA` convoy, `WAIVE`. Game `i` plays on the maps in turn (`maps[i % len(maps)]`) to `--max-phases`
phases or its end; the first `--long-games` games on the first map go on to a solo or the end of `--long-year`.
Each game is written with `diplomacy.utils.export.to_saved_game_format(game)`, one line.

Seeded and reproducible: game `i` draws from its own generator (`random.Random(f"{seed}:{i}")`), every list the package
gives as a set is sorted before drawing, and the package's wall-clock timestamps (one per phase) are replaced by a
fixed clock (`BASE_TIMESTAMP`, a microsecond a phase), so the same command writes the same games. The map `world`
works too but costs minutes to build the first time: it is left out by default.

The test data tests/data/package_games.jsonl.gz is this script's output with `FIXTURE_ARGS`
(tests/games/diplomacy/records/test_package_games_fixture.py regenerates its first games). On stderr: the time the
package took (playing, listing the possible orders, setting orders, exporting) and the phases played.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterator

MAPS = ("standard", "ancmed", "modern", "pure")
BASE_TIMESTAMP = 1_704_067_200_000_000  # 2024-01-01 00:00 UTC in microseconds: the fixed clock of every game
# The command that wrote tests/data/package_games.jsonl.gz (its test regenerates the first games from these).
FIXTURE_ARGS = ["--games", "200", "--maps", ",".join(MAPS), "--max-phases", "20", "--seed", "37",
                "--long-games", "4", "--long-year", "1910"]


@dataclass(frozen=True)
class Odds:
    """How often each odd thing happens: per power and phase, except `second_order` and `via` (per unit)."""

    silent: float = 0.04  # a power sends no orders at all (its units hold, its builds are waived, ...)
    second_order: float = 0.04  # a unit is given a second, different order (movement and retreat phases)
    via: float = 0.15  # an army that may move VIA convoy does (whether or not a fleet convoys it)
    extra_builds: float = 0.3  # a power with free build sites orders more builds than it may make
    two_builds_one_place: float = 0.1  # ... or orders an army and a fleet at one site
    waive: float = 0.15  # ... or waives a build
    fewer: float = 0.1  # ... or orders fewer builds or removals than it may make
    extra_removals: float = 0.3  # a power that must remove units orders more removals than it must
    repeated_removal: float = 0.1  # ... or orders one unit's removal twice


@dataclass
class Timing:
    """The package's time, by what it was doing, over every game played."""

    games: int = 0
    phases: dict[str, int] = field(default_factory=lambda: {"M": 0, "R": 0, "A": 0})
    process: float = 0.0  # game.process()
    possible: float = 0.0  # game.get_all_possible_orders() and get_orderable_locations()
    set_orders: float = 0.0  # game.set_orders()
    export: float = 0.0  # to_saved_game_format()
    built: float = 0.0  # diplomacy.Game(map_name=...)


def _options(possible: dict[str, list[str]], loc: str) -> list[str]:
    """The package's possible orders of a location, sorted (it gives sets: their order varies by process)."""
    return sorted(possible.get(loc, ()))


def _kind(order: str) -> str:
    words = order.split()
    if len(words) > 2 and words[2] in ("S", "C"):
        return words[2]
    if order.endswith(" VIA"):
        return "VIA"
    return "-" if " - " in order else "H"


def movement_orders(units: list[tuple[str, list[str]]], rng: random.Random, odds: Odds) -> dict[str, list[str]]:
    """Each unit's orders (unit location -> orders, usually one): a random kind among its options, then supports and
    convoys matched to the moves drawn where its options allow."""
    chosen: dict[str, str] = {}
    by_loc = dict(units)
    for loc, options in units:
        kinds: dict[str, list[str]] = {}
        for order in options:
            kinds.setdefault(_kind(order), []).append(order)
        r = rng.random()
        want = "H" if r < 0.08 else "-" if r < 0.55 else "S" if r < 0.88 else "C"
        if "VIA" in kinds and rng.random() < odds.via:
            want = "VIA"
        if want not in kinds:
            want = "-" if "-" in kinds and rng.random() < 0.6 else "H"
        chosen[loc] = rng.choice(kinds.get(want) or options)
    # A convoy, mostly with its army told to go there VIA; a support, mostly for what its unit does.
    for loc, order in list(chosen.items()):
        if _kind(order) == "C":
            army, dest = order.split()[4], order.split()[-1]
            via = f"A {army} - {dest} VIA"
            if army in by_loc and via in by_loc[army] and rng.random() < 0.7:
                chosen[army] = via
    for loc, order in list(chosen.items()):
        if _kind(order) != "S":
            continue
        matching = [o for o in by_loc[loc] if _kind(o) == "S" and _supports(o, chosen)]
        if matching and rng.random() < 0.85:
            chosen[loc] = rng.choice(matching)
    out = {loc: [order] for loc, order in chosen.items()}
    for loc, options in units:
        if rng.random() < odds.second_order and len(options) > 1:
            out[loc].append(rng.choice([o for o in options if o != chosen[loc]]))
    return out


def _supports(support: str, chosen: dict[str, str]) -> bool:
    """Whether a support order (`F LON S A LVP - YOR`, `A WAL S F LON`) supports what its unit was told to do."""
    words = support.split()
    target = words[4].split("/")[0]
    order = next((o for loc, o in chosen.items() if loc.split("/")[0] == target), None)
    if order is None:
        return False
    if len(words) == 5:  # a support to hold: the unit does not move
        return _kind(order) in ("H", "S", "C")
    return _kind(order) in ("-", "VIA") and order.split()[3].split("/")[0] == words[-1].split("/")[0]


def retreat_orders(units: list[tuple[str, list[str]]], rng: random.Random, odds: Odds) -> list[str]:
    """A retreat or a disbanding for each dislodged unit, and now and then a second order for one."""
    orders = []
    for _, options in units:
        orders.append(rng.choice(options))
        if rng.random() < odds.second_order and len(options) > 1:
            orders.append(rng.choice([o for o in options if o != orders[-1]]))
    return orders


def build_orders(sites: list[tuple[str, list[str]]], allowed: int, rng: random.Random, odds: Odds) -> list[str]:
    """Builds at distinct sites, as many as allowed (more, fewer, two at one site, WAIVE now and then)."""
    builds = {site: [o for o in options if o.endswith(" B")] for site, options in sites}
    places = [site for site, options in builds.items() if options]
    rng.shuffle(places)
    count = allowed
    if len(places) > allowed and rng.random() < odds.extra_builds:
        count = rng.randint(allowed + 1, len(places))
    elif allowed > 0 and rng.random() < odds.fewer:
        count = rng.randint(0, allowed - 1)
    orders = [rng.choice(builds[site]) for site in places[:count]]
    doubled = [site for site in places[:count] if len(builds[site]) > 1]
    if doubled and rng.random() < odds.two_builds_one_place:
        site = rng.choice(doubled)
        orders.insert(rng.randint(0, len(orders)), rng.choice([o for o in builds[site] if o not in orders]))
    if rng.random() < odds.waive:
        orders.insert(rng.randint(0, len(orders)), "WAIVE")
    return orders


def removal_orders(units: list[str], due: int, rng: random.Random, odds: Odds) -> list[str]:
    """Removals of distinct units, as many as due (more, fewer, one twice now and then)."""
    order = sorted(units)
    rng.shuffle(order)
    count = due
    if len(order) > due and rng.random() < odds.extra_removals:
        count = rng.randint(due + 1, len(order))
    elif rng.random() < odds.fewer:
        count = rng.randint(0, due - 1)
    orders = [f"{unit} D" for unit in order[:count]]
    if orders and rng.random() < odds.repeated_removal:
        orders.insert(rng.randint(0, len(orders)), rng.choice(orders))
    return orders


def phase_orders(game: Any, rng: random.Random, odds: Odds, timing: Timing) -> dict[str, list[str]]:
    """Every power's orders for the game's current phase (a power left out sends none)."""
    started = time.perf_counter()
    possible = game.get_all_possible_orders()
    orderable = {name: sorted(game.get_orderable_locations(name)) for name in sorted(game.powers)}
    timing.possible += time.perf_counter() - started
    kind = game.phase_type
    out: dict[str, list[str]] = {}
    for name, locs in orderable.items():
        power = game.powers[name]
        if not locs or rng.random() < odds.silent:
            continue
        if kind == "M":
            units = [(loc, _options(possible, loc)) for loc in locs]
            orders = movement_orders([(loc, opts) for loc, opts in units if opts], rng, odds)
            out[name] = [o for loc, _ in units for o in orders.get(loc, [])]
        elif kind == "R":
            units = [(loc, _options(possible, loc)) for loc in locs]
            out[name] = retreat_orders([(loc, opts) for loc, opts in units if opts], rng, odds)
        else:
            due = len(power.centers) - len(power.units)
            if due > 0:
                allowed = min(due, len(locs))
                out[name] = build_orders([(loc, _options(possible, loc)) for loc in locs], allowed, rng, odds)
            elif due < 0:
                out[name] = removal_orders(list(power.units), -due, rng, odds)
    return out


def _year(game: Any) -> int:
    phase = game.get_current_phase()
    return int(phase[1:-1]) if phase not in ("COMPLETED", "FORMING") else 0


def play(map_name: str, game_id: str, rng: random.Random, max_phases: int, until_year: int | None,
         odds: Odds, timing: Timing) -> dict[str, Any]:
    """One game played by the package to `max_phases` phases (or, with `until_year`, to the end of that year) or its
    end, as its saved-game format."""
    from diplomacy import Game
    from diplomacy.utils.export import to_saved_game_format

    started = time.perf_counter()
    game = Game(map_name=map_name, game_id=game_id)
    timing.built += time.perf_counter() - started
    played = 0
    while not game.is_game_done:
        if until_year is None and played >= max_phases or until_year is not None and _year(game) > until_year:
            break
        kind = game.phase_type
        orders = phase_orders(game, rng, odds, timing)
        started = time.perf_counter()
        for name, texts in orders.items():
            game.set_orders(name, texts)
        timing.set_orders += time.perf_counter() - started
        started = time.perf_counter()
        game.process()
        timing.process += time.perf_counter() - started
        timing.phases[kind] += 1
        played += 1
    started = time.perf_counter()
    saved = to_saved_game_format(game)
    timing.export += time.perf_counter() - started
    for i, phase in enumerate(saved["phases"]):
        phase["state"]["timestamp"] = BASE_TIMESTAMP + i  # the package's wall clock, made reproducible
    timing.games += 1
    return saved


def parser() -> argparse.ArgumentParser:
    """The command line (also read by the fixture's test, with FIXTURE_ARGS)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--maps", default=",".join(MAPS), help="the package's map names, in turn (default: %(default)s)")
    ap.add_argument("--max-phases", type=int, default=20, help="phases played per game (default %(default)s)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--long-games", type=int, default=0,
                    help="the first N games on the first map are played to a solo or the end of --long-year")
    ap.add_argument("--long-year", type=int, default=1910)
    ap.add_argument("-o", "--out", type=Path, help="the JSONL file to write (gzip when it ends in .gz)")
    return ap


def game_plan(args: argparse.Namespace, index: int) -> tuple[str, int, int | None]:
    """Game `index`'s map, phases and last year (None: played to --max-phases)."""
    maps = [m.strip() for m in args.maps.split(",") if m.strip()]
    map_name = maps[index % len(maps)]
    long = index % len(maps) == 0 and index // len(maps) < args.long_games
    return map_name, args.max_phases, args.long_year if long else None


def saved_game(args: argparse.Namespace, index: int, odds: Odds = Odds(), timing: Timing | None = None) -> dict:
    """Game `index` of the command's games, as the package saves it."""
    map_name, phases, until = game_plan(args, index)
    rng = random.Random(f"{args.seed}:{index}")
    return play(map_name, f"pkg-{args.seed}-{index}", rng, phases, until, odds, timing or Timing())


def games(args: argparse.Namespace, timing: Timing) -> Iterator[dict]:
    """Every game of the command, in order."""
    for index in range(args.games):
        yield saved_game(args, index, timing=timing)


def write(path: Path, lines: Iterator[dict]) -> None:
    """The games as JSONL, gzip-compressed when the name ends in `.gz` (with no time in the header: the same games
    write the same bytes)."""
    with path.open("wb") as raw:
        if path.name.endswith(".gz"):
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as packed, \
                    io.TextIOWrapper(packed, encoding="utf-8") as text:
                _write_lines(text, lines)
        else:
            with io.TextIOWrapper(raw, encoding="utf-8") as text:
                _write_lines(text, lines)


def _write_lines(out: IO[str], lines: Iterator[dict]) -> None:
    for game in lines:
        out.write(json.dumps(game, separators=(",", ":")) + "\n")


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.out is None:
        print("give the file to write: -o FILE (.jsonl or .jsonl.gz)", file=sys.stderr)
        return 2
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("the diplomacy package is not installed: pip install '.[bench]'", file=sys.stderr)
        return 2
    timing = Timing()
    started = time.perf_counter()
    write(args.out, games(args, timing))
    wall = time.perf_counter() - started
    played = sum(timing.phases.values())
    print(f"{timing.games} games, {played} phases played (movement {timing.phases['M']}, retreat "
          f"{timing.phases['R']}, adjustment {timing.phases['A']}), written to {args.out} "
          f"({args.out.stat().st_size:,} bytes)", file=sys.stderr)
    print(f"the package's time: process {timing.process:.1f} s ({played / max(timing.process, 1e-9):.0f} phases/s), "
          f"possible orders {timing.possible:.1f} s, set_orders {timing.set_orders:.1f} s, export "
          f"{timing.export:.1f} s, new games {timing.built:.1f} s; wall time {wall:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
