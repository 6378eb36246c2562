"""Draw votes and concessions of a hosted game: a seat's vote as a value, and whether the votes end the game.

A draw passes when every survivor votes for the same draw (a DIAS vote is a vote for the draw of every survivor,
so a named draw of every survivor is the same draw); a concession when every other survivor concedes to the same
power. A seat in civil disorder counts as voting yes to whatever the others agree on, unless the game's settings
say `disorder_votes: no` (SCORING.md: so a vanished player cannot block the end).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.game_end import EndKind
from adjudicator.hosted.errors import HostedError
from adjudicator.refusals import Kind


@dataclass(frozen=True)
class Vote:
    """A seat's vote: for a draw of these powers, or (`dias`) of every survivor, whoever survives when the votes
    are counted (`draw` names the survivors when it was cast); or a concession to one power."""

    draw: tuple[str, ...] = ()
    concede_to: str | None = None
    dias: bool = False

    def to_json(self) -> dict[str, Any]:
        """The vote as the seat's row keeps it and its own view shows it."""
        if self.concede_to:
            return {"concede_to": self.concede_to}
        return {"draw": list(self.draw), "dias": True} if self.dias else {"draw": list(self.draw)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Vote | None:
        """A stored vote (None: none)."""
        if not data:
            return None
        if data.get("concede_to"):
            return cls(concede_to=str(data["concede_to"]))
        return cls(tuple(data["draw"]), dias=bool(data.get("dias")))

    def for_draw(self, survivors: Sequence[str]) -> tuple[str, ...]:
        """The draw this vote is for, counted among these survivors."""
        return tuple(survivors) if self.dias else self.draw


def read_vote(body: Mapping[str, Any], voter: str, survivors: Sequence[str], named: bool) -> Vote | None:
    """The vote a request's body casts (None: the seat withdraws its vote), checked against the survivors and the
    game's draws (`named`: named draws allowed; else DIAS only); refused, naming what would be valid."""
    if voter not in survivors:
        raise HostedError(Kind.CONFLICT, "Not a survivor",
                          f"{voter} has been eliminated: only the survivors ({', '.join(survivors)}) vote")
    draw, concede_to = body.get("draw"), body.get("concede_to")
    if draw is not None and concede_to is not None:
        raise HostedError(Kind.BAD_INPUT, "Bad request", "a vote is for a draw or a concession, not both",
                          pointer="/concede_to")
    if concede_to is not None:
        return Vote(concede_to=_conceded_to(str(concede_to), voter, survivors))
    if draw is None:
        return None
    if draw == "dias":
        return Vote(tuple(survivors), dias=True)
    if not isinstance(draw, list) or not all(isinstance(p, str) for p in draw):
        raise HostedError(Kind.BAD_INPUT, "Bad request",
                          '`draw` is "dias" (the draw of every survivor) or a list of the powers in the draw',
                          pointer="/draw")
    return Vote(_named_draw(draw, survivors, named))


def _conceded_to(power: str, voter: str, survivors: Sequence[str]) -> str:
    if power == voter:
        raise HostedError(Kind.BAD_INPUT, "Bad request", "a seat concedes to another power, not to itself",
                          pointer="/concede_to")
    if power not in survivors:
        raise HostedError(Kind.BAD_INPUT, "Bad request",
                          f"{power!r} is not a survivor; a concession goes to one of {', '.join(survivors)}",
                          pointer="/concede_to")
    return power


def _named_draw(draw: list[str], survivors: Sequence[str], named: bool) -> tuple[str, ...]:
    unknown = [p for p in draw if p not in survivors]
    if unknown:
        raise HostedError(Kind.BAD_INPUT, "Bad request",
                          f"{unknown[0]!r} is not a survivor; a draw names survivors: {', '.join(survivors)}",
                          pointer="/draw")
    if len(set(draw)) != len(draw) or len(draw) < 2:
        raise HostedError(Kind.BAD_INPUT, "Bad request",
                          "a draw names at least two different survivors (one alone is a concession)", pointer="/draw")
    if not named and set(draw) != set(survivors):
        raise HostedError(Kind.REFUSED, "Named draws not allowed",
                          f"this game's draws include all survivors (DIAS): vote \"dias\", or for "
                          f"{', '.join(survivors)}", pointer="/draw")
    return tuple(p for p in survivors if p in draw)  # the board's order: the same draw however it was written


def outcome(votes: Mapping[str, Vote | None], survivors: Sequence[str], disorder: set[str],
            disorder_yes: bool) -> tuple[EndKind, tuple[str, ...]] | None:
    """The end the survivors' votes agree on (a draw and its powers, or a concession and the power conceded to),
    else None; a seat in civil disorder votes yes when `disorder_yes`, else it cannot agree."""
    voting = [p for p in survivors if not (disorder_yes and p in disorder)]
    if not voting or len(voting) == len(survivors) and not any(votes.get(p) for p in voting):
        return None  # (every survivor in disorder: the game is abandoned, not drawn)
    cast = {p: votes.get(p) for p in voting}
    draws = {v.for_draw(survivors) for v in cast.values() if v is not None and not v.concede_to}
    if len(draws) == 1 and all(v is not None and not v.concede_to for v in cast.values()):
        (draw,) = draws
        if all(p in survivors for p in draw):
            return (EndKind.DRAW, draw)
    # A concession: every other survivor concedes to one power, whatever that power's own vote; two powers each
    # conceded to by all the others (two survivors conceding to each other) agree on no one.
    winners = [w for w in survivors if (others := [p for p in voting if p != w]) and all(
        (v := cast[p]) is not None and v.concede_to == w for p in others)]
    return (EndKind.CONCESSION, (winners[0],)) if len(winners) == 1 else None
