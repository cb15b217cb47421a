"""One table session (DESIGN > Principles 12; server/session.py): only it resolves a seat from a
token or a cookie and builds the ``Table`` an action or a read plays at, so every page and
route reads a table by the table's own rules, house rules included."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.server.conftest import SAME_ORIGIN
from tests.server.test_pages_combat import HTMX, _said, _step, _view
from tests.server.test_table_rules import _house_weapons

SERVER = Path(__file__).resolve().parents[2] / "src" / "taletable" / "server"
SESSION = "session.py"


def _server_modules() -> dict[str, ast.Module]:
    return {
        path.relative_to(SERVER).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(SERVER.glob("**/*.py"))
        if "migrations" not in path.parts
    }


def _called(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            return func.id
        if isinstance(func, ast.Attribute):
            return func.attr
    return ""


def test_only_the_session_builds_a_table_or_reads_a_seat_from_a_token() -> None:
    """No module of server/ but session.py calls ``Table(...)`` or ``table_context(...)``,
    imports play's ``Table``, reads the seat cookie's token, or compares a token's hash."""
    offences = []
    for name, tree in _server_modules().items():
        if name == SESSION:
            continue
        for node in ast.walk(tree):
            called = _called(node)
            if called in ("table_context", "cookie_token", "api_session"):
                offences.append(f"{name}:{node.lineno} calls {called}")  # type: ignore[attr-defined]
            play = isinstance(node, ast.ImportFrom) and node.module == "taletable.play"
            if play and any(alias.name == "Table" for alias in node.names):  # type: ignore[attr-defined]
                offences.append(f"{name}:{node.lineno} imports play's Table")
            if isinstance(node, ast.Compare) and any(
                isinstance(side, ast.Attribute) and side.attr == "token_hash"
                for side in (node.left, *node.comparators)
            ):
                offences.append(f"{name}:{node.lineno} finds a seat by its token's hash")
    assert offences == []


def test_no_page_reads_the_app_state_untyped() -> None:
    """Routes and pages reach the server's state through the typed ``world_of`` only."""
    offences = [
        f"{name}:{node.lineno}"
        for name, tree in _server_modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "state"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "app"
        and name != "world.py"
    ]
    assert offences == []


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_tracker_replays_a_fight_at_a_table_with_house_weapons(client: TestClient) -> None:
    """At a table whose medium weapons are +3 (house rules), Sir Terrik (Arming Sword, 10D6
    there) fights a goblin: both declare, the round resolves, and the tracker shows the
    victory instead of calling the genuine fight edited or corrupted."""
    pasted = yaml.safe_dump(_house_weapons(3))
    data = {"name": "Keep", "system": "cogent", "edition": "core", "physical_dice": "true",
            "house_rules": pasted}  # fmt: skip
    made = client.post("/start", data=data, headers=SAME_ORIGIN)
    found = re.search(r"/join/([0-9a-f]+)\?code=([^\"&<]+)", made.text)
    assert found is not None, made.text
    table_id = found.group(1)
    sheet = Path(__file__).resolve().parents[2] / "examples/characters/core_sir_terrik.yaml"
    added = client.post(f"/t/{table_id}/characters", data={"text": sheet.read_text()},
                        headers=HTMX)  # fmt: skip
    assert "joined the table" in added.text
    character = re.search(r'name="side-([0-9a-f]+)"', client.get(f"/t/{table_id}/combat").text)
    assert character is not None
    form = {"name": "Ambush", f"side-{character.group(1)}": "a", "creature-1": "goblin",
            "creature-count-1": "1", "creature-side-1": "b", "faces": "6,1"}  # fmt: skip
    started = _said(client.post(f"/t/{table_id}/combat/start", data=form, headers=HTMX))
    assert "Ambush has started" in started
    for actor, target in (("goblin", "sir-terrik"), ("sir-terrik", "goblin")):
        declared = _step(client, table_id, "declare", actor=actor, action="attack", target=target)
        assert declared.startswith("Declared:"), declared
    seen = _view(client, table_id)
    assert "does not replay" not in seen
    reading = re.search(r"Sir Terrik (\d+)D6 \(faces 1-\d+\), Goblin (\d+)D6", seen)
    assert reading is not None, seen
    assert int(reading.group(1)) == 10  # the house medium weapon's +3, not the shipped +1
    faces = ",".join(["6"] * 10 + ["1"] * int(reading.group(2)))
    resolved = _step(client, table_id, "resolve", faces=faces)
    assert resolved.startswith("The round is rolled:"), resolved
    seen = html.unescape(_view(client, table_id))
    assert "does not replay" not in seen and "edited or corrupted" not in seen
    assert re.search(r"Victory #\d+: Sir Terrik over Goblin, level \d+", seen), seen
