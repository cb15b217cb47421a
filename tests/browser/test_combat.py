"""The combat tracker in real Chromium: a narrator and a player (two contexts) fight two rounds
to an injury, Sir Terrik (Mara's) against a goblin of the bestiary (the narrator's). The table
allows physical dice, so every roll is entered and the fight is the same each run; each step
taken on one page shows on the other within a second."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from tests.browser.seating import PHONE, seat_table, wait_live

SHEET = Path(__file__).resolve().parents[2] / "examples" / "characters" / "core_sir_terrik.yaml"


def _seen_within_a_second(page: Any, selector: str, text: str) -> None:
    """``text`` shows in ``selector`` on ``page`` within a second of now."""
    started = time.monotonic()
    page.locator(selector, has_text=text).first.wait_for(timeout=1000)
    assert time.monotonic() - started < 1.0


def _seated(browser: Any, server_url: str) -> tuple[Any, Any, str]:
    _table_id, narrator, (player,) = seat_table(
        browser, server_url, "The Ambush", (("Mara", PHONE),), physical_dice=True
    )
    table_url = narrator.url
    player.get_by_label("…or paste it").fill(SHEET.read_text())
    player.get_by_role("button", name="Import", exact=True).click()
    player.locator("#import-message", has_text="Sir Terrik joined the table").wait_for()
    return narrator, player, table_url


def _start_fight(narrator: Any) -> None:
    """The narrator opens the tracker and starts Sir Terrik (side a) against a goblin, the
    roll-off faces 6 and 1 (the goblin declares first)."""
    narrator.get_by_role("link", name="Combat tracker").click()
    wait_live(narrator)
    narrator.get_by_label("Sir Terrik's side").select_option("a")
    narrator.get_by_label("Creature 1").select_option("goblin")
    narrator.locator("#start-faces").fill("6,1")
    narrator.get_by_role("button", name="Start the fight").click()


def _faces(page: Any) -> str:
    """Sir Terrik's dice all sixes, the goblin's all ones, in the order the page says."""
    hint = page.locator("#tracker p.hint", has_text="Faces are read").inner_text()
    found = re.search(r"Sir Terrik (\d+)D6 \(faces 1-\d+\), Goblin (\d+)D6", hint)
    assert found is not None, hint
    return ",".join(["6"] * int(found.group(1)) + ["1"] * int(found.group(2)))


def _round(narrator: Any, mara: Any, number: int, outcome: str) -> None:
    """One round: the goblin declares (lower roll-off), then Sir Terrik; Mara resolves with
    her dice and chooses ``outcome``; each step is seen on the other page within a second."""
    _seen_within_a_second(mara, "#whose-turn", "To declare: Goblin")
    assert mara.locator("#declare-form").count() == 0  # the goblin is the narrator's
    narrator.get_by_label("Target", exact=True).select_option("sir-terrik")
    narrator.get_by_role("button", name="Declare", exact=True).click()
    _seen_within_a_second(mara, "#whose-turn", "To declare: Sir Terrik")
    mara.get_by_label("Action", exact=True).select_option("attack")
    mara.get_by_label("Target", exact=True).select_option("goblin")
    mara.get_by_role("button", name="Declare", exact=True).click()
    _seen_within_a_second(narrator, "#fighter-sir-terrik", "Declared: attack at goblin")
    _seen_within_a_second(narrator, "#whose-turn", "resolve the round")
    mara.get_by_label("Faces of the physical dice (optional; highest RFL first)").fill(_faces(mara))
    mara.get_by_role("button", name="Resolve").click()
    _seen_within_a_second(narrator, "#tracker h2", "Sir Terrik over Goblin")
    assert f"round {number}, outcomes" in narrator.locator("#fight-title").inner_text()
    mara.get_by_label("Outcome", exact=True).select_option(outcome)
    mara.get_by_role("button", name="Choose").click()
    _seen_within_a_second(narrator, "#fight-title", f"round {number + 1}, declaration")


def test_a_narrator_and_a_player_fight_two_rounds_to_an_injury(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """The narrator starts the fight (roll-off faces 6 for Sir Terrik, 1 for the goblin: the
    goblin declares first); Mara's tracker shows it within a second. Round 1 Mara staggers the
    goblin; round 2 she gives it a medium injury, which both trackers show."""
    narrator, mara, table_url = _seated(browser, server_url)
    try:
        mara.goto(f"{table_url}/combat")
        wait_live(mara)
        _start_fight(narrator)
        _seen_within_a_second(mara, "#fight-title", "Ambush")
        assert "yours" in mara.locator("#fighter-sir-terrik").inner_text()
        _round(narrator, mara, 1, "stagger")
        assert "stagger" in narrator.locator("#fighter-goblin").inner_text()
        _round(narrator, mara, 2, "medium injury")
        for page in (narrator, mara):  # each tracker refreshes on its own stream's message
            _seen_within_a_second(page, "#fighter-goblin .injuries", "level 2")
            assert "medium injury" in page.locator("#fight-log").inner_text()
        for name, page, width in (("desktop", narrator, 1280), ("phone", mara, 375)):
            page.screenshot(path=str(artifacts / f"combat-{name}.png"), full_page=True)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"the tracker is {wide} px wide at {width}"
    finally:
        for page in (narrator, mara):
            page.context.close()


def test_a_half_filled_form_survives_the_tracker_drawn_again(browser: Any, server_url: str) -> None:
    """The narrator starts filling a condition (prone, 2 rounds), then declares for the goblin:
    the tracker is drawn again for Sir Terrik's turn, and what was typed is still there."""
    narrator, mara, _ = _seated(browser, server_url)
    try:
        _start_fight(narrator)
        _seen_within_a_second(narrator, "#whose-turn", "To declare: Goblin")
        narrator.locator("#condition-name").fill("prone")
        narrator.locator("#condition-rounds").fill("2")
        narrator.get_by_label("Target", exact=True).select_option("sir-terrik")
        narrator.get_by_role("button", name="Declare", exact=True).click()
        _seen_within_a_second(narrator, "#whose-turn", "To declare: Sir Terrik")
        assert narrator.locator("#condition-name").input_value() == "prone"
        assert narrator.locator("#condition-rounds").input_value() == "2"
    finally:
        for page in (narrator, mara):
            page.context.close()
