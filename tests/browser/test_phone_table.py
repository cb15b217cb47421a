"""The table page phone first (issue 24, point 3), at 375 px and at 1280 px: the log opens at
its newest entry and follows new ones only for a reader at the bottom; the rolls are within
reach on a phone (the dock); the connection stays in view while the page scrolls; a roll
clicked while the connection is down is refused in words and not lost; a seat whose page goes
away shows offline. Point 4: a skill clicked on a sheet opens the roll with its odds."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.browser.raw_stream import stream_bytes
from tests.browser.test_reconnect import Server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"
PHONE = {"width": 375, "height": 812}
SHORT_PHONE = {"width": 375, "height": 667}  # an iPhone SE's screen
DESKTOP = {"width": 1280, "height": 900}
WIDTHS = {"phone": PHONE, "desktop": DESKTOP}
CHECK = {"action": "cogent.check", "args": {"pool": 4, "cl": 2}}


@dataclass
class Made:
    url: str
    id: str
    narrator: dict[str, str]
    narrator_token: str
    mara_token: str

    def act(self, body: dict[str, Any] = CHECK) -> int:
        url = f"{self.url}/api/tables/{self.id}/actions"
        done = httpx.post(url, json=body, headers=self.narrator)
        assert done.status_code == 201, done.text
        return int(done.json()["seq"])

    def seqs(self) -> list[int]:
        answer = httpx.get(f"{self.url}/api/tables/{self.id}/events", headers=self.narrator)
        return [int(e["seq"]) for e in answer.json()["events"]]


def _make(url: str, rolls: int = 0) -> Made:
    made = httpx.post(f"{url}/api/tables", json={"name": "Keep", "system": "cogent"}).json()
    joined = httpx.post(
        f"{url}/api/tables/{made['id']}/join",
        json={"code": made["join_code"], "name": "Mara", "role": "player"},
    ).json()
    table = Made(url, made["id"], {"Authorization": f"Bearer {made['narrator_token']}"},
                 made["narrator_token"], joined["token"])  # fmt: skip
    for _ in range(rolls):
        table.act()
    return table


def _open(browser: Any, table: Made, token: str, viewport: dict[str, int]) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{table.url}/t/{table.id}/enter?token={token}")
    page.wait_for_selector("#connection[data-state=live]", timeout=5000)
    return page


AT_BOTTOM = (
    "() => { const l = document.getElementById('log');"
    " return l.scrollHeight - l.scrollTop - l.clientHeight < 2; }"
)


NEWEST_ABOVE_DOCK = (
    "() => { const e = document.querySelector('#log li.entry:last-child');"
    " return e.getBoundingClientRect().bottom"
    " <= document.querySelector('.dock').getBoundingClientRect().top; }"
)


def _log_at_bottom(page: Any) -> bool:
    """The log scrolls (it holds more than it shows) and shows its bottom."""
    scrolls = page.evaluate("() => { const l = document.getElementById('log');"
                            " return l.scrollHeight > l.clientHeight; }")  # fmt: skip
    return bool(scrolls and page.evaluate(AT_BOTTOM))


@pytest.fixture(scope="module")
def busy(server_url: str) -> Made:
    """A table with forty rolls in its log (far more than a screen holds)."""
    return _make(server_url, rolls=40)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_log_opens_at_its_newest_entry_and_follows_a_reader_at_the_bottom(
    browser: Any, busy: Made, width: str
) -> None:
    """The log is a bounded area opened at its newest entry (shown); a new entry is followed
    while the reader is at the bottom; a reader scrolled up stays where they read, and a
    button offers the newest, which it then shows."""
    page = _open(browser, busy, busy.mara_token, WIDTHS[width])
    try:
        log = page.locator("#log")
        assert log.bounding_box()["height"] <= WIDTHS[width]["height"] * 0.75
        assert _log_at_bottom(page)
        newest = page.locator("#log li.entry").last
        assert newest.get_attribute("data-seq") == str(busy.seqs()[-1])
        assert newest.is_visible() and log.evaluate(
            "(l, e) => e.getBoundingClientRect().bottom <= l.getBoundingClientRect().bottom + 1",
            newest.element_handle(),
        )
        if width == "phone":  # above the dock, on the first screen
            dock = page.locator(".dock").bounding_box()
            assert newest.bounding_box()["y"] + newest.bounding_box()["height"] <= dock["y"]
        followed = busy.act()
        page.locator(f"#ev-{followed}").wait_for(timeout=3000)
        page.wait_for_function(AT_BOTTOM, timeout=2000)
        log.evaluate("l => { l.scrollTop = 0; }")
        page.wait_for_timeout(100)
        unread = busy.act()
        page.locator(f"#ev-{unread}").wait_for(state="attached", timeout=3000)
        page.locator("#log-newest").wait_for(timeout=2000)
        assert log.evaluate("l => l.scrollTop") == 0  # left where they read
        page.locator("#log-newest").click()
        assert _log_at_bottom(page)
        assert page.locator("#log-newest").is_hidden()
    finally:
        page.context.close()


def test_the_rolls_are_within_reach_on_a_phone(browser: Any, busy: Made, artifacts: Path) -> None:
    """At 375 px the dock's roll button is on the first screen (not thousands of pixels
    down); it opens the rolls, whose roll button is then on screen; a roll closes them and
    shows the new entry in the log. At 1280 px there is no dock: the panel is beside the log."""
    page = _open(browser, busy, busy.mara_token, PHONE)
    try:
        dock = page.get_by_role("button", name="Roll dice")
        box = dock.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
        assert page.locator("#roll-button").is_hidden()
        dock.click()
        assert dock.get_attribute("aria-expanded") == "true"
        page.get_by_label("A pool I type").check()
        page.get_by_label("Pool (dice)", exact=True).fill("3")
        button = page.locator("#roll-button")
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"]
        page.screenshot(path=str(artifacts / "table-rolls-phone.png"))
        button.click()
        entry = page.locator("#log li.entry", has_text="3D6 against CL 3")
        entry.wait_for(timeout=3000)
        page.locator("#roll-sheet").wait_for(state="hidden", timeout=2000)
        assert dock.get_attribute("aria-expanded") == "false"
    finally:
        page.context.close()
    wide = _open(browser, busy, busy.mara_token, DESKTOP)
    try:
        wide.screenshot(path=str(artifacts / "table-rolls-desktop.png"))
        assert wide.get_by_role("button", name="Roll dice").is_hidden()
        assert wide.locator("#roll-button").is_visible()
    finally:
        wide.context.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_connection_stays_in_view_while_the_page_scrolls(
    browser: Any, busy: Made, width: str
) -> None:
    """Scrolled to the bottom of the page, the connection badge still shows at the top."""
    page = _open(browser, busy, busy.narrator_token, WIDTHS[width])
    try:
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_function("window.scrollY > 300", timeout=2000)
        box = page.locator("#connection").bounding_box()
        assert box is not None and 0 <= box["y"] < 120, box
        assert page.locator("#connection").inner_text() == "Live"
    finally:
        page.context.close()


def test_a_roll_that_gets_no_answer_says_so_and_is_not_lost(browser: Any, busy: Made) -> None:
    """The roll's request fails (the route is blocked): the form says no answer came and keeps
    what was typed; nothing was rolled; once the route is back the same click rolls once."""
    page = _open(browser, busy, busy.mara_token, DESKTOP)
    try:
        before = busy.seqs()
        page.get_by_label("A pool I type").check()
        page.get_by_label("Pool (dice)", exact=True).fill("7")
        page.route("**/roll", lambda route: route.abort())
        page.locator("#roll-button").click()
        alert = page.locator("#roll-message [role=alert]")
        alert.wait_for(timeout=3000)
        assert "No answer from the table" in alert.inner_text()
        assert page.get_by_label("Pool (dice)", exact=True).input_value() == "7"
        assert busy.seqs() == before
        page.unroute("**/roll")
        page.locator("#roll-button").click()
        page.locator("#log li.entry", has_text="7D6 against CL 3").wait_for(timeout=3000)
        assert len(busy.seqs()) == len(before) + 1
    finally:
        page.context.close()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "taletable.db")
    running.start()
    try:
        yield running
    finally:
        running.stop()


def test_a_roll_clicked_while_the_connection_is_down_is_refused_in_words(
    browser: Any, own_server: Server
) -> None:
    """The server goes away: the badge says so; a roll clicked then is not sent (the server,
    back meanwhile, rolled nothing) and the form says why, keeping what was typed; once the
    page is live again the same click rolls it, once."""
    table = _make(own_server.url)
    page = _open(browser, table, table.mara_token, PHONE)
    try:
        page.get_by_role("button", name="Roll dice").click()
        page.get_by_label("A pool I type").check()
        page.get_by_label("Pool (dice)", exact=True).fill("5")
        own_server.stop()
        page.wait_for_selector("#connection[data-state=down]", timeout=5000)
        page.route("**/stream*", lambda route: route.abort())  # the page stays cut off
        own_server.start()
        before = table.seqs()
        page.locator("#roll-button").click()
        alert = page.locator("#roll-message [role=alert]")
        alert.wait_for(timeout=3000)
        assert "Not sent: the connection to the table is down" in alert.inner_text()
        assert alert.is_visible() and page.locator("#connection").is_visible()
        assert page.get_by_label("Pool (dice)", exact=True).input_value() == "5"
        page.wait_for_timeout(300)
        assert table.seqs() == before
        page.unroute("**/stream*")
        page.wait_for_selector("#connection[data-state=live]", timeout=10000)
        page.locator("#roll-button").click()
        page.locator("#log li.entry", has_text="5D6 against CL 3").wait_for(timeout=3000)
        assert len(table.seqs()) == len(before) + 1
    finally:
        page.context.close()


def test_a_seat_whose_page_goes_away_shows_offline(browser: Any, server_url: str) -> None:
    """Mara's page is open, then her browser context closes: the narrator's page shows her
    away within a few seconds (not at the 40 s staleness)."""
    table = _make(server_url)
    narrator = _open(browser, table, table.narrator_token, DESKTOP)
    mara = _open(browser, table, table.mara_token, PHONE)
    try:
        presence = narrator.locator("#presence")
        presence.locator("li.online", has_text="Mara").wait_for(timeout=3000)
        mara.context.close()
        presence.locator("li.offline", has_text="Mara").wait_for(timeout=5000)
        assert "(player, away)" in presence.locator("li", has_text="Mara").inner_text()
    finally:
        narrator.context.close()


def test_a_skill_clicked_on_the_sheet_opens_the_roll_with_its_odds(
    browser: Any, server_url: str
) -> None:
    """Mara (on her phone) opens Sir Terrik's sheet, sets CL 3 and clicks Athletics: the
    table's roll opens at once with Athletics and CL 3 chosen and the exact chance (6D6:
    base 3 + STR 1 + Athletics 2; 21/32), the typed pool disabled."""
    table = _make(server_url)
    sheet = yaml.safe_load((EXAMPLES / "core_sir_terrik.yaml").read_text(encoding="utf-8"))
    mara = {"Authorization": f"Bearer {table.mara_token}"}
    added = httpx.post(f"{table.url}/api/tables/{table.id}/characters", json={"sheet": sheet},
                       headers=mara)  # fmt: skip
    assert added.status_code == 201, added.text
    page = _open(browser, table, table.mara_token, PHONE)
    try:
        page.goto(f"{table.url}/t/{table.id}/c/{added.json()['id']}")
        page.get_by_label("CL of the roll").fill("3")
        page.get_by_role("button", name="Roll Athletics, 6D6").click()
        page.wait_for_url(f"**/t/{table.id}?*skill=Athletics*")
        assert page.get_by_label("Skill (core)").input_value() == "Athletics"
        assert page.get_by_label("CL", exact=True).input_value() == "3"
        assert page.get_by_label("Pool (dice)", exact=True).is_disabled()
        odds = page.locator("#odds")
        odds.get_by_text("exactly 21/32").wait_for(timeout=3000)
        assert odds.is_visible() and "65.63 %" in odds.inner_text()
    finally:
        page.context.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_fight_started_shows_on_the_table_page(
    browser: Any, server_url: str, width: str, artifacts: Path
) -> None:
    """Mara's table page is open when the narrator starts a fight of her Sir Terrik against a
    goblin: a card appears without a reload, saying whose turn it is by the fighters' names and
    what Mara must do, and its link opens the tracker."""
    table = _make(server_url)
    sheet = yaml.safe_load((EXAMPLES / "core_sir_terrik.yaml").read_text(encoding="utf-8"))
    mara = {"Authorization": f"Bearer {table.mara_token}"}
    added = httpx.post(f"{table.url}/api/tables/{table.id}/characters", json={"sheet": sheet},
                       headers=mara)  # fmt: skip
    assert added.status_code == 201, added.text
    page = _open(browser, table, table.mara_token, WIDTHS[width])
    try:
        assert page.locator("#combat-card-title").count() == 0
        fighters = [f"sir-terrik:a:{added.json()['id']}", "goblin:b:@goblin"]
        args = {"encounter": "fight-1", "name": "Ambush", "fighters": fighters}
        table.act({"action": "cogent.combat.start", "args": args})
        card = page.locator("#combat-card")
        card.get_by_text("A fight: Ambush, round 1").wait_for(timeout=3000)
        turn = card.locator("#combat-card-turn").inner_text()
        assert turn.startswith("To declare: ") and "Sir Terrik" in turn and "Goblin" in turn
        assert "sir-terrik" not in card.inner_text()
        you = card.locator("#combat-card-you").inner_text()
        assert "declare what Sir Terrik does" in you or "Goblin declares first" in you
        box = card.bounding_box()
        assert box is not None and box["y"] < WIDTHS[width]["height"]  # on the first screen
        page.screenshot(path=str(artifacts / f"table-fight-{width}.png"))
        card.get_by_role("link", name="Open the fight").click()
        page.locator("#whose-turn").wait_for(timeout=3000)
    finally:
        page.context.close()


@pytest.mark.parametrize("screen", [PHONE, SHORT_PHONE], ids=["phone", "short-phone"])
def test_the_newest_entry_stays_above_the_dock_while_a_fight_is_on(
    browser: Any, server_url: str, artifacts: Path, screen: dict[str, int]
) -> None:
    """On a phone, a fight's card above the log does not push the log's newest entry under
    the dock: on the first screen it sits above the dock, when the page opens during the
    fight and when the card appears while the page is open (a short phone too: there the
    card is compact, its line of whose turn it is left to the fight's page)."""
    table = _make(server_url, rolls=30)
    sheet = yaml.safe_load((EXAMPLES / "core_sir_terrik.yaml").read_text(encoding="utf-8"))
    mara = {"Authorization": f"Bearer {table.mara_token}"}
    added = httpx.post(f"{table.url}/api/tables/{table.id}/characters", json={"sheet": sheet},
                       headers=mara)  # fmt: skip
    assert added.status_code == 201, added.text

    def newest_above_the_dock(page: Any) -> None:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        newest = page.locator("#log li.entry").last
        assert newest.get_attribute("data-seq") == str(table.seqs()[-1])
        with contextlib.suppress(PlaywrightTimeout):  # the layout settles; then measured
            page.wait_for_function(NEWEST_ABOVE_DOCK, timeout=2000)
        entry, dock = newest.bounding_box(), page.locator(".dock").bounding_box()
        assert entry is not None and dock is not None
        assert entry["y"] + entry["height"] <= dock["y"], (entry, dock)

    page = _open(browser, table, table.mara_token, screen)
    try:
        fighters = [f"sir-terrik:a:{added.json()['id']}", "goblin:b:@goblin"]
        args = {"encounter": "fight-1", "name": "Ambush", "fighters": fighters}
        table.act({"action": "cogent.combat.start", "args": args})
        page.locator("#combat-card-title").wait_for(timeout=3000)
        page.wait_for_function(AT_BOTTOM, timeout=2000)
        newest_above_the_dock(page)
    finally:
        page.context.close()
    page = _open(browser, table, table.mara_token, screen)
    try:
        assert page.locator("#combat-card-title").is_visible()
        newest_above_the_dock(page)
        name = "phone" if screen == PHONE else "short-phone"
        page.screenshot(path=str(artifacts / f"table-fight-log-{name}.png"))
    finally:
        page.context.close()


def test_a_players_blind_roll_shows_the_narrator_the_result_and_her_that_it_was_made(
    browser: Any, server_url: str
) -> None:
    """Mara rolls 3D6 blind from her page: the narrator's log shows the roll with its dice;
    hers shows an entry marked blind that it was made, and neither her page nor her stream's
    bytes hold the roll."""
    table = _make(server_url)
    narrator = _open(browser, table, table.narrator_token, DESKTOP)
    mara = _open(browser, table, table.mara_token, DESKTOP)
    try:
        mara.get_by_label("A pool I type").check()
        mara.get_by_label("Pool (dice)", exact=True).fill("3")
        mara.locator("#roll-visibility").select_option("blind")
        mara.locator("#roll-button").click()
        mara.get_by_text("made blind (only the narrator sees the result)").wait_for(timeout=3000)
        seen = narrator.locator("#log li.entry", has_text="3D6 against CL 3")
        seen.wait_for(timeout=3000)
        assert seen.locator(".die").count() == 3 and "blind" in seen.inner_text()
        seq = seen.get_attribute("data-seq")
        stub = mara.locator(f"#ev-{seq}")
        stub.wait_for(timeout=3000)
        assert "blind" in stub.inner_text() and stub.locator(".die").count() == 0
        assert "3D6 against CL 3" not in mara.locator("#log").inner_text()
        received = stream_bytes(table, mara)
        assert f"id: {seq}".encode() in received and b"3D6 against CL 3" not in received
    finally:
        for page in (narrator, mara):
            page.context.close()
