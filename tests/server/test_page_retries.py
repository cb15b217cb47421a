"""Safe retries from the pages (issue 34.7): a page's change sent again under its key (the
``Idempotency-Key`` header the pages' script sends, or the form field ``idempotency_key``)
logs one event and says what the first did; the same key with another form says why not and
changes nothing; the wizard's request of several actions replays each; every page that
posts a change loads the script that sends the key."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from tests.server.conftest import Seats
from tests.server.test_pages_rolls import _seated
from tests.server.test_retries import head

HTMX = {"HX-Request": "true"}
ROLL = {"mode": "pool", "pool": "4", "cl": "2", "visibility": "public"}


def _said(text: str) -> str:
    found = re.search(r"Rolled \(#(\d+)\)", html.unescape(text))
    assert found is not None, text
    return found.group(1)


def test_a_roll_sent_twice_under_its_key_logs_one_event(client: TestClient, table: Seats) -> None:
    mara = _seated(client, table, table.mara)
    before = head(client, table)
    sent = [
        mara.post(f"/t/{table.id}/roll", data=ROLL, headers={**HTMX, "Idempotency-Key": "p-1"})
        for _ in range(3)
    ]
    assert {_said(answer.text) for answer in sent} == {str(before + 1)}
    assert head(client, table) == before + 1
    fresh = mara.post(f"/t/{table.id}/roll", data=ROLL, headers={**HTMX, "Idempotency-Key": "p-2"})
    assert _said(fresh.text) == str(before + 2)


def test_the_key_may_come_as_a_form_field(client: TestClient, table: Seats) -> None:
    mara = _seated(client, table, table.mara)
    before = head(client, table)
    form = {**ROLL, "idempotency_key": "form-key"}
    first = mara.post(f"/t/{table.id}/roll", data=form, headers=HTMX)
    again = mara.post(f"/t/{table.id}/roll", data=form, headers=HTMX)
    assert _said(first.text) == _said(again.text) == str(before + 1)
    assert head(client, table) == before + 1


def test_a_key_sent_with_another_form_changes_nothing(client: TestClient, table: Seats) -> None:
    mara = _seated(client, table, table.mara)
    keyed = {**HTMX, "Idempotency-Key": "p-3"}
    mara.post(f"/t/{table.id}/roll", data=ROLL, headers=keyed)
    before = head(client, table)
    other = mara.post(f"/t/{table.id}/roll", data={**ROLL, "pool": "6"}, headers=keyed)
    assert 'role="alert"' in other.text and "used for another request" in other.text
    assert head(client, table) == before


def test_a_bad_key_from_a_page_is_refused_naming_the_header(
    client: TestClient, table: Seats
) -> None:
    mara = _seated(client, table, table.mara)
    before = head(client, table)
    refused = mara.post(f"/t/{table.id}/roll", data={**ROLL, "idempotency_key": "a b"},
                        headers=HTMX)  # fmt: skip
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "Idempotency-Key"
    assert head(client, table) == before


def test_a_chat_message_sent_twice_is_said_once(client: TestClient, table: Seats) -> None:
    mara = _seated(client, table, table.mara)
    before = head(client, table)
    keyed = {**HTMX, "Idempotency-Key": "say-1"}
    for _ in range(2):
        said = mara.post(f"/t/{table.id}/chat", data={"text": "Hello"}, headers=keyed)
        assert f"Said (#{before + 1})" in said.text
    assert head(client, table) == before + 1


def test_every_page_loads_the_script_that_sends_the_key(client: TestClient, table: Seats) -> None:
    page = _seated(client, table, table.mara).get(f"/t/{table.id}").text
    assert '<script src="/static/retry.js"></script>' in page
    script = client.get("/static/retry.js")
    assert script.status_code == 200 and "Idempotency-Key" in script.text
