"""Coming back next week: post/redirect/get on /start, a join code read aloud (found by the code
alone, typed in any case, spaces or dashes; old codes still open their table), the join page
naming the table, the narrator's recovery code, the tables this browser sits at, leaving one."""

from __future__ import annotations

import html
import re
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from taletable.server import create_app
from taletable.server.auth import hash_secret
from taletable.server.codes import ALPHABET, JOIN_GROUPS, RECOVERY_GROUPS, normal
from taletable.server.cookies import cookie_name
from taletable.server.limits import Limits
from taletable.server.schema import TABLES
from tests.server.conftest import TEST_LIMITS

SAME_ORIGIN = {"Origin": "http://testserver"}
JOIN_CODE = re.compile(r"[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}")
RECOVERY = re.compile(r"[2-9A-HJKMNP-Z]{5}(?:-[2-9A-HJKMNP-Z]{5}){3}")


def _start(client: TestClient, name: str = "Tavern", system: str = "cogent") -> tuple[str, str]:
    """Make a table from the start page; its id and the made page's HTML."""
    sent = client.post(
        "/start", data={"name": name, "system": system}, follow_redirects=False, headers=SAME_ORIGIN
    )
    assert sent.status_code == 303, sent.text
    made = client.get(sent.headers["location"])
    assert made.status_code == 200
    found = re.search(r'href="/t/([0-9a-f]+)"', made.text)
    assert found is not None
    return found.group(1), made.text


def _value(page: str, field: str) -> str:
    found = re.search(rf'id="{field}"[^>]*value="([^"]*)"', page)
    assert found is not None, field
    return html.unescape(found.group(1))


def _tables(client: TestClient) -> int:
    with client.app.state.world.database.read() as connection:  # type: ignore[attr-defined]
        return len(connection.execute(select(TABLES.c.id)).all())


def test_start_answers_a_redirect_so_a_reload_makes_no_second_table(client: TestClient) -> None:
    """POST /start answers 303 to the made page; loading that page again makes no table, and
    ``GET /start`` (a reload of the old answer, a bookmark) is the start page, not JSON."""
    before = _tables(client)  # PostgreSQL's test database holds other tests' tables too
    table_id, first = _start(client)
    again = client.get(f"/t/{table_id}/made")
    assert _tables(client) == before + 1
    assert _value(again.text, "join-code") == _value(first, "join-code")
    page = client.get("/start")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'action="/start"' in page.text


def test_the_join_code_is_read_aloud_and_typed_any_way(client: TestClient) -> None:
    """The code is nine characters of an alphabet with no 0, O, 1, I or L, in three groups;
    the code alone finds the table (typed in lower case, with spaces), whose page names it and
    its game, and the join takes the code so typed."""
    table_id, made = _start(client, "The Drowned Keep")
    code = _value(made, "join-code")
    assert JOIN_CODE.fullmatch(code) and not set(code) & set("0O1IL")
    assert set(ALPHABET) & set("0O1IL") == set()
    spoken = " ".join(code.replace("-", "")).lower()  # "k x 7 m 4 q 9 p d"
    client.cookies.clear()
    found = client.get("/join", params={"code": spoken})
    assert found.status_code == 200
    assert "You are joining <strong>The Drowned Keep</strong>, a table of Cogent Roleplay" in (
        found.text
    )
    assert f'action="/join/{table_id}"' in found.text
    joined = client.post(
        f"/join/{table_id}", data={"code": spoken, "name": "Mara", "role": "player"},
        follow_redirects=False, headers=SAME_ORIGIN
    )  # fmt: skip
    assert joined.status_code == 303 and cookie_name(table_id) in joined.headers["set-cookie"]


def test_a_wrong_code_finds_no_table_and_names_none(client: TestClient) -> None:
    """A code of no table answers 404 in words; the table's own join page with a wrong code
    does not name it."""
    table_id, _made = _start(client, "Secret Lair")
    missing = client.get("/join", params={"code": "ZZZ-ZZZ-ZZZ"})
    assert missing.status_code == 404 and "No table here has this join code" in missing.text
    wrong = client.get(f"/join/{table_id}", params={"code": "ZZZ-ZZZ-ZZZ"})
    assert "Secret Lair" not in wrong.text


def test_the_join_link_names_the_table_and_its_system(client: TestClient) -> None:
    table_id, made = _start(client, "Moonfall", system="boons")
    link = _value(made, "join-link")
    assert link.endswith(f"/join/{table_id}?code={_value(made, 'join-code')}")
    shown = client.get(link.removeprefix("http://testserver"))
    assert "Join Moonfall" in shown.text and "3d8 boons and banes" in shown.text


