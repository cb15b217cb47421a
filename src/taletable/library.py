"""The rules tables in force: the shipped tables plus a table's house rules (DESIGN > Principles 4).

A :class:`RulesLibrary` is a value: the shipped rules tables, and house-rule copies of any of
them, each checked by the same model when it is first used. Two libraries with different house
rules live side by side in one process (two tables on one server), each with its own cache.

Which library the engine reads is set per call, not per process: ``with library.in_force():``
makes it the one every rules-table loader in the engine reads for the code inside the block
(a :mod:`contextvars` variable, so each thread and each asyncio task sees its own). ``play``
enters the library of the ``Table`` it was given; outside any block the shipped library is in
force. Threading the library through every rule function as an argument would put a parameter on
about a hundred pure functions that never look at it except to pass it down; the context keeps
them pure in what they compute while making the choice explicit at the one place it is made.

House rules are keyed ``SYSTEM/TABLE.yaml``, after the last part of the package that ships the
table and its file name without ``data/``: ``cogent/weapons.yaml`` replaces
``taletable.systems.cogent``'s ``data/weapons.yaml``. :meth:`RulesLibrary.from_folder` reads a
folder laid out that way (the CLI's ``TALETABLE_HOUSE_RULES``); a server passes plain data.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from taletable.errors import DataError

if TYPE_CHECKING:  # files (PyYAML, pydantic) is imported when a table is read: --help needs none
    from pydantic import BaseModel

__all__ = ["SHIPPED", "RulesLibrary", "house_rules_key", "load_package_table", "rules_library"]

M = TypeVar("M", bound="BaseModel")
T = TypeVar("T")

#: How many house-rule tables one library may hold (DESIGN > Principles 8).
MAX_HOUSE_TABLES = 100


def house_rules_key(package: str, name: str) -> str:
    """The house-rules key of ``package``'s table ``name``: ``cogent/weapons.yaml``."""
    return f"{package.rsplit('.', 1)[-1]}/{name.removeprefix('data/')}"


class RulesLibrary:
    """The shipped rules tables with a table's house rules over them; loads each table once."""

    def __init__(
        self, house_rules: Mapping[str, Any] | None = None, *, origins: Mapping[str, str] = {}
    ) -> None:
        house = dict(house_rules or {})
        if len(house) > MAX_HOUSE_TABLES:
            raise DataError("house rules", f"{len(house)} tables; at most {MAX_HOUSE_TABLES}")
        self._house = house
        self._origins = {key: origins.get(key, f"house rules {key}") for key in house}
        self._loaded: dict[Any, Any] = {}
        self._lock = threading.RLock()

    @classmethod
    def from_folder(cls, folder: str | Path) -> RulesLibrary:
        """House rules from a folder holding ``SYSTEM/TABLE.yaml`` files (read when used)."""
        root = Path(folder)
        if not root.is_dir():
            raise DataError(str(folder), "names no folder of house rules; fix or unset it")
        found = {
            f"{file.parent.name}/{file.name}": file
            for file in sorted(root.glob("*/*.yaml"))
            if file.is_file()
        }
        return cls(found, origins={key: str(path) for key, path in found.items()})

    @property
    def house_rules(self) -> tuple[str, ...]:
        """The keys of the tables this library's house rules replace, sorted."""
        return tuple(sorted(self._house))

    def load(self, package: str, name: str, model: type[M]) -> M:
        """The table ``name`` of ``package``, from the house rules if they have it."""
        return self.memo(("table", package, name, model), lambda: self._read(package, name, model))

    def memo(self, key: Any, build: Callable[[], T]) -> T:
        """A value derived from this library's tables, built once per library."""
        with self._lock:
            if key not in self._loaded:
                self._loaded[key] = build()
            return self._loaded[key]  # type: ignore[no-any-return]

    def _read(self, package: str, name: str, model: type[M]) -> M:
        from taletable.files import load_model, parse_structured, read_structured

        key = house_rules_key(package, name)
        if key in self._house:
            given = self._house[key]
            source = self._origins[key]
            data = read_structured(given) if isinstance(given, Path) else given
            return load_model(data, model, source=source)
        resource = resources.files(package).joinpath(name)
        source = f"{package}/{name}"
        try:
            text = resource.read_text(encoding="utf-8")
        except (FileNotFoundError, OSError):
            raise DataError(source, "rules table missing from the installed package") from None
        return load_model(parse_structured(text, source=source), model, source=source)

    def in_force(self) -> _InForce:
        """Make this library the one the engine reads inside the ``with`` block."""
        return _InForce(self)

    def __repr__(self) -> str:
        return f"RulesLibrary(house_rules={list(self.house_rules)})"


#: The shipped tables and no house rules.
SHIPPED = RulesLibrary()
_IN_FORCE: contextvars.ContextVar[RulesLibrary] = contextvars.ContextVar(
    "taletable_rules_library", default=SHIPPED
)


class _InForce:
    """:meth:`RulesLibrary.in_force`'s block (a class: every action enters one)."""

    def __init__(self, library: RulesLibrary) -> None:
        self.library = library

    def __enter__(self) -> RulesLibrary:
        self.token = _IN_FORCE.set(self.library)
        return self.library

    def __exit__(self, *_exception: object) -> None:
        _IN_FORCE.reset(self.token)


def rules_library() -> RulesLibrary:
    """The library in force here (the shipped one outside any ``in_force`` block)."""
    return _IN_FORCE.get()


def load_package_table(package: str, name: str, model: type[M]) -> M:
    """Load the rules table ``name`` shipped inside ``package`` (e.g. its ``data`` folder), from
    the library in force: its house-rule copy when the library has one, else the shipped table;
    each library loads a table once (DESIGN > Principles 4)."""
    return rules_library().load(package, name, model)
