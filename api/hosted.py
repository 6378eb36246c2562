"""The /v1/games endpoints: hosted games over `adjudicator.hosted` (tokens in the Authorization header only).

Settings (Flask config, else the environment): `ADJUDICATOR_WEBHOOK_ALLOW`, the hosts and networks webhooks
may reach besides the public internet; `ADJUDICATOR_REQUESTS_PER_MINUTE` and `ADJUDICATOR_GAMES_PER_HOUR`, the
rates; `HOSTED_LIMITS` and `HOSTED_WEBHOOKS` (config only) replace the limits and the delivery policy whole.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from adjudicator.hosted import text, tokens, webhooks
from adjudicator.hosted.limits import Limits, RateLimiter, client_key
from adjudicator.hosted.service import Caller, HostedError, Opened, Service
from adjudicator.hosted.storage import database_url, open_store, unavailable
from adjudicator.refusals import Kind
from api.problems import Problem
from api.records import imported, record_of
from api.routes import _body, draw_picture, rate_picture

bp = Blueprint("hosted", __name__)
log = logging.getLogger("adjudicator.api")
RETRY_AFTER = 5  # seconds a client waits before trying a database that was unavailable again
_GUESSES = (Kind.UNAUTHENTICATED, Kind.FORBIDDEN, Kind.NOT_FOUND)  # refused tokens and games: counted by address too


def service() -> Service:
    """The app's hosted-games service, opened on first use (after gunicorn forks, never before)."""
    ext = current_app.extensions
    if "hosted" not in ext:
        ext["hosted"] = Service(open_store(database_url(current_app.config)), _limits(),
                                 webhooks.configured_policy(current_app.config))
    return ext["hosted"]


def _limits() -> Limits:
    return Limits.configured(current_app.config)


def _rates() -> RateLimiter:
    """The rate limits, kept in the games' database: shared by every process and instance on it."""
    ext = current_app.extensions
    if "hosted_rates" not in ext:
        ext["hosted_rates"] = RateLimiter(service().store)
    return ext["hosted_rates"]


@bp.before_request
def _no_token_in_the_query() -> None:
    """A token in a URL ends up in logs, browser histories and proxies: such a request is refused, and the
    server's access log leaves every query out (api/server.py), so it is not kept either."""
    if any(tokens.PREFIX in value for values in request.args.listvalues() for value in values) or any(
            key.lower() in ("token", "access_token") for key in request.args):
        raise Problem(Kind.BAD_INPUT, "Bad request",
                      "a token goes in the `Authorization: Bearer <token>` header, never in the "
                      "URL (URLs are kept in logs and histories): this request was refused, and this service does "
                      "not log queries")


def _bearer() -> str | None:
    """The token of the Authorization header (401 when the header is there but not `Bearer <token>`)."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(Kind.UNAUTHENTICATED, "Unauthorized", "the Authorization header must be `Bearer <token>`")
    return token.strip()


def _limit(key: str, games: bool = False, session: Any = None) -> None:
    """429 with `Retry-After` when `key` is over its rate (requests a minute, or games created an hour); counted
    in `session`'s transaction when given (the request's own), else in one of its own."""
    limits = _limits()
    per, period = (limits.games_per_hour, 3600.0) if games else (limits.requests_per_minute, 60.0)
    wait = _rates().wait(key, per, period, session)
    if wait > 0:
        seconds = int(wait) + 1
        raise Problem(Kind.TOO_MANY, "Too many requests", f"slow down: try again in {seconds} s", retry_after=seconds)


def _caller(game_id: str, write: bool = False, keep: bool = False) -> Caller:
    """The token's caller, checked in the request's own session and transaction (`_opened`), after its rate
    limit; `write`: the game's row is locked FOR SHARE for the write that follows. Unless `keep` (the service
    call that follows goes on in `_opened()`), the transaction is committed here: the call takes its own."""
    token = _bearer()
    if not token:  # before the database is opened
        raise Problem(Kind.UNAUTHENTICATED, "Unauthorized", "send the game's token as `Authorization: Bearer <token>`")
    key = "token:" + tokens.token_hash(token)[:40]
    try:
        caller = service().authenticate(game_id, token, _opened(), lambda session: _limit(key, session=session),
                                        share=write)
        if not keep:
            _opened().session.commit()
        return caller
    except HostedError as exc:
        if exc.kind in _GUESSES:  # guessing tokens, or game ids with fresh tokens, counts against
            _limit(client_key(request.remote_addr))  # the address too
        raise


def _opened() -> Opened:
    """The request's session: one connection and one transaction for its statements (closed at its end)."""
    if "hosted_opened" not in g:
        g.hosted_opened = Opened(service().store.sessions())
    return g.hosted_opened


