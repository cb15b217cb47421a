"""A forged export does not verify (issue 22 point 4): `taletable verify` and the import replay
every action from its recorded request and dice and hold the table's settings to its opening.

A forger who edits a roll's total or faces and recomputes the chain, or switches a table
setting in the export's ``table`` fields, is refused by the command (exit 1 naming the seq)
and by ``POST /api/tables/import`` (422 naming ``events.SEQ`` or ``table``); a genuine export of
a table with rolls, a fight, follow-ups, a secret round and typed (physical) dice verifies.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.audit import verify_table
from taletable.play import all_actions
from taletable.server import create_app
from tests.server.conftest import TEST_LIMITS, Seats, bearer
from tests.server.forgery import rechain
from tests.server.test_actions import act
from tests.server.test_characters import terrik
from tests.server.test_dice_fields import GOOD, _table_for, _taken
from tests.server.test_pages_combat import HTMX
from tests.server.test_secret_combat import _fight, _post, _secret_round

SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _played(client: TestClient) -> dict[str, Any]:
    """The narrator's export of a physical-dice table: Mara's character, a public fight round
    (its roll-off entered as faces), a secret round, a check with the character, two destiny
    follow-ups, a check with typed faces, and a closed scene."""
    table_id, player, _observer, key = _fight(client)
    _secret_round(client, table_id, key)
    character = _character(client, table_id)
    check = _post(
        player, table_id, "cogent.check", {"character": character, "skill": "Athletics", "cl": 9}
    )
    assert check.status_code == 201, check.text
    for _ in range(2):
        spent = _post(player, table_id, "cogent.destiny-after", {"follows": check.json()["seq"]})
        assert spent.status_code == 201, spent.text
    typed = _post(player, table_id, "cogent.check", {"pool": 4, "cl": 1, "faces": [4, 5, 1, 2]})
    assert typed.status_code == 201 and typed.json()["entered"] is True, typed.text
    assert client.post(f"/api/tables/{table_id}/scenes", headers=HTMX).status_code == 201
    answer = client.get(f"/api/tables/{table_id}/export", headers=HTMX)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _character(client: TestClient, table_id: str) -> str:
    """The id of the character Mara added (its event in the log)."""
    listed = client.get(f"/api/tables/{table_id}/events", headers=HTMX)
    assert listed.status_code == 200, listed.text
    return str(next(e["character"] for e in listed.json()["events"] if "character" in e))


@pytest.fixture
def empty_client(empty_database_url: str) -> Iterator[TestClient]:
    """Another server, on an empty database: where an export is imported."""
    with TestClient(create_app(empty_database_url, limits=TEST_LIMITS)) as other:
        yield other


def _first(export: dict[str, Any], kind: str, **where: Any) -> dict[str, Any]:
    return next(
        event
        for event in export["events"]
        if event.get("kind") == kind and all(event.get(k) == v for k, v in where.items())
    )


def _forged_total(export: dict[str, Any]) -> int:
    event = _first(export, "cogent.check", entered=False)
    event["result"]["wins"] += 1
    rechain(export)
    return int(event["seq"])


def _forged_faces(export: dict[str, Any]) -> int:
    """A check's typed faces changed in its request and its result together, the chain
    recomputed (its total stays the old faces')."""
    event = _first(export, "cogent.check", entered=True)
    event["args"]["faces"] = [6, 6, 6, 6]
    event["result"]["faces"] = [6, 6, 6, 6]
    assert event["result"]["wins"] != 4
    rechain(export)
    return int(event["seq"])


def _forged_fight(export: dict[str, Any]) -> int:
    """The narrator's secret round: one fighter's roll made to score no wins."""
    event = _first(export, "cogent.combat.resolve")
    event["result"]["rolls"][1]["wins"] = 0
    rechain(export)
    return int(event["seq"])


def _switched_setting(export: dict[str, Any]) -> int:
    export["table"]["physical_dice"] = not export["table"]["physical_dice"]
    return 1


def _switched_rule(export: dict[str, Any]) -> int:
    export["table"]["edition"] = "tiered"
    return 1


def _forged_follow_up(export: dict[str, Any]) -> int:
    event = _first(export, "cogent.destiny-after")
    event["result"]["check"]["wins"] += 3
    rechain(export)
    return int(event["seq"])


def _unmarked_action(export: dict[str, Any]) -> int:
    """A check's total changed and its ``action`` taken away, so it might pass for no action."""
    event = _first(export, "cogent.check", entered=False)
    del event["action"]
    event["result"]["wins"] += 2
    rechain(export)
    return int(event["seq"])


def _injected_save(export: dict[str, Any]) -> int:
    """A seat's joining made to save over the character (a sheet no rule checked)."""
    character = _first(export, "character.create")["saves"][0]
    event = _first(export, "seat.join")
    event["saves"] = [{**character, "version": 1, "data": {"forged": True}}]
    rechain(export)
    return int(event["seq"])


FORGERIES = [_forged_total, _forged_faces, _forged_fight, _switched_setting, _switched_rule,
             _forged_follow_up, _unmarked_action, _injected_save]  # fmt: skip


def test_a_genuine_export_replays_whole(client: TestClient, tmp_path: Path, run_cli: Any) -> None:
    """Every action of the narrator's export replays to its record (the secret round too); the
    command says how many (the import taking it is in the forgery tests)."""
    export = _played(client)
    checked = verify_table(export)
    assert checked.ok, checked.summary()
    actions = [e for e in export["events"] if "action" in e]
    assert checked.replayed == len(actions) >= 8 and checked.trusted == 0
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    done = run_cli("verify", str(path))
    assert done.status == 0, done.stderr
    assert f"{len(actions)} results replayed" in done.stdout


@SQLITE
@pytest.mark.parametrize("forge", FORGERIES, ids=lambda forge: forge.__name__)
def test_a_forged_export_is_refused_by_verify_and_import(
    client: TestClient, empty_client: TestClient, tmp_path: Path, run_cli: Any, forge: Any
) -> None:
    """Each forgery fails at its seq: `taletable verify` exits 1 with one line naming it, and
    the import (on another server, where the table is new) answers 422 naming it; nothing is
    made."""
    export = _played(client)
    forged = copy.deepcopy(export)
    seq = forge(forged)
    checked = verify_table(forged)
    assert (checked.ok, checked.failed_seq) == (False, seq), checked.summary()
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged), encoding="utf-8")
    failed = run_cli("verify", str(path))
    assert failed.status == 1 and failed.stderr.count("\n") == 1
    assert f"seq {seq}:" in failed.stderr
    answer = empty_client.post("/api/tables/import", json=forged)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == f"events.{seq}" and f"seq {seq}" in answer.text
    assert empty_client.post("/api/tables/import", json=export).status_code == 201


