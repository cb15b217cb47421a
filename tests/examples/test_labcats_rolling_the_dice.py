"""004 "Rolling the Dice", step by step, as worked examples.

004 gives its rules as numbered steps without numeric examples; each step here is played out with
chosen traits and faces, and the numbers asserted are the ones the steps give.
"""

from __future__ import annotations

from typing import Any

import pytest

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.systems.labcats.building import Trait, build_pool
from taletable.systems.labcats.conflict import end_conflict, pay_for_pool, shutdown
from taletable.systems.labcats.economy import WATCHTOWER, PlotPoints, TroublePool
from taletable.systems.labcats.rolls import roll_pool

DUTY = Trait(kind="value", name="Duty", die=8)
ANN = Trait(kind="relationship", name="Ann", die=6)


def test_for_free_always_two_dice() -> None:
    """For Free 1: acting in accordance with Duty d8 and Ann d6 gives d8 + d6 for 0 PP."""
    plan = build_pool([DUTY, ANN])
    assert (plan.pool, plan.plot_points, plan.step_down_after) == ((8, 6), 0, ())


def test_for_free_challenging_a_value() -> None:
    """For Free 1: challenging Duty d8 gives three d8s, and Duty steps down to d6 after."""
    plan = build_pool([DUTY.model_copy(update={"challenging": True}), ANN])
    assert plan.pool == (8, 8, 8, 6)
    assert end_conflict({"Duty": 8, "Ann": 6}, plan).ratings == {"Duty": 6, "Ann": 6}


def test_for_free_one_ability_or_distinction() -> None:
    """For Free 2: Flight d10 is free, Brave d8 costs 1 PP; a Heritage only when relevant."""
    flight = Trait(kind="ability", name="Flight", die=10)
    brave = Trait(kind="distinction", name="Brave", die=8)
    plan = build_pool([DUTY, ANN, flight, brave])
    assert (plan.pool, plan.plot_points) == ((8, 6, 10, 8), 1)
    kryptonian = Trait(kind="heritage", name="Kryptonian", die=10)
    with pytest.raises(RulesError, match="not relevant"):
        build_pool([DUTY, ANN, kryptonian])
    relevant = kryptonian.model_copy(update={"relevant_heritage": True})
    assert build_pool([DUTY, ANN, relevant]).plot_points == 0


def test_for_free_opponents_stress() -> None:
    """For Free 3: the opponent's Afraid d6 Stress, fitting the roll, is a free d6."""
    plan = build_pool([DUTY, ANN, Trait(kind="stress", name="Afraid", die=6)])
    assert (plan.pool, plan.plot_points) == ((8, 6, 6), 0)


def test_for_free_opponents_limit_and_shutdown() -> None:
    """For Free 4: the opponent's Limit d6 gives three d6s; a win Shuts down for 1 PP or free."""
    plan = build_pool([DUTY, ANN, Trait(kind="limit", name="Kryptonite", die=6)])
    assert (plan.pool, plan.plot_points) == ((8, 6, 6, 6, 6), 0)
    points = PlotPoints().award("Ann", 1)
    paid, after = shutdown(
        plan, won=True, ability="Strength", stressed_out=False, points=points, player="Ann"
    )
    assert (paid.plot_points, after.held["Ann"]) == (1, 0)
    free, _ = shutdown(
        plan, won=True, ability="Strength", stressed_out=True, points=points, player="Ann"
    )
    assert free.plot_points == 0


def test_for_plot_points_more_traits_and_anybodys_stress() -> None:
    """For Plot Points 1: a second Relationship and anybody's Stress cost 1 PP each."""
    plan = build_pool([
        DUTY, ANN,
        Trait(kind="relationship", name="Bo", die=10),
        Trait(kind="stress", name="Insecure", die=8, opponents=False),
    ])  # fmt: skip
    assert (plan.pool, plan.plot_points) == ((8, 6, 10, 8), 2)
    assert pay_for_pool(plan, PlotPoints().award("Cy", 3), "Cy").held == {"Cy": 1}


def test_for_plot_points_useful_details() -> None:
    """For Plot Points 2: a Useful Detail is a d6 for 1 PP, then free for the rest of the scene."""
    rope = Trait(kind="useful_detail", name="Rope", die=6)
    assert build_pool([DUTY, ANN, rope]).plot_points == 1
    again = rope.model_copy(update={"already_bought": True})
    assert build_pool([DUTY, ANN, again]).plot_points == 0


