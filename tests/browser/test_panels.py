"""A roll panel in real Chromium: its exact chance changes as its fields change, before any
roll, and its roll reaches another seat's log."""

from __future__ import annotations

from typing import Any

from tests.browser.test_follow_ups import _seated


def test_the_conflict_panels_chance_follows_its_fields(browser: Any, server_url: str) -> None:
    """1D6 against 1D6 (ties rerolled): side A wins 1/2. Against 2D6: A wins only 1 to 0
    (1/8), ties 3/8 are rerolled, so 1/8 / 5/8 = 1/5 (20.00 %)."""
    narrator, mara = _seated(browser, server_url)
    try:
        panel = mara.locator("#panel-conflict")
        panel.get_by_label("Side A's pool (dice)").fill("1")
        panel.get_by_label("Side B's pool (dice)").fill("1")
        odds = mara.locator("#panel-conflict-odds")
        odds.get_by_text("side A wins: 50.00 %").wait_for(timeout=3000)
        panel.get_by_label("Side B's pool (dice)").fill("2")
        odds.get_by_text("side A wins: 20.00 %").wait_for(timeout=3000)
        assert "exactly 1/5" in odds.inner_text()
        panel.get_by_role("button", name="Roll: Conflict (opposed)").click()
        narrator.locator("#log > li.entry", has_text="1D6 against 2D6").wait_for(timeout=3000)
    finally:
        for page in (narrator, mara):
            page.context.close()
