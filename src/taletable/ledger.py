"""A live table's log and dice, checkable by anyone (DESIGN > Principles 9 and 10). No game rules.

The log
    Every event of a table has a sequence number (1, 2, 3, ... per table) and is chained to
    the one before it::

        hash = sha256(prev_hash + canonical_json(event))

    where ``event`` is the event without its ``prev_hash`` and ``hash`` fields, and
    ``canonical_json`` is JSON with sorted keys, no spaces and UTF-8 text. The first event's
    ``prev_hash`` is :func:`genesis_hash` of the table's id, so a chain belongs to one table.

The dice
    Each scene has a secret seed (32 random bytes). Its commitment, the SHA-256 of the seed,
    is published in the log when the scene opens; the seed is revealed in the log when the
    scene closes. Die number ``index`` (0, 1, 2, ... within one event) of event ``seq`` is::

        mac   = HMAC-SHA256(seed, "TABLE_ID:SEQ:INDEX:ATTEMPT")
        value = the first 8 bytes of mac as a big-endian number
        face  = value % sides + 1, unless value falls in the last, incomplete run of ``sides``
                below 2**64; then ATTEMPT grows by one and the die is drawn again

    (rejection sampling: every face is exactly equally likely). :class:`LedgerDice` is that
    source; :func:`verify_export` re-derives every die of every revealed scene from an export.

Hidden dice (``dice_version`` 2)
    The seed is revealed to every seat when its scene closes, so dice drawn from it alone can be
    re-derived by anyone who knows an event's seq: a player who sees a gap in the seqs (a
    narrator-only roll, another's blind roll) would learn its faces. An event whose dice a seat
    may not see (any visibility but ``public``) therefore also has a secret of its own, 32
    random bytes the server makes when it writes the event, kept in the event as
    ``dice_secret`` (only the narrator sees the whole event, and only the narrator's export holds
    it) with its commitment ``dice_commitment`` = SHA-256 of the secret (in the event's stub
    too). Its dice are drawn as above with the key::

        key = HMAC-SHA256(seed, "hidden:" + SECRET_BYTES)

    in place of the seed. The seed still binds the dice (it was committed before the event);
    the secret keeps them from every seat that has not the whole event; the event's hash (and
    its commitment) bind the secret, so the narrator's export proves the dice were not chosen
    after the fact. An event without ``dice_version`` (every event before this version, and
    every public event) is version 1: the seed alone.

A seat's view
    The narrator's export holds every event whole. A player's or observer's export holds the
    events it may not see as their stubs (``hidden: true``): the common fields, ``seq``,
    ``prev_hash`` and ``hash``, never the content. A stub's own hash cannot be recomputed, so
    :func:`verify_export` takes it as an opaque link: its ``prev_hash`` must be the hash before
    it and the next event must chain from its ``hash``. Every whole event is checked in full.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from taletable.dice.sources import check_dice_request

__all__ = [
    "EXPORT_FORMAT",
    "HIDDEN_DICE",
    "LedgerDice",
    "Verification",
    "canonical_json",
    "commitment",
    "derive_face",
    "event_hash",
    "genesis_hash",
    "hidden_dice_fields",
    "hidden_key",
    "text_hash",
    "verify_export",
]

#: The ``format`` field of a table's export.
EXPORT_FORMAT = "taletable-export/1"
_SPAN = 2**64
#: The ``dice_version`` of an event whose dice are hidden: drawn with its own secret too.
HIDDEN_DICE = 2


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON: sorted keys, no spaces, non-ASCII kept as UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def genesis_hash(table_id: str) -> str:
    """The ``prev_hash`` of a table's first event: the SHA-256 of ``taletable:TABLE_ID``."""
    return hashlib.sha256(f"taletable:{table_id}".encode()).hexdigest()


