"""Steps -> results -> next state: each step resolved in the order given, refused with its reason when the
rules do not allow it (a refused step changes nothing), on a copy of the input state.

Actions (variants/arctic2019.md P1-P3): a run of consecutive Ship Movement steps of one country is that country's Ship Movement action, taken
at most once per turn and refused as a whole when none of its steps succeeds ("at least one move or attack
must be made", B25). China's automatic move is China's action for the turn. Each country takes at most one
Diplomacy step per turn. A lobbyist's protection of a platform ends when its country's actions in the next
turn are over (P19, `protection.py`). `end of turn` (Phase 9) starts a new turn. A turn may be judged in
several sheets: what it has used so far (actions taken, countries that acted, the owners' decisions) is read
from the state's `this_turn` and written back to it, so a later sheet cannot take an action again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from adjudicator.game import GameResult
from adjudicator.outcome import FAILS, ILLEGAL, SUCCEEDS, VOID, OrderResult

from . import council, diplomacy, movement, protection
from .board import Board
from .context import NO_COUNTRY, Context, Refused, country_of
from .fleet import Fleet
from .state import State, TurnSoFar, active_countries
from .steps import (DIPLOMACY_STEPS, SHIP_STEPS, AutoMove, Declare, EndConflict, EndTurn, Header, Keep, Move,
                    PlatformAttack, Protect, ShipAttack, Step, SupportJoin, Vote)

_HANDLERS: dict[type, Callable[[Context, Any], movement.Outcome]] = {
    Move: movement.move, ShipAttack: movement.ship_attack, PlatformAttack: movement.platform_attack,
    AutoMove: movement.china_auto, Declare: diplomacy.declare, EndConflict: diplomacy.end_conflict,
    Vote: diplomacy.vote, SupportJoin: diplomacy.support_join, Protect: protection.protect,
    EndTurn: council.end_turn,
}


@dataclass
class _Action:
    """The Ship Movement action being taken."""

    country: str
    line: int | None = None
    succeeded: bool = False


@dataclass
class _Run:
    """One adjudication: the context, the report, and the turn's bookkeeping of actions."""

    ctx: Context
    report: list[OrderResult] = field(default_factory=list)
    action: _Action | None = None
    ship_done: set[str] = field(default_factory=set)  # countries whose Ship Movement action is over this turn
    diplomacy_done: set[str] = field(default_factory=set)
    decision_lines: dict[str, int] = field(default_factory=dict)  # sector -> its decision's report line
    acted: set[str] = field(default_factory=set)  # countries that have taken a step this turn (P19)
    earlier: TurnSoFar = field(default_factory=TurnSoFar)  # what earlier sheets of this turn used
    turn_start: int = 0  # the index of the first step of the turn the sheet ends in

    def over(self, used: set[str], country: str) -> str:
        """`this turn`, or `this turn (in an earlier sheet)` where an earlier sheet used it."""
        return "this turn (in an earlier sheet)" if country in used else "this turn"

    def line(self, step: Step, status: str, reason: str, cause: dict | None = None, text: str | None = None) -> None:
        who = self.ctx.name(step.country) if step.country else None
        self.report.append(OrderResult(who, text or step.text, status, reason, line=step.line, cause=cause or {}))

    def close_action(self) -> None:
        """The current Ship Movement action ends; with no successful step it did nothing and is refused."""
        if self.action is None:
            return
        if self.action.succeeded:
            self.ship_done.add(self.action.country)
        else:
            self.report.append(OrderResult(
                self.ctx.name(self.action.country), "Ship Movement action", ILLEGAL,
                "no effect: at least one move or attack must be made (an action must do something); "
                "the lobbyist must take another action", line=self.action.line, cause={"refusal": "no_effect"}))
        self.action = None

    def run(self, step: Step) -> bool:
        """Resolve one step on the working position; a refusal restores it. Whether it succeeded."""
        snap = self.ctx.snapshot()
        try:
            status, reason, cause = _HANDLERS[type(step)](self.ctx, step)
        except Refused as refusal:
            self.ctx.restore(snap)
            self.line(step, ILLEGAL, refusal.message, refusal.cause)
            return False
        self.line(step, status, reason, cause)
        return status == SUCCEEDS

    def refuse(self, step: Step, code: str, message: str) -> None:
        self.line(step, ILLEGAL, message, {"refusal": code})


