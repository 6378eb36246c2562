"""The /v1 endpoints: thin shells over the same functions the command-line tool calls."""

from __future__ import annotations

import functools
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from jsonschema import Draft202012Validator

from adjudicator import __version__
from adjudicator.games.diplomacy.cases.datc import parse_cases
from adjudicator.games.diplomacy.cases.runner import run_case
from adjudicator.catalogue import variant_summaries
from adjudicator.errors import AdjudicatorError, CaseFileError
from adjudicator.gamefile import game_to_data
from adjudicator.hosted import text as door
from adjudicator.hosted.limits import Limits, MemoryRateLimiter, client_key
from adjudicator.games.diplomacy.rulebook import rulebook_from_text
from adjudicator.game import PICTURES, NotAvailable, rules_of
from adjudicator.names import AmbiguousName, UnknownName
from adjudicator.loading import board_of, inline_board, named_board, position_of
from adjudicator.pictures import Busy, Failed, Job, Pictures, cost, spaces_of
from adjudicator.refusals import Kind
from adjudicator.sheets import Sheet
from adjudicator.turn import Turn, play_turn, sheet_refusal
from api.problems import Problem
from api.schema_errors import in_words, pointer_of
from api.schemas import SCHEMAS, openapi_document

bp = Blueprint("v1", __name__)


@functools.lru_cache(maxsize=None)
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": {"schemas": SCHEMAS}})


def _body(schema: str, allow_text: bool = False, later: tuple[str, ...] = ()) -> Any:
    """The request's JSON body, its every string storable text (`door.storable`: 400 naming the field), checked
    against its schema (400 with a pointer when it is not valid). Every endpoint's body comes through here.
    `later`: required fields whose absence the caller answers itself, once it knows what to say (a hosted
    write's `phase_no`: the refusal names the current phase)."""
    mimetype = request.mimetype
    if allow_text and mimetype == "text/plain":
        return _storable({"text": request.get_data(as_text=True)})
    if mimetype != "application/json":
        accepted = "application/json" + (" or text/plain" if allow_text else "")
        raise Problem(Kind.UNSUPPORTED_MEDIA, "Unsupported media type",
                      f"send the body as {accepted}, not {mimetype or 'nothing'}")
    data = request.get_json(silent=True)
    if data is None:
        raise Problem(Kind.BAD_INPUT, "Bad request", "the body is not valid JSON")
    _storable(data)  # first: the schema's messages quote values
    errors = sorted((e for e in _validator(schema).iter_errors(data) if not _missing_only(e, later)),
                    key=lambda e: (len(e.path), list(map(str, e.path))))
    if errors:  # told in words (api/schema_errors.py), never the validator's Python repr
        first = errors[0]
        raise Problem(Kind.BAD_INPUT, "Bad request", in_words(first, SCHEMAS), pointer=pointer_of(first))
    return data


def _missing_only(error: Any, fields: tuple[str, ...]) -> bool:
    """Whether a top-level `required` error is about `fields` alone."""
    return (bool(fields) and error.validator == "required" and not error.path and isinstance(error.instance, dict)
            and all(name in fields for name in error.validator_value if name not in error.instance))


def _storable(data: Any) -> Any:
    """`data` itself, once every string in it is storable text (else the 400 naming the field)."""
    door.storable(data)
    return data


def _board_of(body: dict, prefix: str = "") -> Any:
    """The board a request names: `board` inline (beside or instead of `variant`), or a shipped `variant`."""
    return board_of(str(body.get("variant", "")), body.get("board"), prefix)


def _game(state_data: dict, rules: str | None = None, to_judge: bool = False) -> tuple[Any, Any]:
    """The board and position of a request's `state` (`to_judge`: one whose game has ended is refused)."""
    board = _board_of(state_data, "/state")
    board, state = position_of(board, {k: v for k, v in state_data.items() if k != "board"}, to_judge=to_judge)
    try:  # the request's rule options, over the game's own (adjudicator/games/diplomacy/rulebook.py)
        _capability(rules_of(board).play_by, board, state, rules)
    except AdjudicatorError as exc:
        raise Problem(Kind.BAD_INPUT, "Bad request", exc.message, pointer="/rules") from None
    return board, state


