"""Movement-phase adjudication: the DATC chapter 5 decisions (MOVE, SUPPORT, CONVOY, PATH and strengths).

Decisions are resolved by the generic `Resolver`; cycles with no single resolution are settled by the
backup rule: circular movement succeeds, and in a convoy paradox the convoys fail (Szykman rule). The rule
options of the game's `Rulebook` are read where they apply (convoy disruption and paradoxes, DATC 4.A.1,
4.A.2, 4.A.4, 4.A.6, 4.A.7; hold support for a power in civil disorder, 4.D.9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board
from adjudicator.outcome import DEFAULT, FAILS, SUCCEEDS, OrderResult
from adjudicator.games.diplomacy.judge.fallback import ADJACENT_FALLBACK, no_fallback
from adjudicator.games.diplomacy.judge.facts import (ConvoyDisrupted, ConvoyFact, ConvoyParadox, ConvoyVoid, Fact,
                                                     HeadToHead, HoldFact, Moved, MoveFact, NoConvoy, Opposition,
                                                     OwnUnit, Supported, SupportFact, SupportVoid, UnitLine)
from adjudicator.games.diplomacy.judge.reasons import sentence
from adjudicator.games.diplomacy.judge.resolver import Resolver
from adjudicator.games.diplomacy.orders.model import Move
from adjudicator.games.diplomacy.orders.commands import Command, ConvoyCommand, HoldCommand, MoveCommand, SupportCommand
from adjudicator.games.diplomacy.rulebook import DEFAULT_RULES, Paradox, Rulebook
from adjudicator.games.diplomacy.state import Dislodged, Unit, moved_unit

@dataclass
class MovementResult:
    """The resolved movement phase."""

    commands: dict[str, Command]  # by province
    success: dict[str, bool]  # move/support/convoy success, by province
    moved: dict[str, str] = field(default_factory=dict)  # destination province -> origin province
    arrivals: dict[str, Unit] = field(default_factory=dict)  # units that moved, at their destination
    dislodged: dict[str, Dislodged] = field(default_factory=dict)  # by province
    contested: set[str] = field(default_factory=set)  # provinces left empty by a standoff
    paradox: set[str] = field(default_factory=set)  # convoying fleets failed by the Szykman rule
    judge: "MovementJudge | None" = None  # the judge that made it, to write the report on demand

    def explain(self) -> list[UnitLine]:
        """Each unit's report line, with what befell it (written on demand)."""
        judge = self.judge
        if judge is None:
            return []
        name = judge._target_name
        return [judge._explain(p, self, name) for p in self.commands]


