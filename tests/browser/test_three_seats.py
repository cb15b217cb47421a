"""A short session at three seats in three Chromium contexts (issue 24, every point at once):
the narrator at 1280 px, Ada and Bram on phones (375 px), against one ``taletable serve``.

The narrator makes the table; the players join with the code typed in lower case (point 6);
Ada imports Sir Terrik, which Bram sees listed live but is not offered to roll (point 4); Ada
whispers to the narrator with an inline roll, and Bram's page and raw stream never hold a byte
of it (point 1); Ada rolls from her sheet on her phone, the log at its newest entry and the roll
within reach (points 3, 4), and every log reads it as a sentence (point 8); a fight shows on all
three table pages by the fighters' names (point 5); the narrator strikes Bram's message, struck
live for both players (point 7); Ada saves her sheet as a form and the narrator's view follows
(point 2); Bram leaves his seat and the narrator sees him away (point 6).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.browser.raw_stream import stream_bytes
from tests.browser.seating import DESKTOP, recording_page, wait_live

PHONE = {"width": 375, "height": 812}
SHEET = Path(__file__).resolve().parents[2] / "examples" / "characters" / "core_sir_terrik.yaml"
TABLE = "The Three Bells"
WHISPER = "the heir hides in the bell tower"
SHOUT = "Bram checks the cellar door"
#: An action's internal name (``cogent.check``, ``chat.say``) shown to a person.
DOTTED = re.compile(r"\b[a-z]+\.[a-z_]+(\.[a-z_]+)*\b")

#: The log's last entry lies within the log's box (the log is scrolled to its newest).
NEWEST_SHOWN = (
    "() => { const l = document.getElementById('log');"
    " const all = l.querySelectorAll(':scope > li.entry'); const e = all[all.length - 1];"
    " if (!e) return false; const b = e.getBoundingClientRect();"
    " const r = l.getBoundingClientRect(); return b.bottom <= r.bottom + 1 && b.top >= r.top; }"
)


@dataclass
class Table:
    url: str
    id: str = ""
    seats: dict[str, Any] = field(default_factory=dict)

    @property
    def page(self) -> str:
        return f"{self.url}/t/{self.id}"

    def each(self) -> list[tuple[str, Any]]:
        return list(self.seats.items())



def _make_and_join(browser: Any, table: Table) -> None:
    """The narrator makes the table on /start; each player types the code as read aloud (lower
    case, no dash), sees the table named, and joins. Every page is reloaded once all are seated
    (each chat box lists every seat)."""
    narrator = recording_page(browser, DESKTOP)
    narrator.goto(f"{table.url}/start")
    narrator.get_by_label("Table name").fill(TABLE)
    narrator.get_by_label("Cogent edition").select_option("core")
    narrator.get_by_role("button", name="Create the table").click()
    narrator.get_by_role("heading", name=f"{TABLE} is ready").wait_for(timeout=5000)
    heard = narrator.get_by_label("The join code", exact=True).input_value().replace("-", "")
    narrator.get_by_role("link", name="Go to the table").click()
    wait_live(narrator)
    table.id = narrator.url.rsplit("/", 1)[1]
    table.seats["narrator"] = narrator
    for name in ("Ada", "Bram"):
        player = recording_page(browser, PHONE)
        player.goto(table.url)
        player.get_by_role("link", name="Join a table").first.click()
        player.get_by_label("Join code").fill(heard.lower())
        player.get_by_role("button", name="Find the table").click()
        named = player.locator("#join-table").inner_text()
        assert named == f"You are joining {TABLE}, a table of Cogent Roleplay (core edition)."
        player.get_by_label("Your name").fill(name)
        player.get_by_role("button", name="Join").click()
        wait_live(player)
        table.seats[name.lower()] = player
    for _, page in table.each():
        page.reload()
        wait_live(page)
        for name in ("Ada", "Bram", "narrator"):
            page.locator("#presence li.online", has_text=name).wait_for(timeout=5000)


def _ada_imports(table: Table) -> str:
    """Ada imports Sir Terrik; Bram's list shows him without a reload, but Bram's roll panel
    offers him no character of Ada's. The sheet's address."""
    ada, bram = table.seats["ada"], table.seats["bram"]
    ada.get_by_label("…or paste it").fill(SHEET.read_text(encoding="utf-8"))
    with bram.expect_response(lambda answer: "/roll-characters" in answer.url) as refreshed:
        ada.get_by_role("button", name="Import", exact=True).click()  # Bram's panel asks again
        ada.locator("#import-message", has_text="Sir Terrik joined the table").wait_for()
    assert refreshed.value.ok and "Sir Terrik" not in refreshed.value.text()
    ada.locator("#roll-character", has_text="Sir Terrik").wait_for(state="attached", timeout=5000)
    listed = bram.locator("#characters li", has_text="Sir Terrik")
    listed.wait_for(timeout=5000)
    table.seats["narrator"].locator("#characters li", has_text="Sir Terrik").wait_for(timeout=5000)
    bram.locator("#roll-character select").wait_for(state="attached", timeout=3000)
    assert bram.locator("#roll-character option", has_text="Sir Terrik").count() == 0
    assert "None of yours yet" in bram.locator("#roll-character").inner_text()
    link = listed.get_by_role("link", name="Sir Terrik", exact=True)
    return f"{table.url}{link.get_attribute('href')}"


def _whisper_and_shout(table: Table) -> None:
    """Ada whispers [[2d6+1]] to the narrator: both logs show it with two dice; Bram's page,
    its recorded stream, its HTML and his raw stream never hold it. Bram's public message
    reaches all three."""
    ada, bram = table.seats["ada"], table.seats["bram"]
    box = ada.locator("#chat-form")
    box.get_by_label(re.compile(r"narrator \(narrator\)")).check()
    box.get_by_label("Message").fill(f"{WHISPER} [[2d6+1]]")
    box.get_by_label("Message").press("Enter")
    ada.locator("#chat-message", has_text="Whispered").wait_for(timeout=3000)
    for page in (table.seats["narrator"], ada):
        entry = page.locator("#log li.entry", has_text=WHISPER)
        entry.wait_for(timeout=3000)
        assert "whispered (out of character) to narrator" in entry.inner_text()
        assert entry.locator(".inline-roll .die").count() == 2
    bram.locator("#chat-form").get_by_label("Message").fill(SHOUT)
    bram.locator("#chat-form").get_by_label("Message").press("Enter")
    for _, page in table.each():
        page.locator("#log li.entry", has_text=SHOUT).wait_for(timeout=3000)
    assert WHISPER not in bram.locator("#log").inner_text()
    recorded = bram.evaluate("JSON.stringify(window.__sse)")
    assert SHOUT in recorded and WHISPER not in recorded
    html = httpx.get(table.page, cookies=_cookies(bram)).content
    assert SHOUT.encode() in html and WHISPER.encode() not in html
    raw = stream_bytes(table, bram)
    assert SHOUT.encode() in raw and WHISPER.encode() not in raw
    for seat in ("narrator", "ada"):
        assert WHISPER.encode() in stream_bytes(table, table.seats[seat])


def _cookies(page: Any) -> dict[str, str]:
    return {c["name"]: c["value"] for c in page.context.cookies()}


def _newest_in_view(page: Any) -> None:
    """The log shows its newest entry on the first screen, above the roll dock (a phone)."""
    page.wait_for_function(NEWEST_SHOWN, timeout=3000)  # a new entry is followed, not at once
    newest = page.locator("#log > li.entry").last
    dock = page.get_by_role("button", name="Roll dice").bounding_box()
    assert dock is not None and dock["y"] >= 0 and dock["y"] + dock["height"] <= PHONE["height"]
    shown = newest.bounding_box()
    assert shown is not None and shown["y"] + shown["height"] <= dock["y"], (shown, dock)


def _ada_rolls_from_her_sheet(table: Table, sheet: str) -> None:
    """On her phone Ada's log is at its newest entry and the dock in reach; she clicks
    Athletics on Sir Terrik's sheet (CL 3): the roll opens with its exact chance; she rolls, and
    every log reads the roll as a sentence, with no action name in it."""
    ada = table.seats["ada"]
    _newest_in_view(ada)
    ada.goto(sheet)
    ada.get_by_label("CL of the roll").fill("3")
    ada.get_by_role("button", name="Roll Athletics, 6D6").click()
    ada.wait_for_url(f"**/t/{table.id}?*skill=Athletics*")
    wait_live(ada)
    assert ada.get_by_label("Skill (core)").input_value() == "Athletics"
    ada.locator("#odds").get_by_text("exactly 21/32").wait_for(timeout=3000)
    button = ada.locator("#roll-button")
    if not button.is_visible():
        ada.get_by_role("button", name="Roll dice").click()
    button.click()
    for name, page in table.each():
        entry = page.locator("#log > li.entry", has_text="Athletics").last
        entry.wait_for(timeout=3000)
        head = " ".join(entry.locator(".head").inner_text().split())
        assert head.startswith("Ada rolled a check — 6D6 against CL 3"), (name, head)
        assert "Athletics +2D6" in entry.inner_text() and entry.locator(".die").count() == 6
        assert DOTTED.search(entry.inner_text()) is None, (name, entry.inner_text())
    _newest_in_view(ada)


def _a_fight_on_every_table_page(table: Table) -> None:
    """The narrator starts Sir Terrik against a goblin from the tracker: the card shows on the
    three table pages, live, by the fighters' names, telling each seat what is theirs to do."""
    narrator = table.seats["narrator"]
    narrator.get_by_role("link", name="Combat tracker").click()
    wait_live(narrator)
    narrator.get_by_label("Sir Terrik's side").select_option("a")
    narrator.get_by_label("Creature 1").select_option("goblin")
    narrator.get_by_role("button", name="Start the fight").click()
    narrator.locator("#whose-turn").wait_for(timeout=5000)
    narrator.goto(table.page)
    wait_live(narrator)
    for name, page in table.each():
        card = page.locator("#combat-card")
        card.get_by_text("A fight: Ambush, round 1").wait_for(timeout=5000)
        turn = card.locator("#combat-card-turn").inner_text()
        assert turn.startswith("To declare: ") and "Sir Terrik" in turn and "Goblin" in turn
        assert "sir-terrik" not in card.inner_text() and "@goblin" not in card.inner_text()
        you = card.locator("#combat-card-you").inner_text()
        if name == "bram":
            assert you == "You are not in this fight; you can follow it.", you
        else:
            assert you.startswith(("Your turn: declare what", "Nothing for you to do yet")), you


