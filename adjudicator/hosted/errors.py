"""The one error of hosted games: a refused request, as the HTTP layer answers it."""

from __future__ import annotations

from typing import Any


class HostedError(Exception):
    """A refused request: an HTTP status, a short title, the detail and extension members."""

    def __init__(self, status: int, title: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.status, self.title, self.detail, self.extra = status, title, detail, extra
