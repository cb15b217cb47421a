"""Every option of every command: a bad value is refused in one line that names the flag typed
(issue 11: "a test walks every CLI option to check that an error on any field names the flag
the person typed").

Each command runs with valid base arguments (:data:`BASE`) plus one bad value for the option
under test, built from its type (:func:`bad_values`). Options that take any value, and the
boolean flags, are listed in :data:`FREE` with the reason; a new option that is neither walked
nor listed fails :func:`test_every_option_is_walked_or_excused`.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
import yaml

from taletable.cli.main import cli

EXAMPLES = Path("examples")
TERRIK = EXAMPLES / "characters/core_sir_terrik.yaml"
THUG = EXAMPLES / "statblocks/thug.yaml"
ANSEL = EXAMPLES / "characters/core_brother_ansel.yaml"

#: Valid arguments for each command, so that only the option under test is wrong. ``{sheet}``
#: is a copy of Sir Terrik, ``{boons}`` a boons character with a track, ``{thug}`` of the Thug,
#: ``{fight}`` a fight between them, ``{hurt}`` Brother Ansel with two injuries, ``{tmp}`` the
#: test's folder.
BASE: dict[str, list[str]] = {
    "boons accumulate": ["--character", "{boons}", "--track", "strain", "--formula", "1d6"],
    "boons check": ["--target", "15"],
    "boons contest": ["--a-bonus", "3", "--b-bonus", "2"],
    "boons difficulty": [],
    "boons group": ["--difficulty", "moderate", "--member", "Irzi:9:25"],
    "boons scatter": ["--grid", "square"],
    "boons track": ["--character", "{boons}", "--track", "strain"],
    "boons twist": [],
    "backup": ["{tmp}/backup.db", "--database", "sqlite:///{tmp}/none.db"],
    "cheatsheet cogent": ["--format", "csv", "--out", "{tmp}/sheet.csv"],
    "cogent assist": ["--pool", "4", "--cl", "3"],
    "delete-table": ["0123456789abcdef", "--database", "sqlite:///{tmp}/none.db"],
    "cogent buy": ["{sheet}", "--item", "Rope", "--value", "1"],
    "cogent cast": ["levitation", "--pool", "5", "--cl", "3"],
    "cogent challenge-levels": [],
    "cogent character advance": ["{adept}", "--event", "chapter"],
    "cogent character commerce": ["{sheet}", "--gain", "1", "--reason", "loot"],
    "cogent character destiny": ["{sheet}", "--award", "1", "--reason", "heroics"],
    "cogent character new": ["--from", "{sheet}", "--out", "{tmp}/new.yaml"],
    "cogent character pools": ["{sheet}"],
    "cogent character quirk": ["{debtor}", "--quirk", "Debt", "--reason", "lost income"],
    "cogent character raise": ["{veteran}", "--attribute", "RFL"],
    "cogent character show": ["{sheet}"],
    "cogent character validate": ["{sheet}"],
    "cogent check": ["--pool", "4", "--cl", "2"],
    "cogent collaborate": ["--pools", "3,2", "--cl", "2"],
    "cogent combat chase": ["--distance", "close", "--pursuer", "{sheet}", "--target", "@goblin"],
    "cogent combat choose": ["{fight}", "--victory", "1"],
    "cogent combat condition": ["{fight}", "--fighter", "k", "--set", "prone"],
    "cogent combat declare": ["{fight}", "--actor", "k", "--action", "attack", "--target", "t"],
    "cogent combat destiny": ["{fight}", "--fighter", "k"],
    "cogent combat replay": ["{fight}"],
    "cogent combat resolve": ["{fight}"],
    "cogent combat start": [
        "--fighter",
        "k:a:{sheet}",
        "--fighter",
        "t:b:{thug}",
        "--out",
        "{tmp}/new-fight.json",
    ],
    "cogent combat status": ["{fight}"],
    "cogent combat take-back": ["{fight}"],
    "cogent combat end": ["{fight}"],
    "cogent character treat": ["{hurt}", "--faces", "6,6,1,1,1,1,1,1"],
    "cogent character rest": ["{hurt}", "--days", "3"],
    "cogent conflict": ["--pool-a", "3", "--pool-b", "2"],
    "cogent destiny-roll": [],
    "cogent encounter": ["--where", "city", "--time", "day"],
    "cogent npc bestiary": [],
    "cogent npc new": ["--name", "Guard", "--tier", "elite", "--vocation", "Town Guard"],
    "cogent npc show": ["{thug}"],
    "cogent powerless": ["--pool", "4"],
    "cogent summon": ["--school", "pyromancy", "--cl", "2", "--pool", "5"],
    "cogent weather": ["--season", "winter"],
    "labcats build": ["--value", "Duty=d8", "--relationship", "Mara=d6"],
    "labcats roll": ["--pool", "d8,d6"],
    "labcats trouble": ["--complications", "d6", "--add", "d6", "--watchtower-points", "1"],
    "migrate": ["--dry-run", "--database", "sqlite:///{tmp}/none.db"],
    "odds boons": ["--bonus", "3", "--target", "15"],
    "odds boons accumulate": ["--formula", "1d6"],
    "odds cogent": ["--pool", "4", "--cl", "2"],
    "odds cogent advise": ["--pool", "4", "--chance", "50"],
    "odds cogent assist": ["--pool", "4", "--cl", "2", "--assist-pool", "3"],
    "odds cogent collaborate": ["--pools", "3,2", "--cl", "2"],
    "odds cogent conflict": ["--pool-a", "3", "--pool-b", "2"],
    "odds cogent duel": ["--a", "{sheet}", "--b", "{thug}"],
    "odds cogent fight": [
        "--fighter",
        "k:a:{sheet}",
        "--fighter",
        "t:b:{thug}",
        "--samples",
        "20",
    ],
    "odds labcats": ["--pool", "d8,d6", "--target", "8"],
    "prune": ["--idle-days", "30", "--database", "sqlite:///{tmp}/none.db"],
    "restore": ["{tmp}/export.json", "--database", "sqlite:///{tmp}/restored.db"],
    "roll": ["2d6"],
    "schema character": [],
    "table list": [],
    "table odds": ["severity"],
    "table roll": ["severity"],
    "verify": ["{tmp}/export.json"],
}

#: Base arguments for one option, where the command's usual ones would not reach it.
FOR_OPTION: dict[tuple[str, str], list[str]] = {
    ("cogent assist", "--cl-change"): [
        "--pool",
        "4",
        "--cl",
        "3",
        "--edition",
        "tiered",
        "--convert",
        "cl",
    ],
    ("cogent destiny-roll", "--chance"): ["--edition", "tiered"],
    ("cogent destiny-roll", "--cl"): ["--edition", "tiered"],
    ("odds cogent", "--situation"): ["--character", "{sheet}", "--skill", "Athletics", "--cl", "2"],
    ("odds labcats", "--against-resources"): ["--pool", "d8,d6", "--against", "d6"],
    ("odds labcats", "--target"): ["--pool", "d8,d6"],
    ("odds boons", "--against-boons"): ["--bonus", "3", "--against-bonus", "2"],
    ("odds boons", "--against-banes"): ["--bonus", "3", "--against-bonus", "2"],
    ("table odds", "--modifier"): ["weather_winter"],
    ("table roll", "--modifier"): ["weather_winter"],
}

#: Options no value of which is wrong (free text a person may write as they like), by command,
#: with the reason; and whole commands left out.
FREE: dict[str, str] = {
    "serve": "runs a server until stopped (tests/server/test_cli.py checks its options)",
    "backup DEST": "the name of a new file, any path (tests/server/test_backup.py checks the "
    "refusals: a file that exists, a folder that cannot be written)",
}
#: The largest number no option takes; a seed takes up to 100 digits, so it gets 101.
HUGE = "1000000000000"
TOO_LONG = "x" * 20_000


def commands(group: click.Group = cli, path: str = "") -> Iterator[tuple[str, click.Command]]:
    """Every command under ``group`` with its path (a group that runs itself included)."""
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None
        full = f"{path} {name}".strip()
        if isinstance(command, click.Group):
            if command.invoke_without_command:
                yield full, command
            yield from commands(command, full)
        else:
            yield full, command


def walked() -> Iterator[tuple[str, str, str]]:
    """(command, option, bad value) for every option walked."""
    for path, command in commands():
        if path in FREE:
            continue
        for parameter in command.params:
            if not isinstance(parameter, click.Option | click.Argument):
                continue
            if isinstance(parameter, click.Option) and (parameter.is_flag or not parameter.opts):
                continue
            name = (
                max(parameter.opts, key=len)
                if isinstance(parameter, click.Option)
                else (parameter.human_readable_name)
            )
            if f"{path} {name}" in FREE:
                continue
            for bad in bad_values(parameter):
                yield path, name, bad


def bad_values(parameter: click.Parameter) -> list[str]:
    """Values of ``parameter``'s type that no command takes."""
    kind = parameter.type
    name = parameter.name or ""
    if name == "seed":
        return ["9" * 101]
    if isinstance(kind, click.Path):
        if name in ("out",):
            return ["{tmp}/no/such/folder/out.yaml"]
        return ["{tmp}/missing.yaml"]
    if isinstance(kind, click.types.IntParamType | click.types.FloatParamType):
        return [HUGE, "-" + HUGE]
    if isinstance(kind, click.Choice):
        return ["no-such-choice"]
    return [TOO_LONG]


