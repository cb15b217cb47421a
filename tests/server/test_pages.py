"""The pages' shell: the seat cookie (signed, HttpOnly, SameSite=Lax), its CSRF check, the
start and join forms, the exact odds shown before a roll, and the log entries they render."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taletable.log_entry import read_entry
from taletable.server.cookies import cookie_name
from taletable.server.pages.present import present
from tests.server.conftest import SAME_ORIGIN

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
HTMX = {"HX-Request": "true"}


def _start(client: TestClient, edition: str = "core") -> str:
    made = client.post(
        "/start",
        data={"name": "Tavern", "system": "cogent", "edition": edition},
        headers=SAME_ORIGIN,
    )
    assert made.status_code == 200, made.text
    found = re.search(r'href="/t/([0-9a-f]+)"', made.text)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_start_seats_the_narrator_with_a_signed_httponly_lax_cookie(client: TestClient) -> None:
    """Making a table sets the seat cookie and sends the browser to the page that shows the
    narrator's link and join code (post/redirect/get)."""
    form = {"name": "Tavern", "system": "cogent", "edition": "core"}
    sent = client.post("/start", data=form, follow_redirects=False, headers=SAME_ORIGIN)
    assert sent.status_code == 303
    cookie = sent.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    made = client.get(sent.headers["location"])
    table_id = re.search(r'href="/t/([0-9a-f]+)"', made.text).group(1)  # type: ignore[union-attr]
    assert f"/t/{table_id}/enter?token=" in made.text and "join code" in made.text.lower()
    seen = client.get(f"/api/tables/{table_id}")  # the API takes the cookie instead of a header
    assert seen.status_code == 200 and seen.json()["seat"]["role"] == "narrator"


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_an_altered_cookie_is_refused(client: TestClient) -> None:
    """A cookie whose signature does not match its token seats no one (401)."""
    table_id = _start(client)
    value = client.cookies.get(cookie_name(table_id))
    assert value is not None
    token, _, signature = value.rpartition(".")
    client.cookies.set(cookie_name(table_id), f"{token}.{'0' * len(signature)}")
    assert client.get(f"/api/tables/{table_id}").status_code == 401


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_cookie_change_needs_the_htmx_header_or_same_origin(client: TestClient) -> None:
    """CSRF: a POST carried by the cookie alone is refused (403) and changes nothing."""
    table_id = _start(client)
    action = {"action": "roll", "args": {"notation": "1d6"}}
    refused = client.post(f"/api/tables/{table_id}/actions", json=action)
    assert refused.status_code == 403 and "HX-Request" in refused.json()["error"]["message"]
    other_site = {"Origin": "https://evil.example"}
    assert (
        client.post(f"/api/tables/{table_id}/actions", json=action, headers=other_site).status_code
        == 403
    )
    assert client.get(f"/api/tables/{table_id}").json()["head_seq"] == 2  # table.open, scene.open
    taken = client.post(f"/api/tables/{table_id}/actions", json=action, headers=HTMX)
    assert taken.status_code == 201


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_join_with_a_wrong_code_says_so_and_seats_no_one(client: TestClient) -> None:
    """The join form with a wrong code answers 403 with the API's message, and no cookie."""
    table_id = _start(client)
    client.cookies.clear()
    answer = client.post(
        f"/join/{table_id}",
        data={"code": "nope", "name": "Mara", "role": "player"},
        headers=SAME_ORIGIN,
    )
    assert answer.status_code == 403 and "not the table's join code" in html.unescape(answer.text)
    assert cookie_name(table_id) not in answer.headers.get("set-cookie", "")


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_odds_are_exact_before_the_roll(client: TestClient) -> None:
    """6D6 against CL 3 in core: the chance of 3+ wins on 4-6 is exactly 21/32 (65.63 %)."""
    table_id = _start(client)
    shown = client.get(f"/t/{table_id}/odds", params={"mode": "pool", "pool": 6, "cl": 3})
    assert "21/32" in shown.text and "65.63 %" in shown.text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_odds_follow_the_sheet_and_the_edition(client: TestClient) -> None:
    """Sir Terrik's Athletics is 6D6 (base 3, STR 1, Athletics 2); core destiny-before wins 3-6:
    P(3+ of 6 at 2/3) = 1 - (1 + 12 + 60)/729 = 656/729."""
    table_id = _start(client)
    sheet = (EXAMPLES / "core_sir_terrik.yaml").read_text()
    added = client.post(f"/t/{table_id}/characters", data={"text": sheet}, headers=HTMX)
    assert "Sir Terrik joined the table" in added.text
    character = re.search(r"/c/([0-9a-f]+)", client.get(f"/t/{table_id}").text).group(1)  # type: ignore[union-attr]
    args = {"mode": "character", "character": character, "skill": "Athletics", "cl": 3}
    plain = client.get(f"/t/{table_id}/odds", params=args).text
    assert "21/32" in plain and "STR 1D6" in plain and "Athletics 2D6" in plain
    ahead = client.get(f"/t/{table_id}/odds", params={**args, "destiny_before": "advantage"})
    assert "dice win on 3+" in ahead.text and "656/729" in ahead.text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_an_illegal_sheet_is_refused_with_its_problems(client: TestClient) -> None:
    """Importing a sheet that breaks a rule lists the problem and adds nothing."""
    table_id = _start(client)
    sheet = (EXAMPLES / "core_sir_terrik.yaml").read_text().replace("Athletics: 2", "Athletics: 9")
    answer = client.post(f"/t/{table_id}/characters", data={"text": sheet}, headers=HTMX)
    assert 'role="alert"' in answer.text and "Athletics" in answer.text
    assert "No characters yet" in client.get(f"/t/{table_id}/characters").text