class MovementJudge:
    """Adjudicates one movement phase of a board from validated commands (every unit has one)."""

    def __init__(self, board: Board, season: str, commands: dict[str, Command], rules: Rulebook = DEFAULT_RULES,
                 idle: frozenset[str] = frozenset()):
        self.board = board
        self.season = season
        self.c = commands
        self.rules = rules
        self.idle = idle  # the powers in civil disorder: no order of theirs this phase (DATC 4.D.9)
        # DATC 4.A.1 and 4.A.6: a convoy needs every fleet ordered, or those its order names (else any route)
        self._whole_convoy = rules.multi_route != "all-routes" or rules.convoy_path != "ignored"
        moves_into: dict[str, list[str]] = {}
        supporters: dict[tuple[str, str | None], list[str]] = {}
        convoyers: dict[tuple[str, str], list[str]] = {}
        coasted = False  # a support names the coast of the move it supports
        moves: dict[str, MoveCommand] = {}
        supports: dict[str, SupportCommand] = {}
        aimed: list[str] = []  # the supports and convoys
        for p, c in commands.items():
            table: dict[Any, list[str]]
            key: Any
            if type(c) is MoveCommand:  # (`type(c) is`: the classes have no subclasses, and it is the cheapest test)
                moves[p] = c
                table, key = moves_into, c.dest
            elif type(c) is HoldCommand:
                continue
            elif type(c) is SupportCommand:
                supports[p] = c
                aimed.append(p)
                table, key = supporters, (c.target, c.dest)
                coasted = coasted or c.target_coast is not None
            elif type(c) is ConvoyCommand:
                aimed.append(p)
                table, key = convoyers, (c.target, c.dest)
            else:
                continue
            found = table.get(key)
            if found is None:
                table[key] = [p]  # (not `setdefault(key, [])`, which makes a list for every order)
            else:
                found.append(p)
        self.moves_into, self.supporters, self.convoyers, self._coasted = moves_into, supporters, convoyers, coasted
        self.moves = moves  # the commands that are moves, by province
        self._supports, self._aimed = supports, aimed
        self.paradox: set[str] = set()
        self._support_lists: dict[str, list[str]] = {}
        self.resolver: Resolver[str] = Resolver(self._adjudicate, self._backup)
        self._settle_unopposed()
        # A decision of another order, final or the bound asked for (the resolver's own method: one call less
        # on the hottest path of the judge).
        self._decision = self.resolver.resolve

    def _settle_unopposed(self) -> None:
        """Decide at once what nothing can oppose: a support or convoy that no unit moves against (neither cut nor
        dislodged), and a direct move into an empty space that no other unit moves to (strength 1 or more
        against hold 0 and no prevent). Most orders of a phase are such; the resolver is left the rest."""
        resolved, moves_into, commands = self.resolver.resolved, self.moves_into, self.c
        for p, c in self.moves.items():
            if not c.via_convoy and c.dest not in commands and len(moves_into[c.dest]) == 1:
                resolved[p] = True
        for p in self._aimed:
            if p not in moves_into:
                resolved[p] = True

    # ----- helpers ------------------------------------------------------------------------------------
    def head_to_head(self, p: str) -> str | None:
        """The province of the unit this move meets head-to-head (both moving directly at each other)."""
        c = self.moves[p]
        if c.via_convoy:
            return None
        other = self.c.get(c.dest)
        if type(other) is MoveCommand and other.dest == p and not other.via_convoy:
            return c.dest
        return None

    def _valid_supports(self, p: str) -> list[str]:
        """Supporters whose order matches what the unit in p does (support for a hold or for its move)."""
        found = self._support_lists.get(p)
        if found is None:  # the orders do not change during the phase: worked out once per unit
            c = self.c[p]
            if type(c) is MoveCommand:
                found = self.supporters.get((p, c.dest), [])
                if self._coasted:
                    found = [s for s in found if self._supports[s].target_coast in (None, _coast(c.dest_location))]
            else:
                found = self.supporters.get((p, None), [])
                if self.idle and c.unit.power in self.idle and self.rules.civil_disorder_support == "fails":
                    found = []  # DATC 4.D.9: no hold support for a power in civil disorder
            self._support_lists[p] = found  # (read only, as the lists of `supporters`)
        return found

    def _count(self, supporters: list[str], hi: bool, exclude_power: str | None = None) -> int:
        n = 0
        for s in supporters:
            if (exclude_power is None or self.c[s].unit.power != exclude_power) and self._decision(s, hi):
                n += 1
        return n

    def path(self, p: str, hi: bool) -> bool:
        """PATH: a direct move, or a chain of fleets ordered to convoy this army that (hi: may / lo: must) succeed."""
        c = self.moves[p]
        if not c.via_convoy:
            return True
        ordered = self.convoyers.get((p, c.dest), ())
        if self._whole_convoy:
            rules = self.rules
            order = c.order
            if isinstance(order, Move) and order.path and rules.convoy_path != "ignored":  # DATC 4.A.6
                return all(f in ordered and self._decision(f, hi) for f in order.path)
            if rules.multi_route == "one-route":  # DATC 4.A.1: one disrupted route disrupts the convoy
                return bool(ordered) and all(self._decision(f, hi) for f in ordered) and \
                    self.board.convoy_route_exists(p, c.dest, self.season, ordered)
        fleets = [f for f in ordered if self._decision(f, hi)]
        return bool(fleets) and self.board.convoy_route_exists(p, c.dest, self.season, fleets)

    # ----- strengths (hi: upper bound, else lower bound) -----------------------------------------------
    def attack(self, p: str, hi: bool) -> int:
        """ATTACK STRENGTH of the move from p."""
        c = self.moves[p]
        if c.via_convoy and not self.path(p, hi):
            return 0
        dest_cmd = self.c.get(c.dest)
        supports = self._valid_supports(p)
        if dest_cmd is None:
            return 1 + self._count(supports, hi)
        if type(dest_cmd) is MoveCommand and self.head_to_head(p) is None:
            # The defender may leave: with it gone, every support counts.
            if self._decision(c.dest, hi):
                return 1 + self._count(supports, hi)
        if dest_cmd.unit.power == c.unit.power:
            return 0
        return 1 + self._count(supports, hi, exclude_power=dest_cmd.unit.power)

    def hold(self, province: str, hi: bool) -> int:
        """HOLD STRENGTH of a province."""
        c = self.c.get(province)
        if c is None:
            return 0
        if type(c) is MoveCommand:
            return 0 if self._decision(province, not hi) else 1
        return 1 + self._count(self._valid_supports(province), hi)

    def defend(self, p: str, hi: bool) -> int:
        """DEFEND STRENGTH of a move in a head-to-head battle."""
        return 1 + self._count(self._valid_supports(p), hi)

    def prevent(self, p: str, hi: bool) -> int:
        """PREVENT STRENGTH of a move against others moving to the same place."""
        if not self.path(p, hi):
            return 0
        opponent = self.head_to_head(p)
        if opponent is None and self.rules.dislodged_bounce == "never":  # DATC 4.A.7: head-to-head or not
            opponent = self._from_destination(p)
        if opponent is not None and self._decision(opponent, not hi):
            return 0
        return 1 + self._count(self._valid_supports(p), hi)

    def _from_destination(self, p: str) -> str | None:
        """The province of a unit moving from this move's destination into its origin, by any route."""
        dest = self.moves[p].dest
        other = self.c.get(dest)
        return dest if type(other) is MoveCommand and other.dest == p else None

    # ----- decisions (each may also say why, into a fact given it: `settled`) ------------------------------
    def _adjudicate(self, p: str, opt: bool) -> bool:
        kind = type(self.c[p])
        if kind is MoveCommand:
            return self._adjudicate_move(p, opt)
        if kind is SupportCommand:
            return self._adjudicate_support(p, opt)
        return self._adjudicate_convoy(p, opt)

    def _adjudicate_move(self, p: str, opt: bool, fact: MoveFact | None = None) -> bool:
        c = self.moves[p]
        strength = self.attack(p, opt)
        if fact is not None:
            fact.strength = strength
        if strength == 0:
            if fact is not None:
                fact.blocked = OwnUnit(c.dest) if self.path(p, opt) else self._no_path(p)
            return False
        opponent = self.head_to_head(p)
        if opponent is not None:
            defence = self.defend(opponent, not opt)
            if strength <= defence:
                if fact is not None:
                    fact.blocked = HeadToHead(opponent, defence)
                return False
        else:
            held = self.hold(c.dest, not opt)
            if strength <= held:
                if fact is None:
                    return False
                fact.opposed.append(Opposition(c.dest, True, held))
        for other in self.moves_into.get(c.dest, ()):
            if other != p:
                prevent = self.prevent(other, not opt)
                if strength <= prevent:
                    if fact is None:
                        return False
                    fact.opposed.append(Opposition(other, False, prevent))
        return fact is None or not fact.opposed

    def _no_path(self, p: str) -> NoConvoy | ConvoyParadox | ConvoyDisrupted:
        """Why the convoy of the move from p carries it nowhere."""
        fleets = self.convoyers.get((p, self.moves[p].dest), ())
        if not fleets:
            return NoConvoy()
        if any(f in self.paradox for f in fleets):
            return ConvoyParadox()
        return ConvoyDisrupted()

    def _adjudicate_support(self, p: str, opt: bool, fact: SupportFact | None = None) -> bool:
        c = self._supports[p]
        holds = True
        for attacker in self.moves_into.get(p, ()):
            a = self.moves[attacker]
            if a.via_convoy and self.rules.paradox in _CUT_RULES and self._shielded(p, attacker):
                continue  # DATC 4.A.2: the rulebook's paradox rule: this army neither cuts nor dislodges it
            if self._decision(attacker, not opt):
                if fact is None:
                    return False  # dislodged
                holds = False  # (and the attacker may cut it too, as the fact says)
            if a.unit.power == c.unit.power:
                continue
            if c.dest is not None and attacker == c.dest and not (
                    a.via_convoy and self.rules.convoy_cuts_own_attack == "cut"):  # DATC 4.A.4
                continue  # no cut by the unit the support is directed against
            if self.path(attacker, not opt):
                if fact is None:
                    return False  # cut
                fact.cut_by.append(attacker)
                holds = False
        return holds

    def _shielded(self, p: str, attacker: str) -> bool:
        """Whether the rulebook's convoy paradox rule (DATC 4.A.2) keeps the army convoyed from `attacker` from
        cutting the support in p: 1971, a fleet supporting a fleet's attack on one of the army's convoying
        fleets; 2000 (and 2023), a unit supporting an attack on a fleet the army's convoy cannot do without;
        1982, a fleet supporting an action in a body of water that holds a convoying fleet."""
        c, a = self._supports[p], self.moves[attacker]
        fleets = self.convoyers.get((attacker, a.dest), ())
        rule = self.rules.paradox
        if rule == "1982":
            where = c.dest if c.dest is not None else c.target
            return c.unit.type == FLEET and any(
                f == where and _convoyed_to(self.c.get(army), to)
                for (army, to), convoying in self.convoyers.items() for f in convoying)
        if c.dest is None or c.dest not in fleets:
            return False
        if rule == "1971":
            return c.unit.type == FLEET and self.c[c.target].unit.type == FLEET
        others = [f for f in fleets if f != c.dest]
        return not self.board.convoy_route_exists(attacker, a.dest, self.season, others)

    def _adjudicate_convoy(self, p: str, opt: bool) -> bool:
        if p in self.paradox and self.rules.paradox != "all-hold":
            return False
        return not any(self._decision(a, not opt) for a in self.moves_into.get(p, ()))

    def _backup(self, cycle: list[str]) -> None:
        c = self.c
        convoys = [p for p in cycle if type(c[p]) is ConvoyCommand]
        if convoys and self.rules.paradox == "all-hold":  # DATC 4.A.2: every move of the paradox fails
            moves = {p for p in cycle if type(c[p]) is MoveCommand}
            moves.update(convoy.target for convoy in (c[p] for p in convoys) if isinstance(convoy, ConvoyCommand))
            for p in moves:
                if type(c[p]) is MoveCommand:
                    self.resolver.fix(p, False)
            self.paradox.update(convoys)
        elif convoys:  # Szykman rule (and where the rulebooks' own rules give no answer): the convoys fail
            for p in convoys:
                self.paradox.add(p)
                self.resolver.fix(p, False)
        elif all(type(c[p]) is MoveCommand for p in cycle):  # circular movement: all moves succeed
            for p in cycle:
                self.resolver.fix(p, True)
        else:  # any other paradox (variants): every order in it fails
            for p in cycle:
                self.resolver.fix(p, False)

    # ----- the whole phase ----------------------------------------------------------------------------
    def run(self) -> MovementResult:
        """Resolve every decision, then dislodgements, standoffs and each order's outcome."""
        resolve, known = self.resolver.resolve, self.resolver.resolved
        success: dict[str, bool] = {}
        moved: dict[str, str] = {}
        arrivals: dict[str, Unit] = {}
        for p, c in self.c.items():  # (one pass, in the commands' order: each decision, and each move that succeeds)
            if type(c) is MoveCommand:
                ok = known.get(p)
                if ok is None:
                    ok = resolve(p)
                success[p] = ok
                if ok:
                    moved[c.dest] = p
                    arrivals[c.dest] = moved_unit(c.unit, c.dest_location)
            elif type(c) is not HoldCommand:
                ok = known.get(p)
                success[p] = resolve(p) if ok is None else ok
        result = MovementResult(self.c, success, moved, arrivals, paradox=set(self.paradox))
        for dest, origin in result.moved.items():
            there = self.c.get(dest)
            if there is not None and not (type(there) is MoveCommand and success[dest]):
                result.dislodged[dest] = Dislodged(there.unit, origin, self.moves[origin].via_convoy)
        occupied_after = set(self.c).difference(result.moved.values())  # no unit left it, or one arrived
        occupied_after.update(result.moved)
        for dest, movers in self.moves_into.items():
            if dest in occupied_after:
                continue
            for m in movers:
                if not success[m] and self.path(m, False) and self.head_to_head(m) != dest:
                    result.contested.add(dest)
        result.judge = self
        # Every decision is made: the resolver keeps its answers and lets go of the judge's methods, so that no
        # reference cycle holds the judge, and the judge and its result are freed as soon as they are dropped
        # (not left to the garbage collector, whose collections they would bring on).
        self.resolver.release()
        return result

    # ----- explanations ---------------------------------------------------------------------------------
    def _target_name(self, province: str) -> str:
        """The unit in a province as a reason names it (`France A par`)."""
        return unit_name(self.c.get(province), province)

    def settled(self, p: str, result: MovementResult) -> Fact:
        """The deciding fact of the order in p, found by the same code that decided it (`_adjudicate_move`,
        `_adjudicate_support`, `_adjudicate_convoy` asked to say why), every other decision now known. (What
        succeeded needs no more than that: a move's strength, nothing cut a support.)"""
        c = self.c[p]
        if type(c) is HoldCommand:
            return _HELD
        ok = result.success.get(p)
        if isinstance(c, MoveCommand):
            if ok:
                return Moved(self.attack(p, True), c.dest_location)
            move = MoveFact(c.dest)
            self._adjudicate_move(p, True, move)
            return move
        if isinstance(c, SupportCommand):
            if not (c.target in self.c and p in self._valid_supports(c.target)):
                moved = self.c.get(c.target)
                if c.target_coast and isinstance(moved, MoveCommand) and moved.dest == c.dest:
                    return SupportVoid(c.target, c.dest, moved.dest_location, c.target_coast)  # DATC 6.B.9 (4.B.4)
                return SupportVoid(c.target, c.dest)
            if ok:
                return Supported(c.target, c.dest)
            support = SupportFact(c.target, c.dest)
            self._adjudicate_support(p, True, support)
            return support
        if isinstance(c, ConvoyCommand):
            army = self.c.get(c.target)
            if not (isinstance(army, MoveCommand) and army.dest == c.dest and army.via_convoy):
                return ConvoyVoid(c.target, c.dest)
            return ConvoyFact(c.target, c.dest, p in result.paradox)
        raise AssertionError(c)

    def _explain(self, p: str, result: MovementResult, name: Callable[[str], str]) -> UnitLine:
        c = self.c[p]
        status, reason, cause = sentence(self.settled(p, result), result.success.get(p), name, self.rules.paradox)
        befell: tuple[str, ...] = ()  # what befell the unit beyond its order, each said after it
        dislodged = result.dislodged.get(p)
        if dislodged is not None:
            by = self.c[result.moved[p]].unit
            befell = (f"dislodged by {by.power} {by.type} {by.location}",)
            cause["dislodged_by"] = {"power": by.power, "type": by.type, "from": by.location}
            if status == SUCCEEDS:
                status = FAILS
        if c.order is None:
            text = f"{c.unit.type} {c.unit.location} H"
            status = status if status == FAILS else DEFAULT
            reason = "no order: holds"
        else:
            text = c.order.text or c.order.describe()
        if befell:
            reason += "".join(f"; {b}" for b in befell)
        line = OrderResult(c.unit.power, text, status, reason, unit=c.unit, order=c.order,
                           line=c.order.line if c.order else None, cause=cause)
        return UnitLine(line, befell)

