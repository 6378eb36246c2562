"""Hosted games: create, authenticate, secret orders, readiness, and adjudication exactly once.

Long file: every operation of a hosted game keeps one discipline (the game's row lock, the phase a write names,
judgement exactly once) in one transaction; what is not an operation is apart (storage, text, orders, tokens,
webhooks, limits, tick).

Exactly once: a phase is judged inside one transaction that first locks the game's row (`SELECT ... FOR UPDATE`
on PostgreSQL; SQLite's write lock, taken at BEGIN), re-reads the submissions, writes the judged phase (unique
per game and phase number), moves the game on with a compare-and-set on its phase number, clears the
submissions and queues the webhook. Two racing requests or two server processes: the second finds the phase
number moved on and does nothing. A crash before the commit leaves the previous phase, orders and all.
"""

from __future__ import annotations

import functools
import secrets
import time
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import BindParameter, CursorResult, bindparam, delete, insert, null, select, update
from sqlalchemy.orm import Session

from adjudicator import arrival
from adjudicator.errors import AdjudicatorError
from adjudicator.gamefile import game_to_data
from adjudicator.game import PICTURES, NotAvailable, rules_of
from adjudicator.game_end import EndError, EndKind, GameEnd
from adjudicator.hosted import ending, messages as talk, seats as seating, text, tokens, votes, wake, webhooks
from adjudicator.hosted.drawings import DatabaseShelf
from adjudicator.hosted.egress import url_problem
from adjudicator.hosted.errors import HostedError
from adjudicator.hosted.imported import ImportedPhase, imported_rows
from adjudicator.hosted.limits import Limits, RateLimiter
from adjudicator.hosted.models import Counter, Game, Message, PhaseRecord, Seat, Submission, iso
from adjudicator.hosted.orders import GM, Refused, judge_submission, read_orders
from adjudicator.hosted.settings import Settings
from adjudicator.hosted.storage import Store, upsert_on
from adjudicator.kept import Kept
from adjudicator.loading import board_of, position_of
from adjudicator.pictures import Job, spaces_of
from adjudicator.refusals import Kind
from adjudicator.turn import SheetRefused, play_turn

__all__ = ["Caller", "HostedError", "Opened", "Service", "Settings"]
GAME_MASTER = "game master"  # who gave the game master's steps, or a seat's orders the game master gave


@dataclass(frozen=True)
class Caller:
    """Who a token belongs to: the game master (power None) or a power's seat."""

    game_id: str
    power: str | None

    @property
    def gm(self) -> bool:
        """Whether the caller is the game master."""
        return self.power is None

    @property
    def seat_key(self) -> str:
        """The submission key of the caller (the game master's game steps use GM)."""
        return GM if self.power is None else self.power


@dataclass
class Opened:
    """One request's session and the game its token check read: the request's statements share one connection
    and one transaction. With `shared`, the game's row is locked FOR SHARE until the commit, so no judgement
    moves the phase under a submission. The service commits before any judgement (which takes a transaction
    and a lock of its own) and when it refuses a request (the rate limit's count is kept)."""

    session: Session
    game: Game | None = None
    shared: bool = False
    away: bool = False  # the caller's seat missed movement phases in a row or is in civil disorder (the token
    # check reads it): orders of its own bring it back


def _position(game: Game, data: dict[str, Any]) -> tuple[Any, Any]:
    """A stored position of the game (current, or before or after a judged phase) on the game's board: its
    inline board when it was created with one, else the shipped variant."""
    return position_of(board_of(game.variant, game.board), data)


def _board_state(game: Game) -> tuple[Any, Any]:
    return _position(game, game.state)


class Positions(Kept):
    """A bounded cache (least recently used first out) of games' current positions, parsed: keyed by the game,
    its creation time and its phase number, which every change of its position moves on (a judgement is the
    only writer of `state`), so an entry is never stale. The rules never change a position in place (each
    game's adjudication works on a copy), so an entry may be shared by requests."""

    def __init__(self, size: int = 256):
        super().__init__(size)

    def get(self, game: Game) -> tuple[Any, Any]:  # type: ignore[override]
        """(board, state) of the game's current position."""
        return super().get((game.id, game.created_at, game.phase_no), lambda: _board_state(game))


def _stored_state(board: Any, state: Any) -> tuple[dict[str, Any], list]:
    """The position as stored on the game (history lives in the judged phases) and its history."""
    data = game_to_data(board, state)
    history = data.pop("history", None) or []
    return data, history


MAX_DEADLINE_SECONDS = 31_536_000  # a year: the longest `phase_seconds` a game may be created with
MAX_HOLDERS = 100  # a seat's players, first and replacements (its history stays bounded)


def _iso(t: float | None) -> str | None:
    return None if t is None else iso(t)


