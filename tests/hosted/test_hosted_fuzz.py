"""Issue 26: a short run of the stateful fuzz of hosted games (benchmarks/fuzz_hosted.py runs the long one), on
SQLite and on PostgreSQL: no 5xx, no view shows another seat's pending orders, no phase judged twice, the orders
judged for each seat exactly the ones it sent."""

from __future__ import annotations

from tests.helpers import benchmark

FUZZ = benchmark("fuzz_hosted")


def test_a_short_stateful_fuzz_of_hosted_games(db_url):  # noqa: F811
    counts = FUZZ.run(db_url, steps=40, per_game=20, seed=0)  # derandomized: the same steps each run
    assert counts["steps"] >= 40 and counts["games"] >= 2
    assert counts["PUT 200"] and counts["PUT 400"] and counts["POST 200"]  # orders taken, refused, phases judged
