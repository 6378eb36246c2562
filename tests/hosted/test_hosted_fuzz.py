"""Issues 26 and 36: a short run of the stateful fuzz of hosted games (benchmarks/fuzz_hosted.py runs the long
one), on SQLite and on PostgreSQL: no 5xx, no view shows another seat's pending orders or secret vote, no phase
judged twice, the orders judged for each seat exactly the ones it sent, votes, concessions, declared ends, pauses,
replacements and civil disorder as the model says, an ended game never changed, an old token refused."""

from __future__ import annotations

from collections import Counter

from tests.helpers import benchmark

FUZZ = benchmark("fuzz_hosted")


def test_a_short_stateful_fuzz_of_hosted_games(db_url):  # noqa: F811
    counts = Counter()  # two seeded runs: the same steps each time, between them every action the asserts name
    for seed in (2, 5):
        counts.update(FUZZ.run(db_url, steps=300, per_game=30, seed=seed))
    assert counts["steps"] >= 600 and counts["games"] >= 2
    assert counts["PUT 200"] and counts["PUT 400"] and counts["POST 200"]  # orders taken, refused, phases judged
    assert counts["phases judged"] and counts["into civil disorder"]
    assert counts["votes"] and counts["ends"] and counts["replacements"] and counts["pauses"]  # (issue 36's steps)
    assert counts["old tokens refused"] and counts["other tokens refused"] and counts["scores read"]
