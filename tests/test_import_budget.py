"""The import budget of a plain check: `taletable cogent check --pool 6 --cl 3` answers at once
because it imports only what a check needs (issue 21; start-up was ~0.5 s when a check loaded
the whole character system through play.sheets). Counted, never timed: the modules a check
run leaves in ``sys.modules``, in a fresh interpreter."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

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


def _heavy(modules: list[str]) -> list[str]:
    return [
        name
        for name in modules
        if any(name == banned or name.startswith(f"{banned}.") for banned in NOT_FOR_A_CHECK)
    ]


def test_a_check_from_a_pool_imports_only_what_a_check_needs() -> None:
    """No character system, combat, odds, tables, numpy or server; a bounded number of
    taletable modules, for the text report and for --json."""
    for extra in ((), ("--json",)):
        status, modules = _loaded(
            "cogent", "check", "--pool", "6", "--cl", "3", "--seed", "1", *extra
        )
        assert status == 0
        assert _heavy(modules) == []
        ours = [name for name in modules if name.startswith("taletable")]
        assert len(ours) <= MOST_TALETABLE_MODULES, ours


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
