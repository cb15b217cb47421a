"""A store of files, for the CLI: one YAML or JSON file per thing (see :mod:`taletable.store.base`).

The key is the file's path. The version is kept in the file itself, as its ``revision`` field
(a file that has none, such as one written by hand, is at revision 0). A save:

1. takes an advisory lock (``flock``) on the file's folder, so two processes never check and
   write one file at once;
2. re-reads the file and compares it with what this store read: a different revision, or
   different bytes (someone edited it by hand), is a ConflictError and nothing is written;
3. writes the new data at revision + 1 atomically (a temporary file, then a rename), so a crash
   or a ``kill -9`` at any moment leaves the old file or the new one, never a broken one.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from taletable.errors import ConflictError, DataError
from taletable.files import read_structured, write_structured
from taletable.store.base import Kind, Versioned, check_kind

__all__ = ["LOCK_WAIT_SECONDS", "REVISION_FIELD", "FileStore"]

#: The field of a saved file that holds its version.
REVISION_FIELD = "revision"
#: How long a save waits for another process's save in the same folder.
LOCK_WAIT_SECONDS = 10.0


def _revision_of(data: dict[str, Any], source: str) -> int:
    revision = data.pop(REVISION_FIELD, 0)
    if not isinstance(revision, int) or isinstance(revision, bool) or revision < 0:
        raise DataError(source, f"{REVISION_FIELD}: {revision!r} is not a whole number >= 0")
    return revision


@contextlib.contextmanager
def folder_lock(folder: Path, *, wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``folder`` (POSIX ``flock`` on the folder itself).

    Locking the folder rather than the file survives the rename of an atomic save (the new file
    is a new inode) and leaves no lock file behind. Without ``fcntl`` (Windows) no lock is taken;
    the revision check still refuses most stale saves there.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError as error:
        raise DataError(str(folder), f"cannot be opened to save in: {error.strerror}") from None
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if time.monotonic() > deadline:
                    raise DataError(
                        str(folder), "another save kept this folder locked; try again"
                    ) from None
                time.sleep(0.002)
        yield
    finally:
        os.close(handle)  # closing the descriptor releases the lock


class FileStore:
    """Things in files, keyed by path; versions in the files; saves locked and atomic."""

    def __init__(self) -> None:
        self._seen: dict[str, str] = {}

    @staticmethod
    def _identity(key: str) -> str:
        return os.path.abspath(key)

    def _load(self, key: str) -> tuple[Versioned, str]:
        data = read_structured(key)
        if not isinstance(data, dict):
            raise DataError(key, "holds no mapping of fields")
        revision = _revision_of(data, key)
        try:
            digest = hashlib.sha256(Path(key).read_bytes()).hexdigest()
        except OSError as error:
            raise DataError(key, f"cannot be read: {error.strerror}") from None
        return Versioned(key, revision, data), digest

    def read(self, kind: Kind, key: str) -> Versioned:
        """The file ``key`` as data, at the revision it holds."""
        check_kind(kind)
        thing, digest = self._load(key)
        self._seen[self._identity(key)] = digest
        return thing

    def save(
        self, kind: Kind, key: str, data: Mapping[str, Any], *, version: int | None
    ) -> Versioned:
        """Write ``data`` to the file ``key`` if it still is as read at ``version``."""
        check_kind(kind)
        path = Path(key)
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.is_dir():
            raise DataError(key, f"folder {folder} does not exist; create it first")
        with folder_lock(folder):
            current = 0
            if path.exists():
                thing, digest = self._load(key)
                current = thing.version
                seen = self._seen.get(self._identity(key))
                if version is None or current != version or (seen and seen != digest):
                    raise ConflictError(key, version=version or 0, current=current)
            elif version:
                raise ConflictError(key, version=version, current=0)
            saved = {**dict(data), REVISION_FIELD: current + 1}
            write_structured(path, saved)
            self._seen[self._identity(key)] = hashlib.sha256(path.read_bytes()).hexdigest()
        return Versioned(key, current + 1, dict(data))

    def keys(self, kind: Kind) -> tuple[str, ...]:
        """A file store has no list of its files: the person names each path."""
        check_kind(kind)
        return ()
