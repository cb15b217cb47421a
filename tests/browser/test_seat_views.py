"""What a player's pages offer of what is not theirs, and of their own view (issue 37, the pages'
third and fourth defects): another seat's character sheet is shown read-only (no form, no
"Save the sheet"; the server refuses such a save anyway), and every seat downloads its own
view of the log from the table page, a file ``taletable verify`` checks."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.browser.seating import DESKTOP, PHONE, seat_table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "characters"


@dataclass
class Table:
    url: str
    id: str
    narrator: Any
    ann: Any
    bram: Any
    mara: str


@pytest.fixture(scope="module")
def table(browser: Any, server_url: str) -> Iterator[Table]:
    """A core table; Ann (phone) imports Mara; Bram (desktop) sits at it too."""
    table_id, narrator, (ann, bram) = seat_table(
        browser, server_url, "Views", [("Ann", PHONE), ("Bram", DESKTOP)]
    )
    ann.get_by_label("…or paste it").fill((EXAMPLES / "core_mara_the_thief.yaml").read_text())
    ann.get_by_role("button", name="Import", exact=True).click()
    ann.get_by_text("Mara joined the table").wait_for(timeout=3000)
    bram.locator("#characters a", has_text="Mara").first.wait_for(timeout=3000)
    href = bram.locator("#characters a", has_text="Mara").first.get_attribute("href")
    yield Table(server_url, table_id, narrator, ann, bram, str(href).rsplit("/", 1)[1])
    for page in (narrator, ann, bram):
        page.context.close()


def _sheet(page: Any, table: Table) -> None:
    page.goto(f"{table.url}/t/{table.id}/c/{table.mara}")
    page.locator("#sheet-read").get_by_text("Pools as built").wait_for(timeout=5000)


def test_another_players_sheet_is_shown_read_only(table: Table) -> None:
    """Bram reads Mara (Ann's): no field to type in, no save button, words saying whose she is
    and who may change her; Ann and the narrator still get the form."""
    bram = table.bram
    _sheet(bram, table)
    assert bram.get_by_role("button", name="Save the sheet").count() == 0
    assert bram.locator("#editor, #sheet-form").count() == 0
    fields = bram.locator("main input:not([type=hidden]), main textarea, main select")
    assert fields.count() == 0
    said = bram.locator("#read-only").inner_text()
    assert "Ann's character" in said and "only Ann or the narrator may change it" in said
    for page in (table.ann, table.narrator):
        _sheet(page, table)
        page.get_by_role("button", name="Save the sheet").wait_for(timeout=3000)
        assert page.locator("#read-only").count() == 0


def test_every_seat_exports_its_own_view_from_the_table_page(
    table: Table, tmp_path: Path
) -> None:
    """Ann's secret-free view and the narrator's whole log, each downloaded from a link on the
    table page; a narrator-only roll is a hidden stub in Ann's file and whole in the
    narrator's; ``taletable verify`` accepts both files."""
    narrator = table.narrator
    narrator.goto(f"{table.url}/t/{table.id}")
    narrator.wait_for_selector("#connection[data-state=live]", timeout=5000)
    narrator.get_by_label("A pool I type").check()
    narrator.get_by_label("Pool (dice)", exact=True).fill("7")
    narrator.get_by_label("Who sees it").first.select_option("narrator")
    narrator.get_by_role("button", name="Roll the check").click()
    narrator.locator("#log li.entry", has_text="7D6 against CL").wait_for(timeout=3000)
    files = {}
    for name, page in (("ann", table.ann), ("narrator", narrator)):
        page.goto(f"{table.url}/t/{table.id}")
        with page.expect_download() as download:
            page.get_by_role("link", name="Export the log as you see it").click()
        files[name] = tmp_path / f"{name}.json"
        download.value.save_as(files[name])
    ann_view = json.loads(files["ann"].read_text())
    whole = json.loads(files["narrator"].read_text())
    assert len(ann_view["events"]) == len(whole["events"])
    assert sum(1 for event in ann_view["events"] if event.get("hidden")) >= 1
    assert not any(event.get("hidden") for event in whole["events"])
    assert "7D6" not in files["ann"].read_text()
    for path in files.values():
        checked = subprocess.run(
            [sys.executable, "-m", "taletable.cli.main", "verify", str(path)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_server_still_refuses_a_save_of_another_players_sheet(table: Table) -> None:
    """The page hides the form; the API refuses Bram's save of Mara all the same (403)."""
    cookies = {c["name"]: c["value"] for c in table.bram.context.cookies()}
    api = f"{table.url}/api/tables/{table.id}/characters/{table.mara}"
    sheet = yaml.safe_load((EXAMPLES / "core_mara_the_thief.yaml").read_text())
    answer = httpx.put(api, json={"sheet": sheet, "version": 1}, cookies=cookies,
                       headers={"Origin": table.url})  # fmt: skip
    assert answer.status_code == 403, answer.text
