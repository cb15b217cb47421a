"""A combat step as the shared log shows it: the step's own lines of the encounter's log (the
engine's words, from where the step began), and after a resolve each roll's dice with the ones
that won marked, instead of the whole encounter record.

The step's result is read back into its record (an ``Encounter``, or a chase's
``ChaseResult``) by :func:`taletable.play.results.read_result`; one that reads back into none
is shown whole, as its JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from taletable.explain import Note, render
from taletable.explain.notes import Value
from taletable.log_entry import LogEntry
from taletable.play.combat_end import FightEnded
from taletable.play.results import read_result
from taletable.server.pages.entries import DiceRow, Entry, marked
from taletable.server.pages.present_titles import title_of
from taletable.systems.cogent.character.healing import injury_name
from taletable.systems.cogent.combat.chases import Chase
from taletable.systems.cogent.combat.state import Encounter

__all__ = ["combat_entry"]



def _log_from(logged: LogEntry) -> int:
    """Where the step's lines begin in the encounter's log (the change it logged says)."""
    for change in logged.changes:
        if change.kind.startswith("cogent.combat."):
            start = change.data.get("log_from")
            if isinstance(start, int):
                return start
    return 0


#: A fight's steps, in words.
STEPS = {"declare": "declaration", "resolve": "roll", "choose": "choice of an outcome",
         "condition": "condition", "destiny": "destiny spent"}  # fmt: skip


def _taken_back(logged: LogEntry) -> str:
    """The kind of step a take-back took back, in words (its change says)."""
    for change in logged.changes:
        if change.kind == "cogent.combat.take-back":
            return STEPS.get(str(change.data.get("step")), "step")
    return "step"


def _lines(entry: Entry, lines: list[Note]) -> None:
    """The step's lines in words, their citations apart under "Rules applied"."""
    entry.lines = [render(line, cited=False) for line in lines]
    entry.rules = list(dict.fromkeys(line.cite for line in lines if line.cite))


#: What a resolve that made no victory says (002 > Combat > Round Order: the round ends with
#: no outcome to choose, and the next begins).
STALEMATE = "No one won a victory level this round: a stalemate."


def _names(fight: Encounter) -> dict[str, str]:
    """Each fighter's id -> its sheet's name (with the id where two share a name)."""
    named = {f.id: f.sheet.identity.name or f.id for f in fight.combatants}
    shared = {name for name in named.values() if list(named.values()).count(name) > 1}
    return {ident: f"{name} ({ident})" if name in shared else name for ident, name in named.items()}


#: The values of a fight's notes that name fighters (by id), shown by their names instead.
FIGHTER_VALUES = frozenset(
    {"fighter", "fighters", "actor", "target", "attacker", "winner", "loser", "a", "b", "order"}
)


def _by_name(line: Note, names: Mapping[str, str]) -> Note:
    """The note with each fighter it names by id named by its name."""
    values: dict[str, Value] = {}
    for key, value in line.values.items():
        if key in FIGHTER_VALUES and isinstance(value, str):
            value = names.get(value, value)
        elif key in FIGHTER_VALUES and isinstance(value, tuple):
            value = tuple(names.get(v, v) if isinstance(v, str) else v for v in value)  # type: ignore[assignment]
        values[key] = value
    return line.model_copy(update={"values": values})


def _fight(entry: Entry, action: str, fight: Encounter, log_from: int) -> None:
    entry.title += f" ({fight.name}, round {fight.round})"
    names = _names(fight)
    log = [_by_name(line, names) for line in fight.log]
    if action in ("cogent.combat.status", "cogent.combat.replay"):
        log = log[-1:]
    _lines(entry, log[log_from:] if action != "cogent.combat.start" else log)
    if action in ("cogent.combat.resolve", "cogent.combat.destiny"):
        entry.rows = [
            DiceRow(names.get(roll.actor, roll.actor), marked(roll.faces, roll.win_on), roll.wins)
            for roll in fight.rolls
        ]
    if action == "cogent.combat.resolve" and fight.phase == "declaration":
        # a resolve leaves its round for outcomes unless it made no victory at all
        entry.title = title_of(action) + f" ({fight.name}, round {fight.round - 1})"
        entry.outcome = STALEMATE


def combat_entry(entry: Entry, logged: LogEntry) -> None:
    """Fill ``entry`` for a ``cogent.combat.*`` log entry."""
    action = str(logged.action)
    entry.title = title_of(action)
    data = logged.result or {}
    result = read_result(action, data)
    if isinstance(result, Encounter) and action == "cogent.combat.take-back":
        entry.title += f" ({result.name}, round {result.round})"
        step = _taken_back(logged)
        entry.outcome = f"the fight is back as it stood before its last {step}"
        entry.lines = ["the step taken back stays in the log"]
    elif isinstance(result, Encounter):
        _fight(entry, action, result, _log_from(logged))
    elif isinstance(result, FightEnded):
        _ended(entry, result)
    elif isinstance(result, Chase):
        _lines(entry, list(result.log))
    else:  # a record this version does not read: shown whole
        entry.detail = json.dumps(data, indent=1, ensure_ascii=False)


def _ended(entry: Entry, ended: FightEnded) -> None:
    """A fight's end: its summary, and what each fighter took away (written to its sheet, or
    reported) (RULINGS.md "a fight's end")."""
    entry.title += f" ({ended.name}, round {ended.round})"
    entry.outcome = render(ended.summary, cited=False)
    entry.rules = [ended.summary.cite]
    for fighter in ended.fighters:
        taken = [injury_name(injury) for injury in fighter.injuries] + list(fighter.conditions)
        where = "on its sheet" if fighter.version is not None else "reported, no sheet written"
        if fighter.character is not None and fighter.version is None:
            where = "its sheet unchanged"
        entry.lines.append(f"{fighter.name}: {', '.join(taken) or 'nothing lasting'} ({where})")
