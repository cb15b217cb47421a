"""Exports made by older builds of taletable verify and import at this one (issue 34: proofs
that survive upgrades). Each folder of ``tests/fixtures`` is named for the commit that played
its table (``build_fixture.py`` says how it was made); a change that stops one verifying fails
here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.audit import verify_table

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BUILDS = sorted(path.parent.name for path in FIXTURES.glob("*/export_narrator.json"))


def _export(build: str, view: str) -> dict[str, Any]:
    return dict(json.loads((FIXTURES / build / f"export_{view}.json").read_text("utf-8")))


@pytest.mark.parametrize("build", BUILDS)
def test_an_older_builds_exports_verify_here(build: str) -> None:
    """The narrator's export replays whole; the player's too, its hidden events as links."""
    whole = verify_table(_export(build, "narrator"))
    assert whole.ok and whole.replayed >= 4 and whole.scenes_revealed == 1, whole.summary()
    if not (FIXTURES / build / "export_player.json").exists():
        return  # the first builds exported the narrator's log only
    seen = verify_table(_export(build, "player"))
    assert seen.ok and seen.hidden == 2 and seen.replayed >= 4, seen.summary()


@pytest.mark.parametrize("build", BUILDS)
def test_an_older_builds_export_imports_here(client: TestClient, build: str) -> None:
    """The narrator's export imports; the table it makes exports a log that verifies, with the
    older build's events first, byte for byte in their hashes."""
    exported = _export(build, "narrator")
    made = client.post("/api/tables/import", json=exported)
    assert made.status_code == 201, made.text
    token = {"Authorization": f"Bearer {made.json()['narrator_token']}"}
    again = client.get(f"/api/tables/{made.json()['id']}/export", headers=token).json()
    assert verify_table(again).ok
    old = [event["hash"] for event in exported["events"]]
    assert [event["hash"] for event in again["events"][: len(old)]] == old


def test_there_are_fixtures() -> None:
    """Tables of three older builds are kept: the first with a server, one from the middle of
    its history, and the last before chain version 2."""
    assert {"6f850cd", "33a26ad", "d71a42b"} <= set(BUILDS)


@pytest.mark.parametrize("build", BUILDS)
def test_an_older_builds_database_migrates_and_plays_on(tmp_path: Path, build: str) -> None:
    """The older build's SQLite database, served by this build (its migrations run at start),
    gives the same log to its narrator, and the table plays on in its own chain version: a
    new roll and a closed scene later, its export still verifies."""
    import shutil

    from taletable.server import create_app
    from tests.server.conftest import TEST_LIMITS

    database = tmp_path / "taletable.db"
    shutil.copy(FIXTURES / build / "taletable.db", database)
    seats = json.loads((FIXTURES / build / "seats.json").read_text("utf-8"))
    narrator = {"Authorization": f"Bearer {seats['narrator']}"}
    player = {"Authorization": f"Bearer {seats['player']}"}
    table = seats["table"]
    with TestClient(create_app(f"sqlite:///{database}", limits=TEST_LIMITS)) as client:
        served = client.get(f"/api/tables/{table}/export", headers=narrator).json()
        assert served["events"] == _export(build, "narrator")["events"]
        check = {"action": "cogent.check", "args": {"pool": 5, "cl": 2}}
        rolled = client.post(f"/api/tables/{table}/actions", headers=player, json=check)
        assert rolled.status_code == 201, rolled.text
        assert client.post(f"/api/tables/{table}/scenes", headers=narrator).status_code == 201
        later = client.get(f"/api/tables/{table}/export", headers=narrator).json()
    assert "chain" not in later["events"][0]  # a table made before chain 2 keeps chain 1
    checked = verify_table(later)
    assert checked.ok and checked.scenes_revealed == 2, checked.summary()


@pytest.mark.parametrize("build", BUILDS)
def test_an_older_results_decisive_fields_are_still_held(build: str) -> None:
    """An older engine's result is held to what decides it: a check's wins changed fail it,
    though its rules applied (English lines then, notes now) are not compared."""
    exported = _export(build, "narrator")
    check = next(e for e in exported["events"] if e.get("action") == "cogent.check")
    check["result"]["wins"] += 1
    failed = verify_table(exported)
    assert not failed.ok and failed.failed_seq == check["seq"], failed.summary()


def test_this_engines_results_are_held_to_every_field(client: TestClient) -> None:
    """A result this engine made is compared whole: its summary note changed fails it."""
    made = client.post("/api/tables", json={"name": "Now", "system": "cogent"}).json()
    token = {"Authorization": f"Bearer {made['narrator_token']}"}
    url = f"/api/tables/{made['id']}"
    check = {"action": "cogent.check", "args": {"pool": 4, "cl": 2}}
    checked = client.post(f"{url}/actions", headers=token, json=check)
    assert checked.status_code == 201
    client.post(f"{url}/scenes", headers=token)
    exported = client.get(f"{url}/export", headers=token).json()
    assert verify_table(exported).ok
    event = next(e for e in exported["events"] if e.get("action") == "cogent.check")
    event["result"]["summary"]["values"]["margin"] = 99
    assert not verify_table(exported).ok