def test_an_old_join_code_keeps_opening_its_table(client: TestClient) -> None:
    """A table whose code was made before codes were read aloud (43 URL-safe characters, kept
    hashed as given) still seats a player with it, by the API and the page, and the code alone
    finds it (``/join?code=``, as the README promises), spelled as it was given."""
    table_id, _made = _start(client)
    old = "Ab-cd_EFgh1234567890abcdefghijklmnopqrstuvwx"
    with client.app.state.world.database.write() as connection:  # type: ignore[attr-defined]
        connection.execute(
            TABLES.update().where(TABLES.c.id == table_id).values(join_code_hash=hash_secret(old))
        )
    joined = client.post(
        f"/api/tables/{table_id}/join", json={"code": old, "name": "Mara", "role": "player"}
    )
    assert joined.status_code == 201, joined.text
    shown = client.get(f"/join/{table_id}", params={"code": old})
    assert "You are joining <strong>Tavern</strong>" in shown.text
    by_code = client.get("/join", params={"code": f" {old} "})
    assert by_code.status_code == 200, by_code.text
    assert "You are joining <strong>Tavern</strong>" in by_code.text
    assert f'action="/join/{table_id}"' in by_code.text
    other_case = client.get("/join", params={"code": old.upper()})
    assert other_case.status_code == 404  # kept as given: its own spelling, as before


def test_a_new_join_code_from_the_api_is_read_aloud_and_typed_any_way(
    client: TestClient,
) -> None:
    made = client.post("/api/tables", json={"name": "Keep", "system": "cogent"}).json()
    headers = {"Authorization": f"Bearer {made['narrator_token']}"}
    code = client.put(f"/api/tables/{made['id']}/join-code", json={}, headers=headers).json()
    assert JOIN_CODE.fullmatch(code["join_code"])
    typed = code["join_code"].lower().replace("-", " ")
    joined = client.post(
        f"/api/tables/{made['id']}/join", json={"code": typed, "name": "Bram", "role": "player"}
    )
    assert joined.status_code == 201
    refused = client.post(
        f"/api/tables/{made['id']}/join",
        json={"code": made["join_code"], "name": "Late", "role": "player"},
    )
    assert refused.status_code == 403  # the old code stopped working


def test_the_recovery_code_seats_the_narrator_in_a_new_browser(database_url: str) -> None:
    """Shown once at creation, kept only as a hash; typed (lower case, spaces) in another
    browser, it seats that browser as the narrator; the first browser keeps its seat."""
    app = create_app(database_url, limits=TEST_LIMITS)
    with TestClient(app) as first, TestClient(app) as second:
        table_id, made = _start(first)
        recovery = _value(made, "recovery-code")
        assert RECOVERY.fullmatch(recovery)
        with app.state.world.database.read() as connection:
            row = connection.execute(select(TABLES).where(TABLES.c.id == table_id)).one()
        assert row.recovery_hash == hash_secret(normal(recovery))
        assert recovery not in str(tuple(row)) and normal(recovery) not in str(tuple(row))
        assert second.get(f"/t/{table_id}", follow_redirects=False).status_code == 303
        typed = recovery.lower().replace("-", " ")
        back = second.post("/recover", data={"code": typed}, headers=SAME_ORIGIN,
                           follow_redirects=False)  # fmt: skip
        assert back.status_code == 303 and back.headers["location"] == f"/t/{table_id}"
        assert second.get(f"/api/tables/{table_id}").json()["seat"]["role"] == "narrator"
        assert first.get(f"/api/tables/{table_id}").json()["seat"]["role"] == "narrator"


def test_a_wrong_recovery_code_seats_no_one(client: TestClient) -> None:
    _table_id, _made = _start(client)
    client.cookies.clear()
    refused = client.post("/recover", data={"code": "ABCDE-FGHJK-MNPQR-STUVW"},
                          headers=SAME_ORIGIN, follow_redirects=False)  # fmt: skip
    assert refused.status_code == 403 and "not the recovery code" in html.unescape(refused.text)
    assert "set-cookie" not in refused.headers


