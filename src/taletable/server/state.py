"""The log is the truth: every save an event caused is in the event, so state can be rebuilt.

An action (or a character's creation or edit) saves through a :class:`RecordingStore` over
the table's :class:`~taletable.store.sql.SqlStore`; the saves it made, with their new
versions and data, go into the event as ``saves``. :func:`state_from_log` replays them, in
order, into what the ``things`` rows must hold; an import rebuilds a table's rows this way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from taletable.log_entry import LogEntry
from taletable.store.base import Kind, Store, Versioned

__all__ = ["RecordingStore", "saved_version", "state_from_log"]


class RecordingStore:
    """A store that passes everything to ``inner`` and records each save made through it."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.saves: list[dict[str, Any]] = []

    def read(self, kind: Kind, key: str) -> Versioned:
        return self.inner.read(kind, key)

    def save(
        self, kind: Kind, key: str, data: Mapping[str, Any], *, version: int | None
    ) -> Versioned:
        saved = self.inner.save(kind, key, data, version=version)
        self.saves.append(
            {"kind": kind, "key": key, "version": saved.version, "data": dict(saved.data)}
        )
        return saved

    def keys(self, kind: Kind) -> tuple[str, ...]:
        return self.inner.keys(kind)


def state_from_log(entries: Iterable[LogEntry]) -> dict[tuple[str, str], Versioned]:
    """Every stored thing as the log's saves leave it: ``(kind, key) -> Versioned``."""
    state: dict[tuple[str, str], Versioned] = {}
    for entry in entries:
        for save in entry.saves:
            state[(save.kind, save.key)] = Versioned(save.key, save.version, save.data)
    return state


def saved_version(
    entries: Iterable[LogEntry], kind: str, key: str, version: int
) -> Mapping[str, Any] | None:
    """The data ``key`` of ``kind`` was saved with at ``version``, as the log's saves hold it
    (None: no entry saved that version)."""
    for entry in entries:
        for save in entry.saves:
            if (save.kind, save.key, save.version) == (kind, key, version):
                return save.data
    return None
