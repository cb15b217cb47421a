"""Reading and writing the files people and rules tables are kept in.

* :func:`atomic_write_text` — save so that a crash never leaves half a file;
* :func:`read_structured` / :func:`write_structured` — a YAML or JSON file as plain data, or a
  :class:`DataError`;
* :func:`load_model` / :func:`load_package_table` — that data validated by a pydantic model,
  every validation problem turned into one :class:`DataError` naming the file and the entry.

House rules (DESIGN > Principles 4) are the rules library's (:mod:`taletable.library`):
:func:`load_package_table` reads a table from the library in force.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from taletable.errors import DataError

__all__ = [
    "MAX_FILE_BYTES",
    "atomic_write_bytes",
    "atomic_write_text",
    "describe_validation_error",
    "load_model",
    "load_package_table",
    "parse_structured",
    "read_structured",
    "write_structured",
]

M = TypeVar("M", bound=BaseModel)

#: The largest data or character file taletable reads (DESIGN > Principles 8).
MAX_FILE_BYTES = 5_000_000


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same folder, then rename.

    A reader never sees half a file, and a failed write leaves the old file as it was.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise DataError(str(target), "is a folder; give a file name to save to")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    except FileNotFoundError:
        problem = f"folder {directory} does not exist; create it first"
        raise DataError(str(target), problem) from None
    except OSError as error:
        raise DataError(str(target), f"cannot be written: {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def write_structured(path: str | os.PathLike[str], data: Any) -> None:
    """Save plain ``data`` atomically as JSON (``.json``) or YAML (``.yaml``/``.yml``).

    An unknown suffix, a missing folder or a failed write is a DataError naming the file.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".json":
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    elif suffix in {".yaml", ".yml"}:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    else:
        raise DataError(str(target), "unknown file type; use a .yaml, .yml or .json file")
    try:
        atomic_write_text(target, text)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise DataError(str(target), f"cannot be written ({reason}); check the folder") from None


def parse_structured(text: str, *, source: str, json_only: bool = False) -> Any:
    """Parse YAML (a superset of JSON) or, with ``json_only``, strict JSON."""
    try:
        if json_only:
            return json.loads(text)
        return yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as error:
        problem = str(error).replace("\n", " ")
        raise DataError(source, f"not valid {'JSON' if json_only else 'YAML'}: {problem}") from None


def read_structured(path: str | os.PathLike[str]) -> Any:
    """Read a ``.yaml``/``.yml``/``.json`` file as plain data; any failure is a DataError."""
    file = Path(path)
    source = str(file)
    if not file.exists():
        raise DataError(source, "no such file; check the path")
    if file.suffix.lower() not in {".yaml", ".yml", ".json"}:
        raise DataError(source, "unknown file type; use a .yaml, .yml or .json file")
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            raise DataError(source, f"{size} bytes is over the {MAX_FILE_BYTES}-byte limit")
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(source, "no such file; check the path") from None
    except IsADirectoryError:
        raise DataError(source, "is a folder, not a file") from None
    except UnicodeDecodeError:
        raise DataError(source, "is not UTF-8 text") from None
    except OSError as error:
        raise DataError(source, f"cannot be read: {error.strerror}") from None
    return parse_structured(text, source=source, json_only=file.suffix.lower() == ".json")


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


def load_package_table(package: str, name: str, model: type[M]) -> M:
    """Load the rules table ``name`` shipped inside ``package`` (e.g. its ``data`` folder).

    The table comes from the rules library in force (:func:`taletable.library.rules_library`):
    its house-rule copy when the library has one, else the shipped table; each library loads a
    table once.
    """
    from taletable.library import rules_library

    return rules_library().load(package, name, model)
