"""Conflicts: two sides roll against each other (002 > How to Play > Reflex Actions and Conflicts).

Each side rolls its pool; the side with more wins wins, and the difference in wins is the
victory level. Between aware, active parties a tie is rerolled (each reroll recorded); otherwise
the tie stands, with no winner. A side powerless to oppose can instead be given a CL lower than
half its pool (players acting on NPCs only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import computed_field

from taletable._model import ComputedRecord, Record
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.destiny import (
    MAX_DESTINY_SPENDS,
    BeforePlan,
    DestinyBeforeMode,
    DestinySpend,
    plan_before,
    source_for,
)
from taletable.systems.cogent.dice import Roll, roll_pool, win_threshold
from taletable.systems.cogent.pools import MAX_POOL, DicePool, check_pool_size
from taletable.systems.cogent.rules import CORE, Rules
from taletable.systems.cogent.summaries import conflict_summary

__all__ = [
    "MAX_TIE_REROLLS",
    "ConflictPlan",
    "ConflictResult",
    "after_roll_wins",
    "plan_conflict",
    "powerless_challenge_level",
    "roll_conflict",
]

CONFLICTS = "002 > How to Play > Reflex Actions and Conflicts > Conflicts"
RULING_AFTER = 'RULINGS.md "destiny after the roll in a conflict"'
#: The most tie rerolls one conflict makes before the tie stands (DESIGN > Principles 8).
MAX_TIE_REROLLS = 100


class Exchange(Record):
    """One throw of both pools: a's roll, b's roll, and whether it tied."""

    a: Roll
    b: Roll
    tied: bool


class ConflictResult(ComputedRecord):
    """A conflict, explained: every exchange (ties included), the winner and the victory level."""

    pool_a: int
    pool_b: int
    win_on_a: int
    win_on_b: int
    a_wins: int
    b_wins: int
    winner: Literal["a", "b"] | None
    victory_level: int
    rerolls: int
    exchanges: tuple[Exchange, ...]
    aware_and_active: bool
    destiny_a: tuple[DestinySpend, ...] = ()
    destiny_b: tuple[DestinySpend, ...] = ()
    dice_source: str
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The result in one line, as a note (``side A wins, victory level 2``)."""
        return conflict_summary(self.winner, self.victory_level)

    def destiny_wins(self, side: Literal["a", "b"]) -> int:
        """The wins ``side``'s destiny added after the roll (in its wins, after the cap): its
        wins less those of its last throw (a record keeps no field for it, so a conflict logged
        before issue 37 replays to the same data)."""
        last = self.exchanges[-1]
        return self.a_wins - last.a.wins if side == "a" else self.b_wins - last.b.wins


ADVANTAGE = "000 > Dice Pools > Calculate Narrative Success or Failure > Advantage and Disadvantage"


