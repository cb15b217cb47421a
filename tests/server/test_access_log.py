"""The access log and the server's log lines (``server/access.py``, ``server/logs.py``): one
line per request with its time, method, path, status, duration, pid and request id (taken from
``X-Request-ID`` when fit, else made, and echoed); JSON lines with ``TALETABLE_LOG_FORMAT``;
and no token, join code, recovery code or cookie in any line, whatever a real server was
sent them in (paths, query strings, forms, headers, bodies)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from taletable.server.access import target
from tests.server.conftest import bearer, start_server

CHECK = {"action": "cogent.check", "args": {"pool": 5, "cl": 2}}
TEXT_LINE = re.compile(
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARNING|ERROR) \S+ pid=\d+ rid=\S+ .*$"
)


def _walk(url: str) -> tuple[set[str], list[str]]:
    """Make a table, join it by the API and the pages (by link and by code alone), recover
    the narrator in a new browser, act with tokens and cookies: the secrets used, and the
    request ids echoed."""
    secrets: set[str] = set()
    echoed: list[str] = []
    with httpx.Client(base_url=url, timeout=10, headers={"Origin": url}) as api:
        made = api.post("/api/tables", json={"name": "Tavern", "system": "cogent"}).json()
        table, token = made["id"], made["narrator_token"]
        code, recovery = made["join_code"], made["recovery_code"]
        secrets |= {token, code, recovery, recovery.replace("-", ""), code.replace("-", "")}
        joined = api.post(f"/api/tables/{table}/join",
                          json={"code": code, "name": "Mara", "role": "player"}).json()  # fmt: skip
        secrets.add(joined["token"])
        traced = {**bearer(joined["token"]), "X-Request-ID": "trace-42"}
        acted = api.post(f"/api/tables/{table}/actions", json=CHECK, headers=traced)
        assert acted.status_code == 201, acted.text
        echoed.append(acted.headers["X-Request-ID"])
        assert echoed[-1] == "trace-42"
        api.post(f"/api/tables/{table}/join", json={"code": "WRONG-CODE1", "name": "X"})
        secrets.add("WRONG-CODE1")
    for step in _page_steps(table, token, code, recovery):
        with httpx.Client(base_url=url, timeout=10, headers={"Origin": url}) as browser:
            for method, path, form in step:
                answer = browser.request(method, path, data=form,
                                         headers={"X-Request-ID": "x" * 65})  # fmt: skip
                assert answer.status_code < 400, (path, answer.text)
                echoed.append(answer.headers["X-Request-ID"])
            secrets |= {value for value in browser.cookies.values() if len(value) > 8}
    return secrets, echoed


def _page_steps(table: str, token: str, code: str, recovery: str) -> list[Any]:
    """Each a browser's requests: the narrator's link, a join by link and by code alone, a
    recovery typed in lower case, each then rolling from its page."""
    roll = ("POST", f"/t/{table}/roll", {"pool": "4", "cl": "2", "mode": "pool"})
    return [
        [("GET", f"/t/{table}/enter?token={token}", None), roll],
        [("GET", f"/join/{table}?code={code}", None),
         ("POST", f"/join/{table}", {"code": code, "name": "Bram", "role": "player"}), roll],
        [("GET", f"/join?code={code.lower()}", None)],
        [("POST", "/recover", {"code": recovery.lower()}), roll],
    ]  # fmt: skip


def test_no_secret_is_ever_logged_and_every_request_is(database_url: str) -> None:
    """Every request is a line (time, level, pid, request id, method, path, status, ms); the
    client's fit X-Request-ID is the line's and the answer's, an unfit one is replaced; no
    secret the walk used appears anywhere in the log, in any case."""
    server = start_server(database_url)
    try:
        secrets, echoed = _walk(server.url)
    finally:
        server.stop()
    log = server.log()
    lowered = log.lower()
    for secret in secrets:
        assert secret.lower() not in lowered, f"a secret in the log: {secret[:4]}..."
    access = [line for line in log.splitlines() if " taletable.access " in line]
    assert all(TEXT_LINE.match(line) for line in log.splitlines() if line), log
    assert len(access) >= 13, log  # every request: the walk's 12 and start-up's probe
    assert any("rid=trace-42 POST /api/tables/" in line and "/actions 201 " in line
               for line in access), log  # fmt: skip
    made = [rid for rid in echoed if rid != "trace-42"]
    assert made and all(len(rid) < 65 and rid != "x" * 65 for rid in made)
    assert all(f"rid={rid} " in log for rid in made)
    assert re.search(r"GET /t/\w+/enter\?token=\*\*\* 303 [\d.]+ms", log), log


def test_the_log_as_json_lines(tmp_path: Any) -> None:
    """TALETABLE_LOG_FORMAT=json: every line is one JSON object with its time, level, logger,
    pid and request id; an access line's fields are typed."""
    server = start_server(f"sqlite:///{tmp_path / 't.db'}",
                          environment={"TALETABLE_LOG_FORMAT": "json"})  # fmt: skip
    try:
        answer = httpx.get(f"{server.url}/readyz?token=abc123456", headers={"X-Request-ID": "r1"})
        assert answer.headers["X-Request-ID"] == "r1"
    finally:
        server.stop()
    lines = [json.loads(line) for line in server.log().splitlines() if line]
    assert all({"time", "level", "logger", "pid", "request_id", "message"} <= set(line)
               for line in lines)  # fmt: skip
    ready = [line for line in lines if line.get("request_id") == "r1"]
    assert ready == [{**ready[0], "method": "GET", "path": "/readyz?token=***", "status": 200}]
    assert isinstance(ready[0]["ms"], float) and ready[0]["logger"] == "taletable.access"


def test_a_logged_target_masks_every_value_but_the_harmless_ones() -> None:
    """Codes and tokens in a query, any name not known, and line breaks are never logged."""
    query = b"after=12&code=K7QX-PM3R&token=s3cr3t&x=%0Afake&pool=5%20"
    scope = {"raw_path": b"/t/abc/stream", "path": "/t/abc/stream", "query_string": query}
    assert target(scope) == "/t/abc/stream?after=12&code=***&token=***&x=***&pool=***"
    assert target({"path": "/a\nb", "query_string": b""}) == "/a\\nb"
