"""Two people changing one sheet at once lose nothing: commerce, quirk, destiny and raise.

Each writer is a real process that runs the command through the CLI's ``main`` a hundred times
on the same sheet. Every run lands (exit 0) or is told to reload (exit 2, the conflict) and
tries the same change again; at the end the sheet holds exactly the changes that landed, in its
history and in the numbers they changed, and every other command still reads it.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from tests.reliability.writers import landed, race

ROUNDS = 100
MARA = "examples/characters/core_mara_the_thief.yaml"


def _sheet(tmp_path: Path, **changes: Any) -> tuple[Path, dict[str, Any]]:
    """Mara's sheet in ``tmp_path`` with ``changes`` to its top-level fields; and its data."""
    path = tmp_path / "mara.yaml"
    shutil.copy(MARA, path)
    data = yaml.safe_load(path.read_text())
    data.update(changes)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path, data


def _events(data: dict[str, Any], event: str) -> int:
    return sum(1 for line in data.get("history", []) if line["event"] == event)


def _still_read(run_cli: Any, sheet: Path) -> None:
    for command in (["character", "show"], ["character", "pools"]):
        shown = run_cli("cogent", *command, str(sheet))
        assert shown.status == 0, (command, shown.stderr)


def test_commerce_and_quirk_raced_lose_nothing(tmp_path: Path, run_cli: Any) -> None:
    """Two writers, each alternating a Debt (-2 commerce) and a commerce gain of 1: every
    landed change is in the history, and ``gained`` counts every landed gain once."""
    commerce = {"assigned": 2, "quirks": ["Debt"], "bonus_skills": ["Persuasion"]}
    sheet, before = _sheet(tmp_path, commerce=commerce)
    cycle = [
        ["cogent", "character", "quirk", str(sheet), "--quirk", "Debt", "--reason", "a bad month"],
        ["cogent", "character", "commerce", str(sheet), "--gain", "1", "--reason", "a quest"],
    ]
    results = race(*({"cycle": cycle, "rounds": ROUNDS} for _ in range(2)))
    after = yaml.safe_load(sheet.read_text())
    quirks, gains = (sum(r[str(i)] for r in results) for i in range(2))
    assert _events(after, "quirk") == quirks
    assert _events(after, "commerce") == gains
    assert after["commerce"]["gained"] == gains
    assert len(after["history"]) == len(before.get("history", [])) + quirks + gains
    assert after["revision"] == quirks + gains
    assert sum(landed(r) + r["conflicts"] for r in results) == 2 * ROUNDS
    assert sum(r["conflicts"] for r in results) > 0, "the writers never met"
    _still_read(run_cli, sheet)


def test_destiny_raced_loses_no_award(tmp_path: Path, run_cli: Any) -> None:
    """Two writers, each alternating an award of 1 destiny and an hour of Fast Play: every
    landed hour is counted in ``hours_played``, every landed change in the history."""
    sheet, before = _sheet(tmp_path)
    cycle = [
        ["cogent", "character", "destiny", str(sheet), "--award", "1", "--reason", "a fine speech"],
        ["cogent", "character", "destiny", str(sheet), "--hours", "1"],
    ]
    results = race(*({"cycle": cycle, "rounds": ROUNDS} for _ in range(2)))
    after = yaml.safe_load(sheet.read_text())
    awards, hours = (sum(r[str(i)] for r in results) for i in range(2))
    assert after["progress"]["hours_played"] == hours
    assert len(after["history"]) == len(before.get("history", [])) + awards + hours
    assert after["revision"] == awards + hours
    assert sum(landed(r) + r["conflicts"] for r in results) == 2 * ROUNDS
    assert sum(r["conflicts"] for r in results) > 0, "the writers never met"
    _still_read(run_cli, sheet)


def test_raise_raced_spends_each_point_once(tmp_path: Path, run_cli: Any) -> None:
    """Twelve awarded attribute points, one writer raising STR and one RFL a hundred times:
    exactly twelve raises land, the two attributes rose by twelve in all, and every other
    attempt was told to reload or that no awarded point is left."""
    progress = {"attribute_points_awarded": 12}
    attributes = {"STR": -5, "RFL": -5, "INT": 1}
    sheet, _ = _sheet(
        tmp_path, superhuman_attributes=True, progress=progress, attributes=attributes
    )
    raises = (
        ["cogent", "character", "raise", str(sheet), "--attribute", a] for a in ("STR", "RFL")
    )
    left = ["no awarded attribute point left"]
    results = race(*({"cycle": [args], "rounds": ROUNDS, "refusals": left} for args in raises))
    after = yaml.safe_load(sheet.read_text())
    assert sum(landed(r) for r in results) == 12
    assert after["attributes"]["STR"] + after["attributes"]["RFL"] == -10 + 12
    assert after["attributes"]["STR"] == -5 + landed(results[0])
    assert sum(after["progress"]["attributes_from_awards"].values()) == 12
    assert _events(after, "attribute") == 12
    assert sum(landed(r) + r["conflicts"] + r["refused"] for r in results) == 2 * ROUNDS
    _still_read(run_cli, sheet)