def _the_narrator_strikes_brams_message(table: Table) -> None:
    """The narrator strikes Bram's message with a reason; both players see it struck through
    with the reason, live; neither is offered a Strike form."""
    narrator = table.seats["narrator"]
    entry = narrator.locator("#log > li.entry", has_text=SHOUT)
    seq = entry.get_attribute("data-seq")
    entry.locator("details.strike > summary").click()
    entry.get_by_label("Why strike this entry?", exact=False).fill("said out of turn")
    entry.get_by_role("button", name="Strike this entry").click()
    for name, page in table.each():
        note = page.locator(f"#struck-{seq}")
        note.wait_for(state="visible", timeout=3000)
        assert note.inner_text() == "Struck by the narrator: said out of turn", name
        head = page.locator(f"#ev-{seq} > .head")
        assert "line-through" in head.evaluate("e => getComputedStyle(e).textDecorationLine")
    for player in ("ada", "bram"):
        assert table.seats[player].locator("details.strike").count() == 0


def _athletics(page: Any) -> str:
    return " ".join(page.locator("#sheet-read tr", has_text="Athletics").first.inner_text().split())


def _ada_saves_her_sheet(table: Table, sheet: str) -> None:
    """The narrator has Sir Terrik's sheet open; Ada raises Athletics with + and lowers
    Endurance with - on the form, and saves: the narrator's sheet shows 7D6 without a reload."""
    narrator, ada = table.seats["narrator"], table.seats["ada"]
    narrator.goto(sheet)
    assert _athletics(narrator).startswith("Athletics 6D6")
    ada.goto(sheet)
    holds = ada.locator("#sheet-status", has_text="Every creation and progression rule holds")
    holds.wait_for(timeout=5000)
    ada.get_by_role("button", name="Athletics points: one more").click()
    ada.locator("#fp-budget-skills", has_text="Skill points left: -1").wait_for(timeout=5000)
    ada.get_by_role("button", name="Endurance points: one less").click()
    holds.wait_for(timeout=5000)
    ada.get_by_role("button", name="Save the sheet").click()
    ada.get_by_text("Saved: version 2.").wait_for(timeout=5000)
    narrator.locator("#sheet-read tr", has_text="7D6").filter(has_text="Athletics").wait_for(
        timeout=5000
    )
    assert _athletics(narrator).startswith("Athletics 7D6")
    for page in (narrator, ada):
        page.goto(table.page)
        wait_live(page)


