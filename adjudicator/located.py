"""The one located reader of data files (game files, case files, API bodies): each value read is checked, and a
problem is an error naming the file, the line (YAML keeps it on the values it reads, `yamlio.py`) and the
JSON pointer. Each game's reader derives from it and adds the readings of its own kinds of value."""

from __future__ import annotations

from typing import Any

from adjudicator.errors import AdjudicatorError, StateError, VariantError
from adjudicator.names import AmbiguousName, NameIndex, UnknownName
from adjudicator.yamlio import line_of


def located_error(message: str, file: str | None, node: Any = None, fallback: Any = None, *, pointer: str | None = None,
                  suggestions: list[str] | None = None, error: type[AdjudicatorError] = StateError) -> AdjudicatorError:
    """The error of a data file's problem at `node`: its line (else `fallback`'s), the file, the JSON pointer."""
    return error(message, file=file, line=line_of(node) or line_of(fallback), pointer=pointer,
                 suggestions=suggestions or [])


def what_it_is(value: Any) -> str:
    """A value's kind as a data file's author says it (`a list`, `a text`), for a message."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, (list, tuple)):
        return "a list"
    return "a mapping" if isinstance(value, dict) else type(value).__name__


def variant_error(message: str, source: str | None, node: Any = None, fallback: Any = None) -> AdjudicatorError:
    """A board file's problem at `node` (its line, else `fallback`'s)."""
    return located_error(message, source, node, fallback, error=VariantError)


class LocatedReader:
    """Reads the values of one data file: `fail` makes the error, the others check a value or raise it."""

    error: type[AdjudicatorError] = StateError

    def __init__(self, file: str | None, whole: Any = None) -> None:
        self.file = file
        self.whole = whole  # the file's data: its line stands in for a value that has none

    def fail(self, message: str, node: Any, pointer: str | None, suggestions: list[str] | None = None) -> AdjudicatorError:
        """The error for a problem at `node` (its line) and `pointer`."""
        return located_error(message, self.file, node, self.whole, pointer=pointer, suggestions=suggestions,
                             error=self.error)

    def name(self, index: NameIndex, value: Any, what: str, node: Any, pointer: str | None, known: str = "") -> str:
        """The canonical name `value` stands for in `index` (a typo gets suggestions; `known` lists the valid)."""
        try:
            return index.lookup(str(value), what)
        except (UnknownName, AmbiguousName) as exc:
            raise self.fail(exc.message + known, value if line_of(value) else node, pointer, exc.suggestions) from None

    def whole_number(self, value: Any, what: str, node: Any, pointer: str, low: int = 0,
                     high: int | None = None) -> int:
        """`value` when it is a whole number from `low` (to `high`), not a bool or a text."""
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise self.fail(f"{what} must be a whole number {bound}, not {value!r}", node, pointer)
        return value

    def mapping(self, value: Any, what: str, node: Any, pointer: str) -> dict[Any, Any]:
        """`value` when it is a mapping (nothing given: an empty one)."""
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.fail(f"{what} must be a mapping", value if line_of(value) else node, pointer)
        return value
