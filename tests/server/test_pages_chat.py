"""The table page's chat box (issue 24 point 1): a message sent from the page, a whisper shown
only on the pages of its sender, its seats and the narrator, inline rolls shown with their
dice and exact odds, a refused message kept in the box with the reason beside it."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from taletable.log_entry import read_entry
from taletable.server.pages.entries import Entry
from taletable.server.pages.present import present
from tests.server.conftest import Seats
from tests.server.test_characters import terrik

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
HTMX = {"HX-Request": "true"}
WHISPER = "the vicar lies about the well"


def _chat_box(client: TestClient, table: Seats) -> str:
    """The chat box of the table page as this client's seat sees it."""
    found = re.search(r'<form id="chat-form".*?</form>', client.get(f"/t/{table.id}").text, re.S)
    assert found is not None
    return found.group(0)


def _sit(client: TestClient, table: Seats, headers: dict[str, str]) -> None:
    """This client's cookie becomes the seat of ``headers``'s token."""
    client.cookies.clear()
    token = headers["Authorization"].removeprefix("Bearer ")
    entered = client.get(f"/t/{table.id}/enter?token={token}", follow_redirects=False)
    assert entered.status_code in (302, 303), entered.text


@SQLITE
def test_a_whisper_from_the_page_shows_only_to_its_seats(client: TestClient, table: Seats) -> None:
    """Mara whispers to Bram from the chat box with an inline roll: the box empties and keeps
    whom she whispers to; Bram's and the narrator's pages show the whisper, marked, with the
    roll's dice and chance; the observer's page holds no byte of it."""
    _sit(client, table, table.mara)
    page = client.get(f"/t/{table.id}")
    assert 'id="chat-form"' in page.text and f'value="{table.bram_seat}"' in page.text
    form = {"text": f"{WHISPER} [[2d6+1]]", "as": "", "to": [table.bram_seat]}
    sent = client.post(f"/t/{table.id}/chat", data=form, headers=HTMX)
    assert "Whispered" in sent.text and 'value=""' in sent.text
    assert re.search(rf'value="{table.bram_seat}" checked', sent.text)
    for who in (table.bram, table.narrator, table.mara):
        _sit(client, table, who)
        shown = client.get(f"/t/{table.id}").text
        assert WHISPER in shown and "whisper: private" in shown
        assert "Mara</span>" in shown and "whispered (out of character) to Bram" in shown
        assert "[[2d6+1]]" in shown and "chance of" in shown
    _sit(client, table, table.observer)
    watched = client.get(f"/t/{table.id}").text
    assert WHISPER not in watched and "chat-form" not in watched


@SQLITE
def test_a_refused_message_stays_in_the_box_with_its_reason(
    client: TestClient, table: Seats
) -> None:
    """A malformed inline roll: the box keeps the text and says why (naming the bad part);
    nothing reaches the log."""
    _sit(client, table, table.mara)
    before = client.get(f"/api/tables/{table.id}", headers=table.narrator).json()["head_seq"]
    refused = client.post(f"/t/{table.id}/chat", data={"text": "hit [[2d6+]]"}, headers=HTMX)
    assert 'role="alert"' in refused.text and "[[2d6+]]" in refused.text
    assert 'value="hit [[2d6+]]"' in refused.text
    after = client.get(f"/api/tables/{table.id}", headers=table.narrator).json()["head_seq"]
    assert after == before


@SQLITE
def test_a_player_speaks_as_only_its_own_characters(client: TestClient, table: Seats) -> None:
    """Mara's Sir Terrik is in Mara's "speak as" list, not in Bram's; as him, the log says
    "said, as Sir Terrik"."""
    made = client.post(
        f"/api/tables/{table.id}/characters", json={"sheet": terrik()}, headers=table.mara
    )
    character = made.json()["id"]
    _sit(client, table, table.bram)
    assert f'<option value="{character}"' not in _chat_box(client, table)
    _sit(client, table, table.mara)
    assert f'<option value="{character}">Sir Terrik' in _chat_box(client, table)
    form = {"text": "For the realm!", "as": character}
    assert "Said" in client.post(f"/t/{table.id}/chat", data=form, headers=HTMX).text
    assert "said, as Sir Terrik," in client.get(f"/t/{table.id}").text


def test_a_check_inline_marks_its_winning_dice() -> None:
    """A logged message with ``[[cogent 3 cl 1]]`` reads back into an entry whose inline roll
    marks the dice that won (4-6 at core) and gives the exact chance (7/8 = 87.50 %)."""
    from taletable.dice import GivenFaces
    from taletable.play import Table, perform

    played = perform(
        "chat.say", {"text": "go [[cogent 3 cl 1]]!"}, Table(dice=GivenFaces((2, 5, 6)))
    )
    event = {"seq": 9, "kind": "chat.say", "action": "chat.say", "actor": "s1",
             "visibility": "public", "result": played.result.to_data()}  # fmt: skip
    entry: Entry = present(read_entry(event), {"s1": "Mara"})
    assert entry.who == "Mara" and entry.title == "said (out of character)"
    assert entry.chat is not None
    before, roll, after = entry.chat.parts
    assert before == "go " and after == "!"
    assert not isinstance(roll, str)
    assert [die.won for die in roll.dice] == [False, True, True]
    assert roll.chance == "87.50 % (7/8)" and roll.chance_of == "passing CL 1 with 3 dice"


@SQLITE
def test_the_narrator_speaks_as_an_npc(client: TestClient, table: Seats) -> None:
    """The narrator's "speak as" list holds the table's NPCs; a message as one names it."""
    made = client.post(
        f"/api/tables/{table.id}/actions",
        json={"action": "cogent.npc.new", "args": {"name": "Old Hob", "tier": "elite",
                                                    "vocation": "Town Guard", "out": "hob"}},
        headers=table.narrator,
    )  # fmt: skip
    assert made.status_code == 201, made.text
    _sit(client, table, table.narrator)
    assert '<option value="hob">Old Hob (NPC)</option>' in _chat_box(client, table)
    said = client.post(f"/t/{table.id}/chat", data={"text": "Who goes?", "as": "hob"}, headers=HTMX)
    assert "Said" in said.text
    assert "said, as Old Hob," in client.get(f"/t/{table.id}").text
    _sit(client, table, table.mara)
    assert '<option value="hob">' not in _chat_box(client, table)
