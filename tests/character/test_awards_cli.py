"""Changes in play from the command line, each saved and recorded in the sheet's history."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from taletable.store.sheets import load_character
from taletable.systems.cogent.character.sheet import CoreCharacter

EXAMPLES = Path("examples/characters")


def copy_of(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copy(EXAMPLES / name, target)
    return target


def test_raise_spends_an_awarded_attribute_point(run_cli: Any, tmp_path: Path) -> None:
    """002 > Adept campaigns: "At the beginning of the FINAL arc, award an ATTRIBUTE point";
    `character raise` spends it and records it; with none left it exits 2 naming the rule."""
    ansel = copy_of(tmp_path, "core_brother_ansel.yaml")
    refused = run_cli("cogent", "character", "raise", str(ansel), "--attribute", "STR")
    assert refused.status == 2
    assert "no awarded attribute point left" in refused.stderr
    assert "002 > Narration > Campaign Progression" in refused.stderr
    assert run_cli("cogent", "character", "advance", str(ansel), "--event", "final-arc").status == 0
    done = run_cli("cogent", "character", "raise", str(ansel), "--attribute", "STR", "--json")
    assert done.status == 0, done.stderr
    assert done.json() == {
        "event": "attribute",
        "detail": "STR 0 -> 1 with an awarded attribute point",
    }
    sheet = load_character(ansel)
    assert isinstance(sheet, CoreCharacter)
    assert (sheet.attributes.STR, sheet.progress.attributes_from_awards) == (1, {"STR": 1})
    assert run_cli("cogent", "character", "validate", str(ansel)).status == 0


def test_commerce_gained_in_play_is_a_recorded_command(run_cli: Any, tmp_path: Path) -> None:
    """002 > Assigning Commerce Points: "Players will gain commerce points throughout gameplay
    which will be assigned by the narrator as a reward for quests". Terrik (level 3) gains 2;
    the history says why, and the sheet stays legal at 5 points."""
    terrik = copy_of(tmp_path, "core_sir_terrik.yaml")
    gained = run_cli(
        "cogent", "character", "commerce", str(terrik), "--gain", "2",
        "--reason", "the dragon's hoard", "--json",
    )  # fmt: skip
    assert gained.status == 0, gained.stderr
    assert gained.json()["detail"] == "+2 commerce (the dragon's hoard): 3 -> 5"
    sheet = load_character(terrik)
    assert (sheet.commerce.points, sheet.commerce.gained) == (5, 2)
    assert run_cli("cogent", "character", "validate", str(terrik)).status == 0
    over = run_cli(
        "cogent", "character", "commerce", str(terrik), "--gain", "4", "--reason", "a crown"
    )
    assert over.status == 2 and "above the scale's top, 8" in over.stderr


def test_raise_past_the_sheets_top_is_refused_and_writes_nothing(
    run_cli: Any, tmp_path: Path
) -> None:
    """A superhuman STR 10 with an awarded point left: raising it would save STR 11, a sheet no
    command reads, so it exits 2 naming --attribute and the file is as it was."""
    mara = copy_of(tmp_path, "core_mara_the_thief.yaml")
    data = yaml.safe_load(mara.read_text())
    data.update(superhuman_attributes=True, progress={"attribute_points_awarded": 1})
    data["attributes"]["STR"] = 10
    mara.write_text(yaml.safe_dump(data))
    before = mara.read_bytes()
    refused = run_cli("cogent", "character", "raise", str(mara), "--attribute", "STR")
    assert refused.status == 2
    assert refused.stderr.count("\n") == 1
    assert "--attribute" in refused.stderr and "STR is 10, the most a sheet holds" in refused.stderr
    assert mara.read_bytes() == before
    assert run_cli("cogent", "character", "raise", str(mara), "--attribute", "RFL").status == 0
    assert run_cli("cogent", "character", "show", str(mara)).status == 0


def test_a_gain_that_would_break_the_sheet_is_refused_unsaved(run_cli: Any, tmp_path: Path) -> None:
    """A commerce gain past the sheet's own limit (gained at most 100) is refused before the
    save, so no file is left that every command would then refuse."""
    sheet = tmp_path / "rich.yaml"
    data = yaml.safe_load(Path("examples/characters/core_sir_terrik.yaml").read_text())
    data["commerce"]["gained"] = 99
    sheet.write_text(yaml.safe_dump(data))
    before = sheet.read_bytes()
    refused = run_cli("cogent", "character", "commerce", str(sheet), "--gain", "2", "--reason", "x")
    assert refused.status == 2 and "gained" in refused.stderr
    assert sheet.read_bytes() == before
    assert run_cli("cogent", "character", "show", str(sheet)).status == 0
