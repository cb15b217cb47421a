"""The play layer's random tables and narrator rolls, by name, through a memory store."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from taletable.dice import SeededDice
from taletable.errors import InputError
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.cogent.narrator import narrator_tables


def _table() -> Table:
    return Table(dice=SeededDice(5), store=MemoryStore())


def test_table_list_and_a_narrators_own_library(tmp_path: Path) -> None:
    """The shipped tables are listed; a loaded folder's table is listed with its origin."""
    listing = perform("table.list", {}, _table()).result
    dice = {row.name: row.die for row in listing.tables}
    assert dice["weather_winter"] == "d100"
    (tmp_path / "omens.yaml").write_text(
        yaml.safe_dump({"title": "Omens", "die": "d2", "entries": [
            {"roll": 1, "result": "Crows"}, {"roll": 2, "result": "Rain"}]}),
        encoding="utf-8",
    )  # fmt: skip
    library = narrator_tables(tmp_path)
    own = perform("table.list", {"tables": library}, _table()).result
    assert "omens" in {row.name for row in own.tables}
    rolled = perform("table.roll", {"name": "omens", "tables": library, "faces": "2"}, _table())
    assert rolled.result.result == "Rain"
    assert rolled.events[0].data["table"] == "omens"


def test_table_roll_with_a_modifier_and_its_follow_up() -> None:
    """002 > Weather: a natural 100 in a cold climate is a natural disaster, severity follows."""
    args = {"name": "weather_winter", "modifier": -15, "faces": "100,5"}
    result = perform("table.roll", args, _table()).result
    assert (result.total, result.result) == (100, "Natural disaster")
    assert result.follow_ups[0].result == "Heavy"
    with pytest.raises(InputError, match="no table called 'tavern'"):
        perform("table.roll", {"name": "tavern"}, _table())


def test_weather_and_encounter() -> None:
    """002 > Weather and Random Encounter Tables, from given faces and from a seed."""
    run = perform("cogent.weather", {"season": "winter", "faces": "10,1"}, _table()).result
    assert run.days[0].weather == "Snow" and run.days[0].snow_on_ground
    seeded = perform("cogent.weather", {"season": "autumn", "climate": "-20", "days": 3}, _table())
    assert seeded.result.climate_shift == -20 and len(seeded.result.days) == 3
    args = {"where": "country", "time": "day", "faces": "100,6"}
    found = perform("cogent.encounter", args, _table()).result
    assert (found.encounter, found.severity) == ("Dragon", "Heavy")


def test_the_bestiary_lists_and_shows() -> None:
    """The encounter tables' creatures (RULINGS.md "bestiary"): a listing, or one statblock."""
    listing = perform("cogent.npc.bestiary", {}, _table()).result
    assert listing.creatures["dire_wolf"].tier in {"average", "elite", "exceptional"}
    block = perform("cogent.npc.bestiary", {"name": "dire_wolf"}, _table()).result
    assert block.statblock.name == listing.creatures["dire_wolf"].name
