"""Every action of the registry, played through a memory store (issue 11: "every play function
is exercised through the memory store"). The cases live in :mod:`action_cases` and
:mod:`action_cases_sheets`; an action registered without a case fails
:func:`test_every_action_has_a_case`."""

from __future__ import annotations

from typing import Any

import pytest

import tests.play.action_cases_sheets  # noqa: F401 -- registers its cases
from taletable.explain import render_data
from taletable.play import all_actions, perform
from tests.play.action_cases import CASES, _table


# -- the walk -------------------------------------------------------------------------------
def test_every_action_has_a_case() -> None:
    """A new action fails here until it has a case below."""
    assert sorted(CASES) == sorted(all_actions())


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_action_plays_through_a_memory_store(name: str) -> None:
    table = _table()
    args, check = CASES[name]
    played = perform(name, args(table) if callable(args) else args, table)
    check(played, table)
    result = played.result
    data = result.to_data() if hasattr(result, "to_data") else result
    for entry in _notes(data):  # every rule applied and line logged has its English
        assert render_data(entry).strip(), entry


def _notes(data: Any) -> list[Any]:
    """The notes (``kind``, ``values``, ``cite``) anywhere in a result's JSON data."""
    if isinstance(data, dict):
        if set(data) == {"kind", "values", "cite"}:
            return [data]
        return [found for value in data.values() for found in _notes(value)]
    if isinstance(data, list | tuple):
        return [found for value in data for found in _notes(value)]
    return []
