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
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from adjudicator.catalogue import is_board_path, load_board_ref
from adjudicator.errors import AdjudicatorError, StateError
from adjudicator.game import rules_of
from adjudicator.located import located_error
from adjudicator.textio import read_text
from adjudicator.yamldump import dump_yaml
from adjudicator.yamlio import LineDict, line_of, load_yaml_text


def _err(message: str, file: str | None, node: Any = None, pointer: str | None = None) -> AdjudicatorError:
    return located_error(message, file, node, pointer=pointer)


def game_from_data(data: Any, file: str | None = None, board: Any = None) -> tuple[Any, Any]:
    """(board, state) from a parsed game file of any game: Diplomacy variants here, others by their rules.

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
    body = LineDict((k, v) for k, v in data.items() if k not in ("variant", "board_hash"))
    body.line = line_of(data)
    try:
        return board, rules_of(board).state_from_data(board, body, file)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError) as exc:
        # A value of a type the game's reader did not expect: still the input's fault, so a located refusal
        # (a 422, exit status 2), never a traceback; the game's reader should name the field itself.
        raise StateError(f"the state has a value of the wrong kind somewhere ({type(exc).__name__}: "
                         f"{str(exc)[:200]})", file=file, line=line_of(data), pointer="") from None


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
    text = read_text(path)
    check_whole(text, str(path))
    return game_from_data(load_yaml_text(text, str(path)), str(path))


def game_to_data(board: Any, state: Any, path: str | Path | None = None) -> dict[str, Any]:
    """Plain data for any game's state (with `variant` first): a board file is named by its path relative to
    `path` (where the game file is written; the current folder when printed), with its content hash."""
    head: dict[str, Any] = {"variant": board.name}
    board_file = getattr(board, "board_file", None)
    if board_file:
        folder = Path(path).resolve().parent if path else Path.cwd()
        head = {"variant": Path(os.path.relpath(board_file, folder)).as_posix(),
                "board_hash": getattr(board, "content_hash", None)}
    return {**head, **rules_of(board).state_to_data(board, state)}


def dump_game(board: Any, state: Any, path: str | Path | None = None) -> str:
    """The game file text (to be written at `path`: a board file is named relative to it), with the marks that
    show it is whole."""
    first, rest = dump_yaml(game_to_data(board, state, path)).split("\n", 1)  # `variant: ...` comes first
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
