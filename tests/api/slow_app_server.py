"""`python tests/api/slow_app_server.py PORT MILLISECONDS`: the server of `adjudicator serve` (one worker, its
gevent worker class and settings) in front of an application whose every request keeps the CPU busy for
MILLISECONDS without yielding, as a judgement does, and answers the request's `X-Tag` header. For the tests
of the order requests are served in (tests/api/test_fair_service.py)."""

from __future__ import annotations

import sys
import time
from typing import Any

from gevent import monkey

monkey.patch_all()  # as `serve` does, before the server is imported

from gunicorn.app.base import BaseApplication  # noqa: E402

from api.server import server_options  # noqa: E402


def busy_app(milliseconds: float):
    """A WSGI application that spins for `milliseconds` of CPU a request (no I/O, so no yielding)."""

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        if environ["PATH_INFO"] != "/healthz":
            deadline = time.perf_counter() + milliseconds / 1000
            while time.perf_counter() < deadline:
                pass
        body = environ.get("HTTP_X_TAG", "ok").encode()
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
        return [body]

    return app


class SlowServer(BaseApplication):
    def __init__(self, port: int, milliseconds: float):
        self.options = server_options(port=port, workers=1) | {"accesslog": None}
        self.app = busy_app(milliseconds)
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return self.app


if __name__ == "__main__":
    SlowServer(int(sys.argv[1]), float(sys.argv[2])).run()
