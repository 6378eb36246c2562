"""The /v1/games endpoints: hosted games over `adjudicator.hosted` (tokens in the Authorization header only)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from adjudicator.hosted import tokens, webhooks
from adjudicator.hosted.limits import Limits, RateLimiter
from adjudicator.hosted.service import Caller, HostedError, Service
from adjudicator.hosted.storage import database_url, open_store
from api.problems import Problem
from api.routes import _body

bp = Blueprint("hosted", __name__)


def service() -> Service:
    """The app's hosted-games service, opened on first use (after gunicorn forks, never before)."""
    ext = current_app.extensions
    if "hosted" not in ext:
        policy = current_app.config.get("HOSTED_WEBHOOKS") or webhooks.Policy()
        ext["hosted"] = Service(open_store(database_url(current_app.config)), _limits(), policy)
    return ext["hosted"]


def _limits() -> Limits:
    return current_app.config.get("HOSTED_LIMITS") or Limits()


def _rates() -> tuple[RateLimiter, RateLimiter]:
    """Per-process rate limiters: requests per token (or address), games created per address."""
    ext = current_app.extensions
    if "hosted_rates" not in ext:
        limits = _limits()
        ext["hosted_rates"] = (RateLimiter(limits.requests_per_minute, 60.0), RateLimiter(limits.games_per_hour, 3600.0))
    return ext["hosted_rates"]


