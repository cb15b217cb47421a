"""Undo for the narrator at a live table (issue 24.7): a log entry struck with a reason (kept
in the chain, shown struck to every seat that saw it, unseen by the others), a fight's last
step taken back and a sheet's last change restored, each as a new event and version; a player
is refused."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.ledger import verify_export
from tests.server.conftest import Seats
from tests.server.test_characters import named, terrik
from tests.server.test_secret_combat import (
    HTMX,
    _declaration_order,
    _events,
    _fight,
    _post,
    _view,
)

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _strike(seat: TestClient, table_id: str, seq: int, reason: str) -> Any:
    return _post(seat, table_id, "log.strike", {"seq": seq, "reason": reason})


def _struck_note(page: str, seq: int) -> str | None:
    """The reason shown under entry ``seq`` as struck (None: not shown struck)."""
    found = re.search(rf'<p class="struck-note" id="struck-{seq}"( hidden)?>(.*?)</p>', page)
    assert found is not None, f"entry #{seq} is not on the page"
    return None if found.group(1) else html.unescape(re.sub(r"<[^>]+>", "", found.group(2)))


@SQLITE
def test_a_struck_entry_stays_in_the_chain_and_every_seat_sees_it_struck(
    client: TestClient,
) -> None:
    """The narrator strikes Mara's public roll: the strike is a new public event, the roll's
    event is unchanged, and Mara's and the observer's pages show it struck with the reason.
    Mara may not strike (403); an entry struck twice, a strike struck, and an entry there is
    none of are refused (422), and none of these adds an event."""
    table_id, player, observer, _key = _fight(client)
    rolled = _post(player, table_id, "roll", {"notation": "1d6"})
    assert rolled.status_code == 201, rolled.text
    seq = rolled.json()["seq"]
    before = [e for e in _events(client, table_id) if e["seq"] == seq]
    refused = _strike(player, table_id, seq, "I did not mean it")
    assert refused.status_code == 403, refused.text
    struck = _strike(client, table_id, seq, "rolled by mistake")
    assert struck.status_code == 201, struck.text
    assert struck.json()["visibility"] == "public"
    assert struck.json()["result"]["reason"] == "rolled by mistake"
    events = _events(client, table_id)
    assert [e for e in events if e["seq"] == seq] == before  # kept whole, its hash unchanged
    for again in (seq, struck.json()["seq"], 9999):
        assert _strike(client, table_id, again, "again").status_code == 422
    assert len(_events(client, table_id)) == len(events)
    for seat in (client, player, observer):
        page = seat.get(f"/t/{table_id}").text
        assert _struck_note(page, seq) == "Struck by the narrator: rolled by mistake"
        assert f'class="entry public struck" id="ev-{seq}"' in page
    narrators = client.get(f"/t/{table_id}").text
    assert "Strike this entry" in narrators and "Strike entry #" not in narrators  # no numbers
    assert "Strike this entry" not in player.get(f"/t/{table_id}").text


@SQLITE
def test_no_destiny_is_spent_after_a_struck_roll(client: TestClient) -> None:
    """Mara's check struck, her destiny spent after it is refused (422, naming the strike)."""
    table_id, player, _observer, _key = _fight(client)
    key = next(e for e in _events(client, table_id) if e["kind"] == "character.create")["character"]
    args = {"character": key, "skill": "Athletics", "cl": 9}
    seq = _post(player, table_id, "cogent.check", args).json()["seq"]
    assert _strike(client, table_id, seq, "wrong skill").status_code == 201
    spent = _post(player, table_id, "cogent.destiny-after", {"follows": seq})
    assert spent.status_code == 422 and "struck by the narrator" in spent.text, spent.text


@SQLITE
def test_the_strike_of_a_hidden_entry_is_the_narrators_only(client: TestClient) -> None:
    """A narrator-only roll struck: the strike is narrator-only too, so Mara's and the
    observer's log, page and export hold nothing of it, not even its reason."""
    table_id, player, observer, _key = _fight(client)
    secret = _post(client, table_id, "roll", {"notation": "2d6"}, "narrator")
    seq = secret.json()["seq"]
    struck = _strike(client, table_id, seq, "the wrong goblin's roll")
    assert struck.status_code == 201 and struck.json()["visibility"] == "narrator"
    assert _struck_note(client.get(f"/t/{table_id}").text, seq) is not None
    for seat in (player, observer):
        raw = seat.get(f"/api/tables/{table_id}/events", headers=HTMX).text
        page = seat.get(f"/t/{table_id}").text
        export = seat.get(f"/api/tables/{table_id}/export", headers=HTMX).text
        for seen in (raw, page, export):
            assert "wrong goblin" not in seen and "log.strike" not in seen


