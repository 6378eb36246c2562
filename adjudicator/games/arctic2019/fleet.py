"""Ship bookkeeping within a turn (B21): ships are interchangeable tokens, counted per sector and country by
what they have done this turn, so "a ship moves once" and "a ship attacks once" can be checked."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable, Mapping

Tag = tuple[bool, bool]  # (moved this turn, attacked a platform this turn)
FRESH: Tag = (False, False)

# Which ships a step uses first, when several kinds could serve.
MOVE_FIRST: list[Tag] = [(False, True), (False, False)]  # B21, P5: ships that attacked a platform move first
ATTACK_FIRST: list[Tag] = [(True, False), (False, False)]  # ships that have moved attack first (keeps moves)
ARRIVED: list[Tag] = [(True, True), (True, False)]
ANY: list[Tag] = [(False, False), (False, True), (True, False), (True, True)]


def unmoved(tag: Tag) -> bool:
    """A ship that may still move."""
    return not tag[0]


def can_attack(tag: Tag) -> bool:
    """A ship that has not attacked this turn (P4: each ship attacks once, a ship or a platform)."""
    return not tag[1]


class Fleet:
    """The ships on the board, each stack split by what its ships did this turn."""

    def __init__(self, ships: dict[str, dict[str, int]] | None = None):
        self.stacks: dict[str, dict[str, Counter]] = {}
        for sector, by_country in (ships or {}).items():
            for country, n in by_country.items():
                if n:
                    self.put(sector, country, Counter({FRESH: n}))

    def copy(self) -> "Fleet":
        """An independent copy."""
        other = Fleet()
        other.stacks = {s: {c: Counter(t) for c, t in by.items()} for s, by in self.stacks.items()}
        return other

    def count(self, sector: str, country: str, where: Callable[[Tag], bool] = lambda t: True) -> int:
        """Ships of a country in a sector (those whose tag passes `where`)."""
        tags = self.stacks.get(sector, {}).get(country, Counter())
        return sum(n for tag, n in tags.items() if where(tag))

    def countries(self, sector: str) -> list[str]:
        """Countries with ships in a sector."""
        return [c for c, tags in self.stacks.get(sector, {}).items() if sum(tags.values())]

    def sectors_of(self, country: str) -> list[str]:
        """Sectors holding ships of a country."""
        return [s for s in self.stacks if self.count(s, country)]

    def take(self, sector: str, country: str, n: int, order: Iterable[Tag]) -> Counter:
        """Remove n ships, of the tags in `order` first to last; the caller has checked there are enough."""
        tags = self.stacks[sector][country]
        taken: Counter = Counter()
        for tag in order:
            k = min(n - sum(taken.values()), tags.get(tag, 0))
            if k > 0:
                taken[tag] += k
                tags[tag] -= k
        if sum(taken.values()) != n:
            raise ValueError(f"not enough ships of {country} in {sector}")  # a bug: steps check first
        self._tidy(sector, country)
        return taken

    def put(self, sector: str, country: str, tags: Mapping[Any, int]) -> None:
        """Add ships (with their tags)."""
        stack = self.stacks.setdefault(sector, {}).setdefault(country, Counter())
        stack.update(tags)
        self._tidy(sector, country)

    def reset(self) -> None:
        """A new turn: every ship may move and attack again."""
        self.stacks = {s: {c: Counter({FRESH: sum(t.values())}) for c, t in by.items()}
                       for s, by in self.stacks.items()}

    def ships(self) -> dict[str, dict[str, int]]:
        """Ships per sector per country (no empty entries)."""
        out: dict[str, dict[str, int]] = {}
        for sector, by_country in self.stacks.items():
            for country, tags in by_country.items():
                if sum(tags.values()):
                    out.setdefault(sector, {})[country] = sum(tags.values())
        return out

    def _tidy(self, sector: str, country: str) -> None:
        stack = self.stacks.get(sector, {}).get(country)
        if stack is None:
            return
        for tag in [t for t, n in stack.items() if n <= 0]:
            del stack[tag]
        if not stack:
            del self.stacks[sector][country]
        if not self.stacks[sector]:
            del self.stacks[sector]
