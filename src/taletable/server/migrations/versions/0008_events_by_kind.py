"""The events by kind: the pages read a table's fights, characters, strikes and bound
situations by their entries' kinds, each through this index, not the whole log (so a page
stays as fast at 100,000 events as at 1,000).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("events_by_kind", "events", ["table_id", "kind", "seq"])


def downgrade() -> None:
    op.drop_index("events_by_kind", table_name="events")
