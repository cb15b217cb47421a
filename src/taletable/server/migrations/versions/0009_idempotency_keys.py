"""Safe retries: each action taken under an ``Idempotency-Key`` (its seat, key, request's
fingerprint, event and answer), written in the action's own transaction.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("seat_id", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(140), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("made_at", sa.Float, nullable=False),
    )
    op.create_index("ix_idempotency_keys_made_at", "idempotency_keys", ["made_at"])


def downgrade() -> None:
    op.drop_index("ix_idempotency_keys_made_at", table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
