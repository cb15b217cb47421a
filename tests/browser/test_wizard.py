"""A player builds a character with the creation wizard in Chromium (at phone width, partly from
the keyboard); a refused step is shown beside its field; the finished sheet appears in the
narrator's character list live; the sheet editor then checks the rules as the player types."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 800}

#: The controls of the wizard that no label names (none should be).
UNLABELLED = """
() => [...document.querySelectorAll(
    '#wizard input:not([type=hidden]), #wizard select, #wizard textarea, #wizard button')]
  .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                && !(el.tagName === 'BUTTON' && el.textContent.trim()))
  .map(el => el.name || el.id)
"""


@dataclass
class Seats:
    url: str
    id: str
    narrator: Any
    player: Any


@pytest.fixture(scope="module")
def seats(browser: Any, server_url: str) -> Iterator[Seats]:
    """The narrator makes a core table; Wren joins it on a phone."""
    narrator = browser.new_context(viewport=DESKTOP).new_page()
    narrator.goto(server_url)
    narrator.get_by_label("Table name").fill("The Reed Marsh")
    narrator.get_by_label("Cogent edition").select_option("core")
    narrator.get_by_role("button", name="Create the table").click()
    join = narrator.get_by_label("The players' join link", exact=True).input_value()
    narrator.get_by_role("link", name="Go to the table").click()
    narrator.wait_for_selector("#connection[data-state=live]", timeout=5000)
    player = browser.new_context(viewport=PHONE).new_page()
    player.goto(join)
    player.get_by_label("Your name").fill("Wren's player")
    player.get_by_role("button", name="Join").click()
    player.wait_for_selector("#connection[data-state=live]", timeout=5000)
    yield Seats(server_url, narrator.url.rsplit("/", 1)[1], narrator, player)
    for page in (narrator, player):
        page.context.close()


def _step(page: Any, title: str) -> None:
    """Wait for the wizard to show the step ``title``; every control in it is labelled."""
    page.locator("#step-title", has_text=title).wait_for(timeout=5000)
    assert page.evaluate(UNLABELLED) == [], title


def _next(page: Any, title: str) -> None:
    page.get_by_role("button", name="Check and continue").click()
    _step(page, title)


def test_a_player_builds_a_sheet_with_the_wizard(seats: Seats, artifacts: Path) -> None:
    """Core Fast Play, step by step: a third attribute point is refused beside the attributes;
    the vocation's skills are picked from lists (a vocational skill's attribute, a combat
    skill's weapon category), armour ticked from the armour table; the review shows the whole
    sheet; once created it joins the table and the narrator sees it listed without
    reloading."""
    page = seats.player
    page.get_by_role("link", name="Build a character with the wizard").click()
    page.get_by_label("Core edition", exact=True).check()
    page.get_by_role("button", name="Start").click()
    _step(page, "Fast Play or a Campaign tier")
    page.get_by_label("Mode of play").select_option("fast_play")
    _next(page, "Character Identity")
    page.get_by_label("Name").fill("Wren")
    for label, text in (("Concept", "Marsh scout"), ("Disposition", "Wary"),
                        ("History", "Raised by reed-cutters"), ("Beliefs", "Leave no one"),
                        ("Goals", "Chart the marsh")):  # fmt: skip
        page.get_by_label(label, exact=True).fill(text)
    page.get_by_label("Goals", exact=True).press("Enter")  # the keyboard submits the step
    _step(page, "Attributes")
    page.get_by_label("STR").fill("2")
    page.get_by_label("RFL").fill("1")
    page.get_by_role("button", name="Check and continue").click()
    beside = page.locator("#problems-attributes")
    beside.get_by_text("1 attribute point(s) over").wait_for(timeout=5000)
    page.screenshot(path=str(artifacts / "wizard-refused-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_label("STR").fill("1")
    _next(page, "Disabling Characteristics")
    _next(page, "Core Skills")
    page.get_by_label("Stealth").fill("2")
    _next(page, "Vocations")
    page.get_by_label("Vocation 1 name").fill("Scout")
    page.get_by_label("Vocation 1 attribute").select_option("RFL")
    page.get_by_label("Vocation 1 points", exact=True).fill("1")
    page.get_by_label("Vocation 1 vocational skill 1", exact=True).fill("Tracking")
    page.get_by_label("Vocation 1 vocational skill 1 attribute").select_option("INT")
    page.get_by_label("Vocation 1 vocational skill 1 points").fill("1")
    page.get_by_label("Vocation 1 combat skill 1", exact=True).select_option("Long Stringed")
    page.get_by_label("Vocation 1 combat skill 1 points").fill("1")
    _next(page, "Commerce Points")
    page.get_by_label("Commerce level the narrator assigns").fill("3")
    _next(page, "Equipment")
    page.get_by_label("Weapon 1").fill("Spear")
    page.get_by_label("Its weapon group").select_option("Large Weapon")
    page.get_by_label("Leather Armour").check()
    _next(page, "Destiny Points")
    page.get_by_role("button", name="Check and review the character").click()
    _step(page, "Review the character")
    review = page.locator("#wizard .review")
    for shown in ("Wren", "Tracking (INT) 1", "Long Stringed (combat) 1", "Spear (Large Weapon)",
                  "Leather Armour"):  # fmt: skip
        assert shown in review.inner_text(), shown
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(artifacts / "wizard-review-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_role("button", name="Create the character").click()
    page.get_by_text("Wren is made and joined the table").wait_for(timeout=5000)
    seats.narrator.locator("#characters a", has_text="Wren").wait_for(timeout=3000)


def test_the_editor_shows_each_problem_beside_its_field(seats: Seats, artifacts: Path) -> None:
    """The sheet the wizard made, edited as YAML (the fallback under the form): a third
    attribute point is shown under ``attributes`` with its line as one types, and mended the
    same way."""
    page = seats.player
    page.get_by_role("link", name="Open the sheet").click()
    page.locator("details.yaml summary").click()
    check = page.locator("#sheet-check")
    check.get_by_text("Every creation and progression rule holds").wait_for(timeout=5000)
    editor = page.get_by_label("The sheet (YAML)")
    text = editor.input_value()
    assert "  STR: 1\n" in text
    editor.fill(text.replace("  STR: 1\n", "  STR: 3\n", 1))
    field = check.locator('[data-field="attributes"]')
    field.get_by_text("attribute point(s) over").wait_for(timeout=5000)
    field.get_by_role("button", name="go to attributes").click()
    assert page.evaluate("document.activeElement.id") == "sheet-yaml"
    for width, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(artifacts / f"sheet-check-{width}.png"), full_page=True)
    editor.fill(text)
    check.get_by_text("Every creation and progression rule holds").wait_for(timeout=5000)
