"""The pages players and game masters use in a browser: `/play/<game id>#token=...`, a thin client of the JSON API.

The token travels in the URL's fragment, which a browser never sends: the page's script moves it to session
storage and calls the API with `Authorization: Bearer`, so no request line, access log or Referer holds it. The
page is one template and static files shipped in this package, with nothing fetched from another site, no
build step, and a Content-Security-Policy that allows only this service's own scripts and styles.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, render_template

from adjudicator.catalogue import load_variant
from adjudicator.errors import AdjudicatorError
from adjudicator.game import rules_of
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


# The players' guides to each game's order syntax (docs/orders/<game>.md, shipped as this package's data).
_GUIDES = Path(__file__).resolve().parent / "orders"
_GUIDE_NAMES = ("diplomacy", "arctic2019", "arctic-race", "arctica")


def guide_path(name: str) -> Path | None:
    """The guide to the order syntax of a game (its rules' name) or of a shipped variant's game; None: no guide."""
    if not 0 < len(name) <= 64 or not set(name) <= _ID_CHARACTERS:
        return None
    game = name.lower() if name.lower() in _GUIDE_NAMES else None
    if game is None:
        try:
            game = rules_of(load_variant(name)).name
        except AdjudicatorError:
            return None
    for folder in (_GUIDES, Path(__file__).resolve().parents[2] / "docs" / "orders"):  # installed, or a checkout
        path = folder / f"{game}.md"
        if game in _GUIDE_NAMES and path.is_file():
            return path
    return None


@bp.get("/play/orders/<name>")
def order_guide(name: str) -> str:
    """How to write orders in a game: its players' guide, as a page of text."""
    path = guide_path(name)
    if path is None:
        raise Problem(Kind.NOT_FOUND, "Not found", f"no guide to the orders of {name[:64]!r}: guides are for the "
                      f"games {', '.join(_GUIDE_NAMES)} and their shipped variants")
    text = path.read_text(encoding="utf-8")
    title = text.splitlines()[0].lstrip("# ").strip() if text else name
    return render_template("orders.html", title=title, text=text)


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
