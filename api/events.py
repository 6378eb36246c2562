"""`GET /v1/games/<id>/events`: the long poll an open play page hears of its game's changes by (the versions and
the watcher are `adjudicator/hosted/changes.py`'s; the token is checked as every hosted request's)."""

from __future__ import annotations

import os

from flask import Blueprint, current_app, request

from adjudicator.hosted import changes
from api.hosted import _caller, _close_opened, _json, _no_token_in_the_query, _reconnecting, _teardown, service

bp = Blueprint("events", __name__)
bp.before_request(_no_token_in_the_query)  # (as every hosted request: a token never in the URL)
bp.teardown_request(_teardown)  # (the request's session closed, whatever happened)


def _watcher() -> changes.Watcher:
    """This process's watcher of games' versions (`adjudicator.hosted.changes`), made on first use (after the
    fork): `ADJUDICATOR_EVENT_WAITERS` requests may wait at once (default 200; 0: none waits, each is answered at
    once)."""
    ext = current_app.extensions
    if "hosted_changes" not in ext:
        capacity = _setting("ADJUDICATOR_EVENT_WAITERS", 200)
        ext["hosted_changes"] = changes.Watcher(service().store, capacity=int(capacity))
    return ext["hosted_changes"]


def _setting(name: str, default: float) -> float:
    value = current_app.config.get(name, os.environ.get(name))
    return float(value) if value not in (None, "") else default


EVENT_SECONDS = 20.0  # a wait's longest: under the server's 30 s request timeout and the balancer's 35 s
RETRY_MS = 5000  # how long a client waits before it asks again when nobody may wait now


@bp.get("/v1/games/<game_id>/events")
@_reconnecting
def events(game_id: str):
    """A long poll: the game's version (`changes.version`) once it differs from `?since=`, or the same version
    after at most `ADJUDICATOR_EVENT_SECONDS` (default 20); at once without `since`. The token's request counts
    against its rate; the wait holds no database connection and no place at the arrival gate."""
    since = request.args.get("since", "")
    if len(since) > 64 or not since.isalnum():
        since = ""
    caller = _caller(game_id)
    _close_opened()  # the wait holds no connection of the pool
    watcher = _watcher()
    viewer = None if caller.gm else caller.power
    if not since:
        return _json({"version": watcher.current(game_id, viewer), "changed": True, "retry_ms": 0})
    seconds = min(_setting("ADJUDICATOR_EVENT_SECONDS", EVENT_SECONDS), EVENT_SECONDS)
    found = watcher.wait(game_id, viewer, since, seconds)
    if found is None:  # as many wait as may: the client asks again later
        return _json({"version": since, "changed": False, "retry_ms": RETRY_MS})
    return _json({"version": found, "changed": found != since, "retry_ms": 0})
