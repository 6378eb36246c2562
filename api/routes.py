"""The /v1 endpoints: thin shells over the same functions the command-line tool calls."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from jsonschema import Draft202012Validator

from adjudicator import __version__
from adjudicator.board import Board
from adjudicator.cases.datc import parse_cases
from adjudicator.cases.runner import run_case
from adjudicator.catalogue import is_diplomacy, load_variant, variant_summaries
from adjudicator.errors import AdjudicatorError, CaseFileError, OrderError
from adjudicator.gamefile import game_from_data, game_to_data
from adjudicator.games import get_rules
from adjudicator.judge.adjustment import adjustment_due
from adjudicator.orders.legal import legal_orders
from adjudicator.orders.sheet import Sheet, orders_from_lists, read_sheet
from adjudicator.phase import phase_json
from adjudicator.report import result_json
from adjudicator.state import opening_state
from adjudicator.turn import play_game_turn, play_phase
from adjudicator.yamlio import plain
from api.problems import Problem, from_adjudicator_error
from api.schemas import SCHEMAS, openapi_document

bp = Blueprint("v1", __name__)


@functools.lru_cache(maxsize=None)
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": {"schemas": SCHEMAS}})


def _body(schema: str, allow_text: bool = False) -> Any:
    """The request's JSON body, checked against its schema (400 with a pointer when it is not valid)."""
    mimetype = request.mimetype
    if allow_text and mimetype == "text/plain":
        return {"text": request.get_data(as_text=True)}
    if mimetype != "application/json":
        accepted = "application/json" + (" or text/plain" if allow_text else "")
        raise Problem(415, "Unsupported media type", f"send the body as {accepted}, not {mimetype or 'nothing'}")
    data = request.get_json(silent=True)
    if data is None:
        raise Problem(400, "Bad request", "the body is not valid JSON")
    errors = sorted(_validator(schema).iter_errors(data), key=lambda e: (len(e.path), list(map(str, e.path))))
    if errors:
        first = errors[0]
        pointer = "/" + "/".join(str(p) for p in first.absolute_path)
        raise Problem(400, "Bad request", f"{pointer}: {first.message}", pointer=pointer)
    return data


def _board(name: str, pointer: str = "/variant") -> Any:
    try:
        return load_variant(name)
    except AdjudicatorError as exc:
        raise Problem(404, "Unknown variant", exc.message, pointer=pointer) from None


def _game(state_data: dict) -> tuple[Any, Any]:
    _board(str(state_data.get("variant", "")), "/state/variant")
    try:
        return game_from_data(state_data, None)
    except AdjudicatorError as exc:
        raise from_adjudicator_error(exc, 422, "State breaks the rules", prefix="/state") from None


def _diplomacy_game(state_data: dict, what: str) -> tuple[Board, Any]:
    """A Diplomacy game's board and state; 422 for the other games, which this endpoint does not serve."""
    board, state = _game(state_data)
    if not is_diplomacy(board):
        raise Problem(422, "Not available", f"{what} available for Diplomacy variants, not for {board.title}")
    return board, state


def _sheet(board: Board, orders: Any, lenient: bool) -> Sheet:
    if orders is None:
        return Sheet()
    sheet = read_sheet(board, orders) if isinstance(orders, str) else orders_from_lists(board, orders)
    if sheet.problems and not lenient:
        errors = []
        for p in sheet.problems:
            pointer = "/orders" if isinstance(orders, str) else f"/orders/{p.text if p.line == 0 else ''}"
            if not isinstance(orders, str) and p.line:
                power = next((k for k, v in orders.items() if len(v) >= p.line and str(v[p.line - 1]) == p.text), "")
                pointer = f"/orders/{power}/{p.line - 1}"
            errors.append({**p.to_json(), "pointer": pointer, "message": p.reason})
        first = errors[0]
        raise Problem(400, "Unreadable orders", f"{len(errors)} order line(s) could not be read; first: line "
                      f"{first['line']}: {first['message']}", pointer=first["pointer"], errors=errors)
    return sheet


@bp.get("/healthz")
def healthz():
    return jsonify({"status": "ok", "version": __version__})


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@bp.get("/v1/variants")
def variants():
    return jsonify(list(variant_summaries()))


def board_json(board: Any) -> dict:
    """A board as JSON: every space with its names, kind, terrain by season and centre; borders; powers."""
    if not is_diplomacy(board):
        return {"name": board.name, "title": board.title, "rules": board.rules, "data": plain(getattr(board, "raw", {}))}
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


@bp.get("/v1/variants/<name>")
def variant(name: str):
    return jsonify(board_json(_board(name)))


@bp.get("/v1/variants/<name>/start")
def start(name: str):
    board = _board(name)
    state = opening_state(board) if is_diplomacy(board) else get_rules(board.rules).initial_state(board)
    return jsonify(game_to_data(board, state))


