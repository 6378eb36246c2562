"""Issue 38: a short run of the stateful fuzz of hosted games' talk (benchmarks/fuzz_messages.py runs the long one),
on SQLite and on PostgreSQL: no 5xx, no message visible to a seat it was not sent to (nor to the game master unless
the game says so), each seat's inbox exactly the model's, a retry never kept twice."""

from __future__ import annotations

from tests.helpers import benchmark

FUZZ = benchmark("fuzz_messages")


def test_a_short_stateful_fuzz_of_messages(db_url):  # noqa: F811
    counts = FUZZ.run(db_url, steps=200, per_game=40, seed=0)  # derandomized: the same steps each run
    assert counts["steps"] >= 200 and counts["games"] >= 2
    assert counts["messages"] >= 10 and counts["POST 400"] and counts["POST 409"] and counts["GET 200"]
