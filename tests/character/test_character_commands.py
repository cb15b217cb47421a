"""The character commands with prompts, odd inputs and tiered sheets: one-line errors, exit 2."""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import pytest

from taletable.store.sheets import load_character
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter

EXAMPLES = Path("examples/characters")


def copied(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copy(EXAMPLES / name, target)
    return target


def test_new_by_prompts_core(run_cli: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """Prompts build a legal starting sheet: attributes, first vocation, level 2's bonus skill."""
    answers = ["core", "fast_play", "Ada", "A spy", "Wry", "Raised by spies", "Truth is a tool",
               "Find the mole", "0", "1", "1", "", "", "Spy", "INT", "1", "", "", "", "2",
               "Stealth"]  # fmt: skip
    answers += ["", "", "", ""]  # no step of the commerce level; no equipment
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    out = tmp_path / "ada.yaml"
    made = run_cli("cogent", "character", "new", "--out", str(out))
    assert made.status == 0, made.stderr
    sheet = load_character(out)
    assert isinstance(sheet, CoreCharacter)
    assert (sheet.attributes.RFL, sheet.attributes.INT) == (1, 1)
    assert sheet.vocations[0].name == "Spy" and sheet.vocations[0].points == 1
    assert sheet.commerce.bonus_skills == ("Stealth",) and sheet.skills == {"Stealth": 1}
    assert "skill points left 15 of 17" in made.stdout and "legal" in made.stdout


def test_new_by_prompts_rolls_the_d20_tables(
    run_cli: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """002 > Disabling Characteristics and Quirks of Wealth by prompts: a rolled characteristic is
    kept (+2 points), a chosen one +1; level 4 rolls a quirk, a step up rolls another, and a
    duplicate is rerolled. The d20 faces come from --faces."""
    answers = ["core", "fast_play", "Bo", "", "Gruff", "A smith's son", "Iron is honest",
               "Forge a crown", "1", "0", "1", "roll", "Stealth", "Phobia", "", "", "Smith",
               "STR", "1", "", "", "", "4", "", "1", "", "", "", ""]  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    out = tmp_path / "bo.yaml"
    made = run_cli("cogent", "character", "new", "--out", str(out), "--faces", "13,7,7,11")
    assert made.status == 0, made.stderr
    assert "rolled 13: Overconfident (kept)" in made.stderr
    sheet = load_character(out)
    assert isinstance(sheet, CoreCharacter)
    assert [(d.name, d.how) for d in sheet.disabling_characteristics] == [
        ("Overconfident", "rolled"), ("Phobia", "chosen"),
    ]  # fmt: skip
    assert sheet.commerce.quirks == ("Tight Purse", "Debt")  # the second 7 was rerolled
    assert (sheet.commerce.level, sheet.commerce.adjustment) == (5, 1)
    assert "skill points left 18 of 19" in made.stdout  # 12 + 3 INT + 2 + 1 + 1 free, 1 spent
    assert "legal" in made.stdout and sheet.disabling_characteristics[0].skill == "Stealth"


def test_new_by_prompts_tiered(run_cli: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """A tiered sheet by prompts starts with its tier's destiny (000 > Finishing Touches)."""
    answers = ["tiered", "3", "Bob", "A bargeman", "Bob poles the river and hears it all.",
               "Born on the barge", "1", "1", "1", "0", "", "", "", "", "", "", ""]  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    out = tmp_path / "bob.json"
    made = run_cli("cogent", "character", "new", "--out", str(out), "--json")
    assert made.status == 0 and "Tier [2]" in made.stderr  # prompts on stderr, JSON on stdout
    assert made.json()["saved"] == str(out) and made.json()["legal"] is True
    sheet = load_character(out)
    assert isinstance(sheet, TieredCharacter)
    assert (sheet.tier, sheet.destiny.points, sheet.destiny.maximum) == (3, 2, 4)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "{tmp}/missing/folder/x.yaml"], "does not exist; create it first"),
        (["--out", "{tmp}/x.txt"], "--out: {tmp}/x.txt: unknown file type"),
        (["--from", "{tmp}/nowhere.yaml", "--out", "{tmp}/x.yaml"], "no such file"),
    ],
)
def test_new_refuses_bad_paths(run_cli: Any, tmp_path: Path, args: list[str], message: str) -> None:
    """A folder that does not exist, an unknown suffix or a missing source: one line, exit 2."""
    filled = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    if "--from" not in filled:
        filled = ["--from", str(EXAMPLES / "core_sir_terrik.yaml"), *filled]
    out = run_cli("cogent", "character", "new", *filled)
    assert out.status == 2
    assert message.replace("{tmp}", str(tmp_path)) in out.stderr
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--item", "", "--value", "1"], "--item: empty"),
        (["--item", "   ", "--value", "1"], "--item: empty"),
        (["--item", "Horse", "--value", "-1"], "-1 is not in the range 0<=x<=8"),
        (["--item", "Horse", "--value", "99999999999999999999"], "0<=x<=8"),
        (["--item", "Horse", "--value", "1", "--destiny", "-2"], "'--destiny'"),
        (["--item", "Horse", "--value", "1", "--destiny", "4"], "4 destiny points asked, 3 held"),
        (["--item", "Castle", "--value", "6"], "above commerce level 2"),
    ],
)
def test_buy_refuses_odd_input(run_cli: Any, tmp_path: Path, args: list[str], message: str) -> None:
    """Odd purchases exit 2 with one line naming the option, and leave the sheet unchanged."""
    sheet = copied(tmp_path, "core_mara_the_thief.yaml")
    before = sheet.read_text()
    out = run_cli("cogent", "buy", str(sheet), *args)
    assert out.status == 2 and message in out.stderr, out.stderr
    assert sheet.read_text() == before


