"""The narrator's button that ends a fight, in real Chromium (issue 34 point 5): Ann's Mara took
a goblin's level 2 victory (a medium injury her leather armour made minor); the narrator's fight
card offers "End the fight" and asks first: dismissed, nothing changes; accepted, the fight
ends and Mara's sheet, open on Ann's phone, shows the injury by itself (its stream)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import yaml

from tests.browser.seating import DESKTOP, PHONE, wait_live

MARA = Path(__file__).resolve().parents[2] / "examples" / "characters" / "core_mara_the_thief.yaml"


def _enter(browser: Any, server_url: str, table_id: str, token: str, viewport: Any) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{server_url}/t/{table_id}/enter?token={token}")
    return page


def _act(server_url: str, table_id: str, token: str, kind: str, **args: Any) -> None:
    answer = httpx.post(
        f"{server_url}/api/tables/{table_id}/actions",
        json={"action": kind, "args": args},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 201, answer.text


def _fought(server_url: str) -> tuple[str, str, str, str]:
    """A table with physical dice where the goblin won a level 2 victory over Mara and a medium
    injury was chosen (minor after her armour): its id, the narrator's and Ann's tokens, and
    Mara's id."""
    made = httpx.post(f"{server_url}/api/tables",
                      json={"name": "Keep", "system": "cogent", "physical_dice": True}).json()
    table_id, narrator = made["id"], made["narrator_token"]
    ann = httpx.post(f"{server_url}/api/tables/{table_id}/join",
                     json={"name": "Ann", "code": made["join_code"], "role": "player"}).json()
    sheet = yaml.safe_load(MARA.read_text(encoding="utf-8"))
    added = httpx.post(f"{server_url}/api/tables/{table_id}/characters", json={"sheet": sheet},
                       headers={"Authorization": f"Bearer {ann['token']}"})  # fmt: skip
    added.raise_for_status()
    mara = added.json()["id"]
    fight = "fight-0000beef"
    _act(server_url, table_id, narrator, "cogent.combat.start", encounter=fight, name="Ambush",
         fighters=[f"mara:a:{mara}", "goblin:b:@goblin"])  # fmt: skip
    _act(server_url, table_id, narrator, "cogent.combat.declare", encounter=fight,
         actor="goblin", action="attack", target="mara")  # fmt: skip
    _act(server_url, table_id, ann["token"], "cogent.combat.declare", encounter=fight,
         actor="mara", action="attack", target="goblin")  # fmt: skip
    # Mara's 6D6 (RFL, INT, Small Weapons) all ones; the goblin's 5D6 with two sixes
    _act(server_url, table_id, narrator, "cogent.combat.resolve", encounter=fight,
         faces=[1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1])  # fmt: skip
    _act(server_url, table_id, narrator, "cogent.combat.choose", encounter=fight, victory=1,
         outcome="medium injury")  # fmt: skip
    return table_id, narrator, ann["token"], mara


def test_the_narrator_ends_the_fight_and_maras_sheet_shows_the_injury(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    table_id, narrator_token, ann_token, mara = _fought(server_url)
    narrator = _enter(browser, server_url, table_id, narrator_token, DESKTOP)
    ann = _enter(browser, server_url, table_id, ann_token, PHONE)
    try:
        ann.goto(f"{server_url}/t/{table_id}/c/{mara}")  # its stream reads from the page's seq
        injuries = ann.locator("#sheet-injuries")
        assert injuries.inner_text() == "none"
        wait_live(narrator)
        end = narrator.get_by_role("button", name="End the fight")
        asked: list[str] = []
        narrator.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        end.click()
        narrator.wait_for_timeout(500)
        assert asked and asked[0].startswith("End Ambush?")
        assert injuries.inner_text() == "none"  # dismissed: nothing was sent
        narrator.once("dialog", lambda dialog: dialog.accept())
        end.click()
        narrator.locator("#combat-ended", has_text="Ambush has ended").wait_for(timeout=5000)
        ann.locator("#sheet-injuries", has_text="minor injury").wait_for(timeout=5000)
        assert "-1D6 to physical checks" in injuries.inner_text()
        assert ann.get_by_role("button", name="End the fight").count() == 0
        narrator.screenshot(path=str(artifacts / "fight-ended-desktop.png"), full_page=True)
    finally:
        for page in (narrator, ann):
            page.context.close()
