"""A sheet edited as a form in Chromium: a skill raised with its + button (from the keyboard)
and saved; the player and the narrator editing the same sheet in two contexts get the
field-level conflict view, and resolving it saves the fields each chose."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

SHEET = Path(__file__).resolve().parents[2] / "examples" / "characters" / "core_sir_terrik.yaml"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}


@dataclass
class Sheet:
    """Sir Terrik at a table: Mara (his player) and the narrator, each in a browser."""

    api: str
    url: str
    headers: dict[str, str]
    mara: Any
    narrator: Any

    def saved(self) -> dict[str, Any]:
        found: dict[str, Any] = httpx.get(self.api, headers=self.headers).json()
        return found


def _enter(browser: Any, server_url: str, table_id: str, token: str, viewport: Any) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{server_url}/t/{table_id}/enter?token={token}")
    return page


@pytest.fixture(scope="module")
def sheet(browser: Any, server_url: str) -> Iterator[Sheet]:
    """A core table; Mara joins and adds Sir Terrik; both open his sheet."""
    table = httpx.post(f"{server_url}/api/tables", json={"name": "Keep", "system": "cogent"}).json()
    joined = httpx.post(f"{server_url}/api/tables/{table['id']}/join",
                        json={"name": "Mara", "code": table["join_code"],
                              "role": "player"}).json()  # fmt: skip
    headers = {"Authorization": f"Bearer {joined['token']}"}
    terrik = yaml.safe_load(SHEET.read_text(encoding="utf-8"))
    base = f"{server_url}/api/tables/{table['id']}/characters"
    added = httpx.post(base, json={"sheet": terrik}, headers=headers)
    added.raise_for_status()
    character = added.json()["id"]
    url = f"{server_url}/t/{table['id']}/c/{character}"
    mara = _enter(browser, server_url, table["id"], joined["token"], PHONE)
    narrator = _enter(browser, server_url, table["id"], table["narrator_token"], DESKTOP)
    yield Sheet(f"{base}/{character}", url, headers, mara, narrator)
    for page in (mara, narrator):
        page.context.close()


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.locator("#sheet-status", has_text="Every creation and progression rule holds").wait_for(
        timeout=5000
    )


def test_a_skill_raised_with_its_plus_button_and_saved(sheet: Sheet, artifacts: Path) -> None:
    """Mara raises Athletics with + (from the keyboard): the live check shows the skill points
    over beside the skills; - on Endurance mends it; Save makes version 2."""
    page = sheet.mara
    _open(page, sheet.url)
    athletics = page.get_by_label("Athletics points", exact=True)
    assert athletics.input_value() == "2"
    page.get_by_role("button", name="Athletics points: one more").focus()
    page.keyboard.press("Enter")
    assert athletics.input_value() == "3"
    page.locator("#fp-skills").get_by_text("skill point(s) over").wait_for(timeout=5000)
    page.locator("#fp-budget-skills", has_text="Skill points left: -1").wait_for(timeout=5000)
    page.screenshot(path=str(artifacts / "sheet-form-problem-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_role("button", name="Endurance points: one less").click()
    page.locator("#sheet-status", has_text="Every creation and progression rule holds").wait_for(
        timeout=5000
    )
    page.get_by_role("button", name="Save the sheet").click()
    page.get_by_text("Saved: version 2.").wait_for(timeout=5000)
    saved = sheet.saved()
    assert saved["version"] == 2
    assert (saved["sheet"]["skills"]["Athletics"], saved["sheet"]["skills"]["Endurance"]) == (3, 1)


def test_two_editors_resolve_a_conflict_field_by_field(sheet: Sheet, artifacts: Path) -> None:
    """Both open version 2; Mara picks another combat skill for his vocation and saves; the
    narrator's stale save shows only the two fields that differ (his disposition and that
    combat skill's name), with the saved value and the narrator's; Mara's combat skill, which
    the narrator never touched, is offered kept and the narrator's own disposition taken;
    saved as offered, version 4 holds both."""
    _open(sheet.mara, sheet.url)
    _open(sheet.narrator, sheet.url)
    mara, narrator = sheet.mara, sheet.narrator
    mara.get_by_label("Vocation 1 combat skill 1", exact=True).select_option("Large Weapons")
    mara.get_by_role("button", name="Save the sheet").click()
    mara.get_by_text("Saved: version 3.").wait_for(timeout=5000)
    narrator.get_by_label("Disposition", exact=True).fill("Courteous, proud")
    narrator.get_by_role("button", name="Save the sheet").click()
    narrator.get_by_text("Someone saved this sheet while you were editing it").wait_for(
        timeout=5000
    )
    differs = narrator.locator("fieldset.differs")
    assert differs.count() == 2
    assert sorted(differs.locator("legend").all_inner_texts()) == [
        "identity › disposition", "vocations › 1 › combat skills › 1 › name"]  # fmt: skip
    narrator.screenshot(path=str(artifacts / "sheet-conflict-desktop.png"), full_page=True)
    combat = differs.filter(has=narrator.locator("legend", has_text="combat skills"))
    assert "Large Weapons" in combat.inner_text() and "Medium Weapons" in combat.inner_text()
    assert combat.get_by_label("Keep the saved value").is_checked()  # only Mara changed it
    assert narrator.locator("fieldset.differs", has_text="disposition").get_by_label(
        "Take yours").is_checked()  # fmt: skip
    narrator.get_by_role("button", name="Save with these choices").click()
    narrator.get_by_text("Saved: version 4.").wait_for(timeout=5000)
    saved = sheet.saved()["sheet"]
    assert saved["identity"]["disposition"] == "Courteous, proud"
    assert saved["vocations"][0]["combat_skills"][0]["name"] == "Large Weapons"


def test_typing_in_a_field_is_checked_without_leaving_it(sheet: Sheet) -> None:
    """A number typed (not stepped) is checked half a second after typing stops, while the
    field still has the focus: INT 3 is over the attribute points, INT 1 mends it."""
    page = sheet.mara
    _open(page, sheet.url)
    field = page.get_by_label("INT", exact=True)
    field.fill("3")
    page.locator("#fp-attributes").get_by_text("attribute point(s) over").wait_for(timeout=5000)
    assert page.evaluate("document.activeElement.name") == "attributes.INT"
    field.fill("1")
    page.locator("#sheet-status", has_text="Every creation and progression rule holds").wait_for(
        timeout=5000
    )
