"""Orders per second through the order reader and its grammar (`adjudicator.games.diplomacy.orders.parse.parse_order`).

    python benchmarks/parse_throughput.py                 # 20,000 orders, best of 5 rounds
    python benchmarks/parse_throughput.py --profile       # and where the time goes

The orders are a realistic mix: the legal orders of positions from seeded random standard games (every kind:
hold, move, via convoy, support, convoy, retreat, disband, build, remove, waive), each written in one of the
spellings people use: the canonical abbreviations (`F nth S A yor - bel`), upper case without spaces
(`A PAR-BUR`), full names (`Fleet North Sea supports Army Yorkshire -> Belgium`), other abbreviations and
aliases (`F NAO - MAO`, `A Lvp to Edi by convoy`), coasts in every form (`stp/nc`, `Spain (south coast)`,
`bul.ec`), nationality in the supported unit (`A mun S German A ber - sil`). Each respelt order must parse
to the same order as its canonical spelling (checked before timing).

Three figures, side by side with the peer's reading of the same orders in the same run:
- *cold*: every cache of the engine (found by benchmarks/caches.py: readings by text, name tokens...) emptied
  before each order, so every order goes through the grammar from nothing (the emptying is not timed);
- *warm*: the same texts read a second time (the reading kept by text), as a game that repeats its orders;
- *structured*: the same orders given as objects (adjudicator/games/diplomacy/orders/structured.py): no text at all;
- *peer*: the `diplomacy` package's `set_orders()` on the canonical spellings, position by position (its game
  built untimed); note that it also checks each order against the position, which our reading does not.

The goal is 50,000 orders/s cold. `--profile` splits the time between the grammar (Lark's LALR table run over
the orders' word codes, measured alone) and the rest of the reading, and prints the hottest functions.
"""

from __future__ import annotations

import argparse
import gc
import io
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))

from adjudicator.games.diplomacy.board import Board, split_location  # noqa: E402
from adjudicator.catalogue import load_variant  # noqa: E402
from adjudicator.errors import OrderError  # noqa: E402
from adjudicator.games.diplomacy.judge.adjustment import adjustment_due  # noqa: E402
from adjudicator.games.diplomacy.legal import legal_orders  # noqa: E402
from adjudicator.games.diplomacy.orders.parse import parse_order, parser_for  # noqa: E402
from adjudicator.games.diplomacy.orders.structured import order_object, orders_from_objects  # noqa: E402
from adjudicator.games.diplomacy.phase import adjudicate  # noqa: E402
from adjudicator.games.diplomacy.state import GameState, opening_state  # noqa: E402
from caches import Caches, find_caches  # noqa: E402
from timing import best_of, own_time_by_file, profile_cold  # noqa: E402

STYLES = ("canonical", "upper", "full names", "aliases", "nationality")


POSITIONS: list[tuple[GameState, list[tuple[str, str]]]] = []  # (position, [(power, order)]) of the last call


def canonical_orders(board: Board, rng: random.Random, wanted: int) -> list[str]:
    """Legal orders of positions met in random games (with this engine only), every phase type (the positions and
    their orders are kept in POSITIONS, for the peer)."""
    out: list[str] = []
    POSITIONS.clear()
    state = opening_state(board)
    while len(out) < wanted:
        chosen: list[tuple[str, str]] = []
        here: list[tuple[str, str]] = []
        POSITIONS.append((state, here))
        for power in board.powers:
            options = legal_orders(board, state, power)
            for key, texts in options.items():
                sample = rng.sample(texts, min(len(texts), 4))
                out += sample
                here += [(power, t) for t in sample]
                if key == "builds":
                    due = adjustment_due(state, power)
                    chosen += [(power, t) for t in rng.sample(texts, min(due, len(texts)))]
                elif key == "removals":
                    chosen += [(power, t) for t in rng.sample(texts, min(-adjustment_due(state, power), len(texts)))]
                else:
                    moves = [t for t in texts if " - " in t or " R " in t] or texts
                    chosen.append((power, rng.choice(moves)))
        orders = [parse_order(board, t, power=p) for p, t in chosen]
        result = adjudicate(board, state, orders)
        state = result.next_state
        if result.winner or state.phase.year > 1912:
            state = opening_state(board)
    return out[:wanted]