def event_hash(prev_hash: str, event: Mapping[str, Any]) -> str:
    """``sha256(prev_hash + canonical_json(event))`` as hex, ``event`` without its hashes."""
    body = {key: value for key, value in event.items() if key not in ("prev_hash", "hash")}
    return text_hash(prev_hash, canonical_json(body))


def text_hash(prev_hash: str, text: str) -> str:
    """:func:`event_hash` of an event already written as canonical JSON (without its hashes)."""
    return hashlib.sha256((prev_hash + text).encode()).hexdigest()


def commitment(seed_hex: str) -> str:
    """The published commitment of a scene's seed: the SHA-256 of the seed's bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def derive_face(seed: bytes, table_id: str, seq: int, index: int, sides: int) -> int:
    """The face of die ``index`` of event ``seq`` of a table, from the scene's seed."""
    check_dice_request(sides, 1)
    return _keyed(seed).faces(_message_prefix(table_id, seq), index, 1, sides)[0]


def _message_prefix(table_id: str, seq: int) -> bytes:
    return f"{table_id}:{seq}:".encode()


_XOR_36 = bytes(byte ^ 0x36 for byte in range(256))  # RFC 2104's inner and outer pads
_XOR_5C = bytes(byte ^ 0x5C for byte in range(256))


class _Keyed:
    """HMAC-SHA256 under one key (RFC 2104), its padded keys hashed once: each message costs
    two copies of a hash state, not a new HMAC object (a check's dice: 2.6 -> 0.9 us a die)."""

    def __init__(self, key: bytes) -> None:
        block = (hashlib.sha256(key).digest() if len(key) > 64 else key).ljust(64, b"\0")
        self._inner = hashlib.sha256(block.translate(_XOR_36))
        self._outer = hashlib.sha256(block.translate(_XOR_5C))

    def digest(self, message: bytes) -> bytes:
        """``HMAC-SHA256(key, message)``."""
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def faces(self, prefix: bytes, first: int, count: int, sides: int) -> list[int]:
        """The faces of dice ``first`` to ``first + count - 1``, each
        ``HMAC-SHA256(seed, "TABLE:SEQ:INDEX:ATTEMPT")``'s first 8 bytes, drawn again (the next
        attempt) while they fall in the span's uneven top."""
        limit = _SPAN - _SPAN % sides
        digest, faces = self.digest, []
        for index in range(first, first + count):
            attempt = 0
            while (value := _first_8(digest(b"%s%d:%d" % (prefix, index, attempt)))) >= limit:
                attempt += 1
            faces.append(value % sides + 1)
        return faces


def _first_8(mac: bytes) -> int:
    """The first 8 bytes of ``mac`` as a big-endian number."""
    return int.from_bytes(mac[:8], "big")


@functools.lru_cache(maxsize=256)
def _keyed(key: bytes) -> _Keyed:
    """The HMAC of ``key``, kept: a scene's events all draw their dice with its seed."""
    return _Keyed(key)


def hidden_key(seed: bytes, secret_hex: str) -> bytes:
    """The key a hidden event's dice are drawn with: ``HMAC-SHA256(seed, "hidden:" + secret)``."""
    return hmac.new(seed, b"hidden:" + bytes.fromhex(secret_hex), hashlib.sha256).digest()


def hidden_dice_fields(secret_hex: str) -> dict[str, Any]:
    """The fields a hidden event carries about its dice: the version, its secret and the
    secret's commitment (the stub keeps the version and the commitment)."""
    return {
        "dice_version": HIDDEN_DICE,
        "dice_secret": secret_hex,
        "dice_commitment": commitment(secret_hex),
    }