def _bram_leaves(table: Table, artifacts: Path) -> None:
    """Bram leaves from /tables in another tab (his table page still open): the narrator's
    presence shows him away, and his tables no longer list this one."""
    for name, page in table.each():
        page.screenshot(path=str(artifacts / f"three-seats-{name}.png"))
    tables = table.seats["bram"].context.new_page()
    tables.goto(f"{table.url}/tables")
    listed = tables.locator("#seated li", has_text=TABLE)
    assert "you are Bram (player)" in " ".join(listed.inner_text().split())
    listed.get_by_role("button", name=f"Leave {TABLE}").click()
    tables.get_by_text("This browser has left the table").wait_for(timeout=3000)
    assert tables.locator("#seated li", has_text=TABLE).count() == 0
    narrator = table.seats["narrator"]
    narrator.locator("#presence li.offline", has_text="Bram").wait_for(timeout=5000)
    assert "(player, away)" in narrator.locator("#presence li", has_text="Bram").inner_text()
    assert narrator.locator("#presence li.online", has_text="Ada").count() == 1
    narrator.screenshot(path=str(artifacts / "three-seats-narrator-after-leave.png"))


def test_a_short_session_at_three_seats(browser: Any, server_url: str, artifacts: Path) -> None:
    """Every point of issue 24 in one session, seen from each of the three seats."""
    table = Table(server_url)
    try:
        _make_and_join(browser, table)
        sheet = _ada_imports(table)
        _whisper_and_shout(table)
        _ada_rolls_from_her_sheet(table, sheet)
        _a_fight_on_every_table_page(table)
        _the_narrator_strikes_brams_message(table)
        _ada_saves_her_sheet(table, sheet)
        _bram_leaves(table, artifacts)
    finally:
        for _, page in table.each():
            page.context.close()
