"""A live table's log entry, typed: what one event of the log holds, read by field everywhere.

An entry is written once, as canonical JSON (:mod:`taletable.server.log`), and chained by its
hash (:mod:`taletable.ledger`); everything that reads the log after that (the verifier, the
exports and imports, the follow-ups, the strikes, the pages, the streams) reads it through
:class:`LogEntry`, never by string keys. ``tests/server/test_log_entry.py`` holds every entry
a table writes to its declared shape (:data:`BODIES`: which fields each kind carries), as
Zulip's tests hold its events to their schemas, and a lint test fails on a string-keyed read
of an entry outside the log's own modules (:data:`LOG_MODULES`).

The envelope
    ``seq`` (1, 2, 3, ... per table), ``kind`` (an action's name, or one of :data:`BODIES`),
    ``actor`` (the seat that caused it; none for a scene the table opened), ``visibility``
    (``public``, ``narrator``, ``blind``, ``whisper``), ``at`` (UTC, ISO 8601) and ``scene``.
    In an export, and as the server hands a written entry back, it also has ``prev_hash`` and
    ``hash``.
An action's entry
    ``action`` (its name, the same as its ``kind``), the ``args`` it was asked with, its
    ``result`` (the result record's data), the ``dice`` it rolled (sides and face, in order),
    whether a seat typed faces (``entered``), the play layer's ``changes`` and the store's
    ``saves``; a follow-up also ``follows`` (the seq of the entry it follows); a hidden
    event's dice its ``dice_version``, ``dice_secret`` and ``dice_commitment``.
A stub
    What a seat that may not see an entry receives of it: the envelope, ``action``,
    ``follows``, ``dice_version`` and ``dice_commitment`` (:data:`STUB_FIELDS`), marked
    ``hidden``. A seat's export holds an entry it may not see at all as a bare link: its
    ``seq``, ``hidden``, ``prev_hash`` and ``hash``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError

from taletable.ledger.chain import CHAIN_BODY, body_hash, canonical_json

__all__ = [
    "ACTION_FIELDS",
    "BODIES",
    "ENVELOPE",
    "LOG_MODULES",
    "STUB_FIELDS",
    "Change",
    "Die",
    "LogEntry",
    "MalformedEntry",
    "Save",
    "read_entry",
    "stored_forms",
    "stub_of",
]

#: The modules that write an entry or hash its raw bytes: the only ones that may read an
#: entry's fields by string key (a lint test holds every other module to :class:`LogEntry`).
LOG_MODULES = frozenset(
    {"log_entry.py", "ledger/chain.py", "ledger/verify.py", "ledger/seat_checks.py",
     "server/log.py"}
)

#: The fields of every entry (``prev_hash`` and ``hash`` are beside it, not in its body).
ENVELOPE = frozenset({"seq", "kind", "actor", "visibility", "at", "scene"})
#: The fields an action's entry may add to the envelope.
ACTION_FIELDS = frozenset(
    {
        "action",
        "args",
        "result",
        "dice",
        "entered",
        "changes",
        "saves",
        "follows",
        "dice_version",
        "dice_secret",
        "dice_commitment",
        "roll",
    }
)
#: The fields a stub keeps of its entry (beside ``hidden``).
STUB_FIELDS = ENVELOPE | {"action", "follows", "dice_version", "dice_commitment", "roll"}
#: The fields each entry that is no action adds to the envelope: its declared shape.
BODIES: Mapping[str, frozenset[str]] = {
    "table.open": frozenset(
        {"name", "system", "edition", "rules", "house_rules", "house_rules_digest",
         "physical_dice", "chain", "engine"}
    ),
    "scene.open": frozenset({"commitment", "hidden_commitment"}),
    "scene.close": frozenset({"seed", "seat_seeds"}),
    "scene.hidden-seed": frozenset({"hidden_seed"}),
    "seat.seed": frozenset({"seat", "commitment"}),
    "seat.join": frozenset({"seat", "name", "role"}),
    "character.create": frozenset({"character", "saves"}),
    "character.update": frozenset({"character", "saves"}),
    "character.restore": frozenset({"character", "restored", "saves"}),
    "character.owner": frozenset({"character", "seat", "name"}),
}


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="allow")


class Die(_Part):
    """One die an action rolled: its sides and the face it showed."""

    sides: StrictInt
    face: StrictInt


class Change(_Part):
    """One change an action made, as the play layer reported it: its kind
    (``cogent.combat.declare``, ``character.saved``), the stored thing it concerns and facts."""

    kind: StrictStr
    subject: StrictStr | None = None
    version: StrictInt | None = None
    data: dict[str, Any] = {}


class Save(_Part):
    """One thing an entry saved: its kind (``character``, ``statblock``...), key, the version
    the save made and the data saved."""

    kind: StrictStr
    key: StrictStr
    version: StrictInt
    data: dict[str, Any]

    def name(self) -> str | None:
        """The name the saved thing gives itself (a sheet's identity, a statblock's name)."""
        identity = self.data.get("identity")
        named = identity.get("name") if isinstance(identity, Mapping) else self.data.get("name")
        return named if isinstance(named, str) else None


class LogEntry(BaseModel):
    """One entry of a table's log, as a seat received it (whole, or its stub)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    seq: StrictInt
    #: Its kind (empty only in a bare link: a seat's export of an entry it may not see at all).
    kind: StrictStr = ""
    actor: StrictStr | None = None
    visibility: StrictStr = "public"
    at: StrictStr = ""
    scene: StrictInt | None = None
    prev_hash: StrictStr | None = None
    hash: StrictStr | None = None
    #: A stub: the entry's place without its content.
    hidden: StrictBool = False
    # an action's entry
    action: StrictStr | None = None
    args: dict[str, Any] = {}
    result: dict[str, Any] | None = None
    dice: tuple[Die, ...] = ()
    entered: StrictBool = False
    changes: tuple[Change, ...] = ()
    saves: tuple[Save, ...] = ()
    follows: StrictInt | None = None
    dice_version: StrictInt = 1
    dice_secret: StrictStr | None = None
    dice_commitment: StrictStr | None = None
    # table.open
    #: A table's name (``table.open``), a seat's (``seat.join``), a character's
    #: (``character.owner``).
    name: StrictStr | None = None
    system: StrictStr | None = None
    edition: StrictStr | None = None
    rules: dict[str, Any] = {}
    house_rules: tuple[StrictStr, ...] = ()
    house_rules_digest: StrictStr | None = None
    physical_dice: StrictBool = False
    #: The log's chain version (``taletable.ledger``; none: 1) and what made its results
    #: (``taletable.play.results.engine``; none: a build before it was recorded).
    chain: StrictInt | None = None
    engine: dict[str, Any] | None = None
    #: A stub's or a bare link's hash of the body it stands for (chain version 2).
    body_hash: StrictStr | None = None
    # scenes and seeds (chain version 2: ``taletable.ledger.seats``)
    commitment: StrictStr | None = None
    seed: StrictStr | None = None
    hidden_commitment: StrictStr | None = None
    hidden_seed: StrictStr | None = None
    seat_seeds: dict[str, StrictStr] = {}
    #: An action's place among its seat's rolls (chain version 2).
    roll: StrictInt | None = None
    # seats and characters
    seat: StrictStr | None = None
    role: StrictStr | None = None
    character: StrictStr | None = None
    restored: StrictInt | None = None

    @property
    def is_action(self) -> bool:
        """Whether an action made the entry (its ``action`` is set, whole or stub)."""
        return self.action is not None

    @property
    def is_follow_up(self) -> bool:
        return self.follows is not None

    def arg(self, name: str) -> Any:
        """The argument ``name`` the action was asked with (None when not given)."""
        return self.args.get(name)

    def last_save(self) -> Save | None:
        """The entry's last save (a sheet's entry saves one)."""
        return self.saves[-1] if self.saves else None

    def saved_kinds(self) -> frozenset[str]:
        """The kinds of thing the entry saved (``character``, ``encounter``...)."""
        return frozenset(save.kind for save in self.saves)