def _close_opened() -> None:
    """Close the request's session; what it did not commit is rolled back."""
    opened = g.pop("hosted_opened", None)
    if opened is not None:
        opened.session.close()


@bp.teardown_request
def _teardown(_exc: BaseException | None) -> None:
    _close_opened()


def _reconnecting(view: Any) -> Any:
    """A request whose database connection PostgreSQL closed (a restart, a terminated backend) runs once more
    on a fresh one: connections are not pinged before use. The hosted requests may run twice: a judgement is
    exactly once, a submission and a setting replace themselves, and a refused statement wrote nothing. A
    database that cannot be used now (down, unreachable, its file missing: `storage.unavailable`) is a 503
    with `Retry-After`, never a 500."""

    @functools.wraps(view)
    def run(*args: Any, **kwargs: Any) -> Any:
        for attempt in (1, 2):
            try:
                answer = view(*args, **kwargs)
                outage().answered()
                return answer
            except (DBAPIError, PoolTimeout) as exc:
                if not unavailable(exc):
                    raise
                _close_opened()
                lost = isinstance(exc, DBAPIError) and exc.connection_invalidated
                if not lost or attempt == 2 or request.endpoint == "hosted.create_game":  # a game may be stored
                    raise database_unavailable(exc) from None
        raise AssertionError("unreachable")

    return run


# The phase-bound writes (orders, readiness, withdrawal, judging, the deadline) name the phase they are for:
# a missing `phase_no` is answered by the service, which names the current phase (the token check reads it).
# The game-level settings (webhook, its secret) are for no phase.
_PHASE = ("phase_no",)


def _phase_query() -> int | None:
    """`?phase_no=` of a DELETE (None when absent: the service refuses it, naming the current phase)."""
    written = request.args.get("phase_no")
    if written is None:
        return None
    number = text.phase_number(written)
    if number is None:
        raise Problem(Kind.BAD_INPUT, "Bad request",
                      f"phase_no must be a phase number (1, 2, 3... in ASCII digits), not "
                      f"{written[:20]!r}", pointer="phase_no")
    return number


