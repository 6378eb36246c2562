"""The tables of hosted games (the Alembic migrations in `migrations/` create exactly these)."""

from __future__ import annotations

import time
from typing import Any, ClassVar

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, Table, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def iso(t: float) -> str:
    """A stored time (Unix seconds) as the API shows it: `2026-01-31T12:00:00Z`."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class Base(DeclarativeBase):
    """The declarative base of the hosted-games tables."""

    __table__: ClassVar[Table]  # (each model maps one table: its Core statements take it as a Table)


class Game(Base):
    """A hosted game: its current position (game-file data without history) and the number of judged phases."""

    __tablename__ = "hosted_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    variant: Mapped[str] = mapped_column(String(100))
    board: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # an inline board (migration 0002)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    phase_no: Mapped[int] = mapped_column(Integer, default=0)  # phases judged so far; the current one is this + 1
    phase_name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(20), default="active")  # active | paused | ended
    deadline_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    gm_token_hash: Mapped[str] = mapped_column(String(64))
    webhook_url: Mapped[str | None] = mapped_column(String(2000), nullable=True)
    webhook_secret: Mapped[str | None] = mapped_column(String(100), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    phase_started_at: Mapped[float] = mapped_column(Float)
    # Migration 0007: the end (`ending.end_json`), the pause, the deadline's grace and extensions, and the next
    # time the game needs the ticker (its deadline, its reminder or its pause's cap: `wake.next_wake`).
    end: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    paused_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    paused_until: Mapped[float | None] = mapped_column(Float, nullable=True)  # the pause's cap: it resumes itself
    paused_left: Mapped[float | None] = mapped_column(Float, nullable=True)  # the deadline's time left at the pause
    pauses: Mapped[int] = mapped_column(Integer, default=0)  # pauses so far (the settings cap them)
    grace_used: Mapped[bool] = mapped_column(Boolean, default=False)  # this phase's
    extensions_used: Mapped[int] = mapped_column(Integer, default=0)  # this phase's NMR extensions
    reminded: Mapped[bool] = mapped_column(Boolean, default=False)  # this deadline's reminder was queued
    wake_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    messages: Mapped[int] = mapped_column(Integer, default=0)  # messages kept (migration 0008: the game's cap)


class Seat(Base):
    """A power's (or player's) seat: its label and its token's hash."""

    __tablename__ = "hosted_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("hosted_games.id", ondelete="CASCADE"), primary_key=True)
    power: Mapped[str] = mapped_column(String(100), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64))
    # Migration 0007: who plays it, its missed orders (NMR), civil disorder, holders and draw or concession vote.
    kind: Mapped[str] = mapped_column(String(10), default="player")  # player | bot
    civil_disorder: Mapped[bool] = mapped_column(Boolean, default=False)
    missed: Mapped[int] = mapped_column(Integer, default=0)  # phases it had to act in and sent nothing
    missed_in_row: Mapped[int] = mapped_column(Integer, default=0)  # movement phases missed in a row
    holders: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON(none_as_null=True), nullable=True)  # [{from_phase, kind}]
    vote: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)  # votes.Vote.to_json()


class Submission(Base):
    """A seat's pending orders for the current phase (power '' holds the game master's game steps)."""

    __tablename__ = "hosted_submissions"

    game_id: Mapped[str] = mapped_column(ForeignKey("hosted_games.id", ondelete="CASCADE"), primary_key=True)
    power: Mapped[str] = mapped_column(String(100), primary_key=True)
    phase_no: Mapped[int] = mapped_column(Integer)
    orders: Mapped[list[str]] = mapped_column(JSON)
    statuses: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[float] = mapped_column(Float)
    given_by: Mapped[str | None] = mapped_column(String(20), nullable=True)  # "game master", or None: the seat


