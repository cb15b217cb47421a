"""A narrator and two players at one live table, in three Chromium contexts against one
running ``taletable serve``: make the table, join, import a sheet, roll a check the others see
within a second, a secret roll the players never receive, and an edit conflict resolved field
by field."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browser.raw_stream import stream_bytes
from tests.browser.seating import DESKTOP, PHONE, seat_table, wait_live

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


@dataclass
class Table:
    url: str
    id: str
    narrator: Any
    mara: Any
    bram: Any


@pytest.fixture(scope="module")
def table(browser: Any, server_url: str) -> Iterator[Table]:
    """The narrator makes the table on the start page; Mara and Bram join with the link."""
    table_id, narrator, players = seat_table(
        browser, server_url, "The Drowned Keep", (("Mara", PHONE), ("Bram", DESKTOP))
    )
    yield Table(server_url, table_id, narrator, players[0], players[1])
    for page in (narrator, *players):
        page.context.close()


def _entries(page: Any) -> int:
    return int(page.locator("#log li.entry").count())


def test_presence_shows_every_seat_connected(table: Table) -> None:
    """Each page lists the narrator, Mara and Bram as connected."""
    for page in (table.narrator, table.mara, table.bram):
        presence = page.locator("#presence")
        for name in ("narrator", "Mara", "Bram"):
            presence.locator("li.online", has_text=name).wait_for(timeout=3000)


def test_import_a_sheet_and_roll_a_check_the_others_see_within_a_second(table: Table) -> None:
    """Mara imports Sir Terrik; her roll panel offers him at once (no reload); the odds are
    shown before the roll; her check reaches the narrator and Bram in under a second, with the
    pool as built and the book's words."""
    mara = table.mara
    mara.get_by_label("…or paste it").fill((EXAMPLES / "core_sir_terrik.yaml").read_text())
    mara.get_by_role("button", name="Import", exact=True).click()
    mara.get_by_text("Sir Terrik joined the table").wait_for(timeout=3000)
    table.bram.locator("#characters a", has_text="Sir Terrik").first.wait_for(timeout=3000)
    mara.get_by_role("button", name="Roll dice").click()  # on her phone, the dock opens the rolls
    mara.locator("#character option", has_text="Sir Terrik").wait_for(state="attached")
    assert mara.get_by_label("A character's skill").is_checked()  # without a reload
    mara.get_by_label("Skill (core)").select_option("Athletics")
    mara.get_by_label("CL", exact=True).fill("3")
    odds = mara.locator("#odds")
    odds.get_by_text("exactly 21/32").wait_for(timeout=3000)  # 6D6: base 3 + STR 1 + Athletics 2
    assert "65.63 %" in odds.inner_text()
    before = [_entries(page) for page in (table.narrator, table.bram)]
    started = time.monotonic()
    mara.get_by_role("button", name="Roll the check").click()
    for page, count in zip((table.narrator, table.bram), before, strict=True):
        page.locator("#log li.entry").nth(count).wait_for(timeout=1000)
    assert time.monotonic() - started < 1.0
    entry = table.bram.locator("#log li.entry").last
    text = entry.inner_text()
    assert "Mara" in text and "6D6 against CL 3" in text and "Athletics" in text
    assert re.search(r"narrative (success|failure)", text)
    assert entry.locator(".die").count() == 6



def test_a_secret_roll_never_reaches_the_players(table: Table) -> None:
    """The narrator's secret 13D6 against CL 11 shows on the narrator's page only; the
    players' pages never receive it (recorded stream messages and raw stream bytes)."""
    narrator = table.narrator
    narrator.get_by_label("A pool I type").check()
    narrator.get_by_label("Pool (dice)", exact=True).fill("13")
    narrator.get_by_label("CL", exact=True).fill("11")
    narrator.get_by_label("Who sees it").first.select_option("narrator")
    narrator.get_by_role("button", name="Roll the check").click()
    secret = narrator.locator("#log li.entry", has_text="13D6 against CL 11")
    secret.wait_for(timeout=2000)
    assert "secret" in secret.inner_text()
    narrator.get_by_label("Who sees it").first.select_option("public")
    narrator.get_by_label("Pool (dice)", exact=True).fill("4")
    narrator.get_by_label("CL", exact=True).fill("1")
    narrator.get_by_role("button", name="Roll the check").click()
    for player in (table.mara, table.bram):  # a later public roll arrives: the stream is live
        player.locator("#log li.entry", has_text="4D6 against CL 1").wait_for(timeout=2000)
        assert "13D6 against CL 11" not in player.locator("#log").inner_text()
        received = player.evaluate("JSON.stringify(window.__sse)")
        assert "4D6 against CL 1" in received and "13D6" not in received
        raw = stream_bytes(table, player)
        assert b"4D6 against CL 1" in raw and b"13D6" not in raw and b"narrator only" not in raw
    assert b"13D6 against CL 11" in stream_bytes(table, narrator)


