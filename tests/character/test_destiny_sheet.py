"""Destiny held on a sheet: the tiered starting destiny, a new tier's start, awards and spends."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from taletable.systems.cogent.character import load_character, validate
from taletable.systems.cogent.character.commerce import purchase
from taletable.systems.cogent.character.progression import advance_tiered
from taletable.systems.cogent.character.sheet import Destiny, TieredCharacter
from taletable.systems.cogent.rules import Rules

EXAMPLES = Path("examples/characters")


def tiered(name: str) -> TieredCharacter:
    sheet = load_character(EXAMPLES / name)
    assert isinstance(sheet, TieredCharacter)
    return sheet


def holding(sheet: TieredCharacter, points: int) -> TieredCharacter:
    destiny = Destiny(points=points, maximum=sheet.destiny.maximum)
    return sheet.model_copy(update={"destiny": destiny})


def test_buying_equipment_does_not_lift_the_starting_destiny() -> None:
    """000 > Finishing Touches: "use the table above to determine your starting Destiny Points
    (Starting Destiny), and gain 1 Destiny Point per Story Chapter". Erin (tier 2: Starting
    Destiny 1, Max Destiny 3) buys a cloak: the purchase is in her history, but no destiny was
    awarded, so 2 points are still refused; a chapter's award makes them legal."""
    erin = tiered("tiered_erin_the_mage.yaml")
    shopped, _ = purchase(erin, "Cloak", 1)
    assert isinstance(shopped, TieredCharacter)
    assert shopped.history and shopped.history[-1].event == "purchase"
    found = [str(p) for p in validate(holding(shopped, 2)).problems]
    assert any("2 destiny points with no destiny award" in p for p in found), found
    assert all("000 > Character Creation > Finishing Touches" in p for p in found)
    chapter = advance_tiered(shopped, "chapter")
    assert chapter.destiny.points == 2
    assert validate(chapter).legal


@pytest.mark.parametrize(
    ("sheet_file", "held", "story_destiny", "after"),
    [
        ("tiered_olga_the_protector.yaml", 0, "at_least", (1, 3)),  # tier 1 -> 2: start 1
        ("tiered_rick_the_ranger.yaml", 0, "at_least", (3, 5)),  # tier 3 -> 4: start 3
        ("tiered_rick_the_ranger.yaml", 4, "at_least", (4, 5)),  # more than the start is kept
        ("tiered_rick_the_ranger.yaml", 4, "reset", (3, 5)),  # the literal "start with"
    ],
)
def test_a_new_tier_starts_the_story_with_its_destiny(
    sheet_file: str, held: int, story_destiny: str, after: tuple[int, int]
) -> None:
    """000 > Destiny Points: "All Characters start with a number Destiny Points at the beginning
    of every Story based on the Tier of play"; 000 > Tier Progression: "Story: Typically all
    Characters increase their Tier by one level"; 001's increment row gives destiny "*": "apply
    the Character Creation value for the new Tier". The points held rise to the new tier's
    Starting Destiny (switch: reset to it)."""
    rules = Rules.model_validate({"edition": "tiered", "story_destiny": story_destiny})
    sheet = holding(tiered(sheet_file), held)
    raised = advance_tiered(sheet, "tier", rules=rules)
    assert (raised.destiny.points, raised.destiny.maximum) == after
    assert f"destiny {held} -> {after[0]}/{after[1]}" in raised.history[-1].detail
    assert validate(raised).legal, validate(raised).problems


def test_advance_tier_from_the_command_line(run_cli: Any, tmp_path: Path) -> None:
    """`character advance --event tier` raises destiny to the new tier's start; the switch
    `--story-destiny reset` sets it."""
    olga = tmp_path / "olga.yaml"
    shutil.copy(EXAMPLES / "tiered_olga_the_protector.yaml", olga)
    done = run_cli("cogent", "character", "advance", str(olga), "--event", "tier", "--json")
    assert done.status == 0, done.stderr
    assert load_character(olga).destiny == Destiny(points=1, maximum=3)
    rick = tmp_path / "rick.yaml"
    shutil.copy(EXAMPLES / "tiered_rick_the_ranger.yaml", rick)
    args = ("--event", "tier", "--story-destiny", "reset")
    assert run_cli("cogent", "character", "advance", str(rick), *args).status == 0
    assert load_character(rick).destiny == Destiny(points=3, maximum=5)
