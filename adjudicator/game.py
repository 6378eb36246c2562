"""The games on the shared machinery: Diplomacy (the standard board, the Arctic variant, any map) and three
other Arctic board games. Boards are data in `variants/`, orders go through Lark grammars in `grammar/`,
every order or step gets a status and a reason (`OrderResult`), and case files run through `adjudicator datc`.

Each game is a module exposing `RULES`, a `GameRules`, registered here by the `rules:` name its variant files
use. The shells (CLI, API, game files, case runner, variant checker) ask `rules_of(board)` once and go
through this interface: there is no other road.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from adjudicator.arrival import LineStatus, LinesRefused, SeatItem, statuses
from adjudicator.errors import AdjudicatorError, VariantError
from adjudicator.game_end import EndError, EndKind, GameEnd, PowerAtEnd
from adjudicator.outcome import OrderResult
from adjudicator.refusals import Kind
from adjudicator.scoring import Scoring, ScoringError, choose
from adjudicator.sheets import OrderT, Sheet, read_items
from adjudicator.verdict import CaseOutcome
from adjudicator.turn_report import game_result_text
from adjudicator.yamldump import dump_yaml
from adjudicator.yamlio import plain

if TYPE_CHECKING:  # (a type only: the SVG kit, with its XML imports, is loaded when a picture is drawn)
    from adjudicator.render.svg import Picture

GAMES = {
    "diplomacy": "adjudicator.games.diplomacy",
    "arctic2019": "adjudicator.games.arctic2019",
    "arctic-race": "adjudicator.games.arctic_race",
    "arctica": "adjudicator.games.arctica",
}

# Optional capabilities a game may declare (GameRules.capabilities).
LEGAL_ORDERS = "legal-orders"
PICTURES = "pictures"
TEXT_CASES = "text-cases"  # DATC plain-text case files (the other games write YAML cases)
RULE_OPTIONS = "rule-options"  # DATC chapter 4 answers as data (adjudicator/games/diplomacy/rulebook.py)
ENVIRONMENT = "environment"  # a PettingZoo ParallelEnv (adjudicator/env.py)

# The kinds of phase a game's per-phase-kind deadline durations are keyed by (GameRules.phase_kind).
PHASE_KINDS = ("movement", "retreat", "adjustment")


class NotAvailable(AdjudicatorError):
    """A capability the game does not have (legal-order lists, pictures)."""

    kind = Kind.REFUSED


class BoardLike(Protocol):
    """What the shells read of any game's board: its variant's name, its title, the rules it is played by."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def rules(self) -> str: ...


class Judged(Protocol):
    """What judging a turn gives, in every game: a report line per order or step, the next state, and the
    report as JSON-ready data."""

    @property
    def report(self) -> list[OrderResult]: ...

    @property
    def next_state(self) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


BoardT = TypeVar("BoardT", bound=BoardLike)  # the game's board
StateT = TypeVar("StateT")  # the game's position
ResultT = TypeVar("ResultT", bound=Judged)  # what judging a turn gives (a GameResult, Diplomacy's PhaseResult)


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


