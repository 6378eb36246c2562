"""The reason a player reads, and the `cause` a program reads, of each movement order: written from the fact
that decided it (judge/facts.py) and whether it succeeded; nothing is worked out again here."""

from __future__ import annotations

from typing import Any, Callable

from adjudicator.games.diplomacy.judge.facts import (ConvoyDisrupted, ConvoyFact, ConvoyParadox, ConvoyVoid, Fact,
                                                     HeadToHead, HoldFact, Moved, MoveFact, NoConvoy, OwnUnit,
                                                     Supported, SupportFact, SupportVoid)
from adjudicator.games.diplomacy.rulebook import Paradox
from adjudicator.outcome import FAILS, SUCCEEDS, VOID

Said = tuple[str, str, dict[str, Any]]  # (status, reason, cause)


def sentence(fact: Fact, ok: bool | None, name: Callable[[str], str], paradox: Paradox) -> Said:
    """The status, reason and cause of an order, from its deciding fact (and, for a convoy, whether it
    succeeded); `name` names the unit in a province (`France A par`), `paradox` is the rulebook's answer to DATC
    4.A.2."""
    if type(fact) is HoldFact:  # (the common facts first, by the cheapest test: most orders of a report)
        return SUCCEEDS, "holds", {}
    if type(fact) is Moved:
        return SUCCEEDS, f"moves to {fact.to}", {"strength": fact.strength}
    if type(fact) is Supported:
        return SUCCEEDS, f"supports {name(fact.target)} ({'hold' if fact.dest is None else 'move to ' + fact.dest})", {}
    match fact:
        case MoveFact():
            return _failed_move(fact, name)
        case SupportFact(target, dest, cut_by):
            if cut_by:
                return FAILS, f"support cut by {', '.join(name(a) for a in cut_by)}", {"cut_by": list(cut_by)}
            return FAILS, "support failed", {}
        case SupportVoid(target, moved_to=moved_to, coast=coast) if moved_to is not None:  # DATC 6.B.9 (issue 4.B.4)
            return VOID, f"void: {name(target)} moves to {moved_to}, not to the {coast} coast this support names", {}
        case SupportVoid(target, dest):
            return VOID, f"void: {name(target)} did not {'hold' if dest is None else f'move to {dest}'}", {}
        case ConvoyVoid(target, dest):
            return VOID, f"void: the army in {target} was not ordered to move to {dest} by convoy", {}
        case ConvoyFact(paradox=True) if paradox == "all-hold":
            return (SUCCEEDS if ok else FAILS), "the convoy is part of a convoy paradox: its army holds (All Hold " \
                                                 "rule)", {"paradox": True}
        case ConvoyFact(paradox=True):
            return FAILS, "the convoy fails: it is part of a convoy paradox (Szykman rule)", {"paradox": True}
        case ConvoyFact(target, dest):
            if ok:
                return SUCCEEDS, f"convoys the army in {target} to {dest}", {}
            return FAILS, "the convoy is disrupted", {}
    raise AssertionError(fact)


def _failed_move(fact: MoveFact, name: Callable[[str], str]) -> Said:
    a = fact.strength
    match fact.blocked:
        case NoConvoy():
            return FAILS, "no fleet was ordered to convoy it", {"no_convoy": True}
        case ConvoyParadox():
            return FAILS, "its convoy failed in a convoy paradox (Szykman rule)", {"paradox": True}
        case ConvoyDisrupted():
            return FAILS, "its convoy was disrupted", {"convoy_disrupted": True}
        case OwnUnit(where):
            return FAILS, f"cannot dislodge a unit of its own power in {where}", {"own_unit": where}
        case HeadToHead(opponent, d):
            how = "lost the head-to-head battle with" if a < d else "bounced in a head-to-head battle with"
            return FAILS, f"{how} {name(opponent)}, {a} against {d}", {"strength": a, "head_to_head": opponent,
                                                                        "defence": d}
    opposed = [(f"{name(o.province)}, holding" if o.holding else name(o.province), o.strength)
               for o in fact.opposed]  # (who, strength) of everything this move had to overcome
    cause: dict[str, Any] = {"strength": a, "bounced_with": [f"{who} ({a} against {s})" for who, s in opposed]}
    stronger = [(who, s) for who, s in opposed if s > a]
    if stronger:  # not a standoff: a stronger unit decided it
        return FAILS, "beaten by " + "; ".join(f"{who}, {a} against {s}" for who, s in stronger), \
            {**cause, "beaten_by": [who for who, _ in stronger]}
    if opposed:
        return FAILS, f"bounced in {fact.dest} with " + "; ".join(f"{who}, {a} against {s}" for who, s in opposed), cause
    return FAILS, "bounced", cause
