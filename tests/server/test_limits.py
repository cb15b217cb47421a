"""The live table's documented limits (server/limits.py), each checked before the work: a body
over ``max_body`` is 413 unread, a seat (or an address without one) past its rate is 429 with
``Retry-After``, and an action's arguments past the engine's limits are a 422 naming them,
before anything is rolled or logged."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taletable.server import create_app
from taletable.server.limits import Limits
from tests.server.conftest import Seats, make_table

#: A small body limit and a slow rate, so the tests reach them in a few requests.
SMALL = Limits(max_body=2048, rate=1.0, burst=4)


@pytest.fixture
def small(database_url: str) -> Iterator[TestClient]:
    """A client of an app with :data:`SMALL` limits."""
    with TestClient(create_app(database_url, limits=SMALL)) as test_client:
        yield test_client


def _head(client: TestClient, table: Seats) -> int:
    answer = client.get(f"/api/tables/{table.id}", headers=table.narrator)
    assert answer.status_code == 200, answer.text
    return int(answer.json()["head_seq"])


def test_a_body_over_max_body_is_413_naming_body_unread(client: TestClient, table: Seats) -> None:
    """Past 256 KiB (Content-Length given) the answer is 413 ``body``, even for bytes that are
    not JSON at all: the body is refused before it is parsed (a parsed one would be 422)."""
    url = f"/api/tables/{table.id}/actions"
    garbage = b"\xff" * (256 * 1024 + 1)
    answer = client.post(url, content=garbage, headers=table.narrator)
    assert answer.status_code == 413
    assert answer.json()["error"]["field"] == "body"
    assert "262144 bytes" in answer.json()["error"]["message"]
    just_under = client.post(url, content=b"\xff" * 1000, headers=table.narrator)
    assert just_under.status_code == 422  # read and refused as not JSON: the limit let it in


def test_a_chunked_body_without_content_length_is_cut_off_at_max_body(small: TestClient) -> None:
    """A body sent in chunks with no Content-Length is counted as it arrives: 413 ``body``."""
    sent: list[int] = []

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            sent.append(1)
            yield b'{"name": "' + b"x" * 500

    answer = small.post(
        "/api/tables", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413
    assert answer.json()["error"] == {
        "field": "body",
        "message": "the request body is over 2048 bytes; send less",
    }
    assert "content-length" not in {name.lower() for name in answer.request.headers}


def test_a_seat_past_its_rate_gets_429_with_retry_after_and_others_do_not(
    small: TestClient,
) -> None:
    """A burst of 4 then 429 ``authorization`` with ``Retry-After``; another seat still acts."""
    table = make_table(small)
    url = f"/api/tables/{table.id}"
    answers = [small.get(url, headers=table.mara).status_code for _ in range(6)]
    assert answers[0] == 200 and answers[-1] == 429
    refused = small.get(url, headers=table.mara)
    assert refused.status_code == 429
    assert refused.json()["error"]["field"] == "authorization"
    assert "requests a second from this seat" in refused.json()["error"]["message"]
    assert int(refused.headers["Retry-After"]) >= 1
    assert small.get(url, headers=table.bram).status_code == 200


def test_a_refused_seat_changes_nothing(small: TestClient) -> None:
    """A seat's action past its rate is 429 and is not rolled: the log does not grow."""
    table = make_table(small)
    body = {"action": "cogent.check", "args": {"pool": 5, "challenge_level": 3}}
    url = f"/api/tables/{table.id}/actions"
    statuses = [small.post(url, json=body, headers=table.mara).status_code for _ in range(6)]
    assert statuses.count(201) == 4 and statuses[4:] == [429, 429]
    assert _head(small, table) == 2 + 3 + 4  # the table and its scene, 3 joins, the 4 checks


def test_requests_without_a_seat_are_limited_per_client_address(database_url: str) -> None:
    """Making tables, joining and importing share one bucket per address; another address is
    not affected."""
    app = create_app(database_url, limits=Limits(rate=0.001, burst=4))
    with (
        TestClient(app, client=("10.0.0.1", 5000)) as one,
        TestClient(app, client=("10.0.0.2", 5000)) as two,
    ):
        made = one.post("/api/tables", json={"name": "Inn", "system": "boons"}).json()
        join = {"code": made["join_code"], "name": "Ann", "role": "player"}
        assert one.post(f"/api/tables/{made['id']}/join", json=join).status_code == 201
        assert one.post("/api/tables/import", json={"format": 0}).status_code == 422
        assert one.post("/api/tables", json={"name": "Inn", "system": "boons"}).status_code == 201
        for path, body in (
            ("/api/tables", {"name": "Inn", "system": "boons"}),
            (f"/api/tables/{made['id']}/join", join),
            ("/api/tables/import", {"format": 0}),
        ):
            refused = one.post(path, json=body)
            assert refused.status_code == 429, path
            assert refused.json()["error"]["field"] == "authorization"
            assert "Retry-After" in refused.headers
        assert two.post("/api/tables", json={"name": "Inn", "system": "boons"}).status_code == 201


