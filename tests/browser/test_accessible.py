"""Every control of the start, join and table pages has a name a screen reader reads out, and
the pages fit a 375 px phone without sideways scrolling (issue 15)."""

from __future__ import annotations

import re
from typing import Any

import httpx

PHONE = {"width": 375, "height": 800}
CONTROLS = (
    "button",
    "link",
    "textbox",
    "combobox",
    "checkbox",
    "radio",
    "spinbutton",
    "searchbox",
    "slider",
    "listbox",
)


def _unnamed(snapshot: str) -> list[str]:
    """The controls of an ARIA snapshot (``- button "Save"``) that have no name."""
    found = []
    for line in snapshot.splitlines():
        match = re.match(r"\s*- (\w+)(.*)$", line)
        if match and match.group(1) in CONTROLS and not match.group(2).lstrip().startswith('"'):
            found.append(line.strip())
    return found


def _check(page: Any, where: str) -> None:
    snapshot = page.locator("body").aria_snapshot()
    assert any(f"- {control}" in snapshot for control in ("button", "link")), snapshot[:300]
    assert _unnamed(snapshot) == [], where
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], (where, wide)


def test_every_control_has_a_name_at_phone_width(browser: Any, server_url: str) -> None:
    made = httpx.post(f"{server_url}/api/tables", json={"name": "Keep", "system": "cogent"})
    table, code = made.json()["id"], made.json()["join_code"]
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(server_url)
    _check(page, "start")
    page.goto(f"{server_url}/join/{table}?code={code}")
    _check(page, "join")
    page.goto(f"{server_url}/t/{table}/enter?token={made.json()['narrator_token']}")
    page.wait_for_selector("#connection[data-state=live]", timeout=5000)
    for details in page.locator("details").all():
        details.evaluate("d => d.open = true")
    _check(page, "table (narrator)")
    page.context.close()
