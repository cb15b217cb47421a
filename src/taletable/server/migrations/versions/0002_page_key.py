"""The key that signs the pages' seat cookies, made once per database.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    keys = op.create_table(
        "server_keys",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.bulk_insert(keys, [{"name": "cookie", "value": secrets.token_hex(32)}])


def downgrade() -> None:
    op.drop_table("server_keys")
