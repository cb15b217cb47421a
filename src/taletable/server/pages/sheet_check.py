"""The sheet editor's live check: as a person types, every creation and progression rule.

The editor's text is posted (htmx, a short delay after typing stops) to this route, which
parses it and asks ``cogent.character.validate`` on a read of the table (no event: a check
changes nothing). Each problem the engine reports names the sheet field it concerns
(``attributes``, ``skill_points``, ``disabling_characteristics.0.skill``); the page shows it
beside that field: grouped under the field, with the line of the YAML text where the field is,
and a button that puts the cursor there.
"""

from __future__ import annotations

import asyncio
from typing import Any

import yaml
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from taletable.server.pages.characters import MAX_SHEET_TEXT
from taletable.server.pages.common import PAGE_ERRORS, error_text, fragment
from taletable.server.session import PageSession

__all__ = ["field_lines", "router", "sheet_problems"]

router = APIRouter(include_in_schema=False)
#: A budget's problem is shown at the fields that spend it.
SPENT_IN = {"attribute_points": "attributes", "skill_points": "skills"}


def field_lines(text: str) -> dict[str, int]:
    """Each field path of the YAML ``text`` (``identity.name``, ``vocations.0``) -> its line."""
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return {}
    lines: dict[str, int] = {}

    def walk(node: Any, path: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                where = f"{path}.{key.value}" if path else str(key.value)
                lines[where] = key.start_mark.line + 1
                walk(value, where)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                where = f"{path}.{index}"
                lines[where] = item.start_mark.line + 1
                walk(item, where)

    walk(root, "")
    return lines


def _line_of(field: str, lines: dict[str, int]) -> tuple[str, int | None]:
    """The deepest part of ``field`` the text holds, and its line (None: not in the text)."""
    parts = field.split(".")
    for end in range(len(parts), 0, -1):
        where = ".".join(parts[:end])
        if where in lines:
            return where, lines[where]
    return field, None


def sheet_problems(problems: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """The problems grouped by the field they concern, in the order of the text."""
    lines = field_lines(text)
    groups: dict[str, dict[str, Any]] = {}
    for problem in problems:
        field = str(problem.get("field") or "")
        field = SPENT_IN.get(field, field)
        where, line = _line_of(field, lines) if field else ("", None)
        group = groups.setdefault(where, {"field": where, "line": line, "problems": []})
        group["problems"].append(problem)
    return sorted(groups.values(), key=lambda group: (group["line"] or 0, group["field"]))


def _parsed(text: str) -> Any:
    if len(text) > MAX_SHEET_TEXT:
        raise ValueError(f"the sheet is over {MAX_SHEET_TEXT:,} characters")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise ValueError(
            f"the text is not YAML{where}: {getattr(error, 'problem', error)}"
        ) from None


@router.post("/t/{table_id}/c/{character_id}/check", response_class=HTMLResponse)
async def check_sheet(request: Request, session: PageSession, character_id: str) -> Response:
    """The edited sheet checked by every rule (``cogent.character.validate``), each problem
    beside its field."""
    text = str((await request.form()).get("text", ""))
    try:
        sheet = _parsed(text)
        played = await asyncio.to_thread(session.ask, "cogent.character.validate", {"sheet": sheet})
        report = played.to_data()
    except (*PAGE_ERRORS, ValueError) as error:
        return fragment("_sheet_check.html", error=error_text(error))
    groups = sheet_problems(list(report["problems"]), text)
    return fragment("_sheet_check.html", groups=groups, legal=report["legal"])
