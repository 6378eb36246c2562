"""Datasets of recorded games, read as a stream: JSONL files (one game a line; plain, gzip `.gz` or zstd `.zst`),
single JSON games, this project's game files, and folders of them. Each game is read, checked and replayed on
its own, so memory stays flat whatever the dataset's size, and a line that cannot be read is one error located
by its file and line, the rest of the file still read."""

from __future__ import annotations

import gzip
import io
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from adjudicator.errors import AdjudicatorError
from adjudicator.extras import require
from adjudicator.games.diplomacy.records.convert import from_data, from_game_file
from adjudicator.games.diplomacy.records.notation import RecordError
from adjudicator.games.diplomacy.records.recorded import RecordedGame
from adjudicator.games.diplomacy.records.replay import AGREES, BY_HAND, EXPLAINED, UNEXPLAINED, replay_game

RECORD_SUFFIXES = (".jsonl", ".json", ".jsonl.gz", ".json.gz", ".jsonl.zst", ".json.zst")
GAME_SUFFIXES = (".yaml", ".yml")
WHOLE_SUFFIXES = (".json", ".json.gz", ".json.zst")  # one game a file (JSONL: one a line)
MAX_LINE = 64 * 2 ** 20  # a longer line is refused, not read: the longest game of the human dataset is ~2 MB


@dataclass(frozen=True)
class Item:
    """One game of a dataset, not yet read: where it is, and its JSON text (None for a game file)."""

    file: str
    line: int | None
    text: str | None = None

    @property
    def where(self) -> str:
        """`games.jsonl line 12`."""
        return f"{self.file} line {self.line}" if self.line is not None else self.file


def open_text(path: str | Path) -> IO[str]:
    """A record file opened for reading as text, decompressed by its suffix (`.gz`, `.zst`)."""
    name = str(path)
    if name.endswith(".gz"):
        return io.TextIOWrapper(gzip.open(name, "rb"), encoding="utf-8")
    if name.endswith(".zst"):
        require("records", f"{name}: reading a zstd file", ("zstandard",))
        import zstandard  # (the records extra's, needed only for a .zst file)

        return io.TextIOWrapper(zstandard.ZstdDecompressor().stream_reader(open(name, "rb")), encoding="utf-8")
    return open(name, encoding="utf-8")


def _files(paths: Iterable[str]) -> Iterator[Path]:
    """The record and game files of these paths, a folder's in name order (its subfolders too)."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from (p for p in sorted(path.rglob("*")) if p.is_file()
                        and p.name.endswith(RECORD_SUFFIXES + GAME_SUFFIXES))
        else:
            yield path


def items(paths: Iterable[str]) -> Iterator[Item | RecordError]:
    """Each game of the files and folders given, in order; a file that cannot be opened, or a line too long to
    be a game, is a RecordError in its place."""
    for path in _files(paths):
        name = str(path)
        if name.endswith(GAME_SUFFIXES):
            yield Item(name, None)
            continue
        try:
            with open_text(path) as stream:
                if name.endswith(WHOLE_SUFFIXES):  # one game, however its JSON is laid out
                    text = stream.read(MAX_LINE + 1)
                    yield Item(name, None, text) if len(text) <= MAX_LINE else \
                        RecordError(f"{name}: larger than {MAX_LINE // 2 ** 20} MB: not read")
                    continue
                for number, line in enumerate(_lines(stream), 1):
                    if isinstance(line, RecordError):
                        yield RecordError(f"{name} line {number}: {line.message}")
                    elif line.strip():
                        yield Item(name, number, line)
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            yield RecordError(f"{name}: cannot be read ({exc})")
        except RecordError as exc:
            yield exc


def _lines(stream: IO[str]) -> Iterator[str | RecordError]:
    """The stream's lines, each at most MAX_LINE characters (a longer one is an error, skipped to its end)."""
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while line and not line.endswith("\n"):
                line = stream.readline(MAX_LINE + 1)
            yield RecordError(f"the line is longer than {MAX_LINE // 2 ** 20} MB: not read")
            continue
        yield line