def _side_roll(size: int, plan: BeforePlan, source: DiceSource, win_on: int, reason: str) -> Roll:
    """One side's throw, or half its pool as wins when it spent destiny on 'half' (000)."""
    if plan.half:
        return Roll(reason=f"{reason}: half the pool (destiny)", faces=(), wins=max(0, size) // 2)
    try:
        return roll_pool(size, source, win_on, reason)
    except InputError as error:
        if reason == "roll":
            raise
        # given faces ran out on a tie reroll: say why more dice were asked for
        problem = error.message.removeprefix(f"{error.field}: ")
        raise InputError(error.field, f"the roll tied, so {reason} is rolled: {problem}") from None


def after_roll_wins(points: int, dice_wins: int, dice: int, rules: Rules, *, half: bool) -> int:
    """The wins ``points`` of destiny spent after a conflict's roll add to a side that rolled
    ``dice_wins`` on ``dice`` dice: one each (002 > Destiny Points > After any roll of a dice
    pool), never lifting the wins above the dice rolled under ``Rules.destiny_after_cap``
    (RULINGS.md "Core destiny after"; a side that took half rolled none, so no cap)."""
    if rules.destiny_after_cap and not half:
        return min(points, max(0, dice - dice_wins))
    return points


def _check_after(points: int, rules: Rules, field: str) -> None:
    """Destiny after a conflict's roll is core's +1 win a point (002); the tiered edition's
    after-roll spends reroll, raise or lower a result against a CL (000), which a conflict has
    not (RULINGS.md "destiny after the roll in a conflict")."""
    if not 0 <= points <= MAX_DESTINY_SPENDS:
        raise InputError(field, f"{points} points", expected=f"0 to {MAX_DESTINY_SPENDS}")
    if points and rules.edition != "core":
        raise RulesError(
            "000 > Destiny Points > After a Dice Roll",
            "the tiered edition's after-roll spends reroll, raise or lower a result against a "
            "CL, which a conflict has not",
            fix="spend destiny before the roll (die, advantage, disadvantage, half)",
        )


class ConflictPlan(Record):
    """What a conflict's options make of it before any die: each side's dice and threshold."""

    size_a: int
    size_b: int
    win_on_a: int
    win_on_b: int
    before_a: BeforePlan
    before_b: BeforePlan


def plan_conflict(
    pool_a: int,
    pool_b: int,
    *,
    rules: Rules = CORE,
    advantage_a: bool = False,
    disadvantage_a: bool = False,
    advantage_b: bool = False,
    disadvantage_b: bool = False,
    destiny_before_a: Sequence[DestinyBeforeMode] = (),
    destiny_before_b: Sequence[DestinyBeforeMode] = (),
    destiny_after_a: int = 0,
    destiny_after_b: int = 0,
) -> ConflictPlan:
    """The one definition of what a conflict may ask, before its dice: :func:`roll_conflict` and
    its odds both plan with it, so they refuse exactly the same conflicts.

    002 > Conflicts; 000 > Dice Pools > Advantage and Disadvantage (the narrator's, tiered
    only); 002 > Destiny Points and 000 > Destiny Points > Before a Dice Roll; core's destiny
    after the roll (002 > Destiny Points > After any roll of a dice pool).
    """
    check_pool_size(pool_a, field="pool_a")
    check_pool_size(pool_b, field="pool_b")
    _check_after(destiny_after_a, rules, "destiny_after_a")
    _check_after(destiny_after_b, rules, "destiny_after_b")
    if rules.edition == "core" and (advantage_a or disadvantage_a or advantage_b or disadvantage_b):
        raise RulesError(
            ADVANTAGE,
            "the core edition has no narrator Advantage or Disadvantage",
            fix="spend destiny advantage, or use the tiered edition",
        )
    plan_a = plan_before(destiny_before_a, rules, narrator_advantage=advantage_a, opposed=True)
    plan_b = plan_before(destiny_before_b, rules, narrator_advantage=advantage_b, opposed=True)
    if (plan_a.opponent_disadvantage and disadvantage_b) or (
        plan_b.opponent_disadvantage and disadvantage_a
    ):
        raise RulesError(
            source_for(rules), "that side already has Disadvantage", fix="spend it otherwise"
        )
    if (plan_a.opponent_disadvantage and plan_b.half) or (
        plan_b.opponent_disadvantage and plan_a.half
    ):
        raise RulesError(
            source_for(rules), "that side takes half its pool and rolls no dice",
            fix="spend it otherwise",
        )  # fmt: skip
    size_a = pool_a + plan_a.extra_dice
    size_b = pool_b + plan_b.extra_dice
    check_pool_size(size_a, field="pool_a")
    check_pool_size(size_b, field="pool_b")
    return ConflictPlan(
        size_a=size_a,
        size_b=size_b,
        win_on_a=win_threshold(
            advantage=advantage_a or plan_a.advantage,
            disadvantage=disadvantage_a or plan_b.opponent_disadvantage,
        ),
        win_on_b=win_threshold(
            advantage=advantage_b or plan_b.advantage,
            disadvantage=disadvantage_b or plan_a.opponent_disadvantage,
        ),
        before_a=plan_a,
        before_b=plan_b,
    )


def roll_conflict(
    pool_a: DicePool,
    pool_b: DicePool,
    source_a: DiceSource,
    source_b: DiceSource | None = None,
    *,
    advantage_a: bool = False,
    disadvantage_a: bool = False,
    advantage_b: bool = False,
    disadvantage_b: bool = False,
    aware_and_active: bool = True,
    rules: Rules = CORE,
    destiny_before_a: Sequence[DestinyBeforeMode] = (),
    destiny_before_b: Sequence[DestinyBeforeMode] = (),
    destiny_after_a: int = 0,
    destiny_after_b: int = 0,
) -> ConflictResult:
    """Roll a conflict between sides ``a`` and ``b`` (002 > Conflicts).

    Most wins wins; the difference is the victory level. Ties between aware, active parties are
    rerolled, up to :data:`MAX_TIE_REROLLS` times, after which (or when a side is not aware and
    active, or neither side can roll) the tie stands: no winner, victory level 0.
    ``source_b`` rolls b's dice (physical dice for each side); by default ``source_a`` rolls both.
    Advantage and Disadvantage declared by the narrator are the tiered edition's.
    ``destiny_before_a``/``_b``: each side's destiny spends before the roll (002 > Destiny
    Points: core ``advantage``; 000 > Destiny Points > Before a Dice Roll: tiered ``die``,
    ``advantage``, ``disadvantage`` given to the other side, ``half`` the pool instead of rolling).
    ``destiny_after_a``/``_b``: points each side spends after the roll, a win each (core, 002 >
    Destiny Points > After any roll of a dice pool), on the throw that settled the conflict
    (tied throws rerolled first); a tie they make stands (RULINGS.md "destiny after the roll in
    a conflict").
    """
    legal = plan_conflict(
        pool_a.size, pool_b.size, rules=rules, advantage_a=advantage_a,
        disadvantage_a=disadvantage_a, advantage_b=advantage_b, disadvantage_b=disadvantage_b,
        destiny_before_a=destiny_before_a, destiny_before_b=destiny_before_b,
        destiny_after_a=destiny_after_a, destiny_after_b=destiny_after_b,
    )  # fmt: skip
    rule = source_for(rules)
    source_b = source_b or source_a
    applied = [note("cogent.conflict.victory_level", CONFLICTS)]
    for side, before in (("a", destiny_before_a), ("b", destiny_before_b)):
        if before:
            applied.append(
                note("cogent.conflict.destiny_before", rule, side=side, modes=tuple(before))
            )
    exchanges = _exchanges(legal, source_a, source_b, aware_and_active, applied)
    last = exchanges[-1]
    rerolls = len(exchanges) - 1
    if rerolls:
        applied.append(note("cogent.conflict.tie_rerolled", CONFLICTS, rerolls=rerolls))
    if last.tied:
        applied.append(note("cogent.conflict.tie_stands", 'RULINGS.md "conflict ties"'))
    added_a, added_b = _after_the_roll(legal, last, rules, (destiny_after_a, destiny_after_b),
                                       applied)  # fmt: skip
    a_wins, b_wins = last.a.wins + added_a, last.b.wins + added_b
    winner: Literal["a", "b"] | None = "a" if a_wins > b_wins else "b" if b_wins > a_wins else None
    after = (DestinySpend(when="after", mode="win"),)
    return ConflictResult(
        pool_a=legal.size_a, pool_b=legal.size_b, win_on_a=legal.win_on_a,
        win_on_b=legal.win_on_b, a_wins=a_wins, b_wins=b_wins, winner=winner,
        victory_level=abs(a_wins - b_wins), rerolls=rerolls,
        exchanges=tuple(exchanges), aware_and_active=aware_and_active,
        destiny_a=(*(DestinySpend(when="before", mode=mode) for mode in destiny_before_a),
                   *after * destiny_after_a),
        destiny_b=(*(DestinySpend(when="before", mode=mode) for mode in destiny_before_b),
                   *after * destiny_after_b),
        dice_source=source_a.kind, rules_applied=tuple(applied),
    )  # fmt: skip


def _after_the_roll(
    legal: ConflictPlan, last: Exchange, rules: Rules, points: tuple[int, int], applied: list[Note]
) -> tuple[int, int]:
    """The wins each side's destiny adds after the settled throw ``last`` (002 > Destiny Points
    > After any roll of a dice pool), saying so in ``applied``; a tie they make stands."""
    added_a = after_roll_wins(points[0], last.a.wins, legal.size_a, rules,
                              half=legal.before_a.half)  # fmt: skip
    added_b = after_roll_wins(points[1], last.b.wins, legal.size_b, rules,
                              half=legal.before_b.half)  # fmt: skip
    rule = source_for(rules)
    for side, spent, added in (("a", points[0], added_a), ("b", points[1], added_b)):
        if spent:
            applied.append(note("cogent.conflict.destiny_after", rule, side=side, points=spent))
        if added < spent:
            applied.append(note("cogent.destiny.after_cap", "RULINGS.md"))
    if any(points) and last.a.wins + added_a == last.b.wins + added_b and not last.tied:
        applied.append(note("cogent.conflict.destiny_tie", RULING_AFTER))
    return added_a, added_b


def _exchanges(
    legal: ConflictPlan,
    source_a: DiceSource,
    source_b: DiceSource,
    aware_and_active: bool,
    applied: list[Note],
) -> list[Exchange]:
    """Both sides roll, again while tied between aware, active parties who can roll, at most
    :data:`MAX_TIE_REROLLS` times (002 > Conflicts; RULINGS.md "conflict ties")."""
    plan_a, plan_b, size_a, size_b = legal.before_a, legal.before_b, legal.size_a, legal.size_b
    can_roll = (size_a > 0 and not plan_a.half) or (size_b > 0 and not plan_b.half)
    exchanges: list[Exchange] = []
    while True:
        reason = "roll" if not exchanges else f"tie reroll {len(exchanges)}"
        a = _side_roll(size_a, plan_a, source_a, legal.win_on_a, reason)
        b = _side_roll(size_b, plan_b, source_b, legal.win_on_b, reason)
        tied = a.wins == b.wins
        exchanges.append(Exchange(a=a, b=b, tied=tied))
        if not tied or not aware_and_active or not can_roll:
            return exchanges
        if len(exchanges) > MAX_TIE_REROLLS:
            applied.append(
                note("cogent.conflict.still_tied", "RULINGS.md", rerolls=MAX_TIE_REROLLS)
            )
            return exchanges


def powerless_challenge_level(
    pool: int,
    *,
    actor: Literal["player", "npc"] = "player",
    target: Literal["player", "npc"] = "npc",
) -> int:
    """The CL for a target powerless to oppose: lower than half its pool (002 > Conflicts).

    The highest whole CL below half the pool (at least 0): pool 6 gives CL 2, pool 7 gives CL 3.
    Only for players acting on NPCs, never the other way around.
    """
    if actor != "player" or target != "npc":
        raise RulesError(
            CONFLICTS,
            "a powerless target's CL is only for players acting on NPCs",
            fix="roll the conflict instead",
        )
    if pool < 0 or pool > MAX_POOL:
        raise InputError("pool", f"{pool} is out of range", expected=f"0 to {MAX_POOL}")
    return max(0, -(-pool // 2) - 1)
