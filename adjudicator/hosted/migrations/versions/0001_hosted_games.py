"""Hosted games: games, seats, submissions, judged phases, webhook deliveries.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "hosted_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("variant", sa.String(100), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("phase_no", sa.Integer, nullable=False),
        sa.Column("phase_name", sa.String(200), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("deadline_at", sa.Float, nullable=True, index=True),
        sa.Column("gm_token_hash", sa.String(64), nullable=False),
        sa.Column("webhook_url", sa.String(2000), nullable=True),
        sa.Column("webhook_secret", sa.String(100), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("phase_started_at", sa.Float, nullable=False),
    )
    op.create_table(
        "hosted_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("hosted_games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("power", sa.String(100), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("label", sa.String(100), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "hosted_submissions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("hosted_games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("power", sa.String(100), primary_key=True),
        sa.Column("phase_no", sa.Integer, nullable=False),
        sa.Column("orders", sa.JSON, nullable=False),
        sa.Column("statuses", sa.JSON, nullable=False),
        sa.Column("ready", sa.Boolean, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "hosted_phases",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("hosted_games.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("phase_no", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("trigger", sa.String(20), nullable=False),
        sa.Column("orders", sa.JSON, nullable=False),
        sa.Column("report", sa.JSON, nullable=False),
        sa.Column("report_text", sa.Text, nullable=False),
        sa.Column("state_before", sa.JSON, nullable=False),
        sa.Column("state_after", sa.JSON, nullable=False),
        sa.Column("history", sa.JSON, nullable=True),
        sa.Column("adjudicated_at", sa.Float, nullable=False),
        sa.UniqueConstraint("game_id", "phase_no", name="uq_hosted_phase"),  # a phase is judged once
    )
    op.create_table(
        "hosted_deliveries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("hosted_games.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("phase_no", sa.Integer, nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", sa.Float, nullable=True, index=True),
        sa.Column("delivered_at", sa.Float, nullable=True),
        sa.Column("last_error", sa.String(500), nullable=True),
    )


def downgrade() -> None:
    """Drop the tables."""
    for table in ("hosted_deliveries", "hosted_phases", "hosted_submissions", "hosted_seats", "hosted_games"):
        op.drop_table(table)
