"""Log entries of what is no roll of a pool: awards and purchases on a sheet, a new character
or NPC, magic, the boons system's chances, the labcats Trouble Pool. Each shape reads the
result's own record and says its outcome in one line (beside a summary note, where the record
has one, which :mod:`.present` adds).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError

from taletable._model import Record
from taletable.explain import render
from taletable.play.boons import BoundAgain, CircumstancesChanged
from taletable.play.boons_tracks import TrackSet
from taletable.play.character_creation import CreatedCharacter, QuirkPicked
from taletable.play.labcats import TroubleResult
from taletable.play.npcs import ShownStatblock
from taletable.server.pages.entries import Entry, rows
from taletable.systems.boons.chance import ScatterResult, TwistResult
from taletable.systems.boons.group import GroupChallenge
from taletable.systems.cogent.character.commerce import Purchase
from taletable.systems.cogent.character.sheet import Award, DisablingChoice
from taletable.systems.cogent.destiny_roll import DestinyRollResult
from taletable.systems.cogent.magic.casting import CastResult, HardCastResult
from taletable.systems.cogent.magic.summoning import SummonResult

__all__ = ["RECORD_SHAPES", "read_cast"]


def _award(entry: Entry, result: Award) -> None:
    entry.outcome = result.detail or result.event


def _purchase(entry: Entry, result: Purchase) -> None:
    entry.title += f": {result.item}"
    who = f" for {result.bought_for}" if result.bought_for else ""
    entry.outcome = (
        f"{result.item}{who}, value {result.effective_value}: commerce "
        f"{result.points_before} -> {result.points_after}"
    )
    entry.lines = list(result.notes)


def _created(entry: Entry, result: CreatedCharacter) -> None:
    identity = result.sheet.get("identity")
    name = identity.get("name") if isinstance(identity, dict) else None
    legal = "a legal sheet" if result.legal else f"{len(result.problems)} problem(s) to fix"
    entry.outcome = f"{name or 'a character'}: {legal}"


def _disabling(entry: Entry, result: DisablingChoice) -> None:
    how = f"rolled {result.roll}" if result.roll is not None else result.how
    entry.outcome = f"{result.name} ({how})"


def _quirk(entry: Entry, result: QuirkPicked) -> None:
    entry.outcome = result.name + (" (agreed with the narrator)" if result.custom else "")


def _npc(entry: Entry, result: ShownStatblock) -> None:
    block = result.statblock
    entry.outcome = f"{block.name} ({block.tier})"


def _group(entry: Entry, result: GroupChallenge) -> None:
    state = {True: "passed", False: "failed", None: "still going"}[result.passed]
    entry.outcome = f"{state}: {result.successes} of {result.required} successes needed"
    entry.lines = [render(advice, cited=False) for advice in result.advice]


def _scatter(entry: Entry, result: ScatterResult) -> None:
    where = f"{result.distance} to the {result.direction}" if result.direction else "nowhere"
    entry.outcome = "a direct hit" if result.direct_hit else f"it lands {where}"


def _twist(entry: Entry, result: TwistResult) -> None:
    entry.outcome = f"{result.roll}: {result.name}"
    entry.lines = [result.text]


def _destiny_roll(entry: Entry, result: DestinyRollResult) -> None:
    meaning = f": {result.band_meaning}" if result.band_meaning else ""
    entry.outcome = f"{result.roll}{meaning}"


def _cast(entry: Entry, result: CastResult) -> None:
    entry.title += f": {result.spell}"
    entry.rows = rows(result.check.rolls, result.check.win_on)
    entry.outcome = result.outcome


def _hard_cast(entry: Entry, result: HardCastResult) -> None:
    entry.title += f": {result.spell}"
    entry.rows = rows(result.check.rolls, result.check.win_on)
    entry.outcome = result.effect


def _summon(entry: Entry, result: SummonResult) -> None:
    entry.rows = rows(result.check.rolls, result.check.win_on)
    bound = "bound" if result.bound else "not bound"
    hostile = ", hostile" if result.hostile else ""
    entry.outcome = f"{result.creature.name}, {bound}{hostile}, for {result.duration}"


def _trouble(entry: Entry, result: TroubleResult) -> None:
    pool = ", ".join(f"d{size}" for size in result.trouble_pool) or "empty"
    points = ", ".join(f"{who} {count}" for who, count in result.plot_points.items())
    entry.outcome = f"the Trouble Pool: {pool}; Plot Points: {points or 'none'}"


def _track_set(entry: Entry, result: TrackSet) -> None:
    low = "no floor" if result.low is None else f"from {result.low}"
    high = "no ceiling" if result.high is None else f"to {result.high}"
    entry.outcome = (f"{result.character}'s {result.track} is {result.value} ({low}, {high}; "
                     f"at a bound: {result.at_bounds})")  # fmt: skip


def _circumstances(entry: Entry, result: CircumstancesChanged) -> None:
    who = f" for {result.character}" if result.character else ""
    entry.outcome = f"checks in the situation “{result.situation}” may be rolled again{who}"


def _bound_again(entry: Entry, result: BoundAgain) -> None:
    who = f" for {result.character}" if result.character else ""
    entry.outcome = (f"checks in the situation “{result.situation}” bind again{who}: "
                     "they are not rolled again until the circumstances change")  # fmt: skip


#: How each record fills its entry.
RECORD_SHAPES: dict[type[Any], Callable[[Entry, Any], None]] = {
    TrackSet: _track_set,
    CircumstancesChanged: _circumstances,
    BoundAgain: _bound_again,
    Award: _award,
    Purchase: _purchase,
    CreatedCharacter: _created,
    DisablingChoice: _disabling,
    QuirkPicked: _quirk,
    ShownStatblock: _npc,
    GroupChallenge: _group,
    ScatterResult: _scatter,
    TwistResult: _twist,
    DestinyRollResult: _destiny_roll,
    CastResult: _cast,
    HardCastResult: _hard_cast,
    SummonResult: _summon,
    TroubleResult: _trouble,
}


def read_cast(data: Mapping[str, Any]) -> Record | None:
    """A spell cast's logged result read back (``cogent.cast`` returns one of several records:
    a spell of the example system or a hard-magic one; None for another)."""
    for kind in (CastResult, HardCastResult):
        try:
            return kind.model_validate(dict(data))
        except ValidationError:
            continue
    return None
