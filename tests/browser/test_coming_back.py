"""Coming back next week, in real Chromium: a reload of the page that made a table makes no
second one; a join code read aloud and typed in lower case with spaces, the join page naming
the table; the tables this browser sits at, and leaving one (presence follows); the
narrator's recovery code in a new context; the header's scene number following a scene
closed; a boons table's start page; the narrator's tools; a sheet imported twice."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.seating import DESKTOP, wait_live

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
PHONE = {"width": 375, "height": 812}


def _new(browser: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    return browser.new_context(viewport=viewport).new_page()


def _make(page: Any, server_url: str, name: str) -> dict[str, str]:
    """The narrator makes a Cogent table on the start page; the made page's codes."""
    page.goto(server_url)
    page.get_by_label("Table name").fill(name)
    page.get_by_role("button", name="Create the table").click()
    page.get_by_role("heading", name=f"{name} is ready").wait_for(timeout=5000)
    return {
        "url": page.url,
        "join": page.get_by_label("The join code", exact=True).input_value(),
        "recovery": page.get_by_label("Your recovery code", exact=True).input_value(),
    }


def test_a_reload_after_making_a_table_makes_no_second_one(browser: Any, server_url: str) -> None:
    page = _new(browser)
    try:
        made = _make(page, server_url, "Once Only")
        assert page.url.endswith("/made")
        page.reload()
        assert page.get_by_label("The join code", exact=True).input_value() == made["join"]
        page.goto(f"{server_url}/tables")
        assert page.locator("#seated li").count() == 1
        assert "Once Only" in page.locator("#seated").inner_text()
        page.goto(f"{server_url}/start")
        assert page.get_by_role("button", name="Create the table").is_visible()
    finally:
        page.context.close()


def test_a_code_read_aloud_joins_and_leaving_forgets_the_seat(
    browser: Any, server_url: str
) -> None:
    """Bram types the code as heard (lower case, spaces), sees the table named before he
    joins, joins; his tables list it; he leaves from another tab while the table stays open in
    the first: the narrator sees him away at once (the open tab's stream ends and cannot come
    back), his list no longer has it and the table's page asks him to join again."""
    narrator, bram = _new(browser), _new(browser, PHONE)
    try:
        made = _make(narrator, server_url, "Ashen Road")
        narrator.get_by_role("link", name="Go to the table").click()
        wait_live(narrator)
        table_url = narrator.url
        heard = " ".join(made["join"].replace("-", "")).lower()
        bram.goto(server_url)
        bram.get_by_role("link", name="Join a table").first.click()
        bram.get_by_label("Join code").fill(heard)
        bram.get_by_role("button", name="Find the table").click()
        named = bram.locator("#join-table").inner_text()
        assert named == "You are joining Ashen Road, a table of Cogent Roleplay (core edition)."
        bram.get_by_label("Your name").fill("Bram")
        bram.get_by_role("button", name="Join").click()
        wait_live(bram)
        narrator.locator("#presence li.online", has_text="Bram").wait_for(timeout=3000)
        tables = bram.context.new_page()  # the table stays open in Bram's first tab
        tables.goto(f"{server_url}/tables")
        listed = tables.locator("#seated li", has_text="Ashen Road")
        assert "you are Bram (player)" in " ".join(listed.inner_text().split())
        listed.get_by_role("button", name="Leave Ashen Road").click()
        tables.get_by_text("This browser has left the table").wait_for(timeout=3000)
        assert tables.locator("#seated li", has_text="Ashen Road").count() == 0
        narrator.locator("#presence li.offline", has_text="Bram").wait_for(timeout=5000)
        bram.wait_for_selector("#connection:not([data-state=live])", timeout=5000)
        bram.goto(table_url)
        assert "/join/" in bram.url
    finally:
        narrator.context.close()
        bram.context.close()


