"""Hosted games you can trust: who gave a seat's orders, every delivery attempt, claims, shared rate limits.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    """Add the orders' givers, the deliveries' claims, the delivery attempts and the rate limits."""
    with op.batch_alter_table("hosted_submissions") as batch:
        batch.add_column(sa.Column("given_by", sa.String(20), nullable=True))
    with op.batch_alter_table("hosted_phases") as batch:
        batch.add_column(sa.Column("given_by", sa.JSON, nullable=True))
    with op.batch_alter_table("hosted_deliveries") as batch:
        batch.add_column(sa.Column("claim", sa.String(32), nullable=True))
    op.create_table(
        "hosted_delivery_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("delivery_id", sa.Integer, sa.ForeignKey("hosted_deliveries.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("status", sa.Integer, nullable=True),
        sa.Column("outcome", sa.String(300), nullable=False),
    )
    op.create_table(
        "hosted_rate_limits",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("tat", sa.Float, nullable=False, index=True),
    )


def downgrade() -> None:
    """Drop what upgrade added."""
    op.drop_table("hosted_rate_limits")
    op.drop_table("hosted_delivery_attempts")
    with op.batch_alter_table("hosted_deliveries") as batch:
        batch.drop_column("claim")
    with op.batch_alter_table("hosted_phases") as batch:
        batch.drop_column("given_by")
    with op.batch_alter_table("hosted_submissions") as batch:
        batch.drop_column("given_by")
