"""The Store protocol: versioned saves of the things a table keeps (DESIGN > Principles 9).

A store keeps four kinds of thing as plain JSON-ready data: ``character`` sheets,
``statblock`` files, ``encounter`` records and ``roll`` records. Each saved thing has a
*version*, a whole number that grows by one with every save. A save names the version it was
read at; when another save has landed since, the store refuses it with a
:class:`~taletable.errors.ConflictError` naming the current version, and writes nothing. So two
people (or two processes) can never silently overwrite each other's change: one lands, the other
is told to reload.

Implementations: :class:`~taletable.store.memory.MemoryStore` (tests, one process),
:class:`~taletable.store.files.FileStore` (the CLI: one file per thing, atomic writes, the
version kept in the file, an advisory lock) and the SQL store of the live table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, get_args, runtime_checkable

from taletable.errors import InputError

__all__ = ["KINDS", "Kind", "Store", "Versioned", "check_kind"]

Kind = Literal["character", "statblock", "encounter", "roll"]
KINDS: tuple[str, ...] = get_args(Kind)


@dataclass(frozen=True)
class Versioned:
    """A thing as the store holds it: its key, the version it is at, and its data."""

    key: str
    version: int
    data: Mapping[str, Any] = field(repr=False)


def check_kind(kind: str) -> Kind:
    """``kind`` if the store keeps that kind of thing, else an InputError naming the kinds."""
    if kind not in KINDS:
        raise InputError("kind", f"a store keeps no {kind!r}", expected=", ".join(KINDS))
    return kind  # type: ignore[return-value]


@runtime_checkable
class Store(Protocol):
    """Where a table's characters, statblocks, encounters and roll records are kept."""

    def read(self, kind: Kind, key: str) -> Versioned:
        """The thing saved under ``key``; a missing one is an error naming the key."""
        ...

    def save(
        self, kind: Kind, key: str, data: Mapping[str, Any], *, version: int | None
    ) -> Versioned:
        """Save ``data`` under ``key``, read at ``version`` (None: a new thing).

        Returns the saved thing at its new version. A stale ``version``, or None for a key that
        exists, raises ConflictError naming the current version; nothing is written.
        """
        ...

    def keys(self, kind: Kind) -> tuple[str, ...]:
        """The keys of every thing of ``kind`` this store can list, sorted."""
        ...
