"""The key that seals the CLI's encounter files (:mod:`taletable.play.seal`), kept outside them.

``TALETABLE_ENCOUNTER_KEY`` (any text; a narrator who shares it lets others continue a fight
on their machine), else the file ``taletable/encounter.key`` in the user's config folder
(``$XDG_CONFIG_HOME``, or ``~/.config``), made with 32 random bytes and mode 0600 the first
time it is needed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
from pathlib import Path

from taletable.errors import DataError

__all__ = ["KEY_VARIABLE", "encounter_key", "key_file"]

#: The environment variable that gives the key directly.
KEY_VARIABLE = "TALETABLE_ENCOUNTER_KEY"


def key_file() -> Path:
    """Where the user's key lives."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "taletable" / "encounter.key"


def _make_key(path: Path) -> None:
    """Write a new key whole, then link it into place: a reader never sees a half-made key,
    a kill leaves no empty one, and of two processes making it at once the first one's wins."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_hex(32) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):  # another process made it first: use theirs
            os.link(draft, path)
    finally:
        draft.unlink(missing_ok=True)


def encounter_key() -> bytes:
    """The key in force: the variable's, else the user's key file (made on first use)."""
    given = os.environ.get(KEY_VARIABLE)
    if given:
        return hashlib.sha256(given.encode()).digest()
    path = key_file()
    try:
        if not path.exists():
            _make_key(path)
        text = path.read_text().strip()
    except OSError as error:
        raise DataError(
            str(path), f"the encounter key cannot be kept here ({error.strerror}); "
            f"set {KEY_VARIABLE} instead",
        ) from None  # fmt: skip
    if not text:
        raise DataError(str(path), f"is empty; delete it to make a new key, or set {KEY_VARIABLE}")
    return hashlib.sha256(text.encode()).digest()
