"""Pictures drawn in bounded time and memory for a server: a bounded queue, and child processes that draw.

    pictures = Pictures(processes=1, waiting=8)
    image = pictures.draw(Job(variant="standard", board=None, state=..., results=..., fmt="png", width=1000))

Drawing is CPU work in Python and Skia: done in a server's worker it would hold the worker's event loop (every
other request, `/healthz` too, waits until the picture is done). So each picture is drawn by a child process
(`python -m adjudicator.pictures`, started on first use and kept), which the worker waits on as it waits on a
socket. A process draws at most `processes` pictures at once (one a child), lets at most `waiting` more wait
for a child, each at most `wait_seconds`: any other request is refused at once (`Busy`: the API answers 503
with Retry-After), so pictures queue, never pile up. A child that takes longer than `job_seconds` is stopped
(`Failed`) and another started for the next picture. The children run at a lower priority (NICENESS), so on a
busy machine the workers' judging and `/healthz` go first.

A job is data (a shipped variant's name or an inline board, a position as game-file data, the phase to draw as
`Turn.drawn` gives it or a report as JSON),
read again in the child. Its board's drawing (the computed geometry, `adjudicator.games.diplomacy.picture.stored`) is looked up
in the child (in its memory, beside the board, in the operator's folder) and on the shelves the caller gives
(a hosted game's database), which the child asks the caller for; a drawing the child computes is put on them.
`processes=0` draws in the calling process (the command line, tests), behind the same queue.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.catalogue import board_from_inline, load_variant
from adjudicator.game import rules_of
from adjudicator.gamefile import game_from_data
from adjudicator.render.shelves import Shelf, using_shelves
from adjudicator.render.text import text_width

_HEADER = struct.Struct(">I")
NICENESS = 10  # the drawing processes' scheduling priority below the workers': pictures yield the CPU to judging


@dataclass(frozen=True)
class Job:
    """One picture to draw, as data."""

    variant: str | None  # a shipped variant's name (when `board` is None)
    board: dict[str, Any] | None  # an inline board's data
    state: dict[str, Any]  # the position, as game-file data (its `variant` names the board)
    results: Any  # the phase to draw (`Turn.drawn`'s data, or a report as JSON), or None
    fmt: str  # png | svg
    width: int  # pixels (png)


class Busy(Exception):
    """Every drawing process is busy and the queue is full, or the wait was too long: try again later."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class Failed(Exception):
    """The picture could not be drawn: its process stopped or took longer than its time (`lost`), or the
    drawing failed (the process goes on)."""

    def __init__(self, message: str, lost: bool = True):
        super().__init__(message)
        self.message = message
        self.lost = lost


def cost(width: int, spaces: int) -> int:
    """What a picture costs, in units of a 1000 px picture of a board of up to 100 spaces: its pixels times its
    board's size (the rates count these, not requests)."""
    return max(1, math.ceil((max(width, 200) / 1000) ** 2 * max(1.0, spaces / 100)))


def spaces_of(board: Any) -> int:
    """A board's size as pictures cost it: its spaces (provinces on a Diplomacy board; other games' own)."""
    for name in ("provinces", "spaces", "sectors", "slots"):
        found = getattr(board, name, None)
        if found:
            return len(found)
    return 0


def draw_job(job: Job) -> bytes | str:
    """Draw a job in this process (the board read, or found in the process's cache of boards)."""
    board = board_from_inline(job.board) if job.board is not None else load_variant(str(job.variant))
    board, state = game_from_data({k: v for k, v in job.state.items() if k != "board"}, None, board)
    return rules_of(board).render(board, state, job.results, job.fmt, job.width)