def test_for_plot_points_watchtower_detail_from_trouble_pool() -> None:
    """For Plot Points 2: the Watchtower may pull a d10 from the Trouble Pool as a Useful Detail."""
    pool, detail, points = TroublePool(dice=(6, 10)).useful_detail("Fog", 10, PlotPoints())
    assert (pool.dice, detail.die, points.held) == ((6,), 10, {})


def test_side_dice_from_resources() -> None:
    """Side Dice 1: Lab d8 on the sheet is free; Cousin d6, not on the sheet, costs 1 PP."""
    plan = build_pool([
        DUTY, ANN,
        Trait(kind="resource", name="Lab", die=8),
        Trait(kind="resource", name="Cousin", die=6, on_sheet=False),
    ])  # fmt: skip
    assert (plan.pool, plan.resources, plan.plot_points) == ((8, 6), (8, 6), 1)


def test_rolling_complications_and_total() -> None:
    """Rolling 1-3: d8 d6 d6 d10 show 1 5 3 7, resources d6 d8 show 4 2: 7 + 5 + 4 = 16."""
    result = roll_pool((8, 6, 6, 10), GivenFaces([1, 5, 3, 7, 4, 2]), (6, 8))
    assert (result.complications, result.kept, result.resource) == ((8,), (7, 5), 4)
    assert (result.total, result.failed) == (16, False)


def test_rolling_all_ones_fail() -> None:
    """Rolling 1: d8 and d6 both show 1: two Complications and the roll fails."""
    result = roll_pool((8, 6), GivenFaces([1, 1]))
    assert (result.failed, result.total, result.complications) == (True, 0, (8, 6))


def test_rolling_resource_ones_are_not_complications() -> None:
    """Rolling 2: a resource d6 showing 1 is no Complication; it adds 1: 4 + 4 + 1 = 9."""
    result = roll_pool((8, 8), GivenFaces([4, 4, 1]), (6,))
    assert (result.complications, result.total) == ((), 9)


def test_rolling_plot_points_add_dice() -> None:
    """Rolling 4: faces 6 5 4 1 and 1 PP: 6 + 5 + 4 = 15, the 1 cannot be bought."""
    result = roll_pool((8, 8, 8, 8), GivenFaces([6, 5, 4, 1]), add=2)
    assert (result.kept, result.total, result.plot_points) == ((6, 5, 4), 15, 1)


def test_rolling_trouble_pool() -> None:
    """Rolling 1: the Watchtower pays 1 PP to add the player's d8 Complication; the player later
    pays 1 PP to remove a d6 with the Watchtower's d6 Complication."""
    player_roll = roll_pool((8, 6), GivenFaces([1, 4]))
    points = PlotPoints().award(WATCHTOWER).award("Ann")
    trouble, points = TroublePool(dice=(6,)).add_complications(
        player_roll.complications, [8], points, "Ann"
    )
    assert (trouble.dice, points.held) == ((6, 8), {WATCHTOWER: 0, "Ann": 2})
    watchtower_roll = roll_pool((6, 8, 6), GivenFaces([1, 5, 3]))
    trouble, points = trouble.remove_dice(watchtower_roll.complications, [6], points, "Ann")
    assert (trouble.dice, points.held["Ann"]) == ((8,), 1)
    with pytest.raises(RulesError, match="that size or bigger"):
        trouble.remove_dice(watchtower_roll.complications, [8], points, "Ann")


def test_rolling_the_dice_on_the_command_line(run_cli: Any) -> None:
    """`labcats roll` gives the same 16 as Rolling 1-3, and the readable report names it."""
    arguments = ["labcats", "roll", "--pool", "d8,d6,d6,d10", "--resources", "d6,d8",
                 "--faces", "1,5,3,7", "--resource-faces", "4,2"]  # fmt: skip
    data = run_cli(*arguments, "--json").json()
    assert (data["complications"], data["kept"], data["resource"]) == ([8], [7, 5], 4)
    assert (data["total"], data["failed"]) == (16, False)
    readable = run_cli(*arguments)
    assert readable.status == 0
    assert "= 16" in readable.stdout and "complications: d8" in readable.stdout
