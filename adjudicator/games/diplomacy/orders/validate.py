"""Parsed orders + position -> the order each unit executes, and a report line for every order given.

By default the DATC v3.0 preferences: an illegal order is ignored (the unit holds); several different legal
orders for one unit make it hold; unit type and nationality written in an order are ignored; a wrong coast
of the ordered unit and coasts on army orders are ignored; an omitted coast is taken when only one is
possible; a move to an impossible coast is illegal. Each of these is a rule option (the game's `Rulebook`),
read where it applies with its DATC number beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

from adjudicator.games.diplomacy.board import ARMY, FLEET, NEUTRAL, Board, SeasonView, join_location
from adjudicator.outcome import IGNORED, ILLEGAL, OrderResult
from adjudicator.names import spelling_score
from adjudicator.games.diplomacy.orders.model import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, Waive
from adjudicator.games.diplomacy.orders.commands import Command, ConvoyCommand, HoldCommand, MoveCommand, SupportCommand
from adjudicator.games.diplomacy.orders.designation import refused_designations
from adjudicator.games.diplomacy.rulebook import DEFAULT_RULES, Rulebook
from adjudicator.games.diplomacy.state import GameState, Unit


class Illegal(Exception):
    """An order that cannot be executed, with the reason."""


def _name(board: Board, province: str) -> str:
    return board.provinces[province].name


def resolve_destination(board: Board, unit_type: str, origin: str, dest: str, coast: str | None, season: str,
                        rules: Rulebook = DEFAULT_RULES) -> str:
    """The location a unit moving without convoy reaches, applying the coast rules, or Illegal."""
    p = board.provinces[dest]
    if coast is not None and (unit_type == ARMY or coast not in p.coasts) and rules.unknown_coast == "fails":
        what = "an army's move names no coast" if unit_type == ARMY else f"{p.name} has no {coast} coast"
        raise Illegal(f"{what}, and a wrong or unknown coast makes the order fail (DATC 4.B.6: fails)")
    if unit_type == ARMY or not p.coasts:
        loc = dest
        if board.can_move(unit_type, origin, loc, season):
            return loc
        raise Illegal(_why_not_adjacent(board, unit_type, origin, dest, season))
    reachable = board.reachable_locations(FLEET, origin, dest, season)
    if coast in p.coasts:
        loc = join_location(dest, coast)
        if board.can_move(unit_type, origin, loc, season):
            return loc
        if len(reachable) == 1 and rules.impossible_coast == "other-coast":  # DATC 4.B.3
            return reachable[0]
        raise Illegal(f"a fleet in {_name(board, origin.split('/')[0])} cannot reach the {coast} coast of {p.name}")
    if len(reachable) == 1:
        if rules.omitted_coast == "fails":  # DATC 4.B.2
            raise Illegal(f"the order must name the coast of {p.name} ({reachable[0]}) (DATC 4.B.2: fails)")
        return reachable[0]
    if not reachable:
        raise Illegal(_why_not_adjacent(board, unit_type, origin, dest, season))
    raise Illegal(f"{p.name} has two coasts this fleet can reach ({', '.join(reachable)}); the order must name one")


def _why_not_adjacent(board: Board, unit_type: str, origin: str, dest: str, season: str,
                      no_convoy: bool = False) -> str:
    """Why a unit cannot move to `dest` (`no_convoy`: nor be convoyed there), and the place it can reach that is
    spelt like `dest`, when there is one (the Arctic's NWG for Nwg, A17)."""
    why = _why_not_reached(board, unit_type, origin, dest, season)
    if no_convoy:
        why += ", and no fleets could convoy it there"
    return why + _spelt_alike(board, unit_type, origin, dest, season)


def _spelt_alike(board: Board, unit_type: str, origin: str, dest: str, season: str) -> str:
    """`, but Nwg (Norwegian Sea) is: did you mean it?` when a place the unit can reach has a spelling of `dest` in
    other letter case, or one very close to it; else nothing."""
    written = [*board.names.spellings.get(dest, ()), board.provinces[dest].name]
    meant = []
    for place in sorted(board.season(season).reach[unit_type].get(origin, ())):
        if place == dest:
            continue
        theirs = [*board.names.spellings.get(place, ()), board.provinces[place].name]
        if any(a.casefold() == b.casefold() or spelling_score(a, b) >= _ALIKE for a in written for b in theirs):
            meant.append(f"{place} ({board.provinces[place].name})" if place != board.provinces[place].name else place)
    if not meant:
        return ""
    return f", but {' and '.join(meant)} {'is' if len(meant) == 1 else 'are'}: did you mean {'it' if len(meant) == 1 else 'one'}?"


_ALIKE = 90  # `spelling_score` from which two places' names are close enough that one may be written for the other


def _why_not_reached(board: Board, unit_type: str, origin: str, dest: str, season: str) -> str:
    o = origin.split("/")[0]
    surface = board.surface(dest, season)
    if unit_type == ARMY and surface == "sea":
        return f"an army cannot enter {_name(board, dest)}, which is sea in {season}"
    if unit_type == FLEET and surface == "ice":
        return f"a fleet cannot enter {_name(board, dest)}, which is ice in {season}"
    if unit_type == FLEET and surface == "land" and not board.coastal(dest, season) and dest in board.graph.adj[o]:
        return f"a fleet cannot enter {_name(board, dest)}: it has no open sea in {season}"
    if dest in board.graph.adj[o]:
        kind = "an army" if unit_type == ARMY else "a fleet"
        return f"{kind} cannot move from {_name(board, o)} to {_name(board, dest)} in {season}"
    return f"{_name(board, dest)} is not adjacent to {_name(board, o)}"


def ignored(order: Order, reason: str) -> OrderResult:
    """A report line for an order that is not an order for any unit of its power."""
    return OrderResult(order.power, order.text or order.describe(), IGNORED, reason, order=order, line=order.line)


def illegal(order: Order, unit: Unit | None, reason: str, consequence: str = "the unit holds") -> OrderResult:
    """A report line for an impossible order."""
    return OrderResult(order.power, order.text or order.describe(), ILLEGAL, f"{reason}; {consequence}", unit=unit,
                       order=order, line=order.line)


@dataclass(slots=True)
class _Movement:
    """What every order of one movement phase is checked against."""

    board: Board
    state: GameState
    season: str
    view: SeasonView
    fleets: frozenset[str]  # fleets that may convoy: the route searches of this phase start from this set
    rules: Rulebook
    via_tag: bool = True  # "via convoy" to an adjacent space shows intent (DATC 4.A.3: not under 1971 and 1982)
    routes: dict[tuple[str, str], bool] = field(default_factory=dict)  # (origin, destination): a route over `fleets`

    def __post_init__(self) -> None:
        self.via_tag = self.rules.adjacent_convoy not in ("1971", "1982")

    def route(self, origin: str, destination: str) -> bool:
        """`Board.convoy_route_exists` over this phase's fleets, asked once per pair (every support of a
        convoyed move asks it again)."""
        key = (origin, destination)
        found = self.routes.get(key)
        if found is None:
            found = self.routes[key] = self.board.convoy_route_exists(origin, destination, self.season, self.fleets)
        return found


def movement_commands(board: Board, state: GameState, orders: list[Order]) -> tuple[dict[str, Command], list[OrderResult]]:
    """The command of every ordered unit in a movement phase, and report lines for orders not executed."""
    season = state.phase.season
    view = board.season(season)
    # Only fleets on open sea (or an archipelago) can convoy.
    fleets = view.convoy_spaces.intersection([u.province for u in state.units.values() if u.type == FLEET])
    rules = state.rule_options(board)
    phase = _Movement(board, state, season, view, fleets, rules)
    report: list[OrderResult] = []
    if rules.strict_designations:  # DATC 4.C.1, 4.C.2, 4.C.5, 4.C.6: what an order says of its units counts
        orders = _designated(rules, state, orders, report)
    commands: dict[str, Command] = {}
    more: dict[str, list[Command]] = {}  # a unit's further legal orders, past its first
    convoys = False
    units, checks = state.units, _CHECKS
    wrong_coast_fails = rules.wrong_unit_coast == "fails"
    ordered: set[str] | None = None  # the places of the units given movement orders (worked out when needed)
    for order in orders:
        check, ref = checks.get(type(order)), order.unit
        # a build, removal or retreat: refused naming the phase, whatever stands there (`ref` is None only for a
        # waive, which `checks` has no check for either)
        if check is None or ref is None:
            if ordered is None:
                ordered = {o.unit.province for o in orders if type(o) in checks and o.unit is not None}
            report.append(_misplaced(board, state, order, ordered))
            continue
        unit = units.get(ref.province)
        if unit is None or unit.power != order.power and order.power is not None or unit.power == NEUTRAL:
            report.append(ignored(order, _not_its_unit(order, ref.province, unit)))
            continue
        try:
            if wrong_coast_fails and ref.coast is not None and ref.coast != unit.coast:
                raise Illegal(f"the order names the {ref.coast} coast, but the unit is at {unit.location} "
                              f"(DATC 4.B.5: fails)")
            command = check(phase, unit, order)
        except Illegal as exc:
            report.append(illegal(order, unit, str(exc)))
            continue
        convoys = convoys or type(command) is ConvoyCommand
        if unit.province in commands:
            more.setdefault(unit.province, []).append(command)
        else:
            commands[unit.province] = command

    for province in [p for p in commands if p in more] if more else ():  # (in the order of their first orders)
        extra = more[province]
        cmds = [commands[province], *extra]
        given = [_read_from(c) for c in cmds]
        if all(_same_effect(cmds[0], c) for c in extra):
            for o in given[1:]:
                report.append(ignored(o, "the same order was given twice; it counts once"))
        elif rules.several_orders == "hold":  # DATC 4.D.3
            del commands[province]
            for c, o in zip(cmds, given):
                report.append(illegal(o, c.unit, several_orders(given, None, rules),
                                      "it holds (and may receive hold support)"))
        else:  # DATC 4.D.3: first or last
            at = 0 if rules.several_orders == "first" else -1
            commands[province] = cmds[at]
            for c, o in zip(cmds, given):
                if c is not cmds[at]:
                    report.append(ignored(o, several_orders(given, given[at], rules)))
    if convoys or rules.adjacent_convoy != "2000":
        _settle_convoy_intent(board, season, commands, rules)
    return commands, report


def _read_from(command: Command) -> Order:
    """The order a command checked from one was read from (only the holds of units without orders have none)."""
    if command.order is None:
        raise AssertionError(f"the {command.kind} of {command.unit.location} was checked from no order")
    return command.order


def _same_effect(a: Command, b: Command) -> bool:
    """Whether two commands of a unit do the same (whatever order each was read from)."""
    return type(a) is type(b) and replace(a, order=None) == replace(b, order=None)  # type: ignore[type-var]  # (each kind a dataclass)


def several_orders(orders: list[Order], kept: Order | None, rules: Rulebook) -> str:
    """Why an order of a unit given several different orders is not carried out, naming them all and the one
    used (`kept`; None: none is, and the unit holds or is disbanded), by the rule that chose (DATC 4.D.3)."""
    def named(o: Order) -> str:  # (each report line carries its own line: the reason is the same from any source)
        return f"'{o.text or o.describe()}'"

    given = ", ".join(named(o) for o in orders[:-1]) + f" and {named(orders[-1])}"
    if kept is None:
        return f"the unit was given several different orders, {given}: none is used (DATC 4.D.3: hold)"
    return (f"not used: the unit was given several different orders, {given}, and the {rules.several_orders}, "
            f"{named(kept)}, is used (DATC 4.D.3: {rules.several_orders})")


def _designated(rules: Rulebook, state: GameState, orders: list[Order], report: list[OrderResult]) -> list[Order]:
    """The orders the designation rules keep, and a report line for each they refuse."""
    refused = refused_designations(rules, state, orders)
    for order in orders:
        if id(order) in refused:
            is_illegal, reason = refused[id(order)]
            unit = state.units.get(order.unit.province) if order.unit is not None else None  # (a waive: no flaw)
            report.append(illegal(order, unit, reason,
                                  "the unit holds (and may receive hold support)") if is_illegal
                          else ignored(order, reason))
    return [o for o in orders if id(o) not in refused]


def every_unit_command(board: Board, state: GameState,
                       orders: list[Order]) -> tuple[dict[str, Command], list[OrderResult]]:
    """`movement_commands`, and a hold for every unit without one (after the ordered units, in the position's
    order): what the judge executes."""
    commands, report = movement_commands(board, state, orders)
    for province, unit in state.units.items():
        if province not in commands:
            commands[province] = HoldCommand(unit)
    return commands, report


def movement_command(board: Board, state: GameState, unit: Unit, order: Order, fleets: frozenset[str]) -> Command:
    """The command one movement order gives its unit, or Illegal: the check `movement_commands` makes of each
    order (`fleets`: the fleets that may convoy)."""
    return movement_checker(board, state, fleets)(unit, order)


def movement_checker(board: Board, state: GameState, fleets: frozenset[str]) -> Callable[[Unit, Order], Command]:
    """`movement_command` for many orders of one position (the legal-order lists): what the checks read of the
    phase is gathered once."""
    season = state.phase.season
    phase = _Movement(board, state, season, board.season(season), fleets, state.rule_options(board))
    checks = _CHECKS

    def check(unit: Unit, order: Order) -> Command:
        return checks.get(type(order), _not_movement)(phase, unit, order)

    return check


def _not_its_unit(order: Order, where: str, unit: Unit | None) -> str:
    """Why an order for the unit in `where` is for no unit of its power: none there, another power's, or a
    neutral unit."""
    if unit is None:
        return f"there is no unit in {where}"
    if unit.power != order.power and order.power is not None:
        return f"the unit in {where} belongs to {unit.power}, not {order.power}"
    return f"the unit in {where} is neutral: it takes no orders and holds"  # neutral units hold; no one orders them


# What each kind of order is, and when it is given (for the refusal at another kind of phase).
_OTHER_KINDS: dict[type[Order], tuple[str, str]] = {
    Build: ("a build", "an adjustment phase"), Waive: ("a waived build", "an adjustment phase"),
    Remove: ("a removal", "an adjustment phase"), Disband: ("a disband", "a retreat or adjustment phase"),
    Retreat: ("a retreat", "a retreat phase"), Move: ("a move", "a movement phase"),
    Hold: ("a hold", "a movement phase"), Support: ("a support", "a movement phase"),
    Convoy: ("a convoy", "a movement phase")}


def wrong_phase(order: Order, state: GameState) -> str:
    """Why an order of another kind of phase is refused, naming both."""
    what, when = _OTHER_KINDS[type(order)]
    return f"{what} is ordered at {when}; the game is at {state.phase}"


def _misplaced(board: Board, state: GameState, order: Order, ordered: set[str]) -> OrderResult:
    """The report line of a build, removal or retreat at a movement phase, saying what stands in its place: a
    unit of the power that has no movement order holds (the line stands for its hold), else it is ignored."""
    reason = wrong_phase(order, state)
    unit = state.units.get(order.unit.province) if order.unit is not None else None
    if unit is None:
        return illegal(order, None, reason, "it is ignored")
    own = unit.power == order.power
    standing = f"{unit.type} {unit.location}" if own else f"{unit.power}'s {unit.type} {unit.location}"
    if isinstance(order, Build):
        where = board.provinces[unit.province].name
        if own and unit.province not in ordered:
            return illegal(order, unit, reason, f"nothing is built: {where} is occupied by {standing}, which holds "
                                                f"(it has no order)")
        return illegal(order, None, reason, f"nothing is built: {where} is occupied by {standing}"
                                            + (", whose own order is judged on its line" if own else ""))
    if own and unit.province not in ordered:
        return illegal(order, unit, reason, "the unit holds")
    return illegal(order, None, reason, f"it is ignored ({standing} follows its own order)" if own
                   else f"it is ignored (the unit in {unit.province} is {unit.power}'s)")


def _not_movement(phase: _Movement, unit: Unit, order: Order) -> Command:
    raise Illegal(wrong_phase(order, phase.state))


# (The hot checks below make their Commands with positional fields and read the season's sets inline: each
# keyword and method call costs as much as a lookup.)
def _hold_command(phase: _Movement, unit: Unit, order: Order) -> Command:
    return HoldCommand(unit, order)


def _move_command(phase: _Movement, unit: Unit, order: Move) -> Command:
    board, season, dest = phase.board, phase.season, order.dest
    if dest == unit.province:
        raise Illegal("a unit cannot move to the space it is in")
    rules = phase.rules
    if unit.type == ARMY:
        if order.dest_coast is not None and rules.unknown_coast == "fails":
            resolve_destination(board, ARMY, unit.location, dest, order.dest_coast, season, rules)  # (refuses it)
        adjacent = dest in phase.view.army_next.get(unit.province, ())
        # DATC 4.A.3: "via convoy" to an adjacent space shows intent except under 1971 and 1982 (no such tag);
        # the others' intent is settled from the whole phase's orders (`_settle_convoy_intent`)
        via = order.via_convoy and phase.via_tag or not adjacent
        if order.path and rules.convoy_path != "ignored":  # DATC 4.A.6
            return _path_move(phase, unit, order)
        if adjacent and not via:
            return MoveCommand(unit, dest, dest, False, order)
        if rules.convoy_path == "required" and not adjacent:  # DATC 4.A.6
            raise Illegal("a convoyed move must name its path (A Yor - Nth - Bel) (DATC 4.A.6: required)")
        if phase.route(unit.province, dest):
            return MoveCommand(unit, dest, dest, True, order)
        if adjacent:
            if rules.adjacent_convoy in ("2000-fallback", "2000-fallback-via-bound"):
                return MoveCommand(unit, dest, dest, False, order)  # DATC 4.A.3: no convoy there, the land route
            # "via convoy" with no fleets to carry it: the army is not kidnapped into a land move
            raise Illegal(f"no fleets stand where they could convoy {unit.location} to {_name(board, dest)}")
        raise Illegal(_why_not_adjacent(board, ARMY, unit.location, dest, season,
                                        no_convoy=board.surface(dest, season) != "sea"))
    loc = resolve_destination(board, FLEET, unit.location, dest, order.dest_coast, season, rules)
    return MoveCommand(unit, dest, loc, False, order)


def _path_move(phase: _Movement, unit: Unit, order: Move) -> Command:
    """A convoyed move along the path its order names (DATC 4.A.6: allowed or required): each space of the
    path borders the one before over water, and holds a fleet that may convoy."""
    board, path = phase.board, order.path
    steps = (unit.province, *path, order.dest)
    for here, there in zip(steps, steps[1:]):
        if there not in board.water_adj.get(here, ()):
            raise Illegal(f"the convoy path {' - '.join(steps)} breaks between {_name(board, here)} and "
                          f"{_name(board, there)}")
    missing = [p for p in path if p not in phase.fleets]
    if missing:
        raise Illegal(f"no fleet in {_name(board, missing[0])} could convoy along the path the order names")
    if not board.convoy_destination_ok(order.dest, phase.season) or not board.convoy_origin_ok(unit.province, phase.season):
        raise Illegal(f"an army cannot be convoyed from {unit.location} to {_name(board, order.dest)}")
    return MoveCommand(unit, order.dest, order.dest, True, order)


def _could_move(phase: _Movement, unit: Unit, dest: str) -> bool:
    """Whether a unit could move to a province (any coast, or by a possible convoy), ignoring occupants."""
    if dest in phase.view.reach[unit.type].get(unit.location, ()):
        return True
    return unit.type == ARMY and phase.route(unit.province, dest)


def _support_command(phase: _Movement, unit: Unit, order: Support) -> Command:
    board, view = phase.board, phase.view
    support = view.support[unit.type].get(unit.location, ())  # the provinces it may support into
    target = order.target.province
    supported = phase.state.units.get(target)
    if supported is None:
        raise Illegal(f"there is no unit in {_name(board, target)} to support")
    if target == unit.province:
        raise Illegal("a unit cannot support itself")
    dest = order.dest
    if dest is None:
        if target not in support:
            raise Illegal(f"{unit.location} cannot reach {_name(board, target)}, so it cannot support a unit there")
        return SupportCommand(unit, target, None, None, order)
    if dest == unit.province:
        raise Illegal("a unit cannot support a move into its own space")
    if dest == target:
        raise Illegal("a supported move must go somewhere else")
    if dest not in support:
        raise Illegal(f"{unit.location} cannot reach {_name(board, dest)}, so it cannot support a move there")
    if not _could_move(phase, supported, dest):
        raise Illegal(f"the unit in {_name(board, target)} cannot move to {_name(board, dest)}")
    if (unit.type == FLEET and supported.type == ARMY and dest not in view.army_next.get(target, ())
            and not board.convoy_route_exists(target, dest, phase.season, phase.fleets - {unit.province})):
        # DATC 6.D.31: the only convoy route runs through the supporting fleet, which cannot do both
        raise Illegal(f"the only convoy route from {_name(board, target)} to {_name(board, dest)} runs through "
                      f"{unit.location} itself, which cannot both convoy and support (DATC 6.D.31)")
    coast = order.dest_coast
    if coast is None and supported.type == FLEET and board.provinces[dest].coasts and (
            phase.rules.support_coast == "coast-required"
            or phase.rules.support_coast == "own-units" and supported.power != unit.power):  # DATC 4.B.4
        raise Illegal(f"a support of a fleet's move to {_name(board, dest)} must name the coast "
                      f"(DATC 4.B.4: {phase.rules.support_coast})")
    if coast is None or supported.type != FLEET:
        return SupportCommand(unit, target, dest, None, order)
    if coast not in board.provinces[dest].coasts:
        coast = None
    elif not view.can_move(FLEET, supported.location, join_location(dest, coast)):
        raise Illegal(f"the fleet in {_name(board, target)} cannot reach the {coast} coast of {_name(board, dest)}")
    return SupportCommand(unit, target, dest, coast, order)


def _convoy_command(phase: _Movement, unit: Unit, order: Convoy) -> Command:
    board, season, state = phase.board, phase.season, phase.state
    if unit.type != FLEET:
        raise Illegal("only fleets can convoy")
    if not board.can_convoy_from(unit.province, season):
        raise Illegal(f"only a fleet on open sea (or on an archipelago the board marks `convoys`) can convoy; "
                      f"{_name(board, unit.province)} is {board.surface(unit.province, season)} in {season}")
    target = order.target.province
    army = state.units.get(target)
    if army is None:
        raise Illegal(f"there is no unit in {_name(board, target)} to convoy")
    if army.type != ARMY:
        raise Illegal("only armies can be convoyed")
    dest = order.dest
    if dest == target:
        raise Illegal("a convoy must take the army somewhere else")
    if not board.convoy_origin_ok(target, season):
        raise Illegal(f"an army on {_name(board, target)} cannot be convoyed in {season}")
    if not board.convoy_destination_ok(dest, season):
        raise Illegal(f"an army cannot be convoyed to {_name(board, dest)}, which is sea in {season}")
    if unit.province not in board.convoy_fleets_on_routes(target, dest, season, phase.fleets):
        raise Illegal(f"the fleet in {_name(board, unit.province)} is on no convoy route from "
                      f"{_name(board, target)} to {_name(board, dest)}")
    return ConvoyCommand(unit, target, dest, order)


_CHECKS: dict[type[Order], Callable[[_Movement, Unit, Order], Command]] = {
    Hold: _hold_command, Move: _move_command, Support: _support_command, Convoy: _convoy_command}  # type: ignore[dict-item]


def _settle_convoy_intent(board: Board, season: str, commands: dict[str, Command], rules: Rulebook) -> None:
    """Whether an army moving to an adjacent space goes by convoy (DATC 4.A.3): under the 2000/2023 rules (and
    1982's intent from the power's own orders) when one of its own power's fleets convoys it; under 1971 when
    any fleet convoys it and the unit in its destination moves the opposite way; `explicit` never (only
    "via convoy" does, read with the order)."""
    rule = rules.adjacent_convoy
    if rule == "explicit":
        return
    if rule == "1971":
        convoyed = {(c.target, c.dest) for c in commands.values() if isinstance(c, ConvoyCommand)}
        for command in commands.values():
            if isinstance(command, MoveCommand) and command.unit.type == ARMY and not command.via_convoy \
                    and (command.province, command.dest) in convoyed:
                other = commands.get(command.dest)
                command.via_convoy = isinstance(other, MoveCommand) and other.dest == command.province
        return
    convoyed_by = {(c.target, c.dest, c.unit.power) for c in commands.values() if isinstance(c, ConvoyCommand)}
    for command in commands.values():
        if (isinstance(command, MoveCommand) and command.unit.type == ARMY and not command.via_convoy
                and (command.province, command.dest, command.unit.power) in convoyed_by):
            command.via_convoy = True
