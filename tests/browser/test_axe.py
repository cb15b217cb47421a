"""axe-core (4.14.1, MPL-2.0, vendored in ``vendor/`` from the npm registry) on every page of
the live table at a 375 px phone and a 1280 px desktop: no serious or critical violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

AXE = (Path(__file__).with_name("vendor") / "axe.min.js").read_text(encoding="utf-8")
SHEET = Path(__file__).resolve().parents[2] / "examples" / "characters" / "core_sir_terrik.yaml"
WIDTHS = {"phone": {"width": 375, "height": 812}, "desktop": {"width": 1280, "height": 900}}


def _violations(page: Any) -> list[str]:
    """The serious and critical violations axe finds on the page as it is, one line each."""
    page.evaluate(AXE)
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{item['id']} ({item['impact']}): {item['help']} at "
        + ", ".join(str(node["target"]) for node in item["nodes"][:3])
        for item in found
        if item["impact"] in ("serious", "critical")
    ]


def _pages(server_url: str) -> dict[str, str]:
    made = httpx.post(f"{server_url}/api/tables", json={"name": "Keep", "system": "cogent"})
    table = made.json()
    headers = {"Authorization": f"Bearer {table['narrator_token']}"}
    sheet = yaml.safe_load(SHEET.read_text(encoding="utf-8"))
    added = httpx.post(
        f"{server_url}/api/tables/{table['id']}/characters", json={"sheet": sheet}, headers=headers
    )
    added.raise_for_status()
    fighters = [f"sir-terrik:a:{added.json()['id']}", "goblin:b:@goblin"]
    start = {"encounter": "fight-1", "name": "Ambush", "fighters": fighters}
    started = httpx.post(
        f"{server_url}/api/tables/{table['id']}/actions",
        json={"action": "cogent.combat.start", "args": start},
        headers=headers,
    )
    started.raise_for_status()  # the table page shows its card, the tracker its log
    base = f"{server_url}/t/{table['id']}"
    return {
        "enter": f"{base}/enter?token={table['narrator_token']}",
        "start": server_url + "/",
        "join": f"{server_url}/join/{table['id']}?code={table['join_code']}",
        "table": base,
        "sheet": f"{base}/c/{added.json()['id']}",
        "wizard": f"{base}/wizard",
        "combat": f"{base}/combat",
    }


@pytest.mark.parametrize("width", list(WIDTHS))
def test_no_page_has_a_serious_accessibility_violation(
    browser: Any, server_url: str, width: str
) -> None:
    """Start, join, the table (its closed panels opened; on a phone its rolls opened from the
    dock; a fight's card), a character sheet, the creation wizard and the combat tracker (its
    fight's log), as the narrator sees them."""
    pages = _pages(server_url)
    context = browser.new_context(viewport=WIDTHS[width], bypass_csp=True)
    page = context.new_page()
    page.goto(pages.pop("enter"))
    found = {}
    for name, url in pages.items():
        page.goto(url)
        if name == "table":
            page.wait_for_selector("#connection[data-state=live]", timeout=5000)
            for details in page.locator("details").all():
                details.evaluate("d => d.open = true")
            if width == "phone":  # the rolls, opened from the dock
                page.get_by_role("button", name="Roll dice").click()
        found[name] = _violations(page)
    context.close()
    assert {name: lines for name, lines in found.items() if lines} == {}