def _blocked(ctx: Context, step: Step) -> tuple[str, str] | None:
    """Why no step of this kind can be taken now, whatever it says."""
    board, state = ctx.board, ctx.state
    if state.ended:
        return "game_over", "the game has ended"
    c = step.country
    if c is None and isinstance(step, (*SHIP_STEPS, AutoMove, *DIPLOMACY_STEPS)):
        return NO_COUNTRY
    if c is not None and c not in active_countries(board, state):
        joined = board.countries[c].joins
        return "joined", f"{ctx.name(c)} has joined {ctx.name(joined)}: {ctx.name(joined)} acts for it"
    if isinstance(step, DIPLOMACY_STEPS) and c is not None and not board.countries[c].arctic:
        return "no_display", f"{ctx.name(c)} has no country display: it takes no Diplomacy action"
    return None


def _decisions(run: _Run, steps: list[Step]) -> None:
    """Read the owners' decisions first: they apply whenever their platform's sector changes hands."""
    state = run.ctx.state
    for step in steps:
        if not isinstance(step, Keep):
            continue
        p = state.platforms.get(step.sector)
        if p is None or (step.player is not None and step.player != p.owner) or step.sector in run.ctx.decisions:
            continue  # refused where it stands (see _decision_line)
        run.ctx.decisions[step.sector] = step


def _decision_line(run: _Run, step: Keep) -> None:
    platforms = run.ctx.state.platforms
    p = platforms.get(step.sector)
    if run.ctx.decisions.get(step.sector) is step:
        run.decision_lines[step.sector] = len(run.report)
        run.line(step, VOID, "")  # filled in at the end
    elif p is None:
        run.refuse(step, "no_platform", f"no platform in {run.ctx.board.sector_name(step.sector)}")
    elif step.player is not None and step.player != p.owner:
        run.refuse(step, "not_owner", f"the platform in {step.sector} is {p.owner}'s, not {step.player}'s")
    else:
        earlier = " (in an earlier sheet)" if step.sector in run.earlier.decisions else ""
        run.refuse(step, "decided", f"the owner has already decided for the platform in {step.sector}{earlier}")


def _fill_decisions(run: _Run, start: State) -> None:
    ctx = run.ctx
    for sector, index in run.decision_lines.items():
        old = run.report[index]
        used = ctx.used.get(sector, [])
        if used:
            status = SUCCEEDS if all(ok for ok, _ in used) else FAILS
            reason = "; ".join(note for _, note in used)
        elif start.platforms[sector].protected_by is None:
            status, reason = VOID, (f"not needed: the platform in {sector} is not protected, so it is destroyed "
                                    f"if its sector passes to another country, whatever its owner pays")
        else:
            status, reason = VOID, f"not needed: the sector {sector} did not pass to another country"
        run.report[index] = OrderResult(old.power, old.text, status, reason, line=old.line,
                                        cause={"decision": "keep" if ctx.decisions[sector].pay else "abandon"})


def _next_same_country(steps: list[Step], i: int, country: str | None) -> bool:
    for later in steps[i + 1:]:
        if isinstance(later, Keep):
            continue
        return later.country == country and not isinstance(later, EndTurn)
    return False


def _turn_so_far(run: _Run, steps: list[Step]) -> TurnSoFar:
    """What the turn the sheet ends in has used, for a later sheet: the actions, and the decisions written
    since the turn began (this sheet's for it, or earlier sheets') whose platform still stands."""
    state = run.ctx.state
    if state.ended:
        return TurnSoFar()
    this_turn = {id(step) for step in steps[run.turn_start:]}
    decisions = {sector: keep.pay for sector, keep in run.ctx.decisions.items() if sector in state.platforms
                 and (id(keep) in this_turn or sector in run.earlier.decisions)}
    # who has acted matters only while a protection from last turn may still end (P19)
    old = any(p.protected_since is not None and p.protected_since < state.turn for p in state.platforms.values())
    return TurnSoFar(set(run.ship_done), set(run.diplomacy_done), set(run.acted) if old else set(), decisions)


