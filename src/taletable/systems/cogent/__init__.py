"""Cogent Roleplay, editions ``core`` (002) and ``tiered`` (000, gaps from 001).

The check engine's public names are here; each lives in the module of its game concept
(``pools``, ``checks``, ``destiny``, ``conflicts``, ``assists``, ``scale``, ``destiny_roll``).
"""

from taletable.systems.cogent.assists import (
    AssistConversion,
    AssistResult,
    CollaborationResult,
    convert_assist,
    roll_assist,
    roll_collaboration,
)
from taletable.systems.cogent.checks import CheckResult, roll_check
from taletable.systems.cogent.conflicts import (
    ConflictResult,
    powerless_challenge_level,
    roll_conflict,
)
from taletable.systems.cogent.destiny import DestinyPurse
from taletable.systems.cogent.destiny_roll import DestinyRollResult, roll_destiny
from taletable.systems.cogent.pools import Contribution, DicePool, base_pool, pool_of
from taletable.systems.cogent.rules import CORE, TIERED, Edition, Rules
from taletable.systems.cogent.scale import adjust_for_scale

__all__ = [
    "CORE",
    "TIERED",
    "AssistConversion",
    "AssistResult",
    "CheckResult",
    "CollaborationResult",
    "ConflictResult",
    "Contribution",
    "DestinyPurse",
    "DestinyRollResult",
    "DicePool",
    "Edition",
    "Rules",
    "adjust_for_scale",
    "base_pool",
    "convert_assist",
    "pool_of",
    "powerless_challenge_level",
    "roll_assist",
    "roll_check",
    "roll_collaboration",
    "roll_conflict",
    "roll_destiny",
]
