"""Name lookup for places and powers: exact, then case-insensitive, with ambiguity and suggestions.

Names that differ only by case (the Arctic's NWG / Nwg, assumption A17) are accepted exactly as written;
any other spelling of such a pair is ambiguous, and the error names both. A spelling that names two places
in the same case (`liv`: Liverpool and Livonia) is ambiguous however it is written; a space's own id (`tyr`)
reads as that space when the id's case does not decide between two spaces.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from adjudicator.errors import AdjudicatorError

# Words that may stand before a name and are no part of it (skipped when suggesting).
ARTICLES = frozenset({"the", "a", "an"})
_SPACES = re.compile(r"\s+")
_LONGEST = 80  # characters: longer than any name a player means
_BUDGET: ContextVar[list[int] | None] = ContextVar("suggestion_budget", default=None)


@contextmanager
def suggestion_budget(searches: int) -> Iterator[list[int]]:
    """Within the block, at most `searches` "did you mean" searches are made (each costs about a millisecond);
    the yielded list holds how many are left, so a reader can say when it ran out."""
    left = [searches]
    token = _BUDGET.set(left)
    try:
        yield left
    finally:
        _BUDGET.reset(token)


class UnknownName(AdjudicatorError):
    """A name that matches nothing."""


class AmbiguousName(AdjudicatorError):
    """A name that matches several things."""


def normalise(text: str) -> str:
    """Collapse spaces and drop a trailing full stop, keeping case."""
    if text.isalnum():  # one word as it stands (most names in orders): nothing to collapse or drop
        return text
    return _SPACES.sub(" ", text.strip()).rstrip(".") if text.strip() != "." else text


def spelling_score(word: str, spelling: str) -> float:
    """How close a typed word is to a spelling (0-100, case-folded): edit distance, with abbreviations
    (`Burg` for Burgundy, `Tyrr` for the Tyrrhenian Sea) and spellings without vowels (`Brgndy`) counted close."""
    w, s = word.casefold(), spelling.casefold()
    score = fuzz.ratio(w, s)
    if len(w) >= 3 and s.startswith(w):
        score = max(score, 80 + 20 * len(w) / len(s))  # an abbreviation of the name
    if len(w) >= 3 and _consonants(w) == _consonants(s)[: len(_consonants(w))] and len(_consonants(w)) >= 3:
        score = max(score, 78 + 10 * len(w) / len(s))  # the name with its vowels left out
    return score


def _consonants(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum() and ch not in "aeiouy")


def typing_closeness(word: str, spellings: Iterable[str]) -> tuple[float, int]:
    """What breaks a tie of `spelling_score`s, as a typist slips: fewest edits when two swapped letters count as
    one (`Uar` is one slip from `Ura`, two from `Eur`), then the longest run of first letters kept."""
    w = word.casefold()
    best = (0.0, 0)
    for spelling in spellings:
        s = spelling.casefold()
        same = 0
        while same < min(len(w), len(s)) and w[same] == s[same]:
            same += 1
        best = max(best, (OSA.normalized_similarity(w, s), same))
    return best


def closest(text: str, choices: Iterable[str], limit: int = 3, cutoff: float = 60.0) -> list[str]:
    """The choices closest to `text` (a variant's name, a keyword), best first; none when nothing is close."""
    word = text.strip()[:_LONGEST]
    scored = [(spelling_score(word, c), typing_closeness(word, [c]), c) for c in choices]
    return [c for score, tie, c in sorted(scored, key=lambda t: (-t[0], tuple(-x for x in t[1]), t[2]))
            if score >= cutoff][:limit]


@dataclass
class NameIndex:
    """Maps every spelling to the id it names."""

    exact: dict[str, str] = field(default_factory=dict)  # spelling -> an id it names (the id's own first)
    folded: dict[str, set[str]] = field(default_factory=dict)  # case-folded spelling -> every id it names
    display: dict[str, str] = field(default_factory=dict)  # id -> the name shown in suggestions
    shared: dict[str, set[str]] = field(default_factory=dict)  # exact spellings that name several ids
    spellings: dict[str, list[str]] = field(default_factory=dict)  # id -> its spellings

    @classmethod
    def build(cls, entries: Iterable[tuple[str, str, list[str]]]) -> "NameIndex":
        """Index (id, display name, spellings) triples."""
        index = cls()
        pending: list[tuple[str, str]] = []
        for ident, shown, spellings in entries:
            index.display[ident] = shown
            for s in spellings:
                pending.append((ident, normalise(s)))
        for ident, n in sorted(pending, key=lambda p: p[1] != p[0]):  # ids first: an id always names itself
            if n in index.exact and index.exact[n] != ident:
                index.shared.setdefault(n, {index.exact[n]}).add(ident)
            index.exact.setdefault(n, ident)
            index.folded.setdefault(n.casefold(), set()).add(ident)
            if n not in index.spellings.setdefault(ident, []):
                index.spellings[ident].append(n)
        return index

    def all_spellings(self) -> list[str]:
        """Every accepted spelling."""
        return list(self.exact)

    def candidates(self, text: str) -> set[str]:
        """Every id a spelling could name (case-folded)."""
        return set(self.folded.get(normalise(text).casefold(), ()))

    def own_id(self, text: str, ids: Iterable[str]) -> str | None:
        """The one id among `ids` that `text` is (case-insensitively, or exactly when case decides)."""
        n = normalise(text)
        same = [i for i in ids if i.casefold() == n.casefold()]
        if len(same) > 1:
            same = [i for i in same if i == n]
        return same[0] if len(same) == 1 else None

    def lookup(self, text: str, what: str = "place") -> str:
        """The id named by `text`, or an UnknownName / AmbiguousName error."""
        n = normalise(text)
        ids = self.folded.get(n.casefold())
        if ids and len(ids) == 1:
            return next(iter(ids))
        if n in self.exact and n not in self.shared:
            return self.exact[n]  # exact case decides between names differing only by case
        if ids:
            own = self.own_id(n, ids)
            if own is not None:
                return own  # a space's own id names it (`tyr` is Tyrolia, though also an abbreviation)
            names = sorted(f"{self._exact_spelling(i, n)} ({self.display[i]})" for i in ids)
            raise AmbiguousName(f"ambiguous {what} {text!r}: it could be {' or '.join(names)}; write it exactly")
        raise UnknownName(f"unknown {what} {text!r}", suggestions=self.suggest(text))

    def lookup_lenient(self, text: str, what: str = "power") -> tuple[str, str | None]:
        """Like `lookup`, but a misspelling close to exactly one name is accepted, with a note saying so."""
        try:
            return self.lookup(text, what), None
        except UnknownName:
            ranked = self.rank(text)
            best = ranked[0] if ranked else ("", 0.0)
            runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
            if best[1] >= 75 and best[1] - runner_up >= 5:
                return best[0], f"read {what} {text!r} as {self.display[best[0]]!r}"
            raise

    def _exact_spelling(self, ident: str, n: str) -> str:
        for spelling in self.spellings.get(ident, ()):
            if spelling.casefold() == n.casefold():
                return spelling
        return ident

    def rank(self, text: str, prefer: Iterable[str] = (), cutoff: float = 60.0,
             fits: Iterable[str] = ()) -> list[tuple[str, float]]:
        """Ids whose spellings are close to `text`, best first: ids in `prefer` (what the unit could reach)
        before the others, then ids in `fits` (places of the kind the unit stands on), each by spelling distance
        (ties by `typing_closeness`); articles (`the`) before the word are skipped."""
        words = normalise(text).split()
        while len(words) > 1 and words[0].casefold() in ARTICLES:
            words = words[1:]
        word = " ".join(words)
        if not word or len(word) > _LONGEST:
            return []  # no name is that long: nothing to suggest (and bounded work on hostile input)
        best: dict[str, float] = {}
        for ident, spellings in self.spellings.items():
            score = max(spelling_score(word, s) for s in [*spellings, self.display[ident]])
            if score >= cutoff:
                best[ident] = score
        near, kind = set(prefer), set(fits)
        # Within reach counts for much, but not for everything: a close spelling of a far place still beats
        # a poor spelling of a near one. The right kind of place (land for an army) counts for less.
        return sorted(best.items(), key=lambda kv: (
            -(kv[1] + (12 if kv[0] in near else 0) + (5 if kv[0] in kind else 0)),
            tuple(-x for x in typing_closeness(word, [*self.spellings[kv[0]], self.display[kv[0]]])), kv[0]))

    def suggest(self, text: str, limit: int = 3, prefer: Iterable[str] = (), fits: Iterable[str] = ()) -> list[str]:
        """The closest known names, each shown with what it names (none once a reader's budget is spent)."""
        budget = _BUDGET.get()
        if budget is not None:
            if budget[0] <= 0:
                return []
            budget[0] -= 1
        out = []
        for ident, _ in self.rank(text, prefer, fits=fits)[:limit]:
            shown = self.display[ident]
            out.append(shown if shown == ident else f"{shown} ({ident})")
        return out
