"""The boards' drawings (their computed geometry, by the hash of the board's data), kept once for every
process and instance on the database: a board's first picture computes it, every later one reads it.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    """Add the drawings."""
    op.create_table(
        "hosted_drawings",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop what upgrade added."""
    op.drop_table("hosted_drawings")
