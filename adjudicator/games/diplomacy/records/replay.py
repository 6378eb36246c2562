"""A recorded game replayed through this project's judge: every played phase judged from its recorded position
and orders, and the result compared with the record's next phase (units, dislodged units and their retreats,
centres, the phase's name). Each difference is classified: a rule set or a single DATC chapter 4 answer under
which the recorded result is right (the options of rulebook.py, tried in turn), a phase the recording site judged
by hand (the package's rule `DIFFERENT_ADJUDICATION`), or unexplained."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from adjudicator.errors import AdjudicatorError
from adjudicator.games.diplomacy.phase import PhaseResult, adjudicate
from adjudicator.games.diplomacy.records.notation import Notation, notation
from adjudicator.games.diplomacy.records.order_text import read_orders
from adjudicator.games.diplomacy.records.recorded import RecordedGame, RecordedPhase
from adjudicator.games.diplomacy.rulebook import DATC_KEYS, SETS, Rulebook, rulebook_from_text
from adjudicator.games.diplomacy.state import GameState

AGREES, EXPLAINED, BY_HAND, UNEXPLAINED = "agrees", "explained", "judged-by-hand", "unexplained"
BY_HAND_RULE = "DIFFERENT_ADJUDICATION"  # the package's rule: a site's phase judged otherwise than its engine


@dataclass
class PhaseCheck:
    """One phase replayed: how it compares with the record, what differs, and what explains it."""

    game: str
    phase: str  # the record's name of the phase judged (`F1901M`)
    verdict: str  # AGREES, EXPLAINED, BY_HAND or UNEXPLAINED
    differences: list[str] = field(default_factory=list)
    explained_by: str | None = None  # `rule set datc-2.4`, `4.D.4: last`
    unread: list[str] = field(default_factory=list)  # recorded orders this project cannot read, with the reason

    def to_json(self) -> dict[str, Any]:
        """A JSONL record of the phase."""
        out: dict[str, Any] = {"game": self.game, "phase": self.phase, "verdict": self.verdict}
        if self.differences:
            out["differences"] = self.differences
        if self.explained_by:
            out["explained_by"] = self.explained_by
        if self.unread:
            out["unread_orders"] = self.unread
        return out


def _units(state: GameState) -> set[tuple[str, str, str]]:
    return {(u.power, u.type, u.location) for u in state.units.values()}


def differences(n: Notation, result: PhaseResult, recorded: RecordedPhase) -> list[str]:
    """What the judge's result and the record's next phase disagree on, each in the records' names."""
    ours, theirs = result.next_state, recorded.state
    out: list[str] = []
    name = lambda u: f"{n.power(u[0])} {u[1]} {n.place(u[2])}"  # noqa: E731
    only_ours, only_theirs = _units(ours) - _units(theirs), _units(theirs) - _units(ours)
    if only_ours or only_theirs:
        out.append("units: " + "; ".join([f"judged {name(u)}, not recorded" for u in sorted(only_ours)]
                                          + [f"recorded {name(u)}, not judged" for u in sorted(only_theirs)]))
    our_dislodged = {r.unit.province: (r.unit, set(r.retreats)) for r in result.dislodged
                     if r.unit.province in ours.dislodged}
    their_dislodged = {p: (d.unit, recorded.retreats.get(p, set())) for p, d in theirs.dislodged.items()}
    if not recorded.completed and our_dislodged != their_dislodged:
        for p in sorted(set(our_dislodged) | set(their_dislodged)):
            a, b = our_dislodged.get(p), their_dislodged.get(p)
            if a != b:
                show = lambda x: "none" if x is None else (  # noqa: E731
                    f"{x[0].type} {n.place(x[0].location)} retreating to "
                    f"{', '.join(sorted(n.place(r) for r in x[1])) or 'nowhere'}")
                out.append(f"dislodged in {n.place(p)}: judged {show(a)}, recorded {show(b)}")
    if ours.owners != theirs.owners:
        changed = sorted(c for c in set(ours.owners) | set(theirs.owners) if ours.owners.get(c) != theirs.owners.get(c))
        out.append("centres: " + "; ".join(
            f"{n.place(c)} judged {n.power(ours.owners[c]) if c in ours.owners else 'unowned'}, recorded "
            f"{n.power(theirs.owners[c]) if c in theirs.owners else 'unowned'}" for c in changed))
    if recorded.completed != (result.winner is not None) or (
            not recorded.completed and ours.phase != theirs.phase):
        judged = "COMPLETED (a solo)" if result.winner else n.phase_code(ours.phase)
        out.append(f"phase: judged {judged}, recorded {recorded.name}")
    return out


def _judge(board: Any, phase: RecordedPhase, orders: list[Any], rules: Rulebook) -> PhaseResult:
    """The phase judged by these rules (on a copy of its position: the record stays as read)."""
    state = phase.state
    return adjudicate(board, GameState(state.variant, state.phase, dict(state.units), dict(state.owners),
                                       dict(state.dislodged), state.contested, [], rules, dict(state.eliminated)),
                      orders)


def candidates(base: Rulebook) -> Iterator[tuple[str, Rulebook]]:
    """The rules a difference is tried under, simplest first: each named set, each single DATC answer other than
    the one in force, then each single answer over each set."""
    sets = [(f"rule set {name}", base.with_values({"set": name})) for name in SETS]
    for label, rules in sets:
        if rules != base:
            yield label, rules
    for over_label, over in [("", base)] + sets:
        for key, (attribute, values) in DATC_KEYS.items():
            for value in values:
                if getattr(over, attribute) == value:
                    continue
                rules = over.with_values({key: value})
                yield (f"{over_label}, {key}: {value}" if over_label else f"{key}: {value}"), rules


def replay_game(game: RecordedGame, rules: str | None = None, classify: bool = True) -> list[PhaseCheck]:
    """Every played phase of a recorded game judged and compared with the record's next phase, by the board's
    rules with `rules` over them (a set and/or keys: `datc-2.4, 4.D.4: last`)."""
    board = game.board
    n = notation(board)
    base = rulebook_from_text(rules, board.options, "--rules")
    by_hand = BY_HAND_RULE in game.rules
    checks: list[PhaseCheck] = []
    for phase, after in zip(game.phases, game.phases[1:]):
        if phase.orders is None or phase.completed:
            continue
        orders, unread = read_orders(n, phase.orders)
        check = PhaseCheck(game.id, phase.name, AGREES, unread=[f"{n.power(u.power)} {u.text!r}: {u.reason}"
                                                                 for u in unread])
        try:
            found = differences(n, _judge(board, phase, orders, base), after)
        except AdjudicatorError as exc:
            found = [f"not judged: {exc.message}"]
        if found:
            check.verdict, check.differences = UNEXPLAINED, found
            if classify:
                for label, other in candidates(base):
                    try:
                        if not differences(n, _judge(board, phase, orders, other), after):
                            check.verdict, check.explained_by = EXPLAINED, label
                            break
                    except AdjudicatorError:
                        continue
            if check.verdict == UNEXPLAINED and by_hand:
                check.verdict, check.explained_by = BY_HAND, f"the record's rule {BY_HAND_RULE}"
        checks.append(check)
    return checks
