"""One power's orders checked when they arrive alone (hosted games), without judging the board.

A refusal (illegal, ignored) is the validation's (`orders/validate.py` at a movement phase; a retreat's or an
adjustment's own check, which settles each power's orders by themselves). A support or convoy is void when the
unit it names does not do what it says: with every other power's units holding (their orders are secret),
that is known from the power's own orders alone, and the game shows it when the unit is the power's own
(`void_known_on_arrival`). Each line's reason is the one the judged phase would give it with the others
holding.
"""

from __future__ import annotations

from adjudicator.games.diplomacy.board import Board
from adjudicator.games.diplomacy.judge.adjustment import adjudicate_adjustments
from adjudicator.games.diplomacy.judge.facts import ConvoyVoid, SupportVoid
from adjudicator.games.diplomacy.judge.fallback import ADJACENT_FALLBACK
from adjudicator.games.diplomacy.judge.movement import judge_movement, unit_name
from adjudicator.games.diplomacy.judge.reasons import sentence
from adjudicator.games.diplomacy.judge.retreat import adjudicate_retreats
from adjudicator.games.diplomacy.orders.model import Order
from adjudicator.games.diplomacy.orders.sheet import order_part, read_sheet
from adjudicator.games.diplomacy.orders.commands import Command, ConvoyCommand, HoldCommand, MoveCommand, SupportCommand
from adjudicator.games.diplomacy.orders.validate import every_unit_command, movement_commands
from adjudicator.games.diplomacy.rulebook import Rulebook
from adjudicator.games.diplomacy.phase import stranded, unit_of
from adjudicator.games.diplomacy.state import GameState
from adjudicator.arrival import LinesRefused, SeatItem
from adjudicator.outcome import ILLEGAL, VOID, OrderResult

PENDING = "pending"  # a legal order whose outcome waits on the other powers' orders
_FALLBACK = ADJACENT_FALLBACK  # DATC 4.A.3 rules under which a failed convoy falls back to land


def arrival_report(board: Board, state: GameState, orders: list[Order]) -> list[OrderResult]:
    """A report line for each of one power's orders as far as it is known before the others': refused, void
    or pending."""
    if state.phase.type == "Retreat":
        return adjudicate_retreats(board, state, orders)[1]
    if state.phase.type == "Adjustment":
        return adjudicate_adjustments(board, state, orders)[2]
    return _movement(board, state, orders)


def _movement(board: Board, state: GameState, orders: list[Order]) -> list[OrderResult]:
    season = state.phase.season
    rules = state.rule_options(board)
    if rules.adjacent_convoy in _FALLBACK:
        commands, rejected = every_unit_command(board, state, orders)
        if _may_fall_back(board, season, commands):
            # Whether such an army goes by convoy is the judge's to say (its convoy's PATH): asked here, with
            # every other unit holding, under these rule options only; it settles `via_convoy` on the commands.
            judge_movement(board, season, commands, rules)
    else:  # the ordered units' commands: a unit without one holds
        commands, rejected = movement_commands(board, state, orders)
    # A unit that holds, supports or convoys stays where it is, and no unit of its own power can dislodge it:
    # its line says, as the judged phase's does, whether the season's terrain disbands it there (a refused
    # order's unit holds: the last refusal of the unit's says it).
    refused = {unit.province: (r, unit) for r in rejected if (unit := unit_of(r)) is not None and r.status == ILLEGAL}
    for province, (r, unit) in refused.items():
        if province not in commands or commands[province].order is None:
            r.reason += stranded(board, season, unit)
    lines = list(rejected)
    for c in commands.values():
        if c.order is not None:
            status, reason = _void_or_pending(c, commands, state, rules)
            if status == VOID:
                reason += stranded(board, season, c.unit)
            lines.append(OrderResult(c.unit.power, c.order.text or c.order.describe(), status, reason, unit=c.unit,
                                     order=c.order, line=c.order.line))
    return lines


def _void_or_pending(c: Command, commands: dict[str, Command], state: GameState, rules: Rulebook) -> tuple[str, str]:
    """A support or convoy that names a unit not doing what it says is void, the other units holding (its
    reason the judge's sentence for the same fact, judge/reasons.py)."""
    fact: SupportVoid | ConvoyVoid | None = None
    if isinstance(c, SupportCommand):
        target = _commanded(c.target, commands, state)
        if not support_matches(c, target):
            moved = target if isinstance(target, MoveCommand) and c.target_coast and target.dest == c.dest else None
            fact = SupportVoid(c.target, c.dest, moved.dest_location, c.target_coast) if moved is not None \
                else SupportVoid(c.target, c.dest)
    elif isinstance(c, ConvoyCommand):
        army = _commanded(c.target, commands, state)
        if not (isinstance(army, MoveCommand) and army.dest == c.dest and army.via_convoy):
            fact = ConvoyVoid(c.target, c.dest)
    if fact is None:
        return PENDING, "its outcome depends on the other powers' orders"
    name = lambda province: unit_name(_commanded(province, commands, state), province)  # noqa: E731
    status, reason, _ = sentence(fact, None, name, rules.paradox)
    return status, reason


def _commanded(province: str, commands: dict[str, Command], state: GameState) -> Command | None:
    """The command of the unit in `province`: its own, or a hold when its power has not ordered it yet."""
    if province in commands:
        return commands[province]
    unit = state.units.get(province)
    return HoldCommand(unit) if unit is not None else None


def support_matches(c: SupportCommand, target: Command | None) -> bool:
    """Whether a support names what its unit does: a hold of a unit that does not move, or its move (to the
    coast it names, if it names one)."""
    if target is None:
        return False
    if not isinstance(target, MoveCommand):
        return c.dest is None
    return c.dest == target.dest and (c.target_coast is None or c.target_coast == _coast(target.dest_location))


def _coast(location: str) -> str | None:
    return location.partition("/")[2] or None


def _may_fall_back(board: Board, season: str, commands: dict[str, Command]) -> bool:
    """Whether an army is ordered by convoy to a space it could reach by land (DATC 4.A.3)."""
    army_next = board.season(season).army_next
    return any(isinstance(c, MoveCommand) and c.via_convoy and c.unit.type == "A" and c.dest in army_next.get(p, ())
               for p, c in commands.items())


def seat_items(board: Board, state: GameState, seat: str, text: str) -> list[SeatItem]:
    """A power's text body read as a sheet is (`read_sheet`, as `/v1/adjudicate` reads it), a line without a
    header the power's own: each line that holds an order (or something meant as one) is one item, numbered by
    its line; headers, comments and blank lines are none. A line under another power's header is refused
    (LinesRefused): a power's token sends its own orders, and the line must not be read as the seat's."""
    sheet = read_sheet(board, text, default_power=seat, state=state)
    if sheet.refusal:  # (too many lines to read: never taken as a sheet of no orders)
        raise LinesRefused(sheet.refusal)
    for order in sheet.orders:
        header = sheet.header_lines.get(order.line or 0)
        if order.power != seat and header is not None:
            raise LinesRefused(f"line {order.line} is under the {order.power!r} header on line {header}: "
                               f"{seat}'s token sends {seat}'s orders only; remove the header, or send "
                               f"{order.power}'s orders with {order.power}'s token")
    read = {o.line for o in sheet.orders} | {p.line for p in sheet.problems}
    lines = text.splitlines()
    return [SeatItem(number, order_part(lines[number - 1])) for number in sorted(n for n in read if n)]