def _sheet(board: Any, state: Any, orders: Any, lenient: bool) -> Sheet:
    """The orders of a request read by the board's game; refused (400/422) as the sheet contract says."""
    rules = rules_of(board)
    if orders is None:
        sheet: Sheet[Any] = Sheet()
    elif isinstance(orders, str):
        sheet = rules.read_sheet(board, state, orders)
    elif isinstance(orders, list):  # orders as data: no text read
        sheet = _capability(rules.read_order_objects, board, state, orders)
    else:
        sheet = rules.read_order_lists(board, state, orders)
    for p in sheet.problems:  # every problem points into the request, in `errors` and in `sheet_problems` alike:
        p.pointer = "/orders" + (p.pointer or "")  # the text, or the item its reader pointed at
    refusal = sheet_refusal(sheet, strict=not lenient)  # (the sheet policy: adjudicator/turn.py)
    if refusal is not None and refusal.whole:
        raise Problem(Kind.REFUSED, "Orders for another phase", refusal.message, pointer="/orders")
    if refusal is not None:
        errors = [{**p.to_json(), "message": p.reason} for p in sheet.problems]
        first = errors[0]
        raise Problem(Kind.BAD_INPUT, "Unreadable orders", f"{len(errors)} order line(s) could not be read "
                      f"(lenient is false); first: line {first['line']}: {first['message']}",
                      pointer=first["pointer"], errors=errors)
    return sheet


def _state_json(board: Any, state: Any, history: bool = True) -> dict:
    data = game_to_data(board, state)
    if not history:
        data.pop("history", None)
    return data


def _capability(call: Any, *args: Any) -> Any:
    """Call a game's optional capability; a game without it answers 422 with the reason."""
    try:
        return call(*args)
    except NotAvailable as exc:
        raise Problem(exc.kind, "Not available", exc.message) from None


@bp.get("/healthz")
def healthz():
    return jsonify({"status": "ok", "version": __version__})


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())


@bp.get("/v1/variants")
def variants():
    return jsonify(list(variant_summaries()))


@bp.get("/v1/variants/<name>")
def variant(name: str):
    board = named_board(name)
    return jsonify(rules_of(board).board_json(board))


@bp.get("/v1/variants/<name>/start")
def start(name: str):
    board = named_board(name)
    return jsonify(game_to_data(board, rules_of(board).initial_state(board)))


@bp.post("/v1/start")
def start_inline():
    body = _body("StartRequest")
    board = _board_of(body)
    return jsonify(game_to_data(board, rules_of(board).initial_state(board)))


def _turn(board: Any, state: Any, orders: Any, lenient: bool) -> Turn:
    sheet = _sheet(board, state, orders, lenient)
    try:
        return play_turn(board, state, sheet)
    except AdjudicatorError as exc:
        raise Problem.of(exc, "State breaks the rules", "/state", Kind.REFUSED) from None


@bp.post("/v1/adjudicate")
def adjudicate():
    body = _body("AdjudicateRequest")
    board, state = _game(body["state"], body.get("rules"), to_judge=True)
    turn = _turn(board, state, body.get("orders"), body.get("lenient", True))
    data = turn.report_json()
    data["next_state"] = _state_json(board, turn.next_state, body.get("history", True))
    end = turn.natural_end()
    data["end"] = None if end is None else end.to_json()
    return jsonify(data)


@bp.post("/v1/orders/parse")
def parse():
    body = _body("ParseRequest")
    if body.get("state") is not None:
        board, state = _game(body["state"])
        named = _board_of(body)
        if board.name != named.name:
            raise Problem(Kind.BAD_INPUT, "Bad request", f"the state is a {board.name} game, not {named.name}",
                          pointer="/state/variant")
    else:
        board, state = _board_of(body), None
    sheet = _sheet(board, state, body["orders"], body.get("lenient", True))
    rules = rules_of(board)
    return jsonify({"orders": [sheet.read_for(rules.order_json(o)) for o in sheet.orders], "notes": sheet.notes,
                    "sheet_problems": [p.to_json() for p in sheet.problems]})


@bp.post("/v1/orders/legal")
def legal():
    body = _body("LegalRequest")
    board, state = _game(body["state"], body.get("rules"))
    rules = rules_of(board)
    try:
        data = _capability(rules.legal_orders, board, state, body.get("power"), bool(body.get("parts")))
    except (UnknownName, AmbiguousName) as exc:
        raise Problem.of(exc, "Bad request", "/power", Kind.BAD_INPUT) from None
    return jsonify(data)


@bp.post("/v1/render")
def render():
    from flask import Response

    body = _body("RenderRequest")
    board, state = _game(body["state"])
    rules = rules_of(board)
    if PICTURES not in rules.capabilities:  # before judging any orders it would draw
        raise Problem(Kind.REFUSED, "Not available", f"board pictures are not drawn for {board.title}")
    results = body.get("results")
    if results is None and body.get("orders") is not None:
        results = _turn(board, state, body["orders"], body.get("lenient", True)).drawn()  # the read orders, as data
    fmt, width = body.get("format", "png"), int(body.get("width", 1000))
    rate_picture([client_key(request.remote_addr)], width, spaces_of(board))
    data = body["state"]
    image = draw_picture(Job(data.get("variant") if data.get("board") is None else None, data.get("board"), data,
                             results, fmt, width))
    return Response(image, mimetype="image/svg+xml" if fmt == "svg" else "image/png")


