"""Smaller defects of the table page: the header's scene number follows a scene closed (the
page's stream swaps it), random tables are picked from a list, a narrator's tool answers with
its result beside its form, a sheet imported twice or at another system's table is refused."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from taletable.server.auth import Seat
from taletable.server.pages.table import PageRenderer
from taletable.server.session import TableSession
from taletable.server.table_rules import SYSTEM_NAMES
from tests.server.conftest import Seats, make_table

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


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def test_importing_the_same_sheet_twice_is_refused_naming_it(
    client: TestClient, table: Seats
) -> None:
    """The second import of Sir Terrik's sheet adds nothing and says he is there already."""
    _narrator_page(client, table)
    sheet = (EXAMPLES / "core_sir_terrik.yaml").read_text()
    first = client.post(f"/t/{table.id}/characters", data={"text": sheet}, headers=HTMX)
    assert "Sir Terrik joined the table" in first.text
    again = client.post(f"/t/{table.id}/characters", data={"text": sheet}, headers=HTMX)
    assert 'role="alert"' in again.text
    assert "Sir Terrik is at the table already" in html.unescape(again.text)
    listed = client.get(f"/api/tables/{table.id}/events", headers=table.narrator).json()
    assert [e["kind"] for e in listed["events"]].count("character.create") == 1


@pytest.mark.parametrize("system", ["boons", "labcats"])
def test_a_cogent_sheet_is_refused_at_another_systems_table(
    client: TestClient, system: str
) -> None:
    """A Cogent sheet imported at a boons or labcats table is refused, naming both systems;
    by the API too (422, field ``sheet``)."""
    other = make_table(client, system=system)
    _narrator_page(client, other)
    sheet = (EXAMPLES / "core_sir_terrik.yaml").read_text()
    refused = client.post(f"/t/{other.id}/characters", data={"text": sheet}, headers=HTMX)
    said = html.unescape(refused.text)
    assert 'role="alert"' in said and "this is a Cogent Roleplay sheet" in said
    assert SYSTEM_NAMES[system] in said
    api = client.post(f"/api/tables/{other.id}/characters", json={"sheet": yaml.safe_load(sheet)},
                      headers=other.narrator)  # fmt: skip
    assert api.status_code == 422 and api.json()["error"]["field"] == "sheet"
    assert "No characters yet" in client.get(f"/t/{other.id}/characters").text


def _add(client: TestClient, table: Seats, who: dict[str, str], file: str) -> str:
    sheet = yaml.safe_load((EXAMPLES / file).read_text())
    added = client.post(f"/api/tables/{table.id}/characters", json={"sheet": sheet}, headers=who)
    assert added.status_code == 201, added.text
    return str(added.json()["id"])


def test_destiny_after_a_typed_pool_asks_whose_sheet_pays(client: TestClient, table: Seats) -> None:
    """A check rolled with a typed pool names no sheet: spending destiny after it without
    saying whose is refused naming ``character``; another seat's character is refused; the
    roller's own character pays (Sir Terrik's 3 points -> 2), and the page asks whose, offering
    only the roller's own characters."""
    terrik = _add(client, table, table.mara, "core_sir_terrik.yaml")
    _add(client, table, table.bram, "core_ilsa_the_wizard.yaml")
    ansel = _add(client, table, table.bram, "core_brother_ansel.yaml")
    check = {"action": "cogent.check", "args": {"pool": 6, "cl": 9}}
    rolled = client.post(f"/api/tables/{table.id}/actions", json=check, headers=table.mara)
    seq = rolled.json()["seq"]
    spend = {"action": "cogent.destiny-after", "args": {"follows": seq}}
    nobody = client.post(f"/api/tables/{table.id}/actions", json=spend, headers=table.mara)
    assert nobody.status_code == 422 and nobody.json()["error"]["field"] == "args.character"
    assert "typed pool" in nobody.json()["error"]["message"]
    spend["args"]["character"] = ansel
    theirs = client.post(f"/api/tables/{table.id}/actions", json=spend, headers=table.mara)
    assert theirs.status_code == 403
    spend["args"]["character"] = terrik
    paid = client.post(f"/api/tables/{table.id}/actions", json=spend, headers=table.mara)
    assert paid.status_code == 201, paid.text
    sheet = client.get(f"/api/tables/{table.id}/characters/{terrik}", headers=table.mara).json()
    assert sheet["sheet"]["destiny"]["points"] == 2
    token = table.mara["Authorization"].removeprefix("Bearer ")
    client.get(f"/t/{table.id}/enter", params={"token": token})
    page = client.get(f"/t/{table.id}").text
    assert f'hx-get="/t/{table.id}/payers?seq={seq}" hx-trigger="load" hx-target="this"' in page
    offered = client.get(f"/t/{table.id}/payers", params={"seq": seq}).text
    assert f'<select id="payer-{seq}" name="character">' in offered
    assert f'value="{terrik}">Sir Terrik<' in offered and ansel not in offered