class Pictures:
    """A process's bounded queue of pictures and its drawing processes (see the module's docstring)."""

    def __init__(self, processes: int = 1, waiting: int = 8, wait_seconds: float = 10.0, job_seconds: float = 20.0):
        self.processes = processes
        self.waiting = waiting
        self.wait_seconds = wait_seconds
        self.job_seconds = job_seconds
        # (made on first use in a server's worker, after gevent patched threading: gevent's own there)
        self._slots = threading.BoundedSemaphore(max(1, processes))
        self._lock = threading.Lock()
        self._queued = 0  # drawing or waiting
        self._idle: list[_Child] = []

    def draw(self, job: Job, shelves: Sequence[Shelf] = ()) -> bytes | str:
        """The job's picture (`Busy` when the queue is full or the wait too long; `Failed` when not drawn)."""
        with self._lock:
            if self._queued >= max(1, self.processes) + self.waiting:
                raise Busy(f"{self._queued} pictures are being drawn or waiting: try again in a few seconds",
                           self._retry_after())
            self._queued += 1
        try:
            if not self._slots.acquire(timeout=self.wait_seconds):
                raise Busy(f"no picture could be started within {self.wait_seconds:g} s: try again later",
                           self._retry_after())
            try:
                if self.processes <= 0:
                    with using_shelves(shelves):
                        return draw_job(job)
                return self._in_child(job, shelves)
            finally:
                self._slots.release()
        finally:
            with self._lock:
                self._queued -= 1

    def _retry_after(self) -> int:
        return max(1, math.ceil(self.wait_seconds / 2))

    def _in_child(self, job: Job, shelves: Sequence[Shelf]) -> bytes | str:
        with self._lock:
            child = self._idle.pop() if self._idle else None
        if child is None:
            child = _Child()
        try:
            image = child.run(job, shelves, self.job_seconds)
        except Failed as exc:
            if exc.lost:  # (a child that stopped or timed out is not used again)
                child.stop()
            else:
                with self._lock:
                    self._idle.append(child)
            raise
        except BaseException:
            child.stop()
            raise
        with self._lock:
            self._idle.append(child)
        return image

    def close(self) -> None:
        """Stop the idle drawing processes."""
        with self._lock:
            idle, self._idle = self._idle, []
        for child in idle:
            child.stop()


class _Child:
    """One drawing process and its pipes (length-prefixed pickles; the child's standard error is the parent's)."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "adjudicator.pictures"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env)

    def run(self, job: Job, shelves: Sequence[Shelf], seconds: float) -> bytes | str:
        """Have the child draw a job, answering its questions for drawings from the shelves."""
        timer = threading.Timer(seconds, self.proc.kill)
        timer.daemon = True
        timer.start()
        try:
            _send(self.proc.stdin, ("draw", job))
            while True:
                message = _receive(self.proc.stdout)
                if message is None:
                    if not timer.is_alive():
                        raise Failed(f"the picture took longer than {seconds:g} s to draw, and was stopped")
                    raise Failed("the process drawing the picture stopped")
                kind = message[0]
                if kind == "get":
                    _send(self.proc.stdin, ("got", next(filter(None, (s.get(message[1]) for s in shelves)), None)))
                elif kind == "put":
                    for shelf in shelves:
                        shelf.put(message[1], message[2])
                elif kind == "done":
                    drawn: bytes | str = message[1]
                    return drawn
                else:
                    raise Failed(message[1], lost=False)
        except (BrokenPipeError, OSError) as exc:
            raise Failed(f"the process drawing the picture stopped ({exc})") from None
        finally:
            timer.cancel()

    def stop(self) -> None:
        """End the child (its standard input closed: it stops when it reads the end; killed if it does not)."""
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:  # (always: it is a pipe)
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _send(pipe: Any, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    pipe.write(_HEADER.pack(len(data)) + data)
    pipe.flush()


def _read_exactly(pipe: Any, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = pipe.read(left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _receive(pipe: Any) -> Any:
    """The next message, or None at the end of the pipe."""
    head = _read_exactly(pipe, _HEADER.size)
    if head is None:
        return None
    body = _read_exactly(pipe, _HEADER.unpack(head)[0])
    return None if body is None else pickle.loads(body)  # noqa: S301 (our own child's answers)


class _AskParent:
    """The child's shelf: the parent's shelves, asked over the pipes."""

    def __init__(self, inp: Any, out: Any):
        self.inp, self.out = inp, out

    def get(self, key: str) -> str | None:
        _send(self.out, ("get", key))
        answer = _receive(self.inp)
        return None if answer is None else answer[1]

    def put(self, key: str, text: str) -> None:
        _send(self.out, ("put", key, text))


def _warm() -> None:
    """Import and read what every picture needs (the rasteriser, the fonts, the triangulation), once."""
    import matplotlib.tri  # noqa: F401 (the geometry's triangulation, imported here to warm the child)

    board = load_variant("standard")
    rules = rules_of(board)
    rules.render(board, rules.initial_state(board), None, "png", 200)
    for face in ("regular", "bold", "italic"):
        text_width("warm", 10.0, face)


def child_main() -> None:
    """A drawing process: draw each job read from standard input, answer on standard output, until the end."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed goes to the log, never into the answers
    with contextlib.suppress(OSError, AttributeError):  # (not on every platform)
        os.nice(NICENESS)
    _warm()
    shelf = _AskParent(inp, out)
    while True:
        message = _receive(inp)
        if message is None:
            return
        try:
            with using_shelves([shelf]):
                answer: tuple[str, Any] = ("done", draw_job(message[1]))
        except Exception as exc:  # a picture that cannot be drawn is told to the parent, the child goes on
            answer = ("failed", f"the picture could not be drawn: {type(exc).__name__}: {exc}")
        _send(out, answer)


if __name__ == "__main__":
    child_main()
