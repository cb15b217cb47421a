"""axe-core (4.14.1, MPL-2.0, vendored in ``vendor/`` from the npm registry) on every page of
the live table at a 375 px phone and a 1280 px desktop: no serious or critical violation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

AXE = (Path(__file__).with_name("vendor") / "axe.min.js").read_text(encoding="utf-8")
SHEET = Path(__file__).resolve().parents[2] / "examples" / "characters" / "core_sir_terrik.yaml"
#: The page a table made on the start page lands on (reached by making one).
MADE = "made"
WIDTHS = {
    "phone": {"width": 375, "height": 812},
    "short-phone": {"width": 375, "height": 667},  # a fight's card is compact there (style.css)
    "desktop": {"width": 1280, "height": 900},
}


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


#: Pages reached by joining: under a name already seated, and as a new seat (its code shown).
SEATED, JOINED = "join: seated", "join: new seat"


def _join_as(page: Any, join_link: str, name: str) -> None:
    page.goto(join_link)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join").click()
    if name == "Narrator":
        page.get_by_role("heading", name="Are you narrator, coming back?").wait_for(timeout=5000)
    else:
        page.get_by_label("Your recovery code", exact=True).wait_for(timeout=5000)


def _pages(server_url: str) -> dict[str, str]:
    made = httpx.post(f"{server_url}/api/tables", json={"name": "Keep", "system": "cogent"})
    table = made.json()
    headers = {"Authorization": f"Bearer {table['narrator_token']}"}
    sheet = yaml.safe_load(SHEET.read_text(encoding="utf-8"))
    added = httpx.post(
        f"{server_url}/api/tables/{table['id']}/characters", json={"sheet": sheet}, headers=headers
    )
    added.raise_for_status()
    own = httpx.get(f"{server_url}/api/tables/{table['id']}", headers=headers).json()["seat"]
    said = httpx.post(  # a whisper with inline rolls in the log: the chat's entry checked too
        f"{server_url}/api/tables/{table['id']}/actions",
        json={
            "action": "chat.say",
            "args": {"text": "Note [[2d6+1]] and [[cogent 4 cl 2]]", "to": [own["id"]]},
        },
        headers=headers,
    )
    said.raise_for_status()
    api = f"{server_url}/api/tables/{table['id']}"
    sheet["identity"]["name"] = "Sir Terrik the Bold"  # an edit: the narrator may restore
    sheet["injuries"] = [{"level": 1, "description": "a cut"}]  # listed; the odds say why
    edit = {"sheet": sheet, "version": 1}
    edited = httpx.put(f"{api}/characters/{added.json()['id']}", json=edit, headers=headers)
    edited.raise_for_status()
    roll = {"action": "roll", "args": {"notation": "1d6"}}
    rolled = httpx.post(f"{api}/actions", json=roll, headers=headers).json()
    strike = {"action": "log.strike", "args": {"seq": rolled["seq"], "reason": "a slip"}}
    fighters = [f"k:a:{added.json()['id']}", "g:b:@goblin"]
    fight = {"action": "cogent.combat.start", "args": {"encounter": "f", "fighters": fighters}}
    left = {"action": "cogent.combat.start", "args": {"encounter": "e", "fighters": fighters}}
    prone = {"encounter": "f", "fighter": "g", "condition": "prone"}  # a step: Undo is offered
    # a fight left without an ending ("e"): the narrator's card lists it, with its button
    for body in (strike, left, fight, {"action": "cogent.combat.condition", "args": prone}):
        httpx.post(f"{api}/actions", json=body, headers=headers).raise_for_status()
    base = f"{server_url}/t/{table['id']}"
    return {
        "enter": f"{base}/enter?token={table['narrator_token']}",
        "start": server_url + "/",
        "start for boons": server_url + "/?system=boons",
        "made": MADE,
        "join": f"{server_url}/join/{table['id']}?code={table['join_code']}",
        "join by code": f"{server_url}/join",
        "join by code, found": f"{server_url}/join?code={table['join_code'].lower()}",
        "your tables": f"{server_url}/tables",
        "recover": f"{server_url}/recover",
        "table": base,
        "sheet": f"{base}/c/{added.json()['id']}",
        "wizard": f"{base}/wizard",
        "combat": f"{base}/combat",
        "delete the table": f"{base}/delete",
        "join, a name already seated": SEATED,  # asks whether this is that seat coming back
        "table, just joined": JOINED,  # its seat's recovery code, shown once
    }


@pytest.mark.parametrize("width", list(WIDTHS))
def test_no_page_has_a_serious_accessibility_violation(
    browser: Any, server_url: str, width: str, artifacts: Path
) -> None:
    """Start (for Cogent and for boons), the made table's codes, join (by link, by code), the
    tables this browser sits at, recovery, the table (its closed panels opened; on a phone its
    rolls opened from the dock; a fight's card, with the narrator's button that ends it and a
    fight left without an ending), a character sheet (with an injury), the creation wizard and the
    combat tracker (its fight's log), and the page that deletes the table, as the narrator sees
    them."""
    pages = _pages(server_url)
    context = browser.new_context(viewport=WIDTHS[width], bypass_csp=True)
    page = context.new_page()
    page.goto(pages.pop("enter"))
    found = {}
    for name, url in pages.items():
        if url in (SEATED, JOINED):
            _join_as(page, pages["join"], "Narrator" if url == SEATED else "Ann")
        elif url == MADE:  # a table made on the start page: its links and codes, shown once
            page.goto(pages["start"])
            page.get_by_label("Table name").fill("Axe")
            page.get_by_role("button", name="Create the table").click()
            page.get_by_label("Your recovery code", exact=True).wait_for(timeout=5000)
        else:
            page.goto(url)
        if name == "table":
            page.wait_for_selector("#connection[data-state=live]", timeout=5000)
            for details in page.locator("details").all():
                details.evaluate("d => d.open = true")
            if width == "phone":  # the rolls, opened from the dock
                page.get_by_role("button", name="Roll dice").click()
        if name == "sheet":
            page.wait_for_selector("#restore-form", timeout=5000)
            page.wait_for_selector("#owner-form", timeout=5000)
        if name == "combat":
            page.wait_for_selector("#take-back-form", timeout=5000)
        found[name] = _violations(page)
        shot = artifacts / f"page-{name.replace(' ', '-').replace(',', '')}-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
    context.close()
    assert {name: lines for name, lines in found.items() if lines} == {}


#: Each view drawn into the page by the form it belongs to (htmx, as a person's click would).
VIEWS = {
    "wizard vocations": ("wizard", "#wizard", "/wizard", {"step": "identity", "go": "to:vocations"},
                         "Vocation 1 combat skill 1"),
    "wizard review": ("wizard", "#wizard", "/wizard", {"step": "review", "go": "next"},
                      "Review the character"),
    "sheet conflict": ("sheet", "#editor", "/resolve", {"version": "0"}, "Take yours"),
}  # fmt: skip


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_wizards_lists_and_review_and_the_sheets_conflict_view(
    browser: Any, server_url: str, width: str
) -> None:
    """The wizard's vocations step (skills picked from lists) and its review of the whole
    sheet, and the sheet form's conflict view (the fields that differ, theirs or mine)."""
    pages = _pages(server_url)
    sheet = yaml.safe_load(SHEET.read_text(encoding="utf-8"))
    mine = {**sheet, "identity": {**sheet["identity"], "disposition": "Proud"}}
    context = browser.new_context(viewport=WIDTHS[width], bypass_csp=True)
    page = context.new_page()
    page.goto(pages.pop("enter"))
    found = {}
    for name, (where, target, path, values, shown) in VIEWS.items():
        page.goto(pages[where])
        fields = {**values, "draft": json.dumps(sheet), "base": "{}", "mine": json.dumps(mine)}
        url = pages[where].split("/wizard")[0] + path if where == "wizard" else pages[where] + path
        page.evaluate(
            "([url, target, values]) => htmx.ajax('POST', url, {target: target, values: values})",
            [url, target, fields],
        )
        page.locator(target, has_text=shown).wait_for(timeout=5000)
        page.wait_for_timeout(300)  # the live check that a drawn form starts
        found[name] = _violations(page)
    context.close()
    assert {name: lines for name, lines in found.items() if lines} == {}


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_boons_sheets_plain_form(browser: Any, server_url: str, width: str) -> None:
    """A boons table's sheet, edited as a form of its plain fields (-/+ on its numbers)."""
    made = httpx.post(f"{server_url}/api/tables", json={"name": "Banes", "system": "boons"})
    table = made.json()
    headers = {"Authorization": f"Bearer {table['narrator_token']}"}
    sheet = {"name": "Ash", "skills": {"Climb": 2}, "brave": True, "notes": ["a", "b"]}
    added = httpx.post(f"{server_url}/api/tables/{table['id']}/characters",
                       json={"sheet": sheet}, headers=headers)  # fmt: skip
    added.raise_for_status()
    context = browser.new_context(viewport=WIDTHS[width], bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server_url}/t/{table['id']}/enter?token={table['narrator_token']}")
    page.goto(f"{server_url}/t/{table['id']}/c/{added.json()['id']}")
    page.get_by_role("button", name="skills › Climb: one more").wait_for(timeout=5000)
    page.locator("#sheet-status", has_text="no creation rules").wait_for(timeout=5000)
    found = _violations(page)
    context.close()
    assert found == []


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_boons_tables_narrator_tools(browser: Any, server_url: str, width: str) -> None:
    """A boons table as its narrator sees it (issue 37): Let it Ride's marks and the group
    challenge form opened, a challenge run from it and its result with 003's advice drawn."""
    made = httpx.post(f"{server_url}/api/tables", json={"name": "Cliff", "system": "boons"})
    table = made.json()
    context = browser.new_context(viewport=WIDTHS[width], bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server_url}/t/{table['id']}/enter?token={table['narrator_token']}")
    page.wait_for_selector("#connection[data-state=live]", timeout=5000)
    for details in page.locator("details").all():
        details.evaluate("d => d.open = true")
    page.wait_for_timeout(300)  # a panel the stream redraws may close a details again
    for details in page.locator("details").all():
        details.evaluate("d => d.open = true")
    page.get_by_label("Situation (binds the challenge)").fill("scale the cliff")
    page.get_by_role("button", name="Run the group challenge").click()
    page.locator("#group-result", has_text="final").wait_for(timeout=15000)
    found = _violations(page)
    context.close()
    assert found == []


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_players_read_only_sheet_and_table_page(
    browser: Any, server_url: str, width: str
) -> None:
    """A player's view of the narrator's character (read only: no form) and of the table page
    (its link to the player's own export)."""
    made = httpx.post(f"{server_url}/api/tables", json={"name": "Keep", "system": "cogent"})
    table = made.json()
    headers = {"Authorization": f"Bearer {table['narrator_token']}"}
    sheet = yaml.safe_load(SHEET.read_text(encoding="utf-8"))
    added = httpx.post(f"{server_url}/api/tables/{table['id']}/characters",
                       json={"sheet": sheet}, headers=headers)  # fmt: skip
    added.raise_for_status()
    joined = httpx.post(f"{server_url}/api/tables/{table['id']}/join",
                        json={"code": table["join_code"], "name": "Ann", "role": "player"})
    joined.raise_for_status()
    context = browser.new_context(viewport=WIDTHS[width], bypass_csp=True)
    page = context.new_page()
    base = f"{server_url}/t/{table['id']}"
    page.goto(f"{base}/enter?token={joined.json()['token']}")
    found = {}
    page.goto(f"{base}/c/{added.json()['id']}")
    page.wait_for_selector("#read-only", timeout=5000)
    found["read-only sheet"] = _violations(page)
    page.goto(base)
    page.wait_for_selector("#export-view", timeout=5000)
    found["player's table"] = _violations(page)
    context.close()
    assert {name: lines for name, lines in found.items() if lines} == {}
