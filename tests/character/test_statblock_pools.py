"""Statblocks' pools in --json and through `character pools`; campaign refusals cite Campaign
Progression (issue 12, point 15)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.files import character_from_data

THUG = "examples/statblocks/thug.yaml"
CAMPAIGN = "002 > Narration > Campaign Progression"
TERRIK = yaml.safe_load(Path("examples/characters/core_sir_terrik.yaml").read_text())


def test_npc_show_json_carries_every_pool(run_cli: Any) -> None:
    """002 > NPCs and Monsters: a statblock is shown with its pools; the Thug's knife is base 3
    + STR 1 + Small Weapons 2 (002 > Combat Fundamentals), and `--json` carries it with its
    parts, as the text shows it."""
    shown = run_cli("cogent", "npc", "show", THUG, "--json")
    assert shown.status == 0, shown.stderr
    pools = shown.json()["pools"]
    knife = pools["combat"]["Knife vs melee"]
    assert knife["dice"] == 6
    assert [part["source"] for part in knife["breakdown"]] == [
        "base", "STR", "Small Weapons (Muscle)",
    ]  # fmt: skip
    assert pools["checks"]["Intimidation"]["dice"] == 5
    assert pools["strength_reductions"] == 1
    assert shown.json()["name"] == "Thug"  # the statblock itself is still there
    creature = run_cli("cogent", "npc", "bestiary", "goblin", "--json").json()
    assert creature["pools"]["combat"]["Hatchet vs melee"]["dice"] == 5


def test_npc_new_json_carries_its_pools(run_cli: Any) -> None:
    """An elite NPC by the guideline tiers (002 > NPCs: attributes 1, skills 3) shows its
    combat pool in --json: base 3 + STR 1 + Medium Weapons 3 + the weapon's +1 = 8D6."""
    made = run_cli("cogent", "npc", "new", "--name", "Guard", "--tier", "elite",
                   "--vocation", "Town Guard", "--weapon-skill", "Medium Weapons",
                   "--weapon", "Medium Weapon", "--json")  # fmt: skip
    assert made.status == 0, made.stderr
    combat = made.json()["pools"]["combat"]
    assert next(line["dice"] for name, line in combat.items() if "vs melee" in name) == 8


def test_character_pools_works_on_a_statblock(run_cli: Any, tmp_path: Path) -> None:
    """`character pools` reads a statblock as it reads a sheet, rough pools included (002 >
    NPCs: "give them 'rough dice pools' - such as 'Intelligence skills, 5D6'")."""
    text = run_cli("cogent", "character", "pools", THUG)
    assert text.status == 0, text.stderr
    assert "Knife vs melee: 6D6 (base 3, STR +1, Small Weapons (Muscle) +2)" in text.stdout
    sage = tmp_path / "sage.yaml"
    run_cli("cogent", "npc", "new", "--name", "Sage", "--tier", "average", "--vocation", "Sage",
            "--rough", "Intelligence skills=5", "--out", str(sage))  # fmt: skip
    data = run_cli("cogent", "character", "pools", str(sage), "--json").json()
    assert data["rough_pools"] == {"Intelligence skills": 5}
    assert (
        "Intelligence skills (rough): 5D6"
        in run_cli("cogent", "character", "pools", str(sage)).stdout
    )


def problems(data: dict[str, Any]) -> list[str]:
    return [str(p) for p in validate(character_from_data(data, source="t")).problems]


def test_refusals_under_a_campaign_tier_cite_campaign_progression() -> None:
    """002 > Campaign Progression: "The values for starting attributes and skills replace the
    ones found in chapter 2"; Initiate's "Maximum Vocation Skill Points 2". Sir Terrik made as
    an Initiate breaks the tier's limits, and each refusal cites Campaign Progression; in Fast
    Play the same sheet is legal."""
    assert problems(TERRIK) == []
    initiate = copy.deepcopy(TERRIK)
    initiate["mode"] = "initiate"
    initiate["vocations"][0]["points"] = 3
    initiate["skills"]["Athletics"] = 3
    found = problems(initiate)
    for text in ("vocation Knight has 3", "attribute point(s) over", "skill point(s) over",
                 "Athletics has 3 points"):  # fmt: skip
        hits = [p for p in found if text in p]
        assert hits and all(CAMPAIGN in p for p in hits), (text, found)


def test_glory_days_refusals_cite_the_veteran_tier() -> None:
    """002 > Veteran Tier, Glory Days: "They have a maximum destiny point pool of ONE"."""
    data = copy.deepcopy(TERRIK)
    data.update(mode="veteran", glory_days=True)
    found = problems(data)
    assert any("destiny maximum 3" in p and f"{CAMPAIGN} > Veteran Tier" in p for p in found)
