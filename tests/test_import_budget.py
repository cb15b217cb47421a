"""The import budgets of the commands a table types most: `taletable cogent check --pool 6
--cl 3` answers at once because it imports only what a check needs (issue 21; start-up was
~0.5 s when a check loaded the whole character system through play.sheets), `taletable --help`
imports no command (it was ~1 s with the notation grammar, numpy and the character system)
and a check's odds no combat engine. Counted, never timed: the modules a run leaves in
``sys.modules``, in a fresh interpreter (benchmarks/bench_startup.py times them)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pydantic
import pytest

from taletable.cli.main import cli, main

#: Packages a check from a plain pool never needs: the character system and the other parts of
#: Cogent, the other systems, random tables, exact odds, the notation grammar, numpy, the server.
NOT_FOR_A_CHECK = (
    "taletable.systems.cogent.character",
    "taletable.systems.cogent.statblock",
    "taletable.systems.cogent.combat",
    "taletable.systems.cogent.magic",
    "taletable.systems.cogent.narrator",
    "taletable.systems.cogent.odds",
    "taletable.systems.cogent.equipment",
    "taletable.systems.boons",
    "taletable.systems.labcats",
    "taletable.tables",
    "taletable.prob",
    "taletable.ledger",
    "taletable.server",
    "taletable.cli.odds",
    "numpy",
    "d20",
    "lark",
    "fastapi",
    "sqlalchemy",
    "pydantic_settings",
)
#: The most taletable modules a check may load (46 when this budget was set); raise it only
#: for a module the check needs.
MOST_TALETABLE_MODULES = 50
#: The most modules of any kind a check may leave loaded (356 when this budget was set).
MOST_MODULES_FOR_A_CHECK = 380

#: What `taletable --help` never needs: it lists the commands from their summaries, so no
#: command's module, no engine, no notation grammar, numpy, rich or server; and no pydantic or
#: PyYAML (the house rules are read when a command reads a table).
NOT_FOR_HELP = (
    *(f"taletable.{layer}" for layer in ("systems", "play", "dice", "prob", "tables")),
    *(f"taletable.{layer}" for layer in ("explain", "store", "server", "ledger", "audit")),
    *(f"taletable.cli.{name}" for name in ("cogent", "odds", "boons", "labcats", "roll")),
    *(f"taletable.cli.{name}" for name in ("tables", "schema", "verify", "common")),
    "numpy",
    "d20",
    "lark",
    "rich",
    "pydantic",
    "yaml",
    "taletable.files",
    "fastapi",
    "sqlalchemy",
)
#: The most modules `taletable --help` may load (137 when this budget was set: click and the
#: standard library it uses, and 7 of taletable).
MOST_MODULES_FOR_HELP = 150
MOST_TALETABLE_MODULES_FOR_HELP = 8
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "characters"

PROBE = """
import json, sys
from taletable.cli.main import main
status = main(sys.argv[1:])
print(json.dumps([status, sorted(sys.modules)]))
"""


def _loaded(*arguments: str) -> tuple[int, list[str]]:
    """The exit status and the modules loaded by ``taletable ARGUMENTS`` in a fresh Python."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True, check=True
    )
    status, modules = json.loads(out.stdout.strip().splitlines()[-1])
    return status, modules


def _heavy(modules: list[str], banned: tuple[str, ...] = NOT_FOR_A_CHECK) -> list[str]:
    return [
        name
        for name in modules
        if any(name == package or name.startswith(f"{package}.") for package in banned)
    ]


def _ours(modules: list[str]) -> list[str]:
    return [name for name in modules if name.startswith("taletable")]


def test_a_check_from_a_pool_imports_only_what_a_check_needs() -> None:
    """No character system, combat, odds, tables, numpy or server; a bounded number of
    taletable modules, for the text report and for --json."""
    for extra in ((), ("--json",)):
        status, modules = _loaded(
            "cogent", "check", "--pool", "6", "--cl", "3", "--seed", "1", *extra
        )
        assert status == 0
        assert _heavy(modules) == []
        assert len(_ours(modules)) <= MOST_TALETABLE_MODULES, _ours(modules)
        assert len(modules) <= MOST_MODULES_FOR_A_CHECK, len(modules)


