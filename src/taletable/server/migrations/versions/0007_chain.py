"""Chain version 2: a table's chain version, and each event's body hash (given in a seat's
export for an entry it may not see, so the seat recomputes every link).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("chain", sa.Integer, nullable=False, server_default="1"))
    with op.batch_alter_table("events") as events:
        events.add_column(sa.Column("body_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as events:
        events.drop_column("body_hash")
    with op.batch_alter_table("tables") as table:
        table.drop_column("chain")
