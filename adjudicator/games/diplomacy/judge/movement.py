"""Movement-phase adjudication: the DATC chapter 5 decisions (MOVE, SUPPORT, CONVOY, PATH and strengths).

Decisions are resolved by the generic `Resolver`; cycles with no single resolution are settled by the
backup rule: circular movement succeeds, and in a convoy paradox the convoys fail (Szykman rule). The rule
options of the game's `Rulebook` are read where they apply (convoy disruption and paradoxes, DATC 4.A.1,
4.A.2, 4.A.4, 4.A.6, 4.A.7; hold support for a power in civil disorder, 4.D.9).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.games.diplomacy.board import ARMY, FLEET, Board
from adjudicator.outcome import FAILS, SUCCEEDS, VOID, OrderResult
from adjudicator.games.diplomacy.judge.resolver import Resolver
from adjudicator.games.diplomacy.orders.validate import Command
from adjudicator.games.diplomacy.rulebook import DEFAULT_RULES, Rulebook
from adjudicator.games.diplomacy.state import Dislodged, Unit, moved_unit

MOVE, SUPPORT, CONVOY = "move", "support", "convoy"


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

    def explain(self) -> list[OrderResult]:
        """Each order's outcome and reason (written on demand)."""
        return [self.judge._explain(p, self) for p in self.commands] if self.judge is not None else []


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
        supporters: dict[tuple, list[str]] = {}
        convoyers: dict[tuple[str, str], list[str]] = {}
        coasted = False  # a support names the coast of the move it supports
        for p, c in commands.items():
            kind = c.kind
            if kind == MOVE:
                table, key = moves_into, c.dest
            elif kind == SUPPORT:
                table, key = supporters, (c.target, c.dest)
                coasted = coasted or c.target_coast is not None
            elif kind == CONVOY:
                table, key = convoyers, (c.target, c.dest)
            else:
                continue
            found = table.get(key)
            if found is None:
                table[key] = [p]  # (not `setdefault(key, [])`, which makes a list for every order)
            else:
                found.append(p)
        self.moves_into, self.supporters, self.convoyers, self._coasted = moves_into, supporters, convoyers, coasted
        self.paradox: set[str] = set()
        self._support_lists: dict[str, list[str]] = {}
        self.resolver = Resolver(self._adjudicate, self._backup)
        self._settle_unopposed()
        # A decision of another order, final or the bound asked for (the resolver's own method: one call less
        # on the hottest path of the judge).
        self._decision = self.resolver.resolve

    def _settle_unopposed(self) -> None:
        """Decide at once what nothing can oppose: a support or convoy that no unit moves against (neither cut nor
        dislodged), and a direct move into an empty space that no other unit moves to (strength 1 or more
        against hold 0 and no prevent). Most orders of a phase are such; the resolver is left the rest."""
        resolved, moves_into, commands = self.resolver.resolved, self.moves_into, self.c
        for p, c in commands.items():
            kind = c.kind
            if kind == MOVE:
                if not c.via_convoy and c.dest not in commands and len(moves_into[c.dest]) == 1:
                    resolved[p] = True
            elif kind != "hold" and p not in moves_into:
                resolved[p] = True

    # ----- helpers ------------------------------------------------------------------------------------
    def _is_move(self, p: str) -> bool:
        c = self.c.get(p)
        return c is not None and c.kind == MOVE

    def head_to_head(self, p: str) -> str | None:
        """The province of the unit this move meets head-to-head (both moving directly at each other)."""
        c = self.c[p]
        if c.via_convoy:
            return None
        other = self.c.get(c.dest)
        if other is not None and other.kind == MOVE and other.dest == p and not other.via_convoy:
            return c.dest
        return None

    def _valid_supports(self, p: str) -> list[str]:
        """Supporters whose order matches what the unit in p does (support for a hold or for its move)."""
        found = self._support_lists.get(p)
        if found is None:  # the orders do not change during the phase: worked out once per unit
            c = self.c[p]
            if c.kind == MOVE:
                found = self.supporters.get((p, c.dest), [])
                if self._coasted:
                    found = [s for s in found
                             if self.c[s].target_coast is None or self.c[s].target_coast == _coast(c.dest_location)]
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
        c = self.c[p]
        if not c.via_convoy:
            return True
        ordered = self.convoyers.get((p, c.dest), ())
        if self._whole_convoy:
            rules = self.rules
            if c.order is not None and c.order.path and rules.convoy_path != "ignored":  # DATC 4.A.6
                return all(f in ordered and self._decision(f, hi) for f in c.order.path)
            if rules.multi_route == "one-route":  # DATC 4.A.1: one disrupted route disrupts the convoy
                return bool(ordered) and all(self._decision(f, hi) for f in ordered) and \
                    self.board.convoy_route_exists(p, c.dest, self.season, ordered)
        fleets = [f for f in ordered if self._decision(f, hi)]
        return bool(fleets) and self.board.convoy_route_exists(p, c.dest, self.season, fleets)

    # ----- strengths (hi: upper bound, else lower bound) -----------------------------------------------
    def attack(self, p: str, hi: bool) -> int:
        """ATTACK STRENGTH of the move from p."""
        c = self.c[p]
        if c.via_convoy and not self.path(p, hi):
            return 0
        dest_cmd = self.c.get(c.dest)
        supports = self._valid_supports(p)
        if dest_cmd is None:
            return 1 + self._count(supports, hi)
        if dest_cmd.kind == MOVE and self.head_to_head(p) is None:
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
        if c.kind == MOVE:
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
        dest = self.c[p].dest
        other = self.c.get(dest)
        return dest if other is not None and other.kind == MOVE and other.dest == p else None

    # ----- decisions ----------------------------------------------------------------------------------
    def _adjudicate(self, p: str, opt: bool) -> bool:
        kind = self.c[p].kind
        if kind == MOVE:
            return self._adjudicate_move(p, opt)
        if kind == SUPPORT:
            return self._adjudicate_support(p, opt)
        return self._adjudicate_convoy(p, opt)

    def _adjudicate_move(self, p: str, opt: bool) -> bool:
        c = self.c[p]
        strength = self.attack(p, opt)
        if strength == 0:
            return False
        opponent = self.head_to_head(p)
        if opponent is not None:
            if strength <= self.defend(opponent, not opt):
                return False
        elif strength <= self.hold(c.dest, not opt):
            return False
        for other in self.moves_into.get(c.dest, ()):
            if other != p and strength <= self.prevent(other, not opt):
                return False
        return True

    def _adjudicate_support(self, p: str, opt: bool) -> bool:
        c = self.c[p]
        for attacker in self.moves_into.get(p, ()):
            a = self.c[attacker]
            if a.via_convoy and self.rules.paradox in _CUT_RULES and self._shielded(p, attacker):
                continue  # DATC 4.A.2: the rulebook's paradox rule: this army neither cuts nor dislodges it
            if self._decision(attacker, not opt):
                return False  # dislodged
            if a.unit.power == c.unit.power:
                continue
            if c.dest is not None and attacker == c.dest and not (
                    a.via_convoy and self.rules.convoy_cuts_own_attack == "cut"):  # DATC 4.A.4
                continue  # no cut by the unit the support is directed against
            if self.path(attacker, not opt):
                return False  # cut
        return True

    def _shielded(self, p: str, attacker: str) -> bool:
        """Whether the rulebook's convoy paradox rule (DATC 4.A.2) keeps the army convoyed from `attacker` from
        cutting the support in p: 1971, a fleet supporting a fleet's attack on one of the army's convoying
        fleets; 2000 (and 2023), a unit supporting an attack on a fleet the army's convoy cannot do without;
        1982, a fleet supporting an action in a body of water that holds a convoying fleet."""
        c, a = self.c[p], self.c[attacker]
        fleets = self.convoyers.get((attacker, a.dest), ())
        rule = self.rules.paradox
        if rule == "1982":
            where = c.dest if c.dest is not None else c.target
            return c.unit.type == FLEET and any(
                f == where and self.c[army].kind == MOVE and self.c[army].via_convoy and self.c[army].dest == to
                for (army, to), convoying in self.convoyers.items() if army in self.c for f in convoying)
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
        convoys = [p for p in cycle if self.c[p].kind == CONVOY]
        if convoys and self.rules.paradox == "all-hold":  # DATC 4.A.2: every move of the paradox fails
            moves = {p for p in cycle if self.c[p].kind == MOVE} | {self.c[p].target for p in convoys}
            for p in moves:
                if self.c[p].kind == MOVE:
                    self.resolver.fix(p, False)
            self.paradox.update(convoys)
        elif convoys:  # Szykman rule (and where the rulebooks' own rules give no answer): the convoys fail
            for p in convoys:
                self.paradox.add(p)
                self.resolver.fix(p, False)
        elif all(self.c[p].kind == MOVE for p in cycle):  # circular movement: all moves succeed
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
        for p, c in self.c.items():  # (one pass: each decision, and each move that succeeds)
            kind = c.kind
            if kind == "hold":
                continue
            ok = known.get(p)
            if ok is None:
                ok = resolve(p)
            success[p] = ok
            if ok and kind == MOVE:
                moved[c.dest] = p
                arrivals[c.dest] = moved_unit(c.unit, c.dest_location)
        result = MovementResult(self.c, success, moved, arrivals, paradox=set(self.paradox))
        for dest, origin in result.moved.items():
            c = self.c.get(dest)
            if c is not None and not (c.kind == MOVE and success[dest]):
                result.dislodged[dest] = Dislodged(c.unit, origin, self.c[origin].via_convoy)
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

    # ----- explanations -------------------------------------------------------------------------------
    def _unit_name(self, p: str) -> str:
        u = self.c[p].unit
        return f"{u.power} {u.type} {u.location}"

    def _explain(self, p: str, result: MovementResult) -> OrderResult:
        c = self.c[p]
        status, reason, cause = self._why(p, result)
        dislodged = result.dislodged.get(p)
        if dislodged is not None:
            by = self.c[result.moved[p]].unit
            reason += f"; dislodged by {by.power} {by.type} {by.location}"
            cause["dislodged_by"] = {"power": by.power, "type": by.type, "from": by.location}
            if status == SUCCEEDS:
                status = FAILS
        if c.order is None:
            text = f"{c.unit.type} {c.unit.location} H"
            status = status if status == FAILS else "default"
            reason = "no order: holds" + reason[len("holds"):]
        else:
            text = c.order.text or c.order.describe()
        return OrderResult(c.unit.power, text, status, reason, unit=c.unit, order=c.order,
                           line=c.order.line if c.order else None, cause=cause)

    def _why(self, p: str, result: MovementResult) -> tuple[str, str, dict]:
        c = self.c[p]
        ok = result.success.get(p)
        if c.kind == "hold":
            return SUCCEEDS, "holds", {}
        if c.kind == MOVE:
            return self._why_move(p, ok)
        if c.kind == SUPPORT:
            what = self._target_name(c.target)
            matches = p in self._valid_supports(c.target) if c.target in self.c else False
            if not matches:
                return VOID, void_support(c, self.c.get(c.target), what), {}
            if ok:
                return SUCCEEDS, f"supports {what} ({'hold' if c.dest is None else 'move to ' + c.dest})", {}
            cutters = [a for a in self.moves_into.get(p, ()) if self.c[a].unit.power != c.unit.power
                       and (a != c.dest or self.c[a].via_convoy and self.rules.convoy_cuts_own_attack == "cut")
                       and self.path(a, False)
                       and not (self.c[a].via_convoy and self.rules.paradox in _CUT_RULES and self._shielded(p, a))]
            if cutters:
                names = ", ".join(self._unit_name(a) for a in cutters)
                return FAILS, f"support cut by {names}", {"cut_by": cutters}
            return FAILS, "support failed", {}
        # convoy
        void = void_convoy(c, self.c.get(c.target))
        if void is not None:
            return VOID, void, {}
        if p in result.paradox and self.rules.paradox == "all-hold":
            return (SUCCEEDS if ok else FAILS), "the convoy is part of a convoy paradox: its army holds (All Hold " \
                                                 "rule)", {"paradox": True}
        if p in result.paradox:
            return FAILS, "the convoy fails: it is part of a convoy paradox (Szykman rule)", {"paradox": True}
        if ok:
            return SUCCEEDS, f"convoys the army in {c.target} to {c.dest}", {}
        return FAILS, "the convoy is disrupted", {}

    def _target_name(self, province: str) -> str:
        c = self.c.get(province)
        return self._unit_name(province) if c else f"unit in {province}"

    def _why_move(self, p: str, ok: bool) -> tuple[str, str, dict]:
        c = self.c[p]
        a = self.attack(p, True)
        if ok:
            return SUCCEEDS, f"moves to {c.dest_location}", {"strength": a}
        if not self.path(p, False):
            fleets = self.convoyers.get((p, c.dest), ())
            if not fleets:
                return FAILS, "no fleet was ordered to convoy it", {"no_convoy": True}
            if any(f in self.paradox for f in fleets):
                return FAILS, "its convoy failed in a convoy paradox (Szykman rule)", {"paradox": True}
            return FAILS, "its convoy was disrupted", {"convoy_disrupted": True}
        if a == 0:
            return FAILS, f"cannot dislodge a unit of its own power in {c.dest}", {"own_unit": c.dest}
        opposed: list[tuple[str, int]] = []  # (who, strength) of everything this move had to overcome
        opponent = self.head_to_head(p)
        if opponent is not None:
            d = self.defend(opponent, True)
            if a <= d:
                how = "lost the head-to-head battle with" if a < d else "bounced in a head-to-head battle with"
                return FAILS, f"{how} {self._unit_name(opponent)}, {a} against {d}", \
                    {"strength": a, "head_to_head": opponent, "defence": d}
        else:
            h = self.hold(c.dest, True)
            if a <= h:
                opposed.append((f"{self._unit_name(c.dest)}, holding", h))
        for other in self.moves_into.get(c.dest, ()):
            if other != p:
                pr = self.prevent(other, True)
                if a <= pr:
                    opposed.append((self._unit_name(other), pr))
        cause = {"strength": a, "bounced_with": [f"{who} ({a} against {s})" for who, s in opposed]}
        stronger = [(who, s) for who, s in opposed if s > a]
        if stronger:  # not a standoff: a stronger unit decided it
            return FAILS, "beaten by " + "; ".join(f"{who}, {a} against {s}" for who, s in stronger), \
                {**cause, "beaten_by": [who for who, _ in stronger]}
        if opposed:
            return FAILS, f"bounced in {c.dest} with " + "; ".join(f"{who}, {a} against {s}" for who, s in opposed), cause
        return FAILS, "bounced", cause


