"""Hosted games and the field's game records: a recorded game (the `diplomacy` package's saved game, FAIR's game
JSON) begun as a hosted game with its past phases and its messages, and a hosted game written out as a record or a
game file (FAIR's with the game's messages, when the caller may read them all). (Diplomacy's records: the API is
the layer that knows both the hosted service and the game.)"""

from __future__ import annotations

from typing import Any

from adjudicator.arrival import GM
from adjudicator.errors import AdjudicatorError
from adjudicator.game import rules_of
from adjudicator.game_end import GameEnd
from adjudicator.games.diplomacy.records.convert import from_data, from_history, written
from adjudicator.games.diplomacy.records.notation import RecordError, notation
from adjudicator.games.diplomacy.records.recorded import RecordedGame
from adjudicator.games.diplomacy.records.replay import replay_game
from adjudicator.games.diplomacy.state_file import state_to_data
from adjudicator.hosted.imported import ImportedPhase
from adjudicator.hosted.messages import ImportedMessage
from adjudicator.hosted.models import Message
from adjudicator.refusals import Kind
from api.problems import Problem

FORMATS = {"mila": "application/json", "fair": "application/json", "game": "application/yaml"}
SECONDS = {"fair": 100.0, "mila": 1_000_000.0}  # a message's `time_sent` per second: FAIR's centiseconds, the
# package's microseconds
Imported = tuple[str, dict[str, Any], list[ImportedPhase], GameEnd | None, list[str], list[ImportedMessage]]


def imported(record: Any) -> Imported:
    """(variant, the position now, the phases played before it, the record's end, notes, its messages) of a
    recorded game; a record this project cannot read is refused naming what and where."""
    try:
        game = from_data(record, "the record")
        checks = {c.phase: c for c in replay_game(game, classify=False)}
    except AdjudicatorError as exc:
        raise Problem(Kind.BAD_INPUT, "Bad record", exc.message, pointer="/record") from None
    board = game.board
    phases: list[ImportedPhase] = []
    numbers: list[int] = []  # each record phase's number in the hosted game (one not played: the next one's)
    for phase, after in zip(game.phases, game.phases[1:]):
        numbers.append(len(phases) + 1)
        if phase.orders is None or phase.completed:
            continue
        check = checks.get(phase.name)
        notes = tuple(check.differences + check.unread) if check else ()
        phases.append(ImportedPhase(dict(phase.orders), _data(board, phase.state), _data(board, after.state), notes))
    numbers.append(len(phases) + 1)
    end = game.end or (board_end(game) if game.phases[-1].completed else None)
    said = list(game.notes)
    messages = _messages(game, numbers, said)
    return board.name, _data(board, game.phases[-1].state), phases, end, said, messages


def _messages(game: RecordedGame, numbers: list[int], notes: list[str]) -> list[ImportedMessage]:
    """A record's messages as the hosted game keeps them, each in its phase (the hosted service checks their text
    at its door); one from or to no power of the board, to its own sender, or blank is left out, saying so."""
    n = notation(game.board)
    per_second = SECONDS.get(game.fmt, 1.0)
    out: list[ImportedMessage] = []
    for i, phase in enumerate(game.phases):
        for j, m in enumerate(phase.messages):
            where = f"the record's phase {phase.name[:12]}, message {j + 1}"
            try:
                sender = n.our_power(str(m.get("sender", "")), where)
                recipient = str(m.get("recipient", ""))
                to = () if recipient.upper() == "ALL" else (n.our_power(recipient, where),)
            except RecordError as exc:
                notes.append(f"{exc.message}: the message is not kept")
                continue
            body = m.get("message")
            if to == (sender,) or not isinstance(body, str) or not body.strip():
                why = "to its own sender" if to == (sender,) else "without text"
                notes.append(f"{where}: a message {why} is not kept")
                continue
            sent = m.get("time_sent")
            seconds = sent / per_second if isinstance(sent, (int, float)) and not isinstance(sent, bool) else None
            out.append(ImportedMessage(numbers[i], sender, not to, to, body, seconds,
                                       f"/record/phases/{i}/messages/{j}/message"))  # (j: in time order)
    return out


def board_end(game: Any) -> GameEnd | None:
    """The end a finished record (its last phase `COMPLETED`) reaches by the rules: a solo."""
    return rules_of(game.board).natural_end(game.board, game.phases[-1].state)


def _data(board: Any, state: Any) -> dict[str, Any]:
    data = state_to_data(board, state)
    data.pop("history", None)
    data.pop("variant", None)
    return data


def record_of(game_id: str, board: Any, state: Any, entries: list[dict[str, Any]], end: GameEnd | None,
              scoring: str | None, fmt: str, talk: tuple[list[Message] | None, str] = (None, "")) -> tuple[str, str]:
    """A hosted game written as a record (`mila`, `fair`) or a game file (`game`): (the text, its media type).
    FAIR's carries the game's messages (`talk`: every message, or None when the caller may not read them all,
    and the word saying which, in its metadata); the others none."""
    if fmt not in FORMATS:
        raise Problem(Kind.BAD_INPUT, "Bad request", f"format {fmt[:20]!r}: the formats are {', '.join(FORMATS)}",
                      pointer="format")
    messages, said = talk
    now: list[dict[str, Any]] = []
    if fmt == "fair" and messages:
        entries = [dict(e, messages=[]) for e in entries]
        for row in messages:
            kept = entries[row.phase_no - 1]["messages"] if row.phase_no <= len(entries) else now
            kept.extend(_fair_messages(row))
    try:
        game = from_history(board, entries, state, end, scoring, game_id, f"game {game_id}", now)
        if fmt == "fair":
            game.kept["metadata"] = {"messages": said or "left out"}
        text = written(game, fmt)
    except AdjudicatorError as exc:
        raise Problem(Kind.REFUSED, "Not available", exc.message) from None
    return text, FORMATS[fmt]


def _fair_messages(row: Message) -> list[dict[str, Any]]:
    """A hosted message as FAIR's messages (our powers: `from_history` writes them as FAIR does): one to ALL, or
    one per recipient (FAIR names one); the game master's part is no power's, and is left out."""
    if row.sender == GM:
        return []
    base = {"sender": row.sender, "time_sent": round(row.sent_at * SECONDS["fair"]), "message": row.body}
    recipients = ["ALL"] if row.to_all else [r for r in row.recipients if r != GM]
    return [{**base, "recipient": r} for r in recipients]