class GameRules(Generic[BoardT, StateT, OrderT, ResultT]):
    """What every game provides, on its own board, state, order and result types; the defaults serve games
    whose turns are a `GameResult`."""

    name: str = ""
    capabilities: frozenset[str] = frozenset()
    game_steps: bool = True  # whether the game has steps that are no seat's (`melt`, `end of turn`): a GM's
    scored_by_centres: bool = False  # whether the centre-based scoring systems (scoring.yaml) score its ends
    year_word: str = ""  # what `game_year` counts when it is no year, as an end is told ("round 3")

    # --- boards and states -------------------------------------------------------------------------------
    def load_board(self, data: dict[str, Any], source: str | None) -> BoardT:
        """Board (with `name`, `title`, `rules` attributes) from the variant file's data."""
        raise NotImplementedError

    def initial_state(self, board: BoardT) -> StateT:
        """A starting position."""
        raise NotImplementedError

    def new_game(self, board: BoardT, seed: int | None = None, setup_text: str | None = None,
                 file: str | None = None) -> StateT:
        """A new game (`adjudicator new`): a game with random set-up shuffles by `seed`, or lays out the table a
        set-up sheet describes; a game without either refuses them with a clear error."""
        if seed is not None or setup_text is not None:
            what = "--seed" if seed is not None else "--setup"
            raise NotAvailable(f"{board.title} starts from its board's opening position; {what} does not apply "
                               f"(it is for games set up by shuffling, such as arctic-race)")
        return self.initial_state(board)

    def state_from_data(self, board: BoardT, data: dict[str, Any], file: str | None) -> StateT:
        """A state from game-file data (without `variant`); a StateError names the line or JSON pointer."""
        raise NotImplementedError

    def state_to_data(self, board: BoardT, state: StateT) -> dict[str, Any]:
        """The state as plain data (the game file's structure without `variant`)."""
        raise NotImplementedError

    def check_board(self, data: dict[str, Any], source: str) -> list[AdjudicatorError]:
        """Every problem of a variant file's data, each with its line (`adjudicator variant check`)."""
        try:
            self.load_board(data, source)
        except AdjudicatorError as exc:
            return [exc]
        return []

    def board_json(self, board: BoardT) -> dict[str, Any]:
        """The board as JSON for `GET /v1/variants/{name}`."""
        return {"name": board.name, "title": board.title, "rules": board.rules, "data": plain(getattr(board, "raw", {}))}

    def phase_name(self, state: StateT) -> str | None:
        """The current phase or turn in words, when the game has one."""
        return None

    def players(self, board: BoardT, state: StateT) -> list[str]:
        """The powers or players who hold a seat at the table (the board's powers, else the state's players)."""
        return list(getattr(board, "powers", None) or getattr(state, "players", None) or [])

    def actors(self, board: BoardT, state: StateT) -> list[str]:
        """Who must act in the current phase, in the order their orders are judged: by default the state's turn
        order when it keeps one (`turn_order`), else every player."""
        order = getattr(state, "turn_order", None)
        return list(order) if order else self.players(board, state)

    def choosers(self, board: BoardT, state: StateT) -> list[str]:
        """Those who must act and have a choice to make (a power whose only order is forced, such as a disband
        with no retreat, has none): whoever sends nothing of these missed the phase (NMR). By default, `actors`."""
        return self.actors(board, state)

    def submission_state(self, board: BoardT, state: StateT, seat: str) -> StateT:
        """The position one seat's orders are checked against when they arrive alone (hosted games): the current
        one, unless the game takes turns, when it is that seat's turn."""
        return state

    def void_known_on_arrival(self, board: BoardT, state: StateT, seat: str, order: OrderT) -> bool:
        """Whether an order of one seat's, judged alone when it arrives (hosted games) and found `void`, is void
        whatever the other seats order; by default not: their orders are secret, so it is shown as `ok`."""
        return False

    def line_statuses(self, board: Any, state: Any, seat: str, lines: list[str]) -> list[LineStatus]:
        """Each of `seat`'s lines as it stands when it arrives alone, the other seats' orders unseen (hosted
        games; seat '' for the game master's steps): unreadable, illegal, ignored, void whatever the others
        order, or ok; LinesRefused when the lines cannot be checked at all. The board is not judged: the game's
        `arrival_report` says what its check finds."""
        state = self.submission_state(board, state, seat)
        sheet = self.read_order_lists(board, state, {seat: lines})
        if sheet.refusal:
            raise LinesRefused(sheet.refusal)
        report = self.arrival_report(board, state, seat, sheet) if sheet.orders else []
        return statuses(lines, sheet, report, seat,
                        lambda order: self.void_known_on_arrival(board, state, seat, order))

    def seat_items(self, board: Any, state: Any, seat: str, text: str) -> list[SeatItem]:
        """A seat's orders sent as sheet text (a hosted game's text body), split as the game's sheet reader splits
        a sheet: each line that holds an order is one item of the seat, numbered by its line; blank and comment
        lines are none. By default a line holds one order or step and `#` starts a comment (the Arctic games'
        sheets); a game whose sheets have headers reads them (Diplomacy)."""
        return [SeatItem(number, raw.strip()) for number, raw in enumerate(text.splitlines(), 1)
                if raw.split("#", 1)[0].strip()]

    def arrival_report(self, board: Any, state: Any, seat: str, sheet: Sheet[Any]) -> list[OrderResult]:
        """The report lines of one seat's read orders that can be written before the others' orders are known:
        each refused or void order's, with its reason (other lines may be there too, with any other status).
        By default the game's own check of the seat's steps, which is its turn played on them alone: the
        Arctic games' steps are checked one after another, each on the position the steps before it leave,
        and no other seat's orders take part (Diplomacy checks without judging the board)."""
        return self.adjudicate(board, state, sheet).report

    # --- order sheets ------------------------------------------------------------------------------------
    def read_sheet(self, board: BoardT, state: StateT | None, text: str, file: str | None = None) -> Sheet[OrderT]:
        """Orders and located problems from sheet text: a bad line is reported, the others are read (`state`
        None: read without a position, as `/v1/orders/parse` does and the check for another board's sheet)."""
        raise NotImplementedError

    def read_order_lists(self, board: BoardT, state: StateT | None, orders: dict[str, list[str]]) -> Sheet[OrderT]:
        """Orders given as lists per power or player (the API's second form; key '' for the steps that are no
        seat's, a game master's), in that order: each item read alone as one order of its key, never joined into
        sheet text with another (`sheets.read_items`); each problem points at its item (`/Red/1`)."""
        return read_items(orders, lambda seat, text, number: self.read_item(board, state, seat, text, number))

    def read_item(self, board: BoardT, state: StateT | None, seat: str, text: str, number: int) -> OrderT:
        """One list item as one order of `seat` ('': a step that is no seat's); an OrderError when it is not one
        order, or is another seat's or the game master's."""
        raise NotImplementedError

    def order_json(self, order: OrderT) -> dict[str, Any]:
        """A read order or step as JSON: its kind, its text and its fields."""
        import dataclasses


        record: object = order
        fields: dict[str, Any] = {}
        if dataclasses.is_dataclass(record) and not isinstance(record, type):  # (an instance: `asdict` takes no class)
            fields = plain(dataclasses.asdict(record))
        return {"kind": type(order).__name__, "text": str(getattr(order, "text", "") or order), **fields}

    def read_order_objects(self, board: BoardT, state: StateT | None, objects: list[Any]) -> Sheet[OrderT]:
        """Orders given as data (objects, no text), each bad object a problem located by a JSON pointer."""
        raise NotAvailable(f"orders as objects are read for Diplomacy variants, not for {board.title}; "
                           "send the orders as text")

    def text_cases(self, path: str | Path, rules: str | None = None) -> list[CaseOutcome]:
        """The outcomes of a DATC plain-text case file's cases (games with TEXT_CASES)."""
        raise NotAvailable(f"{path}: DATC plain-text case files are Diplomacy's; {self.name} cases are YAML")

    # --- judging -----------------------------------------------------------------------------------------
    def adjudicate(self, board: BoardT, state: StateT, sheet: Sheet[OrderT]) -> ResultT:
        """Resolve the sheet's orders (refused steps change nothing); the result has `next_state`."""
        raise NotImplementedError

    def history_entry(self, state: StateT, sheet: Sheet[OrderT], result: ResultT) -> dict[str, Any]:
        """What the game file's history keeps of a turn."""
        return {"orders": sheet.text, "results": [r.to_json() for r in result.report]}

    def report_json(self, board: BoardT, state: StateT, sheet: Sheet[OrderT], result: ResultT) -> dict[str, Any]:
        """The turn's report as JSON-ready data (without the next state)."""
        data = result.to_json()
        data["sheet_problems"] = [p.to_json() for p in sheet.problems]
        data["notes"] = list(sheet.notes)
        return data

    def drawn(self, board: BoardT, state: StateT, sheet: Sheet[OrderT], result: ResultT) -> Any:
        """The turn's orders and outcomes as its picture draws them, JSON-ready (`render` takes it as `results`; a
        hosted phase keeps it to draw the phase later); None for a game whose pictures draw no turn."""
        return None

    def report_text(self, board: BoardT, state: StateT, sheet: Sheet[OrderT], result: ResultT) -> str:
        """The turn's report as a game master mails it."""
        return game_result_text(board, result, sheet)

    def position_text(self, board: BoardT, state: StateT) -> str:
        """`adjudicator show`: the position in text."""
        return f"{board.title}\n\n" + dump_yaml({"variant": board.name, **self.state_to_data(board, state)})

    # --- the game's end -----------------------------------------------------------------------------------
    def phase_kind(self, state: StateT) -> str:
        """The kind of the current phase, one of PHASE_KINDS (what per-phase-kind deadlines are keyed by); a
        game without movement, retreat and adjustment phases is always at "movement"."""
        return "movement"

    def game_year(self, state: StateT) -> int | None:
        """The game year of the current phase (Diplomacy's phase year; the Arctic games: their turn or round
        number, from 1); None for a game that counts neither."""
        return None

    def survivors(self, board: BoardT, state: StateT) -> list[str]:
        """The powers or players still in the game (who votes on a draw), in the board's order: by default every
        player (a game in which no one is eliminated)."""
        return self.players(board, state)

    def natural_end(self, board: BoardT, state: StateT) -> GameEnd | None:
        """The end the rules themselves reach at this position (Diplomacy: a solo), else None."""
        return None

    def game_result(self, board: BoardT, state: StateT) -> Mapping[str, Any] | None:
        """A game without centres: its own result at this position, `{points: {player: n}, ranking: [...]}`
        (the ranking best first, tied players in a nested list), what its ends record; None for a game with
        centres (its ends record them)."""
        return None

    def result_end(self, board: BoardT, state: StateT, kind: EndKind, powers: Sequence[str]) -> GameEnd:
        """An end of a game without centres at this position: each player at 0 centres, the year its turn or
        round (from 1), its own result (`game_result`)."""
        result = self.game_result(board, state)
        if result is None:
            raise NotImplementedError(f"{self.name}: a game with centres makes its ends itself")
        players = self.players(board, state)
        year = self.game_year(state) or 1
        survivors = self.survivors(board, state)
        standing = tuple(PowerAtEnd(p, 0, None if p in survivors else year) for p in players)
        return GameEnd(kind, tuple(powers), standing, year, 1, 0, 0, result)

    def end_as(self, board: BoardT, state: StateT, kind: EndKind, powers: Sequence[str] = ()) -> GameEnd:
        """The end declared at this position: a draw (no powers given: every survivor, DIAS), a concession to one
        power, stopped or abandoned (a solo only where the rules reach one); an EndError naming what is wrong
        (a power not in the game, an eliminated one, a solo where there is none). By default the end of a game
        without centres: each player at 0 centres, the game's own result (`game_result`)."""
        if not isinstance(kind, EndKind):
            raise EndError(f"the end's kind must be one of {', '.join(k.value for k in EndKind)}, not {kind!r}")
        if not self.players(board, state):
            raise EndError(f"the game of {board.title} has no players yet (it is at its set-up): there is no game "
                           "to end")
        named = self.named_powers(board, state, kind, powers)
        reached = self.natural_end(board, state)
        if kind is EndKind.SOLO:
            if reached is None or reached.kind is not EndKind.SOLO or (named and tuple(named) != reached.powers):
                raise EndError(f"no power has won {board.title} at this position: declare a draw, a concession, "
                               "or stopped")
            return reached
        return self.result_end(board, state, kind, named)

    def named_powers(self, board: BoardT, state: StateT, kind: EndKind, powers: Sequence[str]) -> list[str]:
        """The powers an end declared at this position names, by the board's names: a draw with none names every
        survivor (DIAS); an EndError for a name not in the game or not surviving, listing the valid names."""
        survivors = self.survivors(board, state)
        named: list[str] = []
        for given in powers:
            name = self.power_named(board, state, str(given).strip())
            if name not in survivors:
                year = self.eliminated_in(state, name)
                raise EndError(f"{name} is out of the game (eliminated{f' in {year}' if year is not None else ''}); "
                               f"the survivors: {', '.join(survivors)}")
            if name in named:
                raise EndError(f"{name} is named twice")
            named.append(name)
        if kind is EndKind.DRAW and not named:
            named = list(survivors)
        if kind is EndKind.DRAW and len(named) < 2:
            raise EndError(f"a draw names at least two survivors (one alone is a concession); the survivors: "
                           f"{', '.join(survivors)}")
        if kind is EndKind.CONCESSION and len(named) != 1:
            raise EndError(f"a concession names the one power conceded to, not {len(named)}; the survivors: "
                           f"{', '.join(survivors)}")
        if kind in (EndKind.STOPPED, EndKind.ABANDONED) and named:
            raise EndError(f"a {kind.value} game names no powers (it is scored as a draw of every survivor)")
        return named

    def power_named(self, board: BoardT, state: StateT, given: str) -> str:
        """The power or player a name given for an end names (any case); an EndError listing the valid names."""
        players = self.players(board, state)
        found = next((p for p in players if p.lower() == given.lower()), None)
        if found is None:
            raise EndError(f"{given!r} is not a power of the game; the powers: {', '.join(players)}")
        return found

    def eliminated_in(self, state: StateT, power: str) -> int | None:
        """The year a power was eliminated in, when the game records it."""
        return None

    def scores(self, end: GameEnd, scoring: Scoring | None) -> dict[str, Fraction]:
        """Each power's score at `end`: a game scored by centres by `scoring` (None: draw size); a game without
        centres by its own result's points, a scoring system refused (it counts centres)."""
        if self.scored_by_centres:
            return (scoring or choose("draw-size")).scores(end)
        if scoring is not None:
            raise ScoringError(f"{self.name} is scored by its own result (points and ranking), not by "
                               f"{scoring.name}: the scoring systems count supply centres, which only Diplomacy "
                               "boards have")
        points = (end.result or {}).get("points") or {}
        return {p.name: Fraction(str(points[p.name])) for p in end.standing if p.name in points}

    # --- optional capabilities ---------------------------------------------------------------------------
    def play_by(self, board: BoardT, state: StateT, *texts: str | None, what: str = "rules") -> None:
        """Play the game by rule options (`1971`, `2000, 4.A.2: szykman`), each text over the rules in force."""
        if any(t is not None for t in texts):
            raise NotAvailable(f"{what}: rule options are Diplomacy's; {board.title} has none")

    def legal_orders(self, board: BoardT, state: StateT, power: str | None, parts: bool = False) -> dict[str, Any]:
        """Every legal order of each unit of a power (or of all), for bots that offer buttons; `parts`: each order's
        parts too (its unit, target, destination...), for a page that picks orders on the map."""
        raise NotAvailable(f"legal-order lists are not available for {board.title}; see its rules file")

    def parallel_env(self, board: BoardT, **options: Any) -> Any:
        """The game as a PettingZoo ParallelEnv (`adjudicator.env.parallel_env`; games with ENVIRONMENT)."""
        raise NotAvailable(f"the research environment (adjudicator.env) plays Diplomacy boards, not {board.title}")

    def picture(self, board: BoardT, state: StateT, results: Any) -> Picture:
        """The board as a picture, with a turn's report drawn when given (games with PICTURES)."""
        raise NotAvailable(f"board pictures are not drawn for {board.title}")

    def render(self, board: BoardT, state: StateT, results: Any, fmt: str, width: int) -> bytes | str:
        """The board picture: SVG text, or PNG bytes `width` pixels wide (the SVG rasterised)."""
        if fmt not in ("png", "svg"):
            raise NotAvailable(f"unknown picture format {fmt!r}; use png or svg")
        picture = self.picture(board, state, results)
        if fmt == "svg":
            return picture.svg()
        from adjudicator.render.raster import png_from_picture  # (the rasteriser: loaded for a PNG only)

        return png_from_picture(picture, width)


