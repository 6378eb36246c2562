"""`adjudicator serve`: the API behind gunicorn, a production WSGI server."""

from __future__ import annotations

from typing import Any

from gunicorn.app.base import BaseApplication

from api import create_app


class _Server(BaseApplication):
    def __init__(self, options: dict[str, Any]):
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return create_app()


def serve(host: str = "127.0.0.1", port: int = 8000, workers: int = 2, threads: int = 1, timeout: int = 30) -> None:
    """Run the API until interrupted."""
    _Server({"bind": f"{host}:{port}", "workers": workers, "threads": threads, "timeout": timeout,
             "accesslog": "-", "preload_app": True,
             "control_socket_disable": True}).run()  # no control socket shared by two servers on one machine
