"""Destiny after the roll in a plain conflict at the live table (issue 37.2; 002 > Destiny
Points: "A character may spend a Destiny Point after any d6-based roll to add a single win in
addition to what they achieved"): the API action and its odds, and the pages' conflict panel."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import SAME_ORIGIN, make_table

HTMX = {"HX-Request": "true"}
SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def test_the_api_adds_a_win_a_point_and_its_odds_say_so(client: TestClient) -> None:
    """2D6 against 2D6 with faces: a's 1 win and 2 points after the roll beat b's 2 wins (3
    against 2); the odds of 5D6 against 5D6 with a point after for a: a wins 1/2, a tie stands
    with the chance a had of losing by one; a tiered table refuses the spend, 422 naming it."""
    table = make_table(client, physical_dice=True)
    url = f"/api/tables/{table.id}/actions"
    args = {"pool_a": 2, "pool_b": 2, "faces_a": "6,1", "faces_b": "6,6", "destiny_after_a": 2}
    rolled = client.post(url, json={"action": "cogent.conflict", "args": args}, headers=table.mara)
    assert rolled.status_code == 201, rolled.text
    result = rolled.json()["result"]
    assert (result["a_wins"], result["b_wins"], result["winner"]) == (3, 2, "a")
    assert [spend["when"] for spend in result["destiny_a"]] == ["after", "after"]
    odds = client.post(url, json={"action": "odds.cogent.conflict", "args": {
        "pool_a": 5, "pool_b": 5, "destiny_after_a": 1}}, headers=table.mara)  # fmt: skip
    assert odds.status_code == 200, odds.text
    assert Fraction(odds.json()["result"]["p_a"]) == Fraction(1, 2)
    # a loses by one on the dice in C(10,4) = 210 of the 1024 - C(10,5) = 772 untied throws
    assert Fraction(odds.json()["result"]["p_tie"]) == Fraction(210, 772)
    tiered = make_table(client, edition="tiered")
    refused = client.post(f"/api/tables/{tiered.id}/actions", json={
        "action": "cogent.conflict", "args": {"pool_a": 2, "pool_b": 2, "destiny_after_b": 1}},
        headers=tiered.mara)  # fmt: skip
    assert refused.status_code == 422
    assert "After a Dice Roll" in refused.json()["error"]["message"]


@SQLITE
def test_the_conflict_panel_takes_destiny_after_the_roll(client: TestClient) -> None:
    """The conflict panel offers each side's destiny after the roll; its exact odds change with
    it (5D6 each: b wins 50.00 % alone, 22.80 % against a's point: 88/386); the roll adds the
    wins."""
    form = {"name": "Arm wrestle", "system": "cogent", "edition": "core", "physical_dice": "true"}
    made = client.post("/start", data=form, headers=SAME_ORIGIN)
    found = re.search(r'href="/t/([0-9a-f]+)"', made.text)
    assert found is not None
    table_id = found.group(1)
    assert 'name="destiny_after_a"' in client.get(f"/t/{table_id}").text
    odds = f"/t/{table_id}/panel/conflict/odds"
    alone = html.unescape(client.get(odds, params={"pool_a": 5, "pool_b": 5}).text)
    spent = html.unescape(client.get(odds, params={"pool_a": 5, "pool_b": 5,
                                                   "destiny_after_a": 1}).text)  # fmt: skip
    assert "side B wins: <strong>50.00 %</strong>" in alone
    assert "side B wins: <strong>22.80 %</strong>" in spent and "a tie" in spent
    form = {"pool_a": "2", "pool_b": "2", "faces_a": "6,1", "faces_b": "6,6",
            "destiny_after_a": "2"}  # fmt: skip
    rolled = client.post(f"/t/{table_id}/panel/conflict", data=form, headers=HTMX)
    assert "Rolled" in rolled.text, rolled.text
    assert "side A wins, victory level 1" in html.unescape(client.get(f"/t/{table_id}").text)
