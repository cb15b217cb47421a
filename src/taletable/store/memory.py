"""A store in memory, for tests and for one process (see :mod:`taletable.store.base`)."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Mapping
from typing import Any

from taletable.errors import ConflictError, InputError
from taletable.store.base import Kind, Versioned, check_kind

__all__ = ["MemoryStore"]


class MemoryStore:
    """Versioned things in a dictionary; safe to share between threads.

    Data is copied in and out as JSON would carry it, so a caller that changes what it read or
    saved changes nothing in the store.
    """

    def __init__(self) -> None:
        self._things: dict[tuple[str, str], Versioned] = {}
        self._lock = threading.Lock()

    def read(self, kind: Kind, key: str) -> Versioned:
        """The thing saved under ``key``, or an InputError naming it."""
        check_kind(kind)
        with self._lock:
            thing = self._things.get((kind, key))
        if thing is None:
            raise InputError(kind, f"no {kind} is saved as {key!r}", expected="a saved key")
        return Versioned(thing.key, thing.version, copy.deepcopy(dict(thing.data)))

    def save(
        self, kind: Kind, key: str, data: Mapping[str, Any], *, version: int | None
    ) -> Versioned:
        """Save ``data`` read at ``version``; a stale version is a ConflictError."""
        check_kind(kind)
        plain = json.loads(json.dumps(dict(data)))
        with self._lock:
            current = self._things.get((kind, key))
            current_version = current.version if current is not None else 0
            if (version or 0) != current_version or (version is None and current is not None):
                raise ConflictError(key, version=version or 0, current=current_version)
            saved = Versioned(key, current_version + 1, plain)
            self._things[(kind, key)] = saved
        return Versioned(key, saved.version, copy.deepcopy(plain))

    def keys(self, kind: Kind) -> tuple[str, ...]:
        """Every key of ``kind``, sorted."""
        check_kind(kind)
        with self._lock:
            return tuple(sorted(key for stored, key in self._things if stored == kind))
