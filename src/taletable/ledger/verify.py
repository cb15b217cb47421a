"""An export checked by its ledger alone: the chain, every scene's seed against its commitment,
every die re-derived (the format: :mod:`taletable.ledger`; the replay of every result is
:mod:`taletable.audit`'s)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
from taletable.ledger.dice import HIDDEN_DICE, derive_face, hidden_key, keeps_promise
from taletable.ledger.export_file import (
    EXPORT_FORMAT,
    DocumentExport,
    ExportSource,
    LimitExceeded,
)
from taletable.ledger.failures import Failure
from taletable.ledger.seat_checks import SeatSeeds

__all__ = [
    "EXPORT_FORMAT",
    "ExportWalk",
    "Verification",
    "as_source",
    "chain_version",
    "table_of",
    "verify_export",
]


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


def chain_version(opening: Mapping[str, Any] | None) -> int:
    """The chain's version, as the table's opening entry records it (1 when it names none: a
    table made before version 2). Every seat sees the opening entry whole."""
    opening = opening or {}
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


@dataclass
class _Chain:
    """The chain checked link by link: every link, and every hash the view can recompute (in
    chain version 2, every one)."""

    previous: str
    chain: int = CHAIN_TEXT
    events: int = 0
    hidden: int = 0

    def take(self, event: Mapping[str, Any]) -> None:
        self.events += 1
        seq, where = event.get("seq"), self.events
        if where == 1:
            self.chain = chain_version(event)
        if seq != where:
            raise _Failure(where, f"sequence number {seq!r} where {where} was due")
        if event.get("prev_hash") != self.previous:
            raise _Failure(where, "prev_hash is not the hash of the event before")
        due = _link(self.chain, self.previous, event)
        if _is_hidden(event):
            self.hidden += 1
            if not _is_digest(event.get("hash")):
                raise _Failure(where, "a hidden event's hash is not a SHA-256 in hex")
        if due is not None and due != event.get("hash"):
            raise _Failure(where, "hash does not match the event's content")
        if self.chain == CHAIN_BODY and not _is_hidden(event):
            _no_downgrade(event)
        self.previous = str(event["hash"])


@dataclass
class _SceneSeeds:
    """Each revealed scene's seed, checked against the commitment published when it opened."""

    commitments: dict[int, str] = field(default_factory=dict)
    seeds: dict[int, bytes] = field(default_factory=dict)

    def take(self, event: Mapping[str, Any]) -> None:
        seq, scene, kind = int(event["seq"]), event.get("scene"), event.get("kind")
        if kind == "scene.open" and isinstance(scene, int):
            self.commitments[scene] = str(event.get("commitment"))
        elif kind == "scene.close" and isinstance(scene, int):
            if scene not in self.commitments:
                raise _Failure(seq, f"scene {scene} closes but never opened")
            seed = event.get("seed")
            if not keeps_promise(seed, self.commitments[scene]):
                raise _Failure(seq, f"scene {scene}'s revealed seed does not match its commitment")
            self.seeds[scene] = bytes.fromhex(str(seed))


def _event_key(event: Mapping[str, Any], seed: bytes | None) -> bytes | None:
    """The key a whole event's dice were drawn with (None while its scene's seed is secret),
    its own secret checked against its commitment first (``dice_version`` 2)."""
    version, seq = event.get("dice_version", 1), int(event["seq"])
    if isinstance(version, bool) or version not in (1, HIDDEN_DICE):
        raise _Failure(seq, f"dice_version {version!r} is not 1 or {HIDDEN_DICE}")
    if version == 1:
        return seed
    if not keeps_promise(event.get("dice_secret"), event.get("dice_commitment")):
        raise _Failure(seq, "the event's dice_secret does not match its dice_commitment")
    return None if seed is None else hidden_key(seed, str(event.get("dice_secret")))


