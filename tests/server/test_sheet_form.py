"""A sheet edited as a form at the table: a valid save, an invalid field named beside it with
nothing saved, rows added and removed from the rules tables' lists, the live check, and a
stale save's conflict view showing only the differing fields, resolved field by field."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import SAME_ORIGIN
from tests.server.sheet_forms import form_fields
from tests.server.test_wizard import EXAMPLES, HTMX, _imported, _start

pytestmark = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _sheet(client: TestClient, table_id: str, character: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/tables/{table_id}/characters/{character}").json()
    return found


def _form(client: TestClient, table_id: str, character: str) -> dict[str, str]:
    return form_fields(client.get(f"/t/{table_id}/c/{character}").text)


def _post(client: TestClient, table_id: str, character: str, fields: dict[str, str],
          path: str = "form") -> str:  # fmt: skip
    answer = client.post(f"/t/{table_id}/c/{character}/{path}", data=fields, headers=HTMX)
    assert answer.status_code == 200, answer.text
    return answer.text


def _skill_row(fields: dict[str, str], name: str) -> str:
    rows = (key for key, value in fields.items() if key.startswith("skills.") and value == name)
    return next(rows)[: -len(".name")]


def test_the_form_shows_every_part_of_the_sheet_with_lists_from_the_rules(
    client: TestClient,
) -> None:
    """Sir Terrik's form: his identity, attributes, each skill as a row whose name is picked
    from the core skills, his vocation with its combat skill picked from the weapon
    categories, destiny, commerce and equipment (weapon groups and armour from their tables);
    -/+ buttons name the number they change; YAML stays (download and paste)."""
    table_id, character, _text = _imported(client)
    page = client.get(f"/t/{table_id}/c/{character}").text
    fields = form_fields(page)
    assert fields["identity.name"] == "Sir Terrik" and fields["attributes.STR"] == "1"
    assert fields[f"{_skill_row(fields, 'Athletics')}.points"] == "2"
    assert fields["vocations.0.name"] == "Knight"
    assert fields["vocations.0.combat_skills.0.name"] == "Medium Weapons"
    assert fields["destiny.points"] == "3" and fields["commerce.assigned"] == "3"
    assert fields["equipment.weapons.0.group"] == "Medium Weapon"
    assert fields["equipment.armour.0"] == "Full Chainmail"
    skills = re.search(r'<select id="f-skills-0-name".*?</select>', page, re.S)
    assert skills is not None and "Sleight of Hand" in skills.group(0)  # the core skill table
    combat = re.search(r'<select id="f-vocations-0-combat_skills-0-name".*?</select>', page, re.S)
    assert combat is not None and "Heavy Ballistic" in combat.group(0)
    assert 'aria-label="STR: one more"' in page and 'aria-label="STR: one less"' in page
    assert f'href="/t/{table_id}/c/{character}.yaml"' in page and 'name="text"' in page


def test_a_valid_form_is_saved_as_the_next_version(client: TestClient) -> None:
    """One more point of Athletics and one less of Endurance: version 2 holds both, and every
    field the form does not show (his disabling characteristics, his history) is kept."""
    table_id, character, _text = _imported(client)
    fields = _form(client, table_id, character)
    fields[f"{_skill_row(fields, 'Athletics')}.points"] = "3"
    fields[f"{_skill_row(fields, 'Endurance')}.points"] = "1"
    saved = _post(client, table_id, character, fields)
    assert "Saved: version 2." in saved, saved
    sheet = _sheet(client, table_id, character)
    assert sheet["version"] == 2
    assert sheet["sheet"]["skills"]["Athletics"] == 3 and sheet["sheet"]["skills"]["Endurance"] == 1
    assert sheet["sheet"]["identity"]["beliefs"] == "An oath given is a debt owed."


def test_an_invalid_field_is_named_beside_it_and_nothing_is_saved(client: TestClient) -> None:
    """STR 4 breaks the attribute points: the problem is shown in the attributes' slot, the
    form keeps the 4; a word in a number field names that field; version 1 stays."""
    table_id, character, _text = _imported(client)
    fields = _form(client, table_id, character)
    refused = _post(client, table_id, character, {**fields, "attributes.STR": "4"})
    slot = refused.split('id="fp-attributes"')[1].split("</div>")[0]
    assert "attribute point(s) over" in slot and "Not saved" in refused
    assert form_fields(refused)["attributes.STR"] == "4"
    worded = _post(client, table_id, character, {**fields, "destiny.points": "three"})
    assert "destiny.points" in worded and "not a whole number" in worded
    assert _sheet(client, table_id, character)["version"] == 1


def test_rows_are_added_and_removed_and_the_live_check_counts_the_budget(
    client: TestClient,
) -> None:
    """Add a skill (the first core skill he lacks), remove one, add a vocation: nothing is
    saved until Save; the live check shows the skill points left and each problem's slot."""
    table_id, character, _text = _imported(client)
    fields = _form(client, table_id, character)
    added = _post(client, table_id, character, {**fields, "op": "add:skills"})
    grown = form_fields(added)
    assert grown["skills.rows"] == str(int(fields["skills.rows"]) + 1)
    assert grown[f"skills.{fields['skills.rows']}.name"] == "Grip"  # the first he lacks
    removed = form_fields(_post(client, table_id, character, {**grown, "op": "remove:skills.0"}))
    assert "Athletics" not in [v for k, v in removed.items() if k.endswith(".name")]
    voc = form_fields(_post(client, table_id, character, {**removed, "op": "add:vocations"}))
    assert voc["vocations.rows"] == "2" and voc["vocations.1.name"] == ""
    assert _sheet(client, table_id, character)["version"] == 1
    check = _post(client, table_id, character, {**fields, "attributes.STR": "4"}, "form/check")
    assert "Skill points left: 0 of" in check
    slot = check.split('id="fp-attributes" class="problems" data-field="attributes" hx-swap-oob')[1]
    assert "attribute point(s) over" in slot.split("</div>")[0]
    legal = _post(client, table_id, character, fields, "form/check")
    assert "Every creation and progression rule holds" in legal


