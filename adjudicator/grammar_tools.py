"""Shared Lark machinery for every game's order grammar.

A grammar file in `grammar/` is completed with terminals built from a variant's names (so a multi-word
name is one token), compiled as LALR, and its errors become AdjudicatorErrors that name the column, say
what was expected in words, and suggest the closest names for an unknown word.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable

from lark import Lark, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from adjudicator.errors import AdjudicatorError, OrderError
from adjudicator.names import NameIndex
from adjudicator.resources import data_dir

try:  # an optional compiled LALR parser (same grammar, same results, faster)
    import lark_cython as _CYTHON
except ImportError:  # pragma: no cover - depends on the platform
    _CYTHON = None


def alternatives(spellings: list[str]) -> str:
    """A regex group matching any spelling (case-folded), longest first, with flexible spaces.

    The spellings are laid out as a prefix tree, so matching costs the length of the name, not the number of
    names (a board of 10,000 spaces has more than 20,000 spellings)."""
    trie: dict[str, Any] = {}
    for spelling in set(spellings):
        node = trie
        for word_index, word in enumerate(spelling.lower().split()):
            if word_index:
                node = node.setdefault(" ", {})
            for ch in word:
                node = node.setdefault(ch, {})
        node[""] = {}  # a spelling ends here

    def pattern(node: dict[str, Any]) -> str:
        branches = [(r"\s+" if ch == " " else re.escape(ch)) + pattern(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body  # greedy: the longer spelling is tried first

    return "(?:" + pattern(trie) + ")"


def alternation(spellings: list[str]) -> str:
    """A Lark regex terminal matching any spelling (longest first) as a whole word, case-insensitively."""
    pattern = alternatives(spellings) + r"(?![A-Za-z0-9])"
    return "/" + pattern.replace("/", "\\/") + "/i"


@functools.lru_cache(maxsize=16)
def grammar_text(name: str) -> str:
    """The text of `grammar/<name>.lark`."""
    return (data_dir("grammar") / f"{name}.lark").read_text(encoding="utf-8")


def or_list(items: list[str]) -> str:
    """`a, b or c`."""
    if not items:
        return "something else"
    return _listed(items, "or")


def and_list(items: list[str]) -> str:
    """`a, b and c`."""
    return _listed(items, "and")


def _listed(items: list[str], word: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


class GrammarParser:
    """A compiled grammar with per-variant name terminals and readable errors."""

    def __init__(self, grammar: str, terminals: dict[str, str], transformer: Transformer[Any, Any],
                 names: dict[str, NameIndex], words: dict[str, str], what: str = "order", skip: str | None = None,
                 fast: bool = False):
        """`terminals`: name -> Lark definition appended to the grammar; `names`: terminal -> the NameIndex used
        to suggest spellings for an unknown word where that terminal was expected; `words`: terminal -> how a
        player would call it in an error message; `skip`: a regex for words that may precede an unknown name
        (so the error names the right word); `fast`: use lark-cython's compiled parser when it is installed
        (its tokens are not `lark.Token` instances: the transformer must read `.type` and `str()` only)."""
        text = grammar_text(grammar) + "\n" + "\n".join(f"{k}: {v}" for k, v in terminals.items()) + "\n"
        options: dict[str, Any] = {}
        if fast and _CYTHON is not None:
            options["_plugins"] = _CYTHON.plugins
        self.parser = Lark(text, parser="lalr", lexer="contextual", transformer=transformer,
                           maybe_placeholders=False, **options)
        self.names = names
        self.words = words
        self.what = what
        self.skip = re.compile(skip, re.IGNORECASE) if skip else None

    def parse(self, text: str, line: int | None = None, file: str | None = None, column_offset: int = 0,
              error: Callable[..., AdjudicatorError] = OrderError) -> Any:
        """Parse text; errors carry file, line, column (shifted by `column_offset`) and suggestions."""
        if not text.strip():
            raise error(f"empty {self.what}", file=file, line=line, column=column_offset + 1)
        try:
            return self.parser.parse(text)
        except VisitError as exc:
            inner = exc.orig_exc
            if isinstance(inner, AdjudicatorError):
                raise error(inner.message, file=file, line=line, suggestions=inner.suggestions,
                            column=(inner.column or 1) + column_offset) from None
            raise
        except UnexpectedInput as exc:
            raise self._explain(exc, text, line, file, column_offset, error) from None
        except AdjudicatorError as exc:
            raise error(exc.message, file=file, line=line, suggestions=exc.suggestions,
                        column=(exc.column or 1) + column_offset) from None

    def _explain(self, exc: UnexpectedInput, text: str, line: int | None, file: str | None, offset: int,
                 error: Callable[..., AdjudicatorError]) -> AdjudicatorError:
        column = getattr(exc, "column", None)
        at_end = isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END")
        if at_end or column is None or column < 1:
            column = len(text.rstrip()) + 1  # just after the last character
        allowed = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
        expected = sorted({self.words.get(t, t.lower()) for t in allowed if not t.startswith("__")})
        if self.skip is not None and isinstance(exc, UnexpectedCharacters):
            skipped = self.skip.match(text, column - 1)
            if skipped is not None:
                column += skipped.end() - (column - 1)
        word_match = re.match(r"[\w.'’-]+", text[column - 1:])
        word = word_match.group(0) if word_match else text[column - 1:column]
        where = {"file": file, "line": line, "column": column + offset}
        if isinstance(exc, UnexpectedCharacters) and word_match:
            for terminal, index in self.names.items():
                if terminal in allowed:
                    return error(f"unknown {self.words.get(terminal, terminal.lower()).removeprefix('a ').removeprefix('an ')} {word!r}",
                                 suggestions=index.suggest(word), **where)
            return error(f"unexpected {word!r}; expected {or_list(expected)}", **where)
        if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
            return error(f"the {self.what} ends too early; expected {or_list(expected)}", **where)
        return error(f"unexpected {word!r}; expected {or_list(expected)}", **where)