class Service:
    """The hosted-games service over one store (shared by the API, the CLI's `games tick` and the tests)."""

    def __init__(self, store: Store, limits: Limits | None = None, policy: webhooks.Policy | None = None,
                 clock=time.time, background: bool = True):
        """`background`: webhooks are sent by a thread of their own (a server); without, `tick` sends them."""
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock
        self.policy = policy or webhooks.Policy()
        self.deliverer = webhooks.Deliverer(store, self.policy, clock, background)
        self.drawings = DatabaseShelf(store)  # the boards' drawings, computed once for every process on the database
        self.positions = Positions()
        self.rates = RateLimiter(store, clock)  # (the seats' sends: in the database, as every rate limit)

    # --- games ---------------------------------------------------------------------------------------------
    def create_game(self, variant: str | None, name: str | None = None, labels: dict[str, str] | None = None,
                    seats: list[str] | None = None, settings: dict[str, Any] | None = None,
                    webhook_url: str | None = None, state: dict[str, Any] | None = None,
                    inline_board: dict[str, Any] | None = None, rules_text: str | None = None,
                    bots: list[str] | None = None, imported: list[ImportedPhase] | None = None,
                    imported_end: GameEnd | None = None,
                    imported_messages: list[talk.ImportedMessage] | None = None) -> dict[str, Any]:
        """A new game on a variant or an inline board (played by `rules_text`'s rule options, fixed now: they
        are kept in its position); `bots`: the seats a bot plays, shown to all; `imported`: the phases a recorded
        game played before `state` (kept as judged phases), `imported_end` its end and `imported_messages` its
        messages; the answer holds every token, shown this once."""
        text.storable(inline_board, "/board")
        text.storable(state, "/state")
        board = board_of(str(variant or ""), inline_board, located=False)  # (inline: checked as `variant check` checks)
        if inline_board is not None:  # kept as the game's variant and in its name: a database column's bounds
            text.printable(board.name, "the board's name", "/board/name", self.limits.max_label)
            text.printable(board.title, "the board's title", "/board/title", self.limits.max_name - len(" game"))
        rules = rules_of(board)
        if state is None:
            position = _new_position(rules, board)
        else:
            _, position = position_of(board, {**state, "variant": board.name}, located=False,
                                      to_judge=imported_end is None)
        if imported and len(imported) >= self.limits.max_phases:
            raise HostedError(Kind.TOO_LARGE, "Record too long", f"the record has {len(imported)} phases; a hosted "
                              f"game is judged at most {self.limits.max_phases} times", pointer="/record/phases")
        try:
            rules.play_by(board, position, rules_text)
        except AdjudicatorError as exc:
            raise HostedError(Kind.BAD_INPUT, "Bad request", exc.message, pointer="/rules") from None
        powers = self._seats(board, position, seats)
        labels = dict(labels or {})
        for power, label in labels.items():
            if power not in powers:
                shown = text.printable(power, "a label's power", "/labels", self.limits.max_label)
                raise HostedError(Kind.BAD_INPUT, "Bad request",
                                  f"{shown!r} has no seat in this game; seats: {', '.join(powers)}",
                                  pointer=f"/labels/{shown}")
            labels[power] = text.printable(label, f"the label of {power}", f"/labels/{power}", self.limits.max_label)
        name = (f"{board.title} game" if name is None
                else text.printable(name, "the name", "/name", self.limits.max_name))
        options = Settings.from_json(settings)
        self._check_imported_messages(options, imported_messages or [])
        self._check_scoring(board, position, options, settings)
        bot_seats = self._bots(powers, bots)
        self._check_url(webhook_url)
        data, _ = _stored_state(board, position)
        now = self.clock()
        past = imported_rows(board, imported or [], now)
        judged = len(past)
        end_data = None if imported_end is None else ending.end_json(board, imported_end, options.scoring_system(),
                                                                     judged, "record", now)
        gm_token = tokens.new_token()
        seat_tokens = {p: tokens.new_token() for p in powers}
        game = Game(id=tokens.new_id(), name=name, variant=board.name, board=inline_board, settings=options.to_json(),
                    state=data, phase_no=judged, phase_name=self._phase_name(board, position, judged),
                    status="active" if end_data is None else "ended", end=end_data,
                    deadline_at=None if end_data else options.deadline(rules.phase_kind(position), now),
                    gm_token_hash=tokens.token_hash(gm_token), webhook_url=webhook_url,
                    webhook_secret=secrets.token_urlsafe(32), created_at=now, phase_started_at=now, pauses=0,
                    grace_used=False, extensions_used=0, reminded=False, messages=0)
        game.wake_at = wake.wake_of(game, options)
        with self.store.transaction() as session:
            # One counter row, not a count of every game: the cost does not grow with the games stored.
            counted = cast(CursorResult[Any], session.execute(update(Counter).values(value=Counter.value + 1).where(
                Counter.name == "games", Counter.value < self.limits.max_games)))  # (an UPDATE's: it counts rows)
            if counted.rowcount != 1:
                raise HostedError(Kind.FULL, "Storage full",
                                  f"this service holds its limit of {self.limits.max_games} games")
            session.add(game)
            session.flush()
            for i, power in enumerate(powers):
                kind = "bot" if power in bot_seats else "player"
                session.add(Seat(game_id=game.id, power=power, position=i, label=labels.get(power, power),
                                 token_hash=tokens.token_hash(seat_tokens[power]), kind=kind, civil_disorder=False,
                                 missed=0, missed_in_row=0, holders=[{"from_phase": judged + 1, "kind": kind}]))
            for number, row in enumerate(past, 1):
                session.add(PhaseRecord(game_id=game.id, phase_no=number, **row))
            if imported_messages:
                session.flush()
                self._keep_imported(session, game, [row["name"] for row in past], imported_messages, now)
        return {"id": game.id, "name": name, "variant": board.name, "phase": game.phase_name, "phase_no": judged + 1,
                "game_master_token": gm_token, "tokens": seat_tokens, "webhook_secret": game.webhook_secret,
                "deadline": _iso(game.deadline_at)}

    @staticmethod
    def _check_scoring(board: Any, state: Any, options: Settings, given: dict[str, Any] | None) -> None:
        """A scoring system is chosen for a game scored by centres only (the others score by their own result)."""
        if (given or {}).get("scoring") is not None and not rules_of(board).scored_by_centres:
            raise HostedError(Kind.BAD_INPUT, "Bad request",
                              f"{board.title} is scored by its own result (points and ranking), not by "
                              f"{options.scoring_system().name}: the scoring systems count supply centres; leave "
                              "`scoring` out", pointer="/settings/scoring")

    @staticmethod
    def _bots(powers: list[str], bots: list[str] | None) -> set[str]:
        unknown = [b for b in bots or [] if b not in powers]
        if unknown:
            raise HostedError(Kind.BAD_INPUT, "Bad request", f"{str(unknown[0])[:100]!r} has no seat in this game; "
                              f"seats: {', '.join(powers)}", pointer="/bots")
        return set(bots or [])

    @staticmethod
    def _seats(board: Any, state: Any, asked: list[str] | None) -> list[str]:
        """The seats: the game's powers or players, or those the request names (games that set players up)."""
        players = rules_of(board).players(board, state)
        if not asked:
            if not players:
                raise HostedError(Kind.BAD_INPUT, "Bad request",
                                  f"{board.title} names no players before its set-up: give "
                                  "`seats`, the players' names", pointer="/seats")
            return players
        asked = [text.printable(s, f"seat {i + 1}", f"/seats/{i}", 100) for i, s in enumerate(asked)]
        if len(set(asked)) != len(asked) or len(asked) > 32:
            raise HostedError(Kind.BAD_INPUT, "Bad request",
                              "`seats` must be at most 32 different names of 1-100 characters",
                              pointer="/seats")
        unknown = [s for s in asked if players and s not in players]
        if unknown:
            raise HostedError(Kind.BAD_INPUT, "Bad request",
                              f"{', '.join(unknown)}: not a power of {board.title}; powers: "
                              f"{', '.join(players)}", pointer="/seats")
        return list(asked)

    def _check_url(self, url: str | None, pointer: str = "/webhook_url") -> None:
        if url is None:
            return
        problem = url_problem(url, self.limits.max_url, self.policy.egress)
        if problem is not None:
            raise HostedError(Kind.BAD_INPUT, "Bad request", problem, pointer=pointer)

    @staticmethod
    def _phase_name(board: Any, state: Any, judged: int) -> str:
        return rules_of(board).phase_name(state) or f"phase {judged + 1}"

    @classmethod
    def _next_name(cls, board: Any, before: Any, after: Any, judged: int) -> str:
        """The name of the phase after a judgement; where the game's own name is the same as before (a turn of
        2019: The ARCTIC or of Arctica judged in several sheets, until `end of turn` or `next turn`), it says the
        turn goes on, and which hosted phase this is, so no two phases in a row have one name."""
        name = cls._phase_name(board, after, judged)
        same = rules_of(board).phase_name(after)
        return f"{name}, continued (phase {judged + 1})" if same and same == rules_of(board).phase_name(before) else name

    # --- who is asking -------------------------------------------------------------------------------------
    def authenticate(self, game_id: str, token: str | None, opened: Opened | None = None, limit: Any = None,
                     share: bool = False) -> Caller:
        """The caller a token names (refused: unauthenticated without one, not found for an unknown game,
        forbidden for a token that is not this game's), read in `opened`'s transaction (else one of its own),
        after `limit(session)` (the rate limit, counted in the same transaction); `share`: the game's row stays
        locked FOR SHARE (a write follows)."""
        if not token:
            raise HostedError(Kind.UNAUTHENTICATED, "Unauthorized",
                              "send the game's token as `Authorization: Bearer <token>`")
        if not text.game_id(game_id):  # no database sees an id that cannot be one
            raise HostedError(Kind.NOT_FOUND, "Not found", "no such game: a game id is letters, digits, '_' and '-'")
        if opened is None:
            with self.store.sessions() as session:
                caller = self.authenticate(game_id, token, Opened(session), limit, share)
                session.commit()
                return caller
        session = opened.session
        if limit is not None:
            limit(session)
        digest = tokens.token_hash(token)
        found = self._game_and_seat(session, game_id, digest, share)
        if found is None or found[1] is None:
            session.commit()  # the rate limit's count stays
            if found is None:
                raise HostedError(Kind.NOT_FOUND, "Not found", f"no game {game_id!r}")
            raise HostedError(Kind.FORBIDDEN, "Forbidden", "this token is not one of this game's")
        game, power, opened.away = found
        if game.wake_at is not None and self.clock() >= game.wake_at:
            session.commit()  # what is due takes a transaction and a lock of its own
            try:
                self._wake(game_id)
            except HostedError:
                pass  # a phase that cannot be judged at its deadline waits for the game master; reading goes on
            found = self._game_and_seat(session, game_id, digest, share)
            if found is None or found[1] is None:  # (the seat was handed on meanwhile)
                session.commit()
                raise HostedError(Kind.FORBIDDEN, "Forbidden", "this token is not one of this game's")
            game, power, opened.away = found
        opened.game, opened.shared = game, share
        return Caller(game_id, power or None)

    @staticmethod
    def _game_and_seat(session: Session, game_id: str, digest: str,
                       share: bool) -> tuple[Game, str | None, bool] | None:
        """The game, whose the token is and whether its seat is away (`Opened.away`), in one statement: its
        seat (matched by the token's SHA-256, the hash of a 256-bit random secret: its timing says nothing
        useful), "" for the game master, None for no one; None when there is no such game."""
        query = _game_and_seat_query(share)
        row = session.execute(query, {"game_id": game_id, "digest": digest}).first()
        if row is None:
            return None
        game, power, gm, in_row, disorder = row
        return game, power if power is not None else ("" if gm else None), bool(in_row or disorder)

    @staticmethod
    def require_gm(caller: Caller) -> None:
        """Forbidden unless the caller is the game master."""
        if not caller.gm:
            raise HostedError(Kind.FORBIDDEN, "Forbidden", "only the game master may do this")

    @staticmethod
    def require_seat(caller: Caller) -> None:
        """Forbidden unless the caller holds a power's seat."""
        if caller.gm:
            raise HostedError(Kind.FORBIDDEN, "Forbidden", "only a power's token has orders and readiness")

    def _game(self, session: Any, game_id: str, lock: bool = False) -> Game:
        game = session.get(Game, game_id, with_for_update=True) if lock else session.get(Game, game_id)
        if game is None:
            raise HostedError(Kind.NOT_FOUND, "Not found", f"no game {game_id!r}")
        return game

    def _opened_game(self, opened: Opened, game_id: str, share: bool = False) -> Game:
        """The game the request's token check read (locked FOR SHARE when asked), else read now."""
        game = opened.game
        if game is not None and game.id == game_id and (opened.shared or not share):
            return game
        game = opened.game = opened.session.get(Game, game_id, with_for_update={"read": True} if share else None,
                                                populate_existing=True)
        if game is None:
            raise HostedError(Kind.NOT_FOUND, "Not found", f"no game {game_id!r}")
        opened.shared = opened.shared or share
        return game

    # --- the game as a caller may see it -------------------------------------------------------------------
    def game_view(self, caller: Caller, opened: Opened | None = None) -> dict[str, Any]:
        """The game: phase, position, seats, its pause and end; readiness only of one's own seat unless the
        settings make it public; votes as the settings show them (a secret vote: only one's own, and to the game
        master who has voted)."""
        if opened is None:
            with self.store.sessions() as session:
                return self.game_view(caller, Opened(session))
        session = opened.session
        game = self._opened_game(opened, caller.game_id)
        seats = list(session.scalars(select(Seat).where(Seat.game_id == game.id).order_by(Seat.position)))
        subs = {s.power: s for s in session.scalars(select(Submission).where(
            Submission.game_id == game.id, Submission.phase_no == game.phase_no))}
        session.commit()
        settings = Settings.from_json(game.settings)
        board, state = self.positions.get(game)
        actors = set(self._actors(board, state, [s.power for s in seats]))
        survivors = set(rules_of(board).survivors(board, state))
        out_seats = []
        for seat in seats:
            label = seat.power if settings.anonymous_seats and not (caller.gm or caller.power == seat.power) \
                else seat.label  # (anonymous: the others' labels are never shown to a seat)
            entry: dict[str, Any] = {"power": seat.power, "label": label, "must_act": seat.power in actors,
                                     "kind": seat.kind, "civil_disorder": seat.civil_disorder, "missed": seat.missed,
                                     "missed_in_row": seat.missed_in_row,
                                     "survivor": seat.power in survivors, "holders": seat.holders or []}
            if caller.gm or settings.public_readiness or caller.power == seat.power:
                sub = subs.get(seat.power)
                entry["submitted"] = bool(sub and sub.orders)
                entry["ready"] = bool(sub and sub.ready)
            if caller.power == seat.power or not settings.secret_votes:
                entry["vote"] = seat.vote
            elif caller.gm:
                entry["voted"] = seat.vote is not None
            out_seats.append(entry)
        return {"id": game.id, "name": game.name, "variant": game.variant, "status": game.status,
                "phase": game.phase_name, "phase_no": game.phase_no + 1, "phases_judged": game.phase_no,
                "deadline": _iso(game.deadline_at), "settings": settings.to_json(), "end": game.end,
                "pause": self._pause_view(game, settings), "deadline_extended": {
                    "grace": game.grace_used, "extensions": game.extensions_used},
                "you": caller.power if caller.power is not None else GAME_MASTER, "seats": out_seats,
                "state": game.state}

    @staticmethod
    def _pause_view(game: Game, settings: Settings) -> dict[str, Any]:
        return {"paused_at": _iso(game.paused_at), "resumes_at": _iso(game.paused_until),
                "deadline_left_seconds": game.paused_left, "pauses": game.pauses,
                "pauses_allowed": settings.pause.max_times}

    @staticmethod
    def _actors(board: Any, state: Any, seats: list[str]) -> list[str]:
        """Who must act, in the order their orders are judged: the rules say; a game that names none, every seat."""
        actors = [p for p in rules_of(board).actors(board, state) if p in seats]
        return actors or ([] if rules_of(board).players(board, state) else list(seats))

    # --- orders --------------------------------------------------------------------------------------------
    def submit(self, caller: Caller, orders: list[str] | str, ready: bool | None = None,
               power: str | None = None, opened: Opened | None = None, *, phase_no: int | None) -> dict[str, Any]:
        """Replace a seat's orders for phase `phase_no`, which must be the current one (the caller's own; the
        game master's steps; or, given by the game master, a named power's); each line's status as it stands on
        arrival. `orders` is a list (an order an item) or text, split as the game's sheet reader splits a sheet
        (`GameRules.seat_items`: headers, comments and blank lines are no orders; each status names its line)."""
        seat, given_by = self._submitter(caller, power, ready)
        if isinstance(orders, str):
            sheet_text: str | None = orders
            lines: list[str] = []
        else:
            sheet_text = None
            self._check_count(len(orders))
            items = (text.order_item(str(x), i, self.limits.max_order_length) for i, x in enumerate(orders, 1))
            lines = [line for line in items if line]  # stripped; blank items dropped
        if opened is None:
            with self.store.sessions() as session:
                return self.submit(caller, orders if sheet_text is not None else lines, ready, power,
                                   Opened(session), phase_no=phase_no)
        session = opened.session
        # The game's row is locked FOR SHARE from here to the commit: a judgement (FOR UPDATE) waits for this
        # write, and takes it, or came first and this request reads the next phase.
        checked = opened.game is not None  # (the token check read the seat's count in this transaction)
        game = self._opened_game(opened, caller.game_id, share=True)
        if not checked and caller.power is not None:
            seat_row = session.execute(select(Seat.missed_in_row, Seat.civil_disorder).where(
                Seat.game_id == caller.game_id, Seat.power == caller.power)).first()
            opened.away = seat_row is not None and bool(seat_row.missed_in_row or seat_row.civil_disorder)
        if power is not None and session.get(Seat, (caller.game_id, seat)) is None:
            raise HostedError(Kind.BAD_INPUT, "Bad request", f"{seat!r} has no seat in this game", pointer="/power")
        self._check_active(game)
        _check_phase(game, phase_no)
        board, state = self.positions.get(game)
        if seat == GM and lines and not rules_of(board).game_steps:
            raise HostedError(Kind.REFUSED, "No game-master steps",
                              f"{board.title} has no steps of the game master's own: "
                              'every order is a power\'s; to give a power\'s orders send {"power": "<power>", '
                              '"orders": [...]}', pointer="/orders")
        try:
            numbers: list[int] | None = None
            if sheet_text is not None:
                numbers, lines = self._sheet_items(board, state, seat, sheet_text)
            statuses = judge_submission(board, state, seat, lines) if lines else []
            if numbers is not None:  # a text's statuses name the text's own lines
                statuses = [{**s, "line": numbers[int(s["line"]) - 1]} for s in statuses]
        except Refused as exc:
            raise HostedError(Kind.REFUSED, "Orders refused",
                              exc.reason, pointer="/orders", errors=exc.problems) from None
        row = {"game_id": caller.game_id, "power": seat, "phase_no": game.phase_no, "orders": lines,
               "statuses": statuses, "given_by": given_by, "updated_at": self.clock(), "ready": bool(ready)}
        row["ready"] = bool(session.execute(_submission_upsert(self.store.sqlite, ready is None), row).scalar_one())
        if lines and given_by is None and seat != GM and opened.away:  # back: out of civil disorder (even when
            # the game master gave its orders meanwhile, which ended its row of misses but not its disorder)
            session.execute(update(Seat).where(Seat.game_id == caller.game_id, Seat.power == seat).values(
                civil_disorder=False, missed_in_row=0))
        session.commit()
        sub = Submission(**row)
        judged = self._adjudicate_if_ready(caller.game_id, game.phase_no) if sub.ready else None
        return self._orders_view(game, sub, judged)

    def _check_count(self, count: int) -> None:
        if count > self.limits.max_orders:
            raise HostedError(Kind.TOO_LARGE, "Request too large", f"{count} orders; at most {self.limits.max_orders}",
                              pointer="/orders")

    def _sheet_items(self, board: Any, state: Any, seat: str, sheet_text: str) -> tuple[list[int], list[str]]:
        """A text body's orders as the seat's items (their lines, their texts), each checked at the door."""
        try:
            found = rules_of(board).seat_items(board, state, seat, sheet_text)
        except arrival.LinesRefused as exc:
            raise Refused(exc.reason, []) from None
        self._check_count(len(found))
        limit = self.limits.max_order_length
        return [i.line for i in found], [text.sheet_line(i.text, i.line, limit) for i in found]

    @staticmethod
    def _submitter(caller: Caller, power: str | None, ready: bool | None) -> tuple[str, str | None]:
        """(the seat key the orders are for, who gave them when not the seat itself). The game master may give
        a power's orders (bots and game masters relaying mailed orders do); the phase records that it did."""
        if power is None or power == caller.power:
            return caller.seat_key, None
        if not caller.gm:
            raise HostedError(Kind.FORBIDDEN, "Forbidden",
                              f"a power's token orders for its own power only, not for {power!r}",
                              pointer="/power")
        if ready is not None:
            raise HostedError(Kind.BAD_INPUT, "Bad request",
                              "readiness is the power's own: the game master judges the phase "
                              "with POST .../adjudicate", pointer="/ready")
        return power, GAME_MASTER

    def own_orders(self, caller: Caller, opened: Opened | None = None) -> dict[str, Any]:
        """The caller's pending orders for the current phase, with the statuses they got on arrival."""
        if opened is None:
            with self.store.sessions() as session:
                return self.own_orders(caller, Opened(session))
        game = self._opened_game(opened, caller.game_id)
        sub = opened.session.get(Submission, (caller.game_id, caller.seat_key))
        opened.session.commit()
        if sub is not None and sub.phase_no != game.phase_no:
            sub = None
        return self._orders_view(game, sub, None)

    def withdraw(self, caller: Caller, *, phase_no: int | None) -> dict[str, Any]:
        """Withdraw the caller's orders (and readiness) for phase `phase_no`, which must be the current one."""
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            self._check_active(game)
            _check_phase(game, phase_no, pointer="phase_no")  # (a query parameter)
            session.execute(delete(Submission).where(Submission.game_id == caller.game_id,
                                                     Submission.power == caller.seat_key))
        return self._orders_view(game, None, None)

    def set_ready(self, caller: Caller, ready: bool, *, phase_no: int | None) -> dict[str, Any]:
        """Mark the caller ready (or not) for phase `phase_no`, which must be the current one; when every power
        that must act is ready, the phase is judged."""
        self.require_seat(caller)
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            self._check_active(game)
            _check_phase(game, phase_no)
            sub = session.get(Submission, (caller.game_id, caller.seat_key))
            if sub is None or sub.phase_no != game.phase_no:
                if sub is not None:
                    session.delete(sub)
                    session.flush()
                sub = Submission(game_id=caller.game_id, power=caller.seat_key, phase_no=game.phase_no, orders=[],
                                 statuses=[])
                session.add(sub)
            sub.ready, sub.updated_at = bool(ready), self.clock()
        judged = self._adjudicate_if_ready(caller.game_id, game.phase_no) if ready else None
        return self._orders_view(game, sub, judged)

    def _orders_view(self, game: Game, sub: Submission | None, judged: dict[str, Any] | None) -> dict[str, Any]:
        view = {"phase": game.phase_name, "phase_no": game.phase_no + 1, "orders": list(sub.statuses) if sub else [],
                "ready": bool(sub and sub.ready), "adjudicated": judged}
        if sub is not None and sub.orders:
            view["given_by"] = sub.given_by or (GAME_MASTER if sub.power == GM else sub.power)
        return view

    @staticmethod
    def _check_active(game: Game, paused_ok: bool = True) -> None:
        """Refused when the game has ended, or (unless `paused_ok`: orders and votes go on in a pause) is paused."""
        ending.refuse_ended(game)
        if game.status == "paused" and not paused_ok:
            raise HostedError(Kind.CONFLICT, "Game paused",
                              f"the game is paused (since {_iso(game.paused_at)}, until {_iso(game.paused_until)} at "
                              "the latest): the game master resumes it with POST /v1/games/{id}/resume")

    # --- adjudication --------------------------------------------------------------------------------------
    def adjudicate(self, caller: Caller, *, phase_no: int | None) -> dict[str, Any]:
        """The game master judges phase `phase_no` now, which must be the current one (so a repeated call is a
        conflict, never a second judgement)."""
        self.require_gm(caller)
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            self._check_active(game, paused_ok=False)
            _check_phase(game, phase_no)
            judged = self._judge(session, game, "gm", self.clock())
        self.deliverer.wake()
        return judged  # type: ignore[return-value]  # (a judgement the game master asks for is never put off)

    def tick(self) -> tuple[list[dict[str, Any]], webhooks.Sent]:
        """`adjudicator games tick`: judge every phase past its deadline, then send the due webhooks and wait for
        them (a phase that cannot be judged is reported in its place, not raised).

        Tickers started together share the work: each claims one due game at a time, skipping those another
        holds (`FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite has one writer, so its tickers take turns), and
        judges it in that claim's transaction. A ticker killed mid-batch loses only its open transaction, which
        the database rolls back: the game is due again for another ticker or the next tick. Deadlines that
        pass after the tick began wait for the next one (a game of one-second phases cannot keep it going)."""
        due_by, passed, judged = self.clock(), set[str](), []
        with self.store.engine.connect() as conn:  # one connection for the batch: no check-out per game
            while (done := self._judge_next_due(conn, due_by, passed)) is not None:
                judged.append(done)
        return judged, self.deliverer.run_due()

    def _judge_next_due(self, conn: Any, due_by: float, passed: set[str]) -> dict[str, Any] | None:
        """Claim and judge the game longest past its deadline that no other ticker holds (None: none left);
        one that cannot be judged is reported, and passed over for the rest of this tick."""
        # Ordered by the deadline's index alone: a tie-breaking column would sort every due game at each claim.
        claim = (select(Game).where(Game.wake_at.is_not(None), Game.wake_at <= due_by, Game.id.not_in(passed))
                 .order_by(Game.wake_at).limit(1).with_for_update(skip_locked=True))
        game_id, phase_no = "", 0  # kept apart from the game, which the rollback of a refusal expires
        try:
            with self.store.sessions(bind=conn) as session, session.begin():
                game = session.scalar(claim)
                if game is None:
                    return None
                game_id, phase_no = game.id, game.phase_no
                done = self._wake_locked(session, game, self.clock())
                if "did" in done:  # (one step a game a tick: what is due next waits for the next tick)
                    passed.add(game_id)
                return done
        except HostedError as exc:
            passed.add(game_id)
            return {"game_id": game_id, "phase_no": phase_no + 1, "refused": exc.detail}

    def _adjudicate_if_ready(self, game_id: str, judged: int) -> dict[str, Any] | None:
        return self._adjudicate(game_id, "ready", judged)

    def _adjudicate(self, game_id: str, trigger: str, expected: int) -> dict[str, Any] | None:
        """Judge phase `expected + 1` once: None when it is no longer the current phase (or the game is not
        active, or not every power is ready)."""
        with self.store.transaction() as session:
            game = self._game(session, game_id, lock=True)
            if game.phase_no != expected or game.status != "active":
                return None
            done = self._judge(session, game, trigger, self.clock())
        if done is not None:
            self.deliverer.wake()
        return done

    def _wake(self, game_id: str) -> dict[str, Any] | None:
        """Do what the game needs now that its time has come (`wake.due`), once, under its row lock."""
        with self.store.transaction() as session:
            game = self._game(session, game_id, lock=True)
            done = self._wake_locked(session, game, self.clock())
        self.deliverer.wake()
        return done

    def _wake_locked(self, session: Any, game: Game, now: float) -> dict[str, Any]:
        """What `_wake` does, on a game this transaction holds locked: a judged phase's summary, or what was done."""
        settings = Settings.from_json(game.settings)
        missing: list[str] = []
        if game.status == "active" and game.deadline_at is not None:
            missing = self._missing(session, game)
        todo = wake.due(game, settings, now, bool(missing))
        done: dict[str, Any] = {"game_id": game.id, "phase_no": game.phase_no + 1, "phase": game.phase_name,
                                "did": todo.action or "nothing"}
        if todo.action == "judge":
            return self._judge(session, game, "deadline", now) or done
        if todo.action == "resume":
            self._resume_locked(session, game, settings, now, by="pause cap")
        elif todo.action == "extend":
            game.deadline_at, game.reminded = todo.deadline, True  # (the extension's own event names who is late)
            if todo.grace:
                game.grace_used = True
            else:
                game.extensions_used += 1
            done["deadline"] = _iso(game.deadline_at)
            self._event(session, game, "deadline.extended", now, deadline=_iso(game.deadline_at),
                        grace=todo.grace, waiting_for=missing)
        elif todo.action == "remind":
            game.reminded = True
            self._event(session, game, "deadline.reminder", now, deadline=_iso(game.deadline_at),
                        waiting_for=missing)
        game.wake_at = wake.wake_of(game, settings)
        return done

    def _missing(self, session: Any, game: Game) -> list[str]:
        """The powers that must act and have a choice to make, have sent nothing, and are not in civil disorder."""
        seat_rows, subs = _seats_and_orders(session, game)
        seats = [s.power for s in seat_rows]
        board, state = self.positions.get(game)
        disorder = {s.power for s in seat_rows if s.civil_disorder}
        choosers = set(rules_of(board).choosers(board, state))
        return [p for p in self._actors(board, state, seats)
                if p in choosers and p not in disorder and not (p in subs and subs[p].orders)]

    def _event(self, session: Any, game: Game, event: str, now: float, **data: Any) -> None:
        """Queue a webhook event of the game's current phase (in this transaction: sent once it commits)."""
        webhooks.queue_event(session, game, event, game.phase_no + 1, game.phase_name, data, now)

    def _judge(self, session: Any, game: Game, trigger: str, now: float) -> dict[str, Any] | None:
        """Judge the current phase of a game this transaction holds locked; None when `trigger` is "ready" and
        not every power that must act is (a seat in civil disorder counts as ready). Then the seats' missed
        orders and civil disorder, the votes (kept or cleared), the next deadline, and the game's end when the
        rules reach one, its year limit passes, or every survivor is in civil disorder."""
        if game.phase_no >= self.limits.max_phases:
            raise HostedError(Kind.CONFLICT, "Game too long",
                              f"a hosted game is judged at most {self.limits.max_phases} times")
        seat_rows, subs = _seats_and_orders(session, game)
        seats = [s.power for s in seat_rows]
        board, state = _board_state(game)
        rules = rules_of(board)
        actors = self._actors(board, state, seats)
        disorder = {s.power for s in seat_rows if s.civil_disorder}
        if trigger == "ready" and not all(p in disorder or (p in subs and subs[p].ready) for p in actors):
            return None
        order = actors + [p for p in seats if p not in actors] + [GM]
        orders = {p: list(subs[p].orders) for p in order if p in subs and subs[p].orders}
        given_by = {_shown(p): subs[p].given_by or _shown(p) for p in orders}
        try:
            turn = play_turn(board, state, read_orders(board, state, orders))
        except SheetRefused as exc:
            raise HostedError(Kind.CONFLICT, "Orders refused", f"the phase's orders cannot be judged together: "
                              f"{exc.message}") from None
        settings = Settings.from_json(game.settings)
        after, history = _stored_state(board, turn.next_state)
        report = turn.report_json()
        next_name = self._next_name(board, state, turn.next_state, game.phase_no + 1)
        seated = seating.after_phase([seating.SeatCount(s.power, s.missed, s.missed_in_row, s.civil_disorder)
                                      for s in seat_rows], rules.choosers(board, state), set(orders),
                                     rules.phase_kind(state) == "movement", settings.disorder_after)
        end, by = self._end_after(board, turn.next_state, settings, seated, seat_rows)
        status = "ended" if end is not None else "active" if game.status == "active" else game.status
        deadline = None if end is not None else settings.deadline(rules.phase_kind(turn.next_state), now)
        conn = session.connection()  # plain statements: the ORM's unit of work is most of a judgement's cost
        end_data = None if end is None else ending.end_json(board, end, settings.scoring_system(),
                                                            game.phase_no + 1, by, now)
        moved = conn.execute(update(Game).where(Game.id == game.id, Game.phase_no == game.phase_no).values(
            state=after, phase_no=game.phase_no + 1, phase_name=next_name, status=status, phase_started_at=now,
            deadline_at=deadline, grace_used=False, extensions_used=0, reminded=False, end=end_data,
            wake_at=wake.next_wake(settings, status, deadline, now, paused_until=game.paused_until)))
        if moved.rowcount != 1:  # the compare-and-set: someone else moved the game on (cannot under the lock)
            raise HostedError(Kind.CONFLICT, "Already judged",
                              f"phase {game.phase_no + 1} was judged by another request")
        conn.execute(delete(Submission).where(Submission.game_id == game.id))
        self._record_seats(conn, game, seated, settings)
        record = PhaseRecord(game_id=game.id, phase_no=game.phase_no + 1, name=game.phase_name, trigger=trigger,
                             orders={_shown(p): v for p, v in orders.items()}, given_by=given_by,
                             report=report, report_text=turn.report_text(), state_before=game.state,
                             state_after=after, history=history[-1] if history else None, adjudicated_at=now,
                             drawn=turn.drawn(), missed=seated.missed)
        conn.execute(insert(PhaseRecord).values(_columns(record)))
        _before_commit(session, game, record, next_name, status, now, end_data)
        for power in seated.into_disorder:
            webhooks.queue_event(session, game, "seat.disorder", record.phase_no + 1, next_name,
                                 {"power": power, "missed_in_row": settings.disorder_after}, now)
        return self._phase_json(record, full=False) | {"next_phase": next_name, "status": status, "end": end_data}

    def _end_after(self, board: Any, state: Any, settings: Settings, seated: seating.AfterPhase,
                   seat_rows: list[Any]) -> tuple[GameEnd | None, str]:
        """The end a judged phase reaches, and what reached it: the rules (a solo...), the year limit, or every
        survivor in civil disorder."""
        rules = rules_of(board)
        natural = rules.natural_end(board, state)
        if natural is not None:
            return natural, "rules"
        year = rules.game_year(state)
        if settings.end_year is not None and year is not None and year > settings.end_year:
            return rules.end_as(board, state, EndKind.STOPPED), "year limit"
        disorder = {s.power for s in seat_rows if s.civil_disorder} | set(seated.into_disorder)
        survivors = [p for p in rules.survivors(board, state) if p in {s.power for s in seat_rows}]
        if survivors and all(p in disorder for p in survivors):
            return rules.end_as(board, state, EndKind.ABANDONED), "civil disorder"
        if settings.votes_survive_phase:  # the votes the phase leaves may agree now (a holdout in disorder)
            tally = {s.power: votes.Vote.from_json(s.vote) for s in seat_rows}
            agreed = votes.outcome(tally, survivors, disorder, settings.disorder_votes == "yes")
            if agreed is not None:
                return rules.end_as(board, state, agreed[0], agreed[1]), "votes"
        return None, ""

    @staticmethod
    def _record_seats(conn: Any, game: Game, seated: seating.AfterPhase, settings: Settings) -> None:
        """Write the seats' new counts, and drop every vote when the settings say votes end with the phase."""
        if seated.changed:  # one statement, its rows sent together (executemany)
            conn.execute(_seat_counts_update(), [
                {"g": game.id, "p": seat.power, "m": seat.missed, "r": seat.missed_in_row, "d": seat.civil_disorder}
                for seat in seated.changed])
        if not settings.votes_survive_phase:
            conn.execute(update(Seat).where(Seat.game_id == game.id, Seat.vote.is_not(None)).values(vote=null()))

    # --- past phases ---------------------------------------------------------------------------------------
    def phases(self, caller: Caller) -> list[dict[str, Any]]:
        """Every judged phase, oldest first."""
        with self.store.sessions() as session:
            rows = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == caller.game_id)
                                   .order_by(PhaseRecord.phase_no))
            return [self._phase_json(r, full=False) for r in rows]

    def history(self, caller: Caller) -> tuple[Any, Any, list[dict[str, Any]], GameEnd | None, str | None]:
        """(board, position now, each judged phase as a game file's history entry keeps it: its name, orders and
        the position it was judged from; the end and its scoring system) for writing the game out as a record."""
        with self.store.sessions() as session:
            game = self._game(session, caller.game_id)
            rows = session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == caller.game_id)
                                   .order_by(PhaseRecord.phase_no))
            entries = [{"phase": r.name, "position": r.state_before,
                        "orders": {p: list(o) for p, o in r.orders.items() if p != _shown(GM)}} for r in rows]
        board, state = _board_state(game)
        end = None if game.end is None else GameEnd.from_json(game.end["record"])
        return board, state, entries, end, None if game.end is None else game.end.get("scoring")

    def phase(self, caller: Caller, phase_no: int) -> dict[str, Any]:
        """A judged phase: every power's orders, the results, the position before and after."""
        return self._phase_json(self._record(caller, phase_no)[1], full=True)

    def phase_text(self, caller: Caller, phase_no: int) -> str:
        """The judge's report of a phase as a game master mails it, and the position after it."""
        game, record = self._record(caller, phase_no)
        board, state = _position(game, record.state_after)
        given = sorted(p for p, who in (record.given_by or {}).items() if who == GAME_MASTER and p != GAME_MASTER)
        note = f"\n\nOrders given by the game master for: {', '.join(given)}." if given else ""
        if record.missed:
            note += f"\n\nNo orders (NMR): {', '.join(record.missed)}."
        if game.end is not None and game.end.get("phase_no") == phase_no:
            note += "\n\n" + ending.scores_text(game.end)
        return (record.report_text.rstrip() + note + "\n\n" + rules_of(board).position_text(board, state).rstrip()
                + "\n")

    def picture_job(self, caller: Caller, phase_no: int, fmt: str, width: int) -> tuple[Job, int]:
        """The picture of a phase as a job to draw (the board before it, its orders drawn from the read orders kept
        with it; a phase judged before they were kept, from its report) and its board's number of spaces (what
        the picture costs); refused for games that draw no pictures."""
        game, record = self._record(caller, phase_no)
        board, _ = _position(game, record.state_before)
        if PICTURES not in rules_of(board).capabilities:
            raise HostedError(Kind.REFUSED, "Not available", f"board pictures are not drawn for {board.title}")
        job = Job(game.variant if game.board is None else None, game.board, record.state_before,
                  record.report if record.drawn is None else record.drawn, fmt, width)
        return job, spaces_of(board)

    def _record(self, caller: Caller, phase_no: int) -> tuple[Game, PhaseRecord]:
        with self.store.sessions() as session:
            game = self._game(session, caller.game_id)
            record = session.scalar(select(PhaseRecord).where(PhaseRecord.game_id == caller.game_id,
                                                              PhaseRecord.phase_no == phase_no))
        if record is None:
            raise HostedError(Kind.NOT_FOUND, "Not found", f"phase {phase_no} has not been judged")
        return game, record

    @staticmethod
    def _phase_json(record: PhaseRecord, full: bool) -> dict[str, Any]:
        data: dict[str, Any] = {"phase_no": record.phase_no, "phase": record.name, "trigger": record.trigger,
                                "adjudicated_at": _iso(record.adjudicated_at)}
        data["missed"] = record.missed or []
        if full:
            given_by = record.given_by or {p: p for p in record.orders}  # phases judged before migration 0003
            data.update(orders=record.orders, given_by=given_by, report=record.report,
                        position_before=record.state_before, position_after=record.state_after)
        return data

    # --- webhooks ------------------------------------------------------------------------------------------
    def set_webhook(self, caller: Caller, url: str | None) -> dict[str, Any]:
        """Set (or with None remove) the game's webhook (game master only)."""
        self.require_gm(caller)
        self._check_url(url, "/url")
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            game.webhook_url = url
        return self.webhook_status(caller)

    def webhook_status(self, caller: Caller) -> dict[str, Any]:
        """The game's webhook and its latest deliveries, each attempt's outcome with it (game master only). The
        signing secret is not shown again: it is shown when the game is created and when it is rotated."""
        self.require_gm(caller)
        with self.store.sessions() as session:
            game = self._game(session, caller.game_id)
        return {"webhook_url": game.webhook_url, "attempts_per_delivery": self.policy.attempts,
                "deliveries": webhooks.pending(self.store, caller.game_id, self.policy.attempts,
                                              self.policy.timeout, self.clock())}

    def rotate_secret(self, caller: Caller) -> dict[str, Any]:
        """A new signing secret for the game's webhook, shown this once; deliveries sent from now on (retries
        too) are signed with it (game master only)."""
        self.require_gm(caller)
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            game.webhook_secret = secrets.token_urlsafe(32)
            secret = game.webhook_secret
        return {"webhook_secret": secret}

    # --- the deadline --------------------------------------------------------------------------------------
    def move_deadline(self, caller: Caller, at: float | None, *, phase_no: int | None) -> dict[str, Any]:
        """The game master moves the deadline of phase `phase_no`, which must be the current one, to `at` (None:
        this phase has none); the game's `phase_seconds` still sets the next phases' deadlines."""
        self.require_gm(caller)
        now = self.clock()
        if at is not None and not now < at <= now + MAX_DEADLINE_SECONDS:
            raise HostedError(Kind.BAD_INPUT, "Bad request",
                              "the deadline must be in the future and at most a year away "
                              "(to judge the phase now, POST /v1/games/{id}/adjudicate)", pointer="/at")
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            self._check_active(game, paused_ok=False)
            _check_phase(game, phase_no)
            game.deadline_at, game.reminded = at, False
            game.wake_at = wake.wake_of(game, Settings.from_json(game.settings))
            answer = {"phase": game.phase_name, "phase_no": game.phase_no + 1, "deadline": _iso(at)}
        return answer

    # --- votes and ends ------------------------------------------------------------------------------------
    def vote(self, caller: Caller, body: dict[str, Any], *, phase_no: int | None) -> dict[str, Any]:
        """A seat votes for a draw (`"draw": "dias"` or a list of powers), concedes (`"concede_to"`), or withdraws
        its vote (neither), in phase `phase_no`; when the survivors agree, the game ends now. The answer says
        whether it ended; a secret vote's answer names no other seat's vote."""
        self.require_seat(caller)
        now = self.clock()
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            self._check_active(game)
            _check_phase(game, phase_no)
            settings = Settings.from_json(game.settings)
            board, state = self.positions.get(game)
            survivors = rules_of(board).survivors(board, state)
            cast = votes.read_vote(body, str(caller.power), survivors, settings.draws == "named")
            rows = list(session.scalars(select(Seat).where(Seat.game_id == game.id)))
            for row in rows:
                if row.power == caller.power:
                    row.vote = None if cast is None else cast.to_json()
            tally = {r.power: votes.Vote.from_json(r.vote) for r in rows}
            agreed = votes.outcome(tally, survivors, {r.power for r in rows if r.civil_disorder},
                                   settings.disorder_votes == "yes")
            end = None
            if agreed is not None:
                end = self._end_now(session, game, board, state, agreed[0].value, list(agreed[1]), "votes", now)
            elif cast is not None:
                proposal = {} if settings.secret_votes else {"by": caller.power, "vote": cast.to_json()}
                self._event(session, game, "draw.proposed", now, secret=settings.secret_votes, **proposal)
            answer = {"phase": game.phase_name, "phase_no": game.phase_no + 1,
                      "vote": None if cast is None else cast.to_json(), "ended": end is not None, "end": end}
        self.deliverer.wake()
        return answer

    def end_game(self, caller: Caller, kind: str, powers: list[str] | None,
                 phase_no: int | None = None) -> dict[str, Any]:
        """The game master declares the end (a draw agreed by mail, a concession, a tournament's time: `stopped`,
        or `abandoned`), scored by the game's system; `phase_no`, when given, must be the current phase."""
        self.require_gm(caller)
        now = self.clock()
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            self._check_active(game)
            if phase_no is not None:
                _check_phase(game, phase_no)
            board, state = self.positions.get(game)
            if kind == "solo":
                raise HostedError(Kind.BAD_INPUT, "Bad request", "a solo is the rules' to reach, not declared: "
                                  "declare a concession to the power instead", pointer="/kind")
            end = self._end_now(session, game, board, state, kind, powers, GAME_MASTER, now)
        self.deliverer.wake()
        return {"id": caller.game_id, "status": "ended", "end": end}

    def _end_now(self, session: Any, game: Game, board: Any, state: Any, kind: str, powers: list[str] | None,
                 by: str, now: float) -> dict[str, Any]:
        """End a game this transaction holds locked, at its current phase; the end as kept, its webhook queued."""
        record = ending.declared(board, state, kind, powers)
        settings = Settings.from_json(game.settings)
        end = ending.end_json(board, record, settings.scoring_system(), game.phase_no, by, now)
        game.status, game.end, game.deadline_at, game.wake_at = "ended", end, None, None
        game.paused_until = game.paused_left = None
        session.execute(delete(Submission).where(Submission.game_id == game.id))
        self._event(session, game, "game.ended", now, end=end)
        return end

    def scores(self, caller: Caller, choice: Any = None) -> dict[str, Any]:
        """The scores: an ended game's end, or "if the game ended now" (a draw of every survivor); `choice`: another
        scoring system than the game's (a name, or a name with parameters)."""
        with self.store.sessions() as session:
            game = self._game(session, caller.game_id)
        settings = Settings.from_json(game.settings)
        board, state = self.positions.get(game)
        try:
            system = ending.system_of(settings.scoring if choice is None else choice)
        except AdjudicatorError as exc:
            raise HostedError(Kind.BAD_INPUT, "Bad request", exc.message, pointer="/system") from None
        if game.end is not None and game.end.get("record"):
            record = GameEnd.from_json(game.end["record"])
            return {"ended": True, "end": game.end, "system": ending.scored_by(board, system),
                    **ending.scores_json(board, record, system)}
        if game.status == "ended":
            raise HostedError(Kind.REFUSED, "Not scored", "this game ended before ends were recorded: its scores "
                              "cannot be computed")
        try:
            record = rules_of(board).end_as(board, state, EndKind.DRAW)
        except EndError as exc:  # (a game at its set-up has no players to score: say so, never a 500)
            raise HostedError(Kind.REFUSED, "Not scored", exc.message) from None
        return {"ended": False, "if_ended_now": record.to_json(), "system": ending.scored_by(board, system),
                **ending.scores_json(board, record, system)}

    # --- pauses --------------------------------------------------------------------------------------------
    def pause(self, caller: Caller, *, phase_no: int | None) -> dict[str, Any]:
        """The game master pauses the game: its deadline stops (the time left is kept) until it is resumed or the
        settings' cap resumes it; the settings cap how often."""
        self.require_gm(caller)
        now = self.clock()
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            self._check_active(game, paused_ok=False)
            _check_phase(game, phase_no)
            settings = Settings.from_json(game.settings)
            settings.check_pause(game.pauses)
            game.status, game.paused_at, game.pauses = "paused", now, game.pauses + 1
            game.paused_until = settings.pause_cap(now)
            game.paused_left = None if game.deadline_at is None else max(0.0, game.deadline_at - now)
            game.deadline_at = None
            game.wake_at = wake.wake_of(game, settings)
            self._event(session, game, "game.paused", now, resumes_at=_iso(game.paused_until))
            answer = {"status": game.status, "pause": self._pause_view(game, settings)}
        self.deliverer.wake()
        return answer

    def resume(self, caller: Caller, *, phase_no: int | None) -> dict[str, Any]:
        """The game master resumes a paused game: its deadline is the time left at the pause from now."""
        self.require_gm(caller)
        now = self.clock()
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            self._check_active(game)
            _check_phase(game, phase_no)
            if game.status != "paused":
                raise HostedError(Kind.CONFLICT, "Not paused", "the game is not paused")
            settings = Settings.from_json(game.settings)
            self._resume_locked(session, game, settings, now, by=GAME_MASTER)
            answer = {"status": game.status, "deadline": _iso(game.deadline_at)}
        self.deliverer.wake()
        return answer

    def _resume_locked(self, session: Any, game: Game, settings: Settings, now: float, by: str) -> None:
        game.status = "active"
        if game.paused_left is not None and game.paused_at is not None:
            game.deadline_at = settings.resumed(game.paused_at + game.paused_left, game.paused_at, now)
        game.paused_at = game.paused_until = game.paused_left = None
        game.reminded = False
        game.wake_at = wake.wake_of(game, settings)
        self._event(session, game, "game.resumed", now, by=by, deadline=_iso(game.deadline_at))

    # --- talk ----------------------------------------------------------------------------------------------
    def send_message(self, caller: Caller, to: Any, body: str, *, phase_no: int | None,
                     client_id: str | None = None) -> tuple[dict[str, Any], bool]:
        """Send a message in phase `phase_no`, which must be the current one, to "ALL" or the named seats (and
        "game master"): kept with its phase, its readers and a `message` webhook, in one transaction under the
        game's row lock; refused in a gunboat game, over its length, the sender's rate or the game's cap. A retry
        with the same `client_id` answers the message kept and sends nothing. (The message, whether it is new.)"""
        message_text = text.message(body, "/text", self.limits.max_message_length)  # (before any database)
        client = talk.client_id(client_id)
        now = self.clock()
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            settings = Settings.from_json(game.settings)
            talk.refuse_gunboat(settings)
            labels = self._labels(session, game.id)
            seats = list(labels)
            to_whom = talk.addressed(to, caller.seat_key, seats)
            kept = talk.replayed(session, game.id, caller.seat_key, client, to_whom, message_text)
            new = kept is None
            if kept is None:
                self._check_active(game)
                _check_phase(game, phase_no)
                self._limit_talk(session, caller)
                row = {"phase_no": game.phase_no + 1, "phase": game.phase_name, "sender": caller.seat_key,
                       "to_all": to_whom.to_all, "recipients": list(to_whom.recipients), "body": message_text,
                       "sent_at": now, "client_id": client}
                [number] = talk.keep(session, game, [row], [to_whom.readers], self.limits.max_messages)
                kept = Message(id=number, game_id=game.id, **row)
                gm_reads = settings.game_master_reads_messages or GM in to_whom.readers
                self._event(session, game, "message", now,
                            **talk.event_json(kept, to_whom.receivers(caller.seat_key, seats), gm_reads))
            answer = talk.to_json(kept, None if settings.anonymous_seats else labels, own=True)
        if new:
            self.deliverer.wake()
        return answer, new

    def read_messages(self, caller: Caller, after: int = 0, limit: int = 50) -> dict[str, Any]:
        """The messages the caller may read with an id after `after`, oldest first, at most `limit` (and at most
        the limits' page): its own (sent or received), or every one when the settings show it all."""
        limit = max(1, min(limit, self.limits.max_message_page))
        with self.store.sessions() as session:
            game = self._game(session, caller.game_id)
            settings = Settings.from_json(game.settings)
            everyone = talk.reads_all(settings, game.status, caller.gm)
            rows, more = talk.page(session, game.id, None if everyone else caller.seat_key, after, limit)
            labels = None if settings.anonymous_seats else self._labels(session, game.id)
        return {"messages": [talk.to_json(r, labels, own=r.sender == caller.seat_key) for r in rows],
                "more": more, "next_after": rows[-1].id if rows else after, "reads": "all" if everyone else "own",
                "gunboat": settings.gunboat}

    def record_messages(self, caller: Caller) -> tuple[list[Message] | None, str]:
        """Every message of the game for its record when the caller may read them all (else None), and a word
        saying which: a record carries all of a game's messages or none."""
        with self.store.sessions() as session:
            game = self._game(session, caller.game_id)
            settings = Settings.from_json(game.settings)
            if settings.gunboat:
                return [], "none: a gunboat game"
            if not talk.reads_all(settings, game.status, caller.gm):
                return None, ("left out: this caller may not read every message (see the game's settings "
                              "messages_visible_after_end, once it has ended, and game_master_reads_messages)")
            return talk.everything(session, game.id), "included: every message"

    def _limit_talk(self, session: Any, caller: Caller) -> None:
        """429 with Retry-After when the sender is over its rate of messages (counted in this transaction)."""
        per_minute = self.limits.messages_per_minute
        wait = self.rates.wait(talk.rate_key(caller.game_id, caller.seat_key), per_minute, 60.0, session)
        if wait > 0:
            seconds = int(wait) + 1
            raise HostedError(Kind.TOO_MANY, "Too many messages", f"a seat sends at most {per_minute} messages at "
                              f"once, then one every {60 / per_minute:g} s: try again in {seconds} s",
                              retry_after=seconds)

    @staticmethod
    def _labels(session: Any, game_id: str) -> dict[str, str]:
        """Each seat's label by its power, in the seats' order."""
        rows = session.execute(select(Seat.power, Seat.label).where(Seat.game_id == game_id).order_by(Seat.position))
        return {power: label for power, label in rows}

    def _check_imported_messages(self, settings: Settings, messages: list[talk.ImportedMessage]) -> None:
        """A record's messages fit the game: none in a gunboat game, at most the game's cap."""
        if messages and settings.gunboat:
            raise HostedError(Kind.BAD_INPUT, "Bad request", f"the record holds {len(messages)} messages and the "
                              "settings make the game gunboat, which keeps none: leave `gunboat` out, or begin from "
                              "a record without messages", pointer="/settings/gunboat")
        if len(messages) > self.limits.max_messages:
            raise HostedError(Kind.TOO_LARGE, "Record too long", f"the record holds {len(messages)} messages; a "
                              f"hosted game keeps at most {self.limits.max_messages}", pointer="/record/phases")

    def _keep_imported(self, session: Any, game: Game, names: list[str], messages: list[talk.ImportedMessage],
                       now: float) -> None:
        """Keep a recorded game's messages, each with the phase it was sent in (a past phase, or the current)."""
        seats = list(self._labels(session, game.id))
        rows, readers = [], []
        for m in messages:
            to_whom = talk.addressed(talk.ALL if m.to_all else list(m.recipients), m.sender, seats)
            rows.append({"phase_no": m.phase_no, "sender": m.sender, "to_all": to_whom.to_all,
                         "phase": names[m.phase_no - 1] if m.phase_no <= len(names) else game.phase_name,
                         "recipients": list(to_whom.recipients),
                         "body": text.message(m.text, m.pointer, self.limits.max_message_length),
                         "sent_at": now if m.sent_at is None else m.sent_at, "client_id": None})
            readers.append(to_whom.readers)
        talk.keep(session, game, rows, readers, self.limits.max_messages)

    # --- seats ---------------------------------------------------------------------------------------------
    def replace_seat(self, caller: Caller, power: str, kind: str = "player", *,
                     phase_no: int | None) -> dict[str, Any]:
        """The game master hands a seat to a new player (or a bot): a new token, shown this once; the old one is
        refused from this moment; the seat leaves civil disorder, its vote is dropped, and its holders say from
        which phase the new one plays."""
        self.require_gm(caller)
        power = text.printable(power, "the seat's name", "/power", self.limits.max_label)  # (a path part: any text)
        if kind not in ("player", "bot"):
            raise HostedError(Kind.BAD_INPUT, "Bad request", f"a seat's kind is player or bot, not {kind!r}",
                              pointer="/kind")
        now = self.clock()
        token = tokens.new_token()
        with self.store.transaction() as session:
            game = self._game(session, caller.game_id, lock=True)
            self._check_active(game)
            _check_phase(game, phase_no)
            seat = session.get(Seat, (game.id, power))
            if seat is None:
                names = ", ".join(session.scalars(select(Seat.power).where(Seat.game_id == game.id)
                                                  .order_by(Seat.position)))
                raise HostedError(Kind.NOT_FOUND, "Not found", f"{power[:100]!r} has no seat in this game; "
                                  f"seats: {names}", pointer="/power")
            holders = list(seat.holders or [{"from_phase": 1, "kind": seat.kind}])
            if len(holders) >= MAX_HOLDERS:
                raise HostedError(Kind.CONFLICT, "Too many replacements",
                                  f"a seat is handed on at most {MAX_HOLDERS - 1} times")
            seat.token_hash, seat.kind, seat.vote = tokens.token_hash(token), kind, None
            seat.civil_disorder, seat.missed_in_row = False, 0
            seat.holders = holders + [{"from_phase": game.phase_no + 1, "kind": kind}]
            session.execute(delete(Submission).where(Submission.game_id == game.id, Submission.power == power))
            self._event(session, game, "seat.replaced", now, power=power, kind=kind, from_phase=game.phase_no + 1)
            answer = {"power": power, "kind": kind, "token": token, "holders": seat.holders}
        self.deliverer.wake()
        return answer


