"""The shipped variants, and loading any variant file into the board of its game's rules.

A variant's `rules:` key names its game: `diplomacy` (the standard board, the Arctic variant, any map) or
one of the other games in `adjudicator.game`. Everything else about a variant is data.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError, BoardWarning, VariantError
from adjudicator.game import get_rules
from adjudicator.kept import Kept
from adjudicator.names import closest
from adjudicator.refusals import Kind
from adjudicator.resources import data_dir
from adjudicator.textio import decode_text
from adjudicator.yamlio import LineDict, LineList, LineStr, load_yaml_file, load_yaml_text

BOARD_CACHE_SIZE = 32  # boards from paths and requests kept, by content hash (least recently used goes first)
MAX_INLINE_BOARD_BYTES = 512 * 1024  # an inline board (as compact JSON) larger than this is refused
MAX_INLINE_BOARD_ITEMS = 10000  # and one with more provinces + borders than this (the largest maps have ~1,500)
_boards = Kept(BOARD_CACHE_SIZE)


def variant_names() -> list[str]:
    """The variants shipped with the package."""
    return sorted(p.stem for p in data_dir("variants").glob("*.yaml"))


@functools.lru_cache(maxsize=1)
def variant_summaries() -> tuple[dict[str, Any], ...]:
    """Name, title, game rules, players, centres and rule options of each shipped variant, read once from the
    files (no board is built)."""
    out = []
    for name in variant_names():
        try:
            data = load_yaml_file(data_dir("variants") / f"{name}.yaml")
        except AdjudicatorError:
            continue
        if isinstance(data, dict):
            out.append(_summary(name, data))
    return tuple(out)


def _summary(name: str, data: dict) -> dict[str, Any]:
    """One variant's line in the catalogue: what a player choosing a board wants to know."""
    rules = str(data.get("rules", "diplomacy"))
    summary: dict[str, Any] = {"name": str(data.get("name", name)), "title": str(data.get("title", name)),
                               "rules": rules}
    if isinstance(data.get("origin"), dict) and data["origin"].get("source"):  # an imported map
        summary["origin"] = str(data["origin"]["source"])
    powers, countries, seats = data.get("powers"), data.get("countries"), data.get("players")
    if isinstance(powers, dict):
        summary.update(players=len(powers), powers=[str(p) for p in powers])
    elif isinstance(countries, dict):  # arctic2019: countries by code, each with its name
        names = [str((c or {}).get("name", k)) if isinstance(c, dict) else str(k) for k, c in countries.items()]
        summary.update(players=len(names), powers=names)
    elif isinstance(seats, dict) and "min" in seats:  # a seat count (arctic-race)
        summary["players"] = f"{seats['min']}-{seats.get('max', seats['min'])}"
    provinces = data.get("provinces")
    if rules == "diplomacy" and isinstance(provinces, list):
        centres = sum(1 for p in provinces if isinstance(p, dict) and p.get("centre"))
        options = data.get("options") if isinstance(data.get("options"), dict) else {}
        victory = options.get("victory", data.get("victory"))
        start = (data.get("calendar") or {}).get("start") or {}
        summary.update({
            "centres": centres,
            "options": {
                "builds": str(options.get("builds", "home")),
                "civil_disorder": str(options.get("4.D.8", options.get("civil_disorder", "2023"))),  # (DATC 4.D.8)
                "victory": victory if isinstance(victory, (int, dict)) and victory else centres // 2 + 1,
            },
            "start": " ".join(str(start.get(k, d)) for k, d in (("season", "Spring"), ("year", 1901),
                                                                  ("type", "Movement"))),
        })
    return summary


def check_name(data: Any, path: str | Path) -> None:
    """A variant file must be a mapping whose `name:` is its file's name (game files name boards by it)."""
    if not isinstance(data, dict):
        raise VariantError("a variant file must be a YAML mapping", file=str(path))
    stem = Path(path).stem
    name = data.get("name")
    if name is not None and str(name).lower() != stem.lower():
        raise VariantError(f"the board is named {str(name)!r} but its file is {Path(path).name!r}: a game file names "
                           f"its board by that name, so rename the file or write `name: {stem}`",
                           file=str(path), line=getattr(name, "line", None) or getattr(data, "line", None))


