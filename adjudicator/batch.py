"""Many independent positions judged at once (rollouts, searches, checking a dataset's phases): each position with
its orders through the board's own judge, the orders as the game's order values and the results as its results
(Diplomacy's `PhaseResult`: every order's outcome and the next position), never through text.

    results = judge_many(board, [(state, orders), (other_state, other_orders)], processes=2)

In this process by default; with `processes` > 1 the positions are spread over that many worker processes (the
board sent to each once; positions, orders and results pickled both ways), which pays where each position is
costly or there are many cores. A `BatchJudge` keeps its workers for many batches (a rollout's every step)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Sequence
from types import TracebackType
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.game import AnyRules, rules_of
from adjudicator.sheets import Sheet

_board: Any = None  # a worker's board (set once by its initializer)


class BatchError(AdjudicatorError):
    """A batch that cannot be judged: which position of it, and why."""


def _job(index: int, job: Any) -> tuple[Any, list[Any]]:
    """A job's (position, orders), or a BatchError naming it."""
    if not isinstance(job, (tuple, list)) or len(job) != 2:
        raise BatchError(f"the batch's item {index} must be a (position, orders) pair, not {type(job).__name__}")
    state, orders = job
    if isinstance(orders, (str, bytes)) or not isinstance(orders, Iterable):
        raise BatchError(f"the batch's item {index}: its orders must be a sequence of the game's order values "
                         f"(no text), not {type(orders).__name__}")
    return state, list(orders)


def _judged(rules: AnyRules, board: Any, index: int, state: Any, orders: list[Any]) -> Any:
    try:
        return rules.adjudicate(board, state, Sheet(orders=orders))
    except AdjudicatorError as exc:
        raise BatchError(f"the batch's position {index}: {exc}") from None


def _start_worker(board: Any) -> None:
    global _board
    _board = board


def _judge_in_worker(item: tuple[int, Any, list[Any]]) -> Any:
    index, state, orders = item
    result = _judged(rules_of(_board), _board, index, state, orders)
    result.report  # noqa: B018  # (written here: a report still to be written holds a closure, which cannot travel)
    return result


class BatchJudge:
    """A judge of one board's positions in batches, in this process or in `processes` worker processes kept
    until `close` (or the end of a `with` block)."""

    def __init__(self, board: Any, processes: int = 0) -> None:
        if isinstance(processes, bool) or not isinstance(processes, int) or processes < 0:
            raise BatchError(f"processes must be a whole number of at least 0 (0 or 1: in this process), "
                             f"not {processes!r}")
        self.board, self.rules, self.processes = board, rules_of(board), processes
        self._pool: Any = None
        if processes > 1:
            self._pool = multiprocessing.get_context().Pool(processes, initializer=_start_worker, initargs=(board,))

    def judge(self, jobs: Iterable[Any], chunksize: int | None = None) -> list[Any]:
        """Each (position, orders) judged, the results in the jobs' order; a BatchError names a job that cannot
        be (not a pair, text for orders, a position the rules refuse)."""
        items = [(i, *_job(i, job)) for i, job in enumerate(jobs)]
        if self._pool is None:
            return [_judged(self.rules, self.board, i, state, orders) for i, state, orders in items]
        size = chunksize or max(1, min(64, len(items) // (4 * self.processes)))
        results: list[Any] = self._pool.map(_judge_in_worker, items, size)
        return results

    def close(self) -> None:
        """Stop the workers (nothing to do in this process)."""
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def __enter__(self) -> BatchJudge:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None) -> None:
        self.close()


def judge_many(board: Any, jobs: Iterable[tuple[Any, Sequence[Any]]], processes: int = 0) -> list[Any]:
    """Judge many independent positions of one board: each (position, orders) pair by the board's judge, the
    results in order (`processes` > 1: over that many worker processes, started and stopped for this call)."""
    with BatchJudge(board, processes) as judge:
        return judge.judge(jobs)
