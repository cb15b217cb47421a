"""The example magic system of Cogent (002 > Supplementary Content > Example Magic Systems).

Schools and spells as data; spells as proficiencies of up to two points; casting as a check
against the narrator's CL (failure is a miscast by the shortfall); summoning elementals;
aeromancy flight, levitation and teleportation CLs; telepathy; counteraction; and the hard-magic
druid spells with their requirements and components.
"""

from taletable.systems.cogent.magic.casting import (
    CastResult,
    HardCastResult,
    cast_hard_spell,
    cast_spell,
    check_spell_choices,
    difficulty_challenge_level,
    spell_pool,
)
from taletable.systems.cogent.magic.minds import (
    CounterResult,
    TelepathyResult,
    counter_spell,
    read_mind,
    telepathy_outcome,
)
from taletable.systems.cogent.magic.movement import (
    GustResult,
    HoldResult,
    MovementLevel,
    flight_challenge_level,
    gust_of_wind,
    hold_still,
    movement_challenge_level,
)
from taletable.systems.cogent.magic.summoning import (
    MagicRules,
    SummonResult,
    summon,
    summon_duration,
    summoned_creature,
)
from taletable.systems.cogent.magic.system import HardSpell, MagicSystem, Spell, magic_system

__all__ = [
    "CastResult",
    "CounterResult",
    "GustResult",
    "HardCastResult",
    "HardSpell",
    "HoldResult",
    "MagicRules",
    "MagicSystem",
    "MovementLevel",
    "Spell",
    "SummonResult",
    "TelepathyResult",
    "cast_hard_spell",
    "cast_spell",
    "check_spell_choices",
    "counter_spell",
    "difficulty_challenge_level",
    "flight_challenge_level",
    "gust_of_wind",
    "hold_still",
    "magic_system",
    "movement_challenge_level",
    "read_mind",
    "spell_pool",
    "summon",
    "summon_duration",
    "summoned_creature",
    "telepathy_outcome",
]