def test_the_tables_page_lists_this_browsers_seats_and_leaving_forgets_one(
    client: TestClient,
) -> None:
    """Two tables made in this browser are listed (name, game, seat); leaving one deletes its
    cookie: it is listed no more and its page sends the browser to the join page."""
    first, _made = _start(client, "Ashen Road")
    second, _made = _start(client, "Moonfall", system="labcats")
    listed = client.get("/tables").text
    assert "Ashen Road" in listed and "Moonfall" in listed and "Cortex-style pools" in listed
    left = client.post(f"/t/{first}/leave", headers=SAME_ORIGIN, follow_redirects=False)
    assert left.status_code == 303
    assert f'{cookie_name(first)}=""' in left.headers["set-cookie"]
    client.cookies.delete(cookie_name(first))  # what the browser does with the answer above
    listed = client.get("/tables").text
    assert "Ashen Road" not in listed and "Moonfall" in listed
    assert client.get(f"/t/{first}", follow_redirects=False).headers["location"] == (
        f"/join/{first}"
    )
    assert client.get(f"/t/{second}").status_code == 200


def test_leaving_from_another_site_is_refused(client: TestClient) -> None:
    table_id, _made = _start(client)
    refused = client.post(f"/t/{table_id}/leave", headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403
    assert client.get(f"/api/tables/{table_id}").status_code == 200


def test_guessing_join_codes_is_bounded_by_the_address_rate_limit(database_url: str) -> None:
    """Each look-up of a code takes from the address's bucket, like a join: past the burst,
    429 in words (codes.py computes what that bounds)."""
    app = create_app(database_url, limits=Limits(rate=0.001, burst=3))
    with TestClient(app) as client:
        answers = [client.get("/join", params={"code": f"ZZZ-ZZZ-ZZ{c}"}) for c in "23456"]
    assert [answer.status_code for answer in answers] == [404, 404, 404, 429, 429]
    assert "requests a second" in answers[-1].text


def test_a_boons_start_page_shows_no_cogent_options(client: TestClient) -> None:
    """The start page opened for a boons table hides Cogent's edition, rule options and house
    rules and shows boons' own (Let it Ride's per-scene switch, issue 37), not the hint of a
    system with none; a boons table is made with no edition whatever the hidden fields send."""
    page = client.get("/", params={"system": "boons"}).text
    cogent = re.search(r'<div data-system-only="cogent"([^>]*)>', page)
    assert cogent is not None and "hidden" in cogent.group(1)
    boons = re.search(r'<fieldset data-system-only="boons"([^>]*)>', page)
    assert boons is not None and "hidden" not in boons.group(1)
    other = re.search(r"<p class=\"hint\" data-system-other([^>]*)>", page)
    assert other is not None and "hidden" in other.group(1)
    assert "Start a table" in page
    table_id, _made = _start(client, "Boons", system="boons")
    seen = client.get(f"/api/tables/{table_id}").json()
    assert seen["system"] == "boons" and seen["edition"] is None
    cogent_page = client.get("/").text
    shown = re.search(r'<div data-system-only="cogent"([^>]*)>', cogent_page)
    assert shown is not None and "hidden" not in shown.group(1)


def test_the_stated_guessing_bound_is_what_the_limits_give() -> None:
    """README and codes.py state 31^9 join codes and, at the default rate of wrong codes in
    all (whatever the addresses), a 0.00012 % chance a year of finding one table's code, and
    6 wrong codes a minute at one table."""
    assert len(ALPHABET) == 31 and len(set(ALPHABET)) == 31
    codes = len(ALPHABET) ** sum(JOIN_GROUPS)
    assert codes == 26_439_622_160_671
    a_year = Limits().guess_rate * 365 * 24 * 3600
    assert a_year == 31_536_000 and Limits().guess_burst == 60
    assert f"{a_year / codes:.5%}" == "0.00012%"
    assert f"{100 * a_year / codes:.3%}" == "0.012%"
    assert Limits().table_guess_rate * 60 == 6 and Limits().table_guess_burst == 10
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "0.00012 %" in readme and "100 tables: 0.012 %" in readme
    assert len(ALPHABET) ** sum(RECOVERY_GROUPS) > 2**99


def test_a_seat_left_ends_that_seats_streams_only() -> None:
    """A browser that leaves a seat ends every stream of that seat (here, and in the other
    workers by the ``l:TABLE:SEAT`` notification); the other seats' streams go on."""
    import asyncio

    from taletable.server.notify import Dropped, Hub

    async def run() -> tuple[list[object], list[object]]:
        hub = Hub()
        mara, bram = hub.subscribe("t1", "mara-seat"), hub.subscribe("t1", "bram-seat")
        hub.received("l:t1:mara-seat")
        await asyncio.sleep(0)
        return list(mara.queue._queue), list(bram.queue._queue)  # type: ignore[attr-defined]

    left, stayed = asyncio.run(run())
    assert left == [Dropped()] and stayed == []