@bp.post("/v1/adjudicate")
def adjudicate():
    body = _body("AdjudicateRequest")
    board, state = _game(body["state"])
    orders = body.get("orders")
    if not is_diplomacy(board):
        return jsonify(_adjudicate_game(board, state, orders))
    sheet = _sheet(board, orders, bool(body.get("lenient")))
    try:
        result = play_phase(board, state, sheet)
    except AdjudicatorError as exc:
        raise from_adjudicator_error(exc, 422, "State breaks the rules", prefix="/state") from None
    data = result_json(board, result, sheet)
    data["next_state"] = game_to_data(board, result.next_state)
    return jsonify(data)


def _game_orders_text(orders: Any) -> str:
    """Another game's orders as sheet text: given as text, or as lists per player."""
    if isinstance(orders, dict):
        return "\n".join(f"{power}: {o}" for power, lines in orders.items() for o in lines)
    return orders or ""


def _adjudicate_game(board: Any, state: Any, orders: Any) -> dict:
    try:
        result = play_game_turn(board, state, _game_orders_text(orders))
    except OrderError as exc:
        raise from_adjudicator_error(exc, 400, "Unreadable orders", prefix="/orders") from None
    except AdjudicatorError as exc:
        raise from_adjudicator_error(exc, 422, "State breaks the rules", prefix="/state") from None
    data = result.to_json()
    data["next_state"] = game_to_data(board, result.next_state)
    return data


@bp.post("/v1/orders/parse")
def parse():
    body = _body("ParseRequest")
    board = _board(body["variant"])
    if not is_diplomacy(board):
        rules = get_rules(board.rules)
        try:
            parsed = rules.parse_orders(board, _game_orders_text(body["orders"]), None)
        except AdjudicatorError as exc:
            raise from_adjudicator_error(exc, 400, "Unreadable orders", prefix="/orders") from None
        return jsonify({"orders": [_step_json(o) for o in parsed]})
    sheet = _sheet(board, body["orders"], lenient=False)
    return jsonify({"orders": [_order_json(o) for o in sheet.orders], "notes": sheet.notes})


def _step_json(step: Any) -> dict:
    """Another game's parsed order or step: its fields when it is a dataclass, else its text."""
    fields = plain(dataclasses.asdict(step)) if dataclasses.is_dataclass(step) else {}
    return {"kind": type(step).__name__, "text": str(getattr(step, "text", "") or step), **fields}


def _order_json(order) -> dict:
    unit = lambda ref: None if ref is None else {"type": ref.type, "location": ref.location}  # noqa: E731
    return {"power": order.power, "text": order.text, "line": order.line, "kind": order.kind,
            "unit": unit(order.unit), "target": unit(order.target),
            "destination": (order.dest + (f"/{order.dest_coast}" if order.dest_coast else "")) if order.dest else None,
            "via_convoy": order.via_convoy, "canonical": order.describe()}


@bp.post("/v1/orders/legal")
def legal():
    body = _body("LegalRequest")
    board, state = _diplomacy_game(body["state"], "legal-order lists are")
    powers = list(board.powers)
    if body.get("power"):
        try:
            powers = [board.power_names.lookup(body["power"], "power")]
        except AdjudicatorError as exc:
            raise from_adjudicator_error(exc, 400, "Bad request", prefix="/power") from None
    phase = phase_json(state.phase)
    due = {p: adjustment_due(state, p) for p in powers} if state.phase.type == "Adjustment" else {}
    return jsonify({"phase": phase, "powers": {p: legal_orders(board, state, p) for p in powers}, "adjustments": due})


@bp.post("/v1/render")
def render():
    from flask import Response

    from adjudicator.render import render_png, render_svg  # matplotlib is loaded only when pictures are asked for

    body = _body("RenderRequest")
    board, state = _diplomacy_game(body["state"], "board pictures are")
    results = body.get("results")
    if results is None and body.get("orders") is not None:
        sheet = _sheet(board, body["orders"], lenient=False)
        try:
            results = result_json(board, play_phase(board, state, sheet), sheet)
        except AdjudicatorError as exc:
            raise from_adjudicator_error(exc, 422, "State breaks the rules", prefix="/state") from None
    if body.get("format", "png") == "svg":
        return Response(render_svg(board, state, results), mimetype="image/svg+xml")
    return Response(render_png(board, state, results, width=int(body.get("width", 1000))), mimetype="image/png")


@bp.post("/v1/datc")
def datc():
    body = _body("DatcRequest", allow_text=True)
    try:
        cases = parse_cases(body["text"], "<request>")
    except CaseFileError as exc:
        raise from_adjudicator_error(exc, 400, "Malformed case file", prefix="/text") from None
    limit = current_app.config["MAX_CASES"]
    if len(cases) > limit:
        raise Problem(413, "Request too large", f"{len(cases)} cases; at most {limit} per request")
    outcomes = [run_case(c) for c in cases]
    passed = sum(o.passed for o in outcomes)
    return jsonify({
        "passed": passed, "failed": len(outcomes) - passed,
        "summary": f"{passed} passed, {len(outcomes) - passed} failed",
        "cases": [{"name": o.case.name, "line": o.case.line, "passed": o.passed, "problems": o.problems,
                   "notes": o.notes} for o in outcomes],
    })
