"""`character new`: an illegal sheet is never saved; an illegal answer is shown and asked again."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from taletable.store.sheets import load_character
from taletable.systems.cogent.character.sheet import CoreCharacter

ANSEL = Path("examples/characters/core_brother_ansel.yaml")


@pytest.mark.parametrize(
    ("before", "after", "message"),
    [
        ("assigned: 4", "assigned: 6", "assigned commerce level 6"),
        ("{STR: 0, RFL: 0, INT: 2}", "{STR: 2, RFL: 2, INT: 2}", "attribute point(s) over"),
        ("  disposition: Patient, curious, stubbornly kind\n", "", "no Character Disposition"),
    ],
)
def test_new_from_an_illegal_file_is_refused(
    run_cli: Any, tmp_path: Path, before: str, after: str, message: str
) -> None:
    """002 > Assigning Commerce Points: "the Narrator should assign a commerce level of Two,
    Three or Four"; 002 > Attributes: "2 Attribute Points"; "Core Characteristic requirements
    to be filled out". One line, exit 2, nothing saved."""
    bad = tmp_path / "bad.yaml"
    text = ANSEL.read_text()
    assert before in text
    bad.write_text(text.replace(before, after))
    out = tmp_path / "out.yaml"
    made = run_cli("cogent", "character", "new", "--from", str(bad), "--out", str(out))
    assert made.status == 2 and message in made.stderr, made.stderr
    assert made.stderr.count("\n") == 1 and not out.exists()


def test_validate_refuses_overconfident_in_no_real_skill(run_cli: Any, tmp_path: Path) -> None:
    """Overconfident is "overconfident in a specific skill": "Basketweaving" is none."""
    sheet = tmp_path / "ansel.yaml"
    overconfident = "disabling_characteristics: [{name: Overconfident, skill: Basketweaving}]\n"
    sheet.write_text(ANSEL.read_text() + overconfident)
    checked = run_cli("cogent", "character", "validate", str(sheet))
    assert checked.status == 2 and "'Basketweaving' is not a skill of this sheet" in checked.stdout


def test_prompts_ask_again_until_each_step_is_legal(
    run_cli: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """Three attribute points, a characteristic off the table, nine points in a skill, an
    unknown quirk and a level-1 commerce are each shown with their rule and asked again."""
    answers = [
        "core", "fast_play", "Cy", "", "Calm", "Orphan", "Kindness", "Home",
        "1", "1", "1",  # over: "2 Attribute Points"
        "0", "1", "1",
        "Sneezes", "custom: Sneezes", "",  # off the table, then custom
        "Stealth=9", "Stealth=2",
        "Scout", "RFL", "1", "", "", "",
        "1",  # the narrator assigns 2, 3 or 4
        "4", "Hoarder", "custom: Hoarder", "0",
        "Axe=Pointy Stick", "", "", "Axe=Large Weapon", "", "",
    ]  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(answers) + "\n"))
    out = tmp_path / "cy.yaml"
    made = run_cli("cogent", "character", "new", "--out", str(out))
    assert made.status == 0, made.stderr
    weapon = "(002 > Combat > Weapon Modifiers); use a weapon group from the table"
    for shown in ("✗ 1 attribute point(s) over (002 > Character Creation > Attributes)",
                  "✗ 'Sneezes' is not on the table", "at most 4 in a core skill",
                  "✗ assigned commerce level 1", "✗ 'Hoarder' is not a quirk of wealth",
                  weapon):  # fmt: skip
        assert shown in made.stderr, shown
    sheet = load_character(out)
    assert isinstance(sheet, CoreCharacter)
    assert sheet.commerce.custom_quirks == ("Hoarder",) and sheet.commerce.quirks == ()
    assert sheet.disabling_characteristics[0].custom and sheet.skills == {"Stealth": 2}
    assert "legal" in made.stdout
