"""Talk at the table in three Chromium contexts (issue 24 point 1): a narrator and two players
against one running ``taletable serve``. Ada whispers to the narrator with an inline roll; the
narrator and Ada see it with its dice and chance; Bram's page (the HTML it loaded and every
stream message it received) and Bram's stream read with httpx never hold a byte of it, while
a public message after it reaches him."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browser.raw_stream import stream_bytes
from tests.browser.seating import DESKTOP, PHONE, seat_table, wait_live

WHISPER = "the heir hides in the bell tower"
SHOUT = "All clear down here"


@dataclass
class Seats:
    url: str
    id: str
    narrator: Any
    ada: Any
    bram: Any


@pytest.fixture(scope="module")
def seats(browser: Any, server_url: str) -> Iterator[Seats]:
    """The narrator makes a table on the start page; Ada (on a phone) and Bram join."""
    table_id, narrator, players = seat_table(
        browser, server_url, "The Bell Tower", (("Ada", PHONE), ("Bram", DESKTOP))
    )
    for page in (narrator, *players):  # every seat is in every chat box's whisper list
        page.reload()
        wait_live(page)
    yield Seats(server_url, table_id, narrator, players[0], players[1])
    for page in (narrator, *players):
        page.context.close()



def test_a_whisper_reaches_the_narrator_and_its_sender_only(seats: Seats, artifacts: Path) -> None:
    """Ada whispers to the narrator with [[2d6+1]] (sent with Enter); the narrator's and Ada's
    logs show it marked as a whisper with two dice and the chance; Bram's page, its recorded
    stream, its HTML reloaded and its raw stream hold the public message and not the whisper."""
    ada = seats.ada
    box = ada.locator("#chat-form")
    box.get_by_label(re.compile(r"narrator \(narrator\)")).check()
    box.get_by_label("Message").fill(f"{WHISPER} [[2d6+1]]")
    box.get_by_label("Message").press("Enter")
    ada.locator("#chat-message", has_text="Whispered").wait_for(timeout=3000)
    assert box.get_by_label("Message").input_value() == ""  # emptied, ready for the next
    for page in (seats.narrator, ada):
        entry = page.locator("#log li.entry", has_text=WHISPER)
        entry.wait_for(timeout=2000)
        text = entry.inner_text()
        assert "whispered (out of character) to narrator" in text
        assert "whisper: private" in text
        assert entry.locator(".inline-roll .die").count() == 2
        assert re.search(r"chance of \d+ or more: [\d.]+ % \(\d+/\d+\)", text), text
    box.get_by_label(re.compile(r"narrator \(narrator\)")).uncheck()
    box.get_by_label("Message").fill(f"{SHOUT} [[cogent 4 cl 2]]")
    box.get_by_label("Message").press("Enter")
    bram = seats.bram
    shout = bram.locator("#log li.entry", has_text=SHOUT)
    shout.wait_for(timeout=2000)  # the stream is live: a later public message arrived
    assert shout.locator(".inline-roll .die").count() == 4
    assert WHISPER not in bram.locator("#log").inner_text()
    recorded = bram.evaluate("JSON.stringify(window.__sse)")
    assert SHOUT in recorded and WHISPER not in recorded
    loaded = bram.goto(f"{seats.url}/t/{seats.id}")
    html = loaded.body()
    assert SHOUT.encode() in html and WHISPER.encode() not in html
    raw = stream_bytes(seats, bram)
    assert SHOUT.encode() in raw and WHISPER.encode() not in raw
    assert WHISPER.encode() in stream_bytes(seats, seats.narrator)
    assert WHISPER.encode() in stream_bytes(seats, ada)
    for name, page in (("narrator", seats.narrator), ("ada-phone", ada), ("bram", bram)):
        page.screenshot(path=str(artifacts / f"chat-{name}.png"), full_page=False)


def test_a_bad_inline_roll_is_refused_in_the_box(seats: Seats) -> None:
    """A malformed inline roll: the box keeps the text and says why, naming the bad part."""
    bram = seats.bram
    wait_live(bram)
    box = bram.locator("#chat-form")
    box.get_by_label("Message").fill("I attack [[2d6+]]")
    box.get_by_label("Message").press("Enter")
    alert = bram.locator("#chat-message [role=alert]")
    alert.wait_for(timeout=3000)
    assert "[[2d6+]]" in alert.inner_text()
    assert box.get_by_label("Message").input_value() == "I attack [[2d6+]]"
