"""A fight ends at a live table and the sheets remember (issue 34 point 5): the narrator's
button on the fight card ends it, each character's injuries go onto its sheet as a new version
(its owner's page reads it), the next check's pool and its odds take the injury's dice with a
note saying why; a player may not end a fight, rest a character or treat with another's; a
fight left without an ending is listed on the narrator's card until it is ended."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.audit import verify_table
from tests.server.conftest import SAME_ORIGIN

HTMX = {"HX-Request": "true"}
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def _said(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(response.text))).strip()


def _table(client: TestClient) -> tuple[str, TestClient, str]:
    """A core table with physical dice whose player, Ann, brought Mara (002's thief)."""
    data = {"name": "Keep", "system": "cogent", "edition": "core", "physical_dice": "true"}
    made = client.post("/start", data=data, headers=SAME_ORIGIN)
    found = re.search(r"/join/([0-9a-f]+)\?code=([^\"&<]+)", made.text)
    assert found is not None
    table_id, code = found.group(1), html.unescape(found.group(2))
    player = TestClient(client.app)
    joined = player.post(
        f"/join/{table_id}", data={"code": code, "name": "Ann", "role": "player"},
        headers=SAME_ORIGIN,
    )  # fmt: skip
    assert joined.status_code in (200, 303), joined.text
    sheet = (EXAMPLES / "core_mara_the_thief.yaml").read_text()
    player.post(f"/t/{table_id}/characters", data={"text": sheet}, headers=HTMX)
    listed = re.search(r'name="side-([0-9a-f]+)"', client.get(f"/t/{table_id}/combat").text)
    assert listed is not None
    return table_id, player, listed.group(1)


def _start(client: TestClient, table_id: str, mara: str, name: str = "Ambush") -> str:
    form = {"name": name, f"side-{mara}": "a", "creature-1": "goblin", "creature-side-1": "b"}
    return _said(client.post(f"/t/{table_id}/combat/start", data=form, headers=HTMX))


def _step(client: TestClient, table_id: str, step: str, **form: str) -> str:
    return _said(client.post(f"/t/{table_id}/combat/{step}", data=form, headers=HTMX))


def _goblin_wins_level_2(client: TestClient, player: TestClient, table_id: str) -> None:
    """The goblin (lower RFL) declares, then Mara; Mara's dice all ones, the goblin's two sixes:
    the goblin's level 2 victory, a medium injury chosen, Mara's leather armour (1) makes it
    minor (002 > Armour)."""
    assert _step(client, table_id, "declare", actor="goblin", action="attack", target="mara")
    assert _step(player, table_id, "declare", actor="mara", action="attack", target="goblin")
    view = html.unescape(client.get(f"/t/{table_id}/combat/view").text)
    reading = re.search(r"Mara (\d+)D6 \(faces 1-\d+\), Goblin (\d+)D6", view)
    assert reading is not None
    faces = ["1"] * int(reading.group(1)) + ["6", "6"] + ["1"] * (int(reading.group(2)) - 2)
    assert _step(client, table_id, "resolve", faces=",".join(faces)).startswith("The round is")
    chosen = _step(client, table_id, "choose", victory="1", outcome="medium injury")
    assert chosen.startswith("The outcome is chosen"), chosen


def _sheet(client: TestClient, table_id: str, mara: str) -> str:
    return _said(client.get(f"/t/{table_id}/c/{mara}/read"))


@SQLITE
def test_the_issues_fight_ends_from_the_card_onto_maras_sheet_and_her_stealth(
    client: TestClient,
) -> None:
    """Issue 34.5: before the end her sheet says "Injuries none" and Stealth is 5D6; the
    narrator's card offers the end (with a confirmation), Ann's does not and is refused; the
    end writes the minor injury on Mara's sheet (Ann's page reads it), and her Stealth odds
    are 4D6 (11/16 at CL 2), the injuries' die named with 002 > Victory Levels."""
    table_id, player, mara = _table(client)
    assert _start(client, table_id, mara).startswith("Ambush has started")
    _goblin_wins_level_2(client, player, table_id)
    assert "Injuries none" in _sheet(player, table_id, mara)
    card = client.get(f"/t/{table_id}/combat/card").text
    assert 'id="combat-end-form"' in card and 'hx-confirm="End Ambush?' in card
    assert 'id="combat-end-form"' not in player.get(f"/t/{table_id}/combat/card").text
    refused = _step(player, table_id, "end")
    assert "only the narrator may end a fight" in refused
    assert "Injuries none" in _sheet(player, table_id, mara)
    ended = _step(client, table_id, "end")
    assert ended.startswith("The fight has ended, its injuries written on the sheets"), ended
    sheet = _sheet(player, table_id, mara)
    assert "Injuries minor injury (-1D6 to physical checks; round 1, minor injury)" in sheet, (
        sheet[sheet.find("Injuries") :][:200]
    )
    asked = {"mode": "character", "character": mara, "skill": "Stealth", "cl": "2"}
    odds = _said(player.get(f"/t/{table_id}/odds", params=asked))
    assert "68.75 %" in odds and "exactly 11/16; 4D6" in odds and "injuries -1D6" in odds
    why = "injuries take 1D6 from this physical check: minor injury (002 > Combat > Victory"
    assert why in odds
    card = _said(client.get(f"/t/{table_id}/combat/card"))
    assert "Ambush has ended; its injuries are on the sheets." in card
    again = _step(client, table_id, "declare", actor="goblin", action="defend")
    assert "There is no fight" in again or "has ended" in again
    log = _said(client.get(f"/t/{table_id}"))
    assert "ended the fight" in log


@SQLITE
def test_the_api_ends_a_fight_the_narrator_rests_and_a_player_treats(client: TestClient) -> None:
    """Through the API: a player's end is 403 naming the action; the narrator's writes a new
    version of Mara's sheet (its save in the log); the next check rolls 4D6 with the note;
    a player's rest is 403 and the narrator's heals the treated minor injury in a day; a
    player treats her own character."""
    table_id, player, mara = _table(client)
    _start(client, table_id, mara)
    _goblin_wins_level_2(client, player, table_id)
    events = client.get(f"/api/tables/{table_id}/events", headers=HTMX).json()["events"]
    key = next(e["args"]["encounter"] for e in events if e["kind"] == "cogent.combat.start")
    act = f"/api/tables/{table_id}/actions"
    end = {"action": "cogent.combat.end", "args": {"encounter": key}}
    refused = player.post(act, json=end, headers=SAME_ORIGIN)
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "action"
    done = client.post(act, json=end, headers=SAME_ORIGIN)
    assert done.status_code == 201, done.text
    saves = {save["kind"]: save for save in done.json()["saves"]}
    assert saves["encounter"]["data"]["ended"] is True
    assert (saves["character"]["key"], saves["character"]["version"]) == (mara, 2)
    assert saves["character"]["data"]["injuries"] == [
        {"level": 1, "description": "round 1, minor injury"}]  # fmt: skip
    check = {"action": "cogent.check", "args": {"character": mara, "skill": "Stealth", "cl": 2,
                                                "faces": [6, 5, 1, 2]}}  # fmt: skip
    rolled = player.post(act, json=check, headers=SAME_ORIGIN).json()["result"]
    assert rolled["pool"] == 4 and "cogent.check.injuries" in [
        line["kind"] for line in rolled["rules_applied"]]  # fmt: skip
    rest = {"action": "cogent.character.rest", "args": {"character": mara, "days": 1}}
    refused = player.post(act, json=rest, headers=SAME_ORIGIN)
    assert refused.status_code == 403 and "how many days a character rests" in refused.text
    treat = {"action": "cogent.character.treat",
             "args": {"character": mara, "faces": [6, 1, 1, 1, 1]}}  # fmt: skip
    treated = player.post(act, json=treat, headers=SAME_ORIGIN)
    assert treated.status_code == 201 and treated.json()["result"]["treated"] is True
    rested = client.post(act, json=rest, headers=SAME_ORIGIN)
    assert rested.status_code == 201 and rested.json()["result"]["injuries"] == []
    # the end, the treatment and the rest replay in the table's export, saves and all
    closed = client.post(f"/api/tables/{table_id}/scenes", headers=SAME_ORIGIN)
    assert closed.status_code == 201, closed.text
    exported = client.get(f"/api/tables/{table_id}/export")
    assert exported.status_code == 200, exported.text
    assert verify_table(exported.json()).ok


@SQLITE
def test_a_fight_left_without_an_ending_is_listed_for_the_narrator(client: TestClient) -> None:
    """A second fight started while the first was not ended: the narrator's card lists the
    first (Ann's does not) with its own button; ending it takes it off the list."""
    table_id, player, mara = _table(client)
    _start(client, table_id, mara, name="First skirmish")
    _start(client, table_id, mara, name="Second skirmish")
    card = client.get(f"/t/{table_id}/combat/card").text
    listed = re.search(r'name="encounter" value="(fight-[0-9a-f]{8})"', card)
    assert "Fights left without an ending" in card and listed is not None
    assert "First skirmish, round 1" in _said(client.get(f"/t/{table_id}")).replace("  ", " ")
    assert "Fights left without an ending" not in player.get(f"/t/{table_id}/combat/card").text
    ended = _step(client, table_id, "end", encounter=listed.group(1))
    assert ended.startswith("The fight has ended"), ended
    assert "Fights left without an ending" not in client.get(f"/t/{table_id}/combat/card").text
    assert "A fight: Second skirmish" in _said(client.get(f"/t/{table_id}/combat/card"))
