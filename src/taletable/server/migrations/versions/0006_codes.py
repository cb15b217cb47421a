"""Codes read aloud: a table is found by its join code's hash; the narrator's recovery code
(its hash only) seats the narrator again in a new browser.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("recovery_hash", sa.String(64), nullable=True))
    op.create_index("ix_tables_join_code_hash", "tables", ["join_code_hash"])
    op.create_index("ix_tables_recovery_hash", "tables", ["recovery_hash"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tables_recovery_hash", table_name="tables")
    op.drop_index("ix_tables_join_code_hash", table_name="tables")
    with op.batch_alter_table("tables") as table:
        table.drop_column("recovery_hash")
