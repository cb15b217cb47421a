"""The 3d8 boons-and-banes system (003).

* :mod:`.dice` — 3d8 resized by boons and banes, at most six of each (003 > Boons & Banes);
* :mod:`.checks` — standard, passive and opposed checks with their tie rules (003 > Standard Checks,
  Opposed Contests, Passive Checks);
* :mod:`.group` — group challenges with secret difficulties (003 > Group Challenges);
* :mod:`.tracking` — let it ride (003 > Let it Ride);
* :mod:`.accumulation`, :mod:`.formula` — tracked values and accumulation checks (003 >
  Accumulation Checks);
* :mod:`.chance` — twists of fate and scatter dice (003 > Random Chance);
* :mod:`.tables` — the difficulty, twists and scatter tables (data files);
* :mod:`.odds` — exact odds of all of these on :mod:`taletable.prob`.
"""

from taletable.systems.boons.accumulation import Track, accumulate, new_value
from taletable.systems.boons.chance import ScatterResult, TwistResult, roll_scatter, roll_twist
from taletable.systems.boons.checks import (
    BoonsCheck,
    CheckResult,
    ContestResult,
    ability_bonus,
    declare_check,
    enchantment_bonus,
    roll_check,
    roll_contest,
)
from taletable.systems.boons.dice import MAX_BANES, MAX_BOONS, ResizeMethod, resize_dice
from taletable.systems.boons.group import GroupChallenge, start_group_challenge
from taletable.systems.boons.odds import (
    check_total,
    contest_odds,
    group_challenge_odds,
    pass_probability,
)
from taletable.systems.boons.tracking import LetItRide

__all__ = [
    "MAX_BANES",
    "MAX_BOONS",
    "BoonsCheck",
    "CheckResult",
    "ContestResult",
    "GroupChallenge",
    "LetItRide",
    "ResizeMethod",
    "ScatterResult",
    "Track",
    "TwistResult",
    "ability_bonus",
    "accumulate",
    "check_total",
    "contest_odds",
    "declare_check",
    "enchantment_bonus",
    "group_challenge_odds",
    "new_value",
    "pass_probability",
    "resize_dice",
    "roll_check",
    "roll_contest",
    "roll_scatter",
    "roll_twist",
    "start_group_challenge",
]
