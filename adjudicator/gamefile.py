"""The game file: a position as YAML (or the same structure as JSON), read with checks and written atomically.

```yaml
variant: arctic                                 # a shipped variant, or a board file relative to this file:
                                                #   variant: boards/mine.yaml
                                                #   board_hash: sha256:...   (a changed board is refused)
options: {builds: owned, 4.A.2: '1971'}         # optional: this game's rules over the variant's (rulebook.py)
phase: {season: Fall, year: 2010, type: Movement}
centres: {Russia: [Arc, Mag, Pev], ...}        # owned centres by power
units: {Russia: [A Arc, A Pev, F Okh], ...}
dislodged:                                      # retreat phases only
  - {power: Russia, unit: F Chk, attacker_from: Brw, by_convoy: false}
contested: [Tyr]                                # provinces left empty by a standoff (retreat phases)
history: [{phase: Fall 2010 Movement, orders: {...}, results: [...]}]
```

A game that has ended records its end (after `variant`), and is judged no more:

```yaml
end:                                            # game_end.py's record, and the scoring system chosen
  kind: draw
  powers: [England, France, Germany]
  year: 1905
  first_year: 1901
  board: {centres: 34, victory: 18}
  centres: {Austria: 0, England: 12, ...}
  eliminated: {Austria: 1903}
  scoring: {system: sum-of-squares}             # optional: the game's own default when left out
  scores: {England: 51.43, ...}                 # written for readers; recomputed when read
```
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from adjudicator.catalogue import is_board_path, load_board_ref
from adjudicator.errors import AdjudicatorError, StateError
from adjudicator.game import AnyRules, rules_of
from adjudicator.game_end import EndError, GameEnd
from adjudicator.refusals import Kind
from adjudicator.scoring import Scoring, choose, describe, end_sentence, rounded, scores_table
from adjudicator.located import located_error
from adjudicator.textio import read_text
from adjudicator.yamldump import dump_yaml
from adjudicator.yamlio import LineDict, line_of, load_yaml_text


def _err(message: str, file: str | None, node: Any = None, pointer: str | None = None) -> AdjudicatorError:
    return located_error(message, file, node, pointer=pointer)


@dataclass(frozen=True)
class RecordedEnd:
    """A game file's `end`: how the game ended, and the scoring system chosen for it (a choice as `scoring.choose`
    takes it; None: the game's own default, draw size for Diplomacy, its own points for the others)."""

    end: GameEnd
    scoring: Mapping[str, Any] | None = None

    def system(self) -> Scoring | None:
        """The scoring system chosen, its parameters as set."""
        return choose(self.scoring) if self.scoring is not None else None

    def scores(self, rules: AnyRules) -> dict[str, Fraction]:
        """Each power's score at the end, by the system chosen (the game's default without one)."""
        return rules.scores(self.end, self.system())

    def system_for(self, rules: AnyRules) -> Scoring | None:
        """The system the end is scored by: the one chosen, else a game scored by centres by draw size (the
        game's own result otherwise)."""
        chosen = self.system()
        return chosen if chosen is not None or not rules.scored_by_centres else choose("draw-size")

    def report(self, rules: AnyRules, system: Scoring | None = None) -> str:
        """How the game ended and its scores, as the text report and `adjudicator show` say them (`system`: one
        chosen for this report over the file's)."""
        system = system or self.system_for(rules)
        title = f"{system.title} ({system.name})" if system else "The game's own result"
        return (end_sentence(self.end, rules.year_word) + "\n"
                + scores_table(self.end, rules.scores(self.end, system), title, rules.year_word))

    def to_data(self, rules: AnyRules) -> dict[str, Any]:
        """The `end` mapping of the game file: the record, the system chosen, the scores rounded for readers."""
        data = self.end.to_json()
        if self.scoring is not None:
            data["scoring"] = dict(self.scoring)
        scores = self.scores(rules)
        if scores:
            data["scores"] = {p: _number(rounded(v)) for p, v in scores.items()}
        return data


def _number(value: Any) -> int | float:
    return int(value) if value == int(value) else float(value)


