"""Safe retries (issue 34.7): an action sent again under the same ``Idempotency-Key`` by the
same seat gets its first answer, and nothing is written again.

A client whose answer was lost (a worker killed, a phone's connection dropped) cannot tell
whether its action was taken; it sends the same request again with the same key. The key is
recorded in the action's own write transaction (:data:`~taletable.server.schema.RETRIES`,
migration 0008), after the table's lock, so a retry on any worker, even one racing the first,
waits for that lock and then finds the key: it is answered with the first answer (the same
status and body) and no event. The same key with another request is refused (422 naming
``Idempotency-Key``) and changes nothing. A key is the seat's own: another seat's same key is
another action.

* The key: 1 to 128 of ``A-Z a-z 0-9 . _ : + / = -`` (a UUID, a base64 token), checked before
  any work (422 ``Idempotency-Key`` otherwise). The API takes it from the header; the pages
  from the same header, which their script sends with every change (``static/retry.js``), or
  from a form field ``idempotency_key``.
* Kept at least :data:`KEEP_SECONDS` (24 hours): a table's older keys are deleted by its next
  action taken under a key, and every key of a table with the table (``deletion.TABLE_ROWS``).
* Only a taken action is remembered: one refused (4xx) wrote nothing, and is checked afresh
  when sent again. A read (odds) writes nothing either, so its key is checked and not kept.
* A page request may take several actions (the wizard's steps): its first is kept under the
  key, the n-th after under ``KEY#n``, so its retry replays each.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from sqlalchemy import Connection, bindparam, delete, select
from starlette.datastructures import UploadFile

from taletable.ledger import canonical_json
from taletable.server.errors import ApiError
from taletable.server.schema import EVENTS, RETRIES
from taletable.server.visibility import Row

__all__ = [
    "FORM_FIELD",
    "HEADER",
    "KEEP_SECONDS",
    "RetryKey",
    "Taken",
    "first_answer",
    "page_retry",
    "remember",
    "request_fingerprint",
    "retry_key",
]

#: The header that names a request's key (as the IETF's draft and Stripe's API call it).
HEADER = "Idempotency-Key"
#: The form field a page's form may send it in instead.
FORM_FIELD = "idempotency_key"
#: How long a key is kept at least (seconds): 24 hours.
KEEP_SECONDS = 24 * 3600
_KEY = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")
KEY_TEXT = "1 to 128 letters, digits, '.', '_', ':', '+', '/', '=' or '-' (a UUID will do)"

_FIRST = (
    select(RETRIES.c.fingerprint, RETRIES.c.status, RETRIES.c.answer, EVENTS.c.event)
    .join(EVENTS, (EVENTS.c.table_id == RETRIES.c.table_id) & (EVENTS.c.seq == RETRIES.c.seq))
    .where(
        (RETRIES.c.table_id == bindparam("table_id"))
        & (RETRIES.c.seat_id == bindparam("seat_id"))
        & (RETRIES.c.key == bindparam("key"))
    )
)
_OLD = delete(RETRIES).where(
    (RETRIES.c.table_id == bindparam("table_id")) & (RETRIES.c.made_at < bindparam("before"))
)


def request_fingerprint(request: Any) -> str:
    """The SHA-256 of a request as canonical JSON: what a retry under the same key must equal."""
    return hashlib.sha256(canonical_json(request).encode()).hexdigest()


@dataclass
class RetryKey:
    """A request's key and fingerprint; ``taken`` counts the actions taken under it so far."""

    key: str
    fingerprint: str
    taken: int = field(default=0, compare=False)

    def next_slot(self) -> str:
        """The key the next action of this request is kept under (``KEY``, then ``KEY#2``...)."""
        self.taken += 1
        return self.key if self.taken == 1 else f"{self.key}#{self.taken}"


def retry_key(value: str | None, request: Any) -> RetryKey | None:
    """The key sent (None for none), with ``request``'s fingerprint; 422 naming the header for
    a key that is too long or holds other characters (checked before any work)."""
    if value is None:
        return None
    if not _KEY.fullmatch(value):
        raise ApiError(HEADER, f"an {HEADER} is {KEY_TEXT}; send one such, or none")
    return RetryKey(value, request_fingerprint(request))


@dataclass(frozen=True)
class Taken:
    """An action taken (or its first taking, on a retry): its whole entry, the rows written
    now (none on a retry), and what the API answers the seat (its status and body)."""

    event: dict[str, Any] | str
    rows: list[Row]
    answer: str
    status: int = 201


def first_answer(
    connection: Connection, table_id: str, seat_id: str, slot: str, retry: RetryKey
) -> Taken | None:
    """The first taking of the action kept under ``slot`` by this seat, or None (a new key);
    422 naming the header when the key was used for another request (nothing is changed).
    Call after the table's lock, in the write's transaction."""
    values = {"table_id": table_id, "seat_id": seat_id, "key": slot}
    first = connection.execute(_FIRST, values).first()
    if first is None:
        return None
    if first.fingerprint != retry.fingerprint:
        raise ApiError(
            HEADER,
            f"this {HEADER} was used for another request by this seat; a retry must send the "
            "same request, and a new request a new key (nothing was done)",
        )
    return Taken(str(first.event), [], str(first.answer), int(first.status))


def remember(
    connection: Connection, table_id: str, seat_id: str, slot: str, retry: RetryKey, taken: Taken
) -> None:
    """Keep ``slot`` with the answer of the action just taken under it, in the same
    transaction as its event; the table's keys older than :data:`KEEP_SECONDS` go."""
    moment = time.time()
    connection.execute(_OLD, {"table_id": table_id, "before": moment - KEEP_SECONDS})
    row = taken.rows[-1]
    connection.execute(
        RETRIES.insert(),
        {"table_id": table_id, "seat_id": seat_id, "key": slot, "fingerprint": retry.fingerprint,
         "seq": row.seq, "status": taken.status, "answer": taken.answer, "made_at": moment},
    )  # fmt: skip


async def page_retry(request: Request) -> RetryKey | None:
    """The key a page's change was sent with (its header, else its form's ``idempotency_key``),
    its fingerprint that of the path and the form's other fields; None for a read (GET)."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    value = request.headers.get(HEADER)
    kind = request.headers.get("content-type", "")
    fields: list[tuple[str, str]] = []
    if kind.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        form = await request.form()  # kept by Starlette: the page reads the same form
        for name, given in form.multi_items():
            if name == FORM_FIELD:
                value = value or str(given)
            elif isinstance(given, UploadFile):
                fields.append((name, f"{given.filename}:{given.size}"))
            else:
                fields.append((name, str(given)))
    return retry_key(value, {"path": request.url.path, "form": sorted(fields)})