def _place(board: Board, location: str, style: str, rng: random.Random) -> str:
    province, coast = split_location(location)
    p = board.provinces[province]
    if style == "upper":
        name = province.upper()
    elif style == "full names":
        name = p.name
    elif style == "aliases" and p.aliases:
        name = rng.choice(p.aliases)
    else:
        name = province
    if not coast:
        return name
    if style == "full names":
        return f"{name} ({board.coast_names[coast][0]})"
    if style == "aliases":
        return rng.choice([f"{name}({coast})", f"{name} {coast.upper()}", f"{name}.{coast}", f"{name}/{coast}"])
    return f"{name}/{coast.upper() if style == 'upper' else coast}"


def respell(board: Board, text: str, style: str, rng: random.Random) -> str:
    """A canonical order (`F nth S A yor - bel`) in another spelling."""
    words = text.split()
    out: list[str] = []
    unit_seen = 0
    for i, w in enumerate(words):
        base = w.split("/")[0]
        if base in board.provinces:
            out.append(_place(board, w, style, rng))
        elif w in ("A", "F") and i + 1 < len(words) and words[i + 1].split("/")[0] in board.provinces:
            unit_seen += 1
            if style == "full names":
                out.append("Army" if w == "A" else "Fleet")
            elif style == "nationality" and unit_seen == 2:
                out.append(rng.choice(["Austrian", "English", "French", "German", "Italian", "Russian", "Turkish"])
                           + " " + w)
            else:
                out.append(w)
        elif style == "full names":
            out.append({"-": rng.choice(["->", "to", "moves to"]), "S": "supports", "C": "convoys", "H": "holds",
                        "R": "retreats to", "via": "via", "convoy": "convoy", "Build": "Build", "Remove": "Remove",
                        "Disband": "Disband", "Waive": "Waive"}.get(w, w))
        elif style == "aliases":
            out.append({"-": rng.choice(["-", "to", "=>"]), "via": "by", "S": "Supports", "C": "Convoys",
                        "H": "Hold", "R": "R"}.get(w, w))
        else:
            out.append(w)
    result = " ".join(out)
    if style == "upper":
        result = result.upper().replace(" - ", "-")
    return result


def order_mix(board: Board, count: int, seed: int) -> list[str]:
    """`count` orders in a mix of spellings, each checked to mean what its canonical spelling means."""
    rng = random.Random(seed)
    canonical = canonical_orders(board, rng, min(count, 4000))
    mix = []
    for i in range(count):
        text = canonical[i % len(canonical)]
        style = STYLES[i % len(STYLES)]
        spelt = respell(board, text, style, rng)
        want = parse_order(board, text)
        try:
            got = parse_order(board, spelt)
        except OrderError:  # an alias two places share (`liv`: Livonia, Liverpool): the canonical spelling instead
            spelt, got = text, want
        if want.describe() != got.describe():  # (a move by convoy says so: `A yor - nwy via convoy`)
            raise AssertionError(f"{spelt!r} parses as {got.describe()!r}, not as {want.describe()!r}")
        mix.append(spelt)
    return mix


def rate(fn, orders: list[str], rounds: int) -> float:
    """Orders per second, best of `rounds` (the garbage collector paused while timing)."""
    return len(orders) / best_of(lambda: [fn(text) for text in orders], rounds)


def cold_rate(board: Board, caches: Caches, orders: list[str], rounds: int) -> float:
    """Orders per second with every cache emptied before each order (the emptying not timed), best of `rounds`."""
    best = float("inf")
    clock = time.perf_counter
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            total = 0.0
            for text in orders:
                caches.empty()
                t0 = clock()
                parse_order(board, text)
                total += clock() - t0
        finally:
            gc.enable()
        best = min(best, total)
    return len(orders) / best


def structured_rate(board: Board, orders: list[str], rounds: int) -> float:
    """Orders per second read from their objects (no text), best of `rounds`."""
    objects = [order_object(parse_order(board, text, power=next(iter(board.powers)))) for text in orders]
    return len(objects) / best_of(lambda: orders_from_objects(board, objects), rounds)


def peer_rate(board: Board, rounds: int) -> tuple[float, int] | None:
    """The peer's `set_orders()` on the canonical orders of POSITIONS, position by position (orders/s, orders)."""
    try:
        import diplomacy  # noqa: F401
        import compare_peer as cp
    except ImportError:
        return None
    batches = []
    for state, orders in POSITIONS:
        by_power: dict[str, list[str]] = {}
        for power, text in orders:
            by_power.setdefault(cp.peer_power(power), []).append(cp.peer_order(parse_order(board, text)))
        batches.append((cp.PhaseInput(state, orders, []), by_power))
    count = sum(len(v) for _, by_power in batches for v in by_power.values())
    best = float("inf")
    for _ in range(rounds):
        games = [cp.peer_position(board, inp) if inp.state.phase.type != "Retreat" else None for inp, _ in batches]
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            for game, (_, by_power) in zip(games, batches):
                if game is None:
                    continue
                for power, texts in by_power.items():
                    game.set_orders(power, texts)
            best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
    counted = sum(len(v) for g, (_, by_power) in zip(games, batches) if g is not None for v in by_power.values())
    return counted / best, counted if count else 0