class GameEnded(AdjudicatorError):
    """A game whose file records its end: it is judged no more (its phases stay readable)."""

    kind = Kind.CONFLICT


def ended_refusal(rules: AnyRules, end: RecordedEnd, file: str | None = None) -> GameEnded:
    """The refusal to judge an ended game, naming its end and how to go on."""
    return GameEnded(f"the game has ended ({describe(end.end, rules.year_word)}): it is judged no more; its "
                     "position and phases stay readable (adjudicator show, adjudicator score); to play on, delete "
                     "the file's `end:` key", file=file)


@dataclass(frozen=True)
class GameFile:
    """A game file read: the board, the position, and the game's end when it has ended."""

    board: Any
    state: Any
    end: RecordedEnd | None = None


def game_from_data(data: Any, file: str | None = None, board: Any = None) -> tuple[Any, Any]:
    """(board, state) from a parsed game file of any game (`game_file_from_data` without its end, which is
    checked all the same)."""
    game = game_file_from_data(data, file, board)
    return game.board, game.state


END_EXTRAS = ("scoring", "scores")  # the keys of a game file's `end` beside the end record's


def _key_line(node: dict[Any, Any], pointer: str | None) -> int | None:
    """The line of the key a JSON pointer's first step names in `node` (YAML keys keep their lines)."""
    first = (pointer or "").lstrip("/").split("/", 1)[0]
    return next((line_of(k) for k in node if k == first), None) if first else None


def end_from_data(rules: AnyRules, board: Any, state: Any, key: Any, node: Any, file: str | None) -> RecordedEnd:
    """A game file's `end` (`node`, under `key`) read and checked against the game: its record, the powers of this
    game, the scoring system (one the game can be scored by); a problem is located by file, line and key
    (`/end/...`)."""
    if not isinstance(node, dict):
        raise _err("end must be a mapping: the end record (kind, powers, year, ...) and its scoring", file, key,
                   "/end")
    record = LineDict((k, v) for k, v in node.items() if k not in END_EXTRAS)
    record.line = line_of(node)
    try:
        end = GameEnd.from_json(record, file=file)
    except EndError as exc:
        # (a number keeps no line: the line of its key, else of the value the problem is in)
        raise EndError(exc.message, file=file, line=_key_line(node, exc.pointer) or exc.line or line_of(node),
                       pointer="/end" + (exc.pointer or "")) from None
    players = rules.players(board, state)
    named = [p.name for p in end.standing]
    if sorted(named) != sorted(players):
        missing = [p for p in players if p not in named] or [p for p in named if p not in players]
        raise _err(f"the end's centres name the powers {', '.join(named)}, not this game's ({', '.join(players)}): "
                   f"{missing[0]} differs", file, node.get("centres"), "/end/centres", )
    choice = node.get("scoring")
    recorded = RecordedEnd(end, None if choice is None else dict(choice) if isinstance(choice, Mapping) else
                           {"system": choice})
    try:
        recorded.scores(rules)  # (a system the game cannot be scored by, a parameter it does not take)
    except AdjudicatorError as exc:
        raise EndError(exc.message, file=file, line=line_of(choice) or _key_line(node, "/scoring") or line_of(node),
                       pointer="/end/scoring") from None
    return recorded