def test_a_check_entry_marks_the_winning_dice_and_says_the_outcome() -> None:
    """A check's entry: the pool as built, each die (4-6 won), and the book's words."""
    event = {
        "seq": 7, "kind": "cogent.check", "action": "cogent.check", "actor": "s1",
        "visibility": "public", "at": "2026-01-01T10:00:00.000+00:00",
        "result": {
            "edition": "core", "pool": 6, "cl": 3, "scaling": False, "win_on": 4,
            "breakdown": [{"source": "base", "dice": 3}, {"source": "STR", "dice": 1},
                          {"source": "Athletics", "dice": 2}],
            "faces": [6, 5, 4, 3, 2, 1],
            "rolls": [{"reason": "roll", "faces": [6, 5, 4, 3, 2, 1], "wins": 3}],
            "dice_wins": 3, "adjustments": [], "wins": 3, "margin": 0, "passed": True,
            "critical_failure": False, "automatic": False, "capable": None, "reflex": False,
            "injury_level": None, "destiny": [], "scale": None, "dice_source": "ledger",
            "rules_applied": [],
        },
    }  # fmt: skip
    entry = present(read_entry(event), {"s1": "Mara"})
    assert entry.who == "Mara" and entry.outcome == "narrative success of 0"
    assert [die.won for die in entry.rows[0].dice] == [True, True, True, False, False, False]
    assert entry.parts == [("base", 3), ("STR", 1), ("Athletics", 2)]


def test_a_blind_stub_shows_only_that_a_roll_was_made() -> None:
    """A blind roll's stub, as its roller receives it, renders with no dice and no outcome."""
    stub = {"seq": 9, "kind": "cogent.check", "action": "cogent.check", "actor": "s1",
            "visibility": "blind", "at": "2026-01-01T10:00:00", "hidden": True}  # fmt: skip
    entry = present(read_entry(stub), {"s1": "Mara"})
    assert entry.hidden and not entry.rows and not entry.outcome
    assert "only the narrator sees the result" in entry.title


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_start_page_cites_rules_without_file_numbers(client: TestClient) -> None:
    """Each rule option's help cites the book's section and the ruling by name, without the
    rulebooks' file numbers or a file name."""
    shown = html.unescape(client.get("/start").text)
    assert "Destiny Points" in shown and 'the ruling "scale clamp"' in shown
    assert "002 >" not in shown and "000 >" not in shown and "RULINGS.md" not in shown


def test_every_page_links_an_icon_the_server_has(client: TestClient) -> None:
    """The start page (every page shares its head) links its icon, served as SVG: no browser
    asks for a missing /favicon.ico and logs a 404."""
    page = client.get("/")
    assert page.status_code == 200
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page.text
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg")
