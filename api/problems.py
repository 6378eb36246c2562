"""Errors as `application/problem+json` (RFC 9457), with a JSON pointer to the offending field or order."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, json
from werkzeug.exceptions import HTTPException

from adjudicator.errors import AdjudicatorError

PROBLEM_TYPE = "https://github.com/arctic-adjudicator/problems/"
log = logging.getLogger("adjudicator.api")


class Problem(Exception):
    """An error response: status, a short title, the detail, and extension members (pointer, errors...)."""

    def __init__(self, status: int, title: str, detail: str, headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(detail)
        self.status = status
        self.title = title
        self.detail = detail
        self.headers = headers or {}  # response headers (a 429's Retry-After)
        self.extra = {k: v for k, v in extra.items() if v is not None}


def problem_response(status: int, title: str, detail: str, **extra: Any) -> Response:
    """A problem+json response."""
    slug = title.lower().replace(" ", "-")
    body = {"type": PROBLEM_TYPE + slug, "title": title, "status": status, "detail": detail, **extra}
    return Response(json.dumps(body), status=status, mimetype="application/problem+json")


def from_adjudicator_error(exc: AdjudicatorError, status: int, title: str, prefix: str = "") -> Problem:
    """A Problem from an input error, keeping where it is (pointer, line, column) and the suggestions."""
    extra: dict[str, Any] = {}
    if exc.pointer is not None:
        extra["pointer"] = prefix + exc.pointer
    elif prefix:
        extra["pointer"] = prefix
    if exc.line is not None:
        extra["line"] = exc.line
    if exc.column is not None:
        extra["column"] = exc.column
    if exc.suggestions:
        extra["suggestions"] = exc.suggestions
    message = exc.message + (f"; did you mean {', '.join(repr(s) for s in exc.suggestions)}?" if exc.suggestions else "")
    return Problem(status, title, message, **extra)


def install(app: Flask) -> None:
    """Route every error, expected or not, to a problem+json response; never a traceback."""

    @app.errorhandler(Problem)
    def _problem(exc: Problem):
        response = problem_response(exc.status, exc.title, exc.detail, **exc.extra)
        response.headers.update(exc.headers)
        return response

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        titles: dict[int | None, str] = {413: "Request too large", 405: "Method not allowed", 404: "Not found", 415: "Unsupported media type"}
        detail = exc.description or exc.name
        if exc.code == 413:
            detail = f"the request body is larger than the limit of {app.config.get('MAX_CONTENT_LENGTH')} bytes"
        response = problem_response(exc.code or 500, titles.get(exc.code, exc.name), detail)
        allowed = getattr(exc, "valid_methods", None)  # (a MethodNotAllowed's)
        if exc.code == 405 and allowed:
            response.headers["Allow"] = ", ".join(allowed)
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unexpected error")
        return problem_response(500, "Internal error", "the server could not complete the request; it has been logged")
