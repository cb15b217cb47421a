"""A forger's tools, written from the ledger's documented formulas (not the ledger's code): an
export's hashes recomputed after an edit, in its chain's version."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def link(previous: str, event: dict[str, Any], chain: int) -> str:
    """The hash ``event`` gets after ``previous``: version 1 ``sha256(prev + body)``; version 2
    ``sha256(prev ":" public|hidden ":" sha256(body))`` (a stub: its ``body_hash``)."""
    body = {key: value for key, value in event.items() if key not in ("prev_hash", "hash")}
    if chain == 1:
        return hashlib.sha256((previous + _canonical(body)).encode()).hexdigest()
    if event.get("hidden") is True:
        hashed, public = str(event["body_hash"]), False
    else:
        hashed = hashlib.sha256(_canonical(body).encode()).hexdigest()
        public = event.get("visibility") == "public"
    marker = "public" if public else "hidden"
    return hashlib.sha256(f"{previous}:{marker}:{hashed}".encode()).hexdigest()


def rechain(export: dict[str, Any], start: int = 0) -> None:
    """Recompute every hash from event ``start`` (an index) on, as a forger would."""
    events = export["events"]
    chain = int(events[0].get("chain", 1))
    previous = events[start]["prev_hash"]
    for event in events[start:]:
        event["prev_hash"] = previous
        event["hash"] = previous = link(previous, event, chain)
