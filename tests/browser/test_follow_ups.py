"""A follow-up in real Chromium: a player spends destiny after her check, and the narrator sees
it attached under the original entry within a second."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.browser.seating import DESKTOP, seat_table, wait_live

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def _seated(browser: Any, server_url: str) -> tuple[Any, Any]:
    _table_id, narrator, (player,) = seat_table(
        browser, server_url, "The Salt Road", (("Mara", DESKTOP),)
    )
    player.get_by_label("…or paste it").fill((EXAMPLES / "core_sir_terrik.yaml").read_text())
    player.get_by_role("button", name="Import", exact=True).click()
    player.get_by_text("Sir Terrik joined the table").wait_for(timeout=5000)
    # the roll panel takes the seat's first character live (and its mode with it): wait for it
    # before a test picks a mode, or the refresh could land after the pick
    player.locator("#roll-character", has_text="Sir Terrik").wait_for(timeout=5000)
    return narrator, player


def _ready_to_spend(mara: Any, seq: str | None) -> Any:
    """Mara's form to spend one point after her roll of a typed pool, from Sir Terrik's sheet
    (the form asks whose sheet pays); its button."""
    entry = mara.locator(f"#ev-{seq}")
    entry.get_by_label("From whose sheet").select_option(label="Sir Terrik")
    entry.get_by_label("Destiny points to spend after this roll (+1 win each)").fill("1")
    return entry.get_by_role("button", name="Spend destiny")


def _mara_rolls(narrator: Any, mara: Any) -> str | None:
    """Mara rolls 4D6 against CL 4; the seq of her entry, once the narrator's page shows it."""
    mara.get_by_label("A pool I type").check()
    mara.get_by_label("Pool (dice)", exact=True).fill("4")
    mara.get_by_label("CL", exact=True).fill("4")
    mara.get_by_role("button", name="Roll the check").click()
    rolled = narrator.locator("#log > li.entry", has_text="4D6 against CL 4")
    rolled.wait_for(timeout=3000)
    return rolled.get_attribute("data-seq")


def test_destiny_spent_after_a_roll_shows_under_it_for_another_seat(
    browser: Any, server_url: str
) -> None:
    """Mara rolls 4D6 against CL 4, then spends a destiny point on that roll: the narrator's
    page shows the follow-up (+1 win) inside Mara's entry, in under a second."""
    narrator, mara = _seated(browser, server_url)
    try:
        seq = _mara_rolls(narrator, mara)
        assert narrator.locator(f"#ev-{seq} form.follow-up-form").count() == 0  # not her roll
        spend = _ready_to_spend(mara, seq)
        started = time.monotonic()
        spend.click()
        follow_up = narrator.locator(f"#ev-{seq} #fu-{seq} li.entry.follow-up")
        follow_up.wait_for(timeout=1000)
        assert time.monotonic() - started < 1.0
        text = follow_up.inner_text()
        assert (
            f"spent destiny after the roll of #{seq}" in text
            and "destiny spent after the roll: win" in text
        )
        assert "Mara" in text
        mara.locator(f"#fu-{seq} li.entry.follow-up").wait_for(timeout=1000)
        assert narrator.locator("#log > li.entry.follow-up").count() == 0  # never top-level
    finally:
        for page in (narrator, mara):
            page.context.close()


def test_a_follow_up_to_an_entry_older_than_the_page_shows_is_not_lost(
    browser: Any, server_url: str
) -> None:
    """The page loads the newest 200 entries. Mara rolls, the narrator's table then logs 200
    more rolls and the narrator opens the table afresh (Mara's roll is not among those shown);
    when Mara spends destiny on her roll, the narrator's log shows the follow-up at its end."""
    import httpx

    narrator, mara = _seated(browser, server_url)
    try:
        seq = _mara_rolls(narrator, mara)
        table_id = narrator.url.rstrip("/").split("/t/")[1].split("/")[0]
        cookies = {c["name"]: c["value"] for c in narrator.context.cookies()}
        with httpx.Client(base_url=server_url, cookies=cookies) as client:
            for _ in range(200):
                made = client.post(
                    f"/api/tables/{table_id}/actions",
                    json={"action": "cogent.check", "args": {"pool": 3, "cl": 1}},
                    headers={"HX-Request": "true"},
                )
                assert made.status_code == 201, made.text
        narrator.reload()
        wait_live(narrator)
        assert narrator.locator(f"#ev-{seq}").count() == 0  # older than the 200 shown
        mara.locator(f"#ev-{seq}").wait_for(timeout=3000)
        _ready_to_spend(mara, seq).click()
        shown = narrator.locator("#log > li.entry.follow-up", has_text=f"roll of #{seq}")
        shown.wait_for(timeout=2000)
        assert "destiny spent after the roll: win" in shown.inner_text()
    finally:
        for page in (narrator, mara):
            page.context.close()
