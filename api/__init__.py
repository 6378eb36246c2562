"""The JSON API: adjudication as a stateless service for bots and web apps (Flask, served by gunicorn)."""

from __future__ import annotations

import io
from typing import Any

from flask import Flask, request
from flask.json.provider import DefaultJSONProvider

from adjudicator.refusals import Kind
from api import problems
from api.bodies import read_at_most
from api.events import bp as events_bp
from api.hosted import bp as hosted_bp
from api.pages import bp as pages_bp
from api.readiness import bp as readiness_bp
from api.routes import bp

MAX_BODY = 1024 * 1024  # bytes, with or without Content-Length
MAX_JSON_DEPTH = 64  # a game state nests 6 levels deep; a deeper body is refused before it is parsed


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The Flask application, with limits and problem+json errors."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY, MAX_CASES=500, MAX_JSON_DEPTH=MAX_JSON_DEPTH, JSON_SORT_KEYS=False)
    app.config.update(config or {})
    assert isinstance(app.json, DefaultJSONProvider)  # (Flask's own, which sorts keys unless told not to)
    app.json.sort_keys = False
    problems.install(app)
    app.before_request(_whole_body)
    app.before_request(_shallow_json)
    app.register_blueprint(bp)
    app.register_blueprint(hosted_bp)
    app.register_blueprint(events_bp)  # the long poll of a game's changes (play pages)
    app.register_blueprint(pages_bp)  # /play/<game id>: the pages players use in a browser
    app.register_blueprint(readiness_bp)  # /readyz: the games' database reachable (/healthz: the process answers)
    _behind_proxies(app)
    return app


def _behind_proxies(app: Flask) -> None:
    """With `ADJUDICATOR_TRUSTED_PROXIES=n` (config or environment), the client's address is the one the n
    proxies in front wrote in X-Forwarded-For: rate limits count clients, not the proxy. Without it the header
    is ignored, since any client can write it."""
    import os

    from werkzeug.middleware.proxy_fix import ProxyFix

    count = int(app.config.get("ADJUDICATOR_TRUSTED_PROXIES") or os.environ.get("ADJUDICATOR_TRUSTED_PROXIES") or 0)
    if count > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count)  # type: ignore[method-assign]


def _whole_body() -> None:
    """Read a body sent without Content-Length (chunked) before any route sees it, refusing it whole (413)
    past the limit: a route never judges a body cut at the limit. Bodies with a length are checked by
    Flask against the same limit before they are read."""
    environ = request.environ
    if request.content_length is not None or "wsgi.input_terminated" not in environ:
        return  # with a length, Werkzeug refuses it (413) or reads exactly that; without, there is no body
    limit = request.max_content_length or MAX_BODY
    stream = environ["wsgi.input"]
    data = read_at_most(stream, limit)
    if len(data) > limit:
        raise problems.Problem(Kind.TOO_LARGE, "Request too large",
                               f"the request body is larger than the limit of {limit} bytes (chunked bodies too)")
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    environ.pop("wsgi.input_terminated", None)



def too_deep(value: Any, limit: int) -> bool:
    """Does a parsed JSON value nest (arrays and objects) deeper than `limit`? Walked with a stack, not
    recursion: the value may be as deep as the parser allows."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return False


def _shallow_json() -> None:
    """A JSON body nested deeper than MAX_JSON_DEPTH is refused (400) before any route, schema check or
    game reads it: each of them recurses, and a 1 MiB body can nest half a million levels."""
    if request.mimetype != "application/json":
        return
    from flask import current_app

    limit = current_app.config["MAX_JSON_DEPTH"]
    detail = f"the JSON body nests deeper than {limit} levels (a game state needs far fewer)"
    try:
        data = request.get_json(silent=True)  # parsed once: the route reads the cached value
    except RecursionError:
        raise problems.Problem(Kind.BAD_INPUT, "Bad request", detail) from None
    if too_deep(data, limit):
        raise problems.Problem(Kind.BAD_INPUT, "Bad request", detail)
