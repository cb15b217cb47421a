"""The Cortex-style pool system (004): dice, pool building, the roll, Plot Points, Trouble."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.cli.main import main
from taletable.dice import SeededDice
from taletable.errors import InputError, RulesError
from taletable.systems.labcats.building import Trait, build_pool
from taletable.systems.labcats.conflict import end_conflict, pay_for_pool, shutdown
from taletable.systems.labcats.dice import parse_pool, step_down, step_up
from taletable.systems.labcats.economy import WATCHTOWER, PlotPoints, TroublePool
from taletable.systems.labcats.rolls import roll_pool, score
from taletable.systems.labcats.rules import LabcatsRules


def test_dice_parsing_and_steps() -> None:
    """Dice are d4-d12; stepping moves one size, below d4 the trait is gone."""
    assert parse_pool("d8, d6,12") == (8, 6, 12)
    assert (step_up(8), step_up(12), step_down(6), step_down(4)) == (10, 12, 4, None)
    with pytest.raises(InputError, match="d4, d6, d8, d10 or d12"):
        parse_pool("d7")
    with pytest.raises(InputError, match="no dice"):
        parse_pool("")


def test_total_is_two_highest_plus_highest_resource() -> None:
    """004 > Rolling the Dice 3: two highest main dice + the highest resource die."""
    result = score((8, 6, 6, 10), (1, 5, 3, 7), (6, 8), (4, 2))
    assert (result.kept, result.resource, result.total) == ((7, 5), 4, 16)
    assert result.complications == (8,)


def test_ones_are_complications_and_all_ones_fail() -> None:
    """004 > Rolling the Dice 1: 1s are set aside; all 1s is a failure."""
    failed = score((8, 6), (1, 1))
    assert (failed.failed, failed.total, failed.complications) == (True, 0, (8, 6))
    single = score((8,), (5,))
    assert (single.kept, single.total) == ((5,), 5)


def test_resource_ones_are_not_complications() -> None:
    """004 > Rolling the Dice 2: a resource die's 1 is no complication."""
    result = score((8, 8), (4, 4), (6,), (1,))
    assert (result.complications, result.resource, result.total) == ((), 1, 9)


def test_plot_points_add_more_main_dice() -> None:
    """004 > Rolling the Dice 4: Plot Points add more main dice to the total."""
    result = score((8, 8, 8, 8), (6, 5, 4, 1), add=1)
    assert (result.kept, result.total, result.plot_points) == ((6, 5, 4), 15, 1)
    capped = score((8, 8, 8, 8), (6, 5, 4, 1), add=2)
    assert (capped.kept, capped.total, capped.added, capped.plot_points) == ((6, 5, 4), 15, 1, 1)


@given(st.lists(st.sampled_from([4, 6, 8, 10, 12]), min_size=1, max_size=12), st.integers(0, 2**32))
def test_scoring_properties(pool: list[int], seed: int) -> None:
    """For any pool: faces fit, complications are the 1s, total is the two highest non-1s."""
    result = roll_pool(pool, SeededDice(seed))
    usable = sorted((face for face in result.faces if face != 1), reverse=True)
    assert result.total == sum(usable[:2])
    assert len(result.complications) == result.faces.count(1)
    assert result.failed is (not usable)


def test_each_pool_holds_at_most_forty_dice() -> None:
    """DESIGN > Principles 8: the main pool and the side pool each hold at most 40 dice (41 main
    dice and none on the side were let through when only the sum was checked against 80)."""
    with pytest.raises(InputError, match="pool: 41 dice"):
        roll_pool((8,) * 41, SeededDice(1))
    with pytest.raises(InputError, match="resources: 41 dice"):
        roll_pool((8,), SeededDice(1), (6,) * 41)
    assert len(roll_pool((8,) * 40, SeededDice(1), (6,) * 40).faces) == 40


def test_pool_building_free_and_paid() -> None:
    """004 > Dice Pool: Value, Relationship and one trait free; Limit three dice; paid extras."""
    plan = build_pool([
        Trait(kind="value", name="Duty", die=8),
        Trait(kind="relationship", name="Ann", die=6, challenging=True),
        Trait(kind="ability", name="Flight", die=10),
        Trait(kind="distinction", name="Brave", die=8),
        Trait(kind="stress", name="Afraid", die=6),
        Trait(kind="stress", name="Tired", die=4, opponents=False),
        Trait(kind="limit", name="Fragile", die=6),
        Trait(kind="useful_detail", name="Rope", die=6),
        Trait(kind="resource", name="Lab", die=8),
        Trait(kind="resource", name="Contact", die=6, on_sheet=False),
    ])  # fmt: skip
    assert plan.pool == (8, 6, 6, 6, 10, 8, 6, 4, 6, 6, 6, 6)
    assert plan.resources == (8, 6)
    assert plan.plot_points == 4  # Brave, Tired, Rope, Contact
    assert plan.step_down_after == ("Ann",)


