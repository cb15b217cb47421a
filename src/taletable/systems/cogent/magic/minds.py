"""Telepathy against a resisting mind, and Counteraction against another spell.

002 > Supplementary Content > Example Magic Systems > Wizardry > Telepathy, Counteraction.
"""

from __future__ import annotations

from typing import Literal

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.systems.cogent.dice import Roll, roll_pool
from taletable.systems.cogent.magic.system import MAGIC
from taletable.systems.cogent.pools import MAX_POOL, DicePool, check_pool_size

__all__ = [
    "CounterResult",
    "TelepathyResult",
    "counter_spell",
    "read_mind",
    "telepathy_outcome",
]

TELEPATHY = f"{MAGIC} > Telepathy"
COUNTERACTION = f"{MAGIC} > Counteraction"


class TelepathyResult(Record):
    """A telepathic contest: what the caster may do with the mind."""

    resisting: bool
    caster: Roll | None
    resistance: Roll | None
    exceeded_by: int | None
    read: bool
    probe: bool
    injury_levels: int
    rules_applied: tuple[Note, ...]


class CounterResult(Record):
    """A counter spell against a spell's roll."""

    counter: Roll
    spell_wins: int
    outcome: Literal["failed", "prevented", "miscast"]
    miscast_level: int
    rules_applied: tuple[Note, ...]


def telepathy_outcome(exceeded_by: int) -> tuple[bool, bool, int]:
    """(read, probe, injury levels) for a caster whose wins exceed the resistance by so much.

    002 > Telepathy: exceed to read, by 2 to probe, by 4 to inflict an injury level, and one
    more level for each die beyond the four.
    """
    injury = exceeded_by - 3 if exceeded_by >= 4 else 0
    return exceeded_by >= 1, exceeded_by >= 2, injury


def _pool_size(pool: DicePool, field: str) -> int:
    check_pool_size(pool.size, field=field)
    return pool.size


def read_mind(
    caster_pool: DicePool, source: DiceSource, *, resist_pool: DicePool | None = None
) -> TelepathyResult:
    """Read a mind; a resisting one (INT or Telepathy roll) is a contest (002 > Telepathy)."""
    if resist_pool is None:
        return TelepathyResult(
            resisting=False, caster=None, resistance=None, exceeded_by=None, read=True,
            probe=True, injury_levels=0,
            rules_applied=(note("cogent.telepathy.not_resisting", TELEPATHY),),
        )  # fmt: skip
    size = _pool_size(caster_pool, "pool")
    resist_size = _pool_size(resist_pool, "resist_pool")
    caster = roll_pool(size, source, reason="telepathy")
    resistance = roll_pool(resist_size, source, reason="resistance")
    exceeded = caster.wins - resistance.wins
    read, probe, injury = telepathy_outcome(exceeded)
    applied = [
        note("cogent.telepathy.exceeded", TELEPATHY, wins=caster.wins, against=resistance.wins,
             exceeded=exceeded)
    ]  # fmt: skip
    if injury:
        applied.append(note("cogent.telepathy.injury", TELEPATHY, injury=injury))
    return TelepathyResult(
        resisting=True, caster=caster, resistance=resistance, exceeded_by=exceeded, read=read,
        probe=probe, injury_levels=injury, rules_applied=tuple(applied),
    )  # fmt: skip


COUNTER_KINDS = {
    "failed": "cogent.counter.failed",
    "prevented": "cogent.counter.prevented",
    "miscast": "cogent.counter.miscast",
}


def counter_spell(counter_pool: DicePool, spell_wins: int, source: DiceSource) -> CounterResult:
    """Counter a spell whose roll had ``spell_wins`` (002 > Counteraction).

    An equal roll prevents the spell; a greater one lets the wizard make it miscast by the
    excess (or only prevent it, RULINGS.md); a lower one fails.
    """
    if not 0 <= spell_wins <= MAX_POOL:
        raise InputError("against_wins", f"{spell_wins}", expected=f"0 to {MAX_POOL}")
    counter = roll_pool(_pool_size(counter_pool, "pool"), source, reason="counter spell")
    excess = counter.wins - spell_wins
    if excess < 0:
        outcome: Literal["failed", "prevented", "miscast"] = "failed"
    elif excess == 0:
        outcome = "prevented"
    else:
        outcome = "miscast"
    return CounterResult(
        counter=counter, spell_wins=spell_wins, outcome=outcome,
        miscast_level=max(excess, 0),
        rules_applied=(note(COUNTER_KINDS[outcome], COUNTERACTION, excess=excess),),
    )  # fmt: skip