def _fill(argument: str, places: dict[str, str]) -> str:
    for key, value in places.items():
        argument = argument.replace("{" + key + "}", value)
    return argument


@pytest.fixture
def places(tmp_path: Path, run_cli: Any) -> dict[str, str]:
    sheet, thug = tmp_path / "sheet.yaml", tmp_path / "thug.yaml"
    shutil.copy(TERRIK, sheet)
    shutil.copy(THUG, thug)
    fight = tmp_path / "fight.json"
    started = run_cli(
        "cogent",
        "combat",
        "start",
        "--fighter",
        f"k:a:{sheet}",
        "--fighter",
        f"t:b:{thug}",
        "--out",
        str(fight),
        "--seed",
        "1",
    )
    assert started.status == 0, started.stderr
    (tmp_path / "export.json").write_text("{}")
    adept, debtor, veteran = (tmp_path / f"{name}.yaml" for name in ("adept", "debtor", "veteran"))
    for copy in (adept, debtor, veteran):
        shutil.copy(ANSEL, copy)
    in_debt = yaml.safe_load(debtor.read_text())
    in_debt["commerce"]["quirks"] = ["Debt"]
    debtor.write_text(yaml.safe_dump(in_debt))
    for _ in range(2):  # two arcs: an attribute point to raise with
        assert run_cli("cogent", "character", "advance", str(veteran), "--event", "arc").status == 0
    hurt = tmp_path / "hurt.yaml"
    wounded = yaml.safe_load(ANSEL.read_text())
    wounded["injuries"] = [{"level": 1}, {"level": 2}]  # for treatment and rest
    hurt.write_text(yaml.safe_dump(wounded))
    boons = tmp_path / "irzi.yaml"
    boons.write_text("name: Irzi\ntracks: {strain: {value: 3}}\n")
    return {
        "boons": str(boons),
        "sheet": str(sheet),
        "thug": str(thug),
        "fight": str(fight),
        "tmp": str(tmp_path),
        "adept": str(adept),
        "debtor": str(debtor),
        "veteran": str(veteran),
        "hurt": str(hurt),
    }


def test_every_command_has_base_arguments() -> None:
    """A new command fails here until it has its valid arguments in BASE (or is in FREE)."""
    known = {path for path, _ in commands()}
    assert sorted(known - set(BASE) - set(FREE)) == []


@pytest.mark.parametrize(
    ("path", "option", "bad"), sorted(set(walked())), ids=lambda value: str(value)[:40]
)
def test_a_bad_value_names_the_flag_typed(
    path: str, option: str, bad: str, places: dict[str, str], run_cli: Any
) -> None:
    base = [_fill(argument, places) for argument in FOR_OPTION.get((path, option), BASE[path])]
    arguments = [*path.split(), *base]
    value = _fill(bad, places)
    if option.startswith("-"):
        arguments += [option, value]
    else:  # an argument: put it in place of the base's own
        arguments = [*path.split(), value, *base[1:]] if base else [*path.split(), value]
    result = run_cli(*arguments)
    assert result.status == 2, (arguments[:8], result.stdout[:200])
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    # the flag typed; for a path, the path typed names the field as well
    assert option in result.stderr or (bad.startswith("{tmp}") and value in result.stderr), (
        result.stderr[:300]
    )
