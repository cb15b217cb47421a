"""Log entries as the pages show them: an event (as the seat received it) -> an :class:`Entry`.

Nothing here decides a rule: each fact comes from the event's result, read back into its own
record (:func:`taletable.play.results.read_result`), and the words come from the engine: the
entry's outcome is the record's ``summary`` note, in the words the command line prints too.
A result that reads back into no record this version knows is shown whole, as its JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from taletable._model import Record
from taletable.dice.notation import NotationResult
from taletable.explain import render, render_data
from taletable.play.narrator import BestiaryListing
from taletable.play.npcs import ShownStatblock
from taletable.play.results import read_result, summary_of
from taletable.server.pages.entries import DiceRow, Die, Entry, plain
from taletable.server.pages.present_combat import combat_entry
from taletable.server.pages.present_rolls import SHAPES, after_modes
from taletable.server.pages.present_rolls import TITLES as ROLL_TITLES
from taletable.systems.cogent.narrator.encounters import Encounter as Met
from taletable.systems.cogent.narrator.weather import WeatherRun
from taletable.systems.cogent.statblock import Statblock
from taletable.tables.roller import TableRoll

__all__ = ["DiceRow", "Die", "Entry", "present"]


def _notation(entry: Entry, result: NotationResult) -> None:
    entry.title += f" {result.notation}"
    entry.rows = [DiceRow(term.notation, plain(term.rolled)) for term in result.terms]
    entry.outcome = result.breakdown


def _random_table(entry: Entry, result: TableRoll) -> None:
    entry.title += f" — {result.title}"
    entry.rows = [DiceRow(result.die, plain(result.faces))]
    entry.outcome = f"{result.result} ({result.total}, entry {result.entry_range})"
    entry.lines = [f"{more.title}: {more.result}" for more in result.follow_ups]


def _weather(entry: Entry, result: WeatherRun) -> None:
    entry.title += f" — {result.season}"
    entry.lines = [
        f"day {day.day}: {day.weather}, {day.severity}"
        + (" — natural disaster" if day.natural_disaster else "")
        for day in result.days
    ]


def _encounter(entry: Entry, result: Met) -> None:
    entry.title += f" — {result.where}, {result.time}"
    entry.outcome = f"{result.encounter} ({result.severity})"


def _creature(entry: Entry, result: Statblock) -> None:
    entry.outcome = f"{result.name} ({result.tier}): {result.description}"


def _bestiary(entry: Entry, result: BestiaryListing) -> None:
    entry.outcome = f"{len(result.creatures)} creatures"


#: How each record of the narrator's tools and the dice fills its entry.
TOOL_SHAPES: dict[type[Any], Callable[[Entry, Any], None]] = {
    NotationResult: _notation,
    TableRoll: _random_table,
    WeatherRun: _weather,
    Met: _encounter,
    Statblock: _creature,
    ShownStatblock: lambda entry, result: _creature(entry, result.statblock),
    BestiaryListing: _bestiary,
}

TITLES = {
    **ROLL_TITLES,
    "roll": "Roll",
    "table.roll": "Random table",
    "cogent.weather": "Weather",
    "cogent.encounter": "Encounter",
    "cogent.npc.bestiary": "Bestiary",
}


def _table_event(entry: Entry, event: Mapping[str, Any], names: Mapping[str, str]) -> None:
    kind = event["kind"]
    if kind == "table.open":
        edition = f" ({event.get('edition')})" if event.get("edition") else ""
        entry.title = f"opened the table {event.get('name')}: {event.get('system')}{edition}"
    elif kind == "scene.open":
        entry.title = f"Scene {event['scene']} opened"
        entry.lines = [f"dice commitment (SHA-256 of its seed): {event.get('commitment')}"]
    elif kind == "scene.close":
        entry.title = f"Scene {event['scene']} closed: its dice seed is revealed"
        entry.lines = [f"seed: {event.get('seed')}"]
    elif kind == "seat.join":
        entry.title = f"joined as {event.get('role')}"
    elif kind in ("character.create", "character.update"):
        saves = event.get("saves") or [{}]
        sheet = saves[-1].get("data", {})
        name = sheet.get("identity", {}).get("name", event.get("character"))
        verb = "added" if kind == "character.create" else "edited"
        entry.title = f"{verb} the character {name} (version {saves[-1].get('version')})"
    elif kind == "character.owner":
        seat = names.get(str(event.get("seat")), "another seat")
        entry.title = f"handed the character {event.get('name', event.get('character'))} to {seat}"
    else:
        entry.title = kind


def present(event: Mapping[str, Any], names: Mapping[str, str]) -> Entry:
    """The log entry of ``event`` (``names``: seat id -> name, for who acted)."""
    actor = event.get("actor")
    entry = Entry(
        seq=int(event["seq"]),
        who=names.get(actor, "someone") if actor else "the table",
        at=str(event.get("at", ""))[11:19],
        visibility=str(event.get("visibility", "public")),
        title="",
        hidden=bool(event.get("hidden")),
        entered=bool(event.get("entered")),
        actor=actor,
        follows=event.get("follows"),
    )
    action = event.get("action")
    if action is None:
        _table_event(entry, event, names)
        return entry
    entry.title = TITLES.get(action, action)
    if str(action).startswith("cogent.combat.") and not entry.hidden:
        combat_entry(entry, event)
        return entry
    if entry.hidden:
        entry.title += ": made blind; only the narrator sees the result"
        return entry
    data = event.get("result") or {}
    result = read_result(str(action), data) if action in TITLES else None
    if result is None:  # a record this version does not show: shown whole below
        entry.rules = [render_data(rule) for rule in data.get("rules_applied", ())]
        entry.detail = json.dumps(data, indent=1, ensure_ascii=False)
        return entry
    _shown(entry, str(action), result)
    return entry


def _shown(entry: Entry, action: str, result: Record) -> None:
    """Fill ``entry`` from ``result``: its shape, its summary and the rules it applied."""
    shape = SHAPES.get(type(result)) or TOOL_SHAPES.get(type(result))
    if shape is not None:
        shape(entry, result)
    summary = summary_of(result)
    if summary is not None:
        entry.outcome = render(summary)
    entry.rules = [render(rule) for rule in getattr(result, "rules_applied", ())]
    entry.after_modes = after_modes(action, result)
