"""One converter between the field's records and this project's games: a record (the package's saved game,
FAIR's JSON) or a game file read into a RecordedGame, and a RecordedGame written as any of them.

A game file keeps its whole history: each judged phase's position (`position`, as `adjudicator rewind` keeps it),
its orders and results. A project game written as a record gets each phase's orders in the records' notation and
its results drawn from this project's judgement of the phase; an order the project cannot read is written as
it was sent and named in the game's notes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.game_end import GameEnd
from adjudicator.gamefile import RecordedEnd, dump_game, read_game
from adjudicator.games.diplomacy.phase import adjudicate
from adjudicator.games.diplomacy.records.fair import looks_like_fair, read_fair, write_fair
from adjudicator.games.diplomacy.records.mila import looks_like_mila, read_mila, write_mila
from adjudicator.games.diplomacy.records.notation import RecordError, notation
from adjudicator.games.diplomacy.records.order_text import read_orders, record_order, result_codes
from adjudicator.games.diplomacy.records.recorded import RecordedGame, RecordedPhase, retreats_of
from adjudicator.games.diplomacy.state_file import state_from_data, state_to_data

TARGETS = ("mila", "fair", "game")
FAILED_CODES = {"bounce", "cut", "void", "no convoy", "disrupted", "disband"}


def from_data(data: Any, where: str = "the game") -> RecordedGame:
    """A decoded record in whichever of the two formats it is."""
    if looks_like_fair(data):
        return read_fair(data, where)
    if looks_like_mila(data):
        return read_mila(data, where)
    raise RecordError(f"{where}: neither a saved game of the diplomacy package (`map`, `phases`) nor FAIR's game "
                      "JSON (`version`, `phases`)")


def from_game_file(path: str | Path) -> RecordedGame:
    """A game file as a RecordedGame: each history entry's kept position and orders, then the current position."""
    game = read_game(path)
    scoring = str(game.end.scoring.get("system")) if game.end is not None and game.end.scoring else None
    return from_history(game.board, game.state.history, game.state, game.end.end if game.end else None, scoring,
                        Path(path).stem, str(path))


def from_history(board: Any, history: list[Any], state: Any, end: GameEnd | None, scoring: str | None,
                 game_id: str, where: str, messages_now: list[dict[str, Any]] | None = None) -> RecordedGame:
    """A game's judged phases (entries with the position each was judged from and its orders, as a game file's
    history keeps them, or a hosted game's phases, with their `messages` when given) and its position now (with
    `messages_now`, the messages of the phase it is at), as a RecordedGame."""
    n = notation(board)
    phases: list[RecordedPhase] = []
    notes: list[str] = []
    for i, entry in enumerate(history):
        if not isinstance(entry, dict) or not isinstance(entry.get("position"), dict):
            raise RecordError(f"{where}: history entry {i + 1} keeps no position (an older game file, or one not "
                              "judged by `adjudicator adjudicate`): its phase cannot be written as a record")
        position = state_from_data({**entry["position"], "variant": board.name}, where, board)
        texts = {str(p): [str(t) for t in ts] for p, ts in (entry.get("orders") or {}).items()}
        orders, unread = read_orders(n, texts)
        notes += [f"{where}, {entry.get('phase', i + 1)}: {u.power}'s order {u.text!r} is not read ({u.reason}); "
                  "written as it was sent" for u in unread]
        written: dict[str, list[str]] = {p: [] for p in board.powers if p in texts}
        for order in orders:
            written.setdefault(str(order.power), []).append(record_order(n, order, position))
        for u in unread:
            written.setdefault(u.power, []).append(u.text)
        recorded: dict[str, Any] = entry["recorded"] if isinstance(entry.get("recorded"), dict) else {}
        kept = recorded.get("results")
        codes: dict[str, list[str]] = kept if isinstance(kept, dict) else \
            result_codes(n, adjudicate(board, position, orders))  # (a record's own results, as they were)
        silent = frozenset(p for p in recorded.get("silent") or () if p in board.powers)  # (sent nothing at all)
        phases.append(RecordedPhase(str(recorded.get("name") or n.phase_code(position.phase)), position, written, codes,
                                    retreats=_retreats(board, position), silent=silent,
                                    messages=_messages(n, entry.get("messages"), position.phase)))
    phases.append(RecordedPhase("COMPLETED" if end is not None else n.phase_code(state.phase), state, None,
                                retreats=_retreats(board, state), messages=_messages(n, messages_now, state.phase)))
    return RecordedGame(board, game_id, "game", phases, end=end, scoring=scoring, notes=notes)