def ranked_by_points(points: Mapping[str, int], order: Sequence[str]) -> list[Any]:
    """Players best first by points (in `order` among equals), the tied in a nested list: a result's ranking
    for a game whose rules share the victory among the tied (2019: The ARCTIC, Arctica's last tie-break)."""
    out: list[Any] = []
    for value in sorted(set(points.values()), reverse=True):
        tied = [p for p in order if points.get(p) == value]
        out.append(tied[0] if len(tied) == 1 else tied)
    return out


def end_by_ranking(ranking: Sequence[Any]) -> tuple[EndKind, tuple[str, ...]]:
    """The end a game's final ranking gives: a solo of its first (the winner), or a draw of the players tied
    first (who share the victory)."""
    first = ranking[0]
    return (EndKind.DRAW, tuple(first)) if isinstance(first, list) else (EndKind.SOLO, (str(first),))


# The rules of some game, for a shell that serves every game (which one is known only at run time).
AnyRules = GameRules[Any, Any, Any, Any]


def get_rules(name: str, source: str | None = None) -> AnyRules:
    """The rules of a game named by a variant's `rules:` key."""
    if name not in GAMES:
        raise VariantError(f"unknown rules {name!r}; known: {', '.join(GAMES)}", file=source)
    rules: AnyRules = importlib.import_module(GAMES[name]).RULES
    return rules


def rules_of(board: object) -> AnyRules:
    """The rules a loaded board is played by."""
    return get_rules(getattr(board, "rules", "diplomacy"))
