"""Presence kept in the database, so every worker sees every seat's open pages.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column("stream", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False, index=True),
        sa.Column("seat_id", sa.String(64), nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("presence")
