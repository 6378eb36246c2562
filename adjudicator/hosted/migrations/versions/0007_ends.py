"""Games end, pause and keep their seats filled: the game's end (kind, powers, scores), its pause and its deadline's
grace and extensions, the next time it needs the ticker (`wake_at`: a deadline, a reminder, a pause's cap); each
seat's kind, civil disorder, missed orders, holders and vote; each judged phase's missed orders (NMR); each
webhook event's own delivery id (`key`).

A game stored as `finished` (a solo, before this revision) becomes `ended`, its end a solo of the winner its last
phase's report names (its scores were never computed: `scores` is empty and `scoring` null).

Revision ID: 0007
Revises: 0006
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    """Add the ends, pauses, seats' records and the wake time; finished games become ended solos."""
    with op.batch_alter_table("hosted_games", recreate="never") as batch:
        batch.add_column(sa.Column("end", sa.JSON, nullable=True))
        batch.add_column(sa.Column("paused_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("paused_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("paused_left", sa.Float, nullable=True))
        batch.add_column(sa.Column("pauses", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("grace_used", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("extensions_used", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("reminded", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("wake_at", sa.Float, nullable=True))
        batch.create_index("ix_hosted_games_wake_at", ["wake_at"])
    with op.batch_alter_table("hosted_seats", recreate="never") as batch:
        batch.add_column(sa.Column("kind", sa.String(10), nullable=False, server_default="player"))
        batch.add_column(sa.Column("civil_disorder", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("missed", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("missed_in_row", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("holders", sa.JSON, nullable=True))
        batch.add_column(sa.Column("vote", sa.JSON, nullable=True))
    with op.batch_alter_table("hosted_phases", recreate="never") as batch:
        batch.add_column(sa.Column("missed", sa.JSON, nullable=True))
    with op.batch_alter_table("hosted_deliveries", recreate="never") as batch:
        batch.add_column(sa.Column("key", sa.String(120), nullable=True))
    op.execute("UPDATE hosted_games SET wake_at = deadline_at WHERE status = 'active'")
    _finished_to_ended()


def _finished_to_ended() -> None:
    conn = op.get_bind()
    games = conn.execute(sa.text("SELECT id, phase_no FROM hosted_games WHERE status = 'finished'")).all()
    for game_id, phase_no in games:
        report = conn.execute(sa.text("SELECT report FROM hosted_phases WHERE game_id = :g AND phase_no = :n"),
                              {"g": game_id, "n": phase_no}).scalar()
        report = json.loads(report) if isinstance(report, str) else (report or {})
        winner = report.get("winner") or (report.get("summary") or {}).get("winner")
        end = {"kind": "solo", "powers": [winner] if isinstance(winner, str) else [], "scores": {},
               "scoring": None, "phase_no": phase_no, "by": "rules"}
        conn.execute(sa.text("UPDATE hosted_games SET status = 'ended', \"end\" = :e WHERE id = :g"),
                     {"e": json.dumps(end), "g": game_id})


def downgrade() -> None:
    """Drop what upgrade added (ended games become finished, whatever ended them). Columns are dropped in place
    (`recreate="never"`: SQLite 3.35's DROP COLUMN): on SQLite a recreated games table would take every seat and
    phase with it (their foreign keys cascade)."""
    op.execute("UPDATE hosted_games SET status = 'finished' WHERE status = 'ended'")
    op.execute("UPDATE hosted_games SET status = 'active' WHERE status = 'paused'")
    with op.batch_alter_table("hosted_deliveries", recreate="never") as batch:
        batch.drop_column("key")
    with op.batch_alter_table("hosted_phases", recreate="never") as batch:
        batch.drop_column("missed")
    with op.batch_alter_table("hosted_seats", recreate="never") as batch:
        for column in ("vote", "holders", "missed_in_row", "missed", "civil_disorder", "kind"):
            batch.drop_column(column)
    with op.batch_alter_table("hosted_games", recreate="never") as batch:
        batch.drop_index("ix_hosted_games_wake_at")
        for column in ("wake_at", "reminded", "extensions_used", "grace_used", "pauses", "paused_left",
                       "paused_until", "paused_at", "end"):
            batch.drop_column(column)
