"""House rules: a folder of rules tables that replace the shipped ones (DESIGN > Principles 4)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taletable.cli.main import HOUSE_RULES_VARIABLE, house_rules_library
from taletable.errors import DataError
from taletable.library import SHIPPED, RulesLibrary, load_package_table
from taletable.systems.cogent.equipment import WeaponTable

SHIPPED_WEAPONS = Path("src/taletable/systems/cogent/data/weapons.yaml")
TERRIK = "examples/characters/core_sir_terrik.yaml"


def _house_weapons(folder: Path, text: str) -> None:
    (folder / "cogent").mkdir(parents=True)
    (folder / "cogent" / "weapons.yaml").write_text(text, encoding="utf-8")


def _taletable(*args: str, house: Path | None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != HOUSE_RULES_VARIABLE}
    if house is not None:
        environment[HOUSE_RULES_VARIABLE] = str(house)
    return subprocess.run(
        [sys.executable, "-m", "taletable.cli.main", *args],
        capture_output=True, text=True, env=environment, check=False,
    )  # fmt: skip


def test_a_house_table_replaces_the_shipped_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a file under the system's name counts; without one the shipped table loads."""
    monkeypatch.setenv(HOUSE_RULES_VARIABLE, str(tmp_path))
    assert house_rules_library().house_rules == ()
    _house_weapons(tmp_path, SHIPPED_WEAPONS.read_text(encoding="utf-8").replace(
        "{name: Medium Weapon, skill: Medium Weapons, melee: 1,",
        "{name: Medium Weapon, skill: Medium Weapons, melee: 2,"))  # fmt: skip
    library = house_rules_library()
    assert library.house_rules == ("cogent/weapons.yaml",)
    with library.in_force():
        table = load_package_table("taletable.systems.cogent", "data/weapons.yaml", WeaponTable)
    medium = {group.name: group.melee for group in table.groups}["Medium Weapon"]
    assert medium == 2  # the shipped table says +1 (002 > Weapons)
    shipped = load_package_table("taletable.systems.cogent", "data/weapons.yaml", WeaponTable)
    assert {group.name: group.melee for group in shipped.groups}["Medium Weapon"] == 1
    monkeypatch.setenv(HOUSE_RULES_VARIABLE, str(tmp_path / "missing"))
    with pytest.raises(DataError, match="TALETABLE_HOUSE_RULES names no folder"):
        house_rules_library()


def test_the_cli_plays_by_house_rules(tmp_path: Path) -> None:
    """A medium weapon worth +2 at this table makes Sir Terrik's 8D6 combat pool 9D6."""
    shipped = _taletable("cogent", "character", "pools", TERRIK, "--json", house=None)
    assert json.loads(shipped.stdout)["combat"]["Arming Sword vs melee"]["dice"] == 8
    _house_weapons(tmp_path, SHIPPED_WEAPONS.read_text(encoding="utf-8").replace(
        "{name: Medium Weapon, skill: Medium Weapons, melee: 1,",
        "{name: Medium Weapon, skill: Medium Weapons, melee: 2,"))  # fmt: skip
    house = _taletable("cogent", "character", "pools", TERRIK, "--json", house=tmp_path)
    assert house.returncode == 0, house.stderr
    assert json.loads(house.stdout)["combat"]["Arming Sword vs melee"]["dice"] == 9


def test_a_broken_house_table_is_one_line_naming_it(tmp_path: Path) -> None:
    """A house table that fails its model is refused, naming the file; nothing else runs."""
    _house_weapons(tmp_path, "weapons: [{name: Club}]\n")
    broken = _taletable("cogent", "character", "pools", TERRIK, house=tmp_path)
    assert broken.returncode == 2
    assert broken.stdout == ""
    assert str(tmp_path / "cogent" / "weapons.yaml") in broken.stderr
    assert broken.stderr.count("\n") == 1
    missing = _taletable("cogent", "character", "pools", TERRIK, house=tmp_path / "nope")
    assert missing.returncode == 2
    assert "TALETABLE_HOUSE_RULES names no folder" in missing.stderr


def test_two_libraries_live_in_one_process(tmp_path: Path) -> None:
    """Two tables with different weapons tables, used in turn and at once, keep their own pools.

    The shipped table gives a medium weapon +1 (002 > Weapons), so Sir Terrik's Arming Sword
    pool is 8D6; a table whose house rules make it +3 gives him 10D6, and neither leaks.
    """
    from concurrent.futures import ThreadPoolExecutor

    from taletable.store.sheets import load_character
    from taletable.systems.cogent.character import combat_pool

    shipped_text = SHIPPED_WEAPONS.read_text(encoding="utf-8")
    house = RulesLibrary({"cogent/weapons.yaml": _yaml(shipped_text.replace(
        "{name: Medium Weapon, skill: Medium Weapons, melee: 1,",
        "{name: Medium Weapon, skill: Medium Weapons, melee: 3,"))})  # fmt: skip
    sheet = load_character(TERRIK)

    def dice(library: RulesLibrary) -> int:
        with library.in_force():
            return combat_pool(sheet, "Arming Sword").size

    assert dice(SHIPPED) == 8
    assert dice(house) == 10
    with ThreadPoolExecutor(max_workers=4) as pool:
        totals = list(pool.map(dice, [SHIPPED, house] * 20))
    assert totals == [8, 10] * 20
    assert dice(SHIPPED) == 8


def _yaml(text: str) -> object:
    import yaml

    return yaml.safe_load(text)
