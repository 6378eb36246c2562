"""The pictures in docs/: a picture of each game's example, drawn by the code as it is (`adjudicator render`'s
drawing), so the README shows what the tool draws today.

    python docs/pictures.py            # write them all again (docs/arctic-board.png, docs/pictures/*.png)
    python docs/pictures.py --check    # draw them and say which differ from the files (nothing written)

Each example is a position and the orders of one phase, judged: the Arctic board's Fall 2010 (the README's
example game and sheet), the standard board's Fall 1901 (the pictures benchmark's phase: moves, supports,
convoys, failures), a crowded standard phase, a retreat phase (dislodged units beside the units now in their
places, their retreat options), an adjustment phase (builds, an illegal build, waived builds), and a turn of
each of the other three games (the README's quickstarts). `tests/games/diplomacy/picture/test_render.py`
reads `EXAMPLES` and checks that no two marks or labels of the Diplomacy ones overlap."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
WIDTH = 1000


@dataclass(frozen=True)
class Example:
    """One picture: the file it is written to, and how its position and phase are made."""

    file: str  # under docs/
    make: Callable[[], tuple[Any, Any, Any]]  # -> (board, state drawn, results drawn on it or None)


def _judged(board: Any, state: Any, sheet: str) -> tuple[Any, Any, Any]:
    """A Diplomacy phase judged: the position before it and its orders as drawn."""
    from adjudicator.turn import play_turn, read_sheet

    turn = play_turn(board, state, read_sheet(board, state, sheet))
    return board, state, turn.drawn()


def _standard(position: dict[str, Any], sheet: str) -> Callable[[], tuple[Any, Any, Any]]:
    def make() -> tuple[Any, Any, Any]:
        from adjudicator.catalogue import load_variant
        from adjudicator.games.diplomacy.state_file import state_from_data

        board = load_variant("standard")
        return _judged(board, state_from_data({"variant": "standard", **position}, board=board), sheet)
    return make


def _arctic() -> tuple[Any, Any, Any]:
    from adjudicator.gamefile import read_game_file
    from adjudicator.textio import read_text

    board, state = read_game_file(ROOT / "examples" / "arctic-opening.yaml")
    return _judged(board, state, read_text(ROOT / "examples" / "arctic-fall-2010-orders.txt"))


def _benchmark_phase() -> tuple[Any, Any, Any]:
    """The pictures benchmark's phase (benchmarks/pictures.py: POSITION and SHEET)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("benchmark_pictures", ROOT / "benchmarks" / "pictures.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    position = {k: v for k, v in bench.POSITION.items() if k != "variant"}
    return _standard(position, bench.SHEET)()


def _retreat() -> tuple[Any, Any, Any]:
    """Spring 1902: two units dislodged (Burgundy's by Munich, Tyrolia's by Venice), then their retreats."""
    from adjudicator.catalogue import load_variant
    from adjudicator.games.diplomacy.state_file import state_from_data
    from adjudicator.turn import play_turn, read_sheet

    board = load_variant("standard")
    spring = state_from_data({"variant": "standard", "phase": "Spring 1902 Movement", "units": {
        "France": ["A bur", "A par", "F bre"], "Germany": ["A mun", "A ruh", "A bel"], "Austria": ["A tyr", "A vie"],
        "Italy": ["A ven", "A pie"]}}, board=board)
    moves = ("Germany: A mun - bur\nGermany: A ruh S A mun - bur\nGermany: A bel S A mun - bur\nFrance: A bur H\n"
             "France: A par S A bur\nItaly: A ven - tyr\nItaly: A pie S A ven - tyr\nAustria: A vie H\n")
    retreat = play_turn(board, spring, read_sheet(board, spring, moves)).next_state
    return _judged(board, retreat, "France: A bur - gas\nAustria: A tyr R boh\n")


