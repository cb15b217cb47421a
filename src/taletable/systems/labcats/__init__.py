"""The Cortex-style pool system (004), where the GM is the Watchtower.

* :mod:`.dice` — die sizes d4-d12, parsing, stepping, and :func:`total_of`, the scoring rule;
* :mod:`.building` — a pool from traits, priced in Plot Points (004 > Dice Pool);
* :mod:`.rolls` — the roll: Complications, the dice kept, the total (004 > Rolling the Dice);
* :mod:`.economy` — Plot Points per player and the Watchtower, the Trouble Pool;
* :mod:`.conflict` — paying for a pool, the step-down after a conflict, the Shutdown;
* :mod:`.rules` — the options where tables differ (see RULINGS.md).
"""

from taletable.systems.labcats.building import PoolPart, PoolPlan, Trait, build_pool
from taletable.systems.labcats.conflict import (
    ConflictEnd,
    Shutdown,
    end_conflict,
    pay_for_pool,
    shutdown,
)
from taletable.systems.labcats.dice import (
    DIE_SIZES,
    KEPT_FOR_FREE,
    MAX_POOL_DICE,
    Score,
    parse_die,
    parse_pool,
    step_down,
    step_up,
    total_of,
)
from taletable.systems.labcats.economy import WATCHTOWER, PlotPoints, TroublePool
from taletable.systems.labcats.rolls import LabcatsRoll, roll_pool, score
from taletable.systems.labcats.rules import LabcatsRules

__all__ = [
    "DIE_SIZES",
    "KEPT_FOR_FREE",
    "MAX_POOL_DICE",
    "WATCHTOWER",
    "ConflictEnd",
    "LabcatsRoll",
    "LabcatsRules",
    "PlotPoints",
    "PoolPart",
    "PoolPlan",
    "Score",
    "Shutdown",
    "Trait",
    "TroublePool",
    "build_pool",
    "end_conflict",
    "parse_die",
    "parse_pool",
    "pay_for_pool",
    "roll_pool",
    "score",
    "shutdown",
    "step_down",
    "step_up",
    "total_of",
]
