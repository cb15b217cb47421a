"""The creation wizard's rough edges (issue 37, the pages): it offers only the table's edition;
a problem stands beside its own field (a core skill, a vocation's skill), an identity part left
blank says so once; the identity may be left as a draft (creation still asks it), what was
typed on a step is kept when going back, and the skills step warns that vocations are bought
from the same points."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.browser.seating import PHONE


@dataclass
class Tables:
    url: str
    core: str
    tiered: str
    page: Any


def _enter(page: Any, url: str, edition: str) -> str:
    made = httpx.post(f"{url}/api/tables",
                      json={"name": f"Marsh {edition}", "system": "cogent", "edition": edition})
    made.raise_for_status()
    table = made.json()
    page.goto(f"{url}/t/{table['id']}/enter?token={table['narrator_token']}")
    return str(table["id"])


@pytest.fixture(scope="module")
def tables(browser: Any, server_url: str) -> Iterator[Tables]:
    """A core and a tiered table, both of this page's narrator, on a phone."""
    page = browser.new_context(viewport=PHONE).new_page()
    core = _enter(page, server_url, "core")
    tiered = _enter(page, server_url, "tiered")
    yield Tables(server_url, core, tiered, page)
    page.context.close()


def _step(page: Any, title: str) -> None:
    page.locator("#step-title", has_text=title).wait_for(timeout=5000)


def _next(page: Any, title: str) -> None:
    page.get_by_role("button", name="Check and continue").click()
    _step(page, title)


def test_the_wizard_offers_only_the_tables_edition(tables: Tables) -> None:
    """A core table's wizard offers the core edition alone, a tiered table's the tiered; an
    edition posted all the same is refused in words."""
    page = tables.page
    for table, offered, other in ((tables.core, "Core edition", "Tiered edition"),
                                  (tables.tiered, "Tiered edition", "Core edition")):  # fmt: skip
        page.goto(f"{tables.url}/t/{table}/wizard")
        assert page.get_by_label(offered).count() == 1
        assert page.get_by_label(other).count() == 0
    posted = page.evaluate(
        """async (url) => (await fetch(url, {method: 'POST', headers: {'HX-Request': 'true'},
             body: new URLSearchParams({step: 'edition', edition: 'core', go: 'next'})})).text()""",
        f"{tables.url}/t/{tables.tiered}/wizard",
    )
    assert "this table plays the tiered edition" in posted and "step-title" not in posted


def test_problems_stand_beside_their_fields(tables: Tables) -> None:
    """A draft identity goes on to the attributes (its blanks said once each, then kept as
    still to write); a core skill over its cap is refused beside that skill, a vocational
    skill above its vocation beside that skill's row; typed points survive a step back."""
    page = tables.page
    page.goto(f"{tables.url}/t/{tables.core}/wizard")
    page.get_by_role("button", name="Start").click()
    _step(page, "Fast Play or a Campaign tier")
    page.get_by_label("Mode of play").select_option("fast_play")
    _next(page, "Character Identity")
    page.get_by_label("Name").fill("Wren")
    page.get_by_role("button", name="Check only").click()
    beside = page.locator("#problems-identity-disposition")
    beside.get_by_text("Still to write").wait_for(timeout=5000)
    assert beside.inner_text().count("Disposition") <= 1  # said once, not three times
    assert "write the character" not in beside.inner_text()
    _next(page, "Attributes")
    assert "Kept as a draft" in page.locator("#wizard").inner_text()
    page.get_by_label("STR").fill("1")
    page.get_by_label("RFL").fill("1")
    _next(page, "Disabling Characteristics")
    _next(page, "Core Skills")
    assert page.locator("#vocations-ahead").is_visible()  # the skill points buy vocations too
    page.get_by_role("spinbutton", name="Stealth").fill("5")
    page.get_by_role("button", name="Check only").click()
    page.locator("#problems-skills-Stealth").get_by_text("Stealth has 5 points").wait_for(
        timeout=5000
    )
    assert page.locator("#problems-skills").inner_text().strip() == ""
    page.get_by_role("spinbutton", name="Stealth").fill("2")
    page.get_by_role("spinbutton", name="Athletics").fill("1")
    page.get_by_role("button", name="2. Character Identity").click()  # back a step...
    _step(page, "Character Identity")
    page.get_by_role("button", name="Check and continue").click()
    _step(page, "Attributes")
    _next(page, "Disabling Characteristics")
    _next(page, "Core Skills")  # ...and the points typed before are there
    assert page.get_by_role("spinbutton", name="Stealth").input_value() == "2"
    assert page.get_by_role("spinbutton", name="Athletics").input_value() == "1"
    _next(page, "Vocations")
    page.get_by_label("Vocation 1 name").fill("Scout")
    page.get_by_label("Vocation 1 points", exact=True).fill("1")
    page.get_by_label("Vocation 1 vocational skill 1", exact=True).fill("Tracking")
    page.get_by_label("Vocation 1 vocational skill 1 points").fill("2")
    page.get_by_role("button", name="Check only").click()
    row = page.locator("#problems-vocations-0-vocational_skills-0")
    row.get_by_text("Tracking (2) is above its vocation Scout (1)").wait_for(timeout=5000)
    assert "Tracking" not in page.locator("#problems-vocations-0").inner_text()
    assert "Tracking" not in page.locator("#problems-vocations").inner_text()