def _bearer() -> str | None:
    """The token of the Authorization header (401 when the header is there but not `Bearer <token>`)."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "Unauthorized", "the Authorization header must be `Bearer <token>`")
    return token.strip()


def _limit(key: str, which: int = 0) -> None:
    allowed, wait = _rates()[which].allow(key)
    if not allowed:
        raise Problem(429, "Too many requests", f"slow down: try again in {int(wait) + 1} s",
                      retry_after=int(wait) + 1)


def _caller(game_id: str) -> Caller:
    token = _bearer()
    _limit(tokens.token_hash(token) if token else f"addr:{request.remote_addr}")
    if not token:  # before the database is opened
        raise Problem(401, "Unauthorized", "send the game's token as `Authorization: Bearer <token>`")
    try:
        return service().authenticate(game_id, token)
    except HostedError as exc:
        if exc.status in (401, 403) and token:
            _limit(f"addr:{request.remote_addr}")  # guessing tokens counts against the address too
        raise Problem(exc.status, exc.title, exc.detail, **exc.extra) from None


def _json(data: Any, status: int = 200) -> Response:
    response = jsonify(data)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"  # responses may hold tokens or secret orders
    return response


def _run(call: Any, *args: Any) -> Any:
    try:
        return call(*args)
    except HostedError as exc:
        raise Problem(exc.status, exc.title, exc.detail, **exc.extra) from None


@bp.post("/v1/games")
def create_game():
    _limit(f"addr:{request.remote_addr}", 1)
    body = _body("CreateGameRequest")
    svc = service()
    deadline = body.get("deadline") or {}
    settings = {"public_readiness": body.get("public_readiness", False), "phase_seconds": deadline.get("phase_seconds")}
    created = _run(svc.create_game, body.get("variant"), body.get("name"), body.get("labels"), body.get("seats"),
                   settings, body.get("webhook_url"), body.get("state"), body.get("board"), body.get("rules"))
    return _json(created, 201)


@bp.get("/v1/games/<game_id>")
def game(game_id: str):
    caller = _caller(game_id)
    return _json(_run(service().game_view, caller))


@bp.put("/v1/games/<game_id>/orders")
def submit(game_id: str):
    caller = _caller(game_id)
    body = _body("SubmitOrdersRequest")
    orders = body["orders"]
    lines = orders.splitlines() if isinstance(orders, str) else orders
    return _json(_run(service().submit, caller, lines, body.get("ready")))


@bp.get("/v1/games/<game_id>/orders")
def own_orders(game_id: str):
    caller = _caller(game_id)
    return _json(_run(service().own_orders, caller))


@bp.delete("/v1/games/<game_id>/orders")
def withdraw(game_id: str):
    caller = _caller(game_id)
    return _json(_run(service().withdraw, caller))


@bp.put("/v1/games/<game_id>/ready")
def ready(game_id: str):
    caller = _caller(game_id)
    body = _body("ReadyRequest")
    return _json(_run(service().set_ready, caller, body["ready"]))


@bp.post("/v1/games/<game_id>/adjudicate")
def adjudicate(game_id: str):
    caller = _caller(game_id)
    body = _body("AdjudicateGameRequest") if request.get_data() else {}
    return _json(_run(service().adjudicate, caller, body.get("phase_no")))


@bp.get("/v1/games/<game_id>/phases")
def phases(game_id: str):
    caller = _caller(game_id)
    return _json(_run(service().phases, caller))


def _phase_no(text: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise Problem(404, "Not found", f"no phase {text!r}: phases are numbered 1, 2, 3...")
    return int(text)


@bp.get("/v1/games/<game_id>/phases/<phase_no>")
def phase(game_id: str, phase_no: str):
    caller = _caller(game_id)
    return _json(_run(service().phase, caller, _phase_no(phase_no)))


@bp.get("/v1/games/<game_id>/phases/<phase_no>/report")
def phase_report(game_id: str, phase_no: str):
    caller = _caller(game_id)
    text = _run(service().phase_text, caller, _phase_no(phase_no))
    return Response(text, mimetype="text/plain", headers={"Cache-Control": "no-store"})


@bp.get("/v1/games/<game_id>/phases/<phase_no>/picture")
def phase_picture(game_id: str, phase_no: str):
    caller = _caller(game_id)
    number = _phase_no(phase_no)
    fmt = request.args.get("format", "png")
    if fmt not in ("png", "svg"):
        raise Problem(400, "Bad request", f"format must be png or svg, not {fmt!r}", pointer="format")
    try:
        width = int(request.args.get("width", "1000"))
    except ValueError:
        width = -1
    if not 200 <= width <= 4000:
        raise Problem(400, "Bad request", "width must be a number from 200 to 4000", pointer="width")
    image = _run(service().phase_picture, caller, number, fmt, width)
    return Response(image, mimetype="image/svg+xml" if fmt == "svg" else "image/png",
                    headers={"Cache-Control": "no-store"})


@bp.get("/v1/games/<game_id>/webhook")
def webhook(game_id: str):
    caller = _caller(game_id)
    return _json(_run(service().webhook_status, caller))


@bp.put("/v1/games/<game_id>/webhook")
def set_webhook(game_id: str):
    caller = _caller(game_id)
    body = _body("WebhookRequest")
    return _json(_run(service().set_webhook, caller, body.get("url")))


@bp.put("/v1/games/<game_id>/deadline")
def move_deadline(game_id: str):
    caller = _caller(game_id)
    body = _body("DeadlineRequest")
    if ("at" in body) == ("in_seconds" in body):
        raise Problem(400, "Bad request", "give exactly one of `at` (an ISO 8601 time with its zone, or null for no "
                      "deadline) and `in_seconds` (from now)", pointer="")
    at = service().clock() + body["in_seconds"] if "in_seconds" in body else _timestamp(body["at"])
    return _json(_run(service().move_deadline, caller, at, body.get("phase_no")))


def _timestamp(text: str | None) -> float | None:
    """Seconds since the epoch of an ISO 8601 time with its zone (`2030-01-31T18:00:00Z`); None stays None."""
    if text is None:
        return None
    try:  # Python before 3.11 does not read the `Z` suffix
        moment = datetime.fromisoformat(text[:-1] + "+00:00" if text[-1:] in ("Z", "z") else text)
        if moment.tzinfo is not None:
            return moment.timestamp()
    except (ValueError, OverflowError):  # not a time, or one the platform cannot count (year 1 in UTC+14)
        pass
    raise Problem(400, "Bad request", f"`at` must be an ISO 8601 time with its zone, such as 2030-01-31T18:00:00Z, "
                  f"not {text!r}", pointer="/at")