@SQLITE
def test_the_narrator_takes_back_the_last_step_of_a_fight(client: TestClient) -> None:
    """A declaration taken back: a new public event and encounter version leave the fight as
    it was before it (the step's event stays in the log); the tracker offers it to the
    narrator only, and Mara is refused (403) at the API and on the page."""
    table_id, player, _observer, key = _fight(client)
    status = _post(client, table_id, "cogent.combat.status", {"file": key}).json()
    first, other = _declaration_order(status["result"])
    declared = _post(
        client, table_id, "cogent.combat.declare",
        {"file": key, "actor": first, "action": "attack", "target": other},
    )  # fmt: skip
    assert declared.status_code == 201, declared.text
    assert _post(player, table_id, "cogent.combat.take-back", {"file": key}).status_code == 403
    said = player.post(f"/t/{table_id}/combat/take-back", headers=HTMX).text
    assert "only the table&#39;s narrator may undo" in said
    assert "Take back the last step" in _view(client, table_id)
    assert "Take back the last step" not in _view(player, table_id)
    taken = client.post(f"/t/{table_id}/combat/take-back", headers=HTMX)
    assert "The fight&#39;s last step is taken back: everyone" in taken.text, taken.text
    event = _events(client, table_id)[-1]
    assert event["action"] == "cogent.combat.take-back" and event["visibility"] == "public"
    after = _post(player, table_id, "cogent.combat.status", {"file": key}).json()
    assert after["result"] == status["result"] and after["secret_steps"] == 0
    assert any(e["seq"] == declared.json()["seq"] for e in _events(client, table_id))


@SQLITE
def test_taking_back_a_secret_step_is_secret(client: TestClient) -> None:
    """A narrator-only declaration taken back with a public form: the take-back is kept
    narrator-only (it would show the fight as it now stands), and Mara's view counts no
    secret step left."""
    table_id, player, _observer, key = _fight(client)
    status = _post(client, table_id, "cogent.combat.status", {"file": key}).json()
    first, other = _declaration_order(status["result"])
    args = {"file": key, "actor": first, "action": "attack", "target": other}
    assert _post(client, table_id, "cogent.combat.declare", args, "narrator").status_code == 201
    taken = _post(client, table_id, "cogent.combat.take-back", {"file": key})
    assert taken.status_code == 201 and taken.json()["visibility"] == "narrator"
    seen = _post(player, table_id, "cogent.combat.status", {"file": key}).json()
    assert seen["secret_steps"] == 0 and seen["result"] == status["result"]


def test_the_narrator_restores_a_sheets_previous_version(client: TestClient, table: Seats) -> None:
    """Mara renames Sir Terrik (version 2); the narrator restores version 1 as version 3 (a
    character.restore event holds the save), and restoring again brings the rename back as
    version 4. A restore from a stale version is a 409 naming the current one; Mara may not
    restore (403); a first version has none before it (422). Refusals change nothing."""
    base = f"/api/tables/{table.id}/characters"
    made = client.post(base, json={"sheet": terrik()}, headers=table.mara).json()
    key = made["id"]
    renamed = named("Sir Terrik the Bold")
    assert client.put(f"{base}/{key}", json={"sheet": renamed, "version": 1},
                      headers=table.mara).status_code == 200  # fmt: skip
    assert client.post(f"{base}/{key}/restore", json={"version": 2},
                       headers=table.mara).status_code == 403  # fmt: skip
    stale = client.post(f"{base}/{key}/restore", json={"version": 1}, headers=table.narrator)
    assert stale.status_code == 409 and stale.json()["version"] == 2, stale.text
    restored = client.post(f"{base}/{key}/restore", json={"version": 2}, headers=table.narrator)
    assert restored.status_code == 200, restored.text
    assert restored.json() == {"id": key, "version": 3, "restored": 1}
    sheet = client.get(f"{base}/{key}", headers=table.mara).json()
    assert sheet == {"sheet": terrik(), "version": 3}
    log = client.get(f"/api/tables/{table.id}/events", headers=table.mara).json()["events"]
    assert log[-1]["kind"] == "character.restore" and log[-1]["saves"][0]["version"] == 3
    again = client.post(f"{base}/{key}/restore", json={"version": 3}, headers=table.narrator)
    assert again.json()["restored"] == 2
    assert client.get(f"{base}/{key}", headers=table.mara).json()["sheet"] == renamed
    first = client.post(base, json={"sheet": terrik()}, headers=table.mara).json()["id"]
    none = client.post(f"{base}/{first}/restore", json={"version": 1}, headers=table.narrator)
    assert none.status_code == 422 and none.json()["error"]["field"] == "version"


