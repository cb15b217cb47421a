"""Guessing a code is bounded whatever the number of addresses (server/limits.py ``Guesses``;
README "Live table limits"), and every 429 says when to come back (``Retry-After``, RFC 9110
10.2.3), from the API and from the pages alike."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient

from taletable.server import create_app
from taletable.server.limits import Limits

from .conftest import SAME_ORIGIN, make_table

#: Requests are free; wrong codes are few: 3 in all, 2 at one table, refilled slowly.
FEW_GUESSES = Limits(
    rate=10_000,
    burst=10_000,
    guess_rate=0.001,
    guess_burst=3,
    table_guess_rate=0.001,
    table_guess_burst=2,
)
_addresses = (f"10.1.{n // 250}.{n % 250 + 1}" for n in itertools.count())


@contextmanager
def _from_a_new_address(app: object) -> Iterator[TestClient]:
    """A client from an address that has sent nothing yet (a guesser with many addresses)."""
    with TestClient(app, client=(next(_addresses), 5000)) as client:  # type: ignore[arg-type]
        yield client


def _retry_after(answer: object) -> int:
    value = answer.headers.get("retry-after")  # type: ignore[attr-defined]
    assert value is not None and value.isdigit() and int(value) >= 1, value
    return int(value)


def test_wrong_join_codes_from_many_addresses_slow_every_guesser(database_url: str) -> None:
    """Two wrong codes at a table, each from its own address, empty the table's bucket: the
    next try there (even with the right code, from a new address) is 429 ``code`` with
    ``Retry-After`` before the code is compared, and no seat is added; another table still
    seats a player, until the server's bucket (3 wrong codes in all) is empty too."""
    app = create_app(database_url, limits=FEW_GUESSES)
    with _from_a_new_address(app) as maker:
        table, other = make_table(maker), make_table(maker)
    for code in ("WRONG-1", "WRONG-2"):
        with _from_a_new_address(app) as guesser:
            answer = guesser.post(
                f"/api/tables/{table.id}/join", json={"code": code, "name": "Eve", "role": "player"}
            )
            assert answer.status_code == 403, answer.text
    with _from_a_new_address(app) as late:
        right = {"code": table.join_code, "name": "Late", "role": "player"}
        refused = late.post(f"/api/tables/{table.id}/join", json=right)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["field"] == "code"
        assert "at this table" in refused.json()["error"]["message"]
        _retry_after(refused)
        seats = late.get(f"/api/tables/{table.id}", headers=table.narrator).json()["seats"]
        assert "Late" not in [seat["name"] for seat in seats]
        joined = late.post(f"/api/tables/{other.id}/join", json={**right, "code": other.join_code})
        assert joined.status_code == 201, joined.text
    with _from_a_new_address(app) as guesser:
        wrong = guesser.post(
            f"/api/tables/{other.id}/join",
            json={"code": "WRONG-3", "name": "Eve", "role": "player"},
        )
        assert wrong.status_code == 403
    with _from_a_new_address(app) as late:
        refused = late.post(
            f"/api/tables/{other.id}/join",
            json={"code": other.join_code, "name": "Later", "role": "player"},
        )
        assert refused.status_code == 429 and "at this server" in refused.text
        _retry_after(refused)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_codes_alone_and_recovery_codes_share_the_servers_bucket(database_url: str) -> None:
    """Wrong codes looked up alone (``/join?code=``) and wrong recovery codes, each from its
    own address, count in the server's bucket: the fourth is 429 with ``Retry-After``, the
    page saying so."""
    app = create_app(database_url, limits=FEW_GUESSES)
    tries = [
        lambda c: c.get("/join", params={"code": "ZZZ-ZZZ-ZZ2"}),
        lambda c: c.post("/recover", data={"code": "ABCDE-FGHJK-MNPQR-STUVW"}, headers=SAME_ORIGIN),
        lambda c: c.get("/join", params={"code": "ZZZ-ZZZ-ZZ3"}),
    ]
    for guess in tries:
        with _from_a_new_address(app) as guesser:
            assert guess(guesser).status_code in (403, 404)
    for guess in tries:
        with _from_a_new_address(app) as guesser:
            refused = guess(guesser)
            assert refused.status_code == 429, refused.text
            assert "too many wrong codes" in refused.text
            _retry_after(refused)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_every_429_of_the_pages_has_retry_after(database_url: str) -> None:
    """Past the address's rate, each page that counts requests (recover, join by code or by
    link, joining, making a table) answers 429 with ``Retry-After``, as the API does."""
    app = create_app(database_url, limits=Limits(rate=0.001, burst=1))
    pages = {
        "recover": lambda c: c.post(
            "/recover", data={"code": "ABCDE-FGHJK-MNPQR-STUVW"}, headers=SAME_ORIGIN
        ),
        "join by code": lambda c: c.get("/join", params={"code": "ZZZ-ZZZ-ZZZ"}),
        "join link": lambda c: c.get("/join/0123456789abcdef", params={"code": "ZZZ-ZZZ-ZZZ"}),
        "join": lambda c: c.post(
            "/join/0123456789abcdef",
            headers=SAME_ORIGIN,
            data={"code": "ZZZ", "name": "Eve", "role": "player"},
        ),
        "start": lambda c: c.post(
            "/start", data={"name": "Inn", "system": "cogent"}, headers=SAME_ORIGIN
        ),
        "API join": lambda c: c.post(
            "/api/tables/0123456789abcdef/join",
            json={"code": "ZZZ", "name": "Eve", "role": "player"},
        ),
    }
    for name, ask in pages.items():
        with _from_a_new_address(app) as client:
            ask(client)  # the burst's one request
            refused = ask(client)
            assert refused.status_code == 429, (name, refused.text)
            assert _retry_after(refused) >= 1, name
            assert re.search(r"requests a second", refused.text), name
