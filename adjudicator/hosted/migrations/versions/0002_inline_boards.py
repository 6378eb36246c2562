"""Hosted games on inline boards: the board a game was created with, kept with the game.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    """Add hosted_games.board (null: the game is played on a shipped variant)."""
    with op.batch_alter_table("hosted_games") as batch:
        batch.add_column(sa.Column("board", sa.JSON, nullable=True))


def downgrade() -> None:
    """Drop hosted_games.board."""
    with op.batch_alter_table("hosted_games") as batch:
        batch.drop_column("board")
