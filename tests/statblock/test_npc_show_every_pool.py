"""`npc show` prints every pool its --json carries, and hardcore sheets are shown by the hardcore
rules when asked, refused in one line naming the flag when not (issue 12, point 6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

SPEARWOMAN = "examples/statblocks/sample_spearwoman.yaml"
KNIGHT = "examples/statblocks/sample_plated_knight.yaml"
THUG = "examples/statblocks/thug.yaml"


def test_npc_show_prints_a_bows_pools_and_bare_hands(run_cli: Any) -> None:
    """002 > Weapon Modifiers, Ranged: "+2D6 (Ranged Target)", "-3D6 (Melee Target)"; Unarmed
    "-1D6 (Ungloved)". The text shows every combat pool the --json has, with the same dice."""
    text = run_cli("cogent", "npc", "show", SPEARWOMAN)
    assert text.status == 0, text.stderr
    data = run_cli("cogent", "npc", "show", SPEARWOMAN, "--json").json()
    assert set(data["pools"]["combat"]) == {
        "Spear vs melee", "Short Bow vs melee", "Short Bow vs ranged", "bare hands vs melee",
    }  # fmt: skip
    for name, line in data["pools"]["combat"].items():
        assert f"combat with {name}: {line['dice']}D6" in text.stdout
    assert "combat with Short Bow vs ranged: 7D6" in text.stdout
    assert "combat with Short Bow vs melee: 2D6" in text.stdout
    assert "initiative 1; STR reductions 0; armour level 1" in text.stdout


def test_npc_show_prints_checks_below_the_base_too(run_cli: Any, tmp_path: Path) -> None:
    """002 > Victory Levels: an injury takes its level in dice from physical checks. A thug with
    a medium injury shows Athletics at 3 + STR 1 + 2 - 2 = 4D6 and Acrobatics at 3 - 2 = 1D6;
    the checks left at the base are counted on one line."""
    data = yaml.safe_load(Path(THUG).read_text())
    data["injuries"] = [{"level": 2, "description": "a cut"}]
    hurt = tmp_path / "hurt.yaml"
    hurt.write_text(yaml.safe_dump(data))
    shown = run_cli("cogent", "npc", "show", str(hurt))
    assert shown.status == 0, shown.stderr
    assert "  Athletics: 4D6\n" in shown.stdout and "  Acrobatics: 1D6\n" in shown.stdout
    checks = run_cli("cogent", "npc", "show", str(hurt), "--json").json()["pools"]["checks"]
    plain = sum(1 for line in checks.values() if line["dice"] == 3)
    assert f"every other check ({plain}): 3D6" in shown.stdout


def test_a_hardcore_sheet_without_the_flag_is_one_line_naming_it(run_cli: Any) -> None:
    """002 > Hardcore Armour Rules lists a Helmet; the standard armour table does not. Each
    command that reads the sheet refuses it before printing anything, naming --hardcore-armour."""
    for args in (
        ("cogent", "npc", "show", KNIGHT),
        ("cogent", "character", "pools", KNIGHT),
    ):
        refused = run_cli(*args)
        assert refused.status == 2 and refused.stdout == ""
        assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
        assert "'Helmet' is a piece of 002 > Hardcore Combat > Hardcore Armour Rules" in (
            refused.stderr
        )
        assert "add --hardcore-armour" in refused.stderr


def test_combat_start_refuses_a_helmet_without_the_flag(run_cli: Any, tmp_path: Path) -> None:
    """`combat start` says the same, and writes no encounter."""
    out = tmp_path / "fight.json"
    refused = run_cli("cogent", "combat", "start", "--fighter", f"k:a:{KNIGHT}",
                      "--fighter", f"t:b:{THUG}", "--out", str(out), "--seed", "1")  # fmt: skip
    assert refused.status == 2 and "add --hardcore-armour" in refused.stderr
    assert not out.exists()


def test_a_hardcore_sheet_shown_with_the_flags(run_cli: Any) -> None:
    """002 > Hardcore Weapon Modifiers: "a poleaxe ... reach-hafted blunt, reach-hafted blade, or
    a reach-hafted point weapon": each way has its pool; the armour line says it is hardcore."""
    flags = ("--hardcore-armour", "--hardcore-weapons")
    shown = run_cli("cogent", "npc", "show", KNIGHT, *flags)
    assert shown.status == 0, shown.stderr
    assert "combat with Poleaxe vs melee: 10D6" in shown.stdout
    assert "combat with Poleaxe as Reach Hafted Blunt vs melee: 8D6" in shown.stdout
    assert "armour level 5 (hardcore armour: by pieces, it reduces every injury)" in shown.stdout
    pools = run_cli("cogent", "character", "pools", KNIGHT, *flags)
    assert pools.status == 0, pools.stderr
    assert (
        "Poleaxe as Reach Hafted Point vs melee: 9D6 (base 3, STR +1, Reach Weapons (Knight) +3, "
        "hardcore armour (half the level, less Endurance) -1, Poleaxe (Reach Hafted Point) +3)"
    ) in pools.stdout
    data = run_cli("cogent", "character", "pools", KNIGHT, "--hardcore-armour", "--json").json()
    assert data["hardcore_armour"] and not data["hardcore_weapons"]
    assert data["combat"]["Poleaxe vs melee"]["dice"] == 9  # the standard Reach Weapon's +3
