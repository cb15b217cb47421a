"""Tiered sheets fight by the core combat rules adapted (RULINGS.md "tiered combat")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taletable.store.sheets import load_character
from taletable.systems.cogent.character import combat_pool
from taletable.systems.cogent.character.sheet import (
    Equipment,
    Identity,
    Specialisation,
    TieredAttributes,
    TieredCharacter,
    TieredVocation,
    Weapon,
)
from taletable.systems.cogent.combat.combatant import combatant_sheet

TERRIK = "examples/characters/core_sir_terrik.yaml"


def duellist() -> TieredCharacter:
    return TieredCharacter(
        identity=Identity(name="Duellist"),
        attributes=TieredAttributes(STR=1, RFL=2, INT=0, CHA=3),
        skills={"Endurance": 1},
        vocations=(
            TieredVocation(
                name="Blade",
                attribute="CHA",
                rank=2,
                specialisations=(
                    Specialisation(name="Medium Weapons", attribute="RFL", points=2),
                    Specialisation(name="Taunting", attribute="CHA", points=3),
                ),
            ),
        ),
        equipment=Equipment(weapons=(Weapon(name="Sabre", group="Medium Weapon"),)),
    )


def test_tiered_sheet_fights_without_cha() -> None:
    """3 + STR 1 + RFL 2 + INT 0 + Medium Weapons 2 + sabre 1 = 9D6; CHA 3 adds nothing."""
    sheet = combatant_sheet(duellist())
    pool = combat_pool(sheet, "Sabre")
    assert pool.size == 9
    assert pool.size == combat_pool(duellist(), "Sabre").size
    assert all("CHA" not in part.source for part in pool.contributions)
    assert [skill.name for skill in sheet.vocations[0].combat_skills] == ["Medium Weapons"]


def test_core_sheet_is_unchanged() -> None:
    """A core sheet fights as it is."""
    terrik = load_character(TERRIK)
    assert combatant_sheet(terrik) is terrik


def test_tiered_example_sheets_keep_their_pools() -> None:
    """Olga and Rick have the same combat pools as combatants as on their sheets."""
    for name in ("tiered_olga_the_protector", "tiered_rick_the_ranger"):
        sheet = load_character(f"examples/characters/{name}.yaml")
        for weapon in (*[w.name for w in sheet.equipment.weapons], None):
            assert (
                combat_pool(combatant_sheet(sheet), weapon).size == combat_pool(sheet, weapon).size
            )


def test_cli_starts_with_a_tiered_sheet(run_cli: Any, tmp_path: Path) -> None:
    """combat start takes a tiered character file in a tiered encounter."""
    file = tmp_path / "fight.json"
    started = run_cli(
        "cogent", "combat", "start", "--edition", "tiered",
        "--fighter", "olga:heroes:examples/characters/tiered_olga_the_protector.yaml:Club",
        "--fighter", "thug:gang:examples/statblocks/thug.yaml:Club",
        "--out", str(file), "--seed", "1",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    state = json.loads(file.read_text())
    assert state["rules"]["edition"] == "tiered"
    assert {c["id"] for c in state["combatants"]} == {"olga", "thug"}


def test_simulated_duel_with_a_tiered_sheet() -> None:
    """simulate_duel takes a tiered sheet and runs a seeded duel to an end."""
    from taletable.dice import SeededDice
    from taletable.systems.cogent.combat import simulate_duel

    result = simulate_duel(
        (duellist(), "Sabre"),
        (load_character(TERRIK), "Arming Sword"),
        SeededDice(3),
        max_rounds=60,
    )
    assert result.winner in ("a", "b")
    assert result.rounds >= 1