def table_codes(board: Board, orders: list[str]) -> list[str]:
    """Each order's word codes (`UPMP` for `A par - bur`): what the LALR table (adjudicator/lalr_table.py) reads."""
    parser = parser_for(board)
    return ["".join(w.code for w in parser.words(text)) for text in orders]


def profile(board: Board, orders: list[str], total: float, rounds: int, caches: Caches) -> None:
    """Where the time of a cold parse_order goes: Lark's part, this project's part, and the hottest functions."""
    codes = table_codes(board, orders)
    parser = parser_for(board)
    table, shapes = parser.grammar, parser.shapes
    table_us = 1e6 / rate(table.parse, codes, rounds)
    shape_us = 1e6 / rate(lambda c: shapes.get(c) or table.parse(c), codes, rounds)
    tabled = sum(c in shapes for c in codes)
    per_order = 1e6 / total
    print(f"\nwhere the time goes (us per order): all {per_order:.1f}; the order's shape as the reader finds it "
          f"(the table of shapes, which holds {tabled:,} of these {len(codes):,} orders, else the LALR table) "
          f"{shape_us:.1f} ({100 * shape_us / per_order:.0f}%), where the LALR table run on every order would take "
          f"{table_us:.1f}; the rest (splitting the text, one lookup per word, the order's values, the Order) "
          f"{per_order - shape_us:.1f} ({100 * (per_order - shape_us) / per_order:.0f}%)")
    stream = io.StringIO()
    stats = profile_cold(orders, lambda text: parse_order(board, text), caches.empty)
    stats.stream = stream  # type: ignore[attr-defined]
    stats.sort_stats("tottime")
    print("own time by file under cProfile: " + own_time_by_file(stats, lark_files=True, builtins="builtins and re"))
    stats.print_stats(12)
    print("\n".join(stream.getvalue().splitlines()[6:24]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--orders", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--profile", action="store_true", help="split the time between Lark and the transformer")
    args = ap.parse_args(argv)
    board = load_variant(args.variant)
    orders = order_mix(board, args.orders, args.seed)
    parse_order(board, orders[0])  # build the parser before timing

    try:  # the same caches as compare_peer's cold: found with phases of orders never seen
        import compare_peer as cp

        probe = cp.probe(board) if args.variant == "standard" else cp.probe(board, odd=0)
    except ImportError:  # pragma: no cover - compare_peer is beside this script
        def probe(rng: random.Random) -> None:
            for text in rng.sample(orders, min(len(orders), 300)):
                parse_order(board, text.lower() + " ")

    caches = find_caches(probe)
    total = cold_rate(board, caches, orders, args.rounds)
    print(f"parse_order: {total:,.0f} orders/s ({1e6 / total:.1f} us per order) over {len(orders):,} orders, cold "
          f"(best of {args.rounds}); goal 50,000 orders/s: {'met' if total >= 50000 else 'NOT met'}")
    for style in STYLES:
        subset = [o for i, o in enumerate(orders) if STYLES[i % len(STYLES)] == style]
        print(f"  {style:<12} {cold_rate(board, caches, subset, args.rounds):>10,.0f} orders/s"
              f"   e.g. {max(subset[:300], key=len)!r}")
    [parse_order(board, text) for text in orders]
    warm = rate(lambda t: parse_order(board, t), orders, args.rounds)
    canonical = [o for i, o in enumerate(orders) if STYLES[i % len(STYLES)] == "canonical"]
    structured = structured_rate(board, canonical, args.rounds)
    print(f"warm (each text read before): {warm:,.0f} orders/s; structured (orders as objects, no text): "
          f"{structured:,.0f} orders/s")
    peer = peer_rate(board, args.rounds) if args.variant == "standard" else None
    if peer is not None:
        peer_per_s, count = peer
        print(f"the peer (set_orders, reading and checking against the position), {count:,} canonical orders of the "
              f"same positions: {peer_per_s:,.0f} orders/s; ratios: cold {total / peer_per_s:.1f}x, warm "
              f"{warm / peer_per_s:.1f}x, structured {structured / peer_per_s:.1f}x")
    print(f"caches emptied for cold: {caches.describe()}")
    if args.profile:
        profile(board, orders, total, args.rounds, caches)
    return 0


if __name__ == "__main__":
    sys.exit(main())