def _new_position(rules: Any, board: Any) -> Any:
    """A new game's position: where the game is set up by shuffling (Arctic Race's tiles), shuffled now by a
    random seed, as a table's pile is before play and as `adjudicator new --seed` does, so the game master's set-up
    names the players and the first player only; else the board's opening position."""
    try:
        return rules.new_game(board, seed=secrets.randbelow(2**31))
    except NotAvailable:  # (a game with nothing to shuffle)
        return rules.initial_state(board)


# Statements built once (building one costs more than running it); their values are bound at each execution.
@functools.lru_cache(maxsize=2)
def _game_and_seat_query(share: bool) -> Any:
    """The game and the seat whose token hash is `digest`, and whether `digest` is the game master's."""
    digest: BindParameter[Any] = bindparam("digest")
    query = (select(Game, Seat.power, Game.gm_token_hash == digest, Seat.missed_in_row, Seat.civil_disorder)
             .outerjoin(Seat, (Seat.game_id == Game.id) & (Seat.token_hash == digest))
             .where(Game.id == bindparam("game_id")).limit(1).execution_options(populate_existing=True))
    return query.with_for_update(read=True, of=Game) if share else query


@functools.lru_cache(maxsize=4)
def _submission_upsert(sqlite: bool, keep_ready: bool) -> Any:
    """A seat's submission written over its last one; `keep_ready`: its readiness stays within its phase."""
    table = Submission.__table__
    statement = upsert_on(sqlite, table)
    new = statement.excluded
    ready = (table.c.phase_no == new.phase_no) & table.c.ready if keep_ready else new.ready
    return statement.on_conflict_do_update(
        index_elements=[table.c.game_id, table.c.power],
        set_={"phase_no": new.phase_no, "orders": new.orders, "statuses": new.statuses, "given_by": new.given_by,
              "updated_at": new.updated_at, "ready": ready}).returning(table.c.ready)