class LedgerDice:
    """The dice of one event at a live table, derived from the scene's secret seed (and, for an
    event hidden from some seat, from its own ``secret`` too: ``dice_version`` 2).

    It records every die it hands out (sides and face, in order) so the event can carry them
    and :func:`verify_export` can re-derive them once the seed is revealed.
    """

    def __init__(self, seed: bytes, table_id: str, seq: int, secret: str | None = None) -> None:
        self._seed = seed if secret is None else hidden_key(seed, secret)
        self._keyed = _keyed(self._seed)
        self._prefix = _message_prefix(table_id, seq)
        self.table_id = table_id
        self.seq = seq
        self.rolled: list[dict[str, int]] = []

    @property
    def kind(self) -> str:
        return "ledger"

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        check_dice_request(sides, count)
        faces = self._keyed.faces(self._prefix, len(self.rolled), count, sides)  # as derive_face
        self.rolled += [{"sides": sides, "face": face} for face in faces]
        return tuple(faces)


@dataclass(frozen=True)
class Verification:
    """What :func:`verify_export` found: counts, and the first failing seq with the reason."""

    events: int
    scenes_revealed: int
    dice_checked: int
    failed_seq: int | None = None
    reason: str = ""
    #: How many events were hidden stubs (a seat's view), taken as opaque links.
    hidden: int = 0
    #: How many actions were replayed to their recorded results (``taletable.audit``), and
    #: how many, in a seat's view, read what a hidden event may have changed (taken on trust).
    replayed: int = 0
    trusted: int = 0
    #: The seqs of the events whose dice wait for their scene's seed (an open scene's).
    waiting: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return self.failed_seq is None

    def summary(self) -> str:
        """One line for a person."""
        if not self.ok:
            return f"seq {self.failed_seq}: {self.reason}"
        hidden = (
            f" ({self.hidden} hidden from this view, checked as links only)" if self.hidden else ""
        )
        replayed = f", {self.replayed} results replayed" if self.replayed else ""
        if self.trusted:
            replayed += f" ({self.trusted} read what hidden events changed: taken on trust)"
        waiting = (
            f"; the dice of {len(self.waiting)} events wait for their open scene's seed"
            if self.waiting
            else ""
        )
        return (
            f"ok: {self.events} events chained{hidden}, {self.dice_checked} dice re-derived "
            f"from {self.scenes_revealed} revealed scene seeds{replayed}{waiting}"
        )


class _Failure(Exception):
    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(reason)
        self.seq = seq
        self.reason = reason


def _is_hidden(event: Mapping[str, Any]) -> bool:
    """A stub in a seat's view: the event's place in the chain without its content."""
    return event.get("hidden") is True


_HEX = frozenset("0123456789abcdef")


def _is_digest(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in _HEX for c in value)


def _check_chain(table_id: str, events: Sequence[Mapping[str, Any]]) -> int:
    """Check every link and every whole event's hash; return how many events were stubs."""
    previous = genesis_hash(table_id)
    hidden = 0
    for expected_seq, event in enumerate(events, start=1):
        seq, where = event.get("seq"), expected_seq
        if seq != expected_seq:
            raise _Failure(where, f"sequence number {seq!r} where {expected_seq} was due")
        if event.get("prev_hash") != previous:
            raise _Failure(where, "prev_hash is not the hash of the event before")
        if _is_hidden(event):
            if not _is_digest(event.get("hash")):
                raise _Failure(where, "a hidden event's hash is not a SHA-256 in hex")
            hidden += 1
        elif event_hash(previous, event) != event.get("hash"):
            raise _Failure(where, "hash does not match the event's content")
        previous = str(event["hash"])
    return hidden


def _scene_seeds(events: Sequence[Mapping[str, Any]]) -> dict[int, bytes]:
    """Each revealed scene's seed, checked against the commitment published when it opened."""
    commitments: dict[int, tuple[str, int]] = {}
    seeds: dict[int, bytes] = {}
    for event in events:
        if _is_hidden(event):
            continue
        seq, scene = int(event["seq"]), event.get("scene")
        if event.get("kind") == "scene.open" and isinstance(scene, int):
            commitments[scene] = (str(event.get("commitment")), seq)
        elif event.get("kind") == "scene.close" and isinstance(scene, int):
            if scene not in commitments:
                raise _Failure(seq, f"scene {scene} closes but never opened")
            seed = str(event.get("seed"))
            try:
                matches = commitment(seed) == commitments[scene][0]
            except ValueError:
                matches = False
            if not matches:
                raise _Failure(seq, f"scene {scene}'s revealed seed does not match its commitment")
            seeds[scene] = bytes.fromhex(seed)
    return seeds


