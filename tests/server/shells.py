"""Both shells at once, for the one-shape tests (issue 23.5): the same sheets as files for the
CLI and as stored characters at live tables for the API, and the helpers that compare what
the two print, each sheet's path (CLI) or id (API) written as its name."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from fastapi.testclient import TestClient

from tests.server.conftest import Seats, make_table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: The sheets both shells hold: a file for the CLI, a stored character for the API.
SHEETS = {
    "terrik": ("core", "characters/core_sir_terrik.yaml"),
    "ilsa": ("core", "characters/core_ilsa_the_wizard.yaml"),
    "ansel": ("core", "characters/core_brother_ansel.yaml"),
    "erin": ("tiered", "characters/tiered_erin_the_mage.yaml"),
}
IRZI = {"name": "Irzi", "tracks": {"strain": {"value": 3, "low": 0, "high": 20}}}


@dataclass
class Shells:
    """The live tables by name (core, tiered, boons), each sheet's file, and its id at each
    table that holds it."""

    tables: dict[str, Seats]
    files: dict[str, str]
    ids: dict[str, dict[str, str]]

    def names(self, table: str) -> dict[str, str]:
        """Each sheet's path and its id at ``table``, as ``<name>``."""
        return {**{path: f"<{key}>" for key, path in self.files.items()},
                **{value: f"<{key}>" for key, value in self.ids[table].items()}}  # fmt: skip


def _sheets() -> dict[str, tuple[str, dict[str, Any]]]:
    sheets = {key: (edition, yaml.safe_load((EXAMPLES / path).read_text()))
              for key, (edition, path) in SHEETS.items()}  # fmt: skip
    sheets["irzi"] = ("boons", IRZI)
    debtor = yaml.safe_load((EXAMPLES / SHEETS["ansel"][1]).read_text())
    debtor["commerce"]["quirks"] = ["Debt"]  # a quirk in play, as the CLI's options test has
    sheets["debtor"] = ("core", debtor)
    raiser = yaml.safe_load((EXAMPLES / SHEETS["ansel"][1]).read_text())
    raiser["progress"] = {"attribute_points_awarded": 1}  # an arc's end gave him a point
    sheets["raiser"] = ("core", raiser)
    hurt = yaml.safe_load((EXAMPLES / SHEETS["ansel"][1]).read_text())
    hurt["injuries"] = [{"level": 1, "description": "a cut"}, {"level": 2}]  # after a fight
    sheets["hurt"] = ("core", hurt)
    return sheets


def make_shells(client: TestClient, tmp_path: Path) -> Shells:
    """A core, a tiered and a boons table with physical dice; each sheet written to a file
    under ``tmp_path`` and stored at its edition's table (and a core sheet at the core one)."""
    tables = {
        "core": make_table(client, physical_dice=True),
        "tiered": make_table(client, edition="tiered", physical_dice=True),
        "boons": make_table(client, system="boons", physical_dice=True),
    }
    files: dict[str, str] = {}
    ids: dict[str, dict[str, str]] = {name: {} for name in tables}
    for key, (where, sheet) in _sheets().items():
        path = tmp_path / f"{key}.yaml"
        path.write_text(yaml.safe_dump(sheet))
        files[key] = str(path)
        table = tables[where]
        made = client.post(f"/api/tables/{table.id}/characters", json={"sheet": sheet},
                           headers=table.narrator)  # fmt: skip
        assert made.status_code == 201, made.text
        ids[where][key] = made.json()["id"]
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    return Shells(tables, files, ids)


def play(client: TestClient, table: Seats, action: str, args: dict[str, Any]) -> Any:
    """The API's ``result`` of ``action`` played by the narrator at ``table``."""
    answer = client.post(f"/api/tables/{table.id}/actions",
                         json={"action": action, "args": args}, headers=table.narrator)  # fmt: skip
    assert answer.status_code in (200, 201), answer.text
    return answer.json()["result"]


def same_keys(a: Any, b: Any) -> None:
    """``a`` and ``b`` have the same keys all the way down (lists by their first items)."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert sorted(a) == sorted(b)
        for key in a:
            same_keys(a[key], b[key])
    elif isinstance(a, list) and isinstance(b, list) and a and b:
        same_keys(a[0], b[0])


def named(data: Any, keys: dict[str, str]) -> Any:
    """``data`` with each of ``keys`` (a sheet's path or id) written as its name."""
    if isinstance(data, dict):
        return {key: named(value, keys) for key, value in data.items()}
    if isinstance(data, list):
        return [named(value, keys) for value in data]
    if isinstance(data, str):
        for key, name in keys.items():
            data = data.replace(key, name)
    return data


def fill(text: str, keys: dict[str, str]) -> str:
    """``text`` with each ``{name}`` written as ``keys[name]``."""
    for key, value in keys.items():
        text = text.replace("{" + key + "}", value)
    return text