def _conflict(client: TestClient) -> tuple[str, str, str, dict[str, str]]:
    """Two edits of Sir Terrik from version 1: the first (beliefs, Athletics) is saved; the
    second (disposition, Athletics, STR... as typed) is refused as stale."""
    table_id, character, _text = _imported(client)
    fields = _form(client, table_id, character)
    first = {**fields, "identity.beliefs": "An oath given is a debt paid.",
             f"{_skill_row(fields, 'Athletics')}.points": "3",
             f"{_skill_row(fields, 'Endurance')}.points": "1"}  # fmt: skip
    assert "Saved: version 2." in _post(client, table_id, character, first)
    second = {**fields, "identity.disposition": "Courteous, proud",
              f"{_skill_row(fields, 'Athletics')}.points": "1",
              f"{_skill_row(fields, 'Endurance')}.points": "3"}  # fmt: skip
    return table_id, character, _post(client, table_id, character, second), fields


def test_a_stale_save_shows_only_the_fields_that_differ(client: TestClient) -> None:
    """The stale save writes nothing and lists exactly the four fields that differ, each with
    the saved value and the person's own."""
    table_id, character, shown, _fields = _conflict(client)
    assert "Someone saved this sheet while you were editing it" in shown
    keys = re.findall(r'<fieldset class="differs" data-field="([^"]*)"', shown)
    differing = [json.loads(html.unescape(key)) for key in keys]
    assert sorted(differing) == sorted([["identity", "disposition"], ["identity", "beliefs"],
                                        ["skills", "Athletics"], ["skills", "Endurance"]])
    assert "Courteous, proud" in shown and "a debt paid." in shown
    assert _sheet(client, table_id, character)["version"] == 2


def _checked(shown: str) -> dict[str, str]:
    """Each differing field's choice as the conflict view first shows it."""
    found = re.findall(r'name="take:([^"]*)" value="(theirs|mine)" checked', shown)
    return {json.loads(html.unescape(key))[-1]: side for key, side in found}


def test_a_field_only_the_other_save_changed_keeps_their_value_unless_chosen(
    client: TestClient,
) -> None:
    """The second edit never touched the beliefs: the view offers the saved beliefs first
    (saying only the other save changed them), the person's own disposition first; saved as
    offered, nothing of the first save is lost."""
    table_id, character, shown, _fields = _conflict(client)
    assert _checked(shown)["beliefs"] == "theirs"
    assert _checked(shown)["disposition"] == "mine"
    assert "Only the other save changed it" in shown
    choices = form_fields(shown, "sheet-conflict")
    assert "Saved: version 3." in _post(client, table_id, character, choices, "resolve")
    sheet = _sheet(client, table_id, character)["sheet"]
    assert sheet["identity"]["beliefs"] == "An oath given is a debt paid."
    assert sheet["identity"]["disposition"] == "Courteous, proud"


def test_taking_mine_and_theirs_field_by_field_saves_against_the_new_version(
    client: TestClient,
) -> None:
    """Theirs for the beliefs and the skills, mine for the disposition: version 3 holds that
    mix; a resolution sent against a version that moved again shows the conflict anew."""
    table_id, character, shown, _fields = _conflict(client)
    choices = form_fields(shown, "sheet-conflict")
    assert choices["version"] == "2"
    for key in list(choices):
        if key.startswith("take:"):
            choices[key] = "mine" if "disposition" in key else "theirs"
    saved = _post(client, table_id, character, choices, "resolve")
    assert "Saved: version 3." in saved, saved
    sheet = _sheet(client, table_id, character)["sheet"]
    assert sheet["identity"]["disposition"] == "Courteous, proud"
    assert sheet["identity"]["beliefs"] == "An oath given is a debt paid."
    assert (sheet["skills"]["Athletics"], sheet["skills"]["Endurance"]) == (3, 1)
    again = _post(client, table_id, character, choices, "resolve")  # version 2 is stale now
    assert "Someone saved this sheet" in again and _sheet(client, table_id, character)[
        "version"] == 3  # fmt: skip