def test_pool_building_refusals() -> None:
    """A pool needs a Value and a Relationship; irrelevant Heritages and odd details refused."""
    with pytest.raises(RulesError, match="every pool has a value"):
        build_pool([Trait(kind="relationship", name="Ann", die=6)])
    base = [Trait(kind="value", name="Duty", die=8), Trait(kind="relationship", name="Ann", die=6)]
    with pytest.raises(RulesError, match="not relevant"):
        build_pool([*base, Trait(kind="heritage", name="Elf", die=8)])
    with pytest.raises(RulesError, match="is a d6"):
        build_pool([*base, Trait(kind="useful_detail", name="Rope", die=8)])
    with pytest.raises(RulesError, match="one Value"):
        build_pool([*base, Trait(kind="value", name="Love", die=6)])
    with pytest.raises(RulesError, match="only a Value or Relationship can be challenged"):
        build_pool([*base, Trait(kind="ability", name="Flight", die=8, challenging=True)])


def test_resources_and_stress_prices() -> None:
    """Resources: free on the sheet and unused, 1 PP otherwise; one fitting Stress free."""
    base = [Trait(kind="value", name="Duty", die=8), Trait(kind="relationship", name="Ann", die=6)]
    plan = build_pool([
        *base,
        Trait(kind="resource", name="Lab", die=8),
        Trait(kind="resource", name="Car", die=6, used_up=True),
        Trait(kind="resource", name="Cousin", die=4, on_sheet=False),
        Trait(kind="stress", name="Afraid", die=8),
        Trait(kind="stress", name="Angry", die=6),
        Trait(kind="stress", name="Own doubt", die=4, opponents=False),
    ])  # fmt: skip
    assert plan.resources == (8, 6, 4)
    assert plan.pool == (8, 6, 8, 6, 4)
    assert [part.plot_points for part in plan.parts] == [0, 0, 0, 1, 1, 0, 1, 1]
    assert plan.plot_points == 4


def test_trouble_pool_and_plot_points() -> None:
    """The Watchtower pays per Complication to add it; a player pays to remove a smaller die."""
    points = PlotPoints().award(WATCHTOWER, 2).award("Ann", 1)
    pool, points = TroublePool(dice=(6,)).add_complications((10, 4), ["d10"], points, "Ann")
    assert pool.dice == (6, 10)
    assert points.held == {WATCHTOWER: 1, "Ann": 2}
    pool, points = pool.remove_dice((8,), [6], points, "Ann")
    assert pool.dice == (10,)
    assert points.held == {WATCHTOWER: 1, "Ann": 1}
    with pytest.raises(RulesError, match="no unused d10 Complication"):
        pool.add_complications((10,), [10, 10], points, "Ann")
    with pytest.raises(RulesError, match="that size or bigger"):
        pool.remove_dice((8,), [10], points, "Ann")
    with pytest.raises(RulesError, match="has 0 Plot Point"):
        pool.remove_dice((12,), [10], PlotPoints(), "Ann")
    banked, paid = TroublePool().add_complications(
        (6,), [6], PlotPoints().award(WATCHTOWER), "Ann", LabcatsRules(watchtower_pays_player=False)
    )
    assert (banked.dice, paid.held) == ((6,), {WATCHTOWER: 0})


def test_watchtower_useful_detail_from_the_trouble_pool() -> None:
    """The Watchtower's Useful Detail: a d6 for 1 PP, or a Trouble Pool die for free."""
    points = PlotPoints().award(WATCHTOWER)
    pool, detail, after = TroublePool(dice=(6, 10)).useful_detail("Fog", "d10", points)
    assert (pool.dice, detail.die, after.held) == ((6,), 10, {WATCHTOWER: 1})
    same, standard, after = pool.useful_detail("Rain", None, points)
    assert (same.dice, standard.die, after.held) == ((6,), 6, {WATCHTOWER: 0})
    with pytest.raises(RulesError, match="no d12"):
        pool.useful_detail("Storm", 12, points)


