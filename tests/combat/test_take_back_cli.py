"""`cogent combat take-back FILE`: a fight's last step taken back at the command line, as at a
live table (RULINGS.md "undoing at the table"): the encounter as its opening and the steps
before it make it, and destiny the step spent given back to the sheet it came off."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

TERRIK = Path("examples/characters/core_sir_terrik.yaml")


def _points(sheet: Path) -> int:
    points: int = yaml.safe_load(sheet.read_text())["destiny"]["points"]
    return points


def test_a_step_taken_back_gives_back_its_destiny(run_cli: Any, tmp_path: Path) -> None:
    """Sir Terrik declares with a destiny point spent before the roll (002 > Destiny Points):
    taking the declaration back gives the point back to his sheet file; a fight with no step
    left is refused in one line naming FILE, and the file is unchanged."""
    sheet, out = tmp_path / "terrik.yaml", tmp_path / "fight.json"
    shutil.copy(TERRIK, sheet)
    points = _points(sheet)
    started = run_cli("cogent", "combat", "start", "--fighter", f"t:a:{sheet}", "--fighter",
                      "g:b:@goblin", "--out", str(out), "--faces", "6,1")  # fmt: skip
    assert started.status == 0, started.stderr
    run_cli("cogent", "combat", "declare", str(out), "--actor", "g", "--action", "attack",
            "--target", "t")  # fmt: skip
    declared = run_cli("cogent", "combat", "declare", str(out), "--actor", "t", "--action",
                       "attack", "--target", "g", "--destiny-before")  # fmt: skip
    assert declared.status == 0, declared.stderr
    assert _points(sheet) == points - 1
    taken = run_cli("cogent", "combat", "take-back", str(out))
    assert taken.status == 0, taken.stderr
    assert "took back the last step (declare): round 1, declaration; 1 step(s) left" in (
        taken.stdout
    )
    assert _points(sheet) == points
    status = run_cli("cogent", "combat", "status", str(out), "--json").json()
    assert [d["actor"] for d in status["declarations"]] == ["g"]
    emptied = run_cli("cogent", "combat", "take-back", str(out), "--json")
    assert emptied.status == 0 and emptied.json()["steps"] == []
    before = out.read_bytes()
    refused = run_cli("cogent", "combat", "take-back", str(out))
    assert refused.status == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("taletable: error: FILE: the fight")
    assert "no step to take back yet" in refused.stderr
    assert out.read_bytes() == before
