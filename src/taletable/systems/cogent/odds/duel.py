"""How deadly is this fight? Exact duel odds by dynamic programming over the combat state.

Two combatants attack each other every round (002 > Combat). Each round both roll their combat
pool less their injury penalty; the one with more wins holds a victory level of the difference
(a tie changes nothing). The stated policy: the winner takes the most severe injury the level
allows; the loser spends STR (victory levels, once per encounter), then armour (injury levels,
per encounter) to keep the injury lowest. A fatal injury incapacitates, a deathblow kills.
The state is (injury penalty, STR left, armour left) of both; the answer is, for every round
up to a horizon, the exact chance that each side has been put down, and how.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from taletable._model import Record
from taletable.errors import InputError
from taletable.prob import fraction_text
from taletable.systems.cogent.character import combat_pool
from taletable.systems.cogent.character.pools import injury_penalty, strength_reductions
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.equipment import armour_level
from taletable.systems.cogent.odds.checks import wins_distribution

__all__ = ["DuelOdds", "Duelist", "duel_odds", "duelist_from_sheet", "victory_after_policy"]

MAX_HORIZON = 200
DEATHBLOW = 5
FATAL = 4


class Duelist(Record):
    """A side of a duel: its combat pool before injuries, STR, armour level, injuries."""

    pool: int
    strength: int = 0
    armour: int = 0
    injury_penalty: int = 0


def duelist_from_sheet(sheet: CoreCharacter, weapon: str | None = None) -> Duelist:
    """A core sheet (or a statblock's sheet) as a duelist, as the combat engine builds it.

    The weapon defaults to the sheet's first; the pool is the combat pool before injuries
    (002 > Combat > Combat Pools), STR reductions and the armour level come from the sheet.
    """
    penalty = injury_penalty(sheet)
    return Duelist(
        pool=combat_pool(sheet, weapon).size + penalty,
        strength=strength_reductions(sheet),
        armour=armour_level(sheet.equipment.armour),
        injury_penalty=penalty,
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

    def to_contract(self) -> dict[str, object]:
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


def victory_after_policy(level: int, strength: int, armour: int) -> tuple[int, int, int]:
    """(injury level inflicted, STR spent, armour spent) under the stated policies."""
    spent_strength = min(strength, level)
    after = level - spent_strength
    if after <= 0:
        return 0, spent_strength, 0
    injury = DEATHBLOW if after >= DEATHBLOW else min(after, FATAL)
    spent_armour = min(armour, injury)
    return injury - spent_armour, spent_strength, spent_armour


@cache
def _difference(pool_a: int, pool_b: int) -> tuple[tuple[int, Fraction], ...]:
    return tuple((wins_distribution(pool_a) - wins_distribution(pool_b)).items())


State = tuple[int, int, int, int, int, int]  # penalty, STR, armour of a, then of b


def duel_odds(a: Duelist, b: Duelist, *, horizon: int = 50) -> DuelOdds:
    """The exact duel, round by round, up to ``horizon`` rounds (the rest is undecided)."""
    if not 1 <= horizon <= MAX_HORIZON:
        raise InputError("--rounds", f"{horizon}", expected=f"1 to {MAX_HORIZON}")
    for side in (a, b):
        if side.pool > 60 or side.strength > 10 or side.armour > 10 or side.injury_penalty < 0:
            raise InputError("duelist", "out of range", expected="pool <= 60, STR and armour <= 10")
    states: dict[State, Fraction] = {
        (a.injury_penalty, a.strength, a.armour, b.injury_penalty, b.strength, b.armour): Fraction(
            1
        )
    }
    p_a = p_b = kills_a = kills_b = Fraction(0)
    by_round = []
    for round_number in range(1, horizon + 1):
        nxt: dict[State, Fraction] = {}
        round_a = round_b = Fraction(0)
        for state, weight in states.items():
            pen_a, str_a, arm_a, pen_b, str_b, arm_b = state
            for difference, p in _difference(max(0, a.pool - pen_a), max(0, b.pool - pen_b)):
                mass = weight * p
                if difference == 0:
                    nxt[state] = nxt.get(state, Fraction(0)) + mass
                    continue
                if difference > 0:  # a wins; b suffers
                    injury, s, r = victory_after_policy(difference, str_b, arm_b)
                    if injury >= FATAL:
                        round_a += mass
                        if injury >= DEATHBLOW:
                            kills_a += mass
                        continue
                    key = (pen_a, str_a, arm_a, pen_b + injury, str_b - s, arm_b - r)
                else:
                    injury, s, r = victory_after_policy(-difference, str_a, arm_a)
                    if injury >= FATAL:
                        round_b += mass
                        if injury >= DEATHBLOW:
                            kills_b += mass
                        continue
                    key = (pen_a + injury, str_a - s, arm_a - r, pen_b, str_b, arm_b)
                nxt[key] = nxt.get(key, Fraction(0)) + mass
        states = nxt
        p_a += round_a
        p_b += round_b
        by_round.append((round_number, round_a, round_b))
        if not states:
            break
    return DuelOdds(
        p_a=p_a,
        p_b=p_b,
        p_a_kills=kills_a,
        p_b_kills=kills_b,
        p_undecided=sum(states.values(), Fraction(0)),
        rounds=len(by_round),
        by_round=tuple(by_round),
    )
