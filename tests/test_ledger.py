"""The live table's ledger: server dice from a committed seed, a hash chain anyone checks."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import secrets
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taletable.ledger import (
    EXPORT_FORMAT,
    HIDDEN_DICE,
    LedgerDice,
    canonical_json,
    commitment,
    derive_face,
    event_hash,
    genesis_hash,
    hidden_dice_fields,
    verify_export,
)
from taletable.ledger.dice import _Keyed


def _chained(events: list[dict[str, Any]], table: str) -> Callable[..., None]:
    """A function that appends the next event of scene 1 (public unless told) to ``events``,
    chained to the one before with the ledger's own hashes."""

    def add(kind: str, **body: Any) -> None:
        previous = events[-1]["hash"] if events else genesis_hash(table)
        event = {"seq": len(events) + 1, "kind": kind, "scene": 1, "visibility": "public", **body}
        events.append({**event, "prev_hash": previous, "hash": event_hash(previous, event)})

    return add


def _export(rolls: int = 3, *, close: bool = True) -> dict[str, Any]:
    """A small export built with the ledger's own functions: open, rolls, close."""
    table, seed = "t1", secrets.token_hex(32)
    events: list[dict[str, Any]] = []
    add = _chained(events, table)
    add("scene.open", commitment=commitment(seed))
    for _ in range(rolls):
        dice = LedgerDice(bytes.fromhex(seed), table, len(events) + 1)
        faces = dice.roll(6, 4)
        add("drawn", result={"faces": list(faces)}, dice=dice.rolled)
    if close:
        add("scene.close", seed=seed)
    scenes = [{"number": 1, "commitment": commitment(seed), "seed": seed if close else None}]
    return {"format": EXPORT_FORMAT, "table": {"id": table}, "scenes": scenes, "events": events}


def test_faces_are_a_function_of_seed_table_seq_and_index() -> None:
    """The same seed, table, seq and die index give the same face; any change moves it."""
    seed = bytes(32)
    assert derive_face(seed, "t", 5, 0, 6) == derive_face(seed, "t", 5, 0, 6)
    faces = {derive_face(seed, "t", seq, index, 1000) for seq in range(3) for index in range(3)}
    assert len(faces) > 5


def _documented_face(seed: bytes, table: str, seq: int, index: int, sides: int) -> int:
    """The module's formula as it reads: HMAC-SHA256(seed, "TABLE:SEQ:INDEX:ATTEMPT"), its
    first 8 bytes big-endian, drawn again while they fall in the span's uneven top."""
    span = 2**64
    for attempt in range(100):
        message = f"{table}:{seq}:{index}:{attempt}".encode()
        value = int.from_bytes(hmac.new(seed, message, hashlib.sha256).digest()[:8], "big")
        if value < span - span % sides:
            return value % sides + 1
    raise AssertionError("no face in 100 attempts")


@given(key=st.binary(max_size=200), message=st.binary(max_size=300))
def test_the_dice_hmac_is_hmac_sha256_for_any_key(key: bytes, message: bytes) -> None:
    """The ledger's HMAC (its padded keys hashed once) is the standard library's, for keys
    shorter than, as long as and longer than SHA-256's block."""
    assert _Keyed(key).digest(message) == hmac.new(key, message, hashlib.sha256).digest()


def test_a_tables_dice_are_the_documented_faces_in_order() -> None:
    """LedgerDice (the key's padded hashes worked out once per event) and derive_face give,
    die by die, the faces the documented formula gives, for every size of die."""
    for number, sides in enumerate((2, 3, 4, 6, 8, 10, 12, 20, 100, 1000)):
        seed = hashlib.sha256(b"seed %d" % number).digest()
        dice = LedgerDice(seed, "a1b2c3", 40 + number)
        faces = dice.roll(sides, 5) + dice.roll(6, 2)
        expected = [_documented_face(seed, "a1b2c3", 40 + number, index, sides)
                    for index in range(5)]  # fmt: skip
        expected += [_documented_face(seed, "a1b2c3", 40 + number, index, 6) for index in (5, 6)]
        assert list(faces) == expected
        assert faces[0] == derive_face(seed, "a1b2c3", 40 + number, 0, sides)
        assert [die["face"] for die in dice.rolled] == expected