def test_a_boons_sheet_gets_a_field_for_each_plain_value(client: TestClient) -> None:
    """A boons table keeps a sheet as given: the form shows its plain values (a number stays a
    number when saved) and says there are no creation rules to check."""
    made = client.post("/start", data={"name": "Banes", "system": "boons"}, headers=SAME_ORIGIN)
    table_id = re.search(r'href="/t/([0-9a-f]+)"', made.text).group(1)  # type: ignore[union-attr]
    text = "name: Ash\nskills:\n  Climb: 2\nnotes: [a, b]\n"
    client.post(f"/t/{table_id}/characters", data={"text": text}, headers=HTMX)
    character = re.search(r"/c/([0-9a-f]+)", client.get(f"/t/{table_id}/characters").text).group(1)  # type: ignore[union-attr]
    fields = _form(client, table_id, character)
    assert fields['["skills", "Climb"]'] == "2" and fields['["name"]'] == "Ash"
    saved = _post(client, table_id, character, {**fields, '["skills", "Climb"]': "3"})
    assert "Saved: version 2." in saved
    sheet = _sheet(client, table_id, character)["sheet"]
    assert sheet == {"name": "Ash", "skills": {"Climb": 3}, "notes": ["a", "b"]}
    check = _post(client, table_id, character, fields, "form/check")
    assert "no creation rules to check" in check



@pytest.mark.parametrize("example", ["core_sir_terrik", "core_brother_ansel",
                                     "tiered_erin_the_mage", "tiered_rick_the_ranger"])  # fmt: skip
def test_a_sheet_saved_unchanged_from_the_form_is_the_same_sheet(
    client: TestClient, example: str
) -> None:
    """The form reads back exactly the sheet it was drawn from (what it does not show kept,
    no empty field or default added, Erin's unwritten tier left unwritten), so an unchanged
    save differs from nothing."""
    edition = example.split("_")[0]
    table_id = _start(client, edition)
    text = (EXAMPLES / f"{example}.yaml").read_text(encoding="utf-8")
    if example == "tiered_erin_the_mage":  # no tier written: the sheet's default (2) holds
        text = text.replace("tier: 2\n", "")
    client.post(f"/t/{table_id}/characters", data={"text": text}, headers=HTMX)
    character = re.search(r"/c/([0-9a-f]+)", client.get(f"/t/{table_id}/characters").text)
    assert character is not None
    before = _sheet(client, table_id, character.group(1))["sheet"]
    fields = _form(client, table_id, character.group(1))
    assert "Saved: version 2." in _post(client, table_id, character.group(1), fields)
    assert _sheet(client, table_id, character.group(1))["sheet"] == before


def test_another_players_save_is_refused_and_nothing_is_saved(client: TestClient) -> None:
    """The ownership rules hold on the form (``permissions``): Sir Terrik is the narrator's
    import; his sheet's page shows a player who does not own him no form (read only), and a
    form posted all the same (drawn by the editor's own route) is refused with why; version 1
    stays."""
    table_id, character, _text = _imported(client)
    code = client.post(f"/t/{table_id}/join-code", headers=HTMX)
    found = re.search(r'value="[^"]*?code=([^"&]+)', code.text) or re.search(
        r'name="code"[^>]*value="([^"]+)"', code.text)  # fmt: skip
    assert found is not None, code.text
    joined = client.post(f"/api/tables/{table_id}/join",
                         json={"code": html.unescape(found.group(1)), "name": "Bram",
                               "role": "player"})  # fmt: skip
    assert joined.status_code == 201, joined.text
    with TestClient(client.app) as bram:
        bram.get(f"/t/{table_id}/enter?token={joined.json()['token']}")
        shown = bram.get(f"/t/{table_id}/c/{character}").text
        assert "Save the sheet" not in shown and "the narrator's character" in shown
        fields = form_fields(bram.get(f"/t/{table_id}/c/{character}/editor").text)
        refused = _post(bram, table_id, character, {**fields, "identity.goals": "Mine now"})
    assert "Not saved" in refused and "edit its sheet" in refused
    assert _sheet(client, table_id, character)["version"] == 1


def test_the_sheet_reads_in_words(client: TestClient) -> None:
    """The read view's identity starts with the name, its labels capitalised; the form's mode
    of play reads "fast play" while it still sends the sheet's own value."""
    table_id, character, _text = _imported(client)
    page = client.get(f"/t/{table_id}/c/{character}").text
    who = page.split('id="who-title"')[1].split("</table>")[0]
    rows = re.findall(r'<th scope="row">([^<]+)</th>', who)
    assert rows[:2] == ["Name", "Concept"] and all(row[0].isupper() for row in rows)
    assert '<option value="fast_play" selected>fast play</option>' in page
