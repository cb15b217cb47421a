"""A fight's secret steps (issue 22): a read makes no event, and a player or an observer sees
a fight as of its last public step, never a step the narrator took secretly (its declaration,
pool or faces), at the API or on the tracker (ARCHITECTURE.md, "A fight's secret steps")."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import SAME_ORIGIN
from tests.server.test_pages_combat import EXAMPLES, HTMX, _start, _view

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _join(client: TestClient, table_id: str, code: str, name: str, role: str) -> TestClient:
    seat = TestClient(client.app)
    joined = seat.post(
        f"/join/{table_id}", data={"code": code, "name": name, "role": role}, headers=SAME_ORIGIN
    )
    assert joined.status_code in (200, 303), joined.text
    return seat


def _fight(client: TestClient) -> tuple[str, TestClient, TestClient, str]:
    """A core table (the narrator is ``client``) where Mara brought Sir Terrik and an observer
    watches; Ambush is started in public: Sir Terrik against a goblin, who declares first (the
    roll-off's faces entered). The table, Mara's and the observer's browsers, and the fight's
    key."""
    data = {"name": "Keep", "system": "cogent", "edition": "core", "physical_dice": "true"}
    made = client.post("/start", data=data, headers=SAME_ORIGIN)
    found = re.search(r"/join/([0-9a-f]+)\?code=([^\"&<]+)", made.text)
    assert found is not None
    table_id, code = found.group(1), html.unescape(found.group(2))
    player = _join(client, table_id, code, "Mara", "player")
    observer = _join(client, table_id, code, "Olly", "observer")
    sheet = (EXAMPLES / "core_sir_terrik.yaml").read_text()
    added = player.post(f"/t/{table_id}/characters", data={"text": sheet}, headers=HTMX)
    assert "joined the table" in added.text
    assert "Ambush has started" in _start(client, table_id, faces="6,1")  # the goblin first
    started = [e for e in _events(client, table_id) if e["kind"] == "cogent.combat.start"]
    return table_id, player, observer, started[-1]["args"]["encounter"]


def _events(client: TestClient, table_id: str) -> list[dict[str, Any]]:
    answer = client.get(f"/api/tables/{table_id}/events", headers=HTMX)
    assert answer.status_code == 200, answer.text
    return list(answer.json()["events"])


def _post(
    seat: TestClient, table_id: str, name: str, args: dict[str, Any], visibility: str = "public"
) -> Any:
    body = {"action": name, "args": args, "visibility": visibility}
    return seat.post(f"/api/tables/{table_id}/actions", json=body, headers=HTMX)


def _declaration_order(status: dict[str, Any]) -> tuple[str, str]:
    """The fighter who declares first (lowest RFL, then the tie roll-off) and the other."""
    first = min(
        status["combatants"],
        key=lambda f: (f["sheet"]["attributes"]["RFL"], f["tie_roll"], f["tie_rerolls"]),
    )["id"]
    return first, "goblin" if first == "sir-terrik" else "sir-terrik"


def _secret_round(client: TestClient, table_id: str, key: str) -> None:
    """The narrator declares for both fighters and resolves the round, all narrator-only."""
    status = _post(client, table_id, "cogent.combat.status", {"file": key}).json()["result"]
    first, other = _declaration_order(status)
    for actor, target in ((first, other), (other, first)):
        declared = _post(
            client,
            table_id,
            "cogent.combat.declare",
            {"file": key, "actor": actor, "action": "attack", "target": target},
            "narrator",
        )
        assert declared.status_code == 201, declared.text
    resolved = _post(client, table_id, "cogent.combat.resolve", {"file": key}, "narrator")
    assert resolved.status_code == 201, resolved.text


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


@SQLITE
def test_a_players_status_after_secret_steps_makes_no_event_and_holds_none_of_them(
    client: TestClient,
) -> None:
    """After a narrator-only round (two declarations and the roll), Mara's and the observer's
    status and replay append nothing, and their bytes hold no declaration, pool or face of it:
    they see the fight as its public start left it, and that three steps were taken since."""
    table_id, player, observer, key = _fight(client)
    start = next(e for e in _events(client, table_id) if e["kind"] == "cogent.combat.start")
    _secret_round(client, table_id, key)
    whole = _post(client, table_id, "cogent.combat.status", {"file": key})
    assert whole.status_code == 200 and whole.json()["secret_steps"] == 0
    truth = whole.json()["result"]
    secrets = [_compact(d) for d in truth["declarations"]] + [
        _compact(step) for step in truth["steps"][len(start["result"]["steps"]) :]
    ]
    secrets += [_compact(roll) for roll in truth["rolls"]]
    assert '"target":"goblin"' in whole.text and secrets
    logged = len(_events(client, table_id))
    for seat in (player, observer):
        for action in ("cogent.combat.status", "cogent.combat.replay"):
            answer = _post(seat, table_id, action, {"file": key})
            assert answer.status_code == 200, answer.text
            assert answer.json()["result"] == start["result"]
            assert answer.json()["secret_steps"] == len(truth["steps"]) - len(
                start["result"]["steps"]
            )
            assert '"target":"goblin"' not in answer.text
            assert '"target":"sir-terrik"' not in answer.text
            assert not [secret for secret in secrets if secret in answer.text]
    assert len(_events(client, table_id)) == logged


@SQLITE
def test_the_tracker_shows_a_player_and_an_observer_no_secret_step(client: TestClient) -> None:
    """After a narrator-only declaration, the tracker of Mara and of the observer shows no
    declaration, target or pool of it (only that a step was taken secretly); the narrator's
    shows it. After the secret round, theirs still shows round 1 as it started."""
    table_id, player, observer, key = _fight(client)
    status = _post(client, table_id, "cogent.combat.status", {"file": key}).json()["result"]
    first, other = _declaration_order(status)
    declared = _post(
        client,
        table_id,
        "cogent.combat.declare",
        {"file": key, "actor": first, "action": "attack", "target": other},
        "narrator",
    )
    assert declared.status_code == 201, declared.text
    narrators = _view(client, table_id)
    assert "Declared: " in narrators and "· pool " in narrators
    for seat in (player, observer):
        for page in (f"/t/{table_id}/combat", f"/t/{table_id}/combat/view"):
            seen = html.unescape(seat.get(page).text)
            assert "Declared: " not in seen and "· pool " not in seen, page
            assert f"at {other}" not in seen and "D6 = base" not in seen
            assert "1 step taken secretly" in seen
    resolved = _post(
        client, table_id, "cogent.combat.declare",
        {"file": key, "actor": other, "action": "attack", "target": first}, "narrator",
    )  # fmt: skip
    assert resolved.status_code == 201, resolved.text
    assert _post(client, table_id, "cogent.combat.resolve", {"file": key}, "narrator").is_success
    for seat in (player, observer):
        seen = _view(seat, table_id)
        assert "round 1, declaration" in seen and "Victory #" not in seen
        assert "Declared: " not in seen and "faces" not in seen
        assert "3 steps taken secretly" in seen


@SQLITE
def test_reads_make_no_event(client: TestClient) -> None:
    """Odds, a fight's status, a sheet's pools and the random tables' list, asked by the
    narrator, a player or an observer, leave the log as it was (they were once logged)."""
    table_id, player, observer, key = _fight(client)
    logged = _events(client, table_id)
    reads = [
        ("odds.cogent", {"pool": 5, "cl": 3}),
        ("cogent.combat.status", {"file": key}),
        ("cogent.combat.replay", {"file": key}),
        ("table.list", {}),
        ("cogent.challenge-levels", {}),
    ]
    for seat in (client, player, observer):
        for action, args in reads:
            answer = _post(seat, table_id, action, args)
            assert answer.status_code == 200, (action, answer.text)
            assert "seq" not in answer.json()
    assert _events(client, table_id) == logged


@SQLITE
def test_a_public_step_shows_the_fight_as_it_then_stands(client: TestClient) -> None:
    """The narrator's secret declaration is revealed by the public one after it (ARCHITECTURE.md:
    a public step shows the fight as it stands, as its event in the log already does)."""
    table_id, player, _observer, key = _fight(client)
    status = _post(client, table_id, "cogent.combat.status", {"file": key}).json()["result"]
    first, other = _declaration_order(status)
    for actor, target, visibility in ((first, other, "narrator"), (other, first, "public")):
        done = _post(
            client,
            table_id,
            "cogent.combat.declare",
            {"file": key, "actor": actor, "action": "attack", "target": target},
            visibility,
        )
        assert done.status_code == 201, done.text
    answer = _post(player, table_id, "cogent.combat.status", {"file": key}).json()
    assert answer["secret_steps"] == 0 and len(answer["result"]["declarations"]) == 2


@SQLITE
def test_a_players_step_never_reveals_the_narrators_secret_steps(client: TestClient) -> None:
    """Mara's public declaration after the narrator's secret one would hold the fight as it
    then stands, the secret included: it is kept narrator-only, and her answer is its stub;
    the narrator's public resolve then shows every seat the round."""
    table_id, player, observer, key = _fight(client)
    status = _post(client, table_id, "cogent.combat.status", {"file": key}).json()["result"]
    assert _declaration_order(status)[0] == "goblin"
    secret = {"file": key, "actor": "goblin", "action": "attack", "target": "sir-terrik"}
    assert _post(client, table_id, "cogent.combat.declare", secret, "narrator").status_code == 201
    mine = {"file": key, "actor": "sir-terrik", "action": "attack", "target": "goblin"}
    answer = _post(player, table_id, "cogent.combat.declare", mine)
    assert answer.status_code == 201, answer.text
    assert answer.json()["visibility"] == "narrator" and "result" not in answer.json()
    for seat in (player, observer):
        for event in _events(seat, table_id):
            assert '"target":"sir-terrik"' not in _compact(event)
        seen = _post(seat, table_id, "cogent.combat.status", {"file": key}).json()
        assert seen["secret_steps"] == 2 and seen["result"]["declarations"] == []
    assert _post(client, table_id, "cogent.combat.resolve", {"file": key}).status_code == 201
    seen = _post(player, table_id, "cogent.combat.status", {"file": key}).json()
    assert seen["secret_steps"] == 0 and seen["result"]["steps"][-1]["kind"] == "resolve"
