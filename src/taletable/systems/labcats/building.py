"""Building a dice pool from traits (004 > Dice Pool: For Free, For Plot Points, Side Dice).

For free: the Value and the Relationship in the conflict (one die each when acting in
accordance, three when challenging it, which steps it down at the end of the conflict); one
Ability or Distinction (a Heritage counts as a Distinction only where it is relevant); the
opponent's Stress of a fitting type (one die); three dice of the opponent's Limit when using it.
For Plot Points, one each: more Abilities, Distinctions or Relationships, anybody's Stress, and
Useful Details (a d6 that stays for the scene, then free). Side dice from Resources (Locations
and Extras) are free if on the sheet and unused, one Plot Point each otherwise.

:func:`build_pool` only plans and prices a pool; paying for it is
:func:`taletable.systems.labcats.conflict.pay_for_pool`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from taletable._model import Record
from taletable.errors import RulesError
from taletable.systems.labcats.dice import DIE_SIZES, MAX_POOL_DICE

__all__ = ["PoolPart", "PoolPlan", "Trait", "build_pool"]

SOURCE = "004 > Dice Pool"
USEFUL_DETAIL_DIE = 6
CHALLENGE_DICE = 3
LIMIT_DICE = 3

TraitKind = Literal[
    "value", "relationship", "ability", "distinction", "heritage", "stress", "limit",
    "useful_detail", "resource",
]  # fmt: skip


class Trait(Record):
    """A trait brought into a roll: what it is, its die, and how it is used.

    ``challenging``: a Value or Relationship the character acts against (three dice, stepped
    down after). ``relevant_heritage``: the roll is about knowing, understanding or representing
    the Heritage. ``opponents``: a Stress is the opponent's, of a fitting type (else it is
    "anybody's Stress", bought). ``on_sheet``/``used_up``: a Resource's state.
    ``already_bought``: a Useful Detail bought earlier in the scene.
    """

    kind: TraitKind
    name: str = Field(min_length=1)
    die: int
    challenging: bool = False
    relevant_heritage: bool = False
    opponents: bool = True
    on_sheet: bool = True
    used_up: bool = False
    already_bought: bool = False

    @field_validator("die")
    @classmethod
    def _known_die(cls, die: int) -> int:
        if die not in DIE_SIZES:
            raise ValueError(f"d{die} is not a die of the system (d4-d12)")
        return die


class PoolPart(Record):
    """Dice a trait puts in a pool, what they cost and why."""

    trait: str
    kind: str
    dice: tuple[int, ...]
    plot_points: int
    side: bool
    why: str


class PoolPlan(Record):
    """A built pool: main dice, side dice, Plot Points to pay, and what follows the conflict.

    ``step_down_after`` names the challenged Values and Relationships; ``limits_used`` the
    opponent's Limits brought in (a win may then Shutdown the opponent's Ability).
    """

    parts: tuple[PoolPart, ...]
    pool: tuple[int, ...]
    resources: tuple[int, ...]
    plot_points: int
    step_down_after: tuple[str, ...]
    limits_used: tuple[str, ...] = ()


def _part(trait: Trait, dice: tuple[int, ...], cost: int, why: str, side: bool = False) -> PoolPart:
    return PoolPart(
        trait=trait.name, kind=trait.kind, dice=dice, plot_points=cost, side=side, why=why
    )


def _core_trait(trait: Trait, first: bool, steps: list[str]) -> PoolPart:
    """A Value or Relationship: one die in accordance, three when challenged (then step down)."""
    if trait.kind == "value" and not first:
        raise RulesError(SOURCE, "a pool has one Value", fix="drop the second Value")
    dice = (trait.die,) * (CHALLENGE_DICE if trait.challenging else 1)
    if trait.challenging:
        steps.append(trait.name)
    why = "challenged: three dice, stepped down after" if trait.challenging else "in accordance"
    if first:
        return _part(trait, dice, 0, why)
    return _part(trait, dice, 1, why + "; another Relationship costs 1 PP")


def _other_trait(trait: Trait, free_trait_used: bool, free_stress_used: bool) -> PoolPart:
    """Any trait but a Value or Relationship, with its cost (004 > Dice Pool)."""
    if trait.challenging:
        raise RulesError(
            SOURCE,
            f"only a Value or Relationship can be challenged, not the {trait.kind} {trait.name!r}",
            fix="drop the challenge",
        )
    if trait.kind in ("ability", "distinction", "heritage"):
        if trait.kind == "heritage" and not trait.relevant_heritage:
            raise RulesError(
                SOURCE,
                f"the Heritage {trait.name!r} is not relevant to this roll",
                fix="bring it in only when knowing, understanding or representing it matters",
            )
        if free_trait_used:
            return _part(trait, (trait.die,), 1, "a further Ability or Distinction: 1 PP")
        return _part(trait, (trait.die,), 0, "the one free Ability or Distinction")
    if trait.kind == "stress":
        if trait.opponents and not free_stress_used:
            return _part(trait, (trait.die,), 0, "the opponent's fitting Stress: free")
        why = "another Stress: 1 PP" if trait.opponents else "anybody's Stress: 1 PP"
        return _part(trait, (trait.die,), 1, why)
    if trait.kind == "limit":
        why = "the opponent's Limit: three dice; a win may Shutdown their Ability"
        return _part(trait, (trait.die,) * LIMIT_DICE, 0, why)
    if trait.kind == "useful_detail":
        if trait.already_bought:
            return _part(trait, (trait.die,), 0, "a Useful Detail already in the scene")
        if trait.die != USEFUL_DETAIL_DIE:
            raise RulesError(SOURCE, "a Useful Detail bought by a player is a d6", fix="use d6")
        return _part(trait, (trait.die,), 1, "a Useful Detail: 1 PP, stays for the scene")
    if trait.on_sheet and not trait.used_up:
        return _part(trait, (trait.die,), 0, "a Resource on the sheet, unused: free", side=True)
    why = "a used-up Resource: 1 PP" if trait.on_sheet else "a Resource not on the sheet: 1 PP"
    return _part(trait, (trait.die,), 1, why, side=True)


def build_pool(traits: list[Trait]) -> PoolPlan:
    """Assemble and price a pool from ``traits`` by 004 > Dice Pool, or refuse an illegal one.

    Traits are taken in the order given: the first Value and Relationship are free, the first
    Ability/Distinction/relevant Heritage is free, the first fitting opponent's Stress is free;
    what follows is priced at one Plot Point each. Main and side dice are kept apart.
    """
    for required in ("value", "relationship"):
        if not any(trait.kind == required for trait in traits):
            raise RulesError(
                SOURCE, f"every pool has a {required}", fix=f"add the {required} in the conflict"
            )
    parts: list[PoolPart] = []
    steps: list[str] = []
    seen: set[str] = set()
    free_trait_used = free_stress_used = False
    for trait in traits:
        if trait.kind in ("value", "relationship"):
            parts.append(_core_trait(trait, trait.kind not in seen, steps))
            seen.add(trait.kind)
        else:
            parts.append(_other_trait(trait, free_trait_used, free_stress_used))
            free_trait_used |= trait.kind in ("ability", "distinction", "heritage")
            free_stress_used |= trait.kind == "stress" and trait.opponents
    pool = tuple(die for part in parts if not part.side for die in part.dice)
    resources = tuple(die for part in parts if part.side for die in part.dice)
    if len(pool) > MAX_POOL_DICE or len(resources) > MAX_POOL_DICE:
        raise RulesError(SOURCE, "the pool is too large", fix=f"at most {MAX_POOL_DICE} dice")
    return PoolPlan(
        parts=tuple(parts),
        pool=pool,
        resources=resources,
        plot_points=sum(part.plot_points for part in parts),
        step_down_after=tuple(steps),
        limits_used=tuple(trait.name for trait in traits if trait.kind == "limit"),
    )
