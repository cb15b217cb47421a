"""Collections of tables: the ones shipped in a package, and a narrator's own folder."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError, model_validator

from taletable._model import Record
from taletable.errors import DataError, InputError
from taletable.files import describe_validation_error, load_model, parse_structured, read_structured
from taletable.tables.model import RandomTable

__all__ = [
    "MAX_TABLE_FILES",
    "TableLibrary",
    "load_package_tables",
    "load_table_file",
    "load_table_folder",
]

#: The most table files read from one folder (DESIGN > Principles 8).
MAX_TABLE_FILES = 500
_SUFFIXES = {".yaml", ".yml", ".json"}


class TableLibrary(Record):
    """Tables by name, each with where it came from; follow-ups must resolve, without cycles."""

    tables: dict[str, RandomTable]
    origins: dict[str, str]

    @model_validator(mode="after")
    def _follow_ups_resolve(self) -> TableLibrary:
        for table in self.tables.values():
            for name in sorted(table.followed_by()):
                if name not in self.tables:
                    raise ValueError(f"table {table.name} follows up with {name!r}, not loaded")
        self._check_cycles()
        return self

    def _check_cycles(self) -> None:
        """Refuse a follow-up cycle by one depth-first walk that finishes each table once, so
        the check is linear in tables and follow-ups however they name each other."""
        done: set[str] = set()
        for start in sorted(self.tables):
            if start in done:
                continue
            path, on_path = [start], {start}
            stack = [iter(sorted(self.tables[start].followed_by()))]
            while stack:
                following = next(stack[-1], None)
                if following is None:
                    stack.pop()
                    finished = path.pop()
                    done.add(finished)
                    on_path.discard(finished)
                elif following in on_path:
                    cycle = [*path[path.index(following) :], following]
                    raise ValueError(f"follow-up cycle: {' -> '.join(cycle)}")
                elif following not in done:
                    path.append(following)
                    on_path.add(following)
                    stack.append(iter(sorted(self.tables[following].followed_by())))

    def get(self, name: str) -> RandomTable:
        """The table called ``name``, or an InputError listing the tables there are."""
        key = _table_key(name)
        if key not in self.tables:
            raise InputError(
                "NAME",
                f"no table called {name!r}",
                expected="one of " + ", ".join(sorted(self.tables)),
            )
        return self.tables[key]


def _table_key(name: str) -> str:
    """A table's name as the library keys it: ``Quirks of wealth`` -> ``quirks_of_wealth``."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def _library(tables: dict[str, RandomTable], origins: dict[str, str], source: str) -> TableLibrary:
    try:
        return TableLibrary(tables=tables, origins=origins)
    except ValidationError as error:
        raise DataError(source, describe_validation_error(error)) from None


def _as_table(data: Any, *, stem: str, source: str) -> RandomTable:
    if isinstance(data, dict):
        data = {"name": _table_key(stem), **data}
    return load_model(data, RandomTable, source=source)


def load_table_file(path: str | os.PathLike[str]) -> RandomTable:
    """Read one table file (its name defaults to the file's name)."""
    file = Path(path)
    return _as_table(read_structured(file), stem=file.stem, source=str(file))


def load_table_folder(
    path: str | os.PathLike[str], *, base: TableLibrary | None = None
) -> TableLibrary:
    """Read every ``.yaml``/``.yml``/``.json`` table in a folder (not its sub-folders).

    With ``base`` (the shipped tables), the result is ``base`` with the folder's tables added
    (a folder table replaces a base table of its name), and a folder table's follow-ups may name
    base tables (a narrator's tavern table followed by Cogent's ``severity``).
    """
    folder = Path(path)
    if not folder.is_dir():
        raise InputError("tables", f"{folder} is not a folder", expected="a folder of tables")
    files = sorted(file for file in folder.iterdir() if file.suffix.lower() in _SUFFIXES)
    if len(files) > MAX_TABLE_FILES:
        raise InputError("tables", f"{len(files)} files", expected=f"at most {MAX_TABLE_FILES}")
    tables: dict[str, RandomTable] = {}
    origins: dict[str, str] = {}
    for file in files:
        table = load_table_file(file)
        if table.name in tables:
            raise DataError(str(file), f"a second table called {table.name!r} in this folder")
        tables[table.name] = table
        origins[table.name] = str(file)
    if base is not None:
        return _library({**base.tables, **tables}, {**base.origins, **origins}, str(folder))
    return _library(tables, origins, str(folder))


def load_package_tables(package: str, folder: str = "data/tables") -> TableLibrary:
    """Read every table shipped in ``package``'s ``folder``."""
    root = resources.files(package).joinpath(folder)
    tables: dict[str, RandomTable] = {}
    origins: dict[str, str] = {}
    for item in sorted(root.iterdir(), key=lambda item: item.name):
        suffix = Path(item.name).suffix.lower()
        if suffix not in _SUFFIXES:
            continue
        source = f"{package}/{folder}/{item.name}"
        data = parse_structured(item.read_text(encoding="utf-8"), source=source)
        table = _as_table(data, stem=Path(item.name).stem, source=source)
        tables[table.name] = table
        origins[table.name] = f"{package} (shipped)"
    return _library(tables, origins, f"{package}/{folder}")