def adjudicate(board: Board, state: State, steps: list[Step]) -> GameResult:
    """Resolve the steps in order and return the report (a line per step) and the next state."""
    ctx = Context(board, state.copy(), Fleet(state.ships))
    earlier = state.this_turn
    run = _Run(ctx, ship_done=set(earlier.ship_actions), diplomacy_done=set(earlier.diplomacy),
               acted=set(earlier.acted), earlier=earlier)
    ctx.decisions = {sector: Keep(sector=sector, pay=pay, text="(a decision of an earlier sheet)")
                     for sector, pay in earlier.decisions.items()}
    _decisions(run, steps)
    for i, step in enumerate(steps):
        if isinstance(step, Keep):
            _decision_line(run, step)
            continue
        if not ctx.state.ended:
            protection.expire(ctx, step, run.acted)  # time passes before the step, whatever becomes of it
        if step.country is not None:
            run.acted.add(step.country)
        if isinstance(step, Header):
            same_action = run.action is not None and run.action.country == step.country
            if same_action or _next_same_country(steps, i, step.country):
                continue  # a label for the steps that follow
            run.close_action()
            run.line(step, ILLEGAL, "no effect: the action has no step; at least one move or attack must be made",
                     {"refusal": "no_effect"}, text="Ship Movement action")
            continue
        if not isinstance(step, SHIP_STEPS) or (run.action is not None and run.action.country != step.country):
            run.close_action()
        blocked = _blocked(ctx, step)
        if blocked:
            run.refuse(step, *blocked)
            continue
        if isinstance(step, SHIP_STEPS):
            if run.action is None:
                if step.country in run.ship_done:
                    run.refuse(step, "action_over", f"action over: {ctx.name(step.country)}'s ships have already "
                                                    f"moved in an action "
                                                    f"{run.over(earlier.ship_actions, step.country)} "
                                                    f"(one Ship Movement action per turn)")
                    continue
                run.action = _Action(country_of(step), step.line)  # (not blocked: it has one)
            if run.run(step):
                run.action.succeeded = True
        elif isinstance(step, AutoMove):
            if step.country in run.ship_done:
                run.refuse(step, "action_over", f"action over: {ctx.name(step.country)}'s ships have already "
                                                f"moved {run.over(earlier.ship_actions, step.country)}")
            elif run.run(step):
                run.ship_done.add(country_of(step))
        elif isinstance(step, DIPLOMACY_STEPS):
            if step.country in run.diplomacy_done:
                run.refuse(step, "action_over", f"action over: {ctx.name(step.country)} has already taken its "
                                                f"Diplomacy action {run.over(earlier.diplomacy, step.country)} "
                                                f"(one per turn)")
            elif run.run(step):
                run.diplomacy_done.add(country_of(step))
        elif isinstance(step, Protect):
            run.run(step)
        elif isinstance(step, EndTurn):
            if run.run(step):
                run.ship_done.clear()
                run.diplomacy_done.clear()
                run.acted.clear()
                run.earlier = TurnSoFar()  # earlier sheets' decisions were for the turn just ended
                for sector in earlier.decisions:
                    ctx.decisions.pop(sector, None)
                run.turn_start = i + 1
    run.close_action()
    _fill_decisions(run, state)
    nxt = ctx.state
    nxt.ships = ctx.fleet.ships()
    nxt.this_turn = _turn_so_far(run, steps)
    summary: dict[str, Any] = {"turn": nxt.turn, "law": f"{nxt.law} ({board.laws[nxt.law].name})"}
    if nxt.ended:
        summary["game over"] = True
    return GameResult(run.report, nxt, list(ctx.trace), summary)