def stub_of(event: Mapping[str, Any]) -> dict[str, Any]:
    """What a seat that may not see an entry is given of it: that it happened (its
    :data:`STUB_FIELDS`), marked ``hidden``."""
    return {**{key: event[key] for key in sorted(STUB_FIELDS) if key in event}, "hidden": True}


def stored_forms(event: Mapping[str, Any], chain: int) -> tuple[str, str, str | None]:
    """An exported entry as the ``events`` row stores it: its body (without its hashes) and its
    stub, each as canonical JSON (an import writes back what the export's chain hashed), and
    in chain version 2 the body's hash (which the stub carries too)."""
    body = {key: value for key, value in event.items() if key not in ("prev_hash", "hash")}
    text, stub = canonical_json(body), stub_of(body)
    hashed = body_hash(text) if chain == CHAIN_BODY else None
    if hashed is not None:
        stub["body_hash"] = hashed
    return text, canonical_json(stub), hashed


class MalformedEntry(ValueError):
    """An entry that is not one: its seq (when readable) and what is wrong, naming the field."""

    def __init__(self, seq: int | None, reason: str) -> None:
        super().__init__(reason)
        self.seq = seq
        self.reason = reason


def read_entry(value: Mapping[str, Any] | str | bytes) -> LogEntry:
    """An entry from its JSON text or its parsed mapping; :class:`MalformedEntry` naming the
    first field that is wrong (``args``, ``saves.0.version``...) when it is not one."""
    try:
        if isinstance(value, str | bytes):
            return LogEntry.model_validate_json(value)
        return LogEntry.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "entry"
        seq = value.get("seq") if isinstance(value, Mapping) else None
        number = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
        raise MalformedEntry(number, f"{where}: {first['msg']}") from None
