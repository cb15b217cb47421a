"""Behind a proxy (issue 36.7): forwarded headers are believed only from the addresses of
``TALETABLE_TRUSTED_PROXIES`` (none by default, whatever uvicorn's own default), so the limits
per address follow a forwarded address only from a trusted proxy, and the seat cookie is
``Secure`` when that proxy says the client came over https. Served processes, real requests."""

from __future__ import annotations

from pathlib import Path

import httpx

from taletable.server.settings import Settings
from tests.server.conftest import start_server

#: Two tables an hour per address: the third from one address is refused.
TWO_AN_HOUR = {"TALETABLE_TABLE_LIMIT": "2,1000"}
NEW_TABLE = {"name": "Tavern", "system": "cogent"}


def _make(http: httpx.Client, forwarded_for: str) -> int:
    """The status of making a table with ``X-Forwarded-For: forwarded_for``."""
    answer = http.post("/api/tables", json=NEW_TABLE, headers={"X-Forwarded-For": forwarded_for})
    return answer.status_code


def _seat_cookie(http: httpx.Client, url: str, proto: str) -> str:
    """The Set-Cookie of the seat cookie a browser gets making a table through the start page,
    sent with ``X-Forwarded-Proto: proto``."""
    answer = http.post(
        "/start",
        data={"name": "Tavern", "system": "cogent"},
        headers={"X-Forwarded-Proto": proto, "Origin": f"{proto}://{url.split('://')[1]}"},
    )
    assert answer.status_code == 303, answer.text
    return next(c for c in answer.headers.get_list("set-cookie") if c.startswith("taletable_"))


def test_forwarded_headers_are_not_believed_by_default(tmp_path: Path) -> None:
    """From 127.0.0.1 (uvicorn's own default trusts it) with no setting: a spoofed, rotating
    X-Forwarded-For does not rotate the bucket (the third table is refused, 429 ``tables``), and
    X-Forwarded-Proto: https makes no cookie ``Secure`` (nor counts as the page's origin)."""
    assert Settings().trusted_proxies == ()
    server = start_server(f"sqlite:///{tmp_path / 'direct.db'}", environment=TWO_AN_HOUR)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            statuses = [_make(http, f"203.0.113.{n}") for n in range(1, 4)]
            assert statuses == [201, 201, 429]
            refused = http.post("/api/tables", json=NEW_TABLE)
            assert refused.json()["error"]["field"] == "tables"
            answer = http.post(
                "/start",
                data={"name": "Tavern", "system": "cogent"},
                headers={"X-Forwarded-Proto": "https", "Origin": server.url},
            )
            # the same address's own limit again (the form says so), no cookie at all
            assert answer.status_code == 429
    finally:
        server.stop()


def test_a_trusted_proxys_forwarded_address_and_https_are_believed(tmp_path: Path) -> None:
    """TALETABLE_TRUSTED_PROXIES=127.0.0.1: each forwarded address has a bucket of its own
    (three addresses make a table each, a fourth from the first is fine, its third refused),
    and a table made over https (the proxy says so) gets a ``Secure`` seat cookie, one over
    http does not."""
    environment = {**TWO_AN_HOUR, "TALETABLE_TRUSTED_PROXIES": "127.0.0.1"}
    server = start_server(f"sqlite:///{tmp_path / 'proxied.db'}", environment=environment)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            rotating = [_make(http, f"203.0.113.{n}") for n in range(1, 4)]
            assert rotating == [201, 201, 201]
            assert _make(http, "203.0.113.1") == 201
            assert _make(http, "203.0.113.1") == 429
            # a client's own header is kept first by the proxy: the proxy's view (last) counts
            assert _make(http, "203.0.113.1, 198.51.100.7") == 201
            with httpx.Client(base_url=server.url, timeout=10) as browser:
                browser.headers["X-Forwarded-For"] = "198.51.100.20"
                secure = _seat_cookie(browser, server.url, "https")
            with httpx.Client(base_url=server.url, timeout=10) as browser:
                browser.headers["X-Forwarded-For"] = "198.51.100.21"
                plain = _seat_cookie(browser, server.url, "http")
    finally:
        server.stop()
    assert "secure" in secure.lower().split("; ")
    assert "secure" not in plain.lower().split("; ")
