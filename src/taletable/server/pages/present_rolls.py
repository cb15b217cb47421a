"""Log entries of the rolls (checks, conflicts, assists, collaborations, boons, labcats) and of
follow-ups (destiny spent after a roll), and follow-ups attached under the entry they follow.

Each shape reads the result's own record (:func:`taletable.play.results.read_result`), never a
string key; the entry's outcome is the record's ``summary``, filled by :mod:`.present`. A
Cogent die is marked as won by the engine's ``count_wins`` with the roll's own ``win_on``; what
the roller may spend after a check is the edition's
:data:`~taletable.systems.cogent.destiny.AFTER_MODES`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from taletable.explain import render
from taletable.server.pages.entries import DiceRow, Die, Entry, marked, plain, rows
from taletable.systems.boons.checks import CheckResult as BoonsCheck
from taletable.systems.boons.checks import ContestResult
from taletable.systems.cogent.assists import AssistResult, AssistRoll, CollaborationResult
from taletable.systems.cogent.checks import CheckResult
from taletable.systems.cogent.conflicts import ConflictResult
from taletable.systems.cogent.destiny import AFTER_MODES
from taletable.systems.cogent.destiny_after import DestinyFollowUp
from taletable.systems.cogent.dice import WIN_ON
from taletable.systems.labcats.rolls import LabcatsRoll

__all__ = ["SHAPES", "after_modes", "attach"]

#: The actions whose entries a roller may follow with destiny spent after the roll.
FOLLOWED = ("cogent.check",)


def _wins(count: int) -> str:
    return f"{count} win{'' if count == 1 else 's'}"


def _check(entry: Entry, result: CheckResult) -> None:
    entry.passed = result.passed
    entry.title += f" — {result.pool}D6 against CL {result.challenge_level}"
    entry.parts = [(part.source, part.dice) for part in result.breakdown]
    entry.rows = rows(result.rolls, result.win_on)
    spent = [f"{spend.mode} ({spend.when} the roll)" for spend in result.destiny]
    entry.lines = [f"destiny spent: {', '.join(spent)}"] if spent else []
    entry.lines += [f"{part.source}: {part.wins:+d} wins" for part in result.adjustments]
    if result.wins is not None:
        entry.lines.append(f"{_wins(result.wins)} against CL {result.challenge_level}")


def _conflict(entry: Entry, result: ConflictResult) -> None:
    entry.title += f" — {result.pool_a}D6 against {result.pool_b}D6"
    several = len(result.exchanges) > 1
    for number, exchange in enumerate(result.exchanges, start=1):
        suffix = f" (roll {number})" if several else ""
        a, b = exchange.a, exchange.b
        entry.rows.append(DiceRow("side A" + suffix, marked(a.faces, result.win_on_a), a.wins))
        entry.rows.append(DiceRow("side B" + suffix, marked(b.faces, result.win_on_b), b.wins))


def _destiny_after(entry: Entry, result: DestinyFollowUp) -> None:
    check = result.check
    if entry.follows:
        entry.title = f"spent destiny after the roll of #{entry.follows}"
    entry.rows = rows(result.rolls, check.win_on)
    spent = ", ".join(spend.mode for spend in result.spent)
    entry.lines = [f"destiny spent after the roll: {spent}", f"was: {result.outcome_before}"]
    if check.wins is not None:
        entry.lines.append(f"{_wins(check.wins)} against CL {check.challenge_level}")
    entry.passed = check.passed


def _tiered_assist(entry: Entry, result: AssistRoll) -> None:
    """A tiered assist: a check whose result the narrator converts (000 > Assists)."""
    check = result.check
    entry.title += f" — {check.pool}D6 against CL {check.challenge_level}"
    entry.rows = rows(check.rolls, check.win_on)
    entry.passed = check.passed
    if result.conversion is not None:
        entry.lines = [render(result.conversion.summary)]


def _assist(entry: Entry, result: AssistResult) -> None:
    entry.title += f" — {result.pool}D6 against CL {result.challenge_level}"
    entry.parts = [(part.source, part.dice) for part in result.breakdown]
    entry.rows = [DiceRow("assist", marked(result.faces, WIN_ON), result.wins)]
    if result.helpers:
        entry.lines = [f"{result.helpers} more helper(s): +1D6 each"]


def _collaborate(entry: Entry, result: CollaborationResult) -> None:
    pools = " + ".join(f"{pool}D6" for pool in result.pools)
    entry.title += f" — {pools} against group CL {result.challenge_level}"
    entry.rows = rows(result.rolls, WIN_ON)
    entry.passed = result.passed
    entry.lines = [f"{_wins(result.wins)} summed"]


def _boons_dice(label: str, check: BoonsCheck) -> DiceRow:
    sizes = ", ".join(f"d{size}" for size in check.dice)
    return DiceRow(f"{label}{sizes} {check.modifier:+d}", plain(check.faces), None)


def _boons_check(entry: Entry, result: BoonsCheck) -> None:
    entry.title += f" — {result.boons} boon(s), {result.banes} bane(s)"
    entry.rows = [_boons_dice("", result)]
    entry.passed = result.passed


def _boons_contest(entry: Entry, result: ContestResult) -> None:
    several = len(result.rounds) > 1
    for number, round_ in enumerate(result.rounds, start=1):
        suffix = f" (roll {number}) " if several else " "
        entry.rows += [_boons_dice("side A" + suffix, round_.a),
                       _boons_dice("side B" + suffix, round_.b)]  # fmt: skip
    if result.tie_rule:
        entry.lines = [f"tie: {result.tie_rule}"]


def _labcats(entry: Entry, result: LabcatsRoll) -> None:
    entry.title += " — " + ", ".join(f"d{size}" for size in result.pool)
    kept, dice = list(result.kept), []
    for face in result.faces:
        dice.append(Die(face, face in kept))
        if face in kept:
            kept.remove(face)
    entry.rows = [DiceRow("pool (the kept dice marked)", tuple(dice))]
    if result.resources:
        entry.rows.append(DiceRow("resources", plain(result.resource_faces)))
    if result.complications:
        entry.lines = [f"complications: {', '.join(f'd{c}' for c in result.complications)}"]


#: How each record fills its entry (beside its summary, which :mod:`.present` adds).
SHAPES: dict[type[Any], Callable[[Entry, Any], None]] = {
    CheckResult: _check,
    ConflictResult: _conflict,
    DestinyFollowUp: _destiny_after,
    AssistResult: _assist,
    AssistRoll: _tiered_assist,
    CollaborationResult: _collaborate,
    BoonsCheck: _boons_check,
    ContestResult: _boons_contest,
    LabcatsRoll: _labcats,
}


def after_modes(action: str, result: object) -> tuple[str, ...]:
    """What a check's roller may spend after it: the edition's after-roll spends, none for a
    specialist's automatic pass (the engine refuses any anyway)."""
    if action not in FOLLOWED or not isinstance(result, CheckResult) or result.automatic:
        return ()
    return AFTER_MODES.get(result.edition, ())


def attach(entries: list[Entry]) -> list[Entry]:
    """The entries with each follow-up moved under the entry it follows (when shown)."""
    by_seq = {entry.seq: entry for entry in entries}
    shown: list[Entry] = []
    for entry in entries:
        parent = by_seq.get(entry.follows) if entry.follows is not None else None
        if parent is not None and parent is not entry:
            parent.follow_ups.append(entry)
        else:
            shown.append(entry)
    return shown
