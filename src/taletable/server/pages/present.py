"""Log entries as the pages show them: an event (as the seat received it) -> an :class:`Entry`.

Nothing here decides a rule: each fact comes from the event's result record, and the words
come from the engine (a check's ``outcome`` is :class:`~taletable.systems.cogent.checks.
CheckResult`'s own; a die is marked as won by :func:`~taletable.systems.cogent.dice.count_wins`
with the roll's own ``win_on``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from taletable.explain import render_data

__all__ = ["DiceRow", "Die", "Entry", "present"]


@dataclass(frozen=True)
class Die:
    face: int
    won: bool


@dataclass(frozen=True)
class DiceRow:
    """One throw: why it was rolled (``roll``, a reroll...), its dice and how many won."""

    label: str
    dice: tuple[Die, ...]
    wins: int | None = None


@dataclass
class Entry:
    """What one line of the shared log shows."""

    seq: int
    who: str
    at: str
    visibility: str
    title: str
    hidden: bool = False
    outcome: str = ""
    passed: bool | None = None
    parts: list[tuple[str, int]] = field(default_factory=list)
    rows: list[DiceRow] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    entered: bool = False
    detail: str = ""
    actor: str | None = None
    follows: int | None = None
    follow_ups: list[Entry] = field(default_factory=list)
    after_modes: tuple[str, ...] = ()


def _marked(faces: list[int], win_on: int) -> tuple[Die, ...]:
    from taletable.systems.cogent.dice import count_wins

    return tuple(Die(face, count_wins([face], win_on) == 1) for face in faces)


def _plain(faces: list[int]) -> tuple[Die, ...]:
    return tuple(Die(face, False) for face in faces)


def _check(entry: Entry, result: Mapping[str, Any]) -> None:
    entry.outcome = result.get("outcome") or _check_outcome(result)
    entry.passed = result["passed"]
    entry.title += f" — {result['pool']}D6 against CL {result['cl']}"
    entry.parts = [(part["source"], part["dice"]) for part in result["breakdown"]]
    entry.rows = [
        DiceRow(roll["reason"], _marked(roll["faces"], result["win_on"]), roll["wins"])
        for roll in result["rolls"]
    ]
    entry.lines = [f"{spend['mode']} ({spend['when']} the roll)" for spend in result["destiny"]]
    entry.lines = [f"destiny spent: {', '.join(entry.lines)}"] if entry.lines else []
    entry.lines += [f"{adj['source']}: {adj['wins']:+d} wins" for adj in result["adjustments"]]
    if result.get("wins") is not None:
        wins = result["wins"]
        entry.lines.append(f"{wins} win{'' if wins == 1 else 's'} against CL {result['cl']}")


def _check_outcome(result: Mapping[str, Any]) -> str:
    """The engine's words for a check logged before ``outcome`` was a field of its record."""
    from taletable.systems.cogent.checks import CheckResult

    known = set(CheckResult.model_fields) - {"challenge_level"}
    fields = {key: value for key, value in result.items() if key in known}
    return CheckResult.model_validate({**fields, "challenge_level": result["cl"]}).outcome


def _conflict(entry: Entry, result: Mapping[str, Any]) -> None:
    entry.title += f" — {result['pool_a']}D6 against {result['pool_b']}D6"
    for number, exchange in enumerate(result["exchanges"], start=1):
        suffix = f" (roll {number})" if len(result["exchanges"]) > 1 else ""
        side_a, side_b = exchange["a"], exchange["b"]
        entry.rows.append(
            DiceRow("side A" + suffix, _marked(side_a["faces"], result["win_on_a"]), side_a["wins"])
        )
        entry.rows.append(
            DiceRow("side B" + suffix, _marked(side_b["faces"], result["win_on_b"]), side_b["wins"])
        )
    winner = result.get("winner")
    entry.outcome = (
        f"side {winner.upper()} wins, victory level {result['victory_level']}"
        if winner
        else "a tie"
    )


def _notation(entry: Entry, result: Mapping[str, Any]) -> None:
    entry.title += f" {result['notation']}"
    entry.rows = [DiceRow(term["notation"], _plain(term["rolled"])) for term in result["terms"]]
    entry.outcome = str(result["breakdown"])


def _random_table(entry: Entry, result: Mapping[str, Any]) -> None:
    entry.title += f" — {result['title']}"
    entry.rows = [DiceRow(result["die"], _plain(result["faces"]))]
    entry.outcome = f"{result['result']} ({result['total']}, entry {result['entry_range']})"
    entry.lines = [f"{more['title']}: {more['result']}" for more in result.get("follow_ups", ())]


def _weather(entry: Entry, result: Mapping[str, Any]) -> None:
    entry.title += f" — {result['season']}"
    entry.lines = [
        f"day {day['day']}: {day['weather']}, {day['severity']}"
        + (" — natural disaster" if day["natural_disaster"] else "")
        for day in result["days"]
    ]


def _encounter(entry: Entry, result: Mapping[str, Any]) -> None:
    entry.title += f" — {result['where']}, {result['time']}"
    entry.outcome = f"{result['encounter']} ({result['severity']})"


def _bestiary(entry: Entry, result: Mapping[str, Any]) -> None:
    entry.outcome = f"{result.get('name')} ({result.get('tier')}): {result.get('description', '')}"


RESULTS: dict[str, Callable[[Entry, Mapping[str, Any]], None]] = {
    "cogent.check": _check,
    "cogent.conflict": _conflict,
    "roll": _notation,
    "table.roll": _random_table,
    "cogent.weather": _weather,
    "cogent.encounter": _encounter,
    "cogent.npc.bestiary": _bestiary,
}

TITLES = {
    "cogent.check": "Check",
    "cogent.conflict": "Conflict",
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
    else:
        entry.title = kind


def _more() -> tuple[Mapping[str, Callable[[Entry, Mapping[str, Any]], None]], Mapping[str, str]]:
    """The entries of the other panels' rolls and of follow-ups (:mod:`.present_rolls`)."""
    from taletable.server.pages.present_rolls import SHAPES
    from taletable.server.pages.present_rolls import TITLES as MORE_TITLES

    return SHAPES, MORE_TITLES


def after_modes_of(action: str, result: Mapping[str, Any]) -> tuple[str, ...]:
    """The destiny a check's roller may spend after it (the edition's, by the engine)."""
    from taletable.server.pages.present_rolls import after_modes

    return after_modes(action, result)


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
    more, more_titles = _more()
    titles = {**TITLES, **more_titles}
    entry.title = titles.get(action, action)
    if str(action).startswith("cogent.combat.") and not entry.hidden:
        from taletable.server.pages.present_combat import combat_entry

        combat_entry(entry, event)
        return entry
    if entry.hidden:
        entry.title += ": made blind; only the narrator sees the result"
        return entry
    result = event.get("result") or {}
    shape = RESULTS.get(action) or more.get(action)
    if shape is not None:
        try:
            shape(entry, result)
        except (KeyError, TypeError, ValueError):  # an older record: show it whole below
            shape = None
    entry.rules = [render_data(rule) for rule in result.get("rules_applied", ())]
    entry.after_modes = after_modes_of(action, result)
    if shape is None or action not in titles:
        entry.detail = json.dumps(result, indent=1, ensure_ascii=False)
    return entry
