"""A generic resolver for decisions that depend on each other (DATC chapter 5.E, partial information).

It knows nothing of Diplomacy: `adjudicate(key, optimistic)` computes one decision from the others
(calling `resolve` for them), and `backup(keys)` settles a cycle that has no or two consistent
resolutions (by calling `fix`). Decisions are booleans.
"""

from __future__ import annotations

from typing import Callable, Generic, Hashable, NoReturn, TypeVar

K = TypeVar("K", bound=Hashable)  # what a decision is keyed by (the judge's: a province)


class Resolver(Generic[K]):
    """Resolves boolean decisions with optimistic/pessimistic bounds, cycle detection and a backup rule."""

    def __init__(self, adjudicate: Callable[[K, bool], bool], backup: Callable[[list[K]], None]):
        self._adjudicate = adjudicate
        self._backup = backup
        self.resolved: dict[K, bool] = {}
        self._visiting: set[K] = set()
        self._cycle: list[K] = []
        self._in_cycle: set[K] = set()
        self._recursion_hits = 0
        self._uncertain = False

    def release(self) -> None:
        """Drop the callbacks once every decision is made (`resolve` then answers from `resolved` only), so that
        the resolver holds no reference back to its owner."""
        self._adjudicate = self._backup = _released

    def fix(self, key: K, value: bool) -> None:
        """Settle a decision (used by the backup rule)."""
        self.resolved[key] = value

    def _add_to_cycle(self, key: K) -> None:
        if key not in self._in_cycle:
            self._cycle.append(key)
            self._in_cycle.add(key)

    def _truncate_cycle(self, length: int) -> list[K]:
        removed = self._cycle[length:]
        del self._cycle[length:]
        self._in_cycle.difference_update(removed)
        return removed

    def resolve(self, key: K, optimistic: bool = True) -> bool:
        """The decision for `key`: final when known, else the bound asked for (True when optimistic)."""
        known = self.resolved.get(key)
        if known is not None:
            return known
        if key in self._in_cycle:
            self._uncertain = True
            return optimistic
        if key in self._visiting:
            self._add_to_cycle(key)
            self._recursion_hits += 1
            self._uncertain = True
            return optimistic

        self._visiting.add(key)
        old_cycle_len = len(self._cycle)
        old_hits = self._recursion_hits
        old_uncertain = self._uncertain
        self._uncertain = False
        opt = self._adjudicate(key, True)
        pes = self._adjudicate(key, False) if (self._uncertain and opt) else opt
        self._visiting.discard(key)

        if opt == pes:
            if len(self._cycle) > old_cycle_len:
                self._truncate_cycle(old_cycle_len)
            self._recursion_hits = old_hits
            self._uncertain = old_uncertain
            self.resolved[key] = opt
            return opt

        if key in self._in_cycle:
            self._recursion_hits -= 1

        if self._recursion_hits == old_hits:
            # This decision is the ancestor of the whole cycle: settle the cycle by the backup rule.
            cycle = self._truncate_cycle(old_cycle_len)
            self._backup(cycle)
            self._uncertain = old_uncertain
            return self.resolve(key, optimistic)

        self._add_to_cycle(key)
        self._uncertain = True
        return optimistic


def _released(*args: object) -> NoReturn:
    raise RuntimeError(f"a decision asked for after the resolver was released: {args[:1]}")
