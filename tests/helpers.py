"""Helpers every test folder may import: where the project and the case files are, a benchmark script as a
module, the best of a few timings, the encodings a file may be saved in, and a small way to adjudicate a written
position. (Fixtures are in the conftest.py files.)"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.games.diplomacy.cases.datc import parse_cases
from adjudicator.games.diplomacy.cases.runner import run_case

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATC = ROOT.parent / "shared" / "datc"


def benchmark(name: str):
    """A script of `benchmarks/` as a module, imported once (its helpers are test data: order generators, the
    classifier, the fuzz)."""
    import importlib
    import sys

    folder = str(ROOT / "benchmarks")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(name)


def best_time(call, repeats: int = 3, gc_paused: bool = False) -> float:
    """The shortest of `repeats` runs of `call`, in seconds (for linear-time checks, which compare two timings);
    `gc_paused` keeps the collector out of the timings."""
    import gc
    import time

    was_enabled = gc.isenabled()
    if gc_paused:
        gc.disable()
    try:
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            call()
            best = min(best, time.perf_counter() - t0)
        return best
    finally:
        if gc_paused and was_enabled:
            gc.enable()


# How a sheet or game file may be saved: each file reader must read these alike (adjudicator/textio.py).
ENCODINGS = {
    "utf8": lambda t: t.encode("utf-8"),
    "utf8-bom": lambda t: codecs.BOM_UTF8 + t.encode("utf-8"),
    "utf16-bom": lambda t: t.encode("utf-16"),  # with its byte-order mark
    "crlf": lambda t: t.replace("\n", "\r\n").encode("utf-8"),
    "bom-crlf": lambda t: codecs.BOM_UTF8 + t.replace("\n", "\r\n").encode("utf-8"),
}


def reports_in_encoding(game: Path, text: str, encoding: str, folder: Path, *flags: str) -> tuple[dict, dict]:
    """`adjudicate --json` of a sheet saved as plain UTF-8 and saved in `encoding`: (plain, encoded); both succeed."""
    reports = []
    for name, data in (("plain.txt", text.encode("utf-8")), ("encoded.txt", ENCODINGS[encoding](text))):
        (folder / name).write_bytes(data)
        result = CliRunner().invoke(main, ["adjudicate", str(game), str(folder / name), "--json", *flags])
        assert result.exit_code == 0, result.output
        reports.append(json.loads(result.output))
    return reports[0], reports[1]


def cli(*args, stdin: str | None = None):
    """The `adjudicator` command run with these arguments (each made a string) and this standard input."""
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin)


def judge(text: str, variant: str = "Standard"):
    """Run a single case written in the case-file format (without VARIANT_ALL/END boilerplate)."""
    body = f"VARIANT_ALL {variant}\nCASE inline\n{text.strip()}\nEND\n"
    (case,) = parse_cases(body, "<inline>")
    return run_case(case)


def report_of(outcome, power: str, order_start: str):
    """The report line of the order that starts with `order_start` (case-insensitive)."""
    for r in outcome.result.report:
        if r.power == power and r.text.lower().startswith(order_start.lower()):
            return r
    raise AssertionError(f"no report line for {power}: {order_start}; have {[r.text for r in outcome.result.report]}")
