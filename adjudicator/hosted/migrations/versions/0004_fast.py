"""A counter row of the games stored: creating a game checks `max_games` without counting every game.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    """Add the counters, the games' counted once here."""
    op.create_table(
        "hosted_counters",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.Integer, nullable=False),
    )
    op.execute("INSERT INTO hosted_counters (name, value) SELECT 'games', count(*) FROM hosted_games")


def downgrade() -> None:
    """Drop what upgrade added."""
    op.drop_table("hosted_counters")
