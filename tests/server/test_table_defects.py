"""Smaller defects of the table page: the header's scene number follows a scene closed (the
page's stream swaps it), random tables are picked from a list, a narrator's tool answers with
its result beside its form."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.server.auth import Seat
from taletable.server.pages.table import PageRenderer
from taletable.server.session import TableSession
from tests.server.conftest import Seats

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
HTMX = {"HX-Request": "true"}


def _events(client: TestClient, table: Seats) -> list[dict[str, Any]]:
    answer = client.get(f"/api/tables/{table.id}/events", headers=table.narrator)
    return list(answer.json()["events"])


def test_a_scene_opened_swaps_the_header_scene_number(client: TestClient, table: Seats) -> None:
    """The page's stream sends, with the entry of the scene opened, the header's number out
    of band; the page drawn afresh shows it too."""
    assert client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator).status_code == 201
    opened = [e for e in _events(client, table) if e["kind"] == "scene.open"][-1]
    assert opened["scene"] == 2
    seat = Seat(id="s", table_id=table.id, name="Mara", role="player")
    renderer = PageRenderer(TableSession(client.app.state.world, seat))  # type: ignore[attr-defined]
    sent = renderer.entry(opened["seq"], json.dumps(opened))
    assert '<span id="scene-number" hx-swap-oob="true">2</span>' in sent
    closed = [e for e in _events(client, table) if e["kind"] == "scene.close"][-1]
    assert "scene-number" not in renderer.entry(closed["seq"], json.dumps(closed))
    assert '<span id="scene-number">2</span>' in _narrator_page(client, table)


def _narrator_page(client: TestClient, table: Seats) -> str:
    token = table.narrator["Authorization"].removeprefix("Bearer ")
    client.get(f"/t/{table.id}/enter", params={"token": token})
    return client.get(f"/t/{table.id}").text


def test_random_tables_are_picked_from_a_list(client: TestClient, table: Seats) -> None:
    """The random table is a select of every table by its title (and die), not a text box."""
    page = _narrator_page(client, table)
    chooser = re.search(r'<select id="table-name" name="name">(.*?)</select>', page, re.S)
    assert chooser is not None
    assert '<option value="severity" selected>Severity roll (d6)</option>' in chooser.group(1)
    assert '<option value="natural_disaster" >Natural disaster (d7)</option>' in chooser.group(1)
    assert 'list="table-names"' not in page


def test_a_narrator_tool_answers_with_its_result_beside_its_form(
    client: TestClient, table: Seats
) -> None:
    """Each tool's form targets the place just after it; its answer holds the result itself
    (the table's title, the die rolled and the entry), not only where to find it."""
    page = _narrator_page(client, table)
    for name in ("table", "weather", "encounter", "bestiary", "npc"):
        placed = re.search(
            rf'hx-target="#{name}-result">.*?</form>\s*<div id="{name}-result"', page, re.S
        )
        assert placed is not None, name
    rolled = client.post(
        f"/t/{table.id}/act", headers=HTMX,
        data={"action": "table.roll", "name": "severity", "visibility": "narrator"},
    )  # fmt: skip
    assert "only you see it in the log" in rolled.text
    assert "Severity roll" in rolled.text and 'class="die' in rolled.text
    outcome = re.search(r'<p class="outcome">(.+?) \((\d), entry', rolled.text)
    assert outcome is not None
    logged = [e for e in _events(client, table) if e["kind"] == "table.roll"][-1]
    assert logged["result"]["total"] == int(outcome.group(2))
    refused = client.post(
        f"/t/{table.id}/act", headers=HTMX, data={"action": "table.roll", "name": "nowhere"}
    )
    assert 'role="alert"' in refused.text and "nowhere" in refused.text