@functools.lru_cache(maxsize=1)
def _seat_counts_update() -> Any:
    """A seat's missed orders and civil disorder written after a judged phase."""
    return (update(Seat).where(Seat.game_id == bindparam("g"), Seat.power == bindparam("p"))
            .values(missed=bindparam("m"), missed_in_row=bindparam("r"), civil_disorder=bindparam("d")))


def _check_phase(game: Game, phase_no: int | None, pointer: str = "/phase_no") -> None:
    """A phase-bound write names the phase it is for, and it must be the current one: bad input when it names
    none, a conflict when another, each naming the current phase. Called on the game's row as the write's own
    transaction holds it locked, so no judgement can move the phase between this check and the write; "none
    means the current one" would let a replayed request act on a later phase."""
    current, name = game.phase_no + 1, game.phase_name
    where = {"pointer": pointer, "current_phase_no": current, "current_phase": name}
    if phase_no is None:
        raise HostedError(Kind.BAD_INPUT, "Bad request",
                          f"`phase_no` is missing: say which phase this is for (the game is at "
                          f"phase {current}, {name}: send {current} to act on it)", **where)
    if phase_no != current:
        raise HostedError(Kind.CONFLICT, "Phase changed",
                          f"this is for phase {phase_no}, which is not the current one: the "
                          f"game is at phase {current} ({name})", **where)