class PhaseRecord(Base):
    """A judged phase: the orders, the report (JSON and text), the position before and after."""

    __tablename__ = "hosted_phases"
    __table_args__ = (UniqueConstraint("game_id", "phase_no", name="uq_hosted_phase"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("hosted_games.id", ondelete="CASCADE"), index=True)
    phase_no: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    trigger: Mapped[str] = mapped_column(String(20))  # gm | ready | deadline
    orders: Mapped[dict[str, list[str]]] = mapped_column(JSON)
    report: Mapped[dict[str, Any]] = mapped_column(JSON)
    report_text: Mapped[str] = mapped_column(Text)
    state_before: Mapped[dict[str, Any]] = mapped_column(JSON)
    state_after: Mapped[dict[str, Any]] = mapped_column(JSON)
    history: Mapped[Any] = mapped_column(JSON, nullable=True)  # the game file's history entry of this phase
    adjudicated_at: Mapped[float] = mapped_column(Float)
    given_by: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)  # who gave each key's orders
    drawn: Mapped[Any] = mapped_column(JSON, nullable=True)  # the phase as its picture draws it (`Turn.drawn`;
    # None: judged before migration 0006, or a game whose pictures draw no turn)
    missed: Mapped[list[str] | None] = mapped_column(JSON(none_as_null=True), nullable=True)  # who had to act and sent nothing (0007)


class Delivery(Base):
    """A webhook notification waiting to be sent (the outbox): written in the adjudication's transaction."""

    __tablename__ = "hosted_deliveries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("hosted_games.id", ondelete="CASCADE"), index=True)
    phase_no: Mapped[int] = mapped_column(Integer)
    url: Mapped[str] = mapped_column(String(2000))
    body: Mapped[str] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)  # None: done
    delivered_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    claim: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the sender holding it (migration 0003)
    key: Mapped[str | None] = mapped_column(String(120), nullable=True)  # an event's delivery id (0007; None: a
    # judged phase's, `<game>.<phase>`)


class DeliveryAttempt(Base):
    """One attempt at a delivery and its outcome (a delivery has at most the policy's number of attempts)."""

    __tablename__ = "hosted_delivery_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    delivery_id: Mapped[int] = mapped_column(ForeignKey("hosted_deliveries.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    status: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the HTTP status, when one came
    outcome: Mapped[str] = mapped_column(String(300))


class RateLimit(Base):
    """A rate-limited key (a token's hash, a client address) and its theoretical arrival time (GCRA): shared by
    every process and instance on the database."""

    __tablename__ = "hosted_rate_limits"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    tat: Mapped[float] = mapped_column(Float, index=True)


class Counter(Base):
    """A count kept as one row (migration 0004): `games`, the games stored, so creating a game checks the
    `max_games` limit without counting every game."""

    __tablename__ = "hosted_counters"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[int] = mapped_column(Integer)


class Drawing(Base):
    """A board's drawing (migration 0005): its geometry as `adjudicator.games.diplomacy.picture.stored` writes it, by the board's
    key (the geometry's version and the hash of the board's data), computed once for every process on the database."""

    __tablename__ = "hosted_drawings"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)


class Message(Base):
    """A message between a game's seats (migration 0008): kept with the phase it was sent in, its sender (a seat's
    power, or "" for the game master), to all the seats or to the named ones (`recipients`: powers, "" for the game
    master), and a client's own id for a retried send (`client_id`, one message per sender and id)."""

    __tablename__ = "hosted_messages"
    __table_args__ = (UniqueConstraint("game_id", "sender", "client_id", name="uq_hosted_message_client"),
                      Index("ix_hosted_messages_game", "game_id", "id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("hosted_games.id", ondelete="CASCADE"))
    phase_no: Mapped[int] = mapped_column(Integer)  # the phase it was sent in (the current one: judged + 1)
    phase: Mapped[str] = mapped_column(String(200))  # its name
    sender: Mapped[str] = mapped_column(String(100))
    to_all: Mapped[bool] = mapped_column(Boolean)
    recipients: Mapped[list[str]] = mapped_column(JSON)  # the named recipients ([] when to all)
    body: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[float] = mapped_column(Float)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MessageReader(Base):
    """Who may read a message while the game's settings show it only to its parties (migration 0008): its sender
    and each recipient (every seat, for a message to all), one row each, so a seat's inbox is one index range."""

    __tablename__ = "hosted_message_readers"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    reader: Mapped[str] = mapped_column(String(100), primary_key=True)  # a power, or "" for the game master
    message_id: Mapped[int] = mapped_column(ForeignKey("hosted_messages.id", ondelete="CASCADE"), primary_key=True)
