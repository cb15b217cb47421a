"""Tamper-evident encounters: the steps hash-chained, the whole sealed with a key kept elsewhere.

An encounter saved where a person can edit it (a file at the CLI) carries a ``seal``::

    chain[i] = sha256(chain[i-1] + canonical_json(steps[i]))     chain[-1] = sha256("taletable")
    mac      = HMAC-SHA256(key, canonical_json(encounter without its seal))

``chain`` names the first step that was changed; ``mac`` covers everything else (the state,
the opening, the rules), and cannot be recomputed without the key, which never goes in the
file (the CLI keeps it in the user's config folder, or the narrator gives it). A consistent
forgery (a state recomputed to match edited steps) still fails the ``mac``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from typing import Any

from taletable.errors import DataError
from taletable.ledger import canonical_json

__all__ = ["SEAL_FIELD", "check_seal", "seal"]

#: The field of a saved encounter that holds its seal.
SEAL_FIELD = "seal"
_ROOT = hashlib.sha256(b"taletable").hexdigest()
REFUSED = "refused: an encounter is changed only by taletable's combat commands"


def _chain(steps: Sequence[Any]) -> list[str]:
    links: list[str] = []
    previous = _ROOT
    for step in steps:
        previous = hashlib.sha256((previous + canonical_json(step)).encode()).hexdigest()
        links.append(previous)
    return links


def _mac(key: bytes, body: Mapping[str, Any]) -> str:
    return hmac.new(key, canonical_json(body).encode(), hashlib.sha256).hexdigest()


def seal(data: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    """``data`` (an encounter as JSON data) with its seal."""
    body = {name: value for name, value in data.items() if name != SEAL_FIELD}
    return {**body, SEAL_FIELD: {"chain": _chain(body.get("steps") or ()), "mac": _mac(key, body)}}


def check_seal(data: Mapping[str, Any], key: bytes, *, source: str) -> dict[str, Any]:
    """``data`` without its seal, if the seal holds; else a DataError saying what was edited."""
    body = {name: value for name, value in data.items() if name != SEAL_FIELD}
    stamp = data.get(SEAL_FIELD)
    if not isinstance(stamp, Mapping) or not isinstance(stamp.get("chain"), list):
        raise DataError(source, f"has no seal: it was not written by taletable; {REFUSED}")
    steps = body.get("steps")
    links = _chain(steps if isinstance(steps, list) else ())
    recorded = stamp["chain"]
    for index, link in enumerate(links):
        if index >= len(recorded) or not hmac.compare_digest(str(recorded[index]), link):
            raise DataError(source, f"step {index + 1} was edited after it was played; {REFUSED}")
    if len(recorded) != len(links):
        raise DataError(source, f"steps were removed after they were played; {REFUSED}")
    if not hmac.compare_digest(str(stamp.get("mac", "")), _mac(key, body)):
        raise DataError(
            source,
            "was edited outside taletable (its seal does not match; or it was sealed with "
            f"another key: see TALETABLE_ENCOUNTER_KEY); {REFUSED}",
        )
    return body
