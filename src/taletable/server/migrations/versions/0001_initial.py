"""The first schema: tables, seats, scenes, events (the log) and things (the SQL store).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("system", sa.String(16), nullable=False),
        sa.Column("edition", sa.String(16), nullable=True),
        sa.Column("physical_dice", sa.Boolean, nullable=False),
        sa.Column("join_code_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("head_seq", sa.Integer, nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
        sa.Column("scene", sa.Integer, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    )
    op.create_index("ix_seats_table_id", "seats", ["table_id"])
    op.create_table(
        "scenes",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("revealed", sa.Boolean, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(64), nullable=True),
        sa.Column("visibility", sa.String(16), nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("stub", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "things",
        sa.Column("scope", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for name in ("things", "events", "scenes", "seats", "tables"):
        op.drop_table(name)