def _messages(n: Any, given: list[dict[str, Any]] | None, phase: Any) -> list[dict[str, Any]]:
    """A phase's messages (`sender` and `recipient`: our powers, or ALL; `time_sent`; `message`) as the records
    write them: the powers and the phase in the record's notation."""
    return [{"phase": n.phase_code(phase), "sender": n.power(m["sender"]),
             "recipient": "ALL" if m["recipient"] == "ALL" else n.power(m["recipient"]), "time_sent": m["time_sent"],
             "message": m["message"]} for m in given or ()]


def _retreats(board: Any, state: Any) -> dict[str, set[str]]:
    """A position's retreat options by dislodged province, as the judge offers them."""
    return {u.province: set(places) for table in retreats_of(board, state).values() for u, places in table.items()}


def to_game_data(game: RecordedGame) -> tuple[Any, Any, RecordedEnd | None]:
    """(board, state, end) of the game file a RecordedGame makes: the last position, each played phase in its
    history with the position it was played from, its orders as recorded and the recorded results."""
    board = game.board
    history: list[dict[str, Any]] = []
    *played, last_phase = game.phases
    if last_phase.orders and any(last_phase.orders.values()):
        game.notes.append(f"{game.id}: the orders of its last phase, {last_phase.name}, were never judged; a game "
                          "file keeps none (it is at that phase, for its players to order again)")
    for phase in played:
        if phase.orders is None or phase.completed:
            continue
        position = state_to_data(board, phase.state)
        position.pop("history", None)
        results = []
        for power, texts in phase.orders.items():
            for text in texts:
                codes = phase.results.get(" ".join(text.split()[:2]).upper(), [])
                failed = bool(FAILED_CODES & set(codes))
                results.append({"power": power, "order": text, "status": "fails" if failed else "succeeds",
                                "reason": "recorded: " + (", ".join(codes) if codes else "carried out")})
        history.append({"phase": str(phase.state.phase), "orders": {p: list(o) for p, o in phase.orders.items()},
                        "results": results, "position": position,
                        "recorded": {"name": phase.name, "results": dict(phase.results),
                                     **({"silent": sorted(phase.silent)} if phase.silent else {})}})
    state = last_phase.state.copy(history=history)
    end = RecordedEnd(game.end, {"system": game.scoring} if game.scoring else None) if game.end else None
    return board, state, end


def written(game: RecordedGame, target: str, path: str | Path | None = None) -> str:
    """The text of a RecordedGame written as `target` (mila, fair: one JSON line; game: the game file's YAML)."""
    if target == "mila":
        return json.dumps(write_mila(game)) + "\n"
    if target == "fair":
        return json.dumps(write_fair(game)) + "\n"
    if target == "game":
        board, state, end = to_game_data(game)
        return dump_game(board, state, path, end)
    raise AdjudicatorError(f"--to {target[:20]!r}: the formats are {', '.join(TARGETS)}")


def target_of(path: str | Path, given: str | None) -> str:
    """The format to write: `--to`, else the output's suffix (`.yaml`: a game file; `.json`/`.jsonl`: the package's
    saved game)."""
    if given:
        if given not in TARGETS:
            raise AdjudicatorError(f"--to {given[:20]!r}: the formats are {', '.join(TARGETS)}")
        return given
    name = str(path)
    if name.endswith((".yaml", ".yml")):
        return "game"
    if name.endswith((".json", ".jsonl")):
        return "mila"
    raise AdjudicatorError(f"{name}: say which format to write with --to ({', '.join(TARGETS)})")
