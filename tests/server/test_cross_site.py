"""Cross-site login (issue "Trust, round two"): a form post that would seat a browser (making
a table, joining one, recovering the narrator's seat) is refused unless the server's own page
sent it, as every change sent with a seat cookie is; so another site cannot seat a browser as
the seat it made or joined."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from taletable.server.schema import SEATS, TABLES

from .conftest import SAME_ORIGIN, Seats

OTHER_SITE = {"Origin": "https://evil.example"}
NO_ORIGIN: dict[str, str] = {}
HTMX = {"HX-Request": "true"}
CROSS_SITE = "sent from another site"


def _count(client: TestClient, table: object) -> int:
    with client.app.state.world.database.read() as connection:  # type: ignore[attr-defined]
        return len(connection.execute(select(table)).all())  # type: ignore[call-overload]


def _recovery_code(client: TestClient) -> tuple[str, str]:
    """A table made from the start page: its id and its recovery code (from the made page)."""
    made = client.post("/start", data={"name": "Keep", "system": "cogent"}, headers=SAME_ORIGIN)
    assert made.status_code == 200, made.text
    table_id = re.search(r'href="/t/([0-9a-f]+)"', made.text).group(1)  # type: ignore[union-attr]
    code = re.search(r"[2-9A-HJKMNP-Z]{5}(?:-[2-9A-HJKMNP-Z]{5}){3}", made.text)
    assert code is not None
    return table_id, code.group(0)


@pytest.mark.parametrize("headers", [OTHER_SITE, NO_ORIGIN], ids=["other-site", "no-origin"])
def test_a_join_from_another_site_seats_no_one(
    client: TestClient, table: Seats, headers: dict[str, str]
) -> None:
    """``POST /join/{id}`` with the right code from another origin (or with no origin and no
    htmx header) is 403, says why, sets no cookie and adds no seat; the same post from the
    page's own origin joins (303 and the cookie)."""
    form = {"code": table.join_code, "name": "Mallory", "role": "player"}
    seats = _count(client, SEATS)
    refused = client.post(f"/join/{table.id}", data=form, headers=headers, follow_redirects=False)
    assert refused.status_code == 403, refused.text
    assert CROSS_SITE in html.unescape(refused.text)
    assert "set-cookie" not in refused.headers
    assert _count(client, SEATS) == seats
    joined = client.post(f"/join/{table.id}", data=form, headers=SAME_ORIGIN,
                         follow_redirects=False)  # fmt: skip
    assert joined.status_code == 303 and "set-cookie" in joined.headers
    assert _count(client, SEATS) == seats + 1


@pytest.mark.parametrize("headers", [OTHER_SITE, NO_ORIGIN], ids=["other-site", "no-origin"])
def test_a_recovery_from_another_site_seats_no_one(
    client: TestClient, headers: dict[str, str]
) -> None:
    """``POST /recover`` with a good recovery code from another origin is 403 with no cookie;
    from the page's own origin (or htmx) it seats the narrator."""
    table_id, code = _recovery_code(client)
    client.cookies.clear()
    refused = client.post("/recover", data={"code": code}, headers=headers,
                          follow_redirects=False)  # fmt: skip
    assert refused.status_code == 403, refused.text
    assert CROSS_SITE in html.unescape(refused.text)
    assert "set-cookie" not in refused.headers
    for own in (SAME_ORIGIN, HTMX):
        client.cookies.clear()
        back = client.post("/recover", data={"code": code}, headers=own, follow_redirects=False)
        assert back.status_code == 303 and back.headers["location"] == f"/t/{table_id}"
        assert "set-cookie" in back.headers


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_table_made_from_another_site_is_not_made(client: TestClient) -> None:
    """``POST /start`` from another origin makes no table and sets no cookie (it would seat the
    browser as the narrator of a table another site holds the codes of)."""
    tables = _count(client, TABLES)
    refused = client.post("/start", data={"name": "Trap", "system": "cogent"},
                          headers=OTHER_SITE, follow_redirects=False)  # fmt: skip
    assert refused.status_code == 403 and "set-cookie" not in refused.headers
    assert _count(client, TABLES) == tables
