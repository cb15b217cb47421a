"""The roll panel as each seat is offered it: a player's own characters only (the narrator's
first, then the players' by owner), a sheet's skill or combat pool opening it set for that
pool, a player's blind roll (never a secret one), and the list following an import."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import Seats
from tests.server.test_characters import named
from tests.server.test_ownership import ansel

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
HTMX = {"HX-Request": "true"}


def _seated(client: TestClient, table: Seats, who: dict[str, str]) -> TestClient:
    """A browser holding the seat of ``who`` (its token entered at the table's link)."""
    page = TestClient(client.app)
    token = who["Authorization"].removeprefix("Bearer ")
    entered = page.get(f"/t/{table.id}/enter", params={"token": token})
    assert entered.status_code == 200, entered.text
    return page


def _add(client: TestClient, table: Seats, who: dict[str, str], sheet: dict[str, Any]) -> str:
    made = client.post(f"/api/tables/{table.id}/characters", json={"sheet": sheet}, headers=who)
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _offered(text: str) -> list[str]:
    """The roll panel's characters, as their options read."""
    select = re.search(r'<select id="character".*?</select>', text, re.S)
    assert select is not None
    return [html.unescape(o) for o in re.findall(r"<option [^>]*>([^<]+)</option>", select[0])]


@SQLITE
def test_each_seat_is_offered_the_characters_it_may_roll_with(
    client: TestClient, table: Seats
) -> None:
    """Mara sees Sir Terrik (hers) and not the narrator's Ansel; Bram sees neither; the
    narrator sees Ansel (their own) first, then Mara's Sir Terrik named as hers."""
    _add(client, table, table.mara, named("Sir Terrik"))
    _add(client, table, table.narrator, ansel())
    pages = {who: _seated(client, table, getattr(table, who)) for who in ("mara", "bram")}
    pages["narrator"] = _seated(client, table, table.narrator)
    shown = {who: _offered(page.get(f"/t/{table.id}").text) for who, page in pages.items()}
    assert shown["mara"] == ["Sir Terrik (core)"]
    assert shown["bram"] == []
    assert shown["narrator"] == ["Brother Ansel (core)", "Sir Terrik (core) · Mara's"]


@SQLITE
def test_a_sheets_skill_opens_the_roll_panel_set_for_it(client: TestClient, table: Seats) -> None:
    """Mara's sheet offers her checks and combat pools as buttons of a form to the table page;
    Athletics at CL 2 opens the panel in character mode with Athletics chosen, CL 2, the typed
    pool disabled; a combat pool opens it with that pool typed. Bram, who may not roll with
    Sir Terrik, is offered no such button."""
    terrik = _add(client, table, table.mara, named("Sir Terrik"))
    mara = _seated(client, table, table.mara)
    sheet = mara.get(f"/t/{table.id}/c/{terrik}").text
    assert f'<form id="roll-from-sheet" action="/t/{table.id}" method="get">' in sheet
    assert 'name="skill" value="Athletics"' in sheet
    combat = re.search(r'name="pool" value="(\d+)" aria-label="Roll ([^"]+) \(combat\)', sheet)
    assert combat is not None
    bram = _seated(client, table, table.bram)
    assert 'id="roll-from-sheet"' not in bram.get(f"/t/{table.id}/c/{terrik}").text
    params = {"character": terrik, "skill": "Athletics", "cl": "2"}
    opened = mara.get(f"/t/{table.id}", params=params).text
    assert '<option value="Athletics" selected>Athletics</option>' in opened
    assert 'value="character" checked' in opened and 'data-open-roll="true"' in opened
    assert re.search(r'id="pool" [^>]*disabled', opened)
    assert re.search(r'id="cl" [^>]*value="2"', opened)
    pooled = mara.get(f"/t/{table.id}", params={"character": terrik, "pool": combat[1]}).text
    assert 'value="pool" checked' in pooled
    assert re.search(rf'id="pool" [^>]*value="{combat[1]}"(?! disabled)>', pooled)
    plain = mara.get(f"/t/{table.id}").text
    assert 'data-open-roll="true"' not in plain


def _visibilities(client: TestClient, table: Seats) -> list[str]:
    events = client.get(f"/api/tables/{table.id}/events", headers=table.narrator).json()["events"]
    return [str(e["visibility"]) for e in events if e["kind"] == "cogent.check"]


@SQLITE
def test_a_player_rolls_blind_from_the_page_and_never_secret(
    client: TestClient, table: Seats
) -> None:
    """Mara is offered "blind" (and not "secret"); her blind roll is stored blind; a secret
    one she sends anyway is refused in words and nothing is rolled. The narrator is offered one
    choice for secret and blind."""
    mara = _seated(client, table, table.mara)
    panel = mara.get(f"/t/{table.id}").text
    assert '<option value="blind">blind: only the narrator sees the result' in panel
    assert 'value="narrator"' not in panel
    form = {"mode": "pool", "pool": "4", "cl": "2", "visibility": "blind"}
    rolled = html.unescape(mara.post(f"/t/{table.id}/roll", data=form, headers=HTMX).text)
    assert "made blind (only the narrator sees the result)" in rolled
    secret = {**form, "visibility": "narrator"}
    refused = mara.post(f"/t/{table.id}/roll", data=secret, headers=HTMX)
    assert 'role="alert"' in refused.text and "Only the narrator rolls secret" in refused.text
    assert _visibilities(client, table) == ["blind"]
    narrator = _seated(client, table, table.narrator).get(f"/t/{table.id}").text
    assert '<option value="narrator">secret (or blind): only you see it</option>' in narrator
    assert 'value="blind"' not in narrator


@SQLITE
def test_the_character_list_follows_an_import(client: TestClient, table: Seats) -> None:
    """With none yet, Mara's list refreshed after her import holds Sir Terrik and brings his
    skills along (the odds asked again); with him already chosen, only the list comes back."""
    mara = _seated(client, table, table.mara)
    assert _offered(mara.get(f"/t/{table.id}").text) == []
    terrik = _add(client, table, table.mara, named("Sir Terrik"))
    url = f"/t/{table.id}/roll-characters"
    fresh = mara.get(url, params={"character": ""}, headers=HTMX)
    assert _offered(fresh.text) == ["Sir Terrik (core)"]
    assert 'hx-swap-oob="innerHTML"' in fresh.text and ">Athletics</option>" in fresh.text
    assert fresh.headers["HX-Trigger"] == "options-changed"
    assert 'data-first-character="true"' in fresh.text  # the page turns to character mode
    kept = mara.get(url, params={"character": terrik}, headers=HTMX)
    assert _offered(kept.text) == ["Sir Terrik (core)"]
    assert "hx-swap-oob" not in kept.text and "HX-Trigger" not in kept.headers
    assert "data-first-character" not in kept.text
