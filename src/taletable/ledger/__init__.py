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

Chain version 2 (``"chain": 2`` in the table's opening entry, every table made since)
    A stub's hash above cannot be recomputed by the seat that holds only the stub, so a
    doctored seat's export could re-link a stub to a changed entry before it. In version 2::

        body_hash = sha256(canonical_json(event))
        hash      = sha256(prev_hash + ":" + ("public" or "hidden") + ":" + body_hash)

    and every stub (a blind roll's, for its roller) and every bare link in a seat's export
    carries its ``body_hash``: a seat recomputes every link of its own export, and an entry
    that was public cannot be passed off as hidden. An action's entry that is not public must
    have its own dice (``dice_version`` 2): a table of version 2 refuses the seed-only dice of
    version 1 for it. A log whose opening entry names no chain is version 1, checked as before.

A seat's view
    The narrator's export holds every event whole. A player's or observer's export holds the
    events it may not see as their stubs (``hidden: true``): the common fields, ``seq``,
    ``prev_hash`` and ``hash``, never the content. A stub's own hash cannot be recomputed, so
    :func:`verify_export` takes it (in chain version 1) as an opaque link: its ``prev_hash``
    must be the hash before it and the next event must chain from its ``hash``; in version 2
    its hash is recomputed from its ``body_hash``. Every whole event is checked in full.
"""

from taletable.ledger.chain import (
    CHAIN_BODY,
    CHAIN_TEXT,
    body_hash,
    canonical_json,
    event_hash,
    genesis_hash,
    link_hash,
    text_hash,
)
from taletable.ledger.dice import (
    HIDDEN_DICE,
    LedgerDice,
    commitment,
    derive_face,
    hidden_dice_fields,
    hidden_key,
)
from taletable.ledger.export_file import EXPORT_LIMITS, ExportFile, ExportLimits, LimitExceeded
from taletable.ledger.verify import EXPORT_FORMAT, Verification, verify_export

__all__ = [
    "CHAIN_BODY",
    "CHAIN_TEXT",
    "EXPORT_FORMAT",
    "EXPORT_LIMITS",
    "HIDDEN_DICE",
    "ExportFile",
    "ExportLimits",
    "LedgerDice",
    "LimitExceeded",
    "Verification",
    "body_hash",
    "canonical_json",
    "commitment",
    "derive_face",
    "event_hash",
    "genesis_hash",
    "hidden_dice_fields",
    "hidden_key",
    "link_hash",
    "text_hash",
    "verify_export",
]