class Outage:
    """The log of the games' database being unavailable: one line when it starts, then at most one every
    `every` seconds with how many requests were refused since (a balancer polling `/readyz` every second, or a
    client retrying, floods no log), and one when the database answers again."""

    def __init__(self, every: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self.started: float | None = None  # when the outage began (None: the database answers)
        self.said = 0.0  # when the last line was written
        self.refused = 0  # requests refused since that line
        self.lock = threading.Lock()

    def failed(self, exc: BaseException) -> None:
        """A request refused because the database cannot be used now."""
        reason = (str(getattr(exc, "orig", None) or exc).strip().splitlines() or [""])[0]
        with self.lock:
            now = self.clock()
            if self.started is None:
                self.started, self.said, self.refused = now, now, 0
                log.warning("the games' database is unavailable (%s): %s", type(exc).__name__, reason)
                return
            self.refused += 1
            if now - self.said >= self.every:
                log.warning("the games' database is still unavailable after %.0f s (%s): %s; %d request(s) refused "
                            "since the last line", now - self.started, type(exc).__name__, reason, self.refused)
                self.said, self.refused = now, 0

    def answered(self) -> None:
        """The database answered a request (cheap when it was not down)."""
        if self.started is None:
            return
        with self.lock:
            if self.started is not None:
                log.warning("the games' database answers again after %.0f s; %d request(s) refused since the last "
                            "line", self.clock() - self.started, self.refused)
                self.started, self.refused = None, 0


def outage() -> Outage:
    """This app's outage log (each worker process logs its own)."""
    found: Outage = current_app.extensions.setdefault("adjudicator.outage", Outage())
    return found


def database_unavailable(exc: BaseException) -> Problem:
    """The 503 of a database that cannot be used now (in the app's outage log: the driver's message, no
    parameters)."""
    lost = isinstance(exc, DBAPIError) and exc.connection_invalidated
    outage().failed(exc)
    detail = ("the connection to the games' database was lost" if lost else "the games' database cannot be used now")
    return Problem(Kind.UNAVAILABLE, "Service unavailable", f"{detail}; it may be down or restarting: try again in a "
                   "few seconds", retry_after=RETRY_AFTER)


def _json(data: Any, status: int = 200) -> Response:
    response = jsonify(data)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"  # responses may hold tokens or secret orders
    return response


def _run(call: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return call(*args, **kwargs)
    except HostedError as exc:
        opened = g.get("hosted_opened")
        if opened is not None:
            opened.session.commit()  # a refused request wrote nothing: its rate limit's count stays
        raise


@bp.post("/v1/games")
@_reconnecting
def create_game():
    _limit("new:" + client_key(request.remote_addr), games=True)
    body = _body("CreateGameRequest")
    svc = service()
    settings = dict(body.get("settings") or {})
    for key, value in (("public_readiness", body.get("public_readiness")),
                       ("phase_seconds", (body.get("deadline") or {}).get("phase_seconds"))):
        if value is not None:  # (the first API's top-level settings, kept: the `settings` object may not repeat them)
            if key in settings:
                raise Problem(Kind.BAD_INPUT, "Bad request", f"{key} is given twice: in `settings` and outside it",
                              pointer=f"/settings/{key}")
            settings[key] = value
    variant, state, past, end, notes = body.get("variant"), body.get("state"), None, None, []
    if "record" in body:  # a recorded game, begun at its last position with its past phases
        given = [k for k in ("variant", "board", "state") if k in body]
        if given:
            raise Problem(Kind.BAD_INPUT, "Bad request", f"a game begun from a record takes its board and position "
                          f"from it: leave out {', '.join(given)}", pointer=f"/{given[0]}")
        variant, state, past, end, notes = imported(body["record"])
    created = _run(svc.create_game, variant, body.get("name"), body.get("labels"), body.get("seats"),
                   settings, body.get("webhook_url"), state, body.get("board"), body.get("rules"),
                   body.get("bots"), past, end)
    return _json({**created, "notes": notes} if "record" in body else created, 201)


@bp.get("/v1/games/<game_id>/record")
@_reconnecting
def game_record(game_id: str):
    caller = _caller(game_id)
    board, state, entries, end, scoring = _run(service().history, caller)
    text, media = record_of(game_id, board, state, entries, end, scoring, request.args.get("format", "mila"))
    return Response(text, mimetype=media, headers={"Cache-Control": "no-store"})


@bp.get("/v1/games/<game_id>")
@_reconnecting
def game(game_id: str):
    caller = _caller(game_id, keep=True)
    return _json(_run(service().game_view, caller, _opened()))


@bp.put("/v1/games/<game_id>/orders")
@_reconnecting
def submit(game_id: str):
    body = _body("SubmitOrdersRequest", later=_PHASE)  # (first: a malformed body costs no statement)
    caller = _caller(game_id, write=True, keep=True)
    return _json(_run(service().submit, caller, body["orders"], body.get("ready"), body.get("power"), _opened(),
                      phase_no=body.get("phase_no")))


@bp.get("/v1/games/<game_id>/orders")
@_reconnecting
def own_orders(game_id: str):
    caller = _caller(game_id, keep=True)
    return _json(_run(service().own_orders, caller, _opened()))


@bp.delete("/v1/games/<game_id>/orders")
@_reconnecting
def withdraw(game_id: str):
    phase_no = _phase_query()
    caller = _caller(game_id)
    return _json(_run(service().withdraw, caller, phase_no=phase_no))


@bp.put("/v1/games/<game_id>/ready")
@_reconnecting
def ready(game_id: str):
    caller = _caller(game_id)
    body = _body("ReadyRequest", later=_PHASE)
    return _json(_run(service().set_ready, caller, body["ready"], phase_no=body.get("phase_no")))


@bp.post("/v1/games/<game_id>/adjudicate")
@_reconnecting
def adjudicate(game_id: str):
    caller = _caller(game_id)
    body = _body("AdjudicateGameRequest", later=_PHASE) if request.get_data() else {}
    return _json(_run(service().adjudicate, caller, phase_no=body.get("phase_no")))


@bp.get("/v1/games/<game_id>/phases")
@_reconnecting
def phases(game_id: str):
    caller = _caller(game_id)
    return _json(_run(service().phases, caller))


def _phase_no(written: str) -> int:
    number = text.phase_number(written)
    if number is None:
        raise Problem(Kind.NOT_FOUND, "Not found",
                      f"no phase {written[:20]!r}: phases are numbered 1, 2, 3... in ASCII digits")
    return number


@bp.get("/v1/games/<game_id>/phases/<phase_no>")
@_reconnecting
def phase(game_id: str, phase_no: str):
    caller = _caller(game_id)
    return _json(_run(service().phase, caller, _phase_no(phase_no)))


@bp.get("/v1/games/<game_id>/phases/<phase_no>/report")
@_reconnecting
def phase_report(game_id: str, phase_no: str):
    caller = _caller(game_id)
    text = _run(service().phase_text, caller, _phase_no(phase_no))
    return Response(text, mimetype="text/plain", headers={"Cache-Control": "no-store"})


@bp.get("/v1/games/<game_id>/phases/<phase_no>/picture")
@_reconnecting
def phase_picture(game_id: str, phase_no: str):
    caller = _caller(game_id)
    number = _phase_no(phase_no)
    fmt = request.args.get("format", "png")
    if fmt not in ("png", "svg"):
        raise Problem(Kind.BAD_INPUT, "Bad request", f"format must be png or svg, not {fmt!r}", pointer="format")
    try:
        width = int(request.args.get("width", "1000"))
    except ValueError:
        width = -1
    if not 200 <= width <= 4000:
        raise Problem(Kind.BAD_INPUT, "Bad request", "width must be a number from 200 to 4000", pointer="width")
    job, spaces = _run(service().picture_job, caller, number, fmt, width)
    token = "token:" + tokens.token_hash(_bearer() or "")[:40]
    rate_picture([token, client_key(request.remote_addr)], width, spaces, _rates())  # by cost: pixels and board
    image = draw_picture(job, [service().drawings])
    return Response(image, mimetype="image/svg+xml" if fmt == "svg" else "image/png",
                    headers={"Cache-Control": "no-store"})


@bp.get("/v1/games/<game_id>/webhook")
@_reconnecting
def webhook(game_id: str):
    caller = _caller(game_id)
    return _json(_run(service().webhook_status, caller))


@bp.put("/v1/games/<game_id>/webhook")
@_reconnecting
def set_webhook(game_id: str):
    caller = _caller(game_id)
    body = _body("WebhookRequest")
    return _json(_run(service().set_webhook, caller, body.get("url")))


@bp.put("/v1/games/<game_id>/deadline")
@_reconnecting
def move_deadline(game_id: str):
    caller = _caller(game_id)
    body = _body("DeadlineRequest", later=_PHASE)
    if ("at" in body) == ("in_seconds" in body):
        raise Problem(Kind.BAD_INPUT, "Bad request",
                      "give exactly one of `at` (an ISO 8601 time with its zone, or null for no "
                      "deadline) and `in_seconds` (from now)", pointer="")
    at = service().clock() + body["in_seconds"] if "in_seconds" in body else _timestamp(body["at"])
    return _json(_run(service().move_deadline, caller, at, phase_no=body.get("phase_no")))


def _timestamp(written: str | None) -> float | None:
    """Seconds since the epoch of an ISO 8601 time with its zone (`2030-01-31T18:00:00Z`); None stays None."""
    if written is None:
        return None
    try:  # Python before 3.11 does not read the `Z` suffix
        moment = datetime.fromisoformat(written[:-1] + "+00:00" if written[-1:] in ("Z", "z") else written)
        if moment.tzinfo is not None:
            return moment.timestamp()
    except (ValueError, OverflowError):  # not a time, or one the platform cannot count (year 1 in UTC+14)
        pass
    raise Problem(Kind.BAD_INPUT, "Bad request",
                  f"`at` must be an ISO 8601 time with its zone, such as 2030-01-31T18:00:00Z, "
                  f"not {written!r}", pointer="/at")


@bp.post("/v1/games/<game_id>/webhook/secret")
@_reconnecting
def rotate_secret(game_id: str):
    caller = _caller(game_id)
    return _json(_run(service().rotate_secret, caller))


@bp.put("/v1/games/<game_id>/vote")
@_reconnecting
def vote(game_id: str):
    body = _body("VoteRequest", later=_PHASE)
    caller = _caller(game_id)
    return _json(_run(service().vote, caller, body, phase_no=body.get("phase_no")))


@bp.post("/v1/games/<game_id>/end")
@_reconnecting
def end_game(game_id: str):
    body = _body("EndGameRequest")
    caller = _caller(game_id)
    return _json(_run(service().end_game, caller, body["kind"], body.get("powers"), body.get("phase_no")))


@bp.get("/v1/games/<game_id>/scores")
@_reconnecting
def scores(game_id: str):
    caller = _caller(game_id)
    system = request.args.get("system")
    return _json(_run(service().scores, caller, None if system is None else system[:100]))


@bp.post("/v1/games/<game_id>/pause")
@_reconnecting
def pause(game_id: str):
    body = _body("PhaseBoundRequest", later=_PHASE)
    caller = _caller(game_id)
    return _json(_run(service().pause, caller, phase_no=body.get("phase_no")))


@bp.post("/v1/games/<game_id>/resume")
@_reconnecting
def resume(game_id: str):
    body = _body("PhaseBoundRequest", later=_PHASE)
    caller = _caller(game_id)
    return _json(_run(service().resume, caller, phase_no=body.get("phase_no")))


@bp.post("/v1/games/<game_id>/seats/<power>/replace")
@_reconnecting
def replace_seat(game_id: str, power: str):
    body = _body("ReplaceSeatRequest", later=_PHASE)
    caller = _caller(game_id)
    return _json(_run(service().replace_seat, caller, power, body.get("kind", "player"),
                      phase_no=body.get("phase_no")))
