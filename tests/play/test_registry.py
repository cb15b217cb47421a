"""The registry of actions: one name, one action."""

from __future__ import annotations

import pytest

from taletable.errors import DataError
from taletable.play import all_actions
from taletable.play.events import Played
from taletable.play.registry import action
from taletable.play.requests import Request


def test_two_actions_never_share_a_name() -> None:
    """Registering another function under a name in use is refused (two modules once both
    called an action ``cogent.character.commerce`` and the later silently replaced the other)."""
    all_actions()

    class Nothing(Request):
        pass

    def impostor(request: Nothing, table: object) -> Played[object]:  # type: ignore[type-var]
        raise AssertionError("never played")

    with pytest.raises(DataError, match="two actions are called 'cogent.check'"):
        action("cogent.check", Nothing)(impostor)  # type: ignore[arg-type]
    assert all_actions()["cogent.check"].run.__name__ == "check"
