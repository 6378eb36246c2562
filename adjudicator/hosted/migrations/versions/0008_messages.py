"""Talk: messages between a game's seats (and its game master), each kept with the phase it was sent in, who may
read it (its sender and recipients, a row each), and the count of a game's messages (its cap).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    """Add the messages, their readers and the games' message counts."""
    with op.batch_alter_table("hosted_games", recreate="never") as batch:
        batch.add_column(sa.Column("messages", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "hosted_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("hosted_games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("phase_no", sa.Integer, nullable=False),
        sa.Column("phase", sa.String(200), nullable=False),
        sa.Column("sender", sa.String(100), nullable=False),
        sa.Column("to_all", sa.Boolean, nullable=False),
        sa.Column("recipients", sa.JSON, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("sent_at", sa.Float, nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.UniqueConstraint("game_id", "sender", "client_id", name="uq_hosted_message_client"),
    )
    op.create_index("ix_hosted_messages_game", "hosted_messages", ["game_id", "id"])
    op.create_table(
        "hosted_message_readers",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("reader", sa.String(100), primary_key=True),
        sa.Column("message_id", sa.Integer, sa.ForeignKey("hosted_messages.id", ondelete="CASCADE"),
                  primary_key=True),
    )


def downgrade() -> None:
    """Drop what upgrade added (the column in place: `recreate="never"`, as 0007 says why)."""
    op.drop_table("hosted_message_readers")
    op.drop_index("ix_hosted_messages_game", table_name="hosted_messages")
    op.drop_table("hosted_messages")
    with op.batch_alter_table("hosted_games", recreate="never") as batch:
        batch.drop_column("messages")
