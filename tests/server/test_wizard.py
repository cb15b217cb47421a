"""The creation wizard: each mode of both editions walked to a legal saved sheet; a refused
step shown beside its field; a rolled choice in the log."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from tests.server.conftest import SAME_ORIGIN

HTMX = {"HX-Request": "true"}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
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
    made = client.post(
        "/start",
        data={"name": "Marsh", "system": "cogent", "edition": edition},
        headers=SAME_ORIGIN,
    )
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
                      "vocations.0.points": 1, "vocations.0.vocational_skills.rows": 1,
                      "vocations.0.vocational_skills.0.name": "Tracking",
                      "vocations.0.vocational_skills.0.attribute": "INT",
                      "vocations.0.vocational_skills.0.points": 1},
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
    """Each step answered, then the review of the whole sheet, then "Create"."""
    for step, fields in answers.items():
        assert wizard.step == step, wizard.page
        wizard.submit(**fields)
    assert wizard.step == "review" and "Review the character" in wizard.page, wizard.page
    assert "Wren" in wizard.page and "Create the character" in wizard.page
    return wizard.submit("create")


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


def _core_until(wizard: Wizard, last: str) -> None:
    for step, fields in _core_answers("fast_play").items():
        if step == last:
            return
        wizard.submit(**fields)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_refused_step_is_shown_beside_its_field(client: TestClient) -> None:
    """002 > Attributes: "2 Attribute Points"; three are refused beside the attributes, the
    step is asked again, and the name left out is shown beside the name."""
    wizard = Wizard(client, _start(client), "core")
    _core_until(wizard, "identity")
    wizard.submit(**{**IDENTITY, "identity.name": ""})
    assert wizard.step == "identity"
    beside_name = wizard.page.split('id="problems-identity-name"')[1].split("</div>")[0]
    assert "no name" in beside_name and 'aria-describedby="problems-identity-name"' in wizard.page
    wizard.submit(**IDENTITY)
    wizard.submit(**{"attributes.STR": 2, "attributes.RFL": 1})
    assert wizard.step == "attributes"
    beside = wizard.page.split('id="problems-attributes"')[1].split("</div>")[0]
    assert "1 attribute point(s) over" in beside and "(Character Creation &gt;" in beside
    assert "002 &gt;" not in wizard.page  # the book's sections without the file numbers
    assert wizard.draft["attributes"] == {"STR": 2, "RFL": 1, "INT": 0}
    wizard.submit(**{"attributes.STR": 1, "attributes.RFL": 1})
    assert wizard.step == "disabling" and "skill points left: 12 of 12" in wizard.page


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_disabling_characteristic_is_taken_through_the_tables_action_path(
    client: TestClient,
) -> None:
    """A d20 roll on the disabling table is the scene's dice, in the log, and kept ("This
    cannot be taken back"); a name off the table is refused beside the characteristics."""
    table_id = _start(client)
    wizard = Wizard(client, table_id, "core")
    _core_until(wizard, "disabling")
    wizard.submit("take", **{"disabling.custom": "", "disabling.answer": "Sneezes"})
    assert wizard.step == "disabling" and not wizard.draft.get("disabling_characteristics")
    beside = wizard.page.split('id="problems-disabling_characteristics"')[1].split("</div>")[0]
    assert "&#39;Sneezes&#39; is not on the table" in beside
    wizard.submit("take", **{"disabling.answer": "roll", "disabling.skill": "Stealth"})
    taken = wizard.draft["disabling_characteristics"]
    assert (
        len(taken) == 1
        and taken[0]["how"] == "rolled"
        and f"rolled {taken[0]['roll']}" in (wizard.page)
    )
    events = client.get(f"/api/tables/{table_id}/events").json()["events"]
    logged = [e for e in events if e["kind"] == "cogent.character.new.disabling"]
    assert len(logged) == 1 and logged[0]["result"]["name"] == taken[0]["name"]
    assert logged[0]["dice"], "the roll is the scene's dice, recorded"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_commerce_level_of_four_asks_for_a_quirk(client: TestClient) -> None:
    """002 > Assigning Commerce Points: "Four, they must roll on the 'Quirks of Wealth'
    table": the step asks for one (the engine's count), rolls it with the scene's dice."""
    table_id = _start(client)
    wizard = Wizard(client, table_id, "core")
    _core_until(wizard, "commerce")
    wizard.submit(**{"commerce.assigned": 4, "commerce.adjustment": 0})
    assert wizard.step == "commerce" and 'name="quirk.0"' in wizard.page
    assert 'name="quirk.1"' not in wizard.page
    wizard.submit(**{"commerce.assigned": 4, "commerce.adjustment": 0, "quirk.0": "roll"})
    assert wizard.step == "equipment", wizard.page
    assert len(wizard.draft["commerce"]["quirks"]) == 1
    events = client.get(f"/api/tables/{table_id}/events").json()["events"]
    logged = [e for e in events if e["kind"] == "cogent.character.new.quirk"]
    assert [e["result"]["name"] for e in logged] == wizard.draft["commerce"]["quirks"]


