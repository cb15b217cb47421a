"""A sheet edit refused as stale, field by field: which fields differ between the person's
edit and the sheet as now saved, and the sheet made of the side chosen for each.

A field is a leaf of the sheet's mappings (``identity.disposition``, ``skills.Athletics``,
``destiny.points``); a list (``vocations``, ``equipment.weapons``) is one field, taken whole.
A field one side lacks differs from the other's value. Nothing here is a rule: the merged
sheet is checked by every rule when it is saved, as any edit is.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import yaml

__all__ = ["Field", "differing", "label_of", "merged", "shown", "untouched"]

Path = tuple[str | int, ...]
#: A path the other side lacks.
ABSENT: Any = object()


class Field:
    """One field that differs: its path, its label, and each side's value."""

    def __init__(self, path: Path, theirs: Any, mine: Any) -> None:
        self.path, self.theirs, self.mine = path, theirs, mine

    @property
    def key(self) -> str:
        """The path as one form field's name (JSON: a skill name may hold any character)."""
        return json.dumps(list(self.path))

    @property
    def label(self) -> str:
        return label_of(self.path)


def _records(value: Any) -> bool:
    """A list of mappings (vocations, weapons): compared element by element."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _diff(mine: Any, theirs: Any, path: Path) -> list[Field]:
    if isinstance(mine, dict) and isinstance(theirs, dict) and (mine or theirs):
        keys = list(dict.fromkeys([*theirs, *mine]))
        return [field for key in keys
                for field in _diff(mine.get(key, ABSENT), theirs.get(key, ABSENT),
                                   (*path, str(key)))]  # fmt: skip
    if _records(mine) and _records(theirs):
        return [field for index in range(max(len(mine), len(theirs)))
                for field in _diff(mine[index] if index < len(mine) else ABSENT,
                                   theirs[index] if index < len(theirs) else ABSENT,
                                   (*path, index))]  # fmt: skip
    return [] if mine == theirs else [Field(path, theirs, mine)]


def differing(mine: dict[str, Any], theirs: dict[str, Any]) -> list[Field]:
    """Every field whose value differs between ``mine`` and ``theirs``, in the sheet's order:
    a mapping's keys one by one, a list of mappings element by element, anything else whole
    (an element one side lacks is one field)."""
    return _diff(mine, theirs, ())


def _at(data: Any, path: Path) -> Any:
    for part in path:
        listed = isinstance(part, int) and isinstance(data, list) and part < len(data)
        if not (listed or (isinstance(data, dict) and part in data)):
            return ABSENT
        data = data[part]
    return data


def untouched(fields: list[Field], base: dict[str, Any] | None) -> set[str]:
    """The keys of the ``fields`` the person left as they read them in ``base`` (the sheet
    their edit started from): only the other save changed those, so theirs is kept unless
    the person chooses otherwise. Without ``base`` every field counts as the person's."""
    if base is None:
        return set()
    return {field.key for field in fields if _at(base, field.path) == field.mine}


def label_of(path: Path) -> str:
    """``("identity", "elevator_pitch")`` as ``identity › elevator pitch``; an element of a
    list by its place (``vocations › 1 › name``)."""
    return " › ".join(
        str(part + 1) if isinstance(part, int) else part.replace("_", " ") for part in path
    )


def shown(value: Any) -> str:
    """A field's value in a line or a few (``(none)`` when that side lacks it)."""
    if value is ABSENT or value is None:
        return "(none)"
    if isinstance(value, str):
        return value or "(blank)"
    if isinstance(value, (list, dict)):
        return yaml.safe_dump(value, sort_keys=False, allow_unicode=True).strip() or "(none)"
    return str(value)


def _set(data: Any, path: Path, value: Any, removed: list[tuple[Any, int]]) -> None:
    *parents, last = path
    for part in parents:
        data = data[part]
    if isinstance(last, int):
        if value is ABSENT:
            removed.append((data, last))  # removed last, from the end, so indexes hold
        elif last < len(data):
            data[last] = copy.deepcopy(value)
        else:
            data.append(copy.deepcopy(value))
    elif value is ABSENT:
        data.pop(last, None)
    else:
        data[last] = copy.deepcopy(value)


def merged(theirs: dict[str, Any], mine: dict[str, Any], taken: set[Path]) -> dict[str, Any]:
    """``theirs`` with the person's own value of each field in ``taken`` (a field ``mine``
    lacks is removed)."""
    result = copy.deepcopy(theirs)
    removed: list[tuple[Any, int]] = []
    for field in differing(mine, theirs):
        if field.path in taken:
            _set(result, field.path, field.mine, removed)
    for holder, index in sorted(removed, key=lambda item: -item[1]):
        del holder[index]
    return result
