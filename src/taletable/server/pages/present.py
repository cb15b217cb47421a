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
from taletable.explain import note, render, render_data
from taletable.log_entry import LogEntry
from taletable.play.registry import is_read
from taletable.play.results import read_result, summary_of
from taletable.play.undo import Struck
from taletable.server.pages.entries import DiceRow, Die, Entry, plain
from taletable.server.pages.present_chat import chat_entry
from taletable.server.pages.present_combat import combat_entry
from taletable.server.pages.present_records import RECORD_SHAPES, read_cast
from taletable.server.pages.present_rolls import SHAPES, after_modes
from taletable.server.pages.present_titles import READ_OUTCOME, title_of
from taletable.systems.cogent.narrator.encounters import Encounter as Met
from taletable.systems.cogent.narrator.weather import WeatherRun
from taletable.systems.cogent.statblock import NPCS, Statblock
from taletable.tables.roller import TableRoll

__all__ = ["DiceRow", "Die", "Entry", "present"]


def _notation(entry: Entry, result: NotationResult) -> None:
    entry.title += f" {result.notation}"
    entry.rows = [DiceRow(term.notation, plain(term.rolled)) for term in result.terms]
    entry.outcome = result.breakdown


def _random_table(entry: Entry, result: TableRoll) -> None:
    entry.title += f": {result.title}"
    entry.rows = [DiceRow(result.die, plain(result.faces))]
    entry.lines = [f"{more.title}: {render(more.summary)}" for more in result.follow_ups]


def _weather(entry: Entry, result: WeatherRun) -> None:
    entry.title += f" for {result.season}"
    entry.lines = [render(day) for day in result.day_notes]


def _encounter(entry: Entry, result: Met) -> None:
    entry.title += f": {result.where}, {result.time}"


def _creature(entry: Entry, result: Statblock) -> None:
    described = result.description or None
    creature = note("cogent.bestiary.creature", NPCS, name=result.name, tier=result.tier,
                    description=described)  # fmt: skip
    entry.outcome = render(creature, cited=False)


def _struck(entry: Entry, result: Struck) -> None:
    entry.strikes, entry.struck_reason = result.seq, result.reason


#: How each record of the narrator's tools and the dice fills its entry (beside its summary).
TOOL_SHAPES: dict[type[Any], Callable[[Entry, Any], None]] = {
    NotationResult: _notation,
    TableRoll: _random_table,
    WeatherRun: _weather,
    Met: _encounter,
    Statblock: _creature,
    Struck: _struck,
    **RECORD_SHAPES,
}


def _sheet_name(logged: LogEntry) -> str:
    """The name of the character a sheet's entry saved (its key when it names none)."""
    save = logged.last_save()
    return (save.name() if save is not None else None) or str(logged.character)


def _sheet_event(entry: Entry, logged: LogEntry, names: Mapping[str, str]) -> None:
    """A sheet added, edited, taken back or handed to a seat."""
    kind, save = logged.kind, logged.last_save()
    version = save.version if save is not None else None
    if kind in ("character.create", "character.update"):
        verb = "added" if kind == "character.create" else "edited"
        entry.title = f"{verb} the character {_sheet_name(logged)} (version {version})"
    elif kind == "character.restore":
        entry.title = f"took back the last change to {_sheet_name(logged)}'s sheet"
        entry.outcome = (
            f"the sheet is as it was at version {logged.restored} (now version {version})"
        )
    else:
        seat = names.get(str(logged.seat), "another seat")
        entry.title = f"handed the character {logged.name or logged.character} to {seat}"


def _table_event(entry: Entry, logged: LogEntry, names: Mapping[str, str]) -> None:
    kind = logged.kind
    if kind == "table.open":
        edition = f" ({logged.edition})" if logged.edition else ""
        entry.title = f"opened the table {logged.name}: {logged.system}{edition}"
    elif kind == "scene.open":
        entry.title = f"opened scene {logged.scene}"
        entry.outcome = "its dice are sealed: anyone can check every roll when the scene closes"
        entry.lines = [f"the seal (a fingerprint of the dice): {logged.commitment}"]
    elif kind == "scene.close":
        entry.title = f"closed scene {logged.scene}"
        entry.outcome = "its dice are revealed: anyone can now check every roll of the scene"
        entry.lines = [f"the scene's dice, revealed: {logged.seed}"]
    elif kind == "seat.join":
        entry.title = f"joined as {logged.role}"
    elif kind == "seat.seed":
        # one line: every seat seals one each scene (its seal is in the export, for checking)
        entry.title = "sealed a seed of their own into this scene's dice"
    elif kind == "scene.hidden-seed":
        entry.title = f"revealed scene {logged.scene}'s hidden seed to the narrator"
        entry.outcome = "the narrator can now check every hidden roll of the scene"
    elif kind in SHEET_ENTRIES:
        _sheet_event(entry, logged, names)
    else:
        entry.title = "logged something this version does not show"


#: The entries of a sheet that are no action.
SHEET_ENTRIES = ("character.create", "character.update", "character.restore", "character.owner")


def present(logged: LogEntry, names: Mapping[str, str]) -> Entry:
    """The page's entry of the log entry ``logged`` (``names``: seat id -> name, for who
    acted)."""
    actor = logged.actor
    entry = Entry(
        seq=logged.seq,
        who=names.get(actor, "someone") if actor else "the table",
        at=logged.at[11:19],
        visibility=logged.visibility,
        title="",
        hidden=logged.hidden,
        entered=logged.entered,
        actor=actor,
        follows=logged.follows,
    )
    action = logged.action
    if action is None:
        _table_event(entry, logged, names)
        return entry
    entry.title = title_of(action)
    if action == "chat.say" and not entry.hidden:
        chat_entry(entry, logged, names)
        return entry
    if action.startswith("cogent.combat.") and not entry.hidden:
        combat_entry(entry, logged)
        return entry
    if entry.hidden:
        entry.title += ": made blind; only the narrator sees the result"
        return entry
    data = logged.result or {}
    result = read_result(action, data)
    if result is None and action == "cogent.cast":
        result = read_cast(data)
    if result is None:  # a record this version does not read: shown whole below
        entry.outcome = "its result is one this version cannot read (its data is below)"
        entry.rules = [render_data(rule) for rule in data.get("rules_applied", ())]
        entry.detail = json.dumps(data, indent=1, ensure_ascii=False)
        return entry
    _shown(entry, action, result)
    entry.sheetless = not logged.arg("character")
    if not (entry.outcome or entry.lines) and is_read(action):
        entry.outcome = READ_OUTCOME
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
