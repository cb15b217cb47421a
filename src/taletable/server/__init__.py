"""The live table, server side: a JSON API and event stream over :mod:`taletable.play`.

Needs the ``server`` extra (FastAPI, SQLAlchemy, Alembic, psycopg). Nothing in the engine or
the CLI imports this package; the CLI's lazy map names ``taletable serve`` (:mod:`.serve`), so
this ``__init__`` imports nothing heavy: :func:`create_app` is loaded when first asked for.

* :mod:`.app` — :func:`create_app`; :mod:`.routes` — one module per concept;
* :mod:`.db` — SQLite / PostgreSQL engines, transactions, migrations; :mod:`.schema` — tables;
* :mod:`.log` — the table's hash-chained log and the per-seat visibility filter;
* :mod:`.auth` — seats and tokens; :mod:`.limits` — 413 / 429; :mod:`.notify` — waking streams;
* :mod:`.errors` — every error as ``{"error": {"field", "message"}}``.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from taletable.server.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """``create_app``, imported on first use (FastAPI loads then, not for ``serve --help``)."""
    if name == "create_app":
        from taletable.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
