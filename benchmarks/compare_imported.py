"""Agreement with the `diplomacy` package (the peer) on imported maps: seeded random games, every phase judged
by both engines from the same position and orders, every difference classified (as compare_peer.py does for
the standard board, whose machinery this script reuses).

    python benchmarks/compare_imported.py                              # ancmed, modern, pure, standard_age_of_empires
    python benchmarks/compare_imported.py --maps ancmed --games 50 --years 8 --seed 3
    python benchmarks/compare_imported.py --legal                      # and the legal moves of every package map

The boards are the shipped imported ones (variants/ancmed.yaml...), or any map of the package imported on the
fly (`--maps standard_age_of_empires`). The peer plays the same map file (`diplomacy.Game(map_name=...)`).
Names need no table: the importer keeps the peer's ids (lower case) and its power names (the peer drops
hyphens: `NEAR-EAST` is its `NEAREAST`). The last line is "unexplained differences: N".

Maps whose convoy table the peer does not ship (world, colonial, empire, known_world_901) make it compute one
on first use, for minutes; they are left out of the default set.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "benchmarks"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import compare_peer as cp  # noqa: E402
from differential import emulations, phase_input  # noqa: E402
import peer_side as ps  # noqa: E402

from adjudicator.catalogue import board_from_file, load_variant  # noqa: E402
from adjudicator.games.diplomacy.importers import import_map  # noqa: E402
from adjudicator.games.diplomacy.importers.shipped import SHIPPED, package_maps  # noqa: E402

DEFAULT_MAPS = ("ancmed", "modern", "pure", "standard_age_of_empires")


def odd_orders_fit(board: Any) -> bool:
    """compare_peer's odd orders (DATC chapter 4) are written for the standard board: its coast tricks name
    spa, stp and bul. Other maps play legal orders only (spa is Sparta on the Ancient Mediterranean)."""
    return all(p in board.provinces and len(board.provinces[p].coasts) == 2 for p in ("spa", "stp", "bul"))


def board_for(name: str) -> tuple[Any, str]:
    """The board of a map (shipped, or imported now from the package) and the peer's map name."""
    if name in SHIPPED:
        return load_variant(name), SHIPPED[name][0][:-4]
    stem = name.replace("-", "_")
    folder = Path(tempfile.mkdtemp(prefix="imported-"))
    out = folder / f"{stem}.yaml"
    out.write_text(import_map(package_maps() / f"{stem}.map", name=stem).to_yaml(), encoding="utf-8")
    return board_from_file(out), stem


@contextlib.contextmanager
def peer_plays(board: Any, peer_map: str) -> Iterator[None]:
    """compare_peer's functions, pointed at an imported map: the peer's games on `peer_map`, ids as they are
    (lower case here, upper case there), power names without hyphens for the peer. Everything is put back."""
    import diplomacy

    ours_by_peer = {p.upper().replace("-", ""): p for p in board.powers}
    saved = (diplomacy.Game, dict(ps._TO_PEER), dict(ps._FROM_PEER), ps.peer_power, ps.our_power)
    diplomacy.Game = functools.partial(saved[0], map_name=peer_map)  # game_from_spec builds its game with it
    ps._TO_PEER.clear()
    ps._FROM_PEER.clear()
    # (each module that names the peer's powers holds its own name for the function)
    ps.peer_power = phase_input.peer_power = emulations.peer_power = lambda power: power.upper().replace("-", "")
    ps.our_power = lambda power: ours_by_peer[power]
    try:
        yield
    finally:
        diplomacy.Game = saved[0]
        ps._TO_PEER.update(saved[1])
        ps._FROM_PEER.update(saved[2])
        ps.peer_power = phase_input.peer_power = emulations.peer_power = saved[3]
        ps.our_power = saved[4]


def compare_map(name: str, games: int, years: int, odd: float, seed: int) -> tuple[list[str], int]:
    """Random games on one map through both engines: the report lines, and the unexplained differences."""
    board, peer_map = board_for(name)
    odd = odd if odd_orders_fit(board) else 0.0
    stats = cp.Stats()
    rng = random.Random(seed)
    t0 = time.perf_counter()
    with peer_plays(board, peer_map):
        for _ in range(games):
            cp.play(board, stats, rng, years=years, movement_budget=None, odd=odd, keep_examples=2)
    seconds = time.perf_counter() - t0
    phases = {kind: len(stats.peer.get(kind, [])) for kind in cp.PHASE_TYPES}
    lines = [f"{name} ({peer_map}.map, {len(board.provinces)} spaces, {len(board.powers)} powers): {games} games "
             f"of up to {years} years, odd orders {odd}, seed {seed}, {seconds:.0f} s"]
    lines.append("  phases: " + ", ".join(f"{kind} {n}" for kind, n in phases.items()))
    classes: Counter = Counter()
    for kind, counts in stats.differences.items():
        classes.update(counts)
    for cls, n in sorted(classes.items(), key=lambda x: -x[1]):
        lines.append(f"  {n:>6}  {cls}" + ("" if cp.explained(cls) else "   <- unexplained"))
        if not cp.explained(cls):
            for inp, _, diff in stats.examples.get(cls, []):
                lines.append(f"          {inp.state.phase}: " + "; ".join(diff))
    lines.append(f"  differences: {sum(classes.values())}, unexplained: {stats.unexplained}")
    return lines, stats.unexplained


def legal_moves_report() -> tuple[list[str], int]:
    """Every map of the package imported and its legal moves compared with the peer's (as the test does)."""
    sys.path.insert(0, str(ROOT))  # the tests are a package of the repository
    import pytest  # noqa: F401  (the test module needs it importable)
    from tests.games.diplomacy.importers.test_importer import (
        test_every_package_map_imports_with_the_packages_legal_moves as check)

    lines, failed = [], 0
    for path in sorted(package_maps().glob("*.map")):
        with tempfile.TemporaryDirectory() as tmp:
            try:
                check(Path(tmp), path.name)
                lines.append(f"  {path.name}: legal moves, centres, homes and units equal")
            except AssertionError as exc:
                failed += 1
                lines.append(f"  {path.name}: DIFFERS {str(exc).splitlines()[0]}")
    return lines, failed


def main(argv: list[str] | None = None) -> int:
    """Run the comparison; exit status 1 when a difference is unexplained."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--maps", default=",".join(DEFAULT_MAPS), help="comma-separated board or package map names")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--years", type=int, default=6)
    parser.add_argument("--odd", type=float, default=0.1, help="chance per power and phase of one odd order")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--legal", action="store_true", help="also compare legal moves on every package map")
    args = parser.parse_args(argv)
    total = 0
    for name in (m.strip() for m in args.maps.split(",") if m.strip()):
        lines, unexplained = compare_map(name, args.games, args.years, args.odd, args.seed)
        print("\n".join(lines), flush=True)
        total += unexplained
    if args.legal:
        lines, failed = legal_moves_report()
        print("legal moves against the peer:\n" + "\n".join(lines))
        total += failed
    print(f"unexplained differences: {total}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
