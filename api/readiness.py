"""`GET /readyz`: whether this instance can serve hosted games now (its database reachable), beside `/healthz`,
which says only that the process answers (liveness: restart it when silent; readiness: send it no traffic
while it says 503, without restarting it: the database is what is down)."""

from __future__ import annotations

from flask import Blueprint, jsonify
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from adjudicator import __version__
from adjudicator.hosted.storage import ping
from api.hosted import database_unavailable, outage, service

bp = Blueprint("readiness", __name__)


@bp.get("/readyz")
def readyz():
    """200 when the games' database answers a round trip (opened and migrated on first use), else a 503 with
    `Retry-After`."""
    try:
        ping(service().store)
    except (DBAPIError, PoolTimeout) as exc:  # any database error: not ready, whatever it is
        raise database_unavailable(exc) from None
    outage().answered()
    return jsonify({"status": "ready", "version": __version__, "database": "reachable"})
