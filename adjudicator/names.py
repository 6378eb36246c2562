"""Name lookup for places and powers: exact, then case-insensitive, with ambiguity and suggestions.

Names that differ only by case (the Arctic's NWG / Nwg, assumption A17) are accepted exactly as written;
any other spelling of such a pair is ambiguous, and the error names both.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Iterable

from adjudicator.errors import AdjudicatorError


class UnknownName(AdjudicatorError):
    """A name that matches nothing."""


class AmbiguousName(AdjudicatorError):
    """A name that matches several things."""


def normalise(text: str) -> str:
    """Collapse spaces and drop a trailing full stop, keeping case."""
    return re.sub(r"\s+", " ", text.strip()).rstrip(".") if text.strip() != "." else text


@dataclass
class NameIndex:
    """Maps every spelling to the id it names."""

    exact: dict[str, str] = field(default_factory=dict)
    folded: dict[str, set[str]] = field(default_factory=dict)
    display: dict[str, str] = field(default_factory=dict)  # id -> the name shown in suggestions

    @classmethod
    def build(cls, entries: Iterable[tuple[str, str, list[str]]]) -> "NameIndex":
        """Index (id, display name, spellings) triples."""
        index = cls()
        for ident, shown, spellings in entries:
            index.display[ident] = shown
            for s in spellings:
                n = normalise(s)
                index.exact.setdefault(n, ident)
                index.folded.setdefault(n.casefold(), set()).add(ident)
        return index

    def all_spellings(self) -> list[str]:
        """Every accepted spelling."""
        return list(self.exact)

    def lookup(self, text: str, what: str = "place") -> str:
        """The id named by `text`, or an UnknownName / AmbiguousName error."""
        n = normalise(text)
        if n in self.exact and len(self.folded.get(n.casefold(), ())) > 1:
            return self.exact[n]  # exact case decides between names differing only by case
        ids = self.folded.get(n.casefold())
        if ids and len(ids) == 1:
            return next(iter(ids))
        if ids:
            names = sorted(f"{self._exact_spelling(i, n)} ({self.display[i]})" for i in ids)
            raise AmbiguousName(f"ambiguous {what} {text!r}: it could be {' or '.join(names)}; write it exactly")
        raise UnknownName(f"unknown {what} {text!r}", suggestions=self.suggest(text))

    def lookup_lenient(self, text: str, what: str = "power") -> tuple[str, str | None]:
        """Like `lookup`, but a misspelling close to exactly one name is accepted, with a note saying so."""
        try:
            return self.lookup(text, what), None
        except UnknownName:
            n = normalise(text).casefold()
            scores: dict[str, float] = {}
            for spelling, ident in self.exact.items():
                ratio = difflib.SequenceMatcher(None, n, spelling.casefold()).ratio()
                scores[ident] = max(scores.get(ident, 0.0), ratio)
            ranked = sorted(scores.items(), key=lambda kv: -kv[1])
            best = ranked[0] if ranked else ("", 0.0)
            runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
            if best[1] >= 0.75 and best[1] - runner_up >= 0.05:
                return best[0], f"read {what} {text!r} as {self.display[best[0]]!r}"
            raise

    def _exact_spelling(self, ident: str, n: str) -> str:
        for spelling, i in self.exact.items():
            if i == ident and spelling.casefold() == n.casefold():
                return spelling
        return ident

    def suggest(self, text: str, limit: int = 3) -> list[str]:
        """The closest known names, each shown with what it names."""
        n = normalise(text).casefold()
        keys = {k.casefold(): k for k in self.exact}
        close = difflib.get_close_matches(n, list(keys), n=limit * 3, cutoff=0.6)
        out: list[str] = []
        seen: set[str] = set()
        for c in close:
            spelling = keys[c]
            ident = self.exact[spelling]
            if ident in seen:
                continue
            seen.add(ident)
            out.append(spelling if spelling == self.display[ident] else f"{spelling} ({self.display[ident]})")
            if len(out) == limit:
                break
        return out
