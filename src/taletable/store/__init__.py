"""Where a table's things are kept: versioned saves, stale saves refused (DESIGN > Principles 9).

* :class:`Store` — the protocol every store meets; :class:`Versioned` — a thing at a version;
* :class:`MemoryStore` — in memory, for tests;
* :class:`FileStore` — one file per thing, for the CLI (atomic, locked, the revision in the file).
"""

from taletable.store.base import KINDS, Kind, Store, Versioned
from taletable.store.files import FileStore
from taletable.store.memory import MemoryStore

__all__ = ["KINDS", "FileStore", "Kind", "MemoryStore", "Store", "Versioned"]
