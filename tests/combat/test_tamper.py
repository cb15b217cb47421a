"""Encounter files are tamper-evident (issue 13.2): the steps hash-chained, the whole sealed with
a key kept outside the file, and every combat command verifies the file before it acts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taletable.cli.keys import key_file
from taletable.play.seal import seal

COMMANDS = (
    ("status",),
    ("replay",),
    ("declare", "--actor", "terrik", "--action", "attack", "--target", "thug"),
    ("resolve", "--seed", "4"),
    ("choose", "--victory", "1"),
)


def _fight(run_cli: Any, tmp_path: Path, *, resolved: bool = True) -> Path:
    """Terrik against the Thug, both declared and (with ``resolved``) rolled."""
    file = tmp_path / "fight.json"
    started = run_cli(
        "cogent", "combat", "start", "--seed", "3", "--out", str(file),
        "--fighter", "terrik:knights:examples/characters/core_sir_terrik.yaml:Arming Sword",
        "--fighter", "thug:gang:examples/statblocks/thug.yaml:Club",
    )  # fmt: skip
    assert started.status == 0, started.stderr
    for actor, target in (("terrik", "thug"), ("thug", "terrik")):
        declared = run_cli(
            "cogent", "combat", "declare", str(file), "--actor", actor, "--action", "attack",
            "--target", target,
        )  # fmt: skip
        assert declared.status == 0, declared.stderr
    if resolved:
        rolled = run_cli(
            "cogent", "combat", "resolve", str(file), "--faces", "6,6,6,6,6,6,6,6,1,1,1,1,1,1"
        )
        assert rolled.status == 0, rolled.stderr
    return file


def _refused_everywhere(run_cli: Any, file: Path, says: str) -> None:
    before = file.read_bytes()
    for command in COMMANDS:
        answer = run_cli("cogent", "combat", command[0], str(file), *command[1:])
        assert answer.status == 2, (command, answer.stdout)
        assert says in answer.stderr and answer.stderr.count("\n") == 1, (command, answer.stderr)
        assert file.read_bytes() == before


def test_a_victory_raised_by_hand_is_refused_by_every_command(run_cli: Any, tmp_path: Path) -> None:
    """The issue's forgery: a victory's level set to 6 by hand. No command acts on the file;
    `choose` can no longer deal the forged deathblow."""
    file = _fight(run_cli, tmp_path)
    data = json.loads(file.read_text())
    assert data["victories"], "the given faces make a victory"
    data["victories"][0]["level"] = 6
    file.write_text(json.dumps(data))
    _refused_everywhere(run_cli, file, "was edited outside taletable")


def test_an_edited_step_is_named(run_cli: Any, tmp_path: Path) -> None:
    """Faces changed inside the steps: the chain names the first step that was changed."""
    file = _fight(run_cli, tmp_path)
    data = json.loads(file.read_text())
    resolve = next(i for i, step in enumerate(data["steps"]) if step["kind"] == "resolve")
    data["steps"][resolve]["faces"][0] = 1
    file.write_text(json.dumps(data))
    _refused_everywhere(run_cli, file, f"step {resolve + 1} was edited")


def test_a_consistent_forgery_without_the_key_is_refused(run_cli: Any, tmp_path: Path) -> None:
    """A forger who edits a step, recomputes the state by replaying it and re-seals with a key
    of their own (they do not have the user's) is refused."""
    from taletable.systems.cogent.combat.replay import replay
    from taletable.systems.cogent.combat.state import Encounter

    file = _fight(run_cli, tmp_path)
    data = json.loads(file.read_text())
    data.pop("seal"), data.pop("revision")
    sheets = data.pop("sheets")  # beside the encounter: the fighters' character files
    resolve = next(step for step in data["steps"] if step["kind"] == "resolve")
    resolve["faces"] = [1] * 8 + [6] * 6  # now the Thug wins
    forged = {**replay(Encounter.model_validate(data)).model_dump(mode="json"), "sheets": sheets}
    file.write_text(json.dumps({**seal(forged, b"the forger's own key"), "revision": 4}))
    _refused_everywhere(run_cli, file, "was edited outside taletable")


def test_a_file_without_a_seal_is_refused(run_cli: Any, tmp_path: Path) -> None:
    """An encounter that taletable did not seal (written by hand, or its seal cut off)."""
    file = _fight(run_cli, tmp_path, resolved=False)
    data = json.loads(file.read_text())
    del data["seal"]
    file.write_text(json.dumps(data))
    _refused_everywhere(run_cli, file, "has no seal")


def test_the_key_lives_outside_the_file_and_can_be_shared(
    run_cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is made in the user's config folder (mode 0600) and never written into the
    file; another user refuses the file, unless the narrator shares TALETABLE_ENCOUNTER_KEY."""
    file = _fight(run_cli, tmp_path, resolved=False)
    key = key_file()
    assert key.stat().st_mode & 0o777 == 0o600
    assert key.read_text().strip() not in file.read_text()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another user"))
    assert run_cli("cogent", "combat", "status", str(file)).status == 2
    monkeypatch.setenv("TALETABLE_ENCOUNTER_KEY", "our table's key")
    shared = tmp_path / "shared.json"
    made = run_cli(
        "cogent", "combat", "start", "--out", str(shared), "--seed", "1",
        "--fighter", "a:x:@goblin", "--fighter", "b:y:@goblin",
    )  # fmt: skip
    assert made.status == 0, made.stderr
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "a third user"))
    assert run_cli("cogent", "combat", "status", str(shared)).status == 0


def test_each_step_records_where_its_dice_came_from(run_cli: Any, tmp_path: Path) -> None:
    """The opening's roll-off and each resolve say whether their faces came from a seed, the
    machine or a person's typed dice."""
    typed = json.loads(_fight(run_cli, tmp_path).read_text())
    assert typed["opening_dice_source"] == "seeded"
    assert [s["dice_source"] for s in typed["steps"] if s["kind"] == "resolve"] == ["given"]
    for folder, flags, source in (("seeded", ("--seed", "9"), "seeded"), ("machine", (), "system")):
        (tmp_path / folder).mkdir()
        file = _fight(run_cli, tmp_path / folder, resolved=False)
        assert run_cli("cogent", "combat", "resolve", str(file), *flags).status == 0
        steps = json.loads(file.read_text())["steps"]
        assert [s["dice_source"] for s in steps if s["kind"] == "resolve"] == [source]


def test_a_genuine_file_replays_under_any_hash_seed(tmp_path: Path) -> None:
    """A fight played in one process replays in others whatever their string hashing (the
    engagements a round makes were once ordered by a set): no genuine file is refused."""
    import os
    import subprocess
    import sys

    def taletable(*args: str, seed: int) -> subprocess.CompletedProcess[str]:
        environment = {**os.environ, "PYTHONHASHSEED": str(seed)}
        command = [sys.executable, "-m", "taletable.cli.main", "cogent", "combat", *args]
        return subprocess.run(command, env=environment, capture_output=True, text=True)

    file = str(tmp_path / "fight.json")
    fighters = ("--fighter", "g:a:@goblin", "--fighter", "t:b:@goblin", "--fighter", "u:b:@goblin")
    assert taletable("start", "--out", file, "--seed", "2", *fighters, seed=0).returncode == 0
    order = json.loads(Path(file).read_text())
    for fighter in sorted(order["combatants"], key=lambda f: f["tie_roll"]):
        target = "g" if fighter["id"] != "g" else "t"
        declared = taletable("declare", file, "--actor", fighter["id"], "--action", "attack",
                             "--target", target, seed=0)  # fmt: skip
        assert declared.returncode == 0, declared.stderr
    assert taletable("resolve", file, "--seed", "5", seed=0).returncode == 0
    for seed in range(1, 9):
        replayed = taletable("replay", file, seed=seed)
        assert replayed.returncode == 0, (seed, replayed.stderr)


def test_processes_making_the_key_at_once_agree_on_one(tmp_path: Path) -> None:
    """Eight processes needing the key at the same moment: all get the same whole key, and no
    draft is left beside it."""
    import os
    import subprocess
    import sys

    script = "from taletable.cli.keys import encounter_key; print(encounter_key().hex())"
    environment = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path)}
    runs = [
        subprocess.Popen([sys.executable, "-c", script], env=environment, stdout=subprocess.PIPE)
        for _ in range(8)
    ]
    keys = {run.communicate()[0].strip() for run in runs}
    assert len(keys) == 1 and all(run.returncode == 0 for run in runs)
    assert os.listdir(tmp_path / "taletable") == ["encounter.key"]