def read_item(item: Item) -> RecordedGame:
    """The recorded game an item holds, in whichever format it is (the package's, FAIR's, a game file)."""
    if item.text is None:
        return from_game_file(item.file)
    try:
        data = json.loads(item.text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if item.line is None else f"column {exc.colno}"
        raise RecordError(f"{item.where}: not a JSON game record ({exc.msg}; {where})"
                          + ("" if item.line is None else "; a truncated or malformed line")) from None
    except RecursionError:  # (JSON nested deeper than Python's parser goes: no game is)
        raise RecordError(f"{item.where}: not a JSON game record (nested too deeply)") from None
    return from_data(data, item.where)


@dataclass
class Summary:
    """The counts of a replay so far: games, phases by verdict, what explained each difference, errors."""

    games: int = 0
    phases: Counter[str] = field(default_factory=Counter)
    explained_by: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    unread_orders: int = 0

    def add(self, record: dict[str, Any]) -> None:
        """Count one JSONL record of the replay (a game's phase, a game's end, an error)."""
        kind = record.get("verdict")
        if kind == "error":
            self.errors += 1
        elif kind == "game":  # (a game's record counts its phases: those that agree have no record of their own)
            self.games += 1
            for verdict in (AGREES, EXPLAINED, BY_HAND, UNEXPLAINED):
                self.phases[verdict] += int(record.get(verdict, 0))
        elif kind:
            if record.get("explained_by"):
                self.explained_by[record["explained_by"]] += 1
            self.unread_orders += len(record.get("unread_orders", ()))

    def table(self) -> str:
        """The summary as a small text table."""
        total = sum(self.phases.values())
        rows = [("games replayed", self.games), ("phases judged", total)]
        rows += [(f"  {v}", self.phases[v]) for v in (AGREES, EXPLAINED, BY_HAND, UNEXPLAINED)]
        rows += [(f"    explained by {why}", n) for why, n in self.explained_by.most_common()]
        rows += [("recorded orders not read", self.unread_orders), ("games not read (errors)", self.errors)]
        width = max(len(r[0]) for r in rows)
        return "\n".join(f"{label.ljust(width)}  {count:>9}" for label, count in rows) + "\n"


def replay_item(item: Item, rules: str | None = None, every_phase: bool = False) -> list[dict[str, Any]]:
    """The JSONL records of one game replayed: a record per phase (only those that differ unless
    `every_phase`), then the game's own; an error record when it cannot be read."""
    try:
        game = read_item(item)
        checks = replay_game(game, rules)
    except AdjudicatorError as exc:
        return [{"verdict": "error", "where": item.where, "error": exc.message}]
    out = [{**c.to_json(), "where": item.where} for c in checks if every_phase or c.verdict != AGREES or c.unread]
    counts = Counter(c.verdict for c in checks)
    out.append({"verdict": "game", "game": game.id, "where": item.where, "phases": len(checks), **counts,
                **({"notes": game.notes} if game.notes else {})})
    return out


def replay_all(paths: Iterable[str], rules: str | None = None, workers: int = 1,
               every_phase: bool = False) -> Iterator[list[dict[str, Any]]]:
    """Each game's JSONL records, in the dataset's order; with `workers` > 1, games are replayed by that many
    local processes, at most a few games per worker in flight (memory stays flat)."""
    stream = items(paths)
    if workers <= 1:
        for item in stream:
            yield item_records(item, rules, every_phase)
        return
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    window: deque[Future[list[dict[str, Any]]]] = deque()
    pool = ProcessPoolExecutor(workers)
    try:
        for item in stream:
            window.append(pool.submit(item_records, item, rules, every_phase))
            if len(window) >= 4 * workers:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()
    finally:  # (Ctrl-C, or the reader stopping early: the games not yet replayed are dropped, not waited for)
        pool.shutdown(wait=True, cancel_futures=True)


def item_records(item: Item | RecordError, rules: str | None, every_phase: bool) -> list[dict[str, Any]]:
    """`replay_item`'s records of an item, or the error record of one that could not be read."""
    if isinstance(item, RecordError):
        return [{"verdict": "error", "error": item.message}]
    return replay_item(item, rules, every_phase)
