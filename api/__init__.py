"""The JSON API: adjudication as a stateless service for bots and web apps (Flask, served by gunicorn)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from api import problems
from api.routes import bp


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The Flask application, with limits and problem+json errors."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=1024 * 1024, MAX_CASES=500, JSON_SORT_KEYS=False)
    app.config.update(config or {})
    app.json.sort_keys = False
    problems.install(app)
    app.register_blueprint(bp)
    return app
