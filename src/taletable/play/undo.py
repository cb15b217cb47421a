"""Undoing at a table without deleting anything (issue 24.7): a log entry struck with a reason,
and a fight's last step taken back.

A strike is an action of its own: its event names the entry and the reason, and the struck
entry stays in the log and its hash chain, shown struck (the live table checks the entry
exists and says who sees the strike). Taking back a fight's step saves a new version of the
encounter: the one its opening and every step but the last make (the step stays in the log);
destiny the step took off a stored sheet is given back.
"""

from __future__ import annotations

from pydantic import computed_field

from taletable._model import ComputedRecord
from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.play.combat import CombatRequest
from taletable.play.combat_sheets import Debit
from taletable.play.context import Table
from taletable.play.encounters import StoredEncounter, playing_encounter, save_encounter
from taletable.play.events import Event, Played
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.play.sheets import read_character, save_character
from taletable.systems.cogent.character.destiny_awards import return_destiny
from taletable.systems.cogent.combat.replay import replay
from taletable.systems.cogent.combat.state import Encounter

__all__ = ["StrikeRequest", "Struck", "combat_take_back", "strike"]

#: The highest entry number (a live table's seq is a 32-bit integer).
MAX_SEQ = 2**31 - 1
#: Where the ruling on undoing is written.
UNDOING = 'RULINGS.md "undoing at the table"'


class StrikeRequest(Request):
    """A log entry to strike, and why."""

    seq: int = described(text="The number (#) of the log entry to strike.", ge=1, le=MAX_SEQ)
    reason: str = described(
        text="Why it is struck (shown beside the entry).", min_length=1, max_length=500
    )


class Struck(ComputedRecord):
    """A log entry struck: its number and the reason given."""

    seq: int
    reason: str

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The strike in one line, as a note (``entry #4 struck: a typo in the CL``)."""
        return note("log.struck", UNDOING, seq=self.seq, reason=self.reason)


@action("log.strike", StrikeRequest)
def strike(request: StrikeRequest, table: Table) -> Played[Struck]:
    """Strike a log entry with a reason: it stays in the log, shown struck."""
    reason = request.reason.strip()
    if not reason:
        raise InputError("reason", "empty", expected="why the entry is struck")
    struck = Struck(seq=request.seq, reason=reason)
    return Played(struck, (Event(kind="log.strike", data={"seq": request.seq}),))


def _refunds(table: Table, read: StoredEncounter, taken: Encounter) -> list[Debit]:
    """The stored sheets to give back the destiny the taken-back step spent."""
    refunds = []
    for fighter, key in read.sheets.items():
        spent = (
            taken.combatant(fighter).sheet.destiny.points
            - read.encounter.combatant(fighter).sheet.destiny.points
        )
        if spent > 0:
            sheet = read_character(table, key)
            what = f"a step of round {read.encounter.round} of {read.key}"
            refunds.append((sheet, return_destiny(sheet.sheet, spent, what)))
    return refunds


@action("cogent.combat.take-back", CombatRequest)
def combat_take_back(request: CombatRequest, table: Table) -> Played[Encounter]:
    """Take back the fight's last step: save the encounter its opening and the steps before
    it make, as a new version (the step stays in the log)."""
    read = playing_encounter(table, request.encounter)
    steps = read.encounter.steps
    if not steps:
        raise InputError(
            "encounter", f"the fight {read.key!r} has no step to take back yet",
            expected="a fight with at least one declaration, roll or choice",
        )  # fmt: skip
    taken = replay(read.encounter.model_copy(update={"steps": steps[:-1]}))
    refunds = _refunds(table, read, taken)
    saved = save_encounter(table, read, taken)
    back = Event(
        kind="cogent.combat.take-back",
        subject=read.key,
        data={"step": steps[-1].kind, "steps": len(taken.steps)},
    )
    given = tuple(save_character(table, sheet, refunded) for sheet, refunded in refunds)
    return Played(taken, (back, saved, *given))
