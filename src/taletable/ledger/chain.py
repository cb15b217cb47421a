"""The chain of a table's log: canonical JSON, the genesis, and each entry's hash, in the
chain's two versions (the format: :mod:`taletable.ledger`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

__all__ = [
    "CHAIN_BODY",
    "CHAIN_TEXT",
    "body_hash",
    "canonical_json",
    "event_hash",
    "genesis_hash",
    "link_hash",
    "text_hash",
]

#: Chain version 1: each hash covers the one before and the entry's canonical JSON (a stub's
#: hash cannot be recomputed by a seat that sees only the stub).
CHAIN_TEXT = 1
#: Chain version 2: each hash covers the one before, whether the entry is public, and the hash
#: of its body, which a stub carries: any seat recomputes every link of its own export.
CHAIN_BODY = 2


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON: sorted keys, no spaces, non-ASCII kept as UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def genesis_hash(table_id: str) -> str:
    """The ``prev_hash`` of a table's first event: the SHA-256 of ``taletable:TABLE_ID``."""
    return hashlib.sha256(f"taletable:{table_id}".encode()).hexdigest()


def event_hash(prev_hash: str, event: Mapping[str, Any]) -> str:
    """``sha256(prev_hash + canonical_json(event))`` as hex, ``event`` without its hashes
    (chain version 1)."""
    body = {key: value for key, value in event.items() if key not in ("prev_hash", "hash")}
    return text_hash(prev_hash, canonical_json(body))


def text_hash(prev_hash: str, text: str) -> str:
    """:func:`event_hash` of an event already written as canonical JSON (without its hashes)."""
    return hashlib.sha256((prev_hash + text).encode()).hexdigest()


def body_hash(text: str) -> str:
    """The hash of an entry's body, its canonical JSON without its hashes (chain version 2)."""
    return hashlib.sha256(text.encode()).hexdigest()


def link_hash(prev_hash: str, public: bool, body: str) -> str:
    """An entry's hash in chain version 2: ``sha256(PREV_HASH ":" public|hidden ":"
    BODY_HASH)``. Whether the entry is public is bound, so a public entry cannot be passed off
    as hidden in a seat's export."""
    return hashlib.sha256(
        f"{prev_hash}:{'public' if public else 'hidden'}:{body}".encode()
    ).hexdigest()