_HELD = HoldFact()  # (a hold's fact is always the same)
_CUT_RULES: frozenset[Paradox] = frozenset({"1971", "1982", "2000"})  # the rulebooks' convoy paradox rules (DATC 4.A.2)


def judge_movement(board: Board, season: str, commands: dict[str, Command], rules: Rulebook = DEFAULT_RULES,
                   idle: frozenset[str] = frozenset()) -> MovementResult:
    """The movement phase resolved; where the rules let an army whose convoy to an adjacent space failed take
    the land route instead (DATC 4.A.3: `2000-fallback`, `2000-fallback-via-bound`, and `1971`), it is judged
    again with that army moving by land, until no such army is left (each army falls back once). Under the 2000
    fallbacks an army does not fall back where its land move would cut a support for the attack on its own convoy
    (DATC v2.4 6.G.11: that convoy fails in a paradox, and the army does not advance)."""
    result = MovementJudge(board, season, commands, rules, idle).run()
    if rules.adjacent_convoy not in ADJACENT_FALLBACK:
        return result
    army_next = board.season(season).army_next
    bound = no_fallback(board, season, commands, rules)
    while True:
        judge = result.judge
        assert judge is not None
        fell = [c for p, c in commands.items() if isinstance(c, MoveCommand) and c.via_convoy and c.unit.type == ARMY
                and c.dest in army_next.get(p, ()) and not judge.path(p, False) and p not in bound]
        if not fell:
            return result
        for c in fell:
            c.via_convoy = False
        result = MovementJudge(board, season, commands, rules, idle).run()


def unit_name(c: Command | None, province: str) -> str:
    """A commanded unit as a reason names it (`France A par`); `unit in par` when there is none."""
    if c is None:
        return f"unit in {province}"
    return f"{c.unit.power} {c.unit.type} {c.unit.location}"


def _coast(location: str | None) -> str | None:
    return location.partition("/")[2] or None if location else None


def _convoyed_to(c: Command | None, to: str) -> bool:
    """Whether a command is a move to `to` by convoy."""
    return isinstance(c, MoveCommand) and c.via_convoy and c.dest == to

