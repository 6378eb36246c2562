"""The pages players and game masters use in a browser: `/play/<game id>#token=...`, a thin client of the JSON API.

The token travels in the URL's fragment, which a browser never sends: the page's script moves it to session
storage and calls the API with `Authorization: Bearer`, so no request line, access log or Referer holds it. The
page is one template and static files shipped in this package, with nothing fetched from another site, no
build step, and a Content-Security-Policy that allows only this service's own scripts and styles.
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from adjudicator.refusals import Kind
from api.problems import Problem

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static", static_url_path="/static/play")

# Only this service's own files; no inline script or style; the API on the same origin; pictures arrive as blobs
# (fetched with the token, shown as images, which run no script); DOM sinks that take strings are closed.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob:", "connect-src 'self'",
    "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'", "require-trusted-types-for 'script'",
    "trusted-types 'none'",
])
_ID_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")  # token_urlsafe


@bp.get("/play/<game_id>")
def play(game_id: str) -> str:
    """The play page of a hosted game; whose it is, the token in the fragment says."""
    if not 0 < len(game_id) <= 64 or not set(game_id) <= _ID_CHARACTERS:
        raise Problem(Kind.NOT_FOUND, "Not found", f"no game {game_id[:64]!r}: a game id is letters, digits, - and _")
    return render_template("play.html", game_id=game_id)


@bp.after_request
def _headers(response: Response) -> Response:
    """The page's and its files' security headers."""
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
    if response.mimetype == "text/html":
        response.headers["Cache-Control"] = "no-store"
    return response