def test_end_of_conflict_steps_down_challenged_traits() -> None:
    """Challenged Values and Relationships step down after the conflict; d4 by the switch."""
    plan = build_pool([
        Trait(kind="value", name="Duty", die=4, challenging=True),
        Trait(kind="relationship", name="Ann", die=8, challenging=True),
    ])  # fmt: skip
    after = end_conflict({"Duty": 4, "Ann": 8, "Love": 10}, plan)
    assert after.ratings == {"Duty": 4, "Ann": 6, "Love": 10}
    removed = end_conflict({"Duty": 4, "Ann": 8}, plan, LabcatsRules(below_d4="remove"))
    assert (removed.ratings, removed.removed) == ({"Ann": 6}, ("Duty",))
    with pytest.raises(RulesError, match="not among the ratings"):
        end_conflict({"Duty": 4}, plan)


def test_shutdown_after_a_win_with_the_limit() -> None:
    """Shutdown: only after a win that used the Limit; 1 PP, free if Stressed out."""
    base = [Trait(kind="value", name="Duty", die=8), Trait(kind="relationship", name="Ann", die=6)]
    with_limit = build_pool([*base, Trait(kind="limit", name="Fragile", die=6)])
    points = PlotPoints().award("Ann")
    done, after = shutdown(
        with_limit, won=True, ability="Flight", stressed_out=False, points=points, player="Ann"
    )
    assert (done.plot_points, after.held) == (1, {"Ann": 0})
    free, same = shutdown(
        with_limit, won=True, ability="Flight", stressed_out=True, points=after, player="Ann"
    )
    assert (free.plot_points, same) == (0, after)
    with pytest.raises(RulesError, match="only the winner"):
        shutdown(with_limit, won=False, ability="X", stressed_out=True, points=points, player="A")
    with pytest.raises(RulesError, match="did not use the opponent's Limit"):
        shutdown(build_pool(base), won=True, ability="X", stressed_out=True, points=points,
                 player="A")  # fmt: skip


def test_paying_for_a_pool() -> None:
    """A player pays what the pool costs, or is refused with nothing changed."""
    plan = build_pool([
        Trait(kind="value", name="Duty", die=8),
        Trait(kind="relationship", name="Ann", die=6),
        Trait(kind="relationship", name="Bo", die=6),
    ])  # fmt: skip
    points = PlotPoints().award("Cy", 2)
    assert pay_for_pool(plan, points, "Cy").held == {"Cy": 1}
    with pytest.raises(RulesError, match="Cy has 0"):
        pay_for_pool(plan, PlotPoints(held={"Cy": 0}), "Cy")


def test_cli_roll_contract(run_cli: Any) -> None:
    """`labcats roll --json`: complications, kept, resource, total, failed."""
    out = run_cli("labcats", "roll", "--pool", "d8,d6,d6,d10", "--resources", "d6,d8",
                  "--faces", "1,5,3,7", "--resource-faces", "4,2", "--json")  # fmt: skip
    data = out.json()
    assert (data["complications"], data["kept"], data["resource"]) == ([8], [7, 5], 4)
    assert (data["total"], data["failed"]) == (16, False)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["roll", "build", "trouble"]),
    st.lists(st.one_of(st.sampled_from(["--pool", "d8,d6", "--resources", "d6", "--add", "1",
        "--faces", "1,2", "--value", "V=d8", "--relationship", "R=d6", "--trait", "limit:L=d6",
        "--remove", "d6", "--complications", "d8", "--add", "d8", "--json", "d7", "-3"]),
        st.text(max_size=8)), max_size=8),
)  # fmt: skip
def test_no_input_crashes_the_cli(command: str, arguments: list[str]) -> None:
    """Any arguments end with status 0 or 2: never a traceback."""
    if "--faces" not in arguments:
        arguments = [*arguments, "--seed", "1"] if command == "roll" else arguments
    assert main(["labcats", command, *arguments]) in (0, 2)