class ExportWalk:
    """The ledger's checks of one export, taken event by event in two passes over its events
    (so that an export of any length is checked in memory that does not grow with it):

    1. :meth:`first`: the chain, every scene's and seat's seed against its commitment, and
       which entries later entries follow (:mod:`taletable.audit` keeps only those);
    2. :meth:`second`: every die of every revealed scene re-derived from its seed.
    """

    def __init__(self, table_id: str, own_seeds: Sequence[str] = ()) -> None:
        self.table_id = table_id
        self.own_seeds = own_seeds
        self.chain = _Chain(genesis_hash(table_id))
        self.scenes = _SceneSeeds()
        self.seats = SeatSeeds()
        self.followed: set[int] = set()
        self.dice = 0
        self.waiting: list[int] = []

    def first(self, event: Mapping[str, Any]) -> None:
        """Take one event in the first pass."""
        self.chain.take(event)
        if _is_hidden(event):
            return
        self.scenes.take(event)
        if self.chain.chain == CHAIN_BODY:
            self.seats.take(event)
        follows = event.get("follows")
        if isinstance(follows, int) and not isinstance(follows, bool):
            self.followed.add(follows)

    def end_first(self) -> None:
        """After the first pass: the seeds a seat kept were each used (chain version 2)."""
        if self.chain.chain == CHAIN_BODY:
            self.seats.check_own(self.own_seeds)
        self.seats.rolls.clear()
        self.seats.unseen = 0

    def second(self, event: Mapping[str, Any]) -> None:
        """Take one event in the second pass: its dice re-derived where its seed is known."""
        seats = self.seats if self.chain.chain == CHAIN_BODY else None
        if seats is not None and "action" in event and "actor" in event:
            seats.numbered(event)  # a seat's own stubs too
        elif seats is not None and _is_hidden(event) and "actor" not in event:
            seats.unseen += 1
        if _is_hidden(event):
            return
        dice, seq, scene = event.get("dice") or [], int(event["seq"]), event.get("scene")
        seed = self.scenes.seeds.get(scene) if isinstance(scene, int) else None
        drawn: tuple[bytes, bytes | None] | None
        if seats is not None and "action" in event:
            drawn = seats.key(self.table_id, event, seed)
        else:
            key = _event_key(event, seed)
            drawn = None if key is None else (key, None)
        if drawn is None:
            if dice:
                self.waiting.append(seq)
            return
        for index, die in enumerate(dice):
            try:
                face = derive_face(drawn[0], self.table_id, seq, index, int(die["sides"]), drawn[1])
            except (KeyError, TypeError, ValueError):
                raise _Failure(seq, f"die {index} is not a record of sides and face") from None
            if face != die.get("face"):
                shown = die.get("face")
                raise _Failure(seq, f"die {index} shows {shown} but the seed gives {face}")
            self.dice += 1

    def check_scene_list(self, header: Mapping[str, Any]) -> None:
        """The export's list of scenes holds the seeds the log revealed."""
        seeds = self.scenes.seeds
        for scene in header.get("scenes") or []:
            number, seed = scene.get("number"), scene.get("seed")
            if seed is not None and (number not in seeds or bytes.fromhex(seed) != seeds[number]):
                raise _Failure(0, f"scene {number}'s seed in the scene list differs from the log's")

    def verification(self) -> Verification:
        """What the walk found (all of it held)."""
        return Verification(
            self.chain.events,
            len(self.scenes.seeds),
            self.dice,
            hidden=self.chain.hidden,
            waiting=tuple(self.waiting),
            chain=self.chain.chain,
        )

    def failed(self, seq: int, reason: str) -> Verification:
        """The verification of an export that failed at ``seq``."""
        return Verification(self.chain.events, 0, 0, seq, reason)


def as_source(export: Mapping[str, Any] | ExportSource) -> ExportSource:
    """An export read once or more: a document in memory as it is, or a file's stream."""
    return DocumentExport(export) if isinstance(export, Mapping) else export


def table_of(source: ExportSource) -> Mapping[str, Any] | None:
    """The export's ``table`` if it is a taletable export, else None."""
    table = source.header.get("table")
    if source.header.get("format") != EXPORT_FORMAT or not isinstance(table, Mapping):
        return None
    return table


def verify_export(
    export: Mapping[str, Any] | ExportSource, own_seeds: Sequence[str] = ()
) -> Verification:
    """Check a table's export: the hash chain, every seed against its commitment, every die.

    A seat's view (some events hidden stubs) is checked too: each stub by its link, every
    whole event in full; :attr:`Verification.hidden` says how many were stubs. ``own_seeds``:
    the seeds a seat kept for its scenes (chain 2), each of which the log must have used. A
    failure names the first sequence number found wrong (0 for the table's own fields).
    ``export`` is a document or an :class:`~taletable.ledger.export_file.ExportFile`, read
    as a stream (twice).
    """
    source = as_source(export)
    table = table_of(source)
    if table is None:
        return Verification(0, 0, 0, 0, f"not a taletable export (format {EXPORT_FORMAT})")
    walk = ExportWalk(str(table.get("id")), own_seeds)
    try:
        for event in source.events():
            walk.first(event)
        walk.end_first()
        for event in source.events():
            walk.second(event)
        walk.check_scene_list(source.header)
    except _Failure as failure:
        return walk.failed(failure.seq, failure.reason)
    except LimitExceeded as limit:
        return walk.failed(0, str(limit))
    except (ValueError, TypeError, KeyError) as error:
        return walk.failed(0, f"malformed export: {error}")
    return walk.verification()
