"""The roll panels besides the check (conflicts, assists, collaborations, boons, labcats) with
their exact odds; entered physical dice where the table allows them; follow-ups in the log."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import SAME_ORIGIN

HTMX = {"HX-Request": "true"}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _start(client: TestClient, system: str = "cogent", edition: str = "core", **form: str) -> str:
    data = {"name": "Tavern", "system": system, "edition": edition, **form}
    made = client.post("/start", data=data, headers=SAME_ORIGIN)
    assert made.status_code == 200, made.text
    found = re.search(r'href="/t/([0-9a-f]+)"', made.text)
    assert found is not None
    return found.group(1)


def _erin(client: TestClient, table_id: str) -> str:
    """Erin the mage (tiered, 1 destiny point) added by the page's import; her id."""
    sheet = (EXAMPLES / "tiered_erin_the_mage.yaml").read_text()
    added = client.post(f"/t/{table_id}/characters", data={"text": sheet}, headers=HTMX)
    assert "Erin" in added.text and "joined the table" in added.text, added.text
    found = re.search(r'/c/([0-9a-f]+)"[^>]*>Erin', client.get(f"/t/{table_id}/characters").text)
    assert found is not None
    return found.group(1)


def _odds(client: TestClient, table_id: str, panel: str, **args: object) -> str:
    return html.unescape(client.get(f"/t/{table_id}/panel/{panel}/odds", params=args).text)


def _titles(page: str) -> list[str]:
    return re.findall(r'<h2 id="panel-[a-z-]+-title">([^<]+)</h2>', page)


@SQLITE
def test_a_core_table_shows_conflict_and_assist_panels_with_exact_odds(client: TestClient) -> None:
    """1D6 against 1D6, ties rerolled: each side wins half the time. A core assist of 3D6 at
    CL 3 gives +0 only when all three win (1/8), else less; the assisted 1D6 at CL 1 passes 1/2
    alone and 1/2 x 1/8 = 1/16 assisted."""
    table_id = _start(client)
    assert _titles(client.get(f"/t/{table_id}").text) == ["Conflict (opposed)", "Assist (core)"]
    conflict = _odds(client, table_id, "conflict", pool_a=1, pool_b=1)
    assert "side A wins: <strong>50.00 %</strong>" in conflict and "exactly 1/2" in conflict
    assist = _odds(client, table_id, "assist", assist_pool=3, assist_cl=3, helpers=0, pool=1, cl=1)
    assert "the check alone: <strong>50.00 %" in assist
    assert "the check, assisted: <strong>6.25 %" in assist and "exactly 1/16" in assist
    refused = _odds(client, table_id, "conflict", pool_a=1000, pool_b=1)
    assert 'role="alert"' in refused and "pool_a" in refused


@SQLITE
def test_a_tiered_table_adds_collaboration(client: TestClient) -> None:
    """Two characters of 1D6 at CL 1: group CL 2, so both dice must win: 1/4."""
    table_id = _start(client, edition="tiered")
    titles = _titles(client.get(f"/t/{table_id}").text)
    assert titles == ["Conflict (opposed)", "Assist (tiered)", "Collaboration (tiered)"]
    shown = _odds(client, table_id, "collaborate", pools="1,1", cl=1)
    assert "the group succeeds: <strong>25.00 %</strong>" in shown and "exactly 1/4" in shown


@SQLITE
def test_a_boons_table_shows_boons_panels_and_rolls_them(client: TestClient) -> None:
    """3d8 reaching 24 needs three 8s: 1/512. A contest of equals, B defending: B wins ties.
    The roll lands in the log with its dice; no Cogent panel shows."""
    table_id = _start(client, system="boons")
    page = client.get(f"/t/{table_id}").text
    assert _titles(page) == ["Boons check (3d8)", "Boons contest (opposed)"]
    assert "Roll a check" not in page
    check = _odds(client, table_id, "boons-check", bonus=0, boons=0, banes=0, target=24)
    assert "exactly 1/512" in check
    contest = _odds(client, table_id, "boons-contest", a_bonus=0, b_bonus=0, defender="b")
    assert "side B wins" in contest and "a stalemate" not in contest
    rolled = client.post(
        f"/t/{table_id}/panel/boons-check",
        data={"bonus": "2", "boons": "1", "banes": "0", "target": "12"},
        headers=HTMX,
    )
    assert "Rolled (#3)" in rolled.text
    entry = html.unescape(client.get(f"/t/{table_id}").text)
    assert "rolled a boons check — 1 boon(s), 0 bane(s)" in entry and "against 12" in entry


@SQLITE
def test_a_labcats_table_shows_the_labcats_panel(client: TestClient) -> None:
    """Two highest of d4, d4 reaching 8 needs two 4s: 1/16."""
    table_id = _start(client, system="labcats")
    assert _titles(client.get(f"/t/{table_id}").text) == ["Labcats roll"]
    shown = _odds(client, table_id, "labcats", pool="d4,d4", add=0, target=8)
    assert "exactly 1/16" in shown and "6.25 %" in shown