def game_file_from_data(data: Any, file: str | None = None, board: Any = None) -> GameFile:
    """The board, state and end from a parsed game file of any game: Diplomacy variants here, others by their rules.

    The variant is a shipped name, or (in a file) a board file's path relative to the game file, whose content
    must match the recorded `board_hash`; `board` is a board already loaded (an API request's inline board)."""
    if not isinstance(data, dict) or ("variant" not in data and board is None):
        raise StateError("a game file must be a mapping that names its variant", file=file, line=line_of(data),
                         pointer="/variant")
    if board is None:
        ref = str(data["variant"])
        base = Path(file).parent if file and is_board_path(ref) else None
        try:
            board = load_board_ref(ref, base)
        except AdjudicatorError as exc:
            raise StateError(exc.message, file=exc.file or file, line=exc.line or line_of(data.get("variant")),
                             pointer="/variant") from None
        recorded = data.get("board_hash")
        current = getattr(board, "content_hash", None)
        if recorded is not None and current is not None and str(recorded) != current:
            raise _err(f"the board file {ref} has changed since this game file was written (recorded {recorded}, "
                       f"now {current}); check that the change is meant for this game, then delete the board_hash "
                       f"line (the next file written records the new one)", file, data.get("board_hash"), "/board_hash")
    elif "variant" in data and str(data["variant"]).lower() != str(board.name).lower():
        raise _err(f"the state is a game of {data['variant']!r}, but the board sent is {board.name!r}", file,
                   data.get("variant"), "/variant")
    body = LineDict((k, v) for k, v in data.items() if k not in ("variant", "board_hash", "end"))
    body.line = line_of(data)
    rules = rules_of(board)
    try:
        state = rules.state_from_data(board, body, file)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError) as exc:
        # A value of a type the game's reader did not expect: still the input's fault, so a located refusal
        # (a 422, exit status 2), never a traceback; the game's reader should name the field itself.
        raise StateError(f"the state has a value of the wrong kind somewhere ({type(exc).__name__}: "
                         f"{str(exc)[:200]})", file=file, line=line_of(data), pointer="") from None
    key = next((k for k in data if k == "end"), None)  # (the key keeps its line, a number given for it none)
    end = end_from_data(rules, board, state, key, data["end"], file) if key is not None else None
    return GameFile(board, state, end)


# The writer's marks: a comment on the first line (so no line moves) and a last line. A file with the first
# but not the last was cut short (a full disk, an interrupted copy) even when what is left is valid YAML.
# Files written before these marks still load.
FILE_MARK = "# written by adjudicator; keep the last line, it shows the file is whole"
FILE_END = "# end of game file\n"


def check_whole(text: str, file: str | None = None) -> None:
    """Refuse a game file whose writer's last line is missing (StateError naming the file)."""
    if FILE_MARK in text.split("\n", 1)[0] and not text.rstrip().endswith(FILE_END.rstrip()):
        raise StateError(f"the game file is cut short: its last line should be {FILE_END.strip()!r}; restore it "
                         "from its .bak file or the previous phase's file", file=file,
                         line=text.count("\n") + 1)


def read_game_file(path: str | Path) -> tuple[Any, Any]:
    """Load a game file and its board (a file cut short is refused)."""
    game = read_game(path)
    return game.board, game.state


def read_game(path: str | Path) -> GameFile:
    """Load a game file: its board, its position and its end (a file cut short is refused)."""
    text = read_text(path)
    check_whole(text, str(path))
    return game_file_from_data(load_yaml_text(text, str(path)), str(path))


def game_to_data(board: Any, state: Any, path: str | Path | None = None, end: RecordedEnd | None = None) -> dict[str, Any]:
    """Plain data for any game's state (with `variant` first, then the end when it has ended): a board file is
    named by its path relative to `path` (where the game file is written; the current folder when printed),
    with its content hash."""
    head: dict[str, Any] = {"variant": board.name}
    board_file = getattr(board, "board_file", None)
    if board_file:
        folder = Path(path).resolve().parent if path else Path.cwd()
        head = {"variant": Path(os.path.relpath(board_file, folder)).as_posix(),
                "board_hash": getattr(board, "content_hash", None)}
    rules = rules_of(board)
    if end is not None:
        head["end"] = end.to_data(rules)
    return {**head, **rules.state_to_data(board, state)}


def dump_game(board: Any, state: Any, path: str | Path | None = None, end: RecordedEnd | None = None) -> str:
    """The game file text (to be written at `path`: a board file is named relative to it), with the marks that
    show it is whole."""
    first, rest = dump_yaml(game_to_data(board, state, path, end)).split("\n", 1)  # `variant: ...` comes first
    return f"{first}  {FILE_MARK}\n{rest}{FILE_END}"


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write a file so that it is either fully written or untouched (temporary file, then rename)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent or Path(".")))
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # the permissions a plain open() would give, not mkstemp's 0600
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
