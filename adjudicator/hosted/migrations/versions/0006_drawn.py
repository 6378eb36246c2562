"""Each judged phase keeps its orders and outcomes as its picture draws them (read orders, not text), so the
phase's picture is drawn from them; phases judged before keep none and are drawn from their report.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    """Add the phases' drawn orders."""
    with op.batch_alter_table("hosted_phases") as batch:
        batch.add_column(sa.Column("drawn", sa.JSON, nullable=True))


def downgrade() -> None:
    """Drop what upgrade added."""
    with op.batch_alter_table("hosted_phases") as batch:
        batch.drop_column("drawn")
