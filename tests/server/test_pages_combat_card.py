"""A fight on the table page (issue 24, point 5): a card saying whose turn it is and what this
seat must do next, with a link in, fighters by their names, as the seat may see the fight
(server/combat_views.py); the tracker's fight log as the table's log shows it (the dice, the
winning ones marked) and a round that made no victory said to be a stalemate."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from tests.server.test_pages_combat import HTMX, _start, _step, _table, _view

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _card(client: TestClient, table_id: str) -> str:
    """The table page's fight card, as text."""
    text = html.unescape(client.get(f"/t/{table_id}").text)
    found = re.search(r'<div id="combat-card".*?</section>', text, re.S)
    assert found is not None, "no fight card on the table page"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found[0]))


@SQLITE
def test_the_table_page_shows_the_fight_whose_turn_and_what_to_do(client: TestClient) -> None:
    """The goblin declares first (faces 1 against Sir Terrik's 6 settle the RFL tie): the
    narrator is told to declare for Goblin; Mara, whose Sir Terrik waits, that he declares
    next. Once the goblin has declared, it is Mara's turn to declare for Sir Terrik. Before
    any fight the card is not there; the card links to the tracker."""
    table_id, mara = _table(client, physical_dice="true")
    assert 'id="combat-card-title"' not in client.get(f"/t/{table_id}").text
    assert _start(client, table_id, faces="6,1").startswith("Ambush has started")
    narrator = _card(client, table_id)
    assert "A fight: Ambush, round 1" in narrator
    assert "To declare: Goblin (then Sir Terrik)" in narrator
    assert "Your turn: declare what Goblin does." in narrator
    assert "goblin" not in narrator.replace("Goblin", "")  # names, never ids
    player = _card(mara, table_id)
    assert "Nothing for you to do yet: Goblin declares first." in player
    assert f'href="/t/{table_id}/combat"' in mara.get(f"/t/{table_id}/combat/card").text
    _step(client, table_id, "declare", actor="goblin", action="attack", target="sir-terrik")
    assert "Your turn: declare what Sir Terrik does." in _card(mara, table_id)
    refreshed = html.unescape(mara.get(f"/t/{table_id}/combat/card").text)
    assert "To declare: <strong>Sir Terrik</strong>" in refreshed


@SQLITE
def test_the_card_shows_a_player_the_fight_as_of_its_last_public_step(client: TestClient) -> None:
    """The narrator's secret declaration for the goblin moves the narrator's card on (Sir
    Terrik to declare) while Mara's still shows the goblin to declare, with one secret step."""
    table_id, mara = _table(client, physical_dice="true")
    _start(client, table_id, faces="6,1")
    step = {
        "action": "cogent.combat.declare",
        "args": {"encounter": _key(client, table_id), "actor": "goblin", "action": "defend"},
        "visibility": "narrator",
    }
    done = client.post(f"/api/tables/{table_id}/actions", json=step, headers=HTMX)
    assert done.status_code == 201, done.text
    assert "To declare: Sir Terrik" in _card(client, table_id)
    player = _card(mara, table_id)
    assert "To declare: Goblin" in player and "1 step taken secretly since" in player


def _key(client: TestClient, table_id: str) -> str:
    events = client.get(f"/api/tables/{table_id}/events", headers=HTMX).json()["events"]
    started = [e for e in events if e["kind"] == "cogent.combat.start"][-1]
    return str(started["args"]["encounter"])


@SQLITE
def test_the_fight_log_shows_dice_marked_and_a_stalemate(client: TestClient) -> None:
    """Both fighters defend: the round is rolled and no one wins a victory level, so the
    tracker's log (and the table's) says it was a stalemate and round 2 begins; the rolls show
    each fighter's dice by name, the winning faces (4 and up) marked."""
    table_id, mara = _table(client, physical_dice="true")
    _start(client, table_id, faces="6,1")
    _step(client, table_id, "declare", actor="goblin", action="defend")
    _step(mara, table_id, "declare", actor="sir-terrik", action="defend")
    assert _step(client, table_id, "resolve").startswith("The round is rolled:")
    tracker = _view(mara, table_id)
    log = tracker.split('id="fight-log"')[1]
    assert "No one won a victory level this round: a stalemate." in log
    assert "rolled the fight's round (Ambush, round 1)" in log
    assert "round 2, declaration" in tracker
    assert "round 2: declaration order Goblin, Sir Terrik" in log  # the engine's words, by name
    for name in ("Sir Terrik", "Goblin"):
        dice = re.search(rf'aria-label="dice of {name}">(.*?)</ul>', log, re.S)
        assert dice is not None, name
        faces = re.findall(r'<li class="die( won)?" aria-label="(\d)(, won)?">', dice[1])
        assert faces and all((mark == " won") == (int(face) >= 4) for mark, face, _ in faces)
    table_log = html.unescape(client.get(f"/t/{table_id}").text)
    assert "No one won a victory level this round: a stalemate." in table_log
