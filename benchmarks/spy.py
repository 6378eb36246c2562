"""Sampling profiles with py-spy (a process spied on by id, or a command run under it), summed into named costs.

py-spy samples a running process from outside, so a gunicorn worker is profiled as it serves, with no change
to the code. The raw output is collapsed stacks (`frame;frame;... count`); a cost's share is the fraction of
samples with a matching frame anywhere on the stack (inclusive), so shares overlap and need not add up.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def available() -> bool:
    """Whether py-spy is installed (`pip install py-spy`)."""
    return shutil.which("py-spy") is not None


@contextmanager
def spying(pid: int, rate: int = 200) -> Iterator[Path]:
    """Sample process `pid` and its children (CPU only: idle threads are left out) while the block runs."""
    folder = Path(tempfile.mkdtemp(prefix="adjudicator-spy."))
    out = folder / "stacks.txt"
    # --nonblocking: the workers are not paused to be sampled (paused, they served almost nothing on a busy machine).
    proc = subprocess.Popen(["py-spy", "record", "-p", str(pid), "--subprocesses", "--nonblocking", "-F",
                             "--format", "raw",
                             "-r", str(rate), "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield out
    finally:
        proc.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def record(command: list[str], env: dict[str, str] | None = None, rate: int = 200) -> Counter[str]:
    """The collapsed stacks of a command run to its end under py-spy."""
    with tempfile.TemporaryDirectory(prefix="adjudicator-spy.") as folder:
        out = Path(folder) / "stacks.txt"
        subprocess.run(["py-spy", "record", "-F", "--format", "raw", "-r", str(rate), "-o", str(out), "--", *command],
                       env=env or dict(os.environ), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return read(out)


def read(path: Path) -> Counter[str]:
    """Collapsed stacks from a raw py-spy file (one `stack count` a line); the file is removed."""
    stacks: Counter[str] = Counter()
    if path.exists():
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if count.isdigit():
                stacks[stack] += int(count)
        shutil.rmtree(path.parent, ignore_errors=True)
    return stacks


def within(stacks: Counter[str], word: str) -> Counter[str]:
    """Only the stacks with a frame containing `word` (e.g. the part of a command after its start-up)."""
    return Counter({stack: n for stack, n in stacks.items() if word in stack})


def packages(stacks: Counter[str], count: int = 10) -> list[tuple[str, float]]:
    """Where the CPU is spent: the samples' innermost frames by top-level package (self time)."""
    total = sum(stacks.values()) or 1
    found: Counter[str] = Counter()
    for stack, n in stacks.items():
        leaf = stack.rsplit(";", 1)[-1]
        found[leaf[leaf.rfind("(") + 1:].split("/")[0].split(".py")[0].split(":")[0]] += n
    return [(name, n / total) for name, n in found.most_common(count)]


def shares(stacks: Counter[str], costs: dict[str, tuple[str, ...]]) -> dict[str, float]:
    """Each named cost's share of the samples: a stack counts if any frame contains one of the cost's words."""
    total = sum(stacks.values()) or 1
    return {name: sum(n for stack, n in stacks.items() if any(w in stack for w in words)) / total
            for name, words in costs.items()}


def top_functions(stacks: Counter[str], where: str, count: int = 12) -> list[tuple[str, float]]:
    """The functions whose frames contain `where` (a path part), by inclusive share of the samples."""
    total = sum(stacks.values()) or 1
    inclusive: Counter[str] = Counter()
    for stack, n in stacks.items():
        for frame in {f for f in stack.split(";") if where in f}:
            inclusive[frame] += n
    return [(frame, n / total) for frame, n in inclusive.most_common(count)]
