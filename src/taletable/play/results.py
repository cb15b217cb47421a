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

__all__ = [
    "PRESENTATION",
    "RESULTS",
    "decisive",
    "engine",
    "read_result",
    "result_type",
    "results_of",
    "summary_of",
]

#: The shape of the result records this engine logs: 1, rules applied logged as English lines
#: (the logs of builds before notes); 2, as notes (:class:`taletable.explain.Note`). A table's
#: opening entry records it (:func:`engine`), so a verifier knows what made a log's results.
RESULTS = 2


def engine() -> dict[str, Any]:
    """What makes this build's results, as a log records it: its name, version and
    :data:`RESULTS`."""
    from taletable import __version__

    return {"name": "taletable", "version": __version__, "results": RESULTS}


#: The fields of a result that present it and decide nothing: the rules applied (English lines
#: in results 1, notes in 2), the summary note, the narrative outcome's words. What the dice
#: decided (wins, margins, success, victory levels, totals, faces) is in the other fields.
PRESENTATION = frozenset({"rules_applied", "summary", "outcome", "notes"})


def results_of(opening_engine: Mapping[str, Any] | None) -> int:
    """The results version of a log, from its opening entry's ``engine`` (1: a build from
    before it was recorded, which logged rules applied as English lines, or earlier)."""
    version = (opening_engine or {}).get("results", 1)
    return version if isinstance(version, int) and not isinstance(version, bool) else 0


def decisive(data: Any) -> Any:
    """``data`` without its :data:`PRESENTATION` fields, at any depth: what a verifier holds a
    result made by an older engine to (its presentation may have changed since; what the dice
    decided may not)."""
    if isinstance(data, Mapping):
        return {key: decisive(value) for key, value in data.items() if key not in PRESENTATION}
    if isinstance(data, list):
        return [decisive(value) for value in data]
    return data


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
