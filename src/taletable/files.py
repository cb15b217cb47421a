"""Reading and writing the files people and rules tables are kept in.

* :func:`atomic_write_text` — save so that a crash never leaves half a file;
* :func:`read_structured` / :func:`write_structured` — a YAML or JSON file as plain data, or a
  :class:`DataError`;
* :func:`load_model` — that data validated by a pydantic model, every validation problem
  turned into one :class:`DataError` naming the file and the entry.

A rules table is read through the rules library in force
(:func:`taletable.library.load_package_table`, DESIGN > Principles 4), which reads with these;
this module knows no library.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import tempfile
import time
import unicodedata
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from taletable._parsing import LimitError, parse_text
from taletable.errors import DataError

__all__ = [
    "MAX_FILE_BYTES",
    "STALE_TEMPORARY_SECONDS",
    "TEMPORARY_SUFFIX",
    "atomic_write_bytes",
    "atomic_write_text",
    "check_regular_file",
    "describe_validation_error",
    "load_model",
    "parse_structured",
    "read_json",
    "read_structured",
    "remove_stale_temporaries",
    "shown_path",
    "write_structured",
]

M = TypeVar("M", bound=BaseModel)

#: The largest data or character file taletable reads (DESIGN > Principles 8).
MAX_FILE_BYTES = 5_000_000
#: How a save's temporary file name ends (``.NAME.PID.XXXX.taletable-tmp``).
TEMPORARY_SUFFIX = ".taletable-tmp"
#: The most bytes of NAME a temporary's name keeps (the whole stays under 255 bytes).
TEMPORARY_NAME_BYTES = 200
#: A temporary older than this is left from an interrupted save, whatever its process.
STALE_TEMPORARY_SECONDS = 3600


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same folder, then rename.

    A reader never sees half a file, and a failed write leaves the old file as it was. The saved
    file keeps the old file's permission bits (a new file gets the umask's); a link is written
    through to the file it names. Temporary files left by a save that was killed are removed
    by the next save of the same file (:func:`remove_stale_temporaries`). Any failure, a full
    disk included, is a DataError naming the file.
    """
    target = _save_target(Path(path))
    directory = target.parent
    try:
        old: os.stat_result | None = target.stat()
    except FileNotFoundError:
        old = None
    except OSError as error:
        raise DataError(str(path), f"cannot be written: {_reason(error)}") from None
    prefix = _temporary_prefix(target) + f"{os.getpid()}."
    try:
        handle, temporary = tempfile.mkstemp(prefix=prefix, suffix=TEMPORARY_SUFFIX, dir=directory)
    except FileNotFoundError:
        problem = f"folder {directory} does not exist; create it first"
        raise DataError(str(path), problem) from None
    except OSError as error:
        raise DataError(str(path), f"cannot be written: {_reason(error)}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            _copy_permissions(stream.fileno(), old)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise DataError(str(path), f"cannot be written: {_reason(error)}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    remove_stale_temporaries(target)


def _reason(error: OSError) -> str:
    return (error.strerror or type(error).__name__).replace("\n", " ")


def _copy_permissions(handle: int, old: os.stat_result | None) -> None:
    """Give the new file the old one's mode (and owner, where allowed), or the umask's."""
    if old is None:
        os.fchmod(handle, 0o666 & ~_umask())
        return
    with contextlib.suppress(OSError):  # only the superuser may give a file away
        if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
            os.fchown(handle, old.st_uid, old.st_gid)
    os.fchmod(handle, stat.S_IMODE(old.st_mode))


def _umask() -> int:
    """The process's umask, read without changing it where the system allows (Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def _save_target(target: Path) -> Path:
    """The file a save replaces: a link's destination; a folder or device is refused."""
    source = str(target)
    try:
        if target.is_symlink():
            target = Path(os.path.realpath(target))
        info = target.stat()
    except FileNotFoundError:
        return target if str(target.parent) else Path(".") / target
    except OSError as error:
        raise DataError(source, f"cannot be written: {_reason(error)}") from None
    if stat.S_ISDIR(info.st_mode):
        raise DataError(source, "is a folder; give a file name to save to")
    if not stat.S_ISREG(info.st_mode):
        raise DataError(source, "is not a regular file; give a file name to save to")
    return target


def _temporary_prefix(target: Path) -> str:
    """``.NAME.`` (NAME cut so the temporary's name stays under the 255-byte limit)."""
    name = target.name.encode("utf-8")[:TEMPORARY_NAME_BYTES].decode("utf-8", "ignore")
    return f".{name}."


def remove_stale_temporaries(target: str | os.PathLike[str]) -> int:
    """Remove the temporary files of earlier saves of ``target`` that were interrupted.

    A temporary is ``.NAME.PID.XXXX.taletable-tmp``; it is stale when the process PID is gone
    or it is older than :data:`STALE_TEMPORARY_SECONDS` (no save takes that long). A save in
    progress in a living process is left alone. Returns how many were removed.
    """
    file = Path(target)
    prefix = _temporary_prefix(file)
    pattern = re.compile(r"(\d+)\.[A-Za-z0-9_]+" + re.escape(TEMPORARY_SUFFIX))
    removed = 0
    try:
        candidates = [
            entry
            for entry in os.scandir(file.parent if str(file.parent) else ".")
            if entry.name.startswith(prefix) and entry.name.endswith(TEMPORARY_SUFFIX)
        ]
    except OSError:
        return 0
    now = time.time()
    for entry in candidates:
        match = pattern.fullmatch(entry.name[len(prefix) :])
        if match is None:
            continue  # another file's temporary (NAME.more) or not ours
        try:
            old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMPORARY_SECONDS
            if old or not _process_alive(int(match.group(1))):
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def write_structured(path: str | os.PathLike[str], data: Any) -> None:
    """Save plain ``data`` atomically as JSON (``.json``) or YAML (``.yaml``/``.yml``).

    An unknown suffix, a missing folder, a text over :data:`MAX_FILE_BYTES` (it could not be
    read back) or a failed write is a DataError naming the file.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".json":
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    elif suffix in {".yaml", ".yml"}:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    else:
        raise DataError(str(target), "unknown file type; use a .yaml, .yml or .json file")
    size = len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise DataError(
            shown_path(target),
            f"would be {size:,} bytes, over the {MAX_FILE_BYTES:,}-byte limit a file is read back"
            " with; nothing was saved: shorten the sheets' text or use fewer of them",
        )
    try:
        atomic_write_text(target, text)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise DataError(str(target), f"cannot be written ({reason}); check the folder") from None


def parse_structured(text: str, *, source: str, json_only: bool = False) -> Any:
    """Parse YAML (a superset of JSON) or, with ``json_only``, strict JSON, within the limits
    of :mod:`taletable._parsing` (depth, values with aliases expanded, digits)."""
    try:
        return parse_text(text, json_only=json_only)
    except LimitError as error:
        raise DataError(source, f"{error}") from None
    except (yaml.YAMLError, json.JSONDecodeError) as error:
        problem = " ".join(str(error).split())
        raise DataError(source, f"not valid {'JSON' if json_only else 'YAML'}: {problem}") from None


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as a message shows it: control characters (a newline...) written as escapes,
    so the message stays one line."""
    return "".join(
        char if unicodedata.category(char)[0] != "C" else char.encode("unicode_escape").decode()
        for char in os.fspath(path)
    )


def read_structured(path: str | os.PathLike[str]) -> Any:
    """Read a ``.yaml``/``.yml``/``.json`` file as plain data; any failure is a DataError.

    Only a regular file is read (a FIFO, a device or a link to one is refused without waiting),
    at most :data:`MAX_FILE_BYTES` of it, and parsed within the limits of
    :func:`parse_structured`.
    """
    file = Path(path)
    source = shown_path(file)
    data = _read_regular_file(file, source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(source, "is not UTF-8 text") from None
    return parse_structured(text, source=source, json_only=file.suffix.lower() == ".json")


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read a JSON file whatever its name's suffix (an export), within the limits of
    :func:`read_structured`; any failure is a DataError."""
    file = Path(path)
    source = shown_path(file)
    try:
        text = _read_regular_file(file, source, any_suffix=True).decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(source, "is not UTF-8 text") from None
    return parse_structured(text, source=source, json_only=True)


def check_regular_file(path: str | os.PathLike[str]) -> None:
    """That ``path`` is a regular file this process may read (a DataError naming what it is
    otherwise: missing, a folder, a FIFO or device), without blocking on a FIFO."""
    file = Path(path)
    os.close(_open_regular(file, shown_path(file))[0])


def _open_regular(file: Path, source: str) -> tuple[int, os.stat_result]:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        handle = os.open(file, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise DataError(source, _open_problem(error)) from None
    try:
        info = os.fstat(handle)
        if stat.S_ISDIR(info.st_mode):
            raise DataError(source, "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise DataError(source, "is not a regular file (a FIFO, device or socket)")
    except BaseException:
        os.close(handle)
        raise
    return handle, info


def _read_regular_file(file: Path, source: str, *, any_suffix: bool = False) -> bytes:
    handle, info = _open_regular(file, source)
    try:
        if not any_suffix and file.suffix.lower() not in {".yaml", ".yml", ".json"}:
            raise DataError(source, "unknown file type; use a .yaml, .yml or .json file")
        if info.st_size > MAX_FILE_BYTES:
            raise DataError(source, f"{info.st_size} bytes is over the {MAX_FILE_BYTES}-byte limit")
        chunks = []
        left = MAX_FILE_BYTES + 1
        while left > 0:
            chunk = os.read(handle, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise DataError(source, f"is over the {MAX_FILE_BYTES}-byte limit")
        return b"".join(chunks)
    except OSError as error:
        raise DataError(source, f"cannot be read: {_reason(error)}") from None
    finally:
        os.close(handle)


def _open_problem(error: OSError) -> str:
    """What an OSError from opening a file means, and what to do."""
    problems = {
        errno.ENOENT: "no such file; check the path",
        errno.ENAMETOOLONG: "the file name is too long (at most 255 bytes a name); rename it",
        errno.EACCES: "cannot be read: permission denied; check the file's and folders' modes",
        errno.EPERM: "cannot be read: permission denied; check the file's and folders' modes",
        errno.ELOOP: "is a link that leads round in a loop; fix the link",
        errno.ENOTDIR: "a part of the path is a file, not a folder; check the path",
        errno.EISDIR: "is a folder, not a file",
    }
    return problems.get(error.errno or 0, f"cannot be read: {_reason(error)}")


def describe_validation_error(error: ValidationError) -> str:
    """The first problem of a pydantic error as ``field.path: message`` (one line)."""
    problems = error.errors()
    first = problems[0]
    where = ".".join(str(part) for part in first["loc"]) or "(top level)"
    more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
    return f"{where}: {first['msg']}{more}"


def load_model(data: Any, model: type[M], *, source: str) -> M:
    """Validate plain ``data`` as ``model``; a problem is a DataError naming the entry."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise DataError(source, describe_validation_error(error)) from None
