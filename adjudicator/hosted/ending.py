"""How a hosted game's end is kept and shown: the end record (`game_end.GameEnd`) with its scores by the game's
scoring system, who ended it, and the refusal every write to an ended game gets."""

from __future__ import annotations

from typing import Any

from adjudicator.errors import AdjudicatorError
from adjudicator.game import rules_of
from adjudicator.game_end import EndKind, GameEnd
from adjudicator.hosted.errors import HostedError
from adjudicator.hosted.models import Game, iso
from adjudicator.refusals import Kind
from adjudicator.scoring import Scoring, choose, rounded

OWN_RESULT = "own result"  # what scores a game without centres: its points and ranking
BY = ("rules", "votes", "game master", "civil disorder", "year limit")  # who or what ended a game


def system_of(choice: Any) -> Scoring:
    """The scoring system a game's settings choose (a name, or a name with parameters)."""
    return choose(choice)


def scored_by(board: Any, system: Scoring) -> str:
    """The name of what scores the game's ends: its scoring system, or (a game without centres) its own result."""
    return system.name if rules_of(board).scored_by_centres else OWN_RESULT


def scores_json(board: Any, end: GameEnd, system: Scoring) -> dict[str, Any]:
    """An end's scores as the API shows them: rounded to two places (`scores`) and exact (`exact`, "n/d"); a game
    without centres scores by its own result's points, whatever the system."""
    rules = rules_of(board)
    try:
        scores = rules.scores(end, system if rules.scored_by_centres else None)
    except AdjudicatorError as exc:
        raise HostedError(Kind.REFUSED, "Not scored", exc.message, pointer="/system") from None
    return {"scores": {p: float(rounded(v)) for p, v in scores.items()}, "exact": {p: str(v) for p, v in scores.items()}}


def end_json(board: Any, end: GameEnd, system: Scoring, phase_no: int, by: str, now: float) -> dict[str, Any]:
    """The end as the game keeps it and every view shows it: kind, powers, scores, the phases judged, who ended it."""
    return {"kind": end.kind.value, "powers": list(end.powers), **scores_json(board, end, system),
            "scoring": scored_by(board, system), "phase_no": phase_no, "by": by, "at": iso(now), "record": end.to_json()}


def declared(board: Any, state: Any, kind: str, powers: list[str] | None) -> GameEnd:
    """The end the game master or the votes declare at this position, refused when it cannot be."""
    kinds = {k.value: k for k in EndKind}
    if kind not in kinds:
        raise HostedError(Kind.BAD_INPUT, "Bad request",
                          f"the end's kind must be one of {', '.join(kinds)}, not {kind!r}", pointer="/kind")
    try:
        return rules_of(board).end_as(board, state, kinds[kind], tuple(powers or ()))
    except AdjudicatorError as exc:
        raise HostedError(Kind.BAD_INPUT, "Bad request", exc.message, pointer="/powers") from None


def described(end: dict[str, Any]) -> str:
    """The end in words: "a draw of England, France (by votes, after 12 phases)"."""
    named = ", ".join(end.get("powers") or [])
    how = {"solo": f"a solo by {named}", "draw": f"a draw of {named}", "concession": f"a concession to {named}",
           "abandoned": "abandoned (every seat in civil disorder)", "stopped": "stopped"}.get(end["kind"], end["kind"])
    return f"{how} (by {end.get('by', 'rules')}, after {end.get('phase_no', 0)} phases)"


def scores_text(end: dict[str, Any]) -> str:
    """The end and its scores as lines of the text report."""
    scores = end.get("scores") or {}
    lines = [f"The game has ended: {described(end)}."]
    if scores:
        lines.append(f"Scores ({end.get('scoring')}): " + ", ".join(f"{p} {v:g}" for p, v in scores.items()))
    return "\n".join(lines)


def refuse_ended(game: Game) -> None:
    """Refused (a conflict naming the end) when the game has ended: its phases stay readable."""
    if game.status == "ended":
        end = game.end or {"kind": "solo", "powers": []}
        raise HostedError(Kind.CONFLICT, "Game over",
                          f"the game has ended: {described(end)}; it takes no more orders, judgements, votes or "
                          f"deadlines, and its phases stay readable", end=end)
