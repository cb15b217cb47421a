"""``taletable serve --sample``: a sample table with the example characters of both editions,
made once, and fresh links each run that seat the narrator and let players join."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from taletable.server import create_app
from taletable.server.limits import Limits
from taletable.server.sample import seat_sample

LIMITS = Limits(rate=10_000, burst=10_000)


def test_the_sample_table_holds_both_editions_and_its_links_work(tmp_path: Path) -> None:
    """The first run adds all seven example characters (core and tiered); a second run makes no
    new table, and only its fresh narrator token and join code work."""
    url = f"sqlite:///{tmp_path / 'taletable.db'}"
    app = create_app(url, limits=LIMITS)  # migrates
    table_id, old_token, old_code, added = seat_sample(url)
    assert len(added) == 7 and {"Sir Terrik", "Erin"} <= set(added)
    again, token, code, added_again = seat_sample(url)
    assert again == table_id and added_again == []
    with TestClient(app) as client:
        stale = client.get(
            f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {old_token}"}
        )
        assert stale.status_code == 401
        seen = client.get(f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"})
        assert seen.status_code == 200 and seen.json()["seat"]["role"] == "narrator"
        entries = client.get(f"/t/{table_id}/characters").text
        joined = client.post(
            f"/api/tables/{table_id}/join", json={"code": code, "name": "Mara", "role": "player"}
        )
        assert joined.status_code == 201
        refused = client.post(
            f"/api/tables/{table_id}/join", json={"code": old_code, "name": "Bo", "role": "player"}
        )
        assert refused.status_code == 403
        client.get(f"/t/{table_id}/enter", params={"token": token})
        listed = client.get(f"/t/{table_id}/characters").text
    assert "no seat" in entries.lower()
    assert "tiered" in listed and "core" in listed and listed.count("/c/") >= 7
