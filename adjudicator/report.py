"""The judge's report: one phase's results as text for an email, or as JSON, and the position summary."""

from __future__ import annotations

from typing import Any

from adjudicator.board import Board
from adjudicator.judge.adjustment import adjustment_due
from adjudicator.orders.sheet import Sheet
from adjudicator.phase import PhaseResult
from adjudicator.state import GameState

_MARK = {"succeeds": "ok", "fails": "FAILS", "void": "void", "illegal": "ILLEGAL", "ignored": "ignored",
         "default": "default"}


def position_summary(board: Board, state: GameState) -> list[dict[str, Any]]:
    """Each power's centres and units, and the builds (+) or removals (-) it is due."""
    out = []
    for power in board.powers:
        centres = state.centres_of(power)
        units = state.units_of(power)
        out.append({
            "power": power,
            "centres": centres,
            "units": [f"{u.type} {u.location}" for u in units],
            "adjustment": adjustment_due(state, power),
        })
    return out


def history_entry(result: PhaseResult, sheet: Sheet | None) -> dict[str, Any]:
    """What the game file's history keeps of a phase: the orders as written and their outcomes."""
    orders: dict[str, list[str]] = {}
    for order in (sheet.orders if sheet else []):
        orders.setdefault(order.power, []).append(order.text or order.describe())
    return {
        "phase": str(result.phase),
        "orders": orders,
        "results": [{"power": r.power, "order": r.text, "status": r.status, "reason": r.reason} for r in result.report],
    }


def result_json(board: Board, result: PhaseResult, sheet: Sheet | None = None) -> dict[str, Any]:
    """The whole report as JSON-ready data."""
    data = result.to_json()
    data["sheet_problems"] = [p.to_json() for p in sheet.problems] if sheet else []
    data["notes"] = list(sheet.notes) if sheet else []
    data["powers"] = position_summary(board, result.next_state)
    return data


def result_text(board: Board, result: PhaseResult, sheet: Sheet | None = None) -> str:
    """The report as a game master mails it."""
    lines = [f"{board.title}: {result.phase}", "=" * (len(board.title) + len(str(result.phase)) + 2), ""]
    if sheet and sheet.problems:
        lines.append("Lines that are not orders:")
        lines += [f"  {p}" for p in sheet.problems]
        lines.append("")
    if sheet and sheet.notes:
        lines += [f"Note: {n}" for n in sheet.notes] + [""]
    by_power: dict[str, list] = {}
    for r in result.report:
        by_power.setdefault(r.power or "?", []).append(r)
    for power in [*board.powers, *(p for p in by_power if p not in board.powers)]:
        if power not in by_power:
            continue
        lines.append(f"{power}:")
        for r in by_power[power]:
            lines.append(f"  {r.text:<28} {_MARK.get(r.status, r.status):<8} {r.reason}")
        lines.append("")
    if result.dislodged:
        lines.append("Dislodged units and their retreats:")
        for d in result.dislodged:
            lines.append(f"  {d.unit.power} {d.unit.type} {d.unit.location}: {', '.join(d.retreats)}")
        lines.append("")
    if result.destroyed:
        lines.append("Dislodged with no retreat (destroyed): " +
                     ", ".join(f"{u.power} {u.type} {u.location}" for u in result.destroyed))
        lines.append("")
    if result.disbanded_by_terrain:
        lines.append("Disbanded by the ice (the season's terrain no longer carries them): " +
                     ", ".join(f"{u.power} {u.type} {u.location}" for u in result.disbanded_by_terrain))
        lines.append("")
    if result.centre_changes:
        lines.append("Supply centres changing hands:")
        for centre, old, new in result.centre_changes:
            lines.append(f"  {board.provinces[centre].name} ({centre}): {old or 'neutral'} -> {new}")
        lines.append("")
    for phase, why in result.skipped:
        lines.append(f"Skipped {phase}: {why}.")
    if result.skipped:
        lines.append("")
    lines.append("Position:")
    for row in position_summary(board, result.next_state):
        due = row["adjustment"]
        adj = f", builds {due}" if due > 0 else (f", removes {-due}" if due < 0 else "")
        lines.append(f"  {row['power']:<10} {len(row['centres']):>2} centres, {len(row['units']):>2} units{adj}: "
                     f"{' '.join(row['units']) or '-'}")
    lines.append("")
    lines.append(f"Next phase: {result.next_state.phase}")
    if result.winner:
        lines.append(f"WINNER: {result.winner}")
    return "\n".join(lines) + "\n"


def position_text(board: Board, state: GameState) -> str:
    """`adjudicator show`: the position in text."""
    lines = [f"{board.title}: {state.phase}", ""]
    for row in position_summary(board, state):
        due = row["adjustment"]
        adj = f" (builds {due})" if due > 0 else (f" (removes {-due})" if due < 0 else "")
        lines.append(f"{row['power']}: {len(row['centres'])} centres{adj}")
        lines.append(f"  units:   {', '.join(row['units']) or '-'}")
        lines.append(f"  centres: {', '.join(row['centres']) or '-'}")
    if state.dislodged:
        lines.append("")
        lines.append("Dislodged (to retreat):")
        for d in state.dislodged.values():
            lines.append(f"  {d.unit.power} {d.unit.type} {d.unit.location} (attacked from {d.attacker_origin})")
    neutral = [c for c in board.centres if c not in state.owners]
    lines.append("")
    lines.append(f"Neutral centres: {', '.join(sorted(neutral)) or '-'}")
    return "\n".join(lines) + "\n"


def game_result_text(board: Any, result: Any) -> str:
    """The report of another game's turn: each order or step with its outcome and reason, then the trace."""
    lines = [f"{board.title}", "=" * len(board.title), ""]
    for r in result.report:
        order = f"{r.power}: {r.text}" if r.power else r.text
        lines.append(f"  {order:<48} {_MARK.get(r.status, r.status):<8} {r.reason}")
    if result.trace:
        lines += ["", "What happened:"] + [f"  {t}" for t in result.trace]
    for key, value in result.summary.items():
        lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"
