"""The roll panel when a player's first character arrives live (issue 37, the pages' first two
defects): a player with no characters imports Mara and opens "Roll dice"; the panel rolls with
her first skill and its odds are hers at once (not the typed pool's), and the greyed "Pool
(dice)" field shows her pool, not the pool typed before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.seating import PHONE, seat_table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def test_the_odds_and_the_greyed_pool_follow_the_character_that_arrives(
    browser: Any, server_url: str
) -> None:
    """Mara's Endurance is 3D6 (base 3; STR 0): at CL 3 that is 12.50 % (exactly 1/8), not the
    default 6D6's 65.63 %; the greyed pool field says 3 while the panel rolls with her (5 for
    her Stealth: base 3, RFL +1, Stealth +2, Heavy -1), and the pool typed comes back."""
    _table, narrator, (ann,) = seat_table(browser, server_url, "Arrival", [("Ann", PHONE)])
    ann.get_by_role("button", name="Roll dice").click()
    odds = ann.locator("#odds")
    pool = ann.get_by_label("Pool (dice)", exact=True)
    odds.get_by_text("65.63 %").wait_for(timeout=3000)  # the typed pool: 6D6 against CL 3
    ann.get_by_role("button", name="Close the rolls").click()
    ann.get_by_label("…or paste it").fill((EXAMPLES / "core_mara_the_thief.yaml").read_text())
    ann.get_by_role("button", name="Import", exact=True).click()
    ann.get_by_text("Mara joined the table").wait_for(timeout=3000)
    ann.locator("#character option", has_text="Mara").wait_for(state="attached", timeout=3000)
    ann.get_by_role("button", name="Roll dice").click()
    assert ann.get_by_label("A character's skill").is_checked()
    skill = ann.get_by_label("Skill (core)")
    assert skill.input_value() == "Endurance"
    odds.get_by_text("exactly 1/8").wait_for(timeout=3000)
    assert "12.50 %" in odds.inner_text() and "3D6" in odds.inner_text()
    assert pool.is_disabled()
    expect(pool).to_have_value("3", timeout=3000)
    skill.select_option("Stealth")  # base 3, RFL +1, Stealth +2, Heavy -1
    odds.get_by_text("5D6").wait_for(timeout=3000)
    expect(pool).to_have_value("5", timeout=3000)
    ann.get_by_label("A pool I type").check()  # the pool typed comes back to be typed
    assert pool.is_enabled() and pool.input_value() == "6"
    pool.fill("4")
    ann.get_by_label("A character's skill").check()
    expect(pool).to_have_value("5", timeout=3000)
    ann.get_by_label("A pool I type").check()
    assert pool.input_value() == "4"
    for page in (narrator, ann):
        page.context.close()
