"""The play layer's Cogent rolls, through a memory store, by name and by request."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from taletable.dice import SeededDice
from taletable.errors import InputError, RulesError
from taletable.play import CheckRequest, Table, all_actions, check, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.rules import Rules

TERRIK = Path("examples/characters/core_sir_terrik.yaml")


def _table(**rules: object) -> Table:
    return Table(rules=Rules(**rules), dice=SeededDice(1), store=MemoryStore())


def test_a_check_by_name_with_the_clis_option_names() -> None:
    """``cl`` and ``faces`` as the CLI spells them; the result is the engine's record."""
    played = perform("cogent.check", {"pool": 6, "cl": 3, "faces": "1,3,3,4,4,5"}, _table())
    assert played.result.wins == 3  # core wins on 4-6 (002 > How to Play > Dice Pools)
    assert played.result.passed is True
    assert [event.kind for event in played.events] == ["cogent.check"]


def test_a_check_from_a_stored_sheet_plays_in_the_sheets_edition() -> None:
    """A sheet in the store builds the pool; its edition rules the roll."""
    table = _table(edition="tiered")
    table.store.save("character", "terrik", yaml.safe_load(TERRIK.read_text()), version=None)
    request = CheckRequest(character="terrik", skill="Athletics", challenge_level=3)
    played = check(request, table)
    assert played.result.edition == "core"
    assert played.result.breakdown[0].source == "base"
    assert played.events[0].subject == "terrik"


def test_bad_arguments_name_their_field() -> None:
    """An unknown action, an unknown argument and a malformed one are InputErrors naming them."""
    with pytest.raises(InputError, match="^action: no action called 'cogent.chek'"):
        perform("cogent.chek", {}, _table())
    with pytest.raises(InputError, match="^colour"):
        perform("cogent.check", {"pool": 3, "colour": "red"}, _table())
    with pytest.raises(InputError, match="^pool"):
        perform("cogent.check", {"pool": "many"}, _table())
    with pytest.raises(InputError, match="^faces"):
        perform("cogent.check", {"pool": 2, "cl": 1, "faces": "1,2,3"}, _table())


@pytest.mark.parametrize(
    ("name", "args", "key", "value"),
    [
        ("cogent.conflict", {"pool_a": 3, "pool_b": 2, "faces_a": "6,6,1", "faces_b": "5,1"},
         "victory_level", 1),
        ("cogent.assist", {"pool": 4, "cl": 3, "faces": "6,6,6,6"}, "bonus", 1),
        ("cogent.collaborate", {"pools": "2,2", "cl": 1, "faces": "6,6,6,1"}, "wins", 3),
        ("cogent.powerless", {"pool": 5}, "cl", 2),
        ("cogent.challenge-levels", {}, "source", None),
    ],
)  # fmt: skip
def test_every_check_action_through_the_memory_store(
    name: str, args: dict[str, object], key: str, value: object
) -> None:
    """Each Cogent roll action runs by name and its result carries the field its --json has."""
    data = perform(name, args, _table()).result.to_data()
    assert key in data
    if value is not None:
        assert data[key] == value


def test_tiered_assist_conversion_and_core_refusal() -> None:
    """000 converts an assist's result; 002 has no conversion, so core refuses one."""
    args = {"pool": 6, "cl": 3, "convert": "cl", "faces": "4,4,4,5,6,6"}
    tiered = perform("cogent.assist", args, _table(edition="tiered"))
    assert tiered.result.conversion.challenge_level_change == -1
    with pytest.raises(RulesError, match="002 > How to Play > Assists"):
        perform("cogent.assist", {"pool": 6, "cl": 3, "convert": "cl"}, _table())


def test_the_registry_lists_each_action_once_sorted() -> None:
    """Names are the CLI's command paths joined by dots."""
    names = list(all_actions())
    assert names == sorted(names)
    assert {"cogent.check", "cogent.conflict", "cogent.destiny-roll"} <= set(names)


def test_destiny_roll_by_name() -> None:
    """The tiered d20 against the CL of a chance (000 > Destiny Rolls)."""
    played = perform("cogent.destiny-roll", {"chance": 50, "face": 11}, _table(edition="tiered"))
    assert played.result.to_data()["passed"] in (True, False)
