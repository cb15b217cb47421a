"""Destiny held on a sheet: the tiered starting destiny, a new tier's start, awards and spends."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from taletable.errors import RulesError
from taletable.store.sheets import load_character
from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.commerce import purchase
from taletable.systems.cogent.character.destiny_awards import award_destiny, spend_destiny
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


def copy_of(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copy(EXAMPLES / name, target)
    return target


def test_a_check_from_a_sheet_spends_and_debits_its_destiny(run_cli: Any, tmp_path: Path) -> None:
    """002 > Destiny Points: "A character may spend a Destiny Point before any d6-based roll"
    (3-6 wins) and "after any roll ... to add a single win ... for as many Destiny Points as
    they have". Sir Terrik (3 points) spends one before and one after his Athletics check: the
    sheet keeps 1, and its history says where the two went."""
    terrik = copy_of(tmp_path, "core_sir_terrik.yaml")
    rolled = run_cli(
        "cogent", "check", "--character", str(terrik), "--skill", "Athletics", "--cl", "3",
        "--destiny-before", "advantage", "--destiny-after", "1", "--faces", "1,2,3,3,5,6",
        "--json",
    )  # fmt: skip
    assert rolled.status == 0, rolled.stderr
    assert rolled.json()["wins"] == 5  # 3, 3, 5, 6 on 3-6, and +1 after
    sheet = load_character(terrik)
    assert sheet.destiny.points == 1
    assert sheet.history[-1].event == "destiny-spent"
    assert sheet.history[-1].detail == ("2 spent on the Athletics check at CL 3: destiny 3 -> 1/3")
    text = run_cli("cogent", "check", "--character", str(terrik), "--skill", "Athletics",
                   "--cl", "3", "--destiny-after", "1", "--faces", "1,1,1,1,1,1")  # fmt: skip
    assert "1 spent from" in text.stdout and "0 left (saved)" in text.stdout
    assert load_character(terrik).destiny.points == 0


def test_a_check_from_a_sheet_cannot_spend_more_than_it_holds(run_cli: Any, tmp_path: Path) -> None:
    """ "for as many Destiny Points as they have": Terrik with 1 point cannot spend 2, and a
    --destiny-points figure cannot stand in for the sheet's."""
    terrik = copy_of(tmp_path, "core_sir_terrik.yaml")
    terrik.write_text(terrik.read_text().replace("points: 3, maximum: 3", "points: 1, maximum: 3"))
    before = terrik.read_text()
    args = ("cogent", "check", "--character", str(terrik), "--skill", "Athletics", "--cl", "3")
    over = run_cli(*args, "--destiny-after", "2", "--faces", "1,2,3,3,5,6")
    assert over.status == 2 and "only 1 are available" in over.stderr
    assert terrik.read_text() == before  # nothing spent, nothing saved
    claimed = run_cli(*args, "--destiny-points", "3", "--destiny-after", "2",
                      "--faces", "1,2,3,3,5,6")  # fmt: skip
    assert claimed.status == 2 and "destiny_points" in claimed.stderr.replace("-", "_")
    no_spend = run_cli(*args, "--faces", "1,2,3,3,5,6")
    assert no_spend.status == 0 and terrik.read_text() == before


def test_temporary_destiny_is_not_debited_from_the_sheet(run_cli: Any, tmp_path: Path) -> None:
    """000 > Destiny Points > Restrictions: "Temporary Destiny Points can only add dice to a
    Dice Pool": an assist's temporary point pays for Erin's +1D6, her own point stays."""
    erin = copy_of(tmp_path, "tiered_erin_the_mage.yaml")
    args = ("cogent", "check", "--character", str(erin), "--skill", "Sorcery", "--cl", "3")
    done = run_cli(*args, "--temporary-destiny", "1", "--destiny-before", "die",
                   "--faces", "4,4,4,1,1,1,1")  # fmt: skip
    assert done.status == 0, done.stderr
    assert load_character(erin).destiny.points == 1
    own = run_cli(*args, "--destiny-before", "die", "--faces", "4,4,4,1,1,1,1")
    assert own.status == 0, own.stderr
    assert load_character(erin).destiny.points == 0


def test_destiny_awards_are_commands(run_cli: Any, tmp_path: Path) -> None:
    """002 > Awarding Destiny Points: "During Fastplay games award one destiny point roughly
    every three hours of play as a baseline"; "The narrator may also award players additional
    destiny points throughout the game for exceptional role-playing"; 3 "is also the maximum"."""
    terrik = copy_of(tmp_path, "core_sir_terrik.yaml")
    terrik.write_text(terrik.read_text().replace("points: 3, maximum: 3", "points: 0, maximum: 3"))
    award = ("cogent", "character", "destiny", str(terrik))
    first = run_cli(*award, "--hours", "2", "--json")
    assert first.status == 0, first.stderr
    assert first.json()["detail"] == (
        "2 hour(s) played, 2 in all: no destiny point yet (one per 3 hours)"
    )
    second = run_cli(*award, "--hours", "2", "--json").json()
    assert second == {
        "event": "destiny",
        "detail": "+1 (2 hour(s) played, 4 in all): destiny 0 -> 1/3",
    }
    narrator = run_cli(*award, "--award", "3", "--reason", "held the bridge alone", "--json")
    assert narrator.json()["detail"] == (
        "+3 (held the bridge alone): destiny 1 -> 3/3 (1 over the maximum, not held)"
    )
    assert load_character(terrik).destiny.points == 3
    assert run_cli("cogent", "character", "validate", str(terrik)).status == 0
    assert run_cli(*award, "--award", "1").status == 2  # a reason is needed
    ansel = copy_of(tmp_path, "core_brother_ansel.yaml")
    campaign = run_cli("cogent", "character", "destiny", str(ansel), "--hours", "3")
    assert campaign.status == 2 and "Fast Play baseline" in campaign.stderr


def test_the_narrators_award_opens_the_tiered_destiny_to_its_maximum() -> None:
    """000 > Destiny Points: destiny "to a maximum as defined by the Tier"; once awarded, Erin
    (tier 2: start 1, max 3) may hold 3."""
    erin = award_destiny(tiered("tiered_erin_the_mage.yaml"), 2, "saved the library")
    assert erin.destiny.points == 3
    assert validate(erin).legal
    with pytest.raises(RulesError, match="2 destiny point"):
        spend_destiny(holding(tiered("tiered_erin_the_mage.yaml"), 1), 2, "a roll")
