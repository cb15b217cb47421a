"""Chain version 2 (issue 35.1): a seat checks every link of its own export, stubs included,
and a table of version 2 refuses the seed-only dice of version 1 for a hidden roll. Each
attack an earlier version let through is tried here as an attacker would, and refused by
``taletable verify`` and by the import alike; the older version still verifies
(``test_old_exports.py``)."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from fastapi.testclient import TestClient

from taletable.audit import verify_table
from taletable.ledger import LedgerDice
from taletable.play import Table, perform
from tests.server.conftest import Seats
from tests.server.forgery import link, rechain
from tests.server.test_actions import act

ROLL = {"notation": "3d1000+400000"}


def _export(client: TestClient, table: Seats, headers: dict[str, str]) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table.id}/export", headers=headers)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _play(client: TestClient, table: Seats) -> dict[str, int]:
    """A public line, the narrator's secret roll right after it, Mara's blind roll, a whisper
    to Bram, a public roll; the scene closes. Their seqs."""
    said = act(client, table, table.mara, action="chat.say", args={"text": "I pick the lock."})
    secret = act(client, table, table.narrator, action="roll", args=ROLL, visibility="narrator")
    blind = act(client, table, table.mara, action="cogent.check", args={"pool": 5, "cl": 2},
                visibility="blind")  # fmt: skip
    whisper = act(client, table, table.narrator, action="chat.say",
                  args={"text": "a trap", "to": [table.bram_seat]})  # fmt: skip
    public = act(client, table, table.mara, action="roll", args={"notation": "2d6"})
    assert client.post(f"/api/tables/{table.id}/scenes", headers=table.narrator).status_code == 201
    answers = {"said": said, "secret": secret, "blind": blind, "whisper": whisper, "public": public}
    return {name: int(answer.json()["seq"]) for name, answer in answers.items()}


def _refused_by_both(client: TestClient, forged: dict[str, Any], seq: int, words: str) -> None:
    """``taletable verify`` fails at ``seq`` saying ``words``; the import answers 422 and
    makes nothing."""
    checked = verify_table(forged)
    assert (checked.ok, checked.failed_seq) == (False, seq), checked.summary()
    assert words in checked.reason
    imported = client.post("/api/tables/import", json=forged)
    assert imported.status_code == 422, imported.text
    error = imported.json()["error"]
    assert error["field"] == f"events.{seq}" and "does not verify" in error["message"], error


def test_a_new_table_opens_chain_2_and_says_what_made_its_results(
    client: TestClient, table: Seats
) -> None:
    """The opening entry records chain 2 and the engine (name, version, results shape); every
    hash of the narrator's export is the documented formula's."""
    _play(client, table)
    whole = _export(client, table, table.narrator)
    opening = whole["events"][0]
    assert opening["chain"] == 2
    assert opening["engine"]["name"] == "taletable" and opening["engine"]["results"] == 2
    previous = hashlib.sha256(f"taletable:{table.id}".encode()).hexdigest()
    for event in whole["events"]:
        assert event["prev_hash"] == previous
        assert event["hash"] == link(previous, event, 2)
        previous = event["hash"]
    assert verify_table(whole).ok


def test_a_seat_checks_every_link_of_its_own_export(client: TestClient, table: Seats) -> None:
    """Mara's export: the secret roll, the whisper to Bram and the scene's hidden seed are bare
    links, her blind roll a stub; each carries its body's hash, and each link is recomputed
    from it."""
    seqs = _play(client, table)
    mara = _export(client, table, table.mara)
    by_seq = {event["seq"]: event for event in mara["events"]}
    for name in ("secret", "blind", "whisper"):
        assert by_seq[seqs[name]]["hidden"] is True and len(by_seq[seqs[name]]["body_hash"]) == 64
    checked = verify_table(mara)
    assert checked.ok and checked.hidden == 4, checked.summary()  # and the hidden seed's
    relinked = copy.deepcopy(mara)
    relinked["events"][seqs["secret"] - 1]["body_hash"] = "0" * 64  # a stub's body swapped
    assert verify_table(relinked).failed_seq == seqs["secret"]


def test_a_doctored_seat_export_is_refused(client: TestClient, table: Seats) -> None:
    """The attack of issue 35: Mara's public line changed, its hash recomputed, and the next
    entry (the narrator's secret roll, a stub to her) re-linked to the new hash, keeping the
    stub's own hash, so the chain's head stays the true one. Refused at the stub."""
    seqs = _play(client, table)
    forged = _export(client, table, table.mara)
    said = forged["events"][seqs["said"] - 1]
    said["result"]["text"] = said["args"]["text"] = "I pick the narrator's pocket."
    said["hash"] = link(said["prev_hash"], said, 2)
    forged["events"][seqs["secret"] - 1]["prev_hash"] = said["hash"]
    _refused_by_both(client, forged, seqs["secret"], "hash does not match")


def test_a_public_roll_hidden_behind_a_stub_is_refused(client: TestClient, table: Seats) -> None:
    """Mara's public roll replaced by a bare link carrying its true body hash: the link was
    made as public, so its hash is not a hidden entry's."""
    seqs = _play(client, table)
    forged = _export(client, table, table.mara)
    index = seqs["public"] - 1
    public = forged["events"][index]
    body = {key: value for key, value in public.items() if key not in ("prev_hash", "hash")}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    forged["events"][index] = {
        "seq": public["seq"], "hidden": True, "prev_hash": public["prev_hash"],
        "hash": public["hash"], "body_hash": hashlib.sha256(canonical.encode()).hexdigest(),
    }  # fmt: skip
    _refused_by_both(client, forged, seqs["public"], "hash does not match")


def test_a_downgraded_hidden_roll_is_refused(client: TestClient, table: Seats) -> None:
    """The attack of issue 35: in the narrator's export, the secret 3d1000+400000 stripped of
    its own dice (``dice_version``, ``dice_secret``, ``dice_commitment``) and rolled again from
    the revealed seed alone (the old derivation), every hash recomputed: refused, naming the
    rule, by verify and by the import."""
    seqs = _play(client, table)
    forged = _export(client, table, table.narrator)
    event = forged["events"][seqs["secret"] - 1]
    seed = bytes.fromhex(next(e["seed"] for e in forged["events"] if e["kind"] == "scene.close"))
    for name in ("dice_version", "dice_secret", "dice_commitment"):
        del event[name]
    dice = LedgerDice(seed, table.id, event["seq"])  # seed-only, as version 1 drew
    event["result"] = perform("roll", ROLL, Table(dice=dice)).to_data()
    event["dice"] = dice.rolled
    rechain(forged)
    _refused_by_both(client, forged, seqs["secret"], "dice_version 2")


def test_the_chain_is_documented_where_it_is_made() -> None:
    """The ledger's own page states version 2's formula, as this test's forger uses it."""
    from taletable import ledger

    assert 'sha256(prev_hash + ":" + ("public" or "hidden") + ":" + body_hash)' in str(
        ledger.__doc__
    )
