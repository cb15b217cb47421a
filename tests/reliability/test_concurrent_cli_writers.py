"""Two people running a rewriting command on one file at once lose no update.

Each worker is a real process that runs the CLI's ``main`` a hundred times on the same sheet.
Every run either lands (exit 0) or is refused with the conflict message (exit 2) and leaves the
file as the other run saved it; at the end the sheet holds exactly the changes that landed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

WORKER = """
import contextlib, io, json, sys
from taletable.cli.main import main

args = json.loads(sys.argv[1])
landed = refused = 0
for _ in range(int(sys.argv[2])):
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(args)
    if status == 0:
        landed += 1
    elif status == 2 and "changed by another save since it was read" in err.getvalue():
        refused += 1
    else:
        raise SystemExit(f"unexpected exit {status}: {err.getvalue()}")
print(landed, refused)
"""


def _race(args: list[str], rounds: int = 100) -> list[tuple[int, int]]:
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, json.dumps(args), str(rounds)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = []
    for worker in workers:
        out, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err
        landed, refused = out.split()
        results.append((int(landed), int(refused)))
    return results


def test_two_advancing_one_sheet_lose_no_chapter(tmp_path: Path) -> None:
    """`character advance --event chapter` twice a hundred times: every landed chapter is kept."""
    sheet = tmp_path / "ansel.yaml"
    shutil.copy("examples/characters/core_brother_ansel.yaml", sheet)
    before = len(yaml.safe_load(sheet.read_text()).get("history", []))
    results = _race(["cogent", "character", "advance", str(sheet), "--event", "chapter"])
    landed = sum(landed for landed, _ in results)
    after = yaml.safe_load(sheet.read_text())
    assert len(after["history"]) - before == landed
    assert after["revision"] == landed
    assert sum(refused for _, refused in results) + landed == 200


def test_two_buying_with_one_sheet_lose_no_purchase(tmp_path: Path) -> None:
    """`cogent buy` of a free item twice a hundred times: every landed purchase is recorded."""
    sheet = tmp_path / "mara.yaml"
    shutil.copy("examples/characters/core_mara_the_thief.yaml", sheet)
    before = len(yaml.safe_load(sheet.read_text()).get("history", []))
    results = _race(["cogent", "buy", str(sheet), "--item", "Bread", "--value", "0"])
    landed = sum(landed for landed, _ in results)
    after = yaml.safe_load(sheet.read_text())
    assert len(after["history"]) - before == landed
    assert after["revision"] == landed


def test_a_sheet_saved_with_a_revision_still_fights(tmp_path: Path, run_cli: object) -> None:
    """A sheet a command saved (so it carries its revision) is read by every other command."""
    sheet = tmp_path / "mara.yaml"
    shutil.copy("examples/characters/core_mara_the_thief.yaml", sheet)
    bought = run_cli("cogent", "buy", str(sheet), "--item", "Bread", "--value", "0")  # type: ignore[operator]
    assert bought.status == 0, bought.stderr
    assert yaml.safe_load(sheet.read_text())["revision"] == 1
    fight = run_cli(  # type: ignore[operator]
        "cogent", "combat", "start", "--fighter", f"m:a:{sheet}", "--fighter", "g:b:@goblin",
        "--out", str(tmp_path / "fight.json"), "--seed", "1",
    )  # fmt: skip
    assert fight.status == 0, fight.stderr
    for command in (["character", "validate"], ["character", "pools"], ["character", "show"]):
        shown = run_cli("cogent", *command, str(sheet))  # type: ignore[operator]
        assert shown.status == 0, (command, shown.stderr)
    declared = run_cli(  # type: ignore[operator]
        "cogent", "combat", "declare", str(tmp_path / "fight.json"), "--actor", "g",
        "--action", "attack", "--target", "m",
    )  # fmt: skip
    assert declared.status == 0, declared.stderr
    assert json.loads((tmp_path / "fight.json").read_text())["revision"] == 2
