"""The live table, server side: a JSON API and event stream over :mod:`taletable.play`.

Needs the ``server`` extra (FastAPI, SQLAlchemy, Alembic, psycopg). Nothing in the engine or
the CLI imports this package except ``taletable serve``.

* :mod:`.app` — :func:`create_app`; :mod:`.routes` — one module per concept;
* :mod:`.db` — SQLite / PostgreSQL engines, transactions, migrations; :mod:`.schema` — tables;
* :mod:`.log` — the table's hash-chained log and the per-seat visibility filter;
* :mod:`.auth` — seats and tokens; :mod:`.limits` — 413 / 429; :mod:`.notify` — waking streams;
* :mod:`.errors` — every error as ``{"error": {"field", "message"}}``.
"""

from taletable.server.app import create_app

__all__ = ["create_app"]
