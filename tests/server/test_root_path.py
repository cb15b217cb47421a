"""The whole site under a sub-path (issue 36.7): ``TALETABLE_ROOT_PATH=/games`` behind a proxy
that serves ``/games`` and strips it (``prefix_proxy``, as Caddy's ``handle_path`` or nginx's
``proxy_pass .../;``). Walked through the proxy only, as a browser would: the start page, a
table made, the narrator's and the join links, a player joined, a roll from the page, the
stream that carries it, static files; every link, form, stream and cookie path is under
``/games``, and every redirect goes there."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from tests.server.conftest import start_server
from tests.server.prefix_proxy import prefix_proxy

PREFIX = "/games"
#: Every attribute of a page that names a path of the site.
_PATHS = re.compile(r'\b(?:href|src|action|hx-get|hx-post|sse-connect|data-url)="([^"]*)"')


def assert_all_under_prefix(page: str) -> list[str]:
    """Every path the page names starts with the prefix (or is another site's or a fragment)."""
    paths = [html.unescape(p) for p in _PATHS.findall(page)]
    assert paths
    local = [p for p in paths if not p.startswith(("http://", "https://", "#", "mailto:"))]
    assert [p for p in local if not p.startswith(PREFIX + "/")] == []
    return local


def _cookie_paths(answer: httpx.Response) -> dict[str, str]:
    """The ``Path`` of each cookie the answer sets, by name."""
    paths = {}
    for line in answer.headers.get_list("set-cookie"):
        name = line.split("=", 1)[0]
        paths[name] = re.search(r"[Pp]ath=([^;]*)", line).group(1)  # type: ignore[union-attr]
    return paths


def test_the_site_works_under_a_sub_path(tmp_path: Path) -> None:
    environment = {"TALETABLE_ROOT_PATH": PREFIX, "TALETABLE_TRUSTED_PROXIES": "127.0.0.1"}
    server = start_server(f"sqlite:///{tmp_path / 'games.db'}", environment=environment)
    upstream = urlsplit(server.url).port
    assert upstream is not None
    try:
        with prefix_proxy(PREFIX, upstream) as site:
            origin = site.removesuffix(PREFIX)
            _walk(site, origin)
    finally:
        server.stop()


def _walk(site: str, origin: str) -> None:
    narrator = httpx.Client(base_url=origin, timeout=10, headers={"Origin": origin})
    start = narrator.get(f"{PREFIX}/")
    assert start.status_code == 200
    for path in assert_all_under_prefix(start.text):
        if "/static/" in path:
            assert narrator.get(path).status_code == 200, path
    made = narrator.post(f"{PREFIX}/start", data={"name": "Tavern", "system": "cogent"})
    assert made.status_code == 303, made.text
    location = made.headers["location"]
    assert re.fullmatch(rf"{PREFIX}/t/[0-9a-f]+/made", location)
    table_id = location.split("/")[3]
    assert _cookie_paths(made) == {
        f"taletable_{table_id}": f"{PREFIX}/",
        f"tt-shown-{table_id}": f"{PREFIX}/t/{table_id}/made",
    }
    shown = narrator.get(location)
    assert shown.status_code == 200
    assert_all_under_prefix(shown.text)
    links = dict(re.findall(r'id="(narrator-link|join-link|join-code)"[^>]*value="([^"]*)"',
                            shown.text))  # fmt: skip
    assert html.unescape(links["narrator-link"]).startswith(f"{site}/t/{table_id}/enter?token=")
    join_link = html.unescape(links["join-link"])
    assert join_link.startswith(f"{site}/join/{table_id}?code=")
    table_page = narrator.get(f"{PREFIX}/t/{table_id}")
    assert table_page.status_code == 200
    paths = assert_all_under_prefix(table_page.text)
    assert f"{PREFIX}/t/{table_id}/stream" in paths
    assert f"{PREFIX}/t/{table_id}/roll" in paths

    player = httpx.Client(base_url=origin, timeout=10, headers={"Origin": origin})
    asked = player.get(urlsplit(join_link).path + "?" + urlsplit(join_link).query)
    assert asked.status_code == 200
    assert f'action="{PREFIX}/join/{table_id}"' in asked.text
    form = {"code": links["join-code"], "name": "Mara", "role": "player"}
    joined = player.post(f"{PREFIX}/join/{table_id}", data=form)
    assert joined.status_code == 303, joined.text
    assert joined.headers["location"] == f"{PREFIX}/t/{table_id}"
    assert _cookie_paths(joined) == {
        f"taletable_{table_id}": f"{PREFIX}/",
        f"tt-seat-code-{table_id}": f"{PREFIX}/t/{table_id}",  # the seat's code, shown once
    }

    with player.stream("GET", f"{PREFIX}/t/{table_id}/stream") as stream:
        assert stream.status_code == 200
        chunks = stream.iter_text()
        rolled = player.post(f"{PREFIX}/t/{table_id}/roll", headers={"HX-Request": "true"},
                             data={"mode": "pool", "pool": "3", "cl": "1"})  # fmt: skip
        assert rolled.status_code == 200, rolled.text
        assert 'role="alert"' not in rolled.text
        received = ""
        while "event: log" not in received:  # the roll's entry, live, through the proxy
            received += next(chunks)
    assert player.get(f"{PREFIX}/static/table.js").status_code == 200
    assert player.get("/t/" + table_id).status_code == 404  # outside the sub-path: not served