def test_physical_dice_cannot_be_switched_on_or_typed_in_by_editing_the_export(
    client: TestClient, table: Seats, empty_client: TestClient
) -> None:
    """A table made without physical dice: its export with ``physical_dice`` switched on fails
    at seq 1 (its opening); a roll rewritten as typed faces (``entered``), chain recomputed,
    fails at its own seq; the import refuses both, and the imported table of the genuine
    export still refuses typed faces."""
    rolled = act(client, table, table.mara, action="cogent.check", args={"pool": 4, "cl": 1})
    assert rolled.status_code == 201, rolled.text
    assert client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator).status_code == 201
    export = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    switched = copy.deepcopy(export)
    switched["table"]["physical_dice"] = True
    typed = copy.deepcopy(export)
    event = next(e for e in typed["events"] if e.get("kind") == "cogent.check")
    event["args"]["faces"] = event["result"]["faces"]
    event["entered"], event["dice"] = True, []
    rechain(typed)
    for forged, seq in ((switched, 1), (typed, rolled.json()["seq"])):
        checked = verify_table(forged)
        assert (checked.ok, checked.failed_seq) == (False, seq), checked.summary()
        answer = empty_client.post("/api/tables/import", json=forged)
        assert answer.status_code == 422 and answer.json()["error"]["field"] == f"events.{seq}"
    made = empty_client.post("/api/tables/import", json=export)
    assert made.status_code == 201, made.text
    body = {"action": "cogent.check", "args": {"pool": 4, "cl": 1, "faces": [6, 6, 6, 6]}}
    again = empty_client.post(
        f"/api/tables/{table.id}/actions", json=body, headers=bearer(made.json()["narrator_token"])
    )
    assert again.status_code == 422 and again.json()["error"]["field"] == "args.faces"


