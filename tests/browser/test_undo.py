"""A struck entry in real Chromium (issue 24.7): the narrator strikes Mara's roll with a reason,
and Mara's page shows it struck through, with the reason, live, without a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.test_follow_ups import _mara_rolls, _seated


def test_a_strike_shows_struck_on_a_players_page_live(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """Mara rolls; the narrator strikes her entry from its Strike form; within two seconds
    Mara's entry is struck through with the narrator's reason beside it. Mara is offered no
    Strike form, and her entry stays on her page."""
    narrator, mara = _seated(browser, server_url)
    try:
        seq = _mara_rolls(narrator, mara)
        mara.locator(f"#ev-{seq}").wait_for(timeout=3000)
        assert mara.locator("details.strike").count() == 0
        entry = narrator.locator(f"#ev-{seq}")
        entry.locator("details.strike > summary").click()
        entry.get_by_label("Why strike this entry?", exact=False).fill("wrong CL: it was 3")
        entry.get_by_role("button", name="Strike this entry").click()
        note = mara.locator(f"#struck-{seq}")
        note.wait_for(state="visible", timeout=2000)
        assert note.inner_text() == "Struck by the narrator: wrong CL: it was 3"
        head = mara.locator(f"#ev-{seq} > .head")
        assert "line-through" in head.evaluate("e => getComputedStyle(e).textDecorationLine")
        struck = mara.locator("#log > li.entry", has_text="struck")
        struck.last.wait_for(timeout=2000)
        assert f"#{seq}" in struck.last.inner_text()
        narrator.locator(f"#struck-{seq}").wait_for(state="visible", timeout=2000)
        assert not entry.locator("details.strike").is_visible()
        for name, page in (("narrator", narrator), ("player", mara)):
            page.locator(f"#ev-{seq}").screenshot(path=str(artifacts / f"struck-{name}.png"))
    finally:
        for page in (narrator, mara):
            page.context.close()


def test_a_struck_message_is_struck_through_whole(browser: Any, server_url: str) -> None:
    """A chat message struck: its text is struck through, not only its header line."""
    narrator, mara = _seated(browser, server_url)
    try:
        mara.get_by_label("Message", exact=True).fill("The door was open all along")
        mara.get_by_role("button", name="Send", exact=True).click()
        said = narrator.locator("#log > li.entry", has_text="The door was open all along").last
        said.wait_for(timeout=3000)
        said.locator("details.strike > summary").click()
        said.get_by_label("Why strike this entry?", exact=False).fill("said by mistake")
        said.get_by_role("button", name="Strike this entry").click()
        entry = mara.locator("#log > li.entry", has_text="The door was open all along").first
        entry.locator(".struck-note").wait_for(state="visible", timeout=2000)
        for part in (".head", ".chat-text"):
            shown = entry.locator(f"> {part}")
            assert "line-through" in shown.evaluate("e => getComputedStyle(e).textDecorationLine")
    finally:
        for page in (narrator, mara):
            page.context.close()
