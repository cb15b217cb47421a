"""Notes into English, from the templates in ``data/`` (one sentence per kind).

A template is a Python format string over the note's values and ``cite``. Lists render as
``[4, 4, 1]``; the ``!j`` conversion joins them with commas (``{names!j}``: ``a, b, c``) and
``!s`` joins them with semicolons (``{parts!s}``); notes inside a note render as their own
English. ``[ on {target}]`` is an optional part: left out when a value in it is missing, None
or an empty list. ``{a+b}`` pairs two lists: ``g2 5, g1 2`` from ``(g2, g1)`` and ``(5, 2)``.
"""

from __future__ import annotations

import functools
import json
import re
import string
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from pydantic import ValidationError

from taletable.errors import DataError
from taletable.explain.notes import Note
from taletable.files import parse_structured

__all__ = ["render", "render_all", "render_data", "templates"]


_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")


class _Formatter(string.Formatter):
    """``str.format`` with lists as ``[a, b]``, ``!j`` to join with commas, ``!s`` with
    semicolons, notes as their English, and ``{a+b}`` pairing two lists."""

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str) and "+" in key:
            first, second = key.split("+", 1)
            pairs = zip(kwargs[first], kwargs[second], strict=True)
            return ", ".join(f"{a} {b}" for a, b in pairs)
        return super().get_value(key, args, kwargs)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if isinstance(value, tuple | list) and value and isinstance(value[0], Note):
            value = [render(item) for item in value]
        if isinstance(value, tuple | list):
            if conversion == "j":
                return ", ".join(str(item) for item in value)
            if conversion == "s":
                return "; ".join(str(item) for item in value)
            return "[" + ", ".join(str(item) for item in value) + "]"
        if conversion in ("j", "s"):
            return str(value)
        return super().convert_field(value, conversion)


_FORMAT = _Formatter()


@cache
def templates() -> Mapping[str, str]:
    """Every kind's template, from each ``data/*.yaml`` (a kind defined twice is refused)."""
    found: dict[str, str] = {}
    folder = resources.files("taletable.explain") / "data"
    for item in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if not item.name.endswith(".yaml"):
            continue
        source = f"explain/data/{item.name}"
        loaded = parse_structured(item.read_text(encoding="utf-8"), source=source) or {}
        if not isinstance(loaded, dict):
            raise DataError(source, "a mapping of kinds to their templates")
        for kind, text in loaded.items():
            if kind in found or not isinstance(text, str):
                raise DataError(source, f"kind {kind!r}: one template each")
            found[kind] = text
    return found


def _present(values: Mapping[str, Any], text: str) -> bool:
    """Every value an optional part names is there, not None, not an empty list."""
    for _, field, _, _ in _FORMAT.parse(text):
        if field is not None:
            for name in field.split("+"):
                value = values.get(name)
                if value is None or (isinstance(value, tuple | list) and not value):
                    return False
    return True


#: Where a template names its citation: ``(CITE)``, ``(CITE is tiered)``, ``, CITE``.
_CITED = re.compile(r"\s*\(\{cite\}[^()]*\)|,\s*\{cite\}")


def render(entry: Note, *, cited: bool = True) -> str:
    """The note in English (``cited=False``: without the passage it cites, for a page that
    lists the citations apart, under "Rules applied"). A note of plain values (numbers, words)
    is rendered once and kept: every check's outcome is one of a few sentences."""
    try:
        # each value's type in the key too (1 and True are equal keys, and say different words)
        typed = tuple((name, type(value), value) for name, value in entry.values.items())
        return _kept(entry.kind, entry.cite, typed, cited)
    except TypeError:  # a value that is a list or a mapping: rendered each time
        return _rendered(entry, cited)


@functools.lru_cache(maxsize=4096)
def _kept(kind: str, cite: str, typed: tuple[tuple[str, type, Any], ...], cited: bool) -> str:
    values = {name: value for name, _type, value in typed}
    return _rendered(Note(kind=kind, cite=cite, values=values), cited)


def _rendered(entry: Note, cited: bool) -> str:
    template = templates().get(entry.kind)
    if template is None:
        raise DataError("explain/data", f"no template for the kind {entry.kind!r}")
    if not cited:
        template = _CITED.sub("", template)
    values = {**entry.values, "cite": entry.cite}
    kept = _OPTIONAL.sub(lambda part: part[1] if _present(values, part[1]) else "", template)
    return _FORMAT.vformat(kept, (), values)


def render_data(entry: object) -> str:
    """A note as JSON data made it (a mapping) in English; a line saved before notes existed
    (a plain string, in an older table's log or encounter) as it was. Stored data that is no
    note this version knows (an imported table's, say) is shown as its JSON, never an error."""
    if isinstance(entry, str):
        return entry
    try:
        return render(entry if isinstance(entry, Note) else Note.model_validate(entry))
    except (ValidationError, DataError, KeyError, IndexError, ValueError):
        return json.dumps(entry, ensure_ascii=False, default=str)


def render_all(entries: Iterable[Note]) -> list[str]:
    """Each note in English, in order."""
    return [render(entry) for entry in entries]
