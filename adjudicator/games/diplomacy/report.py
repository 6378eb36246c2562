"""The judge's report: one phase's results as text for an email, or as JSON, and the position summary."""

from __future__ import annotations

from typing import Any

from adjudicator.games.diplomacy.board import NEUTRAL, Board
from adjudicator.turn_report import MARK, problem_lines
from adjudicator.games.diplomacy.judge.adjustment import adjustment_due
from adjudicator.outcome import IGNORED, OrderResult
from adjudicator.sheets import Sheet
from adjudicator.games.diplomacy.phase import PhaseResult
from adjudicator.games.diplomacy.state import GameState



def position_summary(board: Board, state: GameState) -> list[dict[str, Any]]:
    """Each power's centres and units, and the builds (+) or removals (-) due when the phase is an adjustment."""
    out = []
    adjusting = state.phase.type == "Adjustment"
    for power in board.powers:
        centres = state.centres_of(power)
        units = state.units_of(power)
        out.append({
            "power": power,
            "centres": centres,
            "units": [f"{u.type} {u.location}" for u in units],
            "adjustment": adjustment_due(state, power) if adjusting else 0,
        })
    return out


def neutral_unit_lines(state: GameState) -> list[str]:
    """The board's neutral units, when it has any left."""
    units = state.units_of(NEUTRAL)
    return [f"Neutral units: {', '.join(f'{u.type} {u.location}' for u in units)}"] if units else []


def with_hints(result: PhaseResult, sheet: Sheet | None) -> list[OrderResult]:
    """The report's lines, an ignored order for another power's unit told why its line was read for its power
    (the sheet's hints: the header it was read under); once, however often the report is written."""
    lines = result.report
    if sheet is None or not sheet.hints:
        return lines
    for r in lines:
        hint = sheet.hints.get(r.line) if r.status == IGNORED and r.order is not None and r.line is not None else None
        if hint and hint not in r.reason:
            r.reason = f"{r.reason}: {hint}"
    return lines


def in_sheet_order(lines: list[OrderResult]) -> list[OrderResult]:
    """A power's report lines in the order of the sheet (each order by its line), then the units it left
    without one, as the judge gives them."""
    return sorted(lines, key=lambda r: (r.line is None, r.line or 0))


def history_entry(result: PhaseResult, sheet: Sheet | None) -> dict[str, Any]:
    """What the game file's history keeps of a phase: the orders as written and their outcomes."""
    with_hints(result, sheet)
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
    with_hints(result, sheet)
    data = result.to_json()
    data["sheet_problems"] = [p.to_json() for p in sheet.problems] if sheet else []
    data["notes"] = list(sheet.notes) if sheet else []
    data["powers"] = position_summary(board, result.next_state)
    data["rules"] = result.next_state.rule_options(board).describe()  # the rule options played (rulebook.py)
    return data


def result_text(board: Board, result: PhaseResult, sheet: Sheet | None = None) -> str:
    """The report as a game master mails it."""
    lines = [f"{board.title}: {result.phase}", "=" * (len(board.title) + len(str(result.phase)) + 2), "",
             *problem_lines(sheet)]
    played = result.next_state.rule_options(board).describe()
    if played != "datc-3.0":  # (DATC v3.0's preferences go without saying)
        lines[2:2] = [f"Rules: {played}", ""]
    by_power: dict[str, list] = {}
    for r in with_hints(result, sheet):
        by_power.setdefault(r.power or "?", []).append(r)
    for power in [*board.powers, *(p for p in by_power if p not in board.powers)]:
        if power not in by_power:
            continue
        lines.append(f"{power}:")
        for r in in_sheet_order(by_power[power]):
            lines.append(f"  {r.text:<28} {MARK.get(r.status, r.status):<8} {r.reason}")
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
    lines += [f"  {line}" for line in neutral_unit_lines(result.next_state)]
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
    lines += neutral_unit_lines(state)
    return "\n".join(lines) + "\n"


def board_json(board: Board) -> dict:
    """A Diplomacy board as JSON: every space with its names, kind, terrain by season and centre; borders; powers."""
    return {
        "name": board.name, "title": board.title, "rules": board.rules,
        "seasons": board.seasons,
        "calendar": [{"season": s.season, "type": s.type, "centres": s.centres} for s in board.calendar],
        "start": {"season": board.start_phase[0], "year": board.start_phase[1], "type": board.start_phase[2]},
        "victory": board.victory,
        "powers": [{"name": p.name, "adjective": p.adjective, "aliases": list(p.aliases), "colour": p.colour,
                    "home_centres": list(board.home_centres(p.name))} for p in board.powers.values()],
        "spaces": [{"id": p.id, "name": p.name, "aliases": list(p.aliases), "kind": p.kind, "centre": p.centre,
                    "home": p.home, "coasts": list(p.coasts),
                    "terrain": {s: board.surface(p.id, s) for s in board.seasons},
                    "position": list(p.position) if p.position else None} for p in board.provinces.values()],
        "borders": [{"a": b.a, "b": b.b, "kind": b.kind, "seas": list(b.seas)} for b in board.borders],
        "build_sites": [{"power": s.power, "province": s.province, "units": list(s.unit_types),
                         "needs_ownership": s.needs_ownership} for s in board.build_sites],
    }
