"""Creating a character through the play layer, by action name, at a memory-store table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces
from taletable.errors import ConflictError, RulesError
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.character.creation import CreationRefused

ANSEL = Path("examples/characters/core_brother_ansel.yaml")


def _table(*faces: int) -> Table:
    return Table(dice=GivenFaces(list(faces)), store=MemoryStore())


def ansel() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(ANSEL.read_text())
    return data


def test_new_saves_a_legal_sheet_under_its_key() -> None:
    """cogent.character.new returns the legal sheet and saves it through the table's store."""
    table = _table()
    played = perform("cogent.character.new", {"sheet": ansel(), "key": "ansel"}, table)
    assert played.result.legal and played.result.saved == "ansel"
    assert table.store.read("character", "ansel").data["identity"]["name"] == "Brother Ansel"
    assert [e.kind for e in played.events] == ["cogent.character.new", "character.saved"]
    with pytest.raises(ConflictError):  # a second new sheet under the same key, not replacing
        perform("cogent.character.new", {"sheet": ansel(), "key": "ansel"}, table)
    again = perform("cogent.character.new", {"sheet": ansel(), "key": "ansel", "replace": True},
                    table)  # fmt: skip
    assert again.events[1].version == 2


def test_new_refuses_an_illegal_sheet_with_every_problem() -> None:
    """002 > Assigning Commerce Points: "the Narrator should assign a commerce level of Two,
    Three or Four"; a level of 6 and three attribute points are both refused, nothing saved."""
    sheet = ansel()
    sheet["commerce"] = {"assigned": 6}
    sheet["attributes"] = {"STR": 1, "RFL": 0, "INT": 2}
    table = _table()
    with pytest.raises(CreationRefused) as refused:
        perform("cogent.character.new", {"sheet": sheet, "key": "ansel"}, table)
    found = [p.found for p in refused.value.problems]
    assert "assigned commerce level 6" in found and "1 attribute point(s) over" in found
    assert table.store.keys("character") == ()


def test_validate_by_data_or_by_key() -> None:
    """cogent.character.validate checks a sheet given as data or saved under a key."""
    table = _table()
    table.store.save("character", "ansel", ansel(), version=None)
    by_key = perform("cogent.character.validate", {"key": "ansel"}, table).result
    sheet = ansel()
    sheet["disabling_characteristics"] = [{"name": "Overconfident", "skill": "Basketweaving"}]
    by_data = perform("cogent.character.validate", {"sheet": sheet}, table).result
    assert by_key.legal and not by_data.legal
    assert "'Basketweaving' is not a skill of this sheet" in by_data.problems[0].found


def test_step_and_the_rolled_choices_use_the_tables_dice() -> None:
    """The d20 rolls of creation come from the table's dice: 13 is Overconfident, 7 Tight
    Purse; the step check names the next step."""
    table = _table(13, 7)
    rolled = perform(
        "cogent.character.new.disabling", {"answer": "roll", "skill": "Stealth"}, table
    )
    assert (rolled.result.name, rolled.result.how, rolled.result.skill) == (
        "Overconfident", "rolled", "Stealth",
    )  # fmt: skip
    quirk = perform("cogent.character.new.quirk", {"answer": ""}, table).result
    assert (quirk.name, quirk.custom) == ("Tight Purse", False)
    with pytest.raises(RulesError, match="is not a quirk of wealth"):
        perform("cogent.character.new.quirk", {"answer": "Hoarder"}, table)
    step = perform(
        "cogent.character.new.step", {"sheet": {"edition": "core"}, "step": "mode"}, table
    )
    assert step.result.legal and step.result.next_step == "identity"


def test_commerce_and_starting_destiny_fill_the_sheet() -> None:
    """Level 4 brings a quirk ("must roll on the 'Quirks of Wealth' table"); Glory Days starts
    a Veteran at 1 destiny of 1."""
    table = _table()
    sheet = {"edition": "core", "mode": "veteran", "glory_days": True, "identity": {"name": "V"}}
    quirk = {"name": "Fame", "custom": False}
    draft = perform("cogent.character.new.commerce", {"sheet": sheet, "assigned": 4,
                                                  "quirks": [quirk]}, table).result  # fmt: skip
    assert draft.quirks_needed == 1 and draft.sheet["commerce"]["quirks"] == ["Fame"]
    started = perform("cogent.character.new.starting-destiny", {"sheet": draft.sheet}, table).result
    assert started.sheet["destiny"] == {"points": 1, "maximum": 1}