def _imported(client: TestClient) -> tuple[str, str, str]:
    """A table with Sir Terrik imported: its id, his id, and his sheet's YAML text."""
    table_id = _start(client)
    text = (EXAMPLES / "core_sir_terrik.yaml").read_text(encoding="utf-8")
    client.post(f"/t/{table_id}/characters", data={"text": text}, headers=HTMX)
    found = re.search(r"/c/([0-9a-f]+)", client.get(f"/t/{table_id}/characters").text)
    assert found is not None
    return table_id, found.group(1), text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_editor_checks_every_rule_live_beside_each_field(client: TestClient) -> None:
    """The editor's text asks ``cogent.character.validate`` as it changes: a legal sheet says
    so; too many attribute points and Overconfident in no real skill are each shown under
    their field with the line where the field is; nothing is saved by checking."""
    table_id, character, text = _imported(client)
    page = client.get(f"/t/{table_id}/c/{character}").text
    assert f'hx-post="/t/{table_id}/c/{character}/check"' in page and "delay:500ms" in page
    check = f"/t/{table_id}/c/{character}/check"
    assert (
        "Every creation and progression rule holds"
        in client.post(check, data={"text": text}, headers=HTMX).text
    )
    data = yaml.safe_load(text)
    data["attributes"] = {name: 5 for name in data["attributes"]}
    data["disabling_characteristics"] = [{"name": "Overconfident", "skill": "Basketweaving"}]
    edited = yaml.safe_dump(data, sort_keys=False)
    lines = edited.splitlines()
    shown = client.post(check, data={"text": edited}, headers=HTMX).text
    groups = dict(re.findall(r'data-field="([^"]*)">(.*?)</li>\s*</ul>', shown, re.S))
    attributes_line = lines.index("attributes:") + 1
    assert "attribute point(s) over" in groups["attributes"]
    assert f'data-line="{attributes_line}"' in groups["attributes"]
    skill_line = next(n for n, line in enumerate(lines, 1) if "skill: Basketweaving" in line)
    where = "disabling_characteristics.0.skill"
    assert "&#39;Basketweaving&#39; is not a skill of this sheet" in groups[where]
    assert f'data-line="{skill_line}"' in groups[where]
    assert client.get(f"/api/tables/{table_id}/characters/{character}").json()["version"] == 1
    broken = client.post(check, data={"text": "attributes: [1"}, headers=HTMX).text
    assert 'role="alert"' in broken and "not YAML" in broken


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_tiered_quirks_and_finishing_touches_go_through_the_engine(client: TestClient) -> None:
    """000 > Equipment: a quirk of wealth is ticked (one at tier 2; two are refused beside the
    commerce field); 000 > Finishing Touches: destiny by tier, a disabling characteristic
    chosen from the table. A step left by "back" is shown again as it was filled."""
    wizard = Wizard(client, _start(client, "tiered"), "tiered")
    answers = _tiered_answers(2)
    for step in ("tier", "identity", "attributes", "vocations", "skills"):
        wizard.submit(**answers[step])
    assert wizard.step == "equipment"
    wizard.submit(**{"rows": 0, "commerce.quirks": ["Scrooge", "Patron"]})
    beside = wizard.page.split('id="problems-commerce"')[1].split("</div>")[0]
    assert wizard.step == "equipment" and "at most 1 at tier 2" in beside
    wizard.submit(**{"rows": 0, "commerce.quirks": ["Patron"]})
    assert wizard.step == "finishing" and wizard.draft["commerce"]["quirks"] == ["Patron"]
    wizard.submit("to:identity")
    assert wizard.step == "identity" and 'value="Wren"' in wizard.page
    for step in ("identity", "attributes", "vocations", "skills"):
        wizard.submit(**answers[step])
    wizard.submit(**{"rows": 0, "commerce.quirks": ["Patron"]})
    wizard.submit("take", **{"disabling.answer": "Heavy"})
    assert wizard.draft["disabling_characteristics"] == [{"name": "Heavy", "how": "chosen"}]
    assert wizard.draft["destiny"] == {"points": 1, "maximum": 3}
    assert "Review the character" in wizard.submit()
    done = wizard.submit("create")
    assert "is made and joined the table" in done, done


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_no_seat_no_wizard_and_a_lost_draft_is_said(client: TestClient) -> None:
    """Without a seat the wizard sends the browser to join and takes no step; a draft that is
    no sheet of an edition is refused in one line; the live check needs a seat too."""
    table_id = _start(client)
    lost = client.post(f"/t/{table_id}/wizard", data={"step": "identity", "draft": "{}"},
                       headers=HTMX)  # fmt: skip
    assert "the wizard lost its sheet" in lost.text and 'role="alert"' in lost.text
    client.cookies.clear()
    assert client.get(f"/t/{table_id}/wizard", follow_redirects=False).status_code == 303
    refused = client.post(f"/t/{table_id}/wizard", data={"step": "edition", "edition": "core"},
                          headers=HTMX)  # fmt: skip
    assert "Only a player or the narrator" in refused.text
    checked = client.post(f"/t/{table_id}/c/x/check", data={"text": "{}"}, headers=HTMX)
    assert "no seat" in checked.text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_vocations_pick_their_skills_from_lists(client: TestClient) -> None:
    """Core vocations: a vocational skill is a row (its name, its attribute from the
    edition's attributes, its points) and a combat skill is picked from the weapon categories
    of 002 > Combat Skills; no NAME:ATTRIBUTE=POINTS typing. Tiered: specialisations the same."""
    wizard = Wizard(client, _start(client), "core")
    for step in ("mode", "identity", "attributes", "disabling", "skills"):
        wizard.submit(**_core_answers("fast_play")[step])
    page = wizard.page
    assert wizard.step == "vocations" and "NAME:ATTRIBUTE=POINTS" not in page
    combat = re.search(r'<select id="w-voc-0-combat_skills-0-name".*?</select>', page, re.S)
    assert combat is not None and "Long Stringed" in combat.group(0)
    attribute = re.search(r'<select id="w-voc-0-vocational_skills-0-attr".*?</select>', page, re.S)
    options = re.findall(r"<option[^>]*>(\w+)</option>", attribute.group(0)) if attribute else []
    assert options == ["STR", "RFL", "INT"]
    wizard.submit("check", **{**_core_answers("fast_play")["vocations"],
                              "vocations.0.combat_skills.rows": 1,
                              "vocations.0.combat_skills.0.name": "Long Stringed",
                              "vocations.0.combat_skills.0.points": 1})  # fmt: skip
    vocation = wizard.draft["vocations"][0]
    assert vocation["vocational_skills"] == [{"name": "Tracking", "attribute": "INT", "points": 1}]
    assert vocation["combat_skills"] == [{"name": "Long Stringed", "points": 1}]
    assert 'name="vocations.0.vocational_skills.1.name"' in wizard.page  # a blank row to add one
    tiered = Wizard(client, _start(client, "tiered"), "tiered")
    for step in ("tier", "identity", "attributes"):
        tiered.submit(**_tiered_answers(2)[step])
    assert 'name="vocations.0.specialisations.0.attribute"' in tiered.page
    assert "CHA</option>" in tiered.page


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_review_shows_the_whole_sheet_and_its_problems_before_it_is_made(
    client: TestClient,
) -> None:
    """After the last step the sheet is shown whole as it will be made, and nothing is saved;
    a draft broken since its step (a third attribute point) shows the problem, offers no
    Create, and a Create sent anyway makes nothing."""
    table_id = _start(client)
    wizard = Wizard(client, table_id, "core")
    answers = _core_answers("fast_play")
    for fields in answers.values():
        wizard.submit(**fields)
    page = wizard.page
    assert wizard.step == "review" and "Tracking (INT) 1" in page and "Spear (Large Weapon)" in page
    assert "Stealth" in page and "3 of 3" in page
    assert "/c/" not in client.get(f"/t/{table_id}/characters").text
    broken = {**wizard.draft, "attributes": {"STR": 2, "RFL": 1, "INT": 0}}
    shown = wizard.post({"step": "review", "draft": json.dumps(broken), "base": "{}",
                         "go": "next"})  # fmt: skip
    assert "not yet a legal new character" in shown and "attribute point(s) over" in shown
    assert "Create the character" not in shown
    refused = wizard.post({"step": "review", "draft": json.dumps(broken), "base": "{}",
                           "go": "create"})  # fmt: skip
    assert "not yet a legal new character" in refused and "is made" not in refused
    assert "/c/" not in client.get(f"/t/{table_id}/characters").text
