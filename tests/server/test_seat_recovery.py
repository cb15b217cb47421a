"""Coming back to your character (issue 34.6): a player's recovery code, shown once on the
table page of the browser that joined and kept only as its seat token's hash, seats that
player again in a new browser at /recover, characters and all; joining again under a name
already seated asks whether this is that player coming back and makes no seat unless asked;
the narrator hands a character to a seat from its sheet's page."""

from __future__ import annotations

import html
import re
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from taletable.server.auth import hash_secret
from taletable.server.codes import normal, seat_token
from taletable.server.cookies import cookie_name
from taletable.server.schema import SEATS
from tests.server.conftest import SAME_ORIGIN, Seats
from tests.server.test_characters import named
from tests.server.test_cross_site import CROSS_SITE, OTHER_SITE
from tests.server.test_pages_rolls import _seated

RECOVERY = re.compile(r"[2-9A-HJKMNP-Z]{5}(?:-[2-9A-HJKMNP-Z]{5}){3}")
HTMX = {"HX-Request": "true"}


def _seats(client: TestClient, table_id: str) -> list[tuple[str, str, str]]:
    with client.app.state.world.database.read() as connection:  # type: ignore[attr-defined]
        rows = connection.execute(
            select(SEATS.c.id, SEATS.c.name, SEATS.c.token_hash).where(SEATS.c.table_id == table_id)
        ).all()
    return [(row.id, row.name, row.token_hash) for row in rows]


def _text(answer: object) -> str:
    """A page's words, tags dropped."""
    return html.unescape(re.sub(r"<[^>]+>", "", answer.text))  # type: ignore[attr-defined]


def _join(page: TestClient, table: Seats, name: str, **more: str) -> object:
    form = {"code": table.join_code, "name": name, "role": "player", **more}
    return page.post(f"/join/{table.id}", data=form, headers=SAME_ORIGIN, follow_redirects=False)


def _api_join(client: TestClient, table: Seats, name: str, role: str) -> Any:
    body = {"code": table.join_code, "name": name, "role": role}
    return client.post(f"/api/tables/{table.id}/join", json=body)


def _shown_code(page: TestClient, table_id: str) -> str:
    """The recovery code the table page shows the browser that just joined."""
    shown = page.get(f"/t/{table_id}").text
    found = re.search(r'id="seat-recovery-code"[^>]*value="([^"]*)"', shown)
    assert found is not None and "Your recovery code" in shown
    return found.group(1)


def test_a_player_joined_on_the_page_is_shown_a_code_kept_only_hashed(
    client: TestClient, table: Seats
) -> None:
    page = TestClient(client.app)
    joined = _join(page, table, "Ann")
    assert joined.status_code == 303, joined.text  # type: ignore[attr-defined]
    code = _shown_code(page, table.id)
    assert RECOVERY.fullmatch(code)
    seat = [row for row in _seats(client, table.id) if row[1] == "Ann"]
    assert len(seat) == 1 and seat[0][2] == hash_secret(seat_token(code))
    assert code not in str(seat) and normal(code) not in str(seat)
    other = _seated(client, table, table.mara).get(f"/t/{table.id}").text
    assert "seat-recovery-code" not in other  # only the browser that joined is shown it


def test_the_code_seats_that_player_again_in_a_new_browser_with_their_character(
    client: TestClient, table: Seats
) -> None:
    """Ann joins (API: the code is in the answer), adds Sir Ann; in a new browser she types
    her code in lower case with spaces: the same seat, and she rolls with Sir Ann there; her
    first browser keeps its seat."""
    joined = _api_join(client, table, "Ann", "player").json()
    ann = {"Authorization": f"Bearer {joined['token']}"}
    made = client.post(f"/api/tables/{table.id}/characters", json={"sheet": named("Sir Ann")},
                       headers=ann)  # fmt: skip
    character = made.json()["id"]
    fresh = TestClient(client.app)
    typed = joined["recovery_code"].lower().replace("-", " ")
    back = fresh.post("/recover", data={"code": typed}, headers=SAME_ORIGIN, follow_redirects=False)
    assert back.status_code == 303 and back.headers["location"] == f"/t/{table.id}"
    seen = fresh.get(f"/api/tables/{table.id}").json()["seat"]
    assert seen == {"id": joined["seat"], "name": "Ann", "role": "player"}
    form = {"mode": "character", "character": character, "skill": "Athletics", "cl": "2"}
    rolled = fresh.post(f"/t/{table.id}/roll", data=form, headers=HTMX)
    assert "Rolled (#" in rolled.text, rolled.text
    assert client.get(f"/api/tables/{table.id}", headers=ann).status_code == 200


def test_a_wrong_code_seats_no_one(client: TestClient, table: Seats) -> None:
    fresh = TestClient(client.app)
    for code in ("ABCDE-FGHJK-MNPQR-STUVW", "---", "x" * 201):
        refused = fresh.post("/recover", data={"code": code}, headers=SAME_ORIGIN,
                             follow_redirects=False)  # fmt: skip
        assert refused.status_code in (403, 422), refused.text
        assert "set-cookie" not in refused.headers


