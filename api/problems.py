"""Errors as `application/problem+json` (RFC 9457), with a JSON pointer to the offending field or order."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException

from adjudicator.refusals import Kind, Refused

PROBLEM_TYPE = "https://github.com/arctic-adjudicator/problems/"
log = logging.getLogger("adjudicator.api")


# The one table from a refusal's kind to its HTTP status (tests/test_refusal_tables.py: every kind has one).
STATUS: dict[Kind, int] = {
    Kind.BAD_INPUT: 400, Kind.UNAUTHENTICATED: 401, Kind.FORBIDDEN: 403, Kind.NOT_FOUND: 404, Kind.CONFLICT: 409,
    Kind.TOO_LARGE: 413, Kind.UNSUPPORTED_MEDIA: 415, Kind.REFUSED: 422, Kind.TOO_MANY: 429,
    Kind.UNAVAILABLE: 503, Kind.FULL: 507,
}


class Problem(Refused):
    """An error response: a refusal's kind (its status by STATUS), a short title, the detail, and extension
    members (pointer, errors...; `retry_after` is also sent as the Retry-After header)."""


def problem_response(status: int, title: str, detail: str, **extra: Any) -> Response:
    """A problem+json response."""
    slug = title.lower().replace(" ", "-")
    body = {"type": PROBLEM_TYPE + slug, "title": title, "status": status, "detail": detail, **extra}
    return Response(json.dumps(body), status=status, mimetype="application/problem+json")


def install(app: Flask) -> None:
    """Route every error, expected or not, to a problem+json response; never a traceback."""

    @app.errorhandler(Refused)
    def _refused(exc: Refused):  # the API's and the hosted service's refusals alike
        response = problem_response(STATUS[exc.kind], exc.title, exc.detail, **exc.extra)
        if "retry_after" in exc.extra:
            response.headers["Retry-After"] = str(exc.extra["retry_after"])
        return response

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        titles = {413: "Request too large", 405: "Method not allowed", 404: "Not found", 415: "Unsupported media type"}
        detail = exc.description or exc.name
        if exc.code == 413:
            detail = f"the request body is larger than the limit of {app.config.get('MAX_CONTENT_LENGTH')} bytes"
        response = problem_response(exc.code or 500, titles.get(exc.code, exc.name), detail)
        if exc.code == 405 and getattr(exc, "valid_methods", None):
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unexpected error")
        return problem_response(500, "Internal error", "the server could not complete the request; it has been logged")
