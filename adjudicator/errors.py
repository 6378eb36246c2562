"""Errors that carry where (file, line, column) and why, so every front end can report them plainly."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.refusals import Kind, Refusal


@dataclass
class AdjudicatorError(Refusal):
    """An input problem a user can fix: what is wrong, where, and what would be valid (a refusal of its class's
    kind: a shell may say what it is where it was met)."""

    kind = Kind.BAD_INPUT
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    suggestions: list[str] = field(default_factory=list)
    pointer: str | None = None  # a JSON pointer into a request body, for the API

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def where(self) -> str:
        """The location part of the message, e.g. `orders.txt:3:7`."""
        parts = [p for p in (self.file, self.line, self.column) if p is not None]
        return ":".join(str(p) for p in parts)

    def __str__(self) -> str:
        text = self.message
        if self.suggestions:
            text += "; did you mean " + ", ".join(repr(s) for s in self.suggestions) + "?"
        where = self.where()
        return f"{where}: {text}" if where else text

    def located(self, file: str | None = None, line: int | None = None, column_offset: int = 0) -> "AdjudicatorError":
        """A copy placed in a file and line (columns shifted when the text was a slice of a longer line)."""
        return type(self)(
            self.message,
            file=file if file is not None else self.file,
            line=line if line is not None else self.line,
            column=(self.column + column_offset) if self.column is not None else None,
            suggestions=list(self.suggestions),
            pointer=self.pointer,
        )


class VariantError(AdjudicatorError):
    """A variant file that is not a valid board."""

    kind = Kind.REFUSED


class OrderError(AdjudicatorError):
    """Order text that cannot be read."""


class StateError(AdjudicatorError):
    """A game state that breaks the rules (two units in one space, a fleet on land...)."""

    kind = Kind.REFUSED


class CaseFileError(AdjudicatorError):
    """A malformed case file."""


class BoardWarning(VariantError):
    """Something a board checker reports that the rules allow (a one-way border with no way back): the board is
    still played."""
