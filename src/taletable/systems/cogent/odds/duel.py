"""How deadly is this fight? Exact duel odds by dynamic programming over the combat state.

Two combatants attack each other every round (002 > Combat). Each round both roll their combat
pool less their injury penalty; the one with more wins holds a victory level of the difference
(a tie changes nothing). The stated policy: the winner takes the most severe injury the level
allows; the loser spends STR (victory levels, once per encounter), then armour (injury levels,
per encounter) to keep the injury lowest. A fatal injury incapacitates, a deathblow kills.
Under the hardcore armour rules (002 > Hardcore Armour Rules) armour is read by pieces and its
reduction is "permanent and applies to every injury": never spent, less the levels the foe's
weapon takes off it under the hardcore weapon table (002 > Hardcore Weapon Modifiers).
The state is (injury penalty, STR left, armour left) of both; the answer is, for every round
up to a horizon, the exact chance that each side has been put down, and how.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, reduce
from math import lcm

from taletable._model import Record
from taletable.errors import InputError
from taletable.prob import fraction_text
from taletable.prob.distribution import exact_fraction
from taletable.systems.cogent.character.pools import injury_penalty, strength_reductions
from taletable.systems.cogent.character.sheet import CoreCharacter, Weapon
from taletable.systems.cogent.combat.hardcore import armour_after_weapon, worn_armour_level
from taletable.systems.cogent.combat.outcomes import most_severe_injury, policy_reductions
from taletable.systems.cogent.combat.pool import weapon_pool, weapon_use
from taletable.systems.cogent.odds.checks import wins_distribution
from taletable.systems.cogent.rules import CORE, Rules

__all__ = [
    "DuelOdds",
    "Duelist",
    "duel_odds",
    "duelist_from_sheet",
    "duelists",
    "victory_after_policy",
]

MAX_HORIZON = 200
DEATHBLOW = 5
FATAL = 4


class Duelist(Record):
    """A side of a duel: its combat pool before injuries, STR, armour level, injuries."""

    pool: int
    strength: int = 0
    armour: int = 0
    injury_penalty: int = 0
    #: Hardcore armour: never spent, it takes its whole level off every injury (002 > Hardcore
    #: Armour Rules: "permanent and applies to every injury").
    armour_permanent: bool = False


def duelist_from_sheet(
    sheet: CoreCharacter,
    weapon: str | None = None,
    *,
    rules: Rules = CORE,
    foe_weapon: Weapon | None = None,
) -> Duelist:
    """A core sheet (or a statblock's sheet) as a duelist, as the combat engine builds it.

    The weapon defaults to the sheet's first; the pool is the combat pool before injuries
    (002 > Combat > Combat Pools), STR reductions and the armour level come from the sheet. Under
    ``rules``' hardcore armour the level is the pieces' and permanent, less what ``foe_weapon``
    takes off it under the hardcore weapon table (002 > Hardcore Combat).
    """
    armour = worn_armour_level(sheet.equipment.armour, rules)
    if rules.hardcore_armour and rules.hardcore_weapons and foe_weapon is not None:
        armour = armour_after_weapon(armour, weapon_use(foe_weapon, None))
    penalty = injury_penalty(sheet)
    return Duelist(
        pool=weapon_pool(sheet, weapon, "melee", rules).size + penalty,
        strength=strength_reductions(sheet),
        armour=armour,
        injury_penalty=penalty,
        armour_permanent=rules.hardcore_armour,
    )


def _carried(sheet: CoreCharacter, weapon: str | None) -> Weapon | None:
    named = (weapon or "").lower()
    return next((w for w in sheet.equipment.weapons if w.name.lower() == named), None)


def duelists(
    a: tuple[CoreCharacter, str | None], b: tuple[CoreCharacter, str | None], rules: Rules = CORE
) -> tuple[Duelist, Duelist]:
    """Both sides of a duel, each ``(sheet, weapon)``, by ``rules``: each side's armour as it
    stands against the other's weapon (002 > Hardcore Weapon Modifiers: "Reduce target's Armour
    Level")."""
    return (
        duelist_from_sheet(*a, rules=rules, foe_weapon=_carried(*b)),
        duelist_from_sheet(*b, rules=rules, foe_weapon=_carried(*a)),
    )


class DuelOdds(Record):
    """Exact chances, within the horizon: who is put down first, how, and when."""

    p_a: Fraction
    p_b: Fraction
    p_a_kills: Fraction
    p_b_kills: Fraction
    p_undecided: Fraction
    rounds: int
    by_round: tuple[tuple[int, Fraction, Fraction], ...]

    def to_data(self) -> dict[str, object]:
        """The CLI's JSON: who is put down ("a/b" and floats), kills, and round by round."""
        return {
            "p_a": fraction_text(self.p_a),
            "p_b": fraction_text(self.p_b),
            "p_a_float": float(self.p_a),
            "p_b_float": float(self.p_b),
            "p_a_kills_float": float(self.p_a_kills),
            "p_b_kills_float": float(self.p_b_kills),
            "p_undecided_float": float(self.p_undecided),
            "by_round": [{"round": r, "a": float(x), "b": float(y)} for r, x, y in self.by_round],
        }


def victory_after_policy(
    level: int, strength: int, armour: int, *, hardcore_armour: bool = False
) -> tuple[int, int, int]:
    """(injury level inflicted, STR spent, armour spent) under the stated policies: the most
    severe injury the level allows; the loser's reductions as the combat engine's default
    (RULINGS.md "Default policies": STR, then armour, only as far as needed). Hardcore armour
    applies in full and is never spent (002 > Hardcore Armour Rules)."""
    if level <= 0:
        return 0, 0, 0
    result = policy_reductions(
        most_severe_injury(level), level, strength_left=strength, armour_left=armour,
        hardcore_armour=hardcore_armour,
    )  # fmt: skip
    spent = 0 if hardcore_armour else result.armour_used
    return result.injury_level, result.strength_used, spent


@cache
def _transitions(pool_a: int, pool_b: int, scale: int) -> tuple[tuple[int, int], ...]:
    """(a - b wins, integer weight over ``scale``) for one exchange of these pools."""
    difference = wins_distribution(pool_a) - wins_distribution(pool_b)
    factor, rest = divmod(scale, difference.denominator)
    assert rest == 0, "the scale is a multiple of every exchange's denominator"
    return tuple(
        (difference.offset + i, weight * factor)
        for i, weight in enumerate(difference.weights)
        if weight
    )


def _scale(pool_a: int, pool_b: int) -> int:
    """A common denominator of one exchange for any pools up to these (pools only shrink)."""
    a = reduce(lcm, (wins_distribution(n).denominator for n in range(pool_a + 1)), 1)
    b = reduce(lcm, (wins_distribution(n).denominator for n in range(pool_b + 1)), 1)
    return a * b


State = tuple[int, int, int, int, int, int]  # penalty, STR, armour of a, then of b


def _clamped(state: State, pool_a: int, pool_b: int) -> State:
    """The same state with penalties past a pool cut to it: no dice is no dice, however many
    are taken away (RULINGS.md "pools of zero or fewer dice"), so such states merge."""
    pen_a, str_a, arm_a, pen_b, str_b, arm_b = state
    return (min(pen_a, pool_a), str_a, arm_a, min(pen_b, pool_b), str_b, arm_b)


def _after_victory(state: State, difference: int, a: Duelist, b: Duelist) -> State | int:
    """The state after a round's victory by ``difference``, or the winner's index (0 or 1;
    +2 for a deathblow) when the victory puts the loser down (002 > Combat > Victory Levels)."""
    pen_a, str_a, arm_a, pen_b, str_b, arm_b = state
    winner = 0 if difference > 0 else 1
    loser_strength, loser_armour = (str_b, arm_b) if winner == 0 else (str_a, arm_a)
    injury, s, r = victory_after_policy(
        abs(difference), loser_strength, loser_armour,
        hardcore_armour=(b if winner == 0 else a).armour_permanent,
    )  # fmt: skip
    if injury >= FATAL:
        return winner + 2 if injury >= DEATHBLOW else winner
    if winner == 0:
        return _clamped((pen_a, str_a, arm_a, pen_b + injury, str_b - s, arm_b - r), a.pool, b.pool)
    return _clamped((pen_a + injury, str_a - s, arm_a - r, pen_b, str_b, arm_b), a.pool, b.pool)


def _one_round(
    states: dict[State, int], a: Duelist, b: Duelist, scale: int
) -> tuple[dict[State, int], list[int], int]:
    """One exchange from every state: the states carried on, the weight that ended in each
    way (a puts b down, b puts a down, a kills, b kills), and the weight stuck with no dice."""
    carried: dict[State, int] = {}
    ended = [0, 0, 0, 0]
    stuck = 0
    for state, weight in states.items():
        pools = (max(0, a.pool - state[0]), max(0, b.pool - state[3]))
        if pools == (0, 0):
            stuck += weight
            continue
        for difference, p in _transitions(*pools, scale):
            mass = weight * p
            after = state if difference == 0 else _after_victory(state, difference, a, b)
            if isinstance(after, int):
                ended[after % 2] += mass
                if after >= 2:
                    ended[after] += mass
            else:
                carried[after] = carried.get(after, 0) + mass
    return carried, ended, stuck


def duel_odds(a: Duelist, b: Duelist, *, horizon: int = 50) -> DuelOdds:
    """The exact duel, round by round, up to ``horizon`` rounds (the rest is undecided).

    Weights are integers over ``scale ** round`` (one common denominator per round), so the
    dynamic programme adds and multiplies integers and builds one Fraction per round and side.
    """
    if not 1 <= horizon <= MAX_HORIZON:
        raise InputError("rounds", f"{horizon}", expected=f"1 to {MAX_HORIZON}")
    for side in (a, b):
        if side.pool > 60 or side.strength > 10 or side.armour > 10 or side.injury_penalty < 0:
            raise InputError("duelist", "out of range", expected="pool <= 60, STR and armour <= 10")
    scale = _scale(max(0, a.pool - a.injury_penalty), max(0, b.pool - b.injury_penalty))
    start = (a.injury_penalty, a.strength, a.armour, b.injury_penalty, b.strength, b.armour)
    states: dict[State, int] = {_clamped(start, a.pool, b.pool): 1}
    totals = [Fraction(0)] * 4  # a puts b down, b puts a down, a kills, b kills
    stuck = Fraction(0)  # neither side has a die left: no one can ever win (002 > Combat)
    by_round = []
    denominator = 1
    for round_number in range(1, horizon + 1):
        states, ended, stuck_weight = _one_round(states, a, b, scale)
        stuck += exact_fraction(stuck_weight, denominator)
        denominator *= scale
        shares = [exact_fraction(mass, denominator) for mass in ended]
        totals = [total + share for total, share in zip(totals, shares, strict=True)]
        by_round.append((round_number, shares[0], shares[1]))
        if not states:
            break
    return DuelOdds(
        p_a=totals[0],
        p_b=totals[1],
        p_a_kills=totals[2],
        p_b_kills=totals[3],
        p_undecided=exact_fraction(sum(states.values()), denominator) + stuck,
        rounds=len(by_round),
        by_round=tuple(by_round),
    )
