"""The raw bytes a seat's table stream sends, read outside its page (whispers and secrets are
checked on these, not only on what a page shows)."""

from __future__ import annotations

from typing import Any

import httpx


def stream_bytes(table: Any, page: Any) -> bytes:
    """Every byte the table's stream sends the seat of ``page`` (its cookies) from the start,
    read for one second; ``table`` has the server's ``url`` and the table's ``id``."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    received = b""
    with (
        httpx.Client(base_url=table.url, cookies=cookies, timeout=httpx.Timeout(1.0)) as client,
        client.stream("GET", f"/t/{table.id}/stream?after=0") as answer,
    ):
        try:
            for chunk in answer.iter_bytes():
                received += chunk
        except httpx.ReadTimeout:
            pass
    return received