def _shown(seat: str) -> str:
    """A seat key as the judged phase names it (the game master's steps under "game master")."""
    return GAME_MASTER if seat == GM else seat


def _seats_and_orders(session: Any, game: Game) -> tuple[list[Any], dict[str, Any]]:
    """A game's seats (power, missed counts, civil disorder, vote) in their order and its pending submissions of the
    current phase, by seat key (two statements, plain rows: the ORM's unit of work costs more than the reads)."""
    conn = session.connection()
    seats = conn.execute(select(Seat.power, Seat.missed, Seat.missed_in_row, Seat.civil_disorder, Seat.vote).where(
        Seat.game_id == game.id).order_by(Seat.position)).all()
    pending = conn.execute(select(Submission.power, Submission.orders, Submission.ready, Submission.given_by).where(
        Submission.game_id == game.id, Submission.phase_no == game.phase_no)).all()
    return seats, {r.power: r for r in pending}


def _columns(record: PhaseRecord) -> dict[str, Any]:
    """A new judged phase's row (its id is the database's)."""
    return {c.key: getattr(record, c.key) for c in PhaseRecord.__table__.columns if c.key != "id"}


def _before_commit(session: Any, game: Game, record: PhaseRecord, next_name: str, status: str, now: float,
                   end: dict[str, Any] | None = None) -> None:
    """The last step of an adjudication before its commit: queue the webhooks (the kill tests stop here)."""
    webhooks.queue(session, game, record, next_name, status, now, end)
    if end is not None:
        webhooks.queue_event(session, game, "game.ended", record.phase_no, record.name, {"end": end}, now)
