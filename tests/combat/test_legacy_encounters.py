"""Encounters saved before logs were notes (schema 1, a log of English lines) still open: each
is replayed from its steps, and its lines must be the words those steps make now."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.errors import DataError, InputError
from taletable.explain import render_all
from taletable.play import Table
from taletable.play.encounters import read_encounter
from taletable.store import MemoryStore
from taletable.systems.cogent.combat import Declaration, choose, declare, resolve, start_encounter
from taletable.systems.cogent.combat.replay import verify_replay
from taletable.systems.cogent.combat.state import Encounter
from tests.combat_helpers import fighter

SWORD = ("Sword", "Medium Weapon")


def _fought() -> Encounter:
    """Two rounds of a knight and a thug: declarations, rolls, a victory and its outcome."""
    knight = fighter("Knight", rfl=2, skills=(("Medium Weapons", 1),), weapons=(SWORD,))
    thug = fighter("Thug", rfl=1, skills=(("Medium Weapons", 1),), weapons=(SWORD,))
    encounter = start_encounter([("k", "a", knight, "Sword"), ("t", "b", thug, "Sword")],
                                GivenFaces([]))  # fmt: skip
    encounter = declare(encounter, Declaration(actor="t", action="attack", target="k"))
    encounter = declare(encounter, Declaration(actor="k", action="attack", target="t"))
    encounter = resolve(encounter, GivenFaces([4, 4, 4, 4, 1, 1, 1, 5, 1, 1, 1, 1, 1]))
    [victory] = encounter.victories
    return choose(encounter, victory.id, "minor injury", strength=0, armour=0)


def _schema_one(encounter: Encounter, *, edit: int | None = None) -> dict[str, object]:
    data = encounter.model_dump(mode="json")
    lines = render_all(encounter.log)
    if edit is not None:
        lines[edit] = lines[edit].replace("4 wins", "9 wins")
    return {**data, "schema_version": 1, "log": lines}


def test_a_schema_one_encounter_is_upgraded_to_the_notes_its_steps_make() -> None:
    """The old file's lines after the opening become the notes its steps make; the opening's
    (what the start wrote, which no step makes again) stay as they were, in the same words."""
    fought = _fought()
    old = Encounter.model_validate(_schema_one(fought))
    assert {line.kind for line in old.log} == {"legacy.line"}
    upgraded = verify_replay(old)
    assert upgraded.schema_version == 2
    assert render_all(upgraded.log) == render_all(fought.log)
    assert [line.kind for line in upgraded.log] == [
        "legacy.line",
        *[line.kind for line in fought.log[1:]],
    ]
    assert upgraded.log[1:] == fought.log[1:]
    assert upgraded.model_copy(update={"log": fought.log}) == fought


def test_a_schema_one_encounter_with_an_edited_line_is_refused() -> None:
    """A line that is not what the steps make is an edited file, refused as before."""
    fought = _fought()
    edited = next(i for i, line in enumerate(render_all(fought.log)) if "4 wins" in line)
    with pytest.raises(InputError, match="not what its steps make"):
        verify_replay(Encounter.model_validate(_schema_one(fought, edit=edited)))


def test_a_stored_schema_one_encounter_is_read_as_notes() -> None:
    """Through a store (as the CLI and a live table read one): the fight comes back as notes."""
    store = MemoryStore()
    store.save("encounter", "old", _schema_one(_fought()), version=None)
    read = read_encounter(Table(store=store), "old")
    assert read.encounter.log[1:] == _fought().log[1:]
    edited = next(i for i, line in enumerate(render_all(_fought().log)) if "4 wins" in line)
    store.save("encounter", "bad", _schema_one(_fought(), edit=edited), version=None)
    with pytest.raises(DataError, match="does not replay"):
        read_encounter(Table(store=store), "bad")