def test_total_of_is_the_scoring_rule() -> None:
    """total_of scores faces: 1s set aside, two highest, highest resource, add capped."""
    from taletable.systems.labcats.dice import total_of

    scored = total_of((1, 5, 3, 7), (8, 6, 6, 10), (4, 2))
    assert (scored.complications, scored.kept, scored.resource, scored.total) == (
        (8,),
        (7, 5),
        4,
        16,
    )
    failed = total_of((1, 1), (8, 6), (6,))
    assert (failed.failed, failed.total, failed.complications) == (True, 0, (8, 6))
    assert total_of((6, 5, 4, 1), (8, 8, 8, 8), add=3).added == 1
    with pytest.raises(InputError, match="d6 cannot show 7"):
        total_of((7,), (6,))
    with pytest.raises(InputError, match="^add"):
        total_of((3,), (6,), add=-1)


def test_cli_build_and_trouble(run_cli: Any) -> None:
    """`labcats build` prices a pool; `labcats trouble` adds a roll's Complication for 1 PP."""
    built = run_cli("labcats", "build", "--value", "Duty=d8", "--relationship", "Ann=d6",
                    "--challenge", "Ann", "--trait", "resource:Lab=d8", "--used-up", "Lab",
                    "--json")  # fmt: skip
    assert built.status == 0, built.stderr
    plan = built.json()
    assert (plan["pool"], plan["resources"], plan["plot_points"]) == ([8, 6, 6, 6], [8], 1)
    assert plan["step_down_after"] == ["Ann"]
    added = run_cli("labcats", "trouble", "--pool", "d6", "--complications", "d8,d6", "--add",
                    "d8", "--watchtower-points", "1", "--player", "Ann", "--json")  # fmt: skip
    assert added.status == 0, added.stderr
    assert added.json()["trouble_pool"] == [6, 8]
    assert added.json()["plot_points"] == {"Watchtower": 0, "Ann": 1}
    refused = run_cli("labcats", "trouble", "--complications", "d6", "--add", "d8",
                      "--watchtower-points", "1")  # fmt: skip
    assert refused.status == 2 and "no unused d8 Complication" in refused.stderr


@settings(max_examples=100, deadline=None)
@given(
    st.text(min_size=1, max_size=12).filter(
        lambda name: "=" not in name and name.strip() not in ("", "A")
    )
)
def test_any_trait_name_prints(name: str) -> None:
    """Names that look like rich markup ([/x]) print as text: status 0, never a traceback; only
    the Watchtower's own name is refused as a player."""
    assert main(["labcats", "build", "--value", f"{name}=d8", "--relationship", "A=d6",
                 "--challenge", name]) == 0  # fmt: skip
    refused = 2 if name == WATCHTOWER else 0
    assert main(["labcats", "trouble", "--complications", "d8", "--add", "d8",
                 "--watchtower-points", "1", "--player", name]) == refused  # fmt: skip


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["build", "--value", "Duty=d8", "--relationship", "Ann=d6", "--challenge", "Bob"],
         "--challenge: no trait named 'Bob'; expected Duty, Ann"),
        (["build", "--value", "Duty=d8", "--relationship", "Ann=d6", "--paid", "Cousin"],
         "--paid: no trait named 'Cousin'"),
        (["build", "--value", "Duty=d8", "--relationship", "Ann=d6", "--used-up", "Lab"],
         "--used-up: no trait named 'Lab'"),
        (["build", "--value", "Duty=d8", "--relationship", "Ann=d6", "--bought", "Rope"],
         "--bought: no trait named 'Rope'"),
        (["build", "--value", "Ann=d8", "--relationship", "Ann=d6"], "two traits named 'Ann'"),
        (["trouble", "--complications", "d8", "--add", "d8", "--watchtower-points", "1",
          "--player", " "], "--player: the name is empty"),
        (["trouble", "--complications", "d8", "--add", "d8", "--player-points", "-2"],
         "--player-points: -2 Plot Points; expected 0 or more"),
    ],
)  # fmt: skip
def test_cli_names_the_option_at_fault(run_cli: Any, arguments: list[str], message: str) -> None:
    """A name that picks no trait, two traits of one name, an empty player or negative points:
    one line naming the option, exit 2 (before, the unknown names were silently ignored)."""
    out = run_cli("labcats", *arguments)
    assert (out.status, out.stdout) == (2, "")
    assert message in out.stderr
    assert out.stderr.count("\n") == 1


def test_public_names() -> None:
    """The package's __all__ is unique, importable and every class and function is documented."""
    import inspect

    import taletable.systems.labcats as package

    assert len(set(package.__all__)) == len(package.__all__)
    for name in package.__all__:
        value = getattr(package, name)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert value.__doc__ and value.__doc__.strip(), name
