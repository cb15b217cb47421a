"""Hidden dice stay hidden after the scene's seed is revealed (issue 22 point 1).

The attack: a player sees a gap in the seqs (a narrator-only roll, another's blind roll), waits
for the scene to close (its seed is then in the log for every seat) and derives the faces of
that event from the seed, the table's id, the seq and the die's index. A hidden event's dice
now depend on a secret of its own, which only the narrator's export holds.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from fastapi.testclient import TestClient

from taletable.ledger import derive_face, verify_export
from taletable.ledger.seats import roll_prefix, seat_key
from tests.server.conftest import Seats
from tests.server.forgery import rechain
from tests.server.test_actions import act


def _export(client: TestClient, table: Seats, headers: dict[str, str]) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table.id}/export", headers=headers)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _secret_rolls_then_close(client: TestClient, table: Seats) -> tuple[int, int]:
    """A public roll, the narrator's secret roll, Mara's blind roll, a public one; the scene
    closes. The secret and blind rolls' seqs."""
    act(client, table, table.bram, action="cogent.check", args={"pool": 4, "cl": 1})
    secret = act(
        client, table, table.narrator, action="cogent.check",
        args={"pool": 8, "cl": 3}, visibility="narrator",
    ).json()["seq"]  # fmt: skip
    blind = act(
        client, table, table.mara, action="cogent.check",
        args={"pool": 8, "cl": 2}, visibility="blind",
    ).json()["seq"]  # fmt: skip
    act(client, table, table.bram, action="cogent.check", args={"pool": 4, "cl": 1})
    closed = client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
    assert closed.status_code == 201, closed.text
    return secret, blind


def test_a_player_cannot_derive_a_secret_rolls_faces_from_the_revealed_seed(
    client: TestClient, table: Seats
) -> None:
    """Bram takes the revealed seed from his own export and derives each face of the events he
    sees only as gaps: the faces he gets are not the narrator's (8 d6: one chance in 6^8 of
    matching by luck), for the narrator's secret roll and for Mara's blind roll."""
    secret, blind = _secret_rolls_then_close(client, table)
    bram = _export(client, table, table.bram)
    closed = next(e for e in bram["events"] if e.get("kind") == "scene.close")
    seed = bytes.fromhex(closed["seed"])
    gaps = [event["seq"] for event in bram["events"] if event.get("hidden")]
    assert gaps == [secret, blind, closed["seq"] + 1]  # and the scene's hidden seed, revealed
    whole = {event["seq"]: event for event in _export(client, table, table.narrator)["events"]}
    for seq in gaps[:2]:
        truth, event = whole[seq]["dice"], whole[seq]
        assert len(truth) == 8
        # even told whose roll it was and its number, the seats' seeds and the scene's seed
        # give him not the faces: they need the roll's secret (chain 2, ledger.seats)
        given = closed["seat_seeds"].get(event["actor"], "")
        key = seat_key(seed, event["actor"], given)
        prefix = roll_prefix(table.id, event["scene"], event["actor"], event["roll"])
        for derived in (
            [derive_face(seed, table.id, seq, n, die["sides"]) for n, die in enumerate(truth)],
            [derive_face(key, table.id, seq, n, d["sides"], prefix) for n, d in enumerate(truth)],
        ):
            assert derived != [die["face"] for die in truth]


def test_the_narrators_export_verifies_the_hidden_dice_and_their_commitments(
    client: TestClient, table: Seats
) -> None:
    """Every die of the closed scene re-derived (the hidden ones from seed and secret); each
    hidden event's commitment is the SHA-256 of its secret, and the stub Mara holds of her blind
    roll carries that commitment; no player's or observer's export or read holds a secret."""
    secret, blind = _secret_rolls_then_close(client, table)
    narrator = _export(client, table, table.narrator)
    checked = verify_export(narrator)
    assert checked.ok, checked.summary()
    assert checked.dice_checked == sum(len(e.get("dice") or []) for e in narrator["events"])
    whole = {event["seq"]: event for event in narrator["events"]}
    for seq in (secret, blind):
        event = whole[seq]
        assert event["dice_version"] == 2
        assert event["dice_commitment"] == hashlib.sha256(
            bytes.fromhex(event["dice_secret"])
        ).hexdigest()
    mara = {e["seq"]: e for e in _export(client, table, table.mara)["events"]}
    assert mara[blind]["hidden"] and mara[blind]["dice_commitment"] == whole[blind][
        "dice_commitment"
    ]
    assert "dice_secret" not in mara[blind]
    public = next(e for e in narrator["events"] if e.get("kind") == "cogent.check")
    assert "dice_version" not in public and "dice_secret" not in public
    for headers in (table.mara, table.bram, table.observer):
        raw = client.get(f"/api/tables/{table.id}/export", headers=headers).content
        raw += client.get(f"/api/tables/{table.id}/events", headers=headers).content
        for seq in (secret, blind):
            assert whole[seq]["dice_secret"].encode() not in raw


def test_a_changed_secret_or_hidden_face_fails_even_rechained(
    client: TestClient, table: Seats
) -> None:
    """A narrator who swaps an event's secret (and its commitment) after the fact, or a face,
    and recomputes the chain, fails at that seq: the faces no longer follow."""
    secret, _blind = _secret_rolls_then_close(client, table)
    narrator = _export(client, table, table.narrator)
    swapped = copy.deepcopy(narrator)
    event = swapped["events"][secret - 1]
    event["dice_secret"] = "ab" * 32
    rechain(swapped, secret - 1)
    assert verify_export(swapped).failed_seq == secret
    event["dice_commitment"] = hashlib.sha256(bytes.fromhex("ab" * 32)).hexdigest()
    rechain(swapped, secret - 1)
    failed = verify_export(swapped)
    # chain 2: the secret is no longer the server's pick but its scene's hidden seed's
    assert failed.failed_seq == secret and "hidden seed" in failed.reason
    assert json.dumps(narrator) != json.dumps(swapped)


def _stream_until(lines: Any, last_seq: int) -> bytes:
    """The raw bytes of a stream's messages up to the one of ``last_seq``."""
    raw = b""
    for line in lines:
        raw += line.encode() + b"\n"
        if line.startswith("data: ") and json.loads(line[6:]).get("seq") == last_seq:
            return raw
    raise AssertionError(f"the stream ended before seq {last_seq}")


def test_no_stream_a_player_or_observer_holds_carries_a_secret_after_the_close(
    client: TestClient, table: Seats
) -> None:
    """Mara's stream, open through the secret and blind rolls and the scene's close, and the
    observer's, replayed from the start after it, hold the revealed seed but neither hidden
    roll's secret nor its dice."""
    url = f"/api/tables/{table.id}/stream"
    with client.stream("GET", url, headers=table.mara) as stream:
        lines = stream.iter_lines()
        secret, blind = _secret_rolls_then_close(client, table)
        last = act(client, table, table.bram, action="cogent.check", args={"pool": 2, "cl": 1})
        raws = [_stream_until(lines, last.json()["seq"])]
    with client.stream("GET", f"{url}?after=0", headers=table.observer) as stream:
        raws.append(_stream_until(stream.iter_lines(), last.json()["seq"]))
    whole = {event["seq"]: event for event in _export(client, table, table.narrator)["events"]}
    for raw in raws:
        assert b'"kind":"scene.close"' in raw  # the seed is out
        for seq in (secret, blind):
            assert whole[seq]["dice_secret"].encode() not in raw
            assert json.dumps(whole[seq]["dice"], separators=(",", ":")).encode() not in raw
