"""Reading a page form's rows: a list of records posted as ``PREFIX.rows`` (how many) and each
row's fields as ``PREFIX.N.FIELD``, a row naming the row of the sheet it came from as
``PREFIX.N.from`` (so what the form does not show of it is kept). Used by the sheet form and
the creation wizard. A word where a number goes is an ``InputError`` naming the form field.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from taletable.errors import InputError

__all__ = ["MOST_ROWS", "Data", "Form", "named_rows", "rows", "strings", "text", "whole"]

Data = dict[str, Any]
Form = Mapping[str, Any]
#: The most rows a form may post in one list (a limit checked before any work).
MOST_ROWS = 12


def text(form: Form, name: str) -> str:
    """The field ``name`` as typed, trimmed ("" when absent)."""
    return str(form.get(name, "") or "").strip()


def whole(form: Form, name: str, default: int | None = 0) -> int | None:
    """The field ``name`` as a whole number (``default`` when blank)."""
    typed = text(form, name)
    if not typed:
        return default
    try:
        return int(typed)
    except ValueError:
        raise InputError(name, f"{typed!r} is not a whole number", expected="a number") from None


def number(form: Form, name: str, default: int = 0) -> int:
    """The field ``name`` as a whole number, ``default`` when blank."""
    value = whole(form, name, default)
    assert value is not None
    return value


def rows(form: Form, prefix: str, old: list[Any]) -> list[tuple[str, Any]]:
    """Each row the form posted under ``prefix``: its field prefix and a copy of the row of
    ``old`` it came from (None for a new one)."""
    count = max(0, min(MOST_ROWS, number(form, f"{prefix}.rows")))
    found = []
    for row in range(count):
        origin = text(form, f"{prefix}.{row}.from")
        index = int(origin) if origin.isdigit() else -1
        base = copy.deepcopy(old[index]) if 0 <= index < len(old) else None
        found.append((f"{prefix}.{row}", base))
    return found


def named_rows(form: Form, prefix: str, old: list[Any], keep: bool, fields: dict[str, str]
               ) -> list[Data]:  # fmt: skip
    """Rows of records: each of ``fields`` read as ``text`` or (``int``) a number; a row
    without a name is dropped unless ``keep`` (a row just added)."""
    found = []
    for where, base in rows(form, prefix, old):
        row: Data = dict(base) if isinstance(base, dict) else {}
        for field, kind in fields.items():
            name = f"{where}.{field}"
            if name in form:
                row[field] = number(form, name) if kind == "int" else text(form, name)
        if row.get("name") or keep:
            found.append(row)
    return found


def strings(form: Form, prefix: str, old: list[Any], keep: bool) -> list[str]:
    """Rows of single values (armour pieces, items); blank ones dropped unless ``keep``."""
    values = [text(form, where) for where, _base in rows(form, prefix, old)]
    return [value for value in values if value or keep]
