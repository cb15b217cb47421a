"""The combat tracker's pages: a fight started from the table's characters and the bestiary,
declared in RFL order by whoever acts for each fighter (the server says who), resolved with
entered dice where the table allows them, its outcomes chosen by the winner's seat; refusals
come back as messages and change nothing."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.store.sql import SqlStore
from tests.server.conftest import SAME_ORIGIN

HTMX = {"HX-Request": "true"}
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def _said(response: object) -> str:
    return re.sub(r"<[^>]+>", "", html.unescape(response.text)).strip()  # type: ignore[attr-defined]


def _table(client: TestClient, **form: str) -> tuple[str, TestClient]:
    """A core table whose player (Mara) brought Sir Terrik; the narrator is ``client``."""
    data = {"name": "Keep", "system": "cogent", "edition": "core", **form}
    made = client.post("/start", data=data, headers=SAME_ORIGIN)
    found = re.search(r"/join/([0-9a-f]+)\?code=([^\"&<]+)", made.text)
    assert found is not None
    table_id, code = found.group(1), html.unescape(found.group(2))
    player = TestClient(client.app)
    joined = player.post(
        f"/join/{table_id}",
        data={"code": code, "name": "Mara", "role": "player"},
        headers=SAME_ORIGIN,
    )
    assert joined.status_code in (200, 303), joined.text
    sheet = (EXAMPLES / "core_sir_terrik.yaml").read_text()
    assert (
        "joined the table"
        in player.post(f"/t/{table_id}/characters", data={"text": sheet}, headers=HTMX).text
    )
    return table_id, player


def _start(client: TestClient, table_id: str, faces: str = "") -> str:
    character = re.search(r'name="side-([0-9a-f]+)"', client.get(f"/t/{table_id}/combat").text)
    assert character is not None
    form = {"name": "Ambush", f"side-{character.group(1)}": "a", "creature-1": "goblin"}
    form.update({"creature-count-1": "1", "creature-side-1": "b", "faces": faces})
    return _said(client.post(f"/t/{table_id}/combat/start", data=form, headers=HTMX))


def _view(client: TestClient, table_id: str) -> str:
    return html.unescape(client.get(f"/t/{table_id}/combat/view").text)


def _step(client: TestClient, table_id: str, step: str, **form: str) -> str:
    return _said(client.post(f"/t/{table_id}/combat/{step}", data=form, headers=HTMX))


@SQLITE
def test_a_fight_is_started_declared_resolved_and_chosen_through_the_pages(
    client: TestClient,
) -> None:
    """Entered faces settle the RFL tie (goblin 1, Sir Terrik 6: the goblin declares first);
    Sir Terrik's sixes against the goblin's ones win; Mara chooses a medium injury (the goblin
    has no STR or armour to spend) and both trackers show it, round 2 now declaring."""
    table_id, player = _table(client, physical_dice="true")
    assert "Combat tracker" in client.get(f"/t/{table_id}").text
    assert "Ambush has started: 2 fighters" in _start(client, table_id, faces="6,1")
    seen = _view(player, table_id)
    assert "Sir Terrik" in seen and "side b" in seen and "STR left" in seen
    assert "To declare: Goblin" in re.sub(r"<[^>]+>", "", seen)
    assert 'id="declare-form"' not in seen  # the goblin is the narrator's
    assert 'id="declare-form"' in _view(client, table_id)
    declared = _step(
        client, table_id, "declare", actor="goblin", action="attack", target="sir-terrik"
    )
    assert declared.startswith("Declared:")
    seen = _view(player, table_id)
    assert 'value="sir-terrik"' in seen and "pool 5D6 = base +3" in seen
    mine = _step(player, table_id, "declare", actor="sir-terrik", action="attack", target="goblin")
    assert mine.startswith("Declared:")
    reading = re.search(
        r"Sir Terrik (\d+)D6 \(faces 1-\d+\), Goblin (\d+)D6", _view(player, table_id)
    )
    assert reading is not None
    faces = ",".join(["6"] * int(reading.group(1)) + ["1"] * int(reading.group(2)))
    assert _step(player, table_id, "resolve", faces=faces).startswith("The round is rolled:")
    seen = _view(player, table_id)
    victory = re.search(r"Victory #(\d+): Sir Terrik over Goblin, level (\d+)", seen)
    assert victory is not None and int(victory.group(2)) >= 2
    assert '<select id="destiny-fighter" name="fighter"><option value="sir-terrik">' in seen
    assert '<option value="medium injury">' in seen  # the engine's outcomes, to the winner's seat
    assert f'id="choose-{victory.group(1)}"' in _view(client, table_id)  # and the narrator's
    chosen = _step(player, table_id, "choose", victory=victory.group(1), outcome="medium injury")
    assert chosen.startswith("The outcome is chosen:"), chosen
    for seat in (client, player):
        shown = _view(seat, table_id)
        assert "round 2, declaration" in shown
        goblin = shown.split('id="fighter-goblin"')[1].split("</li>")[0]
        assert "level 2" in goblin
    log = html.unescape(player.get(f"/t/{table_id}").text)  # the shared log: each step's lines
    rolled = log.split("rolled the fight's round (Ambush, round 1)")[1].split("chose a victory")[0]
    assert 'aria-label="6, won"' in rolled and 'aria-label="1"' in rolled
    assert "Sir Terrik wins victory level" in rolled  # the fighters by name
    assert "medium injury on Goblin" in log and '"combatants"' not in log  # never the record


@SQLITE
def test_a_player_may_not_act_for_anothers_fighter_and_is_told_why(client: TestClient) -> None:
    """Mara declaring for the goblin, or starting a fight, is refused as a message; the fight
    is unchanged. Without physical dice, entered faces are refused too."""
    table_id, player = _table(client)
    started = _said(player.post(f"/t/{table_id}/combat/start", data={"name": "x"}, headers=HTMX))
    assert "only the narrator may start a fight" in started
    assert "Ambush has started" in _start(client, table_id)
    before = _view(client, table_id)
    answer = _step(
        player, table_id, "declare", actor="goblin", action="attack", target="sir-terrik"
    )
    assert "'goblin' is not your fighter: you act for sir-terrik" in answer
    assert _view(client, table_id) == before
    assert "no step 'nope'" in _step(client, table_id, "nope")
    faced = _step(client, table_id, "resolve", faces="6,6")
    assert "does not allow physical dice" in faced


@SQLITE
def test_a_table_without_a_fight_says_so(client: TestClient) -> None:
    """Before any fight, the tracker says the narrator starts one; the steps are refused."""
    table_id, player = _table(client)
    assert "The narrator starts a fight" in _view(player, table_id)
    assert "no fight at this table" in _step(player, table_id, "resolve")


@SQLITE
def test_the_api_refuses_a_seat_acting_for_a_fighter_not_its_own(
    client: TestClient, table: Any
) -> None:
    """Through the JSON API too: Mara may not start a fight (403), nor declare for the
    narrator's goblins, nor choose a victory that is not her fighter's; the narrator may."""
    url = f"/api/tables/{table.id}/actions"
    fighters = ["a:left:@goblin", "b:right:@goblin"]
    start = {"action": "cogent.combat.start", "args": {"encounter": "f", "fighters": fighters}}
    refused = client.post(url, json=start, headers=table.mara)
    assert refused.status_code == 403
    assert refused.json()["error"] == {
        "field": "action",
        "message": "only the narrator may start a fight",
    }
    assert client.post(url, json=start, headers=table.narrator).status_code == 201
    declare = {"action": "cogent.combat.declare", "args": {"encounter": "f", "actor": "a"}}
    declare["args"].update(action="attack", target="b")
    refused = client.post(url, json=declare, headers=table.bram)
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "args.actor"
    assert "you act for none" in refused.json()["error"]["message"]
    resolve = {"action": "cogent.combat.resolve", "args": {"encounter": "f"}}
    refused = client.post(url, json=resolve, headers=table.mara)
    assert refused.status_code == 403 and "no fighter in this encounter" in refused.text
    observer = client.post(url, json=declare, headers=table.observer)
    assert observer.status_code == 403


@SQLITE
def test_the_narrator_sets_and_ends_a_condition_and_a_player_may_not(client: TestClient) -> None:
    """Between rounds the narrator ties up the goblin (it no longer declares) and ends it; the
    player has no such form and is refused if she posts it."""
    table_id, player = _table(client)
    _start(client, table_id)
    assert 'id="condition-form"' in _view(client, table_id)
    assert 'id="condition-form"' not in _view(player, table_id)
    refused = _step(player, table_id, "condition", fighter="goblin", condition="prone")
    assert "only the narrator may set or end a condition in a fight" in refused
    tied = _step(client, table_id, "condition", fighter="goblin", condition="tied up")
    assert tied.startswith("The condition is applied:"), tied
    goblin = _view(player, table_id).split('id="fighter-goblin"')[1].split("</li>")[0]
    assert "tied up" in goblin and "out of the fight" in goblin
    ended = _step(
        client, table_id, "condition", fighter="goblin", condition="tied up", what="clear"
    )
    assert ended.startswith("The condition is applied:"), ended
    assert "out of the fight" not in _view(player, table_id)


@SQLITE
def test_a_declaration_may_carry_its_own_pool(client: TestClient) -> None:
    """An "other" action rolls the pool the narrator gives it (002 > Combat > Round Order)."""
    table_id, _player = _table(client, physical_dice="true")
    _start(client, table_id, faces="6,1")
    declared = _step(client, table_id, "declare", actor="goblin", action="other", pool="4")
    assert declared.startswith("Declared:"), declared
    goblin = _view(client, table_id).split('id="fighter-goblin"')[1].split("</li>")[0]
    assert "Declared: <strong>other</strong>" in goblin and "pool 4D6" in goblin


@SQLITE
def test_only_the_winners_seat_or_the_narrator_chooses_a_victory(client: TestClient) -> None:
    """The goblin's ones-free roll beats Sir Terrik's ones: Mara gets no outcome form and is
    refused if she posts one; the narrator chooses for the goblin."""
    table_id, player = _table(client, physical_dice="true")
    _start(client, table_id, faces="6,1")
    _step(client, table_id, "declare", actor="goblin", action="attack", target="sir-terrik")
    _step(player, table_id, "declare", actor="sir-terrik", action="attack", target="goblin")
    reading = re.search(
        r"Sir Terrik (\d+)D6 \(faces 1-\d+\), Goblin (\d+)D6", _view(player, table_id)
    )
    assert reading is not None
    faces = ",".join(["1"] * int(reading.group(1)) + ["6"] * int(reading.group(2)))
    assert _step(player, table_id, "resolve", faces=faces).startswith("The round is rolled:")
    seen = _view(player, table_id)
    victory = re.search(r"#(\d+) Goblin over Sir Terrik", re.sub(r"<[^>]+>", "", seen))
    assert victory is not None and 'id="choose-' not in seen
    refused = _step(player, table_id, "choose", victory=victory.group(1), outcome="stagger")
    assert f"victory #{victory.group(1)} is goblin's: its seat or the narrator chooses" in refused
    chosen = _step(client, table_id, "choose", victory=victory.group(1), outcome="stagger")
    assert chosen.startswith("The outcome is chosen:"), chosen
    assert "round 2, declaration" in _view(player, table_id)


@SQLITE
def test_a_new_npc_made_at_the_table_is_dropped_into_a_fight(client: TestClient) -> None:
    """The narrator's New NPC tool keeps a statblock at the table (002 > NPCs); the tracker's
    start form offers it beside the bestiary, and it fights with its own sheet."""
    table_id, _player = _table(client)
    made = client.post(
        f"/t/{table_id}/act",
        headers=HTMX,
        data={
            "action": "cogent.npc.new",
            "name": "Captain Vell",
            "tier": "elite",
            "vocation": "Town Guard",
            "weapon_skill": "Medium Weapons",
            "weapon": "Medium Weapon",
            "visibility": "public",
        },
    )
    assert _said(made).startswith("Rolled (#"), _said(made)
    page = client.get(f"/t/{table_id}/combat").text
    key = re.search(r'<option value="table:(npc-[0-9a-f]+)">Captain Vell</option>', page)
    assert key is not None, page[:2000]
    character = re.search(r'name="side-([0-9a-f]+)"', page)
    assert character is not None
    form = {
        "name": "Duel",
        f"side-{character.group(1)}": "a",
        "creature-1": f"table:{key.group(1)}",
        "creature-count-1": "1",
        "creature-side-1": "b",
    }
    client.post(f"/t/{table_id}/combat/start", data=form, headers=HTMX)
    view = _view(client, table_id)
    assert "Captain Vell" in view and "Sir Terrik" in view, view[:1500]


@SQLITE
def test_the_start_form_switches_a_fights_hardcore_rules(client: TestClient) -> None:
    """The start form offers each rule switch of ``combat start`` in its own words; a checked
    one holds for that fight (the tracker shows it and the encounter's rules carry it)."""
    table_id, _ = _table(client)
    page = html.unescape(client.get(f"/t/{table_id}/combat").text)
    assert "Hardcore armour, by pieces" in page
    assert '<option value="dire_wolf">dire wolf</option>' in page  # the bestiary in words
    assert 'name="hardcore_weapons"' in page and 'name="no_scale_clamp"' in page
    character = re.search(r'name="side-([0-9a-f]+)"', page)
    assert character is not None
    form = {"name": "Pit", f"side-{character.group(1)}": "a", "creature-1": "goblin",
            "creature-side-1": "b", "hardcore_weapons": "on"}  # fmt: skip
    started = _said(client.post(f"/t/{table_id}/combat/start", data=form, headers=HTMX))
    assert "Pit has started" in started, started
    with client.app.state.world.database.read() as connection:
        store = SqlStore(connection, table_id)
        [key] = store.keys("encounter")
        rules = store.read("encounter", key).data["rules"]
    assert (rules["hardcore_weapons"], rules["hardcore_armour"]) == (True, False)