@SQLITE
def test_entered_dice_are_offered_and_marked_where_the_table_allows_them(
    client: TestClient,
) -> None:
    """With physical dice allowed, the panels offer faces and the entry is marked entered."""
    table_id = _start(client, physical_dice="true")
    page = client.get(f"/t/{table_id}").text
    assert 'name="faces_a"' in page and 'id="roll-faces"' in page
    rolled = client.post(
        f"/t/{table_id}/panel/conflict",
        data={"pool_a": "2", "pool_b": "2", "faces_a": "6,5", "faces_b": "1,2"},
        headers=HTMX,
    )
    assert "Rolled (#3)" in rolled.text
    entry = html.unescape(client.get(f"/t/{table_id}").text)
    assert 'class="tag">physical dice' in entry and "side A wins, victory level 2" in entry
    check = client.post(
        f"/t/{table_id}/roll", data={"mode": "pool", "pool": "2", "cl": "1", "faces": "4,1"},
        headers=HTMX,
    )  # fmt: skip
    assert "Rolled (#4)" in check.text


@SQLITE
def test_entered_dice_are_neither_offered_nor_taken_where_the_table_refuses_them(
    client: TestClient,
) -> None:
    """Without physical dice, no faces field; faces posted anyway are refused, nothing logged."""
    table_id = _start(client)
    page = client.get(f"/t/{table_id}").text
    assert 'name="faces' not in page
    refused = client.post(
        f"/t/{table_id}/panel/conflict",
        data={"pool_a": "2", "pool_b": "2", "faces_a": "6,5", "faces_b": "1,2"},
        headers=HTMX,
    )
    assert "does not allow physical dice" in html.unescape(refused.text)
    check = client.post(
        f"/t/{table_id}/roll", data={"mode": "pool", "pool": "2", "cl": "1", "faces": "4,1"},
        headers=HTMX,
    )  # fmt: skip
    assert "does not allow physical dice" in html.unescape(check.text)
    assert client.get(f"/api/tables/{table_id}").json()["head_seq"] == 2


@SQLITE
def test_a_follow_up_is_shown_under_its_entry_and_offered_only_to_the_roller(
    client: TestClient,
) -> None:
    """The narrator's tiered check, rerolled or raised with destiny, shows the follow-up inside
    the check's entry; a player who joins sees it there too but gets no form to spend."""
    made = client.post(
        "/start", data={"name": "T", "system": "cogent", "edition": "tiered"}, headers=SAME_ORIGIN
    )
    table_id, code = re.search(r"/join/([0-9a-f]+)\?code=([^\"&<]+)", made.text).groups()  # type: ignore[union-attr]
    erin = _erin(client, table_id)
    rolled = client.post(
        f"/t/{table_id}/roll", data={"mode": "pool", "pool": "5", "cl": "4"}, headers=HTMX
    )
    seq = re.search(r"Rolled \(#(\d+)\)", rolled.text).group(1)  # type: ignore[union-attr]
    page = client.get(f"/t/{table_id}").text
    assert f'<label class="inline" for="after-{seq}">Destiny to spend after this roll' in page
    passed = "narrative success" in page.split(f'id="ev-{seq}"')[1].split("</p>")[0]
    spend = "raise" if passed else "reroll"
    after = client.post(
        f"/t/{table_id}/act",
        data={"action": "cogent.destiny-after", "follows": seq, "destiny_after": spend,
              "character": erin},
        headers=HTMX,
    )  # fmt: skip
    assert "Rolled (#" in after.text, after.text
    page = html.unescape(client.get(f"/t/{table_id}").text)
    nested = page.split(f'id="fu-{seq}"')[1].split("</ol>")[0]
    assert f"spent destiny after the roll of #{seq}" in nested
    assert f"destiny spent after the roll: {spend}" in nested
    player = TestClient(client.app)
    joined = player.post(
        f"/join/{table_id}",
        data={"code": code, "name": "Mara", "role": "player"},
        headers=SAME_ORIGIN,
    )
    assert joined.status_code in (200, 303), joined.text
    seen = html.unescape(player.get(f"/t/{table_id}").text)
    assert f"spent destiny after the roll of #{seq}" in seen.split(f'id="fu-{seq}"')[1]
    assert f'for="after-{seq}"' not in seen


@SQLITE
def test_a_reroll_with_entered_dice_where_the_table_allows_them(client: TestClient) -> None:
    """Tiered, physical dice: 5D6 showing 1,1,1,1,1 against CL 2 fails by 2; a destiny reroll
    entered as 6,6,6,1,1 makes 3 wins, a narrative success of +1, marked as entered."""
    table_id = _start(client, edition="tiered", physical_dice="true")
    erin = _erin(client, table_id)
    rolled = client.post(
        f"/t/{table_id}/roll",
        data={"mode": "pool", "pool": "5", "cl": "2", "faces": "1,1,1,1,1"},
        headers=HTMX,
    )
    assert "Rolled (#4)" in rolled.text
    page = client.get(f"/t/{table_id}").text
    assert 'id="after-faces-4"' in page
    after = client.post(
        f"/t/{table_id}/act",
        data={"action": "cogent.destiny-after", "follows": "4", "destiny_after": "reroll",
              "faces": "6,6,6,1,1", "character": erin},
        headers=HTMX,
    )  # fmt: skip
    assert "Rolled (#5)" in after.text, after.text
    nested = html.unescape(client.get(f"/t/{table_id}").text).split('id="fu-4"')[1]
    assert "narrative success of +1" in nested and "was: narrative failure of -2" in nested
    assert 'class="tag">physical dice' in nested
