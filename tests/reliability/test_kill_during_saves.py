"""kill -9 during every kind of save, through the real commands: the file is always whole.

A writer process runs one kind of save over and over (a sheet rewritten by buy and advance,
an encounter stepped by declare, resolve and choose, a file made by an ``--out`` creator, a
cheatsheet written with ``--out``) and is killed with SIGKILL at a random moment (seeded),
fifteen times. After each kill the file is the old save or the new one, whole and valid (a sheet
every command reads, an encounter whose seal and replay verify, a cheatsheet byte for byte as
written); and after the next save no temporary file is left in the folder.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.reliability.cli_worker import _fight_step
from tests.reliability.writers import Forker, temporaries

KILLS = 15
MARA = "examples/characters/core_mara_the_thief.yaml"
ANSEL = "examples/characters/core_brother_ansel.yaml"


@dataclass(frozen=True)
class Save:
    """A kind of save: what a writer repeats, how to check the file, and the next save."""

    prepare: Callable[[Path, Any], dict[str, Any]]
    check: Callable[[Path, Any], None]
    again: Callable[[Path, Any], list[str]]


def _ok(run_cli: Any, *args: str) -> Any:
    result = run_cli(*args)
    assert result.status == 0, (args, result.stderr)
    return result


# -- a sheet rewritten: buy and advance -------------------------------------------------------


def _sheet_prepare(target: Path, run_cli: Any) -> dict[str, Any]:
    shutil.copy(ANSEL, target)  # adept: campaign chapters, and Bread for nothing
    return {"cycle": _sheet_commands(target)}


def _sheet_commands(target: Path) -> list[list[str]]:
    return [
        ["cogent", "buy", str(target), "--item", "Bread", "--value", "0"],
        ["cogent", "character", "advance", str(target), "--event", "chapter"],
    ]


def _sheet_check(target: Path, run_cli: Any) -> None:
    data = yaml.safe_load(target.read_text())
    assert len(data["history"]) == data.get("revision", 0), "a save is half there"
    _ok(run_cli, "cogent", "character", "show", str(target))


# -- an encounter stepped: declare, resolve, choose --------------------------------------------


def _fight_prepare(target: Path, run_cli: Any) -> dict[str, Any]:
    _ok(run_cli, *_start(target))
    return {"fight": str(target)}


def _start(target: Path) -> list[str]:
    return [
        "cogent", "combat", "start", "--fighter", "a:x:@goblin", "--fighter", "b:y:@goblin",
        "--engaged", "a:b:adjacent", "--out", str(target), "--seed", "1",
    ]  # fmt: skip


def _fight_check(target: Path, run_cli: Any) -> None:
    data = json.loads(target.read_text())
    assert len(data["steps"]) == data["revision"] - 1, "a step is half there"
    _ok(run_cli, "cogent", "combat", "replay", str(target))


def _fight_again(target: Path, run_cli: Any) -> list[str]:
    return ["cogent", "combat", *_fight_step(str(target))[1]]


# -- a new file made with --out: character new --from, npc new, combat start -------------------


def _creator(command: Callable[[Path], list[str]], shown: Callable[[Path], list[str]]) -> Save:
    def prepare(target: Path, run_cli: Any) -> dict[str, Any]:
        return {"cycle": [command(target)], "unlink": str(target)}

    def check(target: Path, run_cli: Any) -> None:
        if target.exists():  # killed after the save (or after the writer removed it)
            _ok(run_cli, *shown(target))

    def again(target: Path, run_cli: Any) -> list[str]:
        target.unlink(missing_ok=True)
        return command(target)

    return Save(prepare, check, again)


CHARACTER = _creator(
    lambda out: ["cogent", "character", "new", "--from", MARA, "--out", str(out)],
    lambda out: ["cogent", "character", "validate", str(out)],
)
GUARD = ["--name", "Guard", "--tier", "elite", "--vocation", "Town Guard"]
NPC = _creator(
    lambda out: ["cogent", "npc", "new", *GUARD, "--out", str(out)],
    lambda out: ["cogent", "npc", "show", str(out)],
)
ENCOUNTER = _creator(_start, lambda out: ["cogent", "combat", "replay", str(out)])


# -- a cheatsheet written with --out -----------------------------------------------------------


def _cheatsheet(fmt: str) -> Save:
    def command(target: Path, pool: int) -> list[str]:
        return ["cheatsheet", "cogent", "--max-pool", str(pool), "--max-cl", "6",
                "--format", fmt, "--out", str(target)]  # fmt: skip

    def prepare(target: Path, run_cli: Any) -> dict[str, Any]:
        return {"cycle": [command(target, 6), command(target, 7)]}

    def check(target: Path, run_cli: Any) -> None:
        data = target.read_bytes()
        if fmt == "png":  # a picture is whole: the signature, then the end chunk
            assert data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")
            return
        written = []
        for pool in (6, 7):  # the two saves, as one uninterrupted command writes them
            other = target.with_name(f"expected-{pool}{target.suffix}")
            if not other.exists():
                _ok(run_cli, *command(other, pool))
            written.append(other.read_bytes())
        assert data in written, "neither the old cheatsheet nor the new one"

    return Save(prepare, check, lambda target, run_cli: command(target, 6))


SAVES = {
    "sheet.yaml": Save(_sheet_prepare, _sheet_check, lambda t, _: _sheet_commands(t)[0]),
    "fight.json": Save(_fight_prepare, _fight_check, _fight_again),
    "new-character.yaml": CHARACTER,
    "npc.yaml": NPC,
    "new-fight.json": ENCOUNTER,
    "cheatsheet.csv": _cheatsheet("csv"),
    "cheatsheet.md": _cheatsheet("md"),
}
if importlib.util.find_spec("matplotlib") is not None:  # the plot extra draws PNG cheatsheets
    SAVES["cheatsheet.png"] = _cheatsheet("png")


@pytest.mark.parametrize("name", sorted(SAVES))
def test_kill_9_during_a_save_leaves_a_whole_file(name: str, tmp_path: Path, run_cli: Any) -> None:
    """Fifteen kills at seeded random moments of a save loop: the file is always a whole save,
    and the next save leaves no temporary file behind."""
    save = SAVES[name]
    folder = tmp_path / "saves"
    folder.mkdir()
    target = folder / name
    spec = save.prepare(target, run_cli)
    moments = random.Random(name)
    forker = Forker()
    try:
        for _ in range(KILLS):
            pid = forker.start(spec)
            forker.kill_after(pid, moments.uniform(0.0, 0.2))
            save.check(target, run_cli)
            _ok(run_cli, *save.again(target, run_cli))
            assert temporaries(folder) == [], "a killed save's temporary was left behind"
            save.check(target, run_cli)
    finally:
        forker.close()
