"""Taking back a fight's last step and striking a log entry (issue 24.7), through ``perform``."""

from __future__ import annotations

from typing import Any

import pytest

from taletable.errors import InputError
from taletable.explain import render
from taletable.play import Table, perform
from tests.play.action_cases import _stored, _table


def _status(table: Table) -> dict[str, Any]:
    return dict(perform("cogent.combat.status", {"encounter": "f"}, table).result.to_data())


def test_a_step_taken_back_restores_the_fight_as_it_stood_before_it() -> None:
    """Each step taken back leaves the encounter exactly as it was before that step, at a
    new version each time, back to the fight as it started; with no step left it is refused."""
    table = _table()
    fighters = ["k:a:terrik", "g:b:@goblin"]
    perform("cogent.combat.start", {"encounter": "f", "fighters": fighters}, table)
    started = _status(table)
    goblin = {"encounter": "f", "actor": "g", "action": "attack", "target": "k"}
    perform("cogent.combat.declare", goblin, table)
    declared = _status(table)
    terrik = {**goblin, "actor": "k", "target": "g", "destiny_before": True}
    perform("cogent.combat.declare", terrik, table)
    perform("cogent.combat.resolve", {"encounter": "f"}, table)
    assert _stored(table, "terrik")["destiny"]["points"] == 2
    perform("cogent.combat.take-back", {"encounter": "f"}, table)  # the roll
    perform("cogent.combat.take-back", {"encounter": "f"}, table)  # Sir Terrik's declaration
    assert _status(table) == declared
    assert _stored(table, "terrik")["destiny"]["points"] == 3
    perform("cogent.combat.take-back", {"encounter": "f"}, table)
    assert _status(table) == started
    assert table.store.read("encounter", "f").version == 7  # a new version each time
    with pytest.raises(InputError, match="no step to take back"):
        perform("cogent.combat.take-back", {"encounter": "f"}, table)


def test_a_strike_says_which_entry_and_why() -> None:
    """The strike's summary names the entry and the reason; an empty reason is refused."""
    played = perform("log.strike", {"seq": 12, "reason": "rolled twice by mistake"}, _table())
    assert render(played.result.summary) == "entry #12 struck: rolled twice by mistake"
    with pytest.raises(InputError, match="reason"):
        perform("log.strike", {"seq": 12, "reason": "   "}, _table())
