"""Statblock files and the npc commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taletable.errors import DataError
from taletable.systems.cogent.statblock import load_statblock


def test_statblock_refuses_a_skill_above_its_vocation(tmp_path: Path) -> None:
    """A skill above its vocation, or a made-up weapon category not marked free-form: DataError."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: X\nvocations:\n  - {name: V, attribute: STR, points: 1,"
        " combat_skills: [{name: Small Weapons, points: 2}]}\n"
    )
    with pytest.raises(DataError, match="above its vocation"):
        load_statblock(bad)
    bad.write_text(
        "name: X\nvocations:\n  - {name: V, attribute: STR, points: 2,"
        " combat_skills: [{name: Claws, points: 2}]}\n"
    )
    with pytest.raises(DataError, match="mark it free_form"):
        load_statblock(bad)


def test_npc_commands(run_cli: Any, tmp_path: Path) -> None:
    """`cogent npc new` saves a statblock that `cogent npc show` reads back."""
    out = tmp_path / "guard.yaml"
    made = run_cli(
        "cogent",
        "npc",
        "new",
        "--name",
        "Guard",
        "--tier",
        "average",
        "--vocation",
        "Town Guard",
        "--weapon-skill",
        "Medium Weapons",
        "--weapon",
        "Medium Weapon",
        "--out",
        str(out),
    )
    assert made.status == 0, made.stderr
    shown = run_cli("cogent", "npc", "show", str(out), "--json")
    assert shown.json()["tier"] == "average"
    assert run_cli("cogent", "npc", "show", str(tmp_path / "missing.yaml")).status == 2
