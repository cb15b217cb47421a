"""Characters from the command line, progression and purchases."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from taletable.errors import RulesError
from taletable.store.sheets import load_character
from taletable.systems.cogent.character.commerce import purchase
from taletable.systems.cogent.character.progression import advance_core, advance_tiered

EXAMPLES = Path("examples/characters")


def test_validate_pools_and_check_from_a_sheet(run_cli: Any) -> None:
    """validate, pools and `cogent check --character --skill` from a sample sheet."""
    out = run_cli(
        "cogent", "character", "validate", str(EXAMPLES / "core_sir_terrik.yaml"), "--json"
    )
    assert out.status == 0 and out.json()["legal"] is True
    pools = run_cli(
        "cogent", "character", "pools", str(EXAMPLES / "core_sir_terrik.yaml"), "--json"
    )
    assert pools.json()["combat"]["Arming Sword vs melee"]["dice"] == 8
    assert pools.json()["checks"]["Athletics"]["dice"] == 6
    check = run_cli(
        "cogent",
        "check",
        "--character",
        str(EXAMPLES / "core_sir_terrik.yaml"),
        "--skill",
        "Athletics",
        "--cl",
        "3",
        "--faces",
        "4,4,4,1,1,1",
        "--json",
    )
    assert check.json()["pool"] == 6 and check.json()["passed"] is True
    missing = run_cli(
        "cogent",
        "check",
        "--character",
        str(EXAMPLES / "core_sir_terrik.yaml"),
        "--skill",
        "Juggling",
        "--cl",
        "3",
    )
    assert missing.status == 2 and "not on the sheet" in missing.stderr


def test_validate_exits_two_on_an_illegal_sheet(run_cli: Any, tmp_path: Path) -> None:
    """An illegal sheet exits 2 and lists its problems."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        (EXAMPLES / "core_sir_terrik.yaml").read_text().replace("Athletics: 2", "Athletics: 6")
    )
    out = run_cli("cogent", "character", "validate", str(bad))
    assert out.status == 2
    assert "at most 4 in a core skill" in out.stdout


def test_validate_cost_increase_switch(run_cli: Any, tmp_path: Path) -> None:
    """RULINGS.md "cost increase": rolled Feeble makes Sir Terrik's 5 STR points cost 2 each
    (+5 against the roll's +2: 3 over); `--cost-increase 0` ignores the increase (2 left)."""
    feeble = tmp_path / "feeble.yaml"
    text = (EXAMPLES / "core_sir_terrik.yaml").read_text()
    feeble.write_text(text + "disabling_characteristics: [{name: Feeble, how: rolled, roll: 2}]\n")
    costly = run_cli("cogent", "character", "validate", str(feeble), "--json")
    assert costly.status == 2 and costly.json()["budget"]["skill_points_left"] == -3
    assert "3 skill point(s) over" in costly.json()["problems"][0]["found"]
    plain = run_cli("cogent", "character", "validate", str(feeble), "--cost-increase", "0")
    assert plain.status == 0 and "skill points left 2 of 18" in plain.stdout


def test_new_from_file_and_advance_and_buy(run_cli: Any, tmp_path: Path) -> None:
    """new --from saves atomically; advance records an award; buy spends commerce."""
    out = tmp_path / "ansel.yaml"
    ansel = str(EXAMPLES / "core_brother_ansel.yaml")
    made = run_cli("cogent", "character", "new", "--from", ansel, "--out", str(out))
    assert made.status == 0, made.stderr
    again = run_cli("cogent", "character", "new", "--from", str(out), "--out", str(out))
    assert again.status == 2 and "exists" in again.stderr
    step = run_cli("cogent", "character", "advance", str(out), "--event", "chapter", "--json")
    assert step.status == 0, step.stderr
    assert load_character(out).progress.skill_points_awarded == 1
    bought = run_cli("cogent", "buy", str(out), "--item", "Mule", "--value", "3", "--json")
    assert bought.json()["cost"] == 1
    assert load_character(out).commerce.current == 3


def test_schema_command(run_cli: Any) -> None:
    """`schema character` prints a JSON Schema with both editions."""
    schema = run_cli("schema", "character").json()
    assert {"CoreCharacter", "TieredCharacter"} <= set(schema["$defs"])


