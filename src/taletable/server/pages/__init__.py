"""The live table's pages: Jinja2 templates made live with htmx and its SSE extension.

The pages are a shell like the CLI: each route parses a form, calls the same functions the
JSON API calls (:mod:`taletable.server.routes`, hence :mod:`taletable.play`), and renders.
No rule is decided in a template or in JavaScript. The seat is the signed cookie of
:mod:`taletable.server.cookies`.

* :mod:`.start` — start a table (post/redirect/get), the narrator's link, a new join code;
* :mod:`.join` — join a table by its code alone or its link, the page naming the table;
* :mod:`.seats` — the tables this browser sits at, leaving one, recovery codes (every seat's);
* :mod:`.table` — the table page, its live stream of rendered log entries and presence;
* :mod:`.chat` — the chat box: messages, whispers and inline rolls;
* :mod:`.rolls` — the roll panel, its exact odds, other rolls and the narrator's tools;
* :mod:`.panels` — conflicts, assists, collaborations, boons and labcats, with their odds;
* :mod:`.characters` — characters: import, read, export;
* :mod:`.sheet_edit` — a sheet edited as a form (or YAML), a stale save's differing fields;
* :mod:`.restore` — a sheet's last change taken back (the narrator's);
* :mod:`.handing` — whose a character is, and the narrator handing it to another seat;
* :mod:`.wizard` — the creation wizard, each step checked by the engine;
* :mod:`.sheet_check` — the sheet editor's live check, each problem beside its field;
* :mod:`.situations` — the narrator's Let it Ride marks and group challenge (boons);
* :mod:`.combat` — the combat tracker, live for every seat.
"""

from __future__ import annotations

from fastapi import APIRouter

__all__ = ["routers"]


def routers() -> list[APIRouter]:
    """Every router of the pages."""
    from taletable.server.pages import (
        characters,
        chat,
        combat,
        handing,
        join,
        panels,
        restore,
        rolls,
        seats,
        seeds,
        sheet_check,
        sheet_edit,
        situations,
        start,
        table,
        wizard,
    )

    return [
        start.router,
        join.router,
        seats.router,
        table.router,
        rolls.router,
        panels.router,
        characters.router,
        restore.router,
        handing.router,
        sheet_edit.router,
        wizard.router,
        sheet_check.router,
        situations.router,
        combat.router,
        chat.router,
        seeds.router,
    ]
