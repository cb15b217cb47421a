"""Alembic's environment: migrate on the connection :func:`taletable.server.db.migrate` hands in."""

from __future__ import annotations

from alembic import context

from taletable.server.schema import METADATA

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=METADATA)
with context.begin_transaction():
    context.run_migrations()
