"""The board and the position of a request or a stored game, loaded one way for the API and the hosted service:
what cannot be loaded is refused (`Refused`) with its kind, title and pointer, the same for both."""

from __future__ import annotations

from typing import Any

from adjudicator.catalogue import BoardProblems, BoardTooLarge, board_from_inline, load_variant
from adjudicator.errors import AdjudicatorError
from adjudicator.game import rules_of
from adjudicator.gamefile import ended_refusal, game_file_from_data
from adjudicator.refusals import Kind, Refused


def named_board(name: str, pointer: str = "/variant", located: bool = True) -> Any:
    """A shipped variant by name; unknown: refused (not found) with the known names (`located`: and the closest
    ones, as suggestions)."""
    try:
        return load_variant(name)
    except AdjudicatorError as exc:
        raise Refused.of(exc, "Unknown variant", pointer, located=located) from None


def inline_board(data: Any, pointer: str = "/board") -> Any:
    """A board sent as data, checked by its game's checker: refused with every problem and its JSON pointer, or
    as too large."""
    try:
        return board_from_inline(data, pointer)
    except BoardProblems as exc:
        errors = exc.located_problems()
        raise Refused(exc.kind, "Board has problems", exc.message, pointer=errors[0]["pointer"], errors=errors) from None
    except BoardTooLarge as exc:
        raise Refused(exc.kind, "Board too large", exc.message, pointer=pointer) from None
    except AdjudicatorError as exc:
        raise Refused(Kind.REFUSED, "Board refused", exc.message, pointer=exc.pointer or pointer) from None


def board_of(name: str, inline: Any, prefix: str = "", located: bool = True) -> Any:
    """The board inline (`inline`, when not None) or else the shipped variant `name`, refused under `prefix`."""
    if inline is not None:
        return inline_board(inline, f"{prefix}/board")
    return named_board(name, f"{prefix}/variant", located)


def position_of(board: Any, data: dict[str, Any], pointer: str = "/state", located: bool = True,
                to_judge: bool = False) -> tuple[Any, Any]:
    """(board, state) of a position's data on `board`; one that breaks the rules is refused under `pointer`, and
    (`to_judge`) one whose game has ended (its `end`) is a conflict."""
    try:
        game = game_file_from_data(data, None, board)
    except AdjudicatorError as exc:
        raise Refused.of(exc, "State breaks the rules", pointer, kind=Kind.REFUSED, located=located) from None
    if to_judge and game.end is not None:
        refusal = ended_refusal(rules_of(game.board), game.end)
        raise Refused(refusal.kind, "Game over", refusal.message, pointer=f"{pointer}/end")
    return game.board, game.state
