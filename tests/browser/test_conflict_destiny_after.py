"""The conflict panel's destiny after the roll in real Chromium (issue 37.2; 002 > Destiny
Points: "add a single win in addition to what they achieved"): its exact chance follows the
points, and the roll reaches another seat's log with the wins added."""

from __future__ import annotations

from typing import Any

from tests.browser.test_follow_ups import _seated


def test_the_conflict_panels_chance_follows_destiny_after(browser: Any, server_url: str) -> None:
    """5D6 against 5D6: side B wins 50.00 % alone; a point after the roll for side A turns A's
    losses by one into ties that stand (27.20 %), so B wins 22.80 % (exactly 44/193); 1D6
    against 1D6 with 2 points for A: A wins every throw (a tie is rerolled first)."""
    narrator, mara = _seated(browser, server_url)
    try:
        panel = mara.locator("#panel-conflict")
        odds = mara.locator("#panel-conflict-odds")
        panel.get_by_label("Side A's pool (dice)").fill("5")
        panel.get_by_label("Side B's pool (dice)").fill("5")
        odds.get_by_text("side B wins: 50.00 %").wait_for(timeout=15000)
        panel.get_by_label("Side A's destiny after the roll (a win a point)").fill("1")
        odds.get_by_text("side B wins: 22.80 %").wait_for(timeout=15000)
        assert "exactly 44/193" in odds.inner_text() and "a tie: 27.20 %" in odds.inner_text()
        panel.get_by_label("Side A's pool (dice)").fill("1")
        panel.get_by_label("Side B's pool (dice)").fill("1")
        panel.get_by_label("Side A's destiny after the roll (a win a point)").fill("2")
        odds.get_by_text("side A wins: 100.00 %").wait_for(timeout=15000)
        panel.get_by_role("button", name="Roll: Conflict (opposed)").click()
        narrator.locator("#log > li.entry", has_text="side A wins").wait_for(timeout=15000)
    finally:
        for page in (narrator, mara):
            page.context.close()
