"""A campaign's log, past the limits that stopped it (issue 34): an export of 3,000 mixed events
(over the 100,000 values a character file may hold, where ``taletable verify`` used to refuse
it) streams from the server, verifies from its file in memory that does not grow
with the log, and is imported as a stream (over the 256 KiB body every other request is
limited to), making nothing when it fails. Exports in flight are bounded per seat."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from taletable.cli.main import cli
from taletable.errors import DataError
from taletable.files import read_json
from taletable.server import create_app
from taletable.server.limits import Limits
from taletable.server.world import World
from tests.server.campaign import play_campaign
from tests.server.conftest import TEST_LIMITS, Seats

EVENTS = 3_000


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Seats]]:
    database = tmp_path_factory.mktemp("campaign") / "taletable.db"
    with TestClient(create_app(f"sqlite:///{database}", limits=TEST_LIMITS)) as client:
        table = play_campaign(client, EVENTS)
        closed = client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
        assert closed.status_code == 201  # every die checkable: the export can be imported
        yield client, table


@pytest.fixture(scope="module")
def exported(campaign: tuple[TestClient, Seats], tmp_path_factory: pytest.TempPathFactory) -> Path:
    client, table = campaign
    path = tmp_path_factory.mktemp("export") / "campaign.json"
    with client.stream("GET", f"/api/tables/{table.id}/export", headers=table.narrator) as answer:
        assert answer.status_code == 200
        with path.open("wb") as file:
            for chunk in answer.iter_bytes():
                file.write(chunk)
    return path


def test_the_export_streams_one_event_a_line_and_is_still_one_json_document(
    exported: Path,
) -> None:
    text = exported.read_text()
    document = json.loads(text)
    assert len(document["events"]) >= EVENTS
    with pytest.raises(DataError, match="more than 100,000 values"):  # verify read it so before
        read_json(exported)
    lines = text.splitlines()
    assert lines[0].endswith('"events":[') and lines[-1] == "]}"
    assert json.loads(lines[1].rstrip(","))["kind"] == "table.open"
    assert len(lines) == len(document["events"]) + 2


def test_taletable_verify_checks_a_campaigns_export(exported: Path) -> None:
    answer = CliRunner().invoke(cli, ["verify", str(exported)])
    assert answer.exit_code == 0, answer.output
    assert f"ok: {len(json.loads(exported.read_text())['events'])} events chained" in answer.output
    assert "results replayed" in answer.output


def _prefix(exported: Path, events: int, into: Path) -> Path:
    """The first ``events`` events of the export (a log's prefix is a log), as the server
    would have exported it then (the scenes closed later with no seed yet)."""
    document = json.loads(exported.read_text())
    document["events"] = document["events"][:events]
    closed = {e["scene"] for e in document["events"] if e["kind"] == "scene.close"}
    for scene in document["scenes"]:
        if scene["number"] not in closed:
            scene["seed"] = None
    into.write_text(json.dumps(document))  # all on one line, as older builds wrote it
    return into


def _peak(path: Path) -> tuple[int, str]:
    """The peak memory (resident, KiB) of a process that verifies ``path``, and its verdict."""
    code = (
        "import resource, sys\n"
        "from taletable.audit import verify_table\n"
        "from taletable.ledger import ExportFile\n"
        "checked = verify_table(ExportFile(sys.argv[1]))\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, checked.summary())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    peak, summary = done.stdout.split(" ", 1)
    return int(peak), summary


def test_verifying_takes_memory_that_does_not_grow_with_the_log(
    exported: Path, tmp_path: Path
) -> None:
    """Ten times the events, in either layout, take about the same memory (the engine's
    bounded caches fill, no more): the whole document, as verify read it before, took tens
    of megabytes more here."""
    small, small_checked = _peak(_prefix(exported, EVENTS // 10, tmp_path / "small.json"))
    large, large_checked = _peak(exported)
    one_line, one_line_checked = _peak(_prefix(exported, EVENTS + 100, tmp_path / "line.json"))
    assert all(c.startswith("ok") for c in (small_checked, large_checked, one_line_checked))
    assert large < small + 12_000, (small, large)
    assert one_line < small + 12_000, (small, one_line)


def test_a_campaigns_export_is_imported_as_a_stream(exported: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with TestClient(create_app(f"sqlite:///{other}", limits=TEST_LIMITS)) as client:
        with exported.open("rb") as body:
            made = client.post("/api/tables/import", content=body)
        assert made.status_code == 201, made.text
        again = client.get(
            f"/api/tables/{made.json()['id']}/export",
            headers={"Authorization": f"Bearer {made.json()['narrator_token']}"},
        ).json()
    imported = json.loads(exported.read_text())["events"]
    assert again["events"][: len(imported)] == imported
    assert again["events"][len(imported)]["kind"] == "scene.open"  # the import's new scene


def test_an_import_that_fails_late_or_is_too_large_makes_nothing(
    exported: Path, tmp_path: Path
) -> None:
    """A die changed near the end fails the replay: 422 naming it, no table; a body over the
    import limit is 413 naming ``body``."""
    lines = exported.read_text().splitlines()
    index = next(i for i in range(len(lines) - 2, 0, -1) if '"dice":[{' in lines[i])
    event = json.loads(lines[index].rstrip(","))
    event["result"] = {**event["result"], "forged": True}
    lines[index] = json.dumps(event) + ","
    forged = tmp_path / "forged.json"
    forged.write_text("\n".join(lines))
    limits = Limits(**{**TEST_LIMITS.__dict__, "max_import": 1 << 20})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'x.db'}", limits=limits)) as client:
        large = client.post("/api/tables/import", content=forged.read_bytes())
        assert large.status_code == 413 and large.json()["error"]["field"] == "body"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'y.db'}", limits=TEST_LIMITS)) as client:
        answer = client.post("/api/tables/import", content=forged.read_bytes())
        assert answer.status_code == 422
        assert answer.json()["error"]["field"] == f"events.{event['seq']}"
        world: World = client.app.state.world  # type: ignore[attr-defined]
        with world.database.read() as connection:
            from sqlalchemy import func, select

            from taletable.server.schema import EVENTS, TABLES

            assert connection.execute(select(func.count()).select_from(TABLES)).scalar() == 0
            assert connection.execute(select(func.count()).select_from(EVENTS)).scalar() == 0


def test_exports_in_flight_are_bounded_per_seat(campaign: tuple[TestClient, Seats]) -> None:
    client, table = campaign
    world: World = client.app.state.world  # type: ignore[attr-defined]
    held = world.exports.take(table.mara_seat)
    try:
        refused = client.get(f"/api/tables/{table.id}/export", headers=table.mara)
        assert refused.status_code == 429
        assert refused.json()["error"]["field"] == "authorization"
        assert "Retry-After" in refused.headers
        assert client.get(f"/api/tables/{table.id}/export", headers=table.bram).status_code == 200
    finally:
        held.release()
    assert client.get(f"/api/tables/{table.id}/export", headers=table.mara).status_code == 200
