"""The table page gives its seat's own seed for each scene (issue 35.2) in real Chromium: made
with crypto.getRandomValues, kept in the browser, committed in the log when the page opens and
again when the narrator opens the next scene; the seat checks its dice with it afterwards."""

from __future__ import annotations

import hashlib
from typing import Any

from tests.browser.seating import DESKTOP, seat_table


def _seed_entries(narrator: Any) -> list[str]:
    """The log's seat.seed entries, as the narrator's page shows them."""
    return [str(text) for text in narrator.locator("#log > li.entry").all_inner_texts()
            if "seed" in text.lower() and "gave" in text.lower()]  # fmt: skip


def test_a_players_page_gives_its_seed_at_each_scene(browser: Any, server_url: str) -> None:
    """Mara's page commits her seed for scene 1 on opening and for scene 2 once the narrator
    closes scene 1; the commitments in the log are the SHA-256 of the seeds her browser kept."""
    table_id, narrator, (mara,) = seat_table(browser, server_url, "Seeded", (("Mara", DESKTOP),))
    try:
        key = f"taletable-seed:{table_id}:"
        mara.wait_for_function(f"() => localStorage.getItem('{key}1') !== null", timeout=5000)
        narrator.once("dialog", lambda dialog: dialog.accept())
        narrator.get_by_role("button", name="Close the scene (reveal its dice seed)").click()
        mara.wait_for_function(f"() => localStorage.getItem('{key}2') !== null", timeout=5000)
        kept = [mara.evaluate(f"() => localStorage.getItem('{key}{n}')") for n in (1, 2)]
        assert kept[0] != kept[1] and all(len(seed) == 64 for seed in kept)
        export = narrator.request.get(f"{server_url}/api/tables/{table_id}/export").json()
        given = [e for e in export["events"] if e["kind"] == "seat.seed"]
        mara_seat = next(e["seat"] for e in export["events"] if e["kind"] == "seat.join"
                         and e["name"] == "Mara")  # fmt: skip
        hers = [e for e in given if e["seat"] == mara_seat]
        assert [e["scene"] for e in hers] == [1, 2]
        assert [e["commitment"] for e in hers] == [
            hashlib.sha256(bytes.fromhex(seed)).hexdigest() for seed in kept
        ]
        closed = next(e for e in export["events"] if e["kind"] == "scene.close")
        assert closed["seat_seeds"][mara_seat] == kept[0]
    finally:
        narrator.context.close()
        mara.context.close()