def test_faces_are_uniform() -> None:
    """Rejection sampling: 6000 d6 land near 1000 each (chi-squared under 20.5, p = 0.001)."""
    counts = Counter(derive_face(b"seed", "t", 1, index, 6) for index in range(6000))
    chi_squared = sum((counts[face] - 1000) ** 2 / 1000 for face in range(1, 7))
    assert set(counts) == set(range(1, 7)) and chi_squared < 20.5


def test_the_hash_chains_each_event_to_the_one_before() -> None:
    """hash = sha256(prev_hash + canonical JSON of the event without its hashes)."""
    import hashlib

    event = {"seq": 1, "kind": "x", "hash": "ignored", "prev_hash": "ignored"}
    expected = hashlib.sha256(("ab" + canonical_json({"seq": 1, "kind": "x"})).encode())
    assert event_hash("ab", event) == expected.hexdigest()


def test_an_honest_export_verifies() -> None:
    """Chain, commitment and 12 dice all check out."""
    checked = verify_export(_export())
    assert checked.ok and (checked.events, checked.dice_checked) == (5, 12)


def test_an_open_scene_chains_but_its_dice_wait_for_the_seed() -> None:
    """Before the seed is revealed the chain still verifies; no die is re-derived yet."""
    checked = verify_export(_export(close=False))
    assert checked.ok and checked.dice_checked == 0


@pytest.mark.parametrize(
    ("path", "value", "seq"),
    [
        (("events", 2, "result", "faces", 0), 7, 3),
        (("events", 1, "dice", 0, "face"), None, 2),
        (("events", 4, "seed"), "00" * 32, 5),
        (("events", 0, "commitment"), "0" * 64, 1),
        (("table", "id"), "t2", 1),
        (("events", 3, "seq"), 9, 4),
    ],
)
def test_any_edit_fails_naming_the_first_bad_seq(
    path: tuple[Any, ...], value: Any, seq: int
) -> None:
    """Editing a result, a die, the seed, the commitment, the table or a seq is caught."""
    export = _export()
    target: Any = export
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value if value is not None else target[path[-1]] % 6 + 1
    checked = verify_export(export)
    assert not checked.ok and checked.failed_seq == seq


def test_re_hashed_dice_edits_still_fail_against_the_seed() -> None:
    """Even a forger who recomputes every hash cannot change a die: the seed gives it away."""
    export = _export()
    event = export["events"][1]
    event["dice"][0]["face"] = event["dice"][0]["face"] % 6 + 1
    previous = event["prev_hash"]
    for later in export["events"][1:]:
        later["prev_hash"] = previous
        later["hash"] = previous = event_hash(previous, later)
    checked = verify_export(export)
    assert (checked.ok, checked.failed_seq) == (False, 2)


def test_verify_command_exit_codes(tmp_path: Path, run_cli: Any) -> None:
    """exit 0 and a one-line summary; exit 1 naming the seq; exit 2 for a file that is no JSON."""
    good, bad, broken = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "broken.json"
    export = _export()
    # the command checks a live table's log, which opens with the table's settings
    opening = {"seq": 0, "kind": "table.open", "scene": 0, "visibility": "public"}
    export["events"].insert(0, opening)
    for seq, event in enumerate(export["events"], start=1):
        event["seq"] = seq
        if "dice" in event:  # the rolls move one seq on: their dice with them
            dice = LedgerDice(_seed_of(export), "t1", seq)
            event["result"]["faces"] = list(dice.roll(6, 4))
            event["dice"] = dice.rolled
    _rechain(export)
    good.write_text(json.dumps(export), encoding="utf-8")
    edited = copy.deepcopy(export)
    edited["events"][3]["result"]["faces"][0] = 9
    bad.write_text(json.dumps(edited), encoding="utf-8")
    broken.write_text("{", encoding="utf-8")
    ok = run_cli("verify", str(good))
    assert ok.status == 0 and ok.stdout.count("\n") == 1, ok.stderr
    assert "6 events chained" in ok.stdout
    failed = run_cli("verify", str(bad))
    assert failed.status == 1 and "seq 4" in failed.stderr
    assert run_cli("verify", str(broken)).status == 2