EXAMPLES = [
    Example("arctic-board.png", _arctic),
    Example("pictures/standard-fall-1901.png", _benchmark_phase),
    Example("pictures/standard-crowded.png", _standard(
        {"phase": "Fall 1901 Movement", "units": {
            "Germany": ["A mun", "A ber", "A sil", "F kie"], "Austria": ["A vie", "A tri", "A bud", "A boh"],
            "Italy": ["A ven", "A pie", "A rom"], "France": ["A par", "A bur", "A pic", "A gas"],
            "Russia": ["F bot", "A lvn", "F bal"], "England": ["F lon", "F nth", "A yor"]}},
        "Germany: A mun - tyr\nGermany: A ber - mun\nGermany: A sil - boh\nGermany: F kie - hol\n"
        "Austria: A vie - tyr\nAustria: A bud - vie\nAustria: A tri S A vie - tyr\nAustria: A boh - mun\n"
        "Italy: A ven - tyr\nItaly: A pie - tyr\nItaly: A rom - ven\n"
        "France: A par - bur\nFrance: A bur - par\nFrance: A pic - par\nFrance: A gas - par\n"
        "Russia: F bot - swe\nRussia: A lvn - pru\nRussia: F bal S A lvn - pru\nRussia: A lvn - war\n"
        "England: F lon - eng\nEngland: F nth C A yor - bel\nEngland: A yor - bel\n")),
    Example("pictures/standard-retreat.png", _retreat),
    Example("pictures/standard-adjustment.png", _standard(
        {"phase": "Fall 1901 Adjustment",
         "centres": {"Austria": ["vie", "bud", "tri", "ser", "gre"], "Russia": ["mos", "war", "sev", "stp", "rum"],
                     "France": ["par", "bre", "mar"]},
         "units": {"Austria": ["A vie", "A ser"], "Russia": ["A rum", "F bot"], "France": ["A bur", "A pic",
                                                                                           "F mid", "A gas"]}},
        "Austria: Build A vie\nAustria: Build A bud\nAustria: Build F tri\n"
        "Russia: Build A mos\nRussia: Waive\nRussia: Waive\nFrance: Remove A pic\n")),
]


def _other_games() -> list[Example]:
    """A turn of each of the other three games, as the README's quickstarts play it (the position after it)."""
    def game(variant: str, setup: str | None, sheet: str) -> Callable[[], tuple[Any, Any, Any]]:
        def make() -> tuple[Any, Any, Any]:
            from adjudicator.catalogue import load_variant
            from adjudicator.game import rules_of
            from adjudicator.turn import play_turn, read_sheet

            board = load_variant(variant)
            rules = rules_of(board)
            state = rules.new_game(board, setup_text=setup) if setup else rules.initial_state(board)
            return board, play_turn(board, state, read_sheet(board, state, sheet)).next_state, None
        return make

    return [Example("pictures/arctic2019.png", game("arctic2019", None, "Russia: move 1 ship from KOL to BAR\n")),
            Example("pictures/arctic-race.png", game("arctic-race", "players Red, Blue\nstart Red\n"
                                                     "river T14 T09 T28 T23 T27\n",
                                                     "Red: 5 move, roll 3\nBlue: 4 push, draw T15\n")),
            Example("pictures/arctica.png", game("arctica", None, "Remi: migrate fish from tile 6 and fish from S6\n"
                                                 "Joelle: migrate bird from tile 6\nnext turn\n"))]


EXAMPLES += _other_games()


def draw(example: Example, fmt: str = "png", width: int = WIDTH) -> bytes | str:
    """An example's picture."""
    from adjudicator.game import rules_of

    board, state, results = example.make()
    return rules_of(board).render(board, state, results, fmt, width)


def main(argv: list[str] | None = None) -> int:
    """Write every example's picture (or, with --check, say which differ); 0 when all were written or match."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = parser.parse_args(argv)
    differ = 0
    for example in EXAMPLES:
        path = DOCS / example.file
        image = draw(example)
        assert isinstance(image, bytes)
        if args.check:
            same = path.is_file() and path.read_bytes() == image
            differ += not same
            print(f"{'same' if same else 'differs'}: {path.relative_to(ROOT)}")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(image)
            print(f"wrote {path.relative_to(ROOT)} ({len(image) // 1024} kB)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
