"""A refused order or step: a rule it breaks, named by a short code and explained in words. Refusals change
nothing: the resolver works on a copy of the state, and the copy is dropped."""

from __future__ import annotations

from adjudicator.refusals import StepRefused


class Refused(StepRefused):
    """Raised by a resolver when an order breaks a rule (codes as in arctica-board.md §7.9, plus AR-codes)."""

    def __init__(self, code: str, message: str, index: int | None = None):
        super().__init__(code, message)
        self.index = index  # which flight of an event broke the rule, when one did

    @property
    def reason(self) -> str:
        """The reason for the report: the explanation, then the code."""
        return f"{self.message} [{self.code}]"
