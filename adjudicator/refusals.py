"""The one refusal vocabulary: what was refused and of which kind, said once for every shell.

The engine and the hosted service raise a `Refusal`; a shell turns its kind into its own answer through one
table each (`api/problems.py`: the HTTP status; `cli.py`: the exit status) and never knows the other's numbers.
Two families: `AdjudicatorError` (errors.py), an input problem located by file, line, column or JSON pointer,
its kind its class's; and `Refused`, an answer already worded (a title, the detail and its members), as the
hosted service and the API give it. A game's step refusal (`StepRefused`) never leaves its game's resolver: it
becomes a report line.
"""

from __future__ import annotations

import enum
from typing import Any


class Kind(enum.Enum):
    """What kind of refusal: the one thing a shell looks at to choose its status."""

    BAD_INPUT = "bad input"  # malformed: fix the request or the file (where and why are said)
    UNAUTHENTICATED = "unauthenticated"  # no credentials, or not in the form asked for
    FORBIDDEN = "forbidden"  # credentials that do not allow this
    NOT_FOUND = "not found"  # names nothing there is: a game, a phase, a variant
    CONFLICT = "conflict"  # stale or against the current state: the phase moved on, judged already, game over
    TOO_LARGE = "too large"  # over a size limit
    UNSUPPORTED_MEDIA = "unsupported media"  # a body in a form not read here
    REFUSED = "refused"  # read, but the rules refuse it: a state that breaks them, a board with problems,
    #                      orders for another phase, something a game does not do
    TOO_MANY = "too many"  # over a rate: try again later
    UNAVAILABLE = "unavailable"  # a part is down, busy or failed: try again later
    FULL = "full"  # the storage holds its limit


class Refusal(Exception):
    """The base of every refusal: its `kind` (the class's, or an instance's own)."""

    kind: Kind = Kind.BAD_INPUT


class Refused(Refusal):
    """A refusal worded for the one who asked: a short title, the detail, and members the answer carries
    (`pointer`, `errors`, `retry_after`...; None members are left out)."""

    def __init__(self, kind: Kind, title: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.kind, self.title, self.detail = kind, title, detail
        self.extra = {k: v for k, v in extra.items() if v is not None}

    @classmethod
    def of(cls, exc: Any, title: str, prefix: str = "", kind: Kind | None = None, located: bool = True) -> Any:
        """The answer to an input error (an AdjudicatorError): its kind unless `kind` says what it is here, its
        pointer under `prefix`; `located`: also its line, column and suggestions (the suggestions in the
        detail too), else the message and pointer alone."""
        extra: dict[str, Any] = {"pointer": prefix + exc.pointer if exc.pointer is not None else prefix or None}
        message = exc.message
        if located:
            extra.update(line=exc.line, column=exc.column, suggestions=exc.suggestions or None)
            if exc.suggestions:
                message += f"; did you mean {', '.join(repr(s) for s in exc.suggestions)}?"
        return cls(kind or exc.kind, title, message, **extra)


class StepRefused(Refusal):
    """A game's step the rules do not allow, by a short code and why: its resolver drops the working copy and
    reports the refusal in its place, so it changes nothing."""

    kind = Kind.REFUSED

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
