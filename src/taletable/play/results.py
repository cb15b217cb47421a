"""A logged action's result read back into its record, and its one-line summary.

A live table's log keeps each action's result as JSON (``Record.to_data``). To show it, a shell
reads it back into the record the action returns (the registry's own type, from the play
function's ``Played[...]``), so it reads fields, not string keys, and says what the record's
``summary`` note says, the words the command line prints too (issue 21.7). A result logged by
an older version reads back as well: its summary, never stored then, is computed now; rules it
applied that were logged as English lines (before notes) come back as ``legacy.line`` notes.
Data that is no such record (an imported table's, a far older version's) reads as None.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

from pydantic import TypeAdapter, ValidationError

from taletable._model import Record
from taletable.explain import Note
from taletable.play.registry import all_actions

__all__ = ["RESULTS", "engine", "read_result", "result_type", "summary_of"]

#: The shape of the result records this engine logs: 1, rules applied logged as English lines
#: (the logs of builds before notes); 2, as notes (:class:`taletable.explain.Note`). A table's
#: opening entry records it (:func:`engine`), so a verifier knows what made a log's results.
RESULTS = 2


def engine() -> dict[str, Any]:
    """What makes this build's results, as a log records it: its name, version and
    :data:`RESULTS`."""
    from taletable import __version__

    return {"name": "taletable", "version": __version__, "results": RESULTS}


@cache
def result_type(action: str) -> Any | None:
    """The record (or union of records) the action ``action`` returns; None for an unknown
    action or one that returns any data."""
    known = all_actions().get(action)
    if known is None:
        return None
    played = typing.get_type_hints(known.run).get("return")
    found = typing.get_args(played)
    return found[0] if found and found[0] is not Any else None


@cache
def _adapter(action: str) -> TypeAdapter[Any] | None:
    kind = result_type(action)
    return None if kind is None else TypeAdapter(kind)


def _legacy(rules: Any) -> Any:
    """Rules applied logged as English lines (before notes), as ``legacy.line`` notes."""
    if isinstance(rules, list) and any(isinstance(rule, str) for rule in rules):
        return [
            {"kind": "legacy.line", "values": {"text": rule}} if isinstance(rule, str) else rule
            for rule in rules
        ]
    return rules


def _upgraded(data: Mapping[str, Any], depth: int = 2) -> dict[str, Any]:
    """``data`` with its (and its records') English rules applied read as notes."""
    upgraded = {}
    for key, value in data.items():
        if key == "rules_applied":
            value = _legacy(value)
        elif depth and isinstance(value, Mapping):
            value = _upgraded(value, depth - 1)
        upgraded[key] = value
    return upgraded


def read_result(action: str, data: Mapping[str, Any]) -> Record | None:
    """The record ``action`` logged as ``data``, read back; None when it is no such record."""
    adapter = _adapter(action)
    if adapter is None or not isinstance(data, Mapping):
        return None
    try:
        record = adapter.validate_python(_upgraded(data))
    except ValidationError:
        return None
    return record if isinstance(record, Record) else None


def summary_of(result: Record) -> Note | None:
    """The result's one-line summary (its record's ``summary`` note), if it has one."""
    summary = getattr(result, "summary", None)
    return summary if isinstance(summary, Note) else None
