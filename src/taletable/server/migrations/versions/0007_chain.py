"""Chain version 2: a table's chain version, and each event's body hash (given in a seat's
export for an entry it may not see, so the seat recomputes every link); each seat's roll count
and its seed for the scene, each scene's hidden seed (dice no one steers).

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
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("rolls", sa.Integer, nullable=False, server_default="0"))
        seats.add_column(sa.Column("seed_scene", sa.Integer, nullable=True))
        seats.add_column(sa.Column("scene_seed", sa.String(64), nullable=True))
    with op.batch_alter_table("scenes") as scenes:
        scenes.add_column(sa.Column("hidden_seed", sa.String(64), nullable=True))
        scenes.add_column(sa.Column("hidden_commitment", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("scenes") as scenes:
        scenes.drop_column("hidden_commitment")
        scenes.drop_column("hidden_seed")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("scene_seed")
        seats.drop_column("seed_scene")
        seats.drop_column("rolls")
    with op.batch_alter_table("events") as events:
        events.drop_column("body_hash")
    with op.batch_alter_table("tables") as table:
        table.drop_column("chain")