def test_joining_under_a_name_already_seated_asks_and_makes_no_seat(
    client: TestClient, table: Seats
) -> None:
    """"mara" (Mara is seated) is a 409 asking whether she is Mara coming back, pointing to her
    recovery code, with no seat and no cookie; ticking "not that Mara" makes the new seat."""
    before = _seats(client, table.id)
    page = TestClient(client.app)
    asked = _join(page, table, "  mara ")
    assert asked.status_code == 409  # type: ignore[attr-defined]
    text = html.unescape(asked.text)  # type: ignore[attr-defined]
    assert "Are you Mara, coming back?" in text and "recovery code" in text
    assert 'action="/recover"' in text and 'name="again"' in text
    assert "set-cookie" not in asked.headers  # type: ignore[attr-defined]
    assert _seats(client, table.id) == before
    again = _join(page, table, "Mara", again="true")
    assert again.status_code == 303  # type: ignore[attr-defined]
    assert len(_seats(client, table.id)) == len(before) + 1
    assert cookie_name(table.id) in again.headers["set-cookie"]  # type: ignore[attr-defined]


def test_the_api_join_answers_a_recovery_code(client: TestClient, table: Seats) -> None:
    joined = _api_join(client, table, "Cid", "observer")
    assert joined.status_code == 201 and RECOVERY.fullmatch(joined.json()["recovery_code"])


def _maras_character(client: TestClient, table: Seats) -> str:
    made = client.post(f"/api/tables/{table.id}/characters", json={"sheet": named("Sir Mara")},
                       headers=table.mara)  # fmt: skip
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _owner(client: TestClient, table: Seats, character: str) -> str:
    check = {"action": "cogent.check",
             "args": {"character": character, "skill": "Athletics", "cl": 2}}  # fmt: skip
    bram = client.post(f"/api/tables/{table.id}/actions", json=check, headers=table.bram)
    return "Bram" if bram.status_code == 201 else "Mara"


def test_the_narrator_hands_a_character_to_a_seat_on_its_sheet(
    client: TestClient, table: Seats
) -> None:
    character = _maras_character(client, table)
    narrator = _seated(client, table, table.narrator)
    url = f"/t/{table.id}/c/{character}/owner"
    box = _text(narrator.get(url))
    assert "Sir Mara is played by Mara (player)" in box and "Hand over" in box
    assert "Owl" not in box  # an observer is not offered
    handed = _text(narrator.post(url, data={"seat": table.bram_seat}, headers=HTMX))
    assert "Handed to Bram." in handed and "played by Bram (player)" in handed
    assert _owner(client, table, character) == "Bram"
    sheet = narrator.get(f"/t/{table.id}/c/{character}").text
    assert f'hx-get="/t/{table.id}/c/{character}/owner"' in sheet


def test_handing_refused_changes_nothing(client: TestClient, table: Seats) -> None:
    """A player's post, an observer or a seat of no one as the new owner, and a post from
    another site: each refused in words, naming the field; Mara keeps her character."""
    character = _maras_character(client, table)
    url = f"/t/{table.id}/c/{character}/owner"
    mara = _seated(client, table, table.mara)
    assert "Hand over" not in mara.get(url).text  # a player is shown whose it is, no form
    refused = mara.post(url, data={"seat": table.mara_seat}, headers=HTMX)
    assert "Only the narrator hands" in html.unescape(refused.text)
    narrator = _seated(client, table, table.narrator)
    for seat, said in ((table.observer_seat, "Owl observes"), ("nobody", "no seat 'nobody'"),
                       ("", "seat: choose")):  # fmt: skip
        answer = html.unescape(narrator.post(url, data={"seat": seat}, headers=HTMX).text)
        assert 'role="alert"' in answer and said in answer and "seat" in answer
    cross = narrator.post(url, data={"seat": table.bram_seat}, headers=OTHER_SITE)
    assert cross.status_code == 403 and CROSS_SITE in html.unescape(cross.text)
    assert _owner(client, table, character) == "Mara"


def test_a_players_recovery_from_another_site_seats_no_one(
    client: TestClient, table: Seats
) -> None:
    code = _api_join(client, table, "Ann", "player").json()["recovery_code"]
    fresh = TestClient(client.app)
    refused = fresh.post("/recover", data={"code": code}, headers=OTHER_SITE,
                         follow_redirects=False)  # fmt: skip
    assert refused.status_code == 403 and CROSS_SITE in html.unescape(refused.text)
    assert "set-cookie" not in refused.headers
    before = _seats(client, table.id)
    join_again = TestClient(client.app).post(
        f"/join/{table.id}", data={"code": table.join_code, "name": "Ann", "again": "true"},
        headers=OTHER_SITE, follow_redirects=False,
    )  # fmt: skip
    assert join_again.status_code == 403 and _seats(client, table.id) == before
