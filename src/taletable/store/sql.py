"""A store in a SQL database, for the live table (see :mod:`taletable.store.base`).

A :class:`SqlStore` works inside a connection and transaction its caller owns: the server
opens the transaction (``BEGIN IMMEDIATE`` on SQLite, a row lock on the table in PostgreSQL),
lets an action save through the store, appends the action's event to the log and commits, so
the state change and its event land together or not at all (DESIGN > Principles 9).

Things are kept per *scope* (a table's id), one row per thing: its kind, key, version and data
as canonical JSON. A save from a stale version updates no row (``WHERE version = :read``) and
raises ConflictError; nothing is written.

This module needs SQLAlchemy (the ``server`` extra); ``import taletable.store`` does not load it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Column, Connection, Integer, MetaData, String, Table, Text, select
from sqlalchemy.exc import IntegrityError

from taletable.errors import ConflictError, InputError
from taletable.store.base import Kind, Versioned, check_kind

__all__ = ["METADATA", "THINGS", "SqlStore"]

#: The schema of the live table's database (the server adds its tables to it).
METADATA = MetaData()

#: One row per saved thing of a scope (a table).
THINGS = Table(
    "things",
    METADATA,
    Column("scope", String(64), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("key", String(200), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("data", Text, nullable=False),
)


def _dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(dict(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class SqlStore:
    """Versioned things of one scope, read and saved on the caller's connection."""

    def __init__(self, connection: Connection, scope: str) -> None:
        self.connection = connection
        self.scope = scope

    def _where(self, kind: Kind, key: str) -> Any:
        return (THINGS.c.scope == self.scope) & (THINGS.c.kind == kind) & (THINGS.c.key == key)

    def _current(self, kind: Kind, key: str) -> int:
        found = self.connection.execute(
            select(THINGS.c.version).where(self._where(kind, key))
        ).scalar()
        return int(found or 0)

    def read(self, kind: Kind, key: str) -> Versioned:
        """The thing saved under ``key``, or an InputError naming it."""
        check_kind(kind)
        row = self.connection.execute(
            select(THINGS.c.version, THINGS.c.data).where(self._where(kind, key))
        ).first()
        if row is None:
            raise InputError(kind, f"no {kind} is saved as {key!r}", expected="a saved key")
        return Versioned(key, int(row.version), json.loads(row.data))

    def save(
        self, kind: Kind, key: str, data: Mapping[str, Any], *, version: int | None
    ) -> Versioned:
        """Save ``data`` read at ``version`` (None: new); a stale version is a ConflictError."""
        check_kind(kind)
        text = _dumps(data)
        if version is None:
            try:
                with self.connection.begin_nested():
                    self.connection.execute(
                        THINGS.insert().values(
                            scope=self.scope, kind=kind, key=key, version=1, data=text
                        )
                    )
            except IntegrityError:
                raise ConflictError(key, version=0, current=self._current(kind, key)) from None
            return Versioned(key, 1, json.loads(text))
        updated = self.connection.execute(
            THINGS.update()
            .where(self._where(kind, key) & (THINGS.c.version == version))
            .values(version=version + 1, data=text)
        )
        if updated.rowcount != 1:
            raise ConflictError(key, version=version, current=self._current(kind, key))
        return Versioned(key, version + 1, json.loads(text))

    def keys(self, kind: Kind) -> tuple[str, ...]:
        """Every key of ``kind`` in this scope, sorted."""
        check_kind(kind)
        rows = self.connection.execute(
            select(THINGS.c.key)
            .where((THINGS.c.scope == self.scope) & (THINGS.c.kind == kind))
            .order_by(THINGS.c.key)
        )
        return tuple(str(key) for key in rows.scalars())