#: The odds' own packages, which a check's odds load.
ODDS_OWN = ("taletable.systems.cogent.odds", "taletable.cli.odds", "taletable.prob")
#: What a check's odds never need: the combat engine (duels and fights are odds of their own,
#: play/odds_combat.py), the character system (no sheet), numpy (exact odds are Python's), the
#: notation grammar, the other systems and the server.
NOT_FOR_A_CHECKS_ODDS = (
    *(name for name in NOT_FOR_A_CHECK if name not in ODDS_OWN),
    "taletable.systems.cogent.fighters",
    "taletable.systems.cogent.odds.duel",
    "taletable.systems.cogent.odds.fight",
    "taletable.play.fighters",
    "taletable.play.odds_combat",
    "taletable.cli.odds.combat",
)
#: The most modules a check's odds may load (362, 57 of taletable, when this budget was set).
MOST_MODULES_FOR_ODDS = 380
MOST_TALETABLE_MODULES_FOR_ODDS = 62


def test_the_help_imports_no_command() -> None:
    """`taletable --help` (and -h, and no command at all) lists every command without
    importing one: no engine, notation grammar (d20, lark), numpy or combat engine."""
    for arguments in (("--help",), ("-h",), ()):
        status, modules = _loaded(*arguments)
        assert status == 0
        assert _heavy(modules, NOT_FOR_HELP) == []
        assert len(_ours(modules)) <= MOST_TALETABLE_MODULES_FOR_HELP, _ours(modules)
        assert len(modules) <= MOST_MODULES_FOR_HELP, len(modules)


def test_a_checks_odds_import_no_combat_engine() -> None:
    """`taletable odds cogent --pool 6 --cl 3` (and --json): no combat engine, character
    system, numpy or notation grammar, within a module budget."""
    for extra in ((), ("--json",)):
        status, modules = _loaded("odds", "cogent", "--pool", "6", "--cl", "3", *extra)
        assert status == 0
        assert _heavy(modules, NOT_FOR_A_CHECKS_ODDS) == []
        assert len(_ours(modules)) <= MOST_TALETABLE_MODULES_FOR_ODDS, _ours(modules)
        assert len(modules) <= MOST_MODULES_FOR_ODDS, len(modules)


def test_a_duels_odds_still_load_the_combat_engine() -> None:
    """The budget holds by loading duels' code when a duel is named, not by losing it."""
    status, modules = _loaded(
        "odds", "cogent", "duel", "--a", "@goblin", "--b", "@goblin", "--rounds", "3"
    )
    assert status == 0
    assert "taletable.systems.cogent.combat" in modules
    assert "taletable.cli.odds.combat" in modules


def test_a_check_from_a_sheet_still_loads_the_character_system(tmp_path: Path) -> None:
    """The budget holds by loading the sheets' code when a sheet is read, not by losing it."""
    sheet = tmp_path / "mara.yaml"
    shutil.copy(EXAMPLES / "core_mara_the_thief.yaml", sheet)
    status, modules = _loaded(
        "cogent", "check", "--character", str(sheet), "--skill", "Stealth", "--cl", "1",
        "--seed", "1",
    )  # fmt: skip
    assert status == 0
    assert "taletable.systems.cogent.character.files" in modules


def test_a_validation_error_a_command_lets_through_is_still_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The entry point's backstop for pydantic's ValidationError (its type imported only when
    an error reaches that clause) still ends the command in one line on stderr, exit 2."""

    class Model(pydantic.BaseModel):
        count: int

    @click.command("broken")
    def broken() -> None:
        Model(count="many")  # type: ignore[arg-type]

    monkeypatch.setitem(cli.commands, "broken", broken)
    assert main(["broken"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("taletable: error: count: ") and error.count("\n") == 1, error
