"""FAIR's Diplomacy game JSON, version 1.0 (Cicero, dipcc), read into a RecordedGame and written from one
(../shared/formats/GAME_FORMATS.md section 2): its scoring system named both ways, a draw recorded as the public
`<DRAW>` votes of its powers (messages to ALL in the game's last played phase), and every field this project does
not use kept as it was."""

from __future__ import annotations

from typing import Any

from adjudicator.game import rules_of
from adjudicator.game_end import EndError, EndKind, GameEnd
from adjudicator.games.diplomacy.records.notation import RecordError, notation
from adjudicator.games.diplomacy.records.recorded import RecordedGame, board_for, builds_of, read_phases, state_fields

FORMAT = "fair"
VERSION = "1.0"
DRAW = "<DRAW>"
# FAIR's scoring names (and the numbers older files write) -> this project's scoring systems (scoring.yaml)
SCORING_IN = {"sum_of_squares": "sum-of-squares", "0": "sum-of-squares", "draw_size": "draw-size", "1": "draw-size",
              "c_diplo_100": "c-diplo", "carnage": "carnage"}
SCORING_OUT = {"sum-of-squares": "sum_of_squares", "draw-size": "draw_size", "c-diplo": "c_diplo_100",
               "carnage": "carnage"}


def looks_like_fair(data: Any) -> bool:
    """Whether a decoded record is FAIR's game JSON (it names its `version`)."""
    return isinstance(data, dict) and "phases" in data and "version" in data


def _messages(raw: Any) -> list[dict[str, Any]]:
    """A phase's messages in time order, whether written as a list or as FAIR's mapping of time to message."""
    if isinstance(raw, dict):
        return [m for _, m in sorted(raw.items(), key=lambda kv: str(kv[0]).zfill(24)) if isinstance(m, dict)]
    return [m for m in raw if isinstance(m, dict)] if isinstance(raw, list) else []


def read_fair(data: Any, where: str = "the game") -> RecordedGame:
    """A FAIR game JSON as a RecordedGame (a draw its survivors all voted for in its last phase becomes the
    game's end); a RecordError says what is wrong and where."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a FAIR game is a JSON object with `version`, `id`, `map` and `phases`")
    if str(data.get("version")) != VERSION:
        raise RecordError(f"{where}: FAIR game JSON version {str(data.get('version'))[:12]!r} is not one this project "
                          f"reads (it reads {VERSION})")
    game_id = str(data.get("id") or "")
    where = f"{where} {game_id[:40]}".rstrip() if game_id else where
    board = board_for(FORMAT, data.get("map", "standard"), where)
    n = notation(board)
    raw_phases = data.get("phases")
    if isinstance(raw_phases, list):  # FAIR's messages may be a mapping: read them as a list, keep the shape
        raw_phases = [{**p, "messages": _messages(p.get("messages"))} if isinstance(p, dict) else p
                      for p in raw_phases]
    phases = read_phases(n, raw_phases, where)
    scoring = data.get("scoring_system")
    system = SCORING_IN.get(str(scoring)) if scoring is not None else None
    game = RecordedGame(board, game_id, FORMAT, phases, scoring=system,
                        kept={k: v for k, v in data.items() if k not in ("version", "id", "map", "phases")})
    if scoring is not None and system is None:
        game.notes.append(f"{where}: the scoring system {str(scoring)[:40]!r} is not one this project scores by; "
                          "kept as written")
    game.end = _draw_voted(game, where)
    return game


def _draw_voted(game: RecordedGame, where: str) -> GameEnd | None:
    """The draw the survivors all voted for (`<DRAW>` to ALL) in the last played phase, if they did."""
    played = [p for p in game.phases if p.orders is not None] or game.phases
    last = game.phases[-1]
    n = notation(game.board)
    voters = set()
    for message in played[-1].messages + (last.messages if last is not played[-1] else []):
        if str(message.get("message", "")).strip() == DRAW and str(message.get("recipient", "")).upper() == "ALL":
            try:
                voters.add(n.our_power(str(message.get("sender", "")), where))
            except RecordError:
                game.notes.append(f"{where}: a draw vote from {str(message.get('sender'))[:20]!r}, not a power")
    rules = rules_of(game.board)
    survivors = rules.survivors(game.board, last.state)
    if not survivors or not set(survivors) <= voters:
        return rules.natural_end(game.board, last.state)
    try:
        return rules.end_as(game.board, last.state, EndKind.DRAW, survivors)
    except EndError as exc:
        game.notes.append(f"{where}: the draw votes do not make an end: {exc.message}")
        return None


def write_fair(game: RecordedGame) -> dict[str, Any]:
    """A RecordedGame as FAIR game JSON v1.0: each phase's position, orders and messages (a draw end adds its
    powers' `<DRAW>` votes to the last played phase when the record has none)."""
    n = notation(game.board)
    map_name = (game.board.raw.get("records") or {}).get(FORMAT)
    if not map_name:
        raise RecordError(f"the board {game.board.name} has no map in FAIR's game JSON (FAIR plays "
                          "standard and fva); write it as a saved game of the diplomacy package (--to mila)")
    phases: list[dict[str, Any]] = []
    for phase in game.phases:
        name = "COMPLETED" if phase.completed else n.phase_code(phase.state.phase)
        fields = state_fields(n, phase.state)
        builds = phase.kept_state.get("builds")
        if builds is None:
            builds = {n.power(p): builds_of(n, phase.state, p) for p in game.board.powers}
        kept = {k: v for k, v in phase.kept.items() if k not in ("messages", "orders")}
        phases.append({"name": name, "messages": list(phase.messages),
                       "orders": {n.power(p): list(o) for p, o in (phase.orders or {}).items()},
                       "state": {"name": name, **fields, "builds": builds}, **kept})
    end = game.end
    if end is not None and end.kind is EndKind.DRAW and phases:
        played = max((i for i, p in enumerate(game.phases) if p.orders is not None), default=len(phases) - 1)
        votes = {str(m.get("sender")) for m in phases[played]["messages"] if str(m.get("message")).strip() == DRAW}
        for power in end.powers:
            if n.power(power) not in votes:
                phases[played]["messages"].append({"phase": phases[played]["name"], "sender": n.power(power),
                                                   "recipient": "ALL", "time_sent": 0, "message": DRAW})
    scoring = SCORING_OUT.get(game.scoring or "")
    out: dict[str, Any] = {"version": VERSION, "id": game.id, "map": map_name, "is_full_press": False,
                           "metadata": {}, **game.kept}
    if scoring:
        out["scoring_system"] = scoring
    out["phases"] = phases
    return out
