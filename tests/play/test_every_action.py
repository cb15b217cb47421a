"""Every action of the registry, played through a memory store (issue 11: "every play function
is exercised through the memory store"). The cases live in :mod:`action_cases` and
:mod:`action_cases_sheets`; an action registered without a case fails
:func:`test_every_action_has_a_case`."""

from __future__ import annotations

import pytest

import tests.play.action_cases_sheets  # noqa: F401 -- registers its cases
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
