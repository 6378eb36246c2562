"""A benchmark's timed runs in a process of their own: the parent sends calls, the child runs and answers.

Each engine is timed in a process that holds only it, as its users run it: a full collection of the garbage
collector costs what the process holds, and the peer's import alone makes about 925,000 objects it tracks.

    worker = Worker([sys.executable, "benchmarks/peer_side.py"])   # the child calls serve(handlers)
    seconds = worker.call("peer", spec, orders)
    worker.close()

Calls and answers are pickled over the child's standard input and output (a pipe between two processes of
this benchmark: nothing else writes to it). The child's own prints go to its standard error.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import traceback
from typing import Any, Callable


class WorkerError(RuntimeError):
    """A call the child could not answer: its traceback, or why it stopped."""


class Worker:
    """A child process that answers calls (`serve` on its side)."""

    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def call(self, op: str, *args: Any) -> Any:
        """The child's answer to `op(*args)`; its exception comes back as a WorkerError with its traceback."""
        assert self.process.stdin is not None and self.process.stdout is not None
        if self.process.stdin.closed or self.process.poll() is not None:
            raise WorkerError(f"the worker {self.process.args[1:]} stopped (exit status {self.process.poll()}) "
                              f"before {op!r}")
        try:
            pickle.dump((op, args), self.process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            self.process.stdin.flush()
            ok, value = pickle.load(self.process.stdout)
        except (BrokenPipeError, EOFError) as exc:
            raise WorkerError(f"the worker {self.process.args[1:]} stopped (exit status "
                              f"{self.process.poll()}) during {op!r}") from exc
        if not ok:
            raise WorkerError(f"the worker failed in {op!r}:\n{value}")
        return value

    def close(self) -> None:
        """End the child (it exits when its input ends)."""
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def serve(handlers: dict[str, Callable[..., Any]]) -> None:
    """The child's side: answer calls from standard input until it ends."""
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a print in the child must not corrupt the answers
    source = sys.stdin.buffer
    while True:
        try:
            op, args = pickle.load(source)
        except EOFError:
            return
        if op not in handlers:
            answer = (False, f"no call named {op!r} here; the calls are {', '.join(sorted(handlers))}")
        else:
            try:
                answer = (True, handlers[op](*args))
            except Exception:  # the parent shows it, with the call that failed
                answer = (False, traceback.format_exc())
        pickle.dump(answer, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()
