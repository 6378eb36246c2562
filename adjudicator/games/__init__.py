"""Other Arctic games on the same machinery: boards as data in `variants/`, Lark grammars in `grammar/`,
step-by-step resolution with reasons (`OrderResult`), and YAML case files run by `adjudicator datc`.

Each game is a module exposing `RULES`, an object with the `GameRules` interface, registered here by the
`rules:` name its variant files use.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Protocol

from adjudicator.errors import VariantError
from adjudicator.judge.outcome import OrderResult

GAMES = {
    "arctic2019": "adjudicator.games.arctic2019",
    "arctic-race": "adjudicator.games.arctic_race",
    "arctica": "adjudicator.games.arctica",
}


@dataclass
class GameResult:
    """One resolved turn (or step sequence) of a game: a report line per order or step, and the next state."""

    report: list[OrderResult]
    next_state: Any
    trace: list[str] = field(default_factory=list)  # what happened, in order, for the report
    summary: dict[str, Any] = field(default_factory=dict)  # game-specific results (points, winner...)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (the next state is serialised by the game's `state_to_data`)."""
        return {"orders": [r.to_json() for r in self.report], "trace": list(self.trace), "summary": self.summary}


class GameRules(Protocol):
    """What a game module provides."""

    name: str

    def load_board(self, data: dict, source: str | None) -> Any:
        """Board (with `name`, `title`, `rules` attributes) from the variant file's data."""

    def initial_state(self, board: Any) -> Any:
        """A starting position."""

    def state_from_data(self, board: Any, data: dict, file: str | None) -> Any:
        """A state from game-file data; a StateError names the problem's line or JSON pointer."""

    def state_to_data(self, board: Any, state: Any) -> dict:
        """The state as plain data (the game file's structure, also compared by case files)."""

    def parse_orders(self, board: Any, text: str, file: str | None) -> list[Any]:
        """Orders from text; an OrderError names line and column and suggests names."""

    def adjudicate(self, board: Any, state: Any, orders: list[Any]) -> GameResult:
        """Resolve the orders (refused steps change nothing) and return the report and the next state."""


def get_rules(name: str, source: str | None = None) -> GameRules:
    """The rules module of a game named by a variant's `rules:` key."""
    if name not in GAMES:
        raise VariantError(f"unknown rules {name!r}; known: diplomacy, {', '.join(GAMES)}", file=source)
    return importlib.import_module(GAMES[name]).RULES
