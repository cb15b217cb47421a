"""Smaller holes (issue 22, point 8): a NUL in a name, page paths no table id can have, a seat
link with a wrong token, the security headers, and the open streams one seat may hold."""

from __future__ import annotations

import contextlib
import html
import re
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from taletable.server.cookies import cookie_name
from taletable.server.limits import Limits

from .conftest import SAME_ORIGIN, LiveServer, Seats, bearer, make_table

NUL = "a\x00b"


def test_a_nul_in_a_table_name_is_a_422_naming_the_field(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"name": NUL, "system": "cogent"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == "name"
    assert "NUL" in answer.json()["error"]["message"]


def test_a_nul_in_a_seat_name_or_a_code_is_a_422_naming_the_field(
    client: TestClient, table: Seats
) -> None:
    join = f"/api/tables/{table.id}/join"
    seat = client.post(join, json={"code": table.join_code, "name": NUL, "role": "player"})
    assert seat.status_code == 422 and seat.json()["error"]["field"] == "name", seat.text
    code = client.post(join, json={"code": NUL, "name": "Mara", "role": "player"})
    assert code.status_code == 422 and code.json()["error"]["field"] == "code", code.text
    new_code = client.put(
        f"/api/tables/{table.id}/join-code", json={"code": NUL * 4}, headers=table.narrator
    )
    assert new_code.status_code == 422 and new_code.json()["error"]["field"] == "code"
    seats = client.get(f"/api/tables/{table.id}", headers=table.narrator).json()["seats"]
    assert len(seats) == 4  # nothing was added


def test_the_pages_forms_refuse_a_nul_in_words(client: TestClient, table: Seats) -> None:
    made = client.post("/start", data={"name": NUL, "system": "cogent"}, headers=SAME_ORIGIN)
    assert made.status_code == 422 and "NUL" in made.text
    joined = client.post(
        f"/join/{table.id}",
        data={"code": table.join_code, "name": NUL, "role": "player"},
        headers=SAME_ORIGIN,
    )
    assert joined.status_code == 422 and "NUL" in joined.text
    assert "set-cookie" not in joined.headers


def test_an_import_with_a_nul_in_its_name_or_a_bad_id_is_refused(
    client: TestClient, table: Seats
) -> None:
    document = client.get(f"/api/tables/{table.id}/export", headers=table.narrator).json()
    for field, value in (("name", NUL), ("id", "a;b")):
        changed = {**document, "table": {**document["table"], field: value}}
        answer = client.post("/api/tables/import", json=changed)
        assert answer.status_code in (409, 422), answer.text


BAD_IDS = ("a;b", "a%20b", "%22x", "%C3%A9", "a%00b", "x%27y")


@pytest.mark.parametrize("bad", BAD_IDS)
def test_a_page_path_no_table_id_can_hold_is_never_a_500(client: TestClient, bad: str) -> None:
    paths = (
        f"/t/{bad}",
        f"/t/{bad}/stream",
        f"/t/{bad}/enter?token=abc",
        f"/join/{bad}",
        f"/join/{bad}?code=x",
        f"/api/tables/{bad}",
        f"/api/tables/{bad}/stream",
    )
    for path in paths:
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code in (303, 401, 404), (path, answer.status_code, answer.text)
        assert "set-cookie" not in answer.headers, path
    body = {"code": "x", "name": "Mara", "role": "player"}
    for answer in (
        client.post(f"/join/{bad}", data=body, headers=SAME_ORIGIN),
        client.post(f"/api/tables/{bad}/join", json=body),
    ):
        assert answer.status_code == 404, answer.text


@pytest.mark.parametrize("token", ["a;b", "%22", "%C3%A9", "a%00b", "a%20b", ""])
def test_a_seat_link_with_a_token_of_no_seat_says_so_and_sets_no_cookie(
    client: TestClient, table: Seats, token: str
) -> None:
    answer = client.get(f"/t/{table.id}/enter?token={token}", follow_redirects=False)
    assert answer.status_code == 404, answer.text
    assert "not valid" in html.unescape(answer.text)
    assert "set-cookie" not in answer.headers


def test_a_seat_link_of_another_table_seats_no_one(client: TestClient, table: Seats) -> None:
    """A link made by another site (its maker's token, of its own table) keeps nothing."""
    other = client.post("/api/tables", json={"name": "Elsewhere", "system": "cogent"}).json()
    answer = client.get(
        f"/t/{table.id}/enter?token={other['narrator_token']}", follow_redirects=False
    )
    assert answer.status_code == 404 and "set-cookie" not in answer.headers


def test_the_narrators_link_still_seats_the_narrator(client: TestClient, table: Seats) -> None:
    token = table.narrator["Authorization"].removeprefix("Bearer ")
    answer = client.get(f"/t/{table.id}/enter?token={token}", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/t/{table.id}"
    assert cookie_name(table.id) in answer.headers["set-cookie"]
    assert client.get(f"/api/tables/{table.id}").json()["seat"]["role"] == "narrator"
    assert bearer(token) == table.narrator


def test_a_seat_holds_at_most_its_limit_of_open_streams(live_server: LiveServer) -> None:
    """The cap's streams open, the next is 429 with Retry-After, another seat is not counted
    with it, and a stream that ends frees its place."""
    most = Limits().streams_per_seat
    with httpx.Client(base_url=live_server.url, timeout=httpx.Timeout(10, read=None)) as http:
        table = make_table(http)
        url = f"/api/tables/{table.id}/stream"
        with contextlib.ExitStack() as held:
            streams = []
            for _ in range(most):
                stream = held.enter_context(http.stream("GET", url, headers=table.mara))
                assert stream.status_code == 200
                streams.append(stream)
            refused = http.get(url, headers=table.mara)
            assert refused.status_code == 429, refused.text
            assert int(refused.headers["retry-after"]) >= 1
            assert refused.json()["error"]["field"] == "authorization"
            with http.stream("GET", url, headers=table.bram) as other:
                assert other.status_code == 200
            streams[0].close()
            deadline = time.monotonic() + 10
            while True:
                with http.stream("GET", url, headers=table.mara) as again:
                    if again.status_code == 200:
                        break
                assert time.monotonic() < deadline, "a closed stream never freed its place"
                time.sleep(0.2)


SECURITY_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


def _has_security_headers(answer: httpx.Response) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers.get(name) == value, (answer.request.url, name)
    policy = answer.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_every_answer_has_the_security_headers(client: TestClient, table: Seats) -> None:
    """A page, an API answer, a static file, errors (404, 401, 422, 413) and a redirect."""
    answers = [
        client.get("/"),
        client.get(f"/api/tables/{table.id}", headers=table.narrator),
        client.get("/static/table.js"),
        client.get("/api/tables/nope", headers=table.narrator),
        client.get(f"/api/tables/{table.id}"),
        client.post("/api/tables", json={"name": ""}),
        client.post("/api/tables", content=b"x" * (300 * 1024)),
        client.get(f"/t/{table.id}", follow_redirects=False),
        client.get("/no/such/page"),
    ]
    assert [answer.status_code for answer in answers] == [
        200, 200, 200, 404, 401, 422, 413, 303, 404
    ]  # fmt: skip
    for answer in answers:
        _has_security_headers(answer)


TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "taletable" / "server" / "templates"


def test_no_template_holds_an_inline_script_or_handler() -> None:
    """The policy forbids inline script: every script is a file of ``static/``."""
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        for script in re.findall(r"<script\b[^>]*>(.*?)</script>", text, flags=re.S):
            assert not script.strip(), template.name
        assert not re.search(r"\s(on[a-z]+|hx-on[:-][^=\s]*)\s*=", text), template.name
        assert not re.search(r"<style\b|\sstyle\s*=", text), template.name


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_500_has_the_security_headers_too(database_url: str) -> None:
    """An unexpected exception (a bug) is answered by the outermost layer of the application,
    outside the headers' middleware: its 500 carries the headers all the same, and the JSON
    error shape with no traceback."""
    from taletable.server import create_app
    from tests.server.conftest import TEST_LIMITS

    app = create_app(database_url, limits=TEST_LIMITS)

    def broken() -> None:
        raise RuntimeError("a bug's secret detail")

    app.add_api_route("/api/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/api/broken")
    assert answer.status_code == 500
    assert answer.json() == {"error": {"field": None, "message": "internal error (a bug)"}}
    assert "secret detail" not in answer.text
    _has_security_headers(answer)
