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

__all__ = ["Field", "differing", "label_of", "merged", "shown"]

Path = tuple[str, ...]
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


def _leaves(data: Any, path: Path = ()) -> dict[Path, Any]:
    if isinstance(data, dict) and (data or not path):
        found: dict[Path, Any] = {}
        for key, value in data.items():
            found.update(_leaves(value, (*path, str(key))))
        return found
    return {path: data}


def differing(mine: dict[str, Any], theirs: dict[str, Any]) -> list[Field]:
    """Every field whose value differs between ``mine`` and ``theirs``, in the sheet's order."""
    own, other = _leaves(mine), _leaves(theirs)
    paths = list(dict.fromkeys([*other, *own]))
    return [
        Field(path, other.get(path, ABSENT), own.get(path, ABSENT))
        for path in paths
        if own.get(path, ABSENT) != other.get(path, ABSENT)
    ]


def label_of(path: Path) -> str:
    """``("identity", "elevator_pitch")`` as ``identity › elevator pitch``."""
    return " › ".join(part.replace("_", " ") for part in path)


def shown(value: Any) -> str:
    """A field's value in a line or a few (``(none)`` when that side lacks it)."""
    if value is ABSENT or value is None:
        return "(none)"
    if isinstance(value, str):
        return value or "(blank)"
    if isinstance(value, (list, dict)):
        return yaml.safe_dump(value, sort_keys=False, allow_unicode=True).strip() or "(none)"
    return str(value)


def _set(data: dict[str, Any], path: Path, value: Any) -> None:
    *parents, last = path
    for part in parents:
        child = data.get(part)
        if not isinstance(child, dict):
            child = data[part] = {}
        data = child
    if value is ABSENT:
        data.pop(last, None)
    else:
        data[last] = copy.deepcopy(value)


def merged(theirs: dict[str, Any], mine: dict[str, Any], taken: set[Path]) -> dict[str, Any]:
    """``theirs`` with the person's own value of each field in ``taken`` (a field ``mine``
    lacks is removed)."""
    result = copy.deepcopy(theirs)
    own = _leaves(mine)
    for field in differing(mine, theirs):
        if field.path in taken:
            _set(result, field.path, own.get(field.path, ABSENT))
    return result
