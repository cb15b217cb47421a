"""The live table in Chromium under a sub-path (issue 36.7): ``taletable serve`` with
``TALETABLE_ROOT_PATH=/games`` behind a proxy that serves ``/games`` and strips it. The
narrator makes a table on the start page, a player joins with the join link, both pages go
live (their streams through the proxy), and a roll reaches the other seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.seating import DESKTOP, PHONE, seat_table
from tests.server.conftest import start_server
from tests.server.prefix_proxy import prefix_proxy


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site's URL under ``/games``, through the proxy."""
    folder = tmp_path_factory.mktemp("games")
    environment = {"TALETABLE_ROOT_PATH": "/games", "TALETABLE_TRUSTED_PROXIES": "127.0.0.1"}
    server = start_server(f"sqlite:///{folder / 'games.db'}", environment=environment)
    port = urlsplit(server.url).port
    assert port is not None
    try:
        with prefix_proxy("/games", port) as url:
            yield url
    finally:
        server.stop()


def test_a_table_made_joined_and_rolled_at_under_a_sub_path(browser: Any, site: str) -> None:
    table_id, narrator, (mara,) = seat_table(browser, f"{site}/", "Sub-path Keep",
                                             (("Mara", PHONE),))  # fmt: skip
    try:
        assert narrator.url == f"{site}/t/{table_id}"
        assert mara.url == f"{site}/t/{table_id}"
        stylesheet = narrator.evaluate(
            "() => getComputedStyle(document.body).getPropertyValue('font-family')"
        )
        assert stylesheet  # the style sheet came through the proxy
        narrator.set_viewport_size(DESKTOP)
        narrator.get_by_label("A pool I type").check()
        narrator.locator("#pool").fill("3")
        narrator.get_by_label("CL", exact=True).fill("1")
        before = mara.locator("#log li.entry").count()
        narrator.get_by_role("button", name="Roll the check").click()
        mara.locator("#log li.entry").nth(before).wait_for(timeout=5000)
        assert "3D6 against CL 1" in mara.locator("#log li.entry").last.inner_text()
    finally:
        for page in (narrator, mara):
            page.context.close()


def test_the_pages_asked_for_nothing_outside_the_sub_path(browser: Any, site: str) -> None:
    """Every request the start page and a table's pages make is under ``/games`` (none 404)."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    asked: list[tuple[str, int]] = []
    page.on("response", lambda answer: asked.append((answer.url, answer.status)))
    try:
        page.goto(f"{site}/")
        page.get_by_label("Table name").fill("Crossing")
        page.get_by_role("button", name="Create the table").click()
        page.get_by_role("link", name="Go to the table").click()
        page.wait_for_selector("#connection[data-state=live]", timeout=5000)
    finally:
        context.close()
    assert asked
    assert [url for url, _ in asked if not url.startswith(f"{site}/")] == []
    assert [(url, status) for url, status in asked if status >= 400] == []
