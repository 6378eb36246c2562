"""The research environment: any Diplomacy board of the project as a PettingZoo `ParallelEnv`, and the batch judge.

    env = parallel_env("standard", max_years=10, scoring="sum-of-squares", seed=1)
    observations, infos = env.reset()

Every power acts at once each phase; observations are the position as structured data (phase, units, dislodged
units and their retreats, centres, each power's counts) with an action mask over each unit's legal orders;
actions are indices into those lists, or orders as the judge's order values or order objects; rewards are 0 until
the game ends, then the scoring system's scores (adjudicator/games/diplomacy/env.py says it all). Needs the `env`
extra (pettingzoo, gymnasium); `judge_many` (adjudicator/batch.py) needs nothing more."""

from __future__ import annotations

from typing import Any

from adjudicator.batch import BatchJudge, judge_many
from adjudicator.catalogue import board_from_path, is_board_path, load_variant
from adjudicator.extras import require
from adjudicator.game import rules_of

__all__ = ["BatchJudge", "judge_many", "load_board", "parallel_env"]


def load_board(variant: Any) -> Any:
    """A board: a loaded one as it is, a shipped variant by name, or a board file by path."""
    if not isinstance(variant, str):
        return variant
    return board_from_path(variant)[0] if is_board_path(variant) else load_variant(variant)


def parallel_env(variant: Any = "standard", **options: Any) -> Any:
    """The board (a shipped variant's name, a board file's path, or a loaded board) as a PettingZoo ParallelEnv;
    options: rules (rule options text, as `--rules`), scoring (a system's name or choice), max_phases, max_years,
    seed, render_mode (None or 'ansi'), position (a GameState to start from)."""
    require("env", "the research environment (adjudicator.env)")
    board = load_board(variant)
    return rules_of(board).parallel_env(board, **options)