def _event_key(event: Mapping[str, Any], seed: bytes | None) -> bytes | None:
    """The key a whole event's dice were drawn with (None while its scene's seed is secret),
    its own secret checked against its commitment first (``dice_version`` 2)."""
    version, seq = event.get("dice_version", 1), int(event["seq"])
    if isinstance(version, bool) or version not in (1, HIDDEN_DICE):
        raise _Failure(seq, f"dice_version {version!r} is not 1 or {HIDDEN_DICE}")
    if version == 1:
        return seed
    secret = event.get("dice_secret")
    try:
        matches = commitment(str(secret)) == event.get("dice_commitment")
    except ValueError:
        matches = False
    if not matches:
        raise _Failure(seq, "the event's dice_secret does not match its dice_commitment")
    return None if seed is None else hidden_key(seed, str(secret))


def _check_dice(
    table_id: str, events: Sequence[Mapping[str, Any]], seeds: Mapping[int, bytes]
) -> tuple[int, list[int]]:
    """How many dice were re-derived, and the seqs of the events whose dice wait for their
    scene's seed (an open scene's: not yet checkable)."""
    checked, waiting = 0, []
    for event in events:
        if _is_hidden(event):
            continue
        dice = event.get("dice") or []
        scene = event.get("scene")
        key = _event_key(event, seeds.get(scene) if isinstance(scene, int) else None)
        if key is None:
            if dice:
                waiting.append(int(event["seq"]))
            continue
        seed, seq = key, int(event["seq"])
        for index, die in enumerate(dice):
            try:
                face = derive_face(seed, table_id, seq, index, int(die["sides"]))
            except (KeyError, TypeError, ValueError):
                raise _Failure(seq, f"die {index} is not a record of sides and face") from None
            if face != die.get("face"):
                shown = die.get("face")
                raise _Failure(seq, f"die {index} shows {shown} but the seed gives {face}")
            checked += 1
    return checked, waiting


def _check_scene_list(export: Mapping[str, Any], seeds: Mapping[int, bytes]) -> None:
    for scene in export.get("scenes") or []:
        number, seed = scene.get("number"), scene.get("seed")
        if seed is not None and (number not in seeds or bytes.fromhex(seed) != seeds[number]):
            raise _Failure(0, f"scene {number}'s seed in the scene list differs from the log's")


def verify_export(export: Mapping[str, Any]) -> Verification:
    """Check a table's export: the hash chain, every seed against its commitment, every die.

    A seat's view (some events hidden stubs) is checked too: each stub as an opaque link, every
    whole event in full; :attr:`Verification.hidden` says how many were stubs. A failure names
    the first sequence number found wrong (0 for the table's own fields).
    """
    table = export.get("table")
    events = export.get("events")
    if export.get("format") != EXPORT_FORMAT or not isinstance(table, Mapping):
        return Verification(0, 0, 0, 0, f"not a taletable export (format {EXPORT_FORMAT})")
    if not isinstance(events, list) or not all(isinstance(event, Mapping) for event in events):
        return Verification(0, 0, 0, 0, "events: not a list of events")
    table_id = str(table.get("id"))
    try:
        hidden = _check_chain(table_id, events)
        seeds = _scene_seeds(events)
        dice, waiting = _check_dice(table_id, events, seeds)
        _check_scene_list(export, seeds)
    except _Failure as failure:
        return Verification(len(events), 0, 0, failure.seq, failure.reason)
    except (ValueError, TypeError, KeyError) as error:
        return Verification(len(events), 0, 0, 0, f"malformed export: {error}")
    return Verification(len(events), len(seeds), dice, hidden=hidden, waiting=tuple(waiting))