def wrong_kinds(call: Any, source: str | None) -> Any:
    """Run a board reader or checker: a value of a type it did not expect (a number where a list of names
    goes...) is the file's fault, so it becomes a VariantError naming the file, never a traceback. (The readers
    name most such faults themselves, with their line; this catches the rest.)"""
    try:
        return call()
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError) as exc:
        raise VariantError(f"the board has a value of the wrong kind somewhere ({type(exc).__name__}: "
                           f"{str(exc)[:200]}); `adjudicator variant check` lists what it can", file=source) from None


def board_from_file(path: str | Path) -> Any:
    """Load a variant file: a board of the game its `rules:` names (Diplomacy by default)."""
    data = load_yaml_file(path)
    check_name(data, path)
    rules = get_rules(str(data.get("rules", "diplomacy")), str(path))
    return wrong_kinds(lambda: rules.load_board(data, str(path)), str(path))


def load_variant(name: str) -> Any:
    """A shipped variant by name (case-insensitive), e.g. `standard`, `arctic`, `arctic2019`."""
    canonical = _shipped_names().get(name.strip().lower())
    if canonical is not None:
        return _shipped_board(canonical)
    shown = repr(name) if len(name) <= 60 else repr(name[:60]) + "..."  # a request may send a megabyte of name
    raise UnknownVariant(f"unknown variant {shown}; known variants: {', '.join(variant_names())}",
                           suggestions=closest(name, variant_names()))


@functools.lru_cache(maxsize=1)
def _shipped_names() -> dict[str, str]:
    """Each shipped variant's file name by its lower-case spelling (the folder is listed once per process)."""
    return {name.lower(): name for name in variant_names()}


@functools.lru_cache(maxsize=32)
def _shipped_board(canonical: str) -> Any:
    """One board per shipped variant file, keyed by the file's own name: any spelling of a name shares it,
    and the bound holds however many variants are added (issue 16)."""
    return board_from_file(data_dir("variants") / f"{canonical}.yaml")


def is_board_path(ref: str) -> bool:
    """Whether a variant reference names a board file (`boards/mine.yaml`) rather than a shipped variant."""
    return ref.lower().endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref


def content_hash(data: bytes) -> str:
    """`sha256:<hex>` of a board file's bytes (or an inline board's canonical JSON)."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _cached(key: str, build: Any) -> Any:
    return _boards.get(key, build)


def board_from_path(path: str | Path) -> Any:
    """A board file anywhere (checked like `variant check`; every problem with its line), cached by content hash."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise VariantError(f"cannot read the board file: {exc.strerror or exc}", file=str(path)) from None
    digest = content_hash(raw)
    resolved = str(path.resolve())

    def build() -> Any:
        board = _checked_board(load_yaml_text(decode_text(raw, str(path)), str(path)), str(path))
        _mark(board, resolved, digest)
        return board

    return _cached(f"{digest}:{resolved}", build), digest


def load_board_ref(ref: str, base: str | Path | None = None) -> Any:
    """A shipped variant by name, or a board file by path (relative to `base`, the folder of the file naming it).

    With `base` None a path is refused: a request to the API may not name files on the server."""
    if not is_board_path(ref):
        return load_variant(ref)
    if base is None:
        raise AdjudicatorError(f"{ref!r} is a file path; here a variant is named (one of {', '.join(variant_names())}) "
                               f"or sent inline as `board`")
    path = Path(ref) if Path(ref).is_absolute() else Path(base) / ref
    return board_from_path(path)[0]


def _mark(board: Any, file: str | None, digest: str | None) -> None:
    """Note where a board came from (game files name it by path and record its hash)."""
    object.__setattr__(board, "board_file", file)  # boards of other games may be frozen dataclasses
    object.__setattr__(board, "content_hash", digest)


def _checked_board(data: Any, source: str) -> Any:
    """Load a board only if the checker finds nothing: otherwise one error listing every located problem."""
    check_name(data, source)
    rules = get_rules(str(data.get("rules", "diplomacy")), source)
    problems = _refusing(wrong_kinds(lambda: rules.check_board(data, source), source))
    if problems:
        raise BoardProblems(problems, source)
    return wrong_kinds(lambda: rules.load_board(data, source), source)


def _refusing(found: list[AdjudicatorError]) -> list[AdjudicatorError]:
    """The checker's problems that refuse a board (its warnings do not)."""
    return [p for p in found if not isinstance(p, BoardWarning)]


