"""Alembic migrations of the live table's database (run by :func:`taletable.server.db.migrate`)."""
