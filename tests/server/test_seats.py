"""Seats and what each may do (issue 15): an observer reads the table and its log and may not
roll, act or edit; a cross-site change is refused in words; only the narrator changes the join
code."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import Seats
from tests.server.test_characters import terrik

HTMX = {"HX-Request": "true"}


def _refused(answer: object) -> None:
    status = getattr(answer, "status_code", None)
    error = answer.json()["error"]  # type: ignore[attr-defined]
    assert status == 403 and error["field"] == "authorization", error
    assert "observer" in error["message"] and "join as a player" in error["message"]


def test_an_observer_reads_but_may_not_act_roll_or_edit(client: TestClient, table: Seats) -> None:
    """Every change by an observer is refused 403 and adds nothing to the log; reading works."""
    base = f"/api/tables/{table.id}"
    made = client.post(f"{base}/characters", json={"sheet": terrik()}, headers=table.mara)
    character = made.json()["id"]
    head = client.get(base, headers=table.observer).json()["head_seq"]
    roll = {"action": "cogent.check", "args": {"pool": 4, "cl": 2}}
    _refused(client.post(f"{base}/actions", json=roll, headers=table.observer))
    _refused(client.post(f"{base}/characters", json={"sheet": terrik()}, headers=table.observer))
    edit = {"sheet": terrik(), "version": 1}
    _refused(client.put(f"{base}/characters/{character}", json=edit, headers=table.observer))
    assert client.get(base, headers=table.observer).json()["head_seq"] == head
    shown = client.get(f"{base}/characters/{character}", headers=table.observer)
    assert shown.status_code == 200 and shown.json()["version"] == 1
    assert client.post(f"{base}/actions", json=roll, headers=table.mara).status_code == 201


def test_an_observer_page_has_no_controls_and_its_posts_are_refused(
    client: TestClient, table: Seats
) -> None:
    """Seated as an observer, the table page shows the log but no roll panel or import form;
    a roll or an import posted anyway is refused with the reason, and nothing is logged."""
    token = table.observer["Authorization"].split()[1]
    assert client.get(f"/t/{table.id}/enter", params={"token": token}).status_code in (200, 303)
    page = client.get(f"/t/{table.id}")
    assert page.status_code == 200 and 'id="log"' in page.text
    assert 'id="roll-form"' not in page.text and "/wizard" not in page.text
    head = client.get(f"/api/tables/{table.id}", headers=table.observer).json()["head_seq"]
    rolled = client.post(f"/t/{table.id}/roll", data={"pool": "4", "cl": "2"}, headers=HTMX)
    assert "observer" in rolled.text
    imported = client.post(
        f"/t/{table.id}/characters", data={"text": "edition: core"}, headers=HTMX
    )
    assert "observer" in imported.text
    assert client.get(f"/api/tables/{table.id}", headers=table.observer).json()["head_seq"] == head


def test_a_cross_site_change_to_a_page_is_refused_in_words(
    client: TestClient, table: Seats
) -> None:
    """CSRF on the pages: a roll posted by another site with the seat's cookie is refused
    with a page that says why (403), not taken, and not mistaken for a missing seat."""
    token = table.mara["Authorization"].split()[1]
    client.get(f"/t/{table.id}/enter", params={"token": token})
    head = client.get(f"/api/tables/{table.id}", headers=table.mara).json()["head_seq"]
    forged = client.post(
        f"/t/{table.id}/roll",
        data={"pool": "4", "cl": "2"},
        headers={"Origin": "https://evil.example"},
    )
    assert forged.status_code == 403
    assert "sent from another site" in forged.text and "Nothing was changed" in forged.text
    assert client.get(f"/api/tables/{table.id}", headers=table.mara).json()["head_seq"] == head
    taken = client.post(f"/t/{table.id}/roll", data={"pool": "4", "cl": "2"}, headers=HTMX)
    assert taken.status_code == 200 and "sent from another site" not in taken.text


def test_the_narrator_changes_the_join_code_from_the_page(client: TestClient, table: Seats) -> None:
    """The narrator's button shows a new code (and link) once; the old code seats no one, the
    new one does; a player's press is refused."""
    token = table.mara["Authorization"].split()[1]
    client.get(f"/t/{table.id}/enter", params={"token": token})
    refused = client.post(f"/t/{table.id}/join-code", headers=HTMX)
    assert "may change the join code" in refused.text and "Only the table" in refused.text
    token = table.narrator["Authorization"].split()[1]
    client.get(f"/t/{table.id}/enter", params={"token": token})
    assert 'hx-post="/t/' + table.id + '/join-code"' in client.get(f"/t/{table.id}").text
    changed = client.post(f"/t/{table.id}/join-code", headers=HTMX)
    code = changed.text.split('id="new-join-code" readonly value="')[1].split('"')[0]
    assert code != table.join_code and f"code={code}" in changed.text
    join = f"/api/tables/{table.id}/join"
    old = client.post(join, json={"code": table.join_code, "name": "Eve", "role": "player"})
    assert old.status_code == 403
    new = client.post(join, json={"code": code, "name": "Eve", "role": "player"})
    assert new.status_code == 201
