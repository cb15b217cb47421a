"""A table's rule options and house rules (JSON), chosen when the table is made.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("rules", sa.Text, nullable=False, server_default="{}"))
        table.add_column(sa.Column("house_rules", sa.Text, nullable=False, server_default="{}"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.drop_column("house_rules")
        table.drop_column("rules")