class BoardProblems(VariantError):
    """A board the checker refuses, with every problem found (`problems`), each located."""

    SHOWN = 50  # problems listed in the message (all are in `problems`)

    def __init__(self, problems: list[AdjudicatorError], source: str | None, pointers: dict[int, str] | None = None,
                 base: str = "/board"):
        self.problems = problems
        self.pointers = pointers
        self.base = base
        listed = [f"  {_where(p)}{p['message']}" for p in self.located_problems()[:self.SHOWN]]
        more = [f"  ... and {len(problems) - self.SHOWN} more"] if len(problems) > self.SHOWN else []
        super().__init__("\n".join([f"the board has {len(problems)} problem(s) (`adjudicator variant check`):", *listed, *more]),
                         file=source, pointer=self.located_problems()[0].get("pointer"))

    def located(self, file: str | None = None, line: int | None = None, column_offset: int = 0) -> BoardProblems:
        """A copy placed in a file (its problems keep their own lines)."""
        return BoardProblems(self.problems, file if file is not None else self.file, self.pointers, self.base)

    def located_problems(self) -> list[dict[str, Any]]:
        """Each problem as {message, line} (a file) or {message, pointer} (an inline board)."""
        if self.pointers is not None:
            return [{"message": p.message, "pointer": self.pointers.get(p.line or -1, self.base)} for p in self.problems]
        return [{"message": p.message, "line": p.line} for p in self.problems]


class BoardTooLarge(VariantError):
    """An inline board over the size limits."""

    kind = Kind.TOO_LARGE


class UnknownVariant(AdjudicatorError):
    """A name that is not a shipped variant's (with the closest names)."""

    kind = Kind.NOT_FOUND


def _where(problem: dict[str, Any]) -> str:
    if "pointer" in problem:
        return f"{problem['pointer']}: "
    return f"line {problem['line']}: " if problem.get("line") else ""


def _annotate(value: Any, pointer: str, pointers: dict[int, str]) -> Any:
    """JSON data as the YAML loader's containers, each numbered as if it were a line, that number mapped to its
    JSON pointer: the checker's line numbers then locate a problem in the request."""
    def number(node: Any) -> Any:
        node.line = len(pointers) + 1
        pointers[node.line] = pointer
        return node

    if isinstance(value, dict):
        return number(LineDict((str(k), _annotate(v, f"{pointer}/{_escape(str(k))}", pointers)) for k, v in value.items()))
    if isinstance(value, list):
        return number(LineList(_annotate(v, f"{pointer}/{i}", pointers) for i, v in enumerate(value)))
    if isinstance(value, str):
        return number(LineStr(value))
    return value


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def board_from_inline(data: Any, pointer: str = "/board") -> Any:
    """A board sent in a request: size-limited, checked by its game's checker (problems located by JSON pointer),
    cached by the hash of its canonical JSON."""
    if not isinstance(data, dict):
        raise VariantError("an inline board is a JSON object (the variant file's structure)", pointer=pointer)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode("utf-8")) > MAX_INLINE_BOARD_BYTES:
        raise BoardTooLarge(f"the inline board is larger than {MAX_INLINE_BOARD_BYTES // 1024} KiB", pointer=pointer)
    items = sum(len(data.get(k) or ()) for k in ("provinces", "borders") if isinstance(data.get(k), (list, dict)))
    if items > MAX_INLINE_BOARD_ITEMS:
        raise BoardTooLarge(f"the inline board has {items} provinces and borders; at most {MAX_INLINE_BOARD_ITEMS}",
                            pointer=pointer)
    digest = content_hash(text.encode("utf-8"))

    def build() -> Any:
        pointers: dict[int, str] = {}
        annotated = _annotate(data, pointer, pointers)
        rules = get_rules(str(data.get("rules", "diplomacy")))
        problems = _refusing(wrong_kinds(lambda: rules.check_board(annotated, "<request>"), None))
        if problems:
            raise BoardProblems(problems, None, pointers, pointer)
        board = wrong_kinds(lambda: rules.load_board(annotated, None), None)
        _mark(board, None, digest)
        return board

    try:
        return _cached(digest, build)
    except BoardProblems:
        raise
    except AdjudicatorError as exc:
        raise VariantError(exc.message, pointer=exc.pointer or pointer) from None


def board_for_file(ref: str, file: str | None) -> Any:
    """The board a file (a case file) names: a shipped variant, or a board file relative to that file.
    Text that came from a request (`<request>`) may name shipped variants only."""
    real = bool(file) and not str(file).startswith("<")
    return load_board_ref(ref, Path(str(file)).parent if real else None)