def test_a_seats_view_takes_a_hidden_stub_as_an_opaque_link() -> None:
    """A stub (``hidden: true``, its content gone) verifies as a link and is counted; its dice
    are not re-derived; a stub that breaks the link still fails at its seq."""
    export = _export()
    full = export["events"][2]
    stub = {key: full[key] for key in ("seq", "kind", "scene", "visibility", "prev_hash", "hash")}
    export["events"][2] = {**stub, "hidden": True}
    checked = verify_export(export)
    assert (checked.ok, checked.hidden, checked.dice_checked) == (True, 1, 8)
    assert "1 hidden" in checked.summary()
    export["events"][2]["prev_hash"] = "0" * 64
    assert verify_export(export).failed_seq == 3


def _hidden_export(*, version: int | None) -> dict[str, Any]:
    """A closed scene with one narrator-only roll: as written before hidden dice had their own
    secret (``version`` None: the seed alone) or after (2: seed and secret)."""
    table, seed, secret = "t1", secrets.token_hex(32), secrets.token_hex(32)
    events: list[dict[str, Any]] = []
    add = _chained(events, table)
    add("scene.open", commitment=commitment(seed))
    extra = hidden_dice_fields(secret) if version == HIDDEN_DICE else {}
    dice = LedgerDice(bytes.fromhex(seed), table, 2, extra.get("dice_secret"))
    dice.roll(10, 5)
    add("drawn", visibility="narrator", dice=dice.rolled, **extra)
    add("scene.close", seed=seed)
    return {"format": EXPORT_FORMAT, "table": {"id": table}, "scenes": [], "events": events}


def test_hidden_dice_of_either_version_verify() -> None:
    """An old log's hidden roll (no dice_version: the seed alone) still verifies, and so does
    a new one (dice_version 2: the seed and the event's secret); each re-derives its 5 dice."""
    for version in (None, HIDDEN_DICE):
        checked = verify_export(_hidden_export(version=version))
        assert (checked.ok, checked.dice_checked) == (True, 5), checked.summary()


def test_a_hidden_rolls_faces_do_not_follow_from_the_seed_alone() -> None:
    """The faces of a dice_version 2 roll are not those the revealed seed gives by itself
    (5 d10: one chance in 10^5 of matching by luck)."""
    export = _hidden_export(version=HIDDEN_DICE)
    seed = bytes.fromhex(export["events"][2]["seed"])
    faces = [die["face"] for die in export["events"][1]["dice"]]
    assert faces != [derive_face(seed, "t1", 2, index, 10) for index in range(5)]


def test_an_unknown_dice_version_or_a_secret_off_its_commitment_fails() -> None:
    """dice_version 3 (or true) is refused; a secret that is not its commitment's fails at
    its seq, even with the chain recomputed."""
    for value in (3, True):
        export = _hidden_export(version=HIDDEN_DICE)
        export["events"][1]["dice_version"] = value
        _rechain(export)
        failed = verify_export(export)
        assert failed.failed_seq == 2 and "dice_version" in failed.reason
    export = _hidden_export(version=HIDDEN_DICE)
    export["events"][1]["dice_secret"] = "00" * 32
    _rechain(export)
    failed = verify_export(export)
    assert failed.failed_seq == 2 and "dice_commitment" in failed.reason


def _rechain(export: dict[str, Any]) -> None:
    previous = genesis_hash(str(export["table"]["id"]))
    for event in export["events"]:
        event["prev_hash"] = previous
        event["hash"] = previous = event_hash(previous, event)


def _seed_of(export: dict[str, Any]) -> bytes:
    return bytes.fromhex(export["scenes"][0]["seed"])
