"""A bounded cache, least recently used first out, shared by the places that keep what is costly to make (parsed
boards, hosted games' positions, drawn picture layers): memory stays bounded whatever the input."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class Kept:
    """At most `size` values by key; safe to share between threads. A value is made outside the lock (two
    callers may both make one; one is kept), so a slow `make` holds up no other key."""

    def __init__(self, size: int):
        self.size = size
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()  # (made after gevent's patching in a server worker: gevent's own there)

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The value kept for `key`, else `make()`'s, kept."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = make()
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every value (a cold measurement)."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
