"""Every seat exports its own view of the table and checks it (issue 22 point 6): what it may
not see is a hidden stub keeping its place in the chain; `taletable verify` checks the rest."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from taletable.ledger import verify_export
from tests.server.conftest import Seats
from tests.server.test_actions import act


def _played(client: TestClient, table: Seats) -> dict[str, Any]:
    """Public, narrator-only and blind rolls in a closed scene and one in the open scene; the
    seqs of the secret ones."""
    act(client, table, table.mara, action="cogent.check", args={"pool": 4, "cl": 1})
    secret = act(
        client, table, table.narrator, action="cogent.check",
        args={"pool": 7, "cl": 3}, visibility="narrator",
    ).json()  # fmt: skip
    blind = act(
        client, table, table.mara, action="cogent.check",
        args={"pool": 6, "cl": 2}, visibility="blind",
    ).json()  # fmt: skip
    act(client, table, table.bram, action="cogent.check", args={"pool": 5, "cl": 2})
    closed = client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
    assert closed.status_code == 201, closed.text
    act(client, table, table.bram, action="cogent.check", args={"pool": 3, "cl": 1})
    narrator = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    whole = {event["seq"]: event for event in narrator["events"]}
    return {"secret": secret["seq"], "blind": blind["seq"], "narrator": narrator, "whole": whole}


def _export(client: TestClient, table: Seats, headers: dict[str, str]) -> Any:
    answer = client.get(f"/api/tables/{table.id}/export", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer


def test_a_players_and_an_observers_export_hold_no_secret_and_verify(
    client: TestClient, table: Seats
) -> None:
    """No byte of the narrator-only or blind roll's result or dice; the hidden events keep the
    seq and hashes of the narrator's export; the rest is the narrator's export's, whole."""
    played = _played(client, table)
    narrator, whole = played["narrator"], played["whole"]
    secret_dice = json.dumps(whole[played["secret"]]["dice"], separators=(",", ":")).encode()
    secret_result = json.dumps(
        whole[played["secret"]]["result"], sort_keys=True, separators=(",", ":")
    ).encode()
    for headers in (table.mara, table.bram, table.observer):
        raw = _export(client, table, headers).content
        assert b'"pool":7' not in raw and b'"pool":6' not in raw
        assert secret_dice not in raw and secret_result not in raw
        view = json.loads(raw)
        assert view["table"] == narrator["table"] and view["scenes"] == narrator["scenes"]
        assert [e["seq"] for e in view["events"]] == [e["seq"] for e in narrator["events"]]
        for event in view["events"]:
            original = whole[event["seq"]]
            narrators = original["kind"] == "scene.hidden-seed"  # the narrator's alone
            if event["seq"] in (played["secret"], played["blind"]) or narrators:
                assert event["hidden"] is True  # the roller's own blind roll too
                assert "result" not in event and "dice" not in event
                assert (event["prev_hash"], event["hash"]) == (
                    original["prev_hash"],
                    original["hash"],
                )
            else:
                assert event == original
        checked = verify_export(view)
        assert checked.ok, checked.summary()
        assert checked.hidden == 3 and checked.dice_checked > 0 and checked.scenes_revealed == 1
    assert verify_export(narrator).ok and verify_export(narrator).hidden == 0


def test_a_seats_tampered_export_fails_naming_the_seq(client: TestClient, table: Seats) -> None:
    """A public roll's total (wins) changed, nothing recomputed, fails at its seq; a broken
    link fails where it breaks, and a hidden stub's hash changed fails at the stub itself."""
    played = _played(client, table)
    view = _export(client, table, table.mara).json()
    public = next(
        e for e in view["events"] if e.get("kind") == "cogent.check" and not e.get("hidden")
    )
    edited = copy.deepcopy(view)
    target = next(e for e in edited["events"] if e["seq"] == public["seq"])
    target["result"]["wins"] += 1  # its total of wins
    checked = verify_export(edited)
    assert (checked.ok, checked.failed_seq) == (False, public["seq"])

    broken = copy.deepcopy(view)
    broken["events"][played["secret"] - 1]["prev_hash"] = "0" * 64
    assert verify_export(broken).failed_seq == played["secret"]

    relinked = copy.deepcopy(view)
    relinked["events"][played["blind"] - 1]["hash"] = "f" * 64
    # chain 2: the stub's hash is recomputed from its body_hash, so it fails at the stub
    assert verify_export(relinked).failed_seq == played["blind"]


def test_verify_command_on_a_players_export(
    client: TestClient, table: Seats, tmp_path: Path, run_cli: Any
) -> None:
    """`taletable verify` exits 0 on a player's export and says how many events were hidden;
    1 naming the seq once a public event is changed."""
    _played(client, table)
    path, bad = tmp_path / "mara.json", tmp_path / "bad.json"
    view = _export(client, table, table.mara).json()
    path.write_text(json.dumps(view), encoding="utf-8")
    done = run_cli("verify", str(path))
    assert done.status == 0, done.stderr
    assert "3 hidden" in done.stdout  # the blind and secret rolls, the scene's hidden seed
    assert f"{len(view['events'])} events chained" in done.stdout
    first = next(e for e in view["events"] if e.get("kind") == "cogent.check")
    first["result"]["wins"] += 1
    bad.write_text(json.dumps(view), encoding="utf-8")
    failed = run_cli("verify", str(bad))
    assert failed.status == 1 and f"seq {first['seq']}" in failed.stderr


def test_import_refuses_a_seats_partial_export(client: TestClient, table: Seats) -> None:
    """A seat's view cannot rebuild the table: 422 naming the first hidden seq; nothing made."""
    played = _played(client, table)
    for headers in (table.mara, table.observer):
        view = _export(client, table, headers).json()
        answer = client.post("/api/tables/import", json=view)
        assert answer.status_code == 422, answer.text
        error = answer.json()["error"]
        assert error["field"] == f"events.{played['secret']}" and "hidden" in error["message"]


def test_an_event_a_seat_may_not_see_is_a_bare_link(client: TestClient, table: Seats) -> None:
    """In Bram's export the narrator's secret roll and Mara's blind roll are their place in
    the chain only (seq, hidden, hashes: not their kind, author or time); in Mara's, her own
    blind roll is the stub she saw of it."""
    played = _played(client, table)
    bram = {event["seq"]: event for event in _export(client, table, table.bram).json()["events"]}
    for seq in (played["secret"], played["blind"]):
        assert set(bram[seq]) == {"seq", "hidden", "prev_hash", "hash", "body_hash"}
        assert bram[seq]["hash"] == played["whole"][seq]["hash"]
    mara = {event["seq"]: event for event in _export(client, table, table.mara).json()["events"]}
    assert mara[played["blind"]]["kind"] == "cogent.check" and mara[played["blind"]]["hidden"]
    assert set(mara[played["secret"]]) == {"seq", "hidden", "prev_hash", "hash", "body_hash"}
