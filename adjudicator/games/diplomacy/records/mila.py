"""The `diplomacy` package's saved game (`to_saved_game_format`, the format of the ~156,000-game dataset), read
into a RecordedGame and written from one (../shared/formats/GAME_FORMATS.md section 1).

A game read and written back is the game it was: the fields this project does not use (timestamps, notes,
`influence`, `civil_disorder`, messages...) are kept as they were. A game of this project written out gets those
the package needs to load and check it: `homes`, `builds`, `influence` (the provinces each power last stood in),
`civil_disorder` and the position's `zobrist_hash`."""

from __future__ import annotations

from typing import Any

from adjudicator.games.diplomacy.records.notation import Notation, RecordError, notation
from adjudicator.games.diplomacy.records.recorded import RecordedGame, board_for, builds_of, read_phases, state_fields
from adjudicator.games.diplomacy.records.zobrist import zobrist_hash
from adjudicator.games.diplomacy.state import GameState

FORMAT = "mila"


def looks_like_mila(data: Any) -> bool:
    """Whether a decoded record is a saved game of the package (a map name and phases, no FAIR `version`)."""
    return isinstance(data, dict) and "phases" in data and "version" not in data and "variant" not in data


def read_mila(data: Any, where: str = "the game") -> RecordedGame:
    """A saved game of the package as a RecordedGame; a RecordError says what is wrong and where."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a saved game is a JSON object with `id`, `map`, `rules` and `phases`")
    game_id = str(data.get("id") or "")
    where = f"{where} {game_id[:40]}".rstrip() if game_id else where
    board = board_for(FORMAT, data.get("map", "standard"), where)
    rules = data.get("rules") or []
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise RecordError(f"{where}: `rules` must be a list of rule names such as NO_PRESS")
    phases = read_phases(notation(board), data.get("phases"), where)
    kept = {k: v for k, v in data.items() if k not in ("id", "map", "rules", "phases")}
    return RecordedGame(board, game_id, FORMAT, phases, list(rules), kept=kept)


def _influence(n: Notation, before: GameState | None, state: GameState, held: dict[str, list[str]]) \
        -> dict[str, list[str]]:
    """The package's `influence`, as it keeps it: each power's places it moved or retreated into last (a build
    claims none), every unit's place at the start. (It keeps a move's place by its first three letters and a
    retreat's whole, coast and all, and a claim takes the place from another power only when written alike.)"""
    now = {power: list(places) for power, places in held.items()}
    if before is None:
        claims = [(u.power, n.place(u.location)[:3]) for u in
                  list(state.units.values()) + [d.unit for d in state.dislodged.values()]]
    elif before.phase.type == "Adjustment":
        claims = []
    else:
        whole = before.phase.type == "Retreat"
        claims = [(u.power, n.place(u.location) if whole else n.place(u.location)[:3])
                  for u in state.units.values() if before.units.get(u.province) != u]
    for power, place in claims:
        for places in now.values():
            if place in places:
                places.remove(place)
        now.setdefault(power, []).append(place)
    return now


def write_mila(game: RecordedGame) -> dict[str, Any]:
    """A RecordedGame as a saved game the package loads: each phase's kept fields as they were, the position
    written from the state, and what a game of this project never had computed."""
    n = notation(game.board)
    board = game.board
    map_name = (board.raw.get("records") or {}).get(FORMAT)
    if not map_name:
        raise RecordError(f"the board {board.name} has no map in the diplomacy package (its `records: mila` names "
                          "none); write it as a game file (--to game)")
    phases: list[dict[str, Any]] = []
    influence: dict[str, list[str]] = {p: [] for p in board.powers}
    before: GameState | None = None
    for phase in game.phases:
        state = phase.state
        influence = _influence(n, before, state, influence)
        before = state
        name = "COMPLETED" if phase.completed else n.phase_code(state.phase)
        written: dict[str, Any] = {
            "timestamp": 0, "zobrist_hash": zobrist_hash(board, state), "note": "", "name": name,
            **state_fields(n, state),
            "homes": {n.power(p): [n.place(c) for c in board.home_centres(p)] for p in board.powers},
            "influence": {n.power(p): list(influence.get(p, ())) for p in board.powers},
            "civil_disorder": {n.power(p): 0 for p in board.powers},
            "builds": {n.power(p): builds_of(n, state, p) for p in board.powers},
            "game_id": game.id, "map": map_name, "rules": game.rules}
        for key, value in phase.kept_state.items():
            if key not in ("units", "centers", "retreats", "name"):
                written[key] = value  # what the record had, as it was
        written["name"] = name
        orders: dict[str, Any] = {n.power(p): None for p in board.powers} if phase.orders is None else \
            {n.power(p): None if p in phase.silent else list(o) for p, o in phase.orders.items()}  # (None: no orders)
        phases.append({"name": name, "state": written, "orders": orders, "results": dict(phase.results),
                       "messages": list(phase.messages), **phase.kept})
    return {"id": game.id, "map": map_name, "rules": list(game.rules), "phases": phases, **game.kept}