def support_matches(c: Command, target: Command | None) -> bool:
    """Whether a support names what its unit does: a hold of a unit that does not move, or its move (to the
    coast it names, if it names one); civil disorder aside (DATC 4.D.9, the judge's own)."""
    if target is None:
        return False
    if target.kind != MOVE:
        return c.dest is None
    return c.dest == target.dest and (c.target_coast is None or c.target_coast == _coast(target.dest_location))


def void_support(c: Command, target: Command | None, what: str) -> str:
    """Why a support that does not match what its unit (`what`, commanded `target`) does is void."""
    if c.target_coast and target is not None and target.kind == MOVE and target.dest == c.dest:
        # DATC 6.B.9 (issue 4.B.4): a coast named in a support must match the move's
        return f"void: {what} moves to {target.dest_location}, not to the {c.target_coast} coast this support names"
    doing = "hold" if c.dest is None else f"move to {c.dest}"
    return f"void: {what} did not {doing}"


def void_convoy(c: Command, army: Command | None) -> str | None:
    """Why a convoy is void (its army, commanded `army`, is not ordered by convoy where it says), or None."""
    if army is None or army.kind != MOVE or army.dest != c.dest or not army.via_convoy:
        return f"void: the army in {c.target} was not ordered to move to {c.dest} by convoy"
    return None


_CUT_RULES = frozenset({"1971", "1982", "2000"})  # the rulebooks' convoy paradox rules (DATC 4.A.2)


def judge_movement(board: Board, season: str, commands: dict[str, Command], rules: Rulebook = DEFAULT_RULES,
                   idle: frozenset[str] = frozenset()) -> MovementResult:
    """The movement phase resolved; where the rules let an army whose convoy to an adjacent space failed take
    the land route instead (DATC 4.A.3: `2000-fallback`, and `1971`), it is judged again with that army
    moving by land, until no such army is left (each army falls back once)."""
    result = MovementJudge(board, season, commands, rules, idle).run()
    if rules.adjacent_convoy not in ("2000-fallback", "1971"):
        return result
    army_next = board.season(season).army_next
    while True:
        fell = [c for p, c in commands.items() if c.kind == MOVE and c.via_convoy and c.unit.type == ARMY
                and c.dest in army_next.get(p, ()) and not result.judge.path(p, False)]
        if not fell:
            return result
        for c in fell:
            c.via_convoy = False
        result = MovementJudge(board, season, commands, rules, idle).run()


def _coast(location: str | None) -> str | None:
    return location.partition("/")[2] or None if location else None

