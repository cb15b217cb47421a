"""Making tables is bounded per client address and in all (DESIGN > Principles 8 and 14):
past either bound the API and the Start page answer 429 with ``Retry-After`` and make
nothing (``limits.TablesMade``, ``TALETABLE_TABLE_LIMIT``)."""

from __future__ import annotations

import html
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from taletable.errors import InputError
from taletable.server import create_app
from taletable.server.limits import Limits
from taletable.server.schema import TABLES
from taletable.server.settings import Settings, TableLimit
from tests.server.conftest import SAME_ORIGIN

BODY = {"name": "Inn", "system": "boons"}


def tables_in(database_url: str) -> int:
    """How many tables the database holds."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(TABLES)).scalar_one())
    finally:
        engine.dispose()


def bounded(per_address: int, overall: int) -> Limits:
    """Requests free, tables bounded as given (an hour's worth each)."""
    return Limits(rate=10_000, burst=10_000, tables_per_address=per_address,
                  tables_overall=overall)  # fmt: skip


def refused(answer: Any, *, field: str = "tables") -> str:
    """The 429's message; it carries ``Retry-After`` (whole seconds, at least 1)."""
    assert answer.status_code == 429, answer.text
    wait = answer.headers.get("retry-after")
    assert wait is not None and wait.isdigit() and int(wait) >= 1, wait
    if answer.headers["content-type"].startswith("application/json"):
        assert answer.json()["error"]["field"] == field
        return str(answer.json()["error"]["message"])
    return html.unescape(answer.text)


def test_one_address_makes_so_many_tables_an_hour(database_url: str) -> None:
    """From one address the third table of a bound of 2 is 429 (API and Start page alike),
    nothing made; another address still makes one."""
    app = create_app(database_url, limits=bounded(2, 100))
    before = tables_in(database_url)  # the session's PostgreSQL database holds others'
    with (
        TestClient(app, client=("10.2.0.1", 5000)) as one,
        TestClient(app, client=("10.2.0.2", 5000)) as two,
    ):
        assert [one.post("/api/tables", json=BODY).status_code for _ in range(2)] == [201, 201]
        message = refused(one.post("/api/tables", json=BODY))
        assert "2 tables an hour were made from this address" in message
        page = one.post("/start", data={"name": "Inn", "system": "boons"}, headers=SAME_ORIGIN,
                        follow_redirects=False)  # fmt: skip
        assert "2 tables an hour were made from this address" in refused(page)
        assert tables_in(database_url) == before + 2
        assert two.post("/api/tables", json=BODY).status_code == 201


def test_all_addresses_together_make_so_many_tables_an_hour(database_url: str) -> None:
    """Three addresses, each under its own bound, share the server's bound of 3: the fourth
    table, from a fourth address, is 429 naming the server, nothing made."""
    app = create_app(database_url, limits=bounded(10, 3))
    before = tables_in(database_url)
    for n in range(3):
        with TestClient(app, client=(f"10.3.0.{n + 1}", 5000)) as client:
            assert client.post("/api/tables", json=BODY).status_code == 201
    with TestClient(app, client=("10.3.0.9", 5000)) as late:
        message = refused(late.post("/api/tables", json=BODY))
        assert "3 tables an hour were made on this server" in message
        page = late.post("/start", data={"name": "Inn", "system": "boons"}, headers=SAME_ORIGIN,
                         follow_redirects=False)  # fmt: skip
        assert "made on this server" in refused(page)
    assert tables_in(database_url) == before + 3


def test_the_default_bound_is_30_an_hour_per_address_and_600_in_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The documented defaults, and TALETABLE_TABLE_LIMIT=PER_ADDRESS,OVERALL changes them; a
    bad value is one InputError naming the variable."""
    monkeypatch.delenv("TALETABLE_TABLE_LIMIT", raising=False)
    limits = Limits.from_settings(Settings.from_environment())
    assert (limits.tables_per_address, limits.tables_overall) == (30, 600)
    monkeypatch.setenv("TALETABLE_TABLE_LIMIT", "5,50")
    assert Settings.from_environment().table_limit == TableLimit(per_address=5, overall=50)
    for bad in ("5", "0,10", "x,y", "5,50,7", "-1,3"):
        monkeypatch.setenv("TALETABLE_TABLE_LIMIT", bad)
        with pytest.raises(InputError) as caught:
            Settings.from_environment()
        assert caught.value.field == "TALETABLE_TABLE_LIMIT" and "PER_ADDRESS,OVERALL" in str(
            caught.value
        )
