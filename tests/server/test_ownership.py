"""Who owns a character at a live table: the seat that added it, or the seat the narrator
handed it to. A player rolls with, changes and saves over only its own characters; awards are
the narrator's; reads stay open to every seat (server/permissions.py, server/owners.py)."""

from __future__ import annotations

import html
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.server.conftest import SAME_ORIGIN, Seats
from tests.server.test_characters import EXAMPLES, named, terrik

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
HTMX = {"HX-Request": "true"}
OWNED = "Sir Terrik belongs to Mara; only Mara or the narrator may"


def ansel() -> dict[str, Any]:
    data = yaml.safe_load((EXAMPLES / "core_brother_ansel.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _act(client: TestClient, table: Seats, who: dict[str, str], action: str, **args: Any) -> Any:
    return client.post(
        f"/api/tables/{table.id}/actions", json={"action": action, "args": args}, headers=who
    )


def _events(client: TestClient, table: Seats) -> list[dict[str, Any]]:
    answer = client.get(f"/api/tables/{table.id}/events", headers=table.narrator)
    return list(answer.json()["events"])


def _maras(client: TestClient, table: Seats, sheet: dict[str, Any] | None = None) -> str:
    made = client.post(
        f"/api/tables/{table.id}/characters", json={"sheet": sheet or terrik()}, headers=table.mara
    )
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _refused(answer: Any, field: str) -> str:
    assert answer.status_code == 403, answer.text
    error = answer.json()["error"]
    assert error["field"] == field
    return str(error["message"])


def test_a_players_edit_of_anothers_sheet_is_403_naming_the_owner(
    client: TestClient, table: Seats
) -> None:
    """Bram's PUT of Mara's sheet is refused, naming Mara; the version and the log stand."""
    character = _maras(client, table)
    url = f"/api/tables/{table.id}/characters/{character}"
    before = _events(client, table)
    refused = client.put(url, json={"sheet": named("Sir Bram"), "version": 1}, headers=table.bram)
    assert OWNED in _refused(refused, "character_id")
    assert client.get(url, headers=table.bram).json() == {"sheet": terrik(), "version": 1}
    assert _events(client, table) == before
    mine = client.put(url, json={"sheet": named("Sir T"), "version": 1}, headers=table.mara)
    narrators = client.put(
        url, json={"sheet": named("Sir N"), "version": 2}, headers=table.narrator
    )
    assert (mine.status_code, narrators.status_code) == (200, 200)


def test_a_players_check_with_anothers_character_is_403(client: TestClient, table: Seats) -> None:
    """Bram may not roll Sir Terrik; Mara and the narrator may."""
    character = _maras(client, table)
    check = {"character": character, "skill": "Athletics", "cl": 2}
    refused = _act(client, table, table.bram, "cogent.check", **check)
    assert OWNED in _refused(refused, "args.character")
    sheet = client.get(f"/api/tables/{table.id}/characters/{character}", headers=table.bram)
    assert sheet.json()["version"] == 1
    assert _act(client, table, table.mara, "cogent.check", **check).status_code == 201
    assert _act(client, table, table.narrator, "cogent.check", **check).status_code == 201
    odds = {"character": character, "skill": "Athletics", "cl": 2}  # a read: open to all
    assert _act(client, table, table.bram, "odds.cogent", **odds).status_code == 200


def test_a_new_character_may_not_replace_or_write_over_anothers(
    client: TestClient, table: Seats
) -> None:
    """``cogent.character.new`` with Mara's key (``replace``) and a change saved ``out`` over
    her character are refused to Bram; a fresh key is his, and he may write over it."""
    character = _maras(client, table)
    replaced = _act(
        client, table, table.bram, "cogent.character.new",
        sheet=named("Sir Bram"), key=character, replace=True,
    )  # fmt: skip
    assert OWNED in _refused(replaced, "args.key")
    fresh = _act(
        client, table, table.bram, "cogent.character.new", sheet=named("Sir Bram"), key="bram1"
    )
    assert fresh.status_code == 201, fresh.text
    out = _act(
        client, table, table.bram, "cogent.character.quirk",
        character="bram1", quirk="Debt", reason="a loan", out=character,
    )  # fmt: skip
    assert OWNED in _refused(out, "args.out")
    again = _act(
        client, table, table.bram, "cogent.character.new",
        sheet=named("Sir Bram II"), key="bram1", replace=True,
    )  # fmt: skip
    assert again.status_code == 201, again.text
    sheet = client.get(f"/api/tables/{table.id}/characters/{character}", headers=table.mara)
    assert sheet.json() == {"sheet": terrik(), "version": 1}


@pytest.mark.parametrize(
    ("action", "args"),
    [
        ("cogent.character.destiny", {"award": 1, "reason": "saved the village"}),
        ("cogent.character.commerce", {"gain": 1, "reason": "the dragon's hoard"}),
        ("cogent.character.advance", {"event": "chapter"}),
    ],
)
def test_awards_are_the_narrators(
    client: TestClient, table: Seats, action: str, args: dict[str, Any]
) -> None:
    """A player may not award its own character destiny, commerce or an advance; the narrator
    awards them (Brother Ansel, an adept: a campaign's character)."""
    character = _maras(client, table, ansel())
    refused = _act(client, table, table.mara, action, character=character, **args)
    said = _refused(refused, "action")
    assert "only the narrator awards" in said and "cogent." not in said  # in words
    sheet = client.get(f"/api/tables/{table.id}/characters/{character}", headers=table.mara)
    assert sheet.json()["version"] == 1
    awarded = _act(client, table, table.narrator, action, character=character, **args)
    assert awarded.status_code == 201, awarded.text


def test_the_narrator_hands_a_character_to_another_seat(client: TestClient, table: Seats) -> None:
    """Handed to Bram, Sir Terrik is Bram's to roll and edit, no longer Mara's; only the
    narrator hands, and only to a seat that plays."""
    character = _maras(client, table)
    url = f"/api/tables/{table.id}/characters/{character}/owner"
    bram = table.bram_seat
    assert _refused(client.put(url, json={"seat": bram}, headers=table.mara), "authorization")
    observer = client.put(url, json={"seat": table.observer_seat}, headers=table.narrator)
    assert (observer.status_code, observer.json()["error"]["field"]) == (422, "seat")
    missing = client.put(f"{url}x", json={"seat": bram}, headers=table.narrator)
    assert missing.status_code == 404
    handed = client.put(url, json={"seat": bram}, headers=table.narrator)
    assert handed.json() == {"character": character, "seat": bram, "name": "Bram"}
    assert _events(client, table)[-1]["kind"] == "character.owner"
    check = {"character": character, "skill": "Athletics", "cl": 2}
    assert _act(client, table, table.bram, "cogent.check", **check).status_code == 201
    message = _refused(_act(client, table, table.mara, "cogent.check", **check), "args.character")
    assert "Sir Terrik belongs to Bram; only Bram or the narrator may" in message
    edit = f"/api/tables/{table.id}/characters/{character}"
    edited = client.put(edit, json={"sheet": terrik(), "version": 1}, headers=table.bram)
    assert edited.status_code == 200, edited.text


@SQLITE
def test_the_pages_refuse_the_same(client: TestClient, table: Seats) -> None:
    """A player's sheet save on another's character shows why; so does a roll with it."""
    character = _maras(client, table)
    page = TestClient(client.app)
    joined = page.post(
        f"/join/{table.id}",
        data={"code": table.join_code, "name": "Finn", "role": "player"},
        headers=SAME_ORIGIN,
    )
    assert joined.status_code in (200, 303), joined.text
    saved = page.post(
        f"/t/{table.id}/c/{character}",
        data={"text": "identity:\n  name: Finn's\n", "version": "1"},
        headers=HTMX,
    )
    assert "Sir Terrik belongs to Mara; only Mara or the narrator may edit its sheet" in (
        html.unescape(saved.text)
    )
    form = {"character": character, "skill": "Athletics", "cl": "2"}
    rolled = page.post(f"/t/{table.id}/roll", data=form, headers=HTMX)
    assert OWNED in html.unescape(rolled.text)
    sheet = client.get(f"/api/tables/{table.id}/characters/{character}", headers=table.mara)
    assert sheet.json()["version"] == 1