def test_buy_with_a_tiered_sheet(run_cli: Any, tmp_path: Path) -> None:
    """A tiered sheet spends its commerce points by the core scale (RULINGS.md)."""
    erin = copied(tmp_path, "tiered_erin_the_mage.yaml")
    bought = run_cli("cogent", "buy", str(erin), "--item", "Wand", "--value", "3", "--json")
    assert bought.status == 0, bought.stderr
    assert (bought.json()["cost"], bought.json()["points_after"]) == (2, 1)
    after = load_character(erin)
    assert after.commerce.points == 1 and "Wand" in after.equipment.items


def test_buy_away_from_home_with_closed_trade(run_cli: Any, tmp_path: Path) -> None:
    """002 > Quirks of Wealth: Closed Trade treats the level as two lower outside the home area."""
    ansel = copied(tmp_path, "core_brother_ansel.yaml")
    ansel.write_text(ansel.read_text().replace("Philanthropist", "Closed Trade/Unique Market"))
    home = run_cli("cogent", "buy", str(ansel), "--item", "Mule", "--value", "3", "--json")
    assert (home.json()["cost"], home.json()["points_after"]) == (1, 3)
    away = run_cli("cogent", "buy", str(ansel), "--item", "Cart", "--value", "1", "--away")
    assert away.status == 0 and "costs 2: commerce 3 -> 1" in away.stdout
    assert "level 3 counts as 1 away from home" in away.stdout
    refused = run_cli("cogent", "buy", str(ansel), "--item", "Horse", "--value", "1", "--away")
    assert refused.status == 2 and "commerce level -1 away from home" in refused.stderr


def test_show_prints_the_whole_sheet(run_cli: Any) -> None:
    """`show` prints identity, skills, nested vocational and combat skills, flaws and gear."""
    out = run_cli("cogent", "character", "show", str(EXAMPLES / "core_mara_the_thief.yaml"))
    for text in (
        "Mara — A city thief",
        "goals: Buy back her mother's house.",
        "Swim -1",
        "Lockpicking (RFL) 2",
        "Small Weapons (combat) 1",
        "disabling: Heavy (rolled 3)",
        "commerce level 2 (assigned 2), points 2",
        "weapon: Dagger (Small Weapon)",
        "skill points left",
    ):
        assert text in out.stdout, text
    rick = run_cli("cogent", "character", "show", str(EXAMPLES / "tiered_rick_the_ranger.yaml"))
    assert "Ranger (RFL) rank 2" in rick.stdout and "vocation points left 0 of 1" in rick.stdout
    data = run_cli(
        "cogent", "character", "show", str(EXAMPLES / "tiered_rick_the_ranger.yaml"), "--json"
    )
    assert data.json()["vocations"][0]["specialisations"][0]["name"] == "Wildcraft"


def test_milestone_for_an_unknown_vocation(run_cli: Any, tmp_path: Path) -> None:
    """`advance --event milestone --vocation` names a vocation on the sheet (exit 2 otherwise)."""
    ansel = copied(tmp_path, "core_brother_ansel.yaml")
    assert run_cli("cogent", "character", "advance", str(ansel), "--event", "arc").status == 0
    out = run_cli(
        "cogent", "character", "advance", str(ansel), "--event", "milestone", "--vocation", "Cook"
    )
    assert out.status == 2 and "'Cook' is not a vocation on the sheet" in out.stderr
    assert "Monk, Pilgrim" in out.stderr


def test_pools_name_an_unknown_weapon_group(run_cli: Any, tmp_path: Path) -> None:
    """A weapon whose group is not on the table is refused in one line (exit 2), not dropped
    from the combat pools; a weapon that cannot hit a target kind only skips that kind."""
    laser = tmp_path / "laser.yaml"
    text = (EXAMPLES / "core_sir_terrik.yaml").read_text()
    laser.write_text(text.replace("group: Medium Weapon}", "group: Laser}"))
    out = run_cli("cogent", "character", "pools", str(laser))
    assert out.status == 2 and "weapon: 'Laser' is not a weapon group" in out.stderr
    assert out.stderr.count("\n") == 1
    terrik = run_cli("cogent", "character", "pools", str(EXAMPLES / "core_sir_terrik.yaml"))
    assert terrik.status == 0 and "Arming Sword vs melee: 8D6" in terrik.stdout
    assert "Arming Sword vs ranged" not in terrik.stdout  # a medium weapon has no ranged use


def test_advance_refuses_the_other_editions_events(run_cli: Any, tmp_path: Path) -> None:
    """A core sheet takes no tiered event and a tiered sheet no core one; the fix lists the
    events of the sheet's own edition, and the file is left as it was."""
    ansel = copied(tmp_path, "core_brother_ansel.yaml")
    before = ansel.read_text()
    out = run_cli("cogent", "character", "advance", str(ansel), "--event", "tier")
    assert out.status == 2
    assert "use chapter, arc, final-arc, first-session or milestone" in out.stderr
    rick = copied(tmp_path, "tiered_rick_the_ranger.yaml")
    out = run_cli("cogent", "character", "advance", str(rick), "--event", "arc")
    assert out.status == 2 and "use chapter, growth or tier" in out.stderr
    assert ansel.read_text() == before