_PICTURES: dict[tuple, Pictures] = {}  # one queue a process and its settings (a test makes many apps)


def pictures() -> Pictures:
    """This process's picture queue and drawing processes, by the app's settings (config, else environment):
    `ADJUDICATOR_PICTURE_PROCESSES` (drawing processes, default 1; 0 draws in the worker itself),
    `ADJUDICATOR_PICTURE_QUEUE` (pictures that may wait, default 8), `ADJUDICATOR_PICTURE_WAIT` (seconds one may
    wait, default 10) and `ADJUDICATOR_PICTURE_SECONDS` (seconds one may take to draw, default 20)."""
    import os

    def setting(name: str, default: float) -> float:
        value = current_app.config.get(name) or os.environ.get(name)
        return float(value) if value not in (None, "") else default

    settings = (os.getpid(), int(setting("ADJUDICATOR_PICTURE_PROCESSES", 1)),
                int(setting("ADJUDICATOR_PICTURE_QUEUE", 8)), setting("ADJUDICATOR_PICTURE_WAIT", 10.0),
                setting("ADJUDICATOR_PICTURE_SECONDS", 20.0))
    if settings not in _PICTURES:  # (keyed by the process too: a forked process starts its own children)
        _PICTURES[settings] = Pictures(*settings[1:])
    return _PICTURES[settings]


def draw_picture(job: Job, shelves: Any = ()) -> bytes | str:
    """A picture drawn through the process's queue: 503 with Retry-After when it is full, 422 when the picture
    cannot be drawn, 503 when its drawing process failed or ran out of time."""
    try:
        return _capability(pictures().draw, job, shelves)
    except Busy as exc:
        raise Problem(Kind.UNAVAILABLE, "Busy drawing", exc.message, retry_after=exc.retry_after) from None
    except Failed as exc:
        if exc.lost:
            raise Problem(Kind.UNAVAILABLE, "Picture not drawn", exc.message, retry_after=5) from None
        raise Problem(Kind.REFUSED, "Picture not drawn", exc.message) from None


def rate_picture(keys: list[str], width: int, spaces: int, rates: Any = None) -> None:
    """429 with Retry-After when a key is over its picture rate (`picture_units_per_minute` of the hosted limits,
    counted by each picture's cost: its pixels times its board's size); `rates`: the hosted games' shared
    limiter, else this process's own (the stateless API has no database)."""
    per = Limits.configured(current_app.config).picture_units_per_minute
    units = min(per, cost(width, spaces))
    if rates is None:
        rates = current_app.extensions.setdefault("picture_rates", MemoryRateLimiter())
    for key in keys:
        wait = rates.wait("pictures:" + key, per / units, 60.0)
        if wait > 0:
            seconds = int(wait) + 1
            raise Problem(Kind.TOO_MANY, "Too many requests", f"too many pictures (each costs its pixels times its "
                          f"board's size; this one {units} of {per} a minute): try again in {seconds} s",
                          retry_after=seconds)


@bp.post("/v1/datc")
def datc():
    body = _body("DatcRequest", allow_text=True)
    try:
        cases = parse_cases(body["text"], "<request>")
        rulebook_from_text(body.get("rules"), what="rules")
    except CaseFileError as exc:
        raise Problem.of(exc, "Malformed case file", "/text", Kind.BAD_INPUT) from None
    except AdjudicatorError as exc:
        raise Problem(Kind.BAD_INPUT, "Bad request", exc.message, pointer="/rules") from None
    limit = current_app.config["MAX_CASES"]
    if len(cases) > limit:
        raise Problem(Kind.TOO_LARGE, "Request too large", f"{len(cases)} cases; at most {limit} per request")
    boards = {}
    if body.get("board") is not None:  # cases whose VARIANT_ALL is the inline board's name are run on it
        board = inline_board(body["board"], "/board")
        boards[board.name.lower()] = board
    outcomes = [run_case(c, boards, body.get("rules")) for c in cases]
    passed = sum(o.passed for o in outcomes)
    return jsonify({
        "passed": passed, "failed": len(outcomes) - passed,
        "summary": f"{passed} passed, {len(outcomes) - passed} failed",
        "cases": [{"name": o.case.name, "line": o.case.line, "passed": o.passed, "problems": o.problems,
                   "notes": o.notes} for o in outcomes],
    })