def test_schema_command_by_edition(run_cli: Any) -> None:
    """`schema character --edition` prints one edition's sheet: tiered has CHA, core has not."""
    core = run_cli("schema", "character", "--edition", "core").json()
    tiered = run_cli("schema", "character", "--edition", "tiered").json()
    assert core["properties"]["edition"]["const"] == "core"
    assert tiered["properties"]["edition"]["const"] == "tiered"
    core_attrs = core["$defs"][core["properties"]["attributes"]["$ref"].split("/")[-1]]
    tiered_attrs = tiered["$defs"][tiered["properties"]["attributes"]["$ref"].split("/")[-1]]
    assert "CHA" in tiered_attrs["properties"] and "CHA" not in core_attrs["properties"]
    refused = run_cli("schema", "character", "--edition", "labcats")
    assert refused.status == 2


def test_core_progression_by_tier() -> None:
    """002 > Campaign Progression: chapter awards, every second chapter from arc 3 (Initiate)."""
    sheet = load_character(EXAMPLES / "core_brother_ansel.yaml")
    for _ in range(2):
        sheet = advance_core(sheet, "arc")
    assert sheet.progress.attribute_points_awarded == 1  # Adept: end of the second arc
    for _ in range(4):
        sheet = advance_core(sheet, "chapter")
    assert sheet.progress.skill_points_awarded == 2  # arc 3: every second chapter
    assert [award.event for award in sheet.history[-4:]] == ["chapter"] * 4
    with pytest.raises(RulesError, match="fast play has no campaign"):
        advance_core(load_character(EXAMPLES / "core_sir_terrik.yaml"), "chapter")


def test_glory_days_grow() -> None:
    """Veteran Glory Days: maximum destiny 1, then 2 and 3 at arc ends, 4 at the final arc."""
    sheet = load_character(EXAMPLES / "core_sir_terrik.yaml").model_copy(
        update={"mode": "veteran", "glory_days": True}
    )
    maxima = []
    for event in ("arc", "arc", "final-arc"):
        sheet = advance_core(sheet, event)  # type: ignore[arg-type]
        maxima.append(sheet.destiny.maximum)
    assert maxima == [2, 3, 4]


def test_tiered_progression() -> None:
    """000 > Tier Progression: chapters add destiny to the maximum; a story raises the tier."""
    sheet = load_character(EXAMPLES / "tiered_olga_the_protector.yaml")
    sheet = advance_tiered(advance_tiered(advance_tiered(sheet, "chapter"), "chapter"), "chapter")
    assert sheet.destiny.points == 2  # capped at tier 1's maximum
    sheet = advance_tiered(sheet, "tier")
    assert (sheet.tier, sheet.destiny.maximum) == (2, 3)


def test_tight_purse_and_destiny_discount() -> None:
    """Tight Purse forbids items above level - 2; destiny lowers a value a level per point."""
    mara = load_character(EXAMPLES / "core_mara_the_thief.yaml")
    tight = mara.model_copy(
        update={
            "commerce": mara.commerce.model_copy(
                update={"assigned": 4, "quirks": ("Tight Purse",), "bonus_skills": ()}
            )
        }
    )
    with pytest.raises(RulesError, match="Tight Purse"):
        purchase(tight, "Horse", 3)
    cheaper, record = purchase(tight, "Horse", 3, destiny=1)
    assert (record.effective_value, record.cost, cheaper.destiny.points) == (2, 0, 2)


def test_out_leaves_the_original_untouched(run_cli: Any, tmp_path: Path) -> None:
    """`advance --out` and `buy --out` save the changed sheet there; FILE stays as it was."""
    original = tmp_path / "ansel.yaml"
    shutil.copy(EXAMPLES / "core_brother_ansel.yaml", original)
    before = original.read_text()
    advanced, bought = tmp_path / "advanced.yaml", tmp_path / "bought.json"
    step = run_cli("cogent", "character", "advance", str(original), "--event", "chapter",
                   "--out", str(advanced))  # fmt: skip
    assert step.status == 0, step.stderr
    buy = run_cli("cogent", "buy", str(original), "--item", "Mule", "--value", "3",
                  "--out", str(bought))  # fmt: skip
    assert buy.status == 0, buy.stderr
    assert original.read_text() == before
    assert load_character(advanced).progress.chapters_completed == 1
    assert load_character(bought).commerce.current == 3
    assert load_character(original) == load_character(EXAMPLES / "core_brother_ansel.yaml")
