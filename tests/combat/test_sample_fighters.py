"""The sample fighter statblocks are valid and have the pools their comments promise."""

from __future__ import annotations

from taletable.store.sheets import load_statblock
from taletable.systems.cogent.character import combat_pool
from taletable.systems.cogent.combat.pool import Situation, situational_pool
from taletable.systems.cogent.statblock import statblock_problems


def test_sergeant_hale() -> None:
    """3 + STR 1 + Medium Weapons 2 + sword 1; breastplate and small shield (level 3, -2D6)
    less Endurance 2: 7D6; dual wielding the dagger adds 2D6."""
    block = load_statblock("examples/statblocks/sample_swordsman.yaml")
    assert statblock_problems(block) == []
    assert combat_pool(block.as_character(), "Sword").size == 7
    both = situational_pool(block.as_character(), Situation(weapon="Sword", secondary="Dagger"))
    assert both.size == 9


def test_ysolde_the_spear() -> None:
    """3 + RFL 1 + Reach Weapons 1 + spear 3 = 8D6; her short bow at range: 3 + 1 + 1 + 2 = 7D6."""
    block = load_statblock("examples/statblocks/sample_spearwoman.yaml")
    assert statblock_problems(block) == []
    sheet = block.as_character()
    assert combat_pool(sheet, "Spear").size == 8
    assert combat_pool(sheet, "Short Bow", target="ranged").size == 7
