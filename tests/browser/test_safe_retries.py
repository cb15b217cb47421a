"""Safe retries from the pages, in real Chromium (issue 34.7): a roll sent twice at once (a
double submit, which htmx queues and sends after the first) logs one roll; a roll whose answer
was lost is sent again by the player with the same key and logs one roll, the page then saying
which; a roll after an answer is a new roll."""

from __future__ import annotations

import re
from typing import Any

from tests.browser.seating import DESKTOP, seat_table


def _head(page: Any, server_url: str, table_id: str) -> int:
    """The table's head seq, read with the page's own seat cookie."""
    answer = page.request.get(f"{server_url}/api/tables/{table_id}")
    assert answer.ok, answer.text()
    return int(answer.json()["head_seq"])


def _pool(page: Any, pool: int) -> None:
    page.locator("#roll-form input[name=mode][value=pool]").check()
    page.locator("#pool").fill(str(pool))
    page.locator("#cl").fill("2")


def _keys_sent(page: Any) -> list[str]:
    sent: list[str] = []

    def record(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/roll"):
            sent.append(request.headers.get("idempotency-key", ""))

    page.on("request", record)
    return sent


def _rolled(page: Any) -> int:
    message = page.locator("#roll-message")
    message.filter(has_text=re.compile(r"Rolled \(#\d+\)")).wait_for(timeout=5000)
    found = re.search(r"Rolled \(#(\d+)\)", message.inner_text())
    assert found is not None
    return int(found.group(1))


def test_a_double_submit_logs_one_roll(browser: Any, server_url: str) -> None:
    table_id, narrator, (mara,) = seat_table(browser, server_url, "Twice", [("Mara", DESKTOP)])
    try:
        _pool(mara, 4)
        keys = _keys_sent(mara)
        before = _head(mara, server_url, table_id)
        answered: list[Any] = []
        mara.on("response", lambda r: answered.append(r) if r.url.endswith("/roll") else None)
        mara.evaluate("""() => { const form = document.getElementById('roll-form');
                                 form.requestSubmit(); form.requestSubmit(); }""")
        for _ in range(100):  # htmx sends the second once the first is answered
            if len(answered) == 2:
                break
            mara.wait_for_timeout(50)
        assert len(keys) == 2 and keys[0] and keys[0] == keys[1]
        assert _rolled(mara) == before + 1
        assert _head(mara, server_url, table_id) == before + 1
        mara.get_by_role("button", name="Roll the check").click()  # a new roll: a new key
        mara.locator("#roll-message", has_text=f"Rolled (#{before + 2})").wait_for(timeout=5000)
        assert len(keys) == 3 and keys[2] != keys[0]
        assert _head(mara, server_url, table_id) == before + 2
    finally:
        narrator.context.close()
        mara.context.close()


def test_a_roll_whose_answer_was_lost_is_sent_again_and_logged_once(
    browser: Any, server_url: str
) -> None:
    """The roll reaches the server, its answer never reaches the page (the connection drops):
    the page says so; the player clicks again, the same key goes, and the page says the roll
    was made, with the number the log holds; one roll in the log."""
    table_id, narrator, (mara,) = seat_table(browser, server_url, "Lost", [("Mara", DESKTOP)])
    try:
        _pool(mara, 5)
        keys = _keys_sent(mara)
        before = _head(mara, server_url, table_id)

        def lose_the_answer(route: Any) -> None:
            route.fetch()  # the server takes the roll...
            route.abort("connectionreset")  # ...and the page never hears back

        mara.route("**/roll", lose_the_answer)
        mara.get_by_role("button", name="Roll the check").click()
        mara.locator("#roll-message", has_text="No answer from the table").wait_for(timeout=5000)
        assert _head(mara, server_url, table_id) == before + 1
        mara.unroute("**/roll")
        mara.get_by_role("button", name="Roll the check").click()
        assert _rolled(mara) == before + 1
        assert len(keys) == 2 and keys[0] == keys[1]
        assert _head(mara, server_url, table_id) == before + 1
    finally:
        narrator.context.close()
        mara.context.close()