def _open_sheet(page: Any, table: Table, name: str) -> None:
    page.goto(f"{table.url}/t/{table.id}")
    page.locator("#characters a", has_text=name).first.click()
    page.locator("#sheet-status", has_text="Every creation and progression rule holds").wait_for(
        timeout=5000
    )


def _edit(page: Any, label: str, new: str) -> None:
    page.get_by_label(label, exact=True).fill(new)
    page.get_by_role("button", name="Save the sheet").click()


def test_an_edit_conflict_shows_the_differing_fields_and_loses_neither(
    table: Table, artifacts: Path
) -> None:
    """Mara (Sir Terrik is hers) and the narrator open Sir Terrik at version 1; Mara saves
    her beliefs first; the narrator's save of his disposition shows exactly the two fields
    that differ; the narrator keeps Mara's beliefs and takes its own disposition, and the log
    keeps both edits. (Bram may not edit Mara's character: the narrator is the second
    editor.)"""
    _open_sheet(table.mara, table, "Sir Terrik")
    _open_sheet(table.narrator, table, "Sir Terrik")
    _edit(table.mara, "Beliefs", "An oath given is a debt paid.")
    table.mara.get_by_text("Saved: version 2.").wait_for(timeout=3000)
    _edit(table.narrator, "Disposition", "Courteous, proud")
    table.narrator.get_by_text("Someone saved this sheet while you were editing it").wait_for(
        timeout=3000
    )
    table.narrator.screenshot(path=str(artifacts / "conflict-desktop.png"), full_page=True)
    differs = table.narrator.locator("fieldset.differs")
    assert sorted(differs.locator("legend").all_inner_texts()) == [
        "identity › beliefs", "identity › disposition"]  # fmt: skip
    beliefs = differs.filter(has_text="identity › beliefs")
    assert "a debt paid." in beliefs.inner_text() and "a debt owed." in beliefs.inner_text()
    beliefs.get_by_label("Keep the saved value").check()
    table.narrator.get_by_role("button", name="Save with these choices").click()
    table.narrator.get_by_text("Saved: version 3.").wait_for(timeout=3000)
    form = table.narrator
    assert form.get_by_label("Beliefs", exact=True).input_value() == "An oath given is a debt paid."
    assert form.get_by_label("Disposition", exact=True).input_value() == "Courteous, proud"
    table.bram.goto(f"{table.url}/t/{table.id}")
    log = table.bram.locator("#log")
    log.get_by_text("edited the character Sir Terrik (version 3)").wait_for(timeout=3000)
    assert "edited the character Sir Terrik (version 2)" in log.inner_text()


def test_the_read_view_follows_every_save(table: Table) -> None:
    """Mara and the narrator still have Sir Terrik open: the narrator's save (version 3)
    reached Mara's read view without a reload; Mara's own save shows in her read view and in
    the narrator's within a second."""
    for page in (table.mara, table.narrator):
        page.locator("#sheet-read", has_text="Courteous, proud").wait_for(timeout=3000)
    table.mara.reload()
    table.mara.get_by_label("Disposition", exact=True).wait_for(timeout=3000)
    _edit(table.mara, "Disposition", "Courteous, bold")
    started = time.monotonic()
    for page in (table.mara, table.narrator):
        page.locator("#sheet-read", has_text="Courteous, bold").wait_for(timeout=3000)
    assert time.monotonic() - started < 1.5


def test_screenshots_at_desktop_and_phone_width(table: Table, artifacts: Path) -> None:
    """Screenshots of each page at 1280 px and 375 px, saved as test artifacts; at 375 px
    nothing is wider than the screen."""
    pages = {
        "start": "/",
        "join": f"/join/{table.id}",
        "table": f"/t/{table.id}",
    }
    for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = table.narrator
        page.set_viewport_size(viewport)
        for name, path in pages.items():
            page.goto(table.url + path)
            if name == "table":
                wait_live(page)
            page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= viewport["width"], f"{name} is {wide} px wide at {viewport['width']}"
        page.locator("#characters a", has_text="Sir Terrik").first.click()
        page.screenshot(path=str(artifacts / f"sheet-{width}.png"), full_page=True)
    table.mara.goto(f"{table.url}/t/{table.id}")
    wait_live(table.mara)
    table.mara.screenshot(path=str(artifacts / "player-phone.png"), full_page=True)
    table.narrator.set_viewport_size(DESKTOP)
