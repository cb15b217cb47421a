"""Coming back to your character, in real Chromium (issue 34.6): Ann joins and is shown her
recovery code once; the narrator hands her a character from its sheet's page; in a new browser
context she joins again as "Ann", is asked whether she is Ann coming back, types her code, and
is seated as the same Ann: her characters are hers to roll with, and no second seat is made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.seating import DESKTOP, PHONE, wait_live

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


def _context(browser: Any, viewport: dict[str, int]) -> Any:
    return browser.new_context(viewport=viewport).new_page()


def _import(page: Any, name: str) -> None:
    """Import Sir Terrik's sheet under ``name`` from the table page."""
    sheet = (EXAMPLES / "core_sir_terrik.yaml").read_text().replace("Sir Terrik", name)
    page.get_by_label("…or paste it").fill(sheet)
    page.get_by_role("button", name="Import", exact=True).click()
    page.locator("#characters a", has_text=name).first.wait_for(timeout=15000)


def _seat_count(page: Any, server_url: str, table_id: str) -> int:
    answer = page.request.get(f"{server_url}/api/tables/{table_id}")
    assert answer.ok, answer.text()
    return len(answer.json()["seats"])


def test_a_player_reclaims_her_character_in_a_new_browser(browser: Any, server_url: str) -> None:
    narrator, ann = _context(browser, DESKTOP), _context(browser, DESKTOP)
    again = _context(browser, PHONE)
    try:
        narrator.goto(server_url)
        narrator.get_by_label("Table name").fill("Reclaimed")
        narrator.get_by_role("button", name="Create the table").click()
        join = narrator.get_by_label("The players' join link", exact=True).input_value()
        narrator.get_by_role("link", name="Go to the table").click()
        wait_live(narrator)
        table_id = narrator.url.rsplit("/", 1)[1]
        ann.goto(join)
        ann.get_by_label("Your name").fill("Ann")
        ann.get_by_role("button", name="Join").click()
        wait_live(ann)
        code = ann.get_by_label("Your recovery code", exact=True).input_value()
        assert len(code.replace("-", "")) == 20
        _import(ann, "Sir Ann")
        _import(narrator, "Dame Bo")  # the narrator's, handed to Ann from its sheet's page
        narrator.locator("#characters a", has_text="Dame Bo").first.click()
        narrator.get_by_label("Hand Dame Bo to").select_option(label="Ann (player)")
        narrator.get_by_role("button", name="Hand over").click()
        narrator.get_by_text("Handed to Ann.").wait_for(timeout=15000)
        seats = _seat_count(narrator, server_url, table_id)
        narrator.goto(f"{server_url}/t/{table_id}")
        wait_live(narrator)

        again.goto(join)  # Ann, on her phone: a new browser, no cookie
        again.get_by_label("Your name").fill("ann")
        again.get_by_role("button", name="Join").click()
        again.get_by_role("heading", name="Are you Ann, coming back?").wait_for(timeout=15000)
        assert _seat_count(narrator, server_url, table_id) == seats  # no second Ann
        again.get_by_label("Your recovery code").fill(code.lower().replace("-", " "))
        again.get_by_role("button", name="Take my seat back").click()
        wait_live(again)
        assert "You: Ann (player)" in again.locator("header.bar").inner_text()
        options = again.locator("#character option").all_inner_texts()
        assert any("Sir Ann" in o for o in options) and any("Dame Bo" in o for o in options)
        again.get_by_role("button", name="Roll dice").click()  # the phone's dock opens the rolls
        again.locator("#character").select_option(label=next(o for o in options if "Dame Bo" in o))
        again.get_by_label("Skill (core)").select_option("Athletics")
        again.get_by_role("button", name="Roll the check").click()
        rolled = again.locator("#roll-message", has_text="Rolled (#")  # the sheet closes on a phone
        rolled.wait_for(state="attached", timeout=15000)
        rolled_entry = narrator.locator("#log li.entry", has_text="Dame Bo").last
        rolled_entry.wait_for(timeout=15000)
        assert "Ann" in rolled_entry.inner_text()
        assert _seat_count(narrator, server_url, table_id) == seats
        assert ann.request.get(f"{server_url}/api/tables/{table_id}").ok  # still seated there
    finally:
        for page in (narrator, ann, again):
            page.context.close()
