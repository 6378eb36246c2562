"""Every cache the engine keeps between calls, found by looking, so that "cold" means cold.

The engine keeps readings of order texts, name tokens and convoy-route answers between calls, and the code that
keeps them changes. Rather than a list of attribute names that goes stale, `find_caches` looks: it takes every
dict, set and list held by an object or module of this project (and every `functools.lru_cache` of its
functions), runs phases with orders it has not seen, and keeps those that grew. A structure built once per board
(the season views) is not a cache in this sense: the warm-up builds it, and it does not grow afterwards.

    caches = find_caches(board, play_some)       # play_some(rng) runs a few fresh phases
    caches.empty()                               # cold: nothing kept from before
    saved = caches.snapshot(); ...; caches.restore(saved)   # a game: only its earlier phases kept
"""

from __future__ import annotations

import functools
import gc
import random
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

PACKAGES = ("adjudicator", "api")


def _ours(module: object) -> bool:
    return isinstance(module, str) and module.split(".")[0] in PACKAGES


@dataclass
class _Slot:
    """A container held as `owner.name` (or `owner[name]` for a dict entry); fetched anew every time, in case
    the code replaces it instead of clearing it."""

    owner: Any
    name: Any
    item: bool = False  # owner is a dict, name a key

    def get(self) -> Any:
        if self.item:
            return self.owner.get(self.name)
        return getattr(self.owner, self.name, None)

    def size(self) -> int:
        value = self.get()
        try:
            return len(value)
        except TypeError:
            return 0

    def label(self) -> str:
        owner = self.owner if not isinstance(self.owner, dict) else None
        kind = type(owner).__name__ if owner is not None and not hasattr(owner, "__file__") else \
            getattr(owner, "__name__", "dict")
        return f"{kind}[{self.name!r}]" if self.item else f"{kind}.{self.name}"

    def empty(self) -> None:
        value = self.get()
        if value is not None:
            value.clear()

    def snapshot(self) -> Any:
        value = self.get()
        return None if value is None else type(value)(value) if not isinstance(value, dict) else dict(value)

    def restore(self, saved: Any) -> None:
        value = self.get()
        if value is None or saved is None:
            return
        value.clear()
        if isinstance(value, list):
            value.extend(saved)
        else:
            value.update(saved)


@dataclass
class _LruSlot:
    """A functools.lru_cache: it can be emptied, not restored (a game then starts from nothing: colder)."""

    fn: Any

    def size(self) -> int:
        return self.fn.cache_info().currsize

    def label(self) -> str:
        return f"{self.fn.__module__}.{self.fn.__qualname__} (lru_cache)"

    def empty(self) -> None:
        self.fn.cache_clear()

    def snapshot(self) -> Any:
        return None

    def restore(self, saved: Any) -> None:
        self.fn.cache_clear()


@dataclass
class Caches:
    """The caches found; emptied, or saved and put back, together."""

    slots: list = field(default_factory=list)

    def empty(self) -> None:
        """Empty every cache."""
        for slot in self.slots:
            slot.empty()

    def snapshot(self) -> list:
        """A copy of every cache's contents."""
        return [slot.snapshot() for slot in self.slots]

    def restore(self, saved: list) -> None:
        """Put the contents of a snapshot back (an lru_cache is emptied instead)."""
        for slot, value in zip(self.slots, saved):
            slot.restore(value)

    def sizes(self) -> list[int]:
        """How many entries each cache holds."""
        return [slot.size() for slot in self.slots]

    def describe(self) -> str:
        """What is emptied, in a line."""
        return ", ".join(slot.label() for slot in self.slots) or "nothing"


def _containers() -> list:
    """Every container held by an object or module of this project, and every lru_cache of its functions."""
    slots: list = []
    seen: set[int] = set()

    def add_attrs(owner: Any) -> None:
        try:
            attrs = vars(owner)
        except TypeError:
            return
        for name, value in list(attrs.items()):
            if isinstance(value, (dict, set, list)) and not (isinstance(name, str) and name.startswith("__")):
                slots.append(_Slot(owner, name))
                if isinstance(value, dict) and len(value) <= 64:  # a cache per board or per key, one level down
                    for key, inner in list(value.items()):
                        if isinstance(inner, (dict, set, list)):
                            slots.append(_Slot(value, key, item=True))

    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper):
            if _ours(getattr(obj, "__module__", None)):
                slots.append(_LruSlot(obj))
            continue
        if id(obj) in seen or not _ours(getattr(type(obj), "__module__", None)) or isinstance(obj, type):
            continue
        seen.add(id(obj))
        add_attrs(obj)
    for name, module in list(sys.modules.items()):
        if _ours(name) and module is not None:
            add_attrs(module)
    return slots


def find_caches(play: Callable[[random.Random], None], warm_up: int = 2, rounds: int = 3) -> Caches:
    """The containers that grow when `play(rng)` (some phases with orders never seen) runs again and again after
    a warm-up: the engine's caches between calls."""
    for i in range(warm_up):
        play(random.Random(1_000_003 + i))
    slots = _containers()
    before = [slot.size() for slot in slots]
    for i in range(rounds):
        play(random.Random(2_000_003 + i))
    grew = [slot for slot, size in zip(slots, before) if slot.size() > size]
    return Caches(grew)
