"""The creation wizard: each mode of both editions walked to a legal saved sheet; a refused
step shown beside its field; a rolled choice in the log."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

HTMX = {"HX-Request": "true"}
CORE_MODES = ("fast_play", "initiate", "adept", "veteran")
TIERS = (0, 1, 2, 3, 4, 5)
IDENTITY = {
    "identity.name": "Wren",
    "identity.concept": "A scout who maps the marsh",
    "identity.elevator_pitch": "She finds the way through.",
    "identity.disposition": "Wary",
    "identity.history": "Raised by reed-cutters.",
    "identity.beliefs": "Leave no one in the mire",
    "identity.goals": "Chart the whole marsh",
}


def _start(client: TestClient, edition: str = "core") -> str:
    made = client.post("/start", data={"name": "Marsh", "system": "cogent", "edition": edition})
    found = re.search(r'href="/t/([0-9a-f]+)"', made.text)
    assert found is not None
    return found.group(1)


def _hidden(page: str, name: str) -> str:
    found = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', page)
    assert found is not None, page
    return html.unescape(found.group(1))


class Wizard:
    """A person at the wizard: the page they see, and each step they submit."""

    def __init__(self, client: TestClient, table_id: str, edition: str) -> None:
        self.client, self.table_id = client, table_id
        self.page = self.post({"step": "edition", "edition": edition, "go": "next"})

    def post(self, fields: dict[str, Any]) -> str:
        answer = self.client.post(f"/t/{self.table_id}/wizard", data=fields, headers=HTMX)
        assert answer.status_code == 200, answer.text
        return answer.text

    @property
    def step(self) -> str:
        return _hidden(self.page, "step")

    @property
    def draft(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(_hidden(self.page, "draft"))
        return data

    def submit(self, go: str = "next", **fields: Any) -> str:
        keep = {name: _hidden(self.page, name) for name in ("draft", "base", "step")}
        for name in ("rows", "quirk_rows", "bonus_rows"):
            if f'name="{name}"' in self.page and name not in fields:
                fields[name] = _hidden(self.page, name)
        self.page = self.post({**keep, **fields, "go": go})
        return self.page


def _core_answers(mode: str) -> dict[str, dict[str, Any]]:
    return {
        "mode": {"mode": mode},
        "identity": IDENTITY,
        "attributes": {"attributes.STR": 1, "attributes.RFL": 0 if mode == "initiate" else 1},
        "disabling": {},
        "skills": {"skills.Stealth": 2, "skills.Athletics": 1},
        "vocations": {"rows": 1, "vocations.0.name": "Scout", "vocations.0.attribute": "RFL",
                      "vocations.0.points": 1, "vocations.0.skills": "Tracking:INT=1"},
        "commerce": {"commerce.assigned": 3, "commerce.adjustment": 0},
        "equipment": {"rows": 1, "weapons.0.name": "Spear", "weapons.0.group": "Large Weapon"},
        "destiny": {},
    }  # fmt: skip


def _tiered_answers(tier: int) -> dict[str, dict[str, Any]]:
    vocation = {"rows": 1}
    if tier:
        vocation |= {"vocations.0.name": "Scout", "vocations.0.attribute": "RFL",
                     "vocations.0.rank": 1}  # fmt: skip
    return {
        "tier": {"tier": tier},
        "identity": IDENTITY,
        "attributes": {"attributes.RFL": min(tier, 1)},
        "vocations": vocation,
        "skills": {"skills.Stealth": min(tier, 1)},
        "equipment": {"rows": 0, "equipment.items": "rope, lantern"},
        "finishing": {},
    }


def _walk(wizard: Wizard, answers: dict[str, dict[str, Any]]) -> str:
    for step, fields in answers.items():
        assert wizard.step == step, wizard.page
        wizard.submit(**fields)
    return wizard.page


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("mode", CORE_MODES)
def test_each_core_mode_walks_to_a_legal_saved_sheet(client: TestClient, mode: str) -> None:
    """002 > Character Creation, each mode's steps in the book's order; the finished sheet is
    saved through the import route and listed with the table's characters."""
    table_id = _start(client)
    done = _walk(Wizard(client, table_id, "core"), _core_answers(mode))
    assert "is made and joined the table" in done, done
    character = re.search(r'href="/t/[0-9a-f]+/c/([0-9a-f]+)"', done).group(1)  # type: ignore[union-attr]
    saved = client.get(f"/api/tables/{table_id}/characters/{character}").json()["sheet"]
    assert saved["mode"] == mode and saved["destiny"]["points"] >= 1
    assert saved["vocations"][0]["vocational_skills"][0]["name"] == "Tracking"
    assert "Wren" in client.get(f"/t/{table_id}/characters").text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("tier", TIERS)
def test_each_tier_walks_to_a_legal_saved_sheet(client: TestClient, tier: int) -> None:
    """000 > Character Creation, "An overview of the process", at each tier of play."""
    table_id = _start(client, "tiered")
    done = _walk(Wizard(client, table_id, "tiered"), _tiered_answers(tier))
    assert "is made and joined the table" in done, done
    character = re.search(r'href="/t/[0-9a-f]+/c/([0-9a-f]+)"', done).group(1)  # type: ignore[union-attr]
    saved = client.get(f"/api/tables/{table_id}/characters/{character}").json()["sheet"]
    assert saved["tier"] == tier and saved["equipment"]["items"] == ["rope", "lantern"]
    assert "Wren" in client.get(f"/t/{table_id}/characters").text