def test_the_recovery_code_seats_the_narrator_in_a_new_browser(
    browser: Any, server_url: str
) -> None:
    first = _new(browser)
    second = _new(browser, PHONE)
    try:
        made = _make(first, server_url, "Lost Link")
        second.goto(f"{server_url}/recover")
        second.get_by_label("Recovery code").fill(made["recovery"].lower().replace("-", " "))
        second.get_by_role("button", name="Take my seat back").click()
        wait_live(second)
        assert second.locator("h1").inner_text() == "Lost Link"
        assert "You: narrator (narrator)" in second.locator("header.bar").inner_text()
        assert second.get_by_role("heading", name="Narrator's tools").is_visible()
        second.goto(f"{server_url}/recover")
        second.get_by_label("Recovery code").fill("ABCDE-FGHJK-MNPQR-STUVW")
        second.get_by_role("button", name="Take my seat back").click()
        assert second.get_by_role("alert").inner_text().startswith("This is not the recovery")
    finally:
        first.context.close()
        second.context.close()


def test_the_header_scene_number_follows_a_scene_closed(browser: Any, server_url: str) -> None:
    narrator, mara = _new(browser), _new(browser)
    try:
        made = _make(narrator, server_url, "Scenes")
        narrator.get_by_role("link", name="Go to the table").click()
        wait_live(narrator)
        mara.goto(made["url"].replace("/made", "").replace("/t/", "/join/")
                  + f"?code={made['join']}")  # fmt: skip
        mara.get_by_label("Your name").fill("Mara")
        mara.get_by_role("button", name="Join").click()
        wait_live(mara)
        assert mara.locator("#scene-number").inner_text() == "1"
        narrator.once("dialog", lambda dialog: dialog.accept())
        narrator.get_by_role("button", name="Close the scene (reveal its dice seed)").click()
        for page in (mara, narrator):  # no reload: the stream swaps the number
            page.locator("#scene-number").filter(has_text=re.compile(r"^2$")).wait_for(
                timeout=3000
            )
        assert mara.locator("header.bar").get_by_text("scene 2").count() == 1
    finally:
        narrator.context.close()
        mara.context.close()


def test_a_boons_start_page_shows_no_cogent_options(browser: Any, server_url: str) -> None:
    page = _new(browser)
    try:
        page.goto(server_url)
        assert page.get_by_label("Cogent edition").is_visible()
        page.get_by_label("Game system").select_option("boons")
        assert not page.get_by_label("Cogent edition").is_visible()
        assert not page.get_by_text("Rule options (Cogent)").is_visible()
        assert page.get_by_text("Rule options (3d8 boons and banes)").is_visible()  # issue 37
        assert not page.get_by_text("This system has no rule options").is_visible()
        page.get_by_label("Game system").select_option("labcats")
        assert page.get_by_text("This system has no rule options").is_visible()
        assert not page.get_by_text("Rule options (3d8 boons and banes)").is_visible()
        page.get_by_label("Game system").select_option("cogent")
        assert page.get_by_label("Cogent edition").is_visible()
    finally:
        page.context.close()


def test_narrator_tools_pick_a_table_from_a_list_and_answer_beside_the_form(
    browser: Any, server_url: str
) -> None:
    """The random table is chosen from a list by title; its result shows just after the form,
    and a sheet imported twice is refused, naming the character."""
    page = _new(browser)
    try:
        _make(page, server_url, "Tools")
        page.get_by_role("link", name="Go to the table").click()
        wait_live(page)
        page.get_by_label("Table", exact=True).select_option(label="Natural disaster (d7)")
        page.get_by_role("button", name="Roll on the table").click()
        result = page.locator("#table-result")
        result.get_by_text("Natural disaster").first.wait_for(timeout=3000)
        assert result.locator(".die").count() >= 1
        form = page.locator("form:has(#table-name)").bounding_box()
        shown = result.bounding_box()
        assert form is not None and shown is not None
        assert 0 <= shown["y"] - (form["y"] + form["height"]) < 40
        sheet = (EXAMPLES / "core_sir_terrik.yaml").read_text()
        for _ in range(2):
            page.get_by_label("…or paste it").fill(sheet)
            page.get_by_role("button", name="Import", exact=True).click()
        page.get_by_text("Sir Terrik is at the table already").wait_for(timeout=3000)
        assert page.locator("#characters li", has_text="Sir Terrik").count() == 1
    finally:
        page.context.close()