OVER_THE_LIMITS: list[tuple[str, dict[str, Any], str, str]] = [
    ("cogent.check", {"pool": 10**9, "challenge_level": 3}, "args.pool", "at most 200"),
    ("cogent.check", {"pool": 5, "challenge_level": 10**9}, "args.cl", "0 to 1000"),
    ("roll", {"notation": "1000000d6"}, "args.notation", "at most 1000 dice"),
    ("roll", {"notation": "1d1000000000"}, "args.notation", "d1 to d1000"),
    ("odds.cogent", {"pool": 10**9, "challenge_level": 3}, "args.pool", "at most 200"),
    ("odds.cogent.collaborate", {"pools": [10**9] * 3, "challenge_level": 3}, "args.pools", "200"),
    ("odds.cogent.collaborate", {"pools": [200] * 30, "challenge_level": 3}, "args.pools", "4,000"),
    (
        "odds.cogent.collaborate",
        {"pools": [1] * 1000, "challenge_level": 1},
        "args.pools",
        "1 to 100",
    ),
    ("odds.cogent.conflict", {"pool_a": 10**9, "pool_b": 3}, "args.pool_a", "at most 200"),
    ("odds.cogent.duel", {"a": "@goblin", "b": "@goblin", "rounds": 10**9}, "args.rounds", "200"),
    ("odds.cogent.fight", {"fighters": ["a:x:@goblin", "b:y:@goblin"]}, "action", "minutes"),
    ("odds.labcats", {"pool": ["d12"] * 10_000}, "args.pool", "at most 40 dice"),
    ("cheatsheet.cogent", {"max_pool": 10**9, "max_cl": 10**9}, "args.max_pool", "1 to 200"),
    ("cogent.assist", {"pool": 5, "challenge_level": 3, "helpers": 10**9}, "args.helpers", "100"),
]


@pytest.mark.parametrize(("action", "args", "field", "expected"), OVER_THE_LIMITS)
def test_arguments_past_the_limits_are_a_422_naming_them_before_any_roll(
    client: TestClient, table: Seats, action: str, args: dict[str, Any], field: str, expected: str
) -> None:
    """Each huge argument is refused with 422 naming it and the limit; nothing is logged."""
    before = _head(client, table)
    body = {"action": action, "args": args}
    answer = client.post(f"/api/tables/{table.id}/actions", json=body, headers=table.narrator)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["field"] == field
    assert expected in answer.json()["error"]["message"]
    assert _head(client, table) == before


def test_a_duel_reads_the_tables_characters_never_the_servers_files(
    client: TestClient, table: Seats
) -> None:
    """``odds.cogent.duel`` names a character of the table (or ``@NAME``); a path on the server
    is no character there, so no file of the server is read (it was, before)."""
    from tests.server.test_characters import EXAMPLES, terrik

    url = f"/api/tables/{table.id}/actions"
    path = str(EXAMPLES / "core_sir_terrik.yaml")
    body = {"action": "odds.cogent.duel", "args": {"a": path, "b": "@goblin", "rounds": 5}}
    refused = client.post(url, json=body, headers=table.mara)
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "args.a"
    assert "Terrik" not in refused.text
    made = client.post(
        f"/api/tables/{table.id}/characters", json={"sheet": terrik()}, headers=table.mara
    )
    body["args"]["a"] = made.json()["id"]
    played = client.post(url, json=body, headers=table.mara)
    assert played.status_code == 200, played.text  # a read: answered, no event
    assert played.json()["result"]["a"].startswith("Sir Terrik (")


def test_the_action_list_leaves_out_what_this_server_does_not_run(
    client: TestClient, table: Seats
) -> None:
    """``GET /actions`` lists ``odds.cogent.duel`` but not ``odds.cogent.fight`` (refused)."""
    listed = client.get(f"/api/tables/{table.id}/actions", headers=table.mara).json()["actions"]
    names = {entry["name"] for entry in listed}
    assert "odds.cogent.duel" in names and "odds.cogent.fight" not in names


def test_each_listed_action_describes_its_args_as_the_command_line_does(
    client: TestClient, table: Seats
) -> None:
    """``GET /actions`` gives each action's args as a JSON schema; a field's description is the
    one ``--help`` shows for its option (one description for both shells)."""
    import click

    from taletable.cli.cogent.checks import check as check_command

    helps = {p.name: p.help for p in check_command.params if isinstance(p, click.Option)}
    listed = client.get(f"/api/tables/{table.id}/actions", headers=table.mara).json()["actions"]
    schemas = {entry["name"]: entry["args"] for entry in listed}
    check = schemas["cogent.check"]["properties"]
    assert check["pool"]["description"] == helps["pool"] == "Dice in the pool (base 3 included)."
    assert check["challenge_level"]["description"] == helps["challenge_level"]
    declare = schemas["cogent.combat.declare"]
    assert set(declare["required"]) >= {"actor", "action"}
    assert all(
        "type" in field or "anyOf" in field or "$ref" in field or "enum" in field
        for schema in schemas.values()
        for field in schema.get("properties", {}).values()
    )
