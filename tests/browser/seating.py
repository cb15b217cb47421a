"""What the browser tests share: the two widths, a page that records every server-sent message
it is sent, the wait for a page's stream to be live, and a table made on the start page with
its players joined through the join link."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 800}

#: Records every server-sent message the page receives (what it was sent, not what it shows).
RECORD_STREAM = """
(() => {
  window.__sse = [];
  const Native = window.EventSource;
  function Recording(url, options) {
    const source = new Native(url, options);
    const seen = new Set();
    const add = source.addEventListener.bind(source);
    source.addEventListener = function (type, listener, more) {
      if (!seen.has(type)) {
        seen.add(type);
        add(type, (e) => window.__sse.push({type: e.type, id: e.lastEventId, data: e.data}));
      }
      return add(type, listener, more);
    };
    return source;
  }
  Recording.prototype = Native.prototype;
  Recording.CONNECTING = 0; Recording.OPEN = 1; Recording.CLOSED = 2;
  window.EventSource = Recording;
})();
"""


def recording_page(browser: Any, viewport: dict[str, int]) -> Any:
    """A page of a context of its own (its own cookies: its own seat) that records its stream."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(RECORD_STREAM)
    return context.new_page()


def wait_live(page: Any) -> None:
    """Wait until the page's stream is connected (its badge says "Live")."""
    page.wait_for_selector("#connection[data-state=live]", timeout=5000)


def seat_table(
    browser: Any,
    server_url: str,
    name: str,
    players: Sequence[tuple[str, dict[str, int]]],
    *,
    physical_dice: bool = False,
) -> tuple[str, Any, list[Any]]:
    """The narrator (desktop) makes a core Cogent table called ``name`` on the start page and
    goes to it; each of ``players`` (name, viewport) joins with the join link, which holds the
    join code shown. The table's id, the narrator's page and the players' pages, all live."""
    narrator = recording_page(browser, DESKTOP)
    narrator.goto(server_url)
    narrator.get_by_label("Table name").fill(name)
    narrator.get_by_label("Cogent edition").select_option("core")
    if physical_dice:
        narrator.get_by_label("Seats may enter faces of physical dice").check()
    narrator.get_by_role("button", name="Create the table").click()
    join = narrator.get_by_label("The players' join link", exact=True).input_value()
    assert narrator.get_by_label("The join code", exact=True).input_value() in join
    narrator.get_by_role("link", name="Go to the table").click()
    wait_live(narrator)
    table_id = narrator.url.rsplit("/", 1)[1]
    pages = []
    for player_name, viewport in players:
        player = recording_page(browser, viewport)
        player.goto(join)
        player.get_by_label("Your name").fill(player_name)
        player.get_by_role("button", name="Join").click()
        wait_live(player)
        pages.append(player)
    return table_id, narrator, pages
