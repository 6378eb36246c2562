"""Hosted games and the field's game records: a recorded game (the `diplomacy` package's saved game, FAIR's game
JSON) begun as a hosted game with its past phases, and a hosted game written out as a record or a game file.
(Diplomacy's records: the API is the layer that knows both the hosted service and the game.)"""

from __future__ import annotations

from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.game import rules_of
from adjudicator.game_end import GameEnd
from adjudicator.games.diplomacy.records.convert import from_data, from_history, written
from adjudicator.games.diplomacy.records.replay import replay_game
from adjudicator.games.diplomacy.state_file import state_to_data
from adjudicator.hosted.imported import ImportedPhase
from adjudicator.refusals import Kind
from api.problems import Problem

FORMATS = {"mila": "application/json", "fair": "application/json", "game": "application/yaml"}


def imported(record: Any) -> tuple[str, dict[str, Any], list[ImportedPhase], GameEnd | None, list[str]]:
    """(variant, the position now, the phases played before it, the record's end, notes) of a recorded game; a
    record this project cannot read is refused naming what and where."""
    try:
        game = from_data(record, "the record")
        checks = {c.phase: c for c in replay_game(game, classify=False)}
    except AdjudicatorError as exc:
        raise Problem(Kind.BAD_INPUT, "Bad record", exc.message, pointer="/record") from None
    board = game.board
    phases: list[ImportedPhase] = []
    for phase, after in zip(game.phases, game.phases[1:]):
        if phase.orders is None or phase.completed:
            continue
        check = checks.get(phase.name)
        notes = tuple(check.differences + check.unread) if check else ()
        phases.append(ImportedPhase(dict(phase.orders), _data(board, phase.state), _data(board, after.state), notes))
    end = game.end or (board_end(game) if game.phases[-1].completed else None)
    return board.name, _data(board, game.phases[-1].state), phases, end, list(game.notes)


def board_end(game: Any) -> GameEnd | None:
    """The end a finished record (its last phase `COMPLETED`) reaches by the rules: a solo."""
    return rules_of(game.board).natural_end(game.board, game.phases[-1].state)


def _data(board: Any, state: Any) -> dict[str, Any]:
    data = state_to_data(board, state)
    data.pop("history", None)
    data.pop("variant", None)
    return data


def record_of(game_id: str, board: Any, state: Any, entries: list[dict[str, Any]], end: GameEnd | None,
              scoring: str | None, fmt: str) -> tuple[str, str]:
    """A hosted game written as a record (`mila`, `fair`) or a game file (`game`): (the text, its media type)."""
    if fmt not in FORMATS:
        raise Problem(Kind.BAD_INPUT, "Bad request", f"format {fmt[:20]!r}: the formats are {', '.join(FORMATS)}",
                      pointer="format")
    try:
        game = from_history(board, entries, state, end, scoring, game_id, f"game {game_id}")
        text = written(game, fmt)
    except AdjudicatorError as exc:
        raise Problem(Kind.REFUSED, "Not available", exc.message) from None
    return text, FORMATS[fmt]
