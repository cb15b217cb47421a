"""Text a person typed prints as typed (issue 13, point 4).

'Rich markup in an item name, a fighter id, an NPC, sheet, table or encounter name ([/], [/x])
raises a traceback, often after the file was written, so a retry charges a purchase twice.
Everything a person typed is printed as typed.' Every command that prints a name is run here
with names rich would read as markup; each must succeed and show the name unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
TERRIK = ROOT / "examples/characters/core_sir_terrik.yaml"
THUG = ROOT / "examples/statblocks/thug.yaml"

#: rich would read each as a tag: a closing tag with nothing to close, an unknown style...
NAMES = ["[/]", "[/x]", "[bold]", "[bold]x[/bold]", "end\\", "[link=x]y"]


def ok(result: Any, *typed: str) -> None:
    """Exit 0, no traceback, each typed text in the output exactly as typed."""
    assert result.status == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    for text in typed:
        assert text in result.stdout, (text, result.stdout)


def sheet_named(folder: Path, name: str) -> Path:
    """Sir Terrik's sheet, with the person's text as his name, an item and a weapon's name."""
    data = yaml.safe_load(TERRIK.read_text())
    data["identity"]["name"] = name
    data["equipment"]["items"] = [name]
    data["equipment"]["weapons"][0]["name"] = name
    path = folder / "sheet.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    return path


def statblock_named(folder: Path, name: str) -> Path:
    data = yaml.safe_load(THUG.read_text())
    data["name"] = name
    path = folder / "npc.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    return path


@pytest.mark.parametrize("name", NAMES)
def test_sheets_and_purchases(tmp_path: Path, run_cli: Any, name: str) -> None:
    """character show/pools/validate, buy (written once), commerce, check and odds."""
    sheet = sheet_named(tmp_path, name)
    ok(run_cli("cogent", "character", "show", str(sheet)), name)
    ok(run_cli("cogent", "character", "pools", str(sheet)), name)
    validated = run_cli("cogent", "character", "validate", str(sheet))
    assert validated.status in (0, 2) and "Traceback" not in validated.stderr
    before = yaml.safe_load(sheet.read_text())["commerce"]
    ok(run_cli("cogent", "buy", str(sheet), "--item", name, "--value", "1"), name)
    bought = yaml.safe_load(sheet.read_text())
    assert bought["commerce"] != before
    assert [line for line in json.dumps(bought).split(name)][1:]  # the item is recorded
    ok(run_cli("cogent", "character", "commerce", str(sheet), "--gain", "1", "--reason", name))
    ok(run_cli("cogent", "check", "--part", f"{name}=3", "--cl", "1", "--seed", "1"), name)
    ok(run_cli("odds", "cogent", "--character", str(sheet), "--skill", "Athletics", "--cl", "2"))


@pytest.mark.parametrize("name", NAMES)
def test_npcs(tmp_path: Path, run_cli: Any, name: str) -> None:
    """npc new (saved, then shown) and npc show of a statblock with that name."""
    out = tmp_path / "made.yaml"
    made = run_cli(
        "cogent", "npc", "new", "--name", name, "--tier", "elite", "--vocation", name,
        "--skill", name, "--rough", f"{name}=4", "--out", str(out),
    )  # fmt: skip
    ok(made, name)
    ok(run_cli("cogent", "npc", "show", str(out)), name)
    ok(run_cli("cogent", "npc", "show", str(statblock_named(tmp_path, name))), name)


@pytest.mark.parametrize("name", NAMES)
def test_a_whole_fight(tmp_path: Path, run_cli: Any, name: str) -> None:
    """Fighter ids, sides and the encounter's name, through every combat command."""
    fight = tmp_path / "fight.json"
    sheet = sheet_named(tmp_path, name)
    started = run_cli(
        "cogent", "combat", "start", "--name", name,
        "--fighter", f"{name}:{name}:{sheet}", "--fighter", f"thug:gang:{THUG}:Club",
        "--out", str(fight), "--seed", "3",
    )  # fmt: skip
    ok(started, name)
    ok(run_cli("cogent", "combat", "status", str(fight)), name)
    declared = set()
    for _ in range(2):  # the lower RFL declares first; whoever is refused declares next time
        for actor, target in ((name, "thug"), ("thug", name)):
            if actor in declared:
                continue
            done = run_cli(
                "cogent", "combat", "declare", str(fight), "--actor", actor,
                "--action", "attack", "--target", target,
            )  # fmt: skip
            assert done.status == 0 or "declares before" in done.stderr, done.stderr
            if done.status == 0:
                declared.add(actor)
    assert declared == {name, "thug"}
    ok(run_cli("cogent", "combat", "resolve", str(fight), "--seed", "4"), name)
    chosen = run_cli("cogent", "combat", "choose", str(fight), "--victory", "1")
    assert chosen.status in (0, 2) and "Traceback" not in chosen.stderr
    ok(run_cli("cogent", "combat", "replay", str(fight)), name)


@pytest.mark.parametrize("name", NAMES)
def test_odds_of_fights(tmp_path: Path, run_cli: Any, name: str) -> None:
    """duel and fight odds name the fighters as typed."""
    sheet = sheet_named(tmp_path, name)
    ok(run_cli("odds", "cogent", "duel", "--a", str(sheet), "--b", "@goblin", "--rounds", "5"))
    fight = run_cli(
        "odds", "cogent", "fight", "--fighter", f"{name}:{name}:{sheet}",
        "--fighter", "g:gob:@goblin", "--samples", "5", "--rounds", "5",
    )  # fmt: skip
    ok(fight, name)


@pytest.mark.parametrize("name", NAMES)
def test_random_tables(tmp_path: Path, run_cli: Any, name: str) -> None:
    """A narrator's table whose title, result and detail are markup-like."""
    folder = tmp_path / "tables"
    folder.mkdir()
    table = {
        "name": "mine",
        "title": name,
        "die": "d6",
        "entries": [{"roll": "1-6", "result": name, "detail": name}],
    }
    (folder / "mine.yaml").write_text(yaml.safe_dump(table, allow_unicode=True))
    ok(run_cli("table", "list", "--tables", str(folder)), name)
    ok(run_cli("table", "odds", "mine", "--tables", str(folder)), name)
    ok(run_cli("table", "roll", "mine", "--tables", str(folder), "--seed", "1"), name)


@pytest.mark.parametrize("name", NAMES)
def test_other_systems(run_cli: Any, name: str) -> None:
    """boons group members and labcats traits."""
    group = run_cli(
        "boons", "group", "--difficulty", "easy", "--member", f"{name}:5:15",
        "--member", "b:3:15", "--seed", "2",
    )  # fmt: skip
    ok(group, name)
    built = run_cli(
        "labcats", "build", "--value", f"{name}=d8", "--relationship", f"{name}2=d6",
    )  # fmt: skip
    ok(built, name)
