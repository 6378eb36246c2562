"""Reading a request body of unknown length without reading past a limit."""

from __future__ import annotations

from typing import Any


def read_at_most(stream: Any, limit: int) -> bytes:
    """The stream's bytes up to its end or `limit` + 1 bytes, whichever comes first (one more tells "too long")."""
    chunks, size = [], 0
    while size <= limit:
        chunk = stream.read(min(65536, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)
