"""The narrator's Let it Ride tools in Chromium (issue 37.1, 37.3; 003 > Let it Ride, 003 >
Group Challenges): a situation freed and bound again from the narrator's tools, and a group
challenge refused when run again in its situation."""

from __future__ import annotations

from typing import Any

import httpx

RULE = "the check cannot be repeated for the same situation"


def test_the_narrator_frees_and_binds_again_in_the_browser(browser: Any, server_url: str) -> None:
    """A check in "the cliff" binds it; the narrator's "free it", then "Bind it again", leaves
    the repeat refused (the book's words); freed again, the check is rolled; the group
    challenge run twice in its situation is refused the second time."""
    made = httpx.post(f"{server_url}/api/tables", json={"name": "Cliff", "system": "boons"})
    table = made.json()
    api = f"{server_url}/api/tables/{table['id']}"
    narrator = {"Authorization": f"Bearer {table['narrator_token']}"}
    check = {"action": "boons.check", "args": {"bonus": 2, "target": 12, "situation": "the cliff"}}
    assert httpx.post(f"{api}/actions", json=check, headers=narrator).status_code == 201
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server_url}/t/{table['id']}/enter?token={table['narrator_token']}")
    page.wait_for_selector("#connection[data-state=live]", timeout=5000)
    page.get_by_text("Let it Ride: situations").click()
    page.get_by_label("Situation", exact=True).fill("The cliff")
    page.get_by_role("button", name="The circumstances changed: free it").click()
    page.locator("#situation-result", has_text="may be rolled again").wait_for(timeout=15000)
    page.get_by_role("button", name="Bind it again").click()
    page.locator("#situation-result", has_text="bind again").wait_for(timeout=15000)
    refused = httpx.post(f"{api}/actions", json=check, headers=narrator)
    assert refused.status_code == 422 and RULE in refused.json()["error"]["message"]
    page.get_by_role("button", name="The circumstances changed: free it").click()
    page.locator("#situation-result", has_text="may be rolled again").wait_for(timeout=15000)
    assert httpx.post(f"{api}/actions", json=check, headers=narrator).status_code == 201
    page.get_by_text("Group challenge", exact=True).click()
    page.get_by_label("Situation (binds the challenge)").fill("scale the cliff")
    page.get_by_role("button", name="Run the group challenge").click()
    page.locator("#group-result", has_text="the outcome is final").wait_for(timeout=15000)
    page.get_by_role("button", name="Run the group challenge").click()
    page.locator("#group-result", has_text="was already run").wait_for(timeout=15000)
    context.close()
