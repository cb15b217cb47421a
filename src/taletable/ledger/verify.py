"""An export checked by its ledger alone: the chain, every scene's seed against its commitment,
every die re-derived (the format: :mod:`taletable.ledger`; the replay of every result is
:mod:`taletable.audit`'s)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from taletable.ledger.chain import (
    CHAIN_BODY,
    CHAIN_TEXT,
    body_hash,
    canonical_json,
    genesis_hash,
    link_hash,
    text_hash,
)
from taletable.ledger.dice import HIDDEN_DICE, commitment, derive_face, hidden_key
from taletable.ledger.failures import Failure
from taletable.ledger.seat_checks import seat_seeds

__all__ = ["EXPORT_FORMAT", "Verification", "chain_version", "verify_export"]

#: The ``format`` field of a table's export.
EXPORT_FORMAT = "taletable-export/1"


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
    #: The log's chain version (:mod:`taletable.ledger`).
    chain: int = CHAIN_TEXT

    @property
    def ok(self) -> bool:
        return self.failed_seq is None

    def summary(self) -> str:
        """One line for a person."""
        if not self.ok:
            return f"seq {self.failed_seq}: {self.reason}"
        how = "each link recomputed from its body's hash" if self.chain == CHAIN_BODY else (
            "checked as links only"
        )
        hidden = f" ({self.hidden} hidden from this view, {how})" if self.hidden else ""
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


_Failure = Failure


def _is_hidden(event: Mapping[str, Any]) -> bool:
    """A stub in a seat's view: the event's place in the chain without its content."""
    return event.get("hidden") is True


_HEX = frozenset("0123456789abcdef")


def _is_digest(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in _HEX for c in value)


def chain_version(events: Sequence[Mapping[str, Any]]) -> int:
    """The chain's version, as the table's opening entry records it (1 when it names none: a
    table made before version 2). Every seat sees the opening entry whole."""
    opening = events[0] if events else {}
    if _is_hidden(opening):
        raise _Failure(1, "the table's opening entry is hidden: every seat sees it whole")
    version = opening.get("chain", CHAIN_TEXT) if opening.get("kind") == "table.open" else 1
    if isinstance(version, bool) or version not in (CHAIN_TEXT, CHAIN_BODY):
        raise _Failure(1, f"chain {version!r} is not {CHAIN_TEXT} or {CHAIN_BODY}")
    return int(version)


def _link(chain: int, previous: str, event: Mapping[str, Any]) -> str | None:
    """The hash ``event`` must have after ``previous`` (None: a version 1 stub, whose hash no
    seat but the narrator can recompute)."""
    body = {key: value for key, value in event.items() if key not in ("prev_hash", "hash")}
    if chain == CHAIN_TEXT:
        return None if _is_hidden(event) else text_hash(previous, canonical_json(body))
    if not _is_hidden(event):
        public = event.get("visibility") == "public"
        return link_hash(previous, public, body_hash(canonical_json(body)))
    where, digest = int(event["seq"]), event.get("body_hash")
    if event.get("visibility") == "public":
        raise _Failure(where, "a public entry is never hidden from a seat")
    if not _is_digest(digest):
        raise _Failure(where, "a hidden entry's body_hash is not a SHA-256 in hex")
    return link_hash(previous, False, str(digest))


def _check_chain(table_id: str, events: Sequence[Mapping[str, Any]]) -> int:
    """Check every link and every hash the view can recompute (in chain version 2, every one);
    return how many events were stubs."""
    chain = chain_version(events)
    previous = genesis_hash(table_id)
    hidden = 0
    for expected_seq, event in enumerate(events, start=1):
        seq, where = event.get("seq"), expected_seq
        if seq != expected_seq:
            raise _Failure(where, f"sequence number {seq!r} where {expected_seq} was due")
        if event.get("prev_hash") != previous:
            raise _Failure(where, "prev_hash is not the hash of the event before")
        due = _link(chain, previous, event)
        if _is_hidden(event):
            hidden += 1
            if not _is_digest(event.get("hash")):
                raise _Failure(where, "a hidden event's hash is not a SHA-256 in hex")
        if due is not None and due != event.get("hash"):
            raise _Failure(where, "hash does not match the event's content")
        if chain == CHAIN_BODY and not _is_hidden(event):
            _no_downgrade(event)
        previous = str(event["hash"])
    return hidden


def _no_downgrade(event: Mapping[str, Any]) -> None:
    """In chain version 2, an action's entry that some seat may not see has dice of its own
    (``dice_version`` 2): its dice are never the seed's alone, which every seat learns."""
    hidden = "action" in event and event.get("visibility") != "public"
    if hidden and event.get("dice_version") != HIDDEN_DICE:
        raise _Failure(
            int(event["seq"]),
            f"a hidden entry's dice must be its own (dice_version {HIDDEN_DICE}) in a "
            f"table of chain {CHAIN_BODY}",
        )


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
    table_id: str,
    events: Sequence[Mapping[str, Any]],
    seeds: Mapping[int, bytes],
    chain: int,
    own_seeds: Sequence[str] = (),
) -> tuple[int, list[int]]:
    """How many dice were re-derived, and the seqs of the events whose dice wait for their
    scene's seed (an open scene's: not yet checkable)."""
    checked, waiting = 0, []
    seats = seat_seeds(events) if chain == CHAIN_BODY else None
    if seats is not None:
        seats.check_own(own_seeds)
    for event in events:
        if seats is not None and "action" in event and "actor" in event:
            seats.numbered(event)  # a seat's own stubs too
        elif seats is not None and _is_hidden(event) and "actor" not in event:
            seats.unseen += 1
        if _is_hidden(event):
            continue
        dice, seq, scene = event.get("dice") or [], int(event["seq"]), event.get("scene")
        seed = seeds.get(scene) if isinstance(scene, int) else None
        drawn: tuple[bytes, bytes | None] | None
        if seats is not None and "action" in event:
            drawn = seats.key(table_id, event, seed)
        else:
            key = _event_key(event, seed)
            drawn = None if key is None else (key, None)
        if drawn is None:
            if dice:
                waiting.append(seq)
            continue
        for index, die in enumerate(dice):
            try:
                face = derive_face(drawn[0], table_id, seq, index, int(die["sides"]), drawn[1])
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


def verify_export(export: Mapping[str, Any], own_seeds: Sequence[str] = ()) -> Verification:
    """Check a table's export: the hash chain, every seed against its commitment, every die.

    A seat's view (some events hidden stubs) is checked too: each stub by its link, every
    whole event in full; :attr:`Verification.hidden` says how many were stubs. ``own_seeds``:
    the seeds a seat kept for its scenes (chain 2), each of which the log must have used. A
    failure names the first sequence number found wrong (0 for the table's own fields).
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
        dice, waiting = _check_dice(table_id, events, seeds, chain_version(events), own_seeds)
        _check_scene_list(export, seeds)
    except _Failure as failure:
        return Verification(len(events), 0, 0, failure.seq, failure.reason)
    except (ValueError, TypeError, KeyError) as error:
        return Verification(len(events), 0, 0, 0, f"malformed export: {error}")
    return Verification(len(events), len(seeds), dice, hidden=hidden, waiting=tuple(waiting),
                        chain=chain_version(events))  # fmt: skip