@SQLITE
def test_the_sheet_page_offers_the_narrator_to_restore(client: TestClient) -> None:
    """On Sir Terrik's page after an edit, the narrator's restore form is at version 2 and
    restores version 1; Mara is offered none, and her post is refused in words."""
    table_id, player, _observer, _key = _fight(client)
    base = f"/api/tables/{table_id}/characters"
    key = next(e for e in _events(client, table_id) if e["kind"] == "character.create")["character"]
    sheet = client.get(f"{base}/{key}", headers=HTMX).json()
    edited = {**sheet["sheet"], "identity": {**sheet["sheet"]["identity"], "name": "Terrik II"}}
    put = player.put(f"{base}/{key}", json={"sheet": edited, "version": 1}, headers=HTMX)
    assert put.status_code == 200, put.text
    assert player.get(f"/t/{table_id}/c/{key}/restore").text == ""
    form = client.get(f"/t/{table_id}/c/{key}/restore").text
    assert 'name="version" value="2"' in form and "Restore previous version" in form
    refused = player.post(f"/t/{table_id}/c/{key}/restore", data={"version": "2"}, headers=HTMX)
    assert "only the table" in html.unescape(refused.text)
    done = client.post(f"/t/{table_id}/c/{key}/restore", data={"version": "2"}, headers=HTMX)
    assert "back as it was at version 1" in done.text
    # the read view and the editor both reload: no form left holding the version taken back
    assert set(done.headers["HX-Trigger"].split(", ")) == {"sheet-saved", "sheet-restored"}
    page = client.get(f"/t/{table_id}/c/{key}").text
    assert re.search(r'id="editor" hx-get="[^"]*/editor" hx-trigger="sheet-restored from:body"',
                     page)  # fmt: skip
    assert client.get(f"{base}/{key}", headers=HTMX).json()["sheet"] == sheet["sheet"]
    stale = client.post(f"/t/{table_id}/c/{key}/restore", data={"version": "2"}, headers=HTMX)
    assert "at version 3 now" in stale.text


@SQLITE
def test_a_table_with_strikes_and_take_backs_verifies_and_replays(client: TestClient) -> None:
    """A fight's round rolled and taken back, an entry struck and a sheet restored: the
    export verifies (chain and dice), the log's saves rebuild the stored rows, and the strike
    and each take-back played again through ``perform`` on the state before them give the
    results their events hold."""
    from taletable.log_entry import read_entry
    from taletable.play import Table, perform
    from taletable.server.state import state_from_log
    from taletable.store import MemoryStore

    table_id, player, _observer, key = _fight(client)
    status = _post(client, table_id, "cogent.combat.status", {"file": key}).json()["result"]
    first, other = _declaration_order(status)
    for actor, target in ((first, other), (other, first)):
        args = {"file": key, "actor": actor, "action": "attack", "target": target}
        assert _post(client, table_id, "cogent.combat.declare", args).status_code == 201
    assert _post(client, table_id, "cogent.combat.resolve", {"file": key}).status_code == 201
    for _ in range(2):
        assert _post(client, table_id, "cogent.combat.take-back", {"file": key}).status_code == 201
    rolled = _post(player, table_id, "roll", {"notation": "3d6"}).json()["seq"]
    assert _strike(client, table_id, rolled, "a test roll").status_code == 201
    assert client.post(f"/api/tables/{table_id}/scenes", headers=HTMX).status_code == 201
    export = client.get(f"/api/tables/{table_id}/export", headers=HTMX).json()
    checked = verify_export(export)
    assert checked.ok and checked.dice_checked > 0, checked.summary()
    events = export["events"]
    replayed = 0
    for index, event in enumerate(events):
        if event.get("action") not in ("log.strike", "cogent.combat.take-back"):
            continue
        store = MemoryStore()
        for (kind, name), thing in state_from_log(map(read_entry, events[:index])).items():
            store.save(kind, name, thing.data, version=None)  # type: ignore[arg-type]
        played = perform(event["action"], event["args"], Table(store=store))
        assert played.to_data() == event["result"]
        replayed += 1
    assert replayed == 3