MALFORMED = [
    ("saves", 5),
    ("saves", [7]),
    ("dice", [{"sides": "x"}]),
    ("dice", [3]),
    ("follows", "abc"),
    ("follows", 1),
    ("args", [1, 2]),
    ("result", None),
    ("entered", "yes"),
]


@SQLITE
@pytest.mark.parametrize(("field", "value"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_event_is_refused_naming_it_never_a_500(
    client: TestClient, table: Seats, empty_client: TestClient, field: str, value: Any
) -> None:
    """A check's field replaced by nonsense, the chain recomputed (its scene still open, so its
    dice are not re-derived): verify fails at its seq, and the import answers 422, not 500."""
    rolled = act(client, table, table.mara, action="cogent.check", args={"pool": 4, "cl": 1})
    export = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    event = next(e for e in export["events"] if e["seq"] == rolled.json()["seq"])
    event[field] = value
    rechain(export)
    checked = verify_table(export)
    assert not checked.ok and checked.failed_seq == event["seq"], checked.summary()
    answer = empty_client.post("/api/tables/import", json=export)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == f"events.{event['seq']}"


def _bump_a_number(value: Any) -> bool:
    """Add 1 to the first whole number found in ``value`` (depth first); whether one was."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if isinstance(item, int) and not isinstance(item, bool):
            value[key] = item + 1
            return True
        if isinstance(item, dict | list) and _bump_a_number(item):
            return True
    return False


@SQLITE
@pytest.mark.parametrize("action", sorted(GOOD))
def test_every_action_that_rolls_replays_and_a_changed_number_fails(
    client: TestClient, action: str
) -> None:
    """Each action that rolls, taken with typed faces in public and with the server's dice
    narrator-only (hidden dice), replays to its record from the narrator's export; a number of
    its result changed (the chain recomputed) fails at its seq."""
    table = _table_for(client, action, physical_dice=True)  # a tiered table, or its system's
    good = GOOD[action]
    args = good(client, table) if callable(good) else dict(good)
    taken = [_taken(client, table, action, args)]
    fields = set(all_actions()[action].request.dice_fields())
    rolled = {name: value for name, value in args.items() if name not in fields}
    secret = act(
        client, table, table.narrator, action=action, args=rolled, visibility="narrator"
    )  # a fight started twice, or resolved with no declarations, is refused: no second event
    if secret.status_code == 201:
        taken.append(secret.json())
    assert client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator).status_code == 201
    export = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    checked = verify_table(export)
    assert checked.ok, checked.summary()
    assert checked.replayed == sum(1 for event in export["events"] if "action" in event)
    for event in taken:
        forged = copy.deepcopy(export)
        target = forged["events"][event["seq"] - 1]
        assert _bump_a_number(target["result"])
        rechain(forged)
        assert verify_table(forged).failed_seq == event["seq"]


@SQLITE
def test_a_seats_export_replays_what_it_can_and_says_what_it_takes_on_trust(
    client: TestClient, table: Seats
) -> None:
    """Mara spends destiny after a check, the narrator awards her character a point in secret,
    she spends again. Her export cannot see the award's save, so her second spend (which read
    her sheet) does not replay from her view: it is counted as taken on trust, and the rest
    replays. The narrator's export replays all. A pool check after the secret award reads no
    sheet, so in her view a change to it still fails."""
    made = client.post(
        f"/api/tables/{table.id}/characters", json={"sheet": terrik()}, headers=table.mara
    )
    character = made.json()["id"]
    check = act(client, table, table.mara, action="cogent.check",
                args={"character": character, "skill": "Athletics", "cl": 9}).json()  # fmt: skip
    spend = {"action": "cogent.destiny-after", "args": {"follows": check["seq"]}}
    assert act(client, table, table.mara, **spend).status_code == 201
    award = {"character": character, "award": 1, "reason": "a secret kept"}
    awarded = act(client, table, table.narrator, action="cogent.character.destiny", args=award,
                  visibility="narrator")  # fmt: skip
    assert awarded.status_code == 201, awarded.text
    assert act(client, table, table.mara, **spend).status_code == 201
    pool = act(client, table, table.bram, action="cogent.check", args={"pool": 4, "cl": 1})
    narrator = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    whole = verify_table(narrator)
    assert (whole.ok, whole.trusted, whole.replayed) == (True, 0, 5), whole.summary()
    mara = client.get(f"/api/tables/{table.id}/export", headers=table.mara).json()
    seen = verify_table(mara)
    assert (seen.ok, seen.hidden, seen.trusted, seen.replayed) == (True, 1, 1, 3), seen.summary()
    assert "1 read what hidden events changed: taken on trust" in seen.summary()
    forged = copy.deepcopy(mara)
    forged["events"][pool.json()["seq"] - 1]["result"]["wins"] += 1
    rechain(forged)
    assert verify_table(forged).failed_seq == pool.json()["seq"]


class _Chosen:
    """The dice a forger chooses, passed off as the ledger's."""

    kind = "ledger"

    def __init__(self, faces: list[int]) -> None:
        self.faces = list(faces)
        self.rolled: list[dict[str, int]] = []

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        faces = tuple(self.faces.pop(0) for _ in range(count))
        self.rolled += [{"sides": sides, "face": face} for face in faces]
        return faces


def _rigged(export: dict[str, Any], seq: int) -> dict[str, Any]:
    """The check at ``seq`` rolled again on four faces the forger chose (four 6s, or four 1s
    if it rolled those): its dice and its whole result made to agree (as the engine makes
    them), the chain recomputed."""
    from taletable.play import Table, perform

    forged = copy.deepcopy(export)
    event = forged["events"][seq - 1]
    dice = _Chosen([1] * 4 if event["result"]["faces"] == [6] * 4 else [6] * 4)
    event["result"] = perform("cogent.check", event["args"], Table(dice=dice)).to_data()
    event["dice"] = dice.rolled
    rechain(forged)
    return forged


@SQLITE
def test_dice_rigged_in_an_open_scene_are_not_imported_and_fail_once_it_closes(
    client: TestClient, table: Seats, empty_client: TestClient
) -> None:
    """In a scene still open no one can check the dice (the seed is secret): a roll whose dice
    and result a forger made agree replays, and verify says its dice wait for the seed; the
    import refuses it, naming its seq. Once the scene closes, the same forgery fails at its seq:
    the seed gives other faces."""
    rolled = act(client, table, table.mara, action="cogent.check", args={"pool": 4, "cl": 1})
    seq = rolled.json()["seq"]
    export = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    forged = _rigged(export, seq)
    assert forged["events"][seq - 1]["result"] != rolled.json()["result"]
    checked = verify_table(forged)
    assert checked.ok and checked.waiting == (seq,), checked.summary()
    assert "the dice of 1 events wait for their open scene's seed" in checked.summary()
    answer = empty_client.post("/api/tables/import", json=forged)
    assert answer.status_code == 422 and answer.json()["error"]["field"] == f"events.{seq}"
    assert "scene still open" in answer.json()["error"]["message"]
    assert client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator).status_code == 201
    closed = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    failed = verify_table(_rigged(closed, seq))
    assert failed.failed_seq == seq and "the seed gives" in failed.reason
    assert empty_client.post("/api/tables/import", json=closed).status_code == 201
