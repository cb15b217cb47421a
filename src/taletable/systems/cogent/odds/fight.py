"""How deadly is this fight: Monte Carlo odds of a group fight on the real combat engine.

A duel has an exact answer (:mod:`.duel`); a fight of three or more has none here, since the
state of every fighter multiplies. So it is estimated: ``samples`` fights run by
:func:`~taletable.systems.cogent.combat.simulate_fight` (002 > Combat, with its stated
policies: every able fighter attacks, winners take the most severe injury their level allows,
losers spend STR then armour) from one seeded source, so the same seed gives the same figures.
Each figure carries its 99.9% error bound (:func:`taletable.prob.proportion`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

from taletable._model import Record
from taletable.dice import SeededDice
from taletable.errors import InputError
from taletable.prob import Estimate, proportion
from taletable.systems.cogent.combat import simulate_fight
from taletable.systems.cogent.fighters import Fighter

__all__ = ["MAX_FIGHT_SAMPLES", "FightOdds", "FighterFate", "fight_odds"]

#: The most fights one estimate runs (DESIGN > Principles 8); each takes milliseconds.
MAX_FIGHT_SAMPLES = 100_000


class FighterFate(Record):
    """How often one fighter ends the fight unable to act, and how often dead."""

    id: str
    side: str
    down: Estimate
    dead: Estimate


class FightOdds(Record):
    """Each side's chance to be the last standing, the undecided share, and every fate."""

    samples: int
    seed: int
    targeting: str
    max_rounds: int
    wins: dict[str, Estimate]
    undecided: Estimate
    mean_rounds: float
    fates: tuple[FighterFate, ...]

    def to_data(self) -> dict[str, Any]:
        """Plain figures for ``--json``: probabilities with their bounds."""

        def figure(estimate: Estimate) -> dict[str, float]:
            return {"p": estimate.probability, "bound": estimate.bound}

        return {
            "method": "monte carlo",
            "samples": self.samples,
            "seed": self.seed,
            "targeting": self.targeting,
            "confidence": 0.999,
            "wins": {side: figure(estimate) for side, estimate in self.wins.items()},
            "undecided": figure(self.undecided),
            "mean_rounds": self.mean_rounds,
            "fates": [
                {"id": f.id, "side": f.side, "down": figure(f.down), "dead": figure(f.dead)}
                for f in self.fates
            ],
        }


def fight_odds(
    fighters: Sequence[Fighter],
    *,
    samples: int = 500,
    seed: int = 0,
    targeting: Literal["first", "most injured"] = "first",
    max_rounds: int = 100,
) -> FightOdds:
    """Estimate a fight's outcome from ``samples`` seeded fights (002 > Combat; see module)."""
    if not 1 <= samples <= MAX_FIGHT_SAMPLES:
        raise InputError("samples", f"{samples}", expected=f"1 to {MAX_FIGHT_SAMPLES}")
    sides = sorted({side for _, side, _, _ in fighters})
    if len(sides) < 2:
        raise InputError("fighters", "a fight needs two sides", expected="at least two SIDEs")
    source = SeededDice(seed)
    winners: Counter[str | None] = Counter()
    down: Counter[str] = Counter()
    dead: Counter[str] = Counter()
    rounds = 0
    for _ in range(samples):
        result = simulate_fight(fighters, source, targeting=targeting, max_rounds=max_rounds)
        winners[result.winner] += 1
        rounds += result.rounds
        for combatant in result.encounter.combatants:
            down[combatant.id] += not combatant.can_act
            dead[combatant.id] += "dead" in combatant.conditions
    return FightOdds(
        samples=samples,
        seed=seed,
        targeting=targeting,
        max_rounds=max_rounds,
        wins={side: proportion(winners[side], samples) for side in sides},
        undecided=proportion(winners[None], samples),
        mean_rounds=rounds / samples,
        fates=tuple(
            FighterFate(
                id=ident,
                side=side,
                down=proportion(down[ident], samples),
                dead=proportion(dead[ident], samples),
            )
            for ident, side, _, _ in fighters
        ),
    )
