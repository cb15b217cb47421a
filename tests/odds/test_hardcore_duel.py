"""Exact duel odds by the hardcore combat rules (002 > Hardcore Combat [Optional]): armour by
pieces, never spent, less what the foe's weapon takes off it; checked against the real engine."""

from __future__ import annotations

from typing import Any

from taletable.dice import SeededDice
from taletable.store.sheets import load_statblock
from taletable.systems.cogent.character.sheet import Weapon
from taletable.systems.cogent.combat.simulate import simulate_duel
from taletable.systems.cogent.odds.duel import duel_odds, duelists, victory_after_policy
from taletable.systems.cogent.rules import Rules
from tests.combat_helpers import fighter

KNIGHT_FILE = "examples/statblocks/sample_plated_knight.yaml"
KNIGHT = load_statblock(KNIGHT_FILE).as_character()
HARDCORE = Rules(hardcore_armour=True, hardcore_weapons=True)
HAMMER = Weapon(name="Warhammer", group="Large Weapon", hardcore_group="Medium Blunt", hands=2)
GUARD = fighter(
    "Guard", strength=1, rfl=1, skills=(("Large Weapons", 5),), weapons=(HAMMER,),
    armour=("Helmet", "Upper Body", "Upper Body", "Arm Protection"),
)  # fmt: skip


def test_hardcore_armour_is_never_spent_and_takes_its_whole_score() -> None:
    """002 > Hardcore Armour Rules: "A level eight victory ... would be needed to inflict even a
    minor injury to an opponent with an armour score of 7"; the reduction "is permanent"."""
    assert victory_after_policy(8, 0, 7, hardcore_armour=True) == (1, 0, 0)
    assert victory_after_policy(7, 0, 7, hardcore_armour=True) == (0, 0, 0)
    assert victory_after_policy(3, 0, 2) == (1, 0, 2)  # standard armour is spent


def test_each_sides_armour_stands_against_the_others_weapon() -> None:
    """002 > Hardcore Weapon Modifiers: Medium Blunt "Reduce target's Armour Level by 4", a
    reach-hafted blade by 2. The knight's 5 stands at 1 against the warhammer; the guard's 4
    (helmet, two upper-body pieces, arms) at 2 against the poleaxe. The guard's pool: 3 + STR 1 +
    RFL 1 + Large Weapons 5 - armour 2 (half of 4) + Medium Blunt 1 + two-handed 1 = 10."""
    knight, guard = duelists((KNIGHT, "Poleaxe"), (GUARD, "Warhammer"), HARDCORE)
    assert (knight.pool, knight.armour, knight.armour_permanent) == (10, 1, True)
    assert (guard.pool, guard.armour, guard.armour_permanent) == (10, 2, True)


def test_the_hardcore_duel_matches_the_engine() -> None:
    """600 seeded engine duels by the hardcore rules agree with the exact odds within 3.29
    standard errors (armour spent as in the standard rules would give 0.42, not 0.22)."""
    a, b = duelists((KNIGHT, "Poleaxe"), (GUARD, "Warhammer"), HARDCORE)
    odds = duel_odds(a, b, horizon=30)
    assert odds.p_a + odds.p_b + odds.p_undecided == 1
    runs = 600
    wins = sum(
        simulate_duel(
            (KNIGHT, "Poleaxe"), (GUARD, "Warhammer"), SeededDice(seed), max_rounds=30,
            rules=HARDCORE,
        ).winner
        == "a"
        for seed in range(runs)
    )  # fmt: skip
    exact = float(odds.p_a)
    assert 0.2 < exact < 0.25
    assert abs(wins / runs - exact) <= 3.29 * (exact * (1 - exact) / runs) ** 0.5 + 1 / runs


def test_duel_cli_needs_the_hardcore_switch_for_armour_pieces(run_cli: Any) -> None:
    """Without --hardcore-armour a Helmet is refused in one line naming the flag; with it the
    duel is computed and the knight's label shows his hardcore pool."""
    refused = run_cli("odds", "cogent", "duel", "--a", KNIGHT_FILE, "--b", "@goblin")
    assert refused.status == 2 and refused.stderr.count("\n") == 1
    assert "'Helmet'" in refused.stderr and "add --hardcore-armour" in refused.stderr
    done = run_cli("odds", "cogent", "duel", "--a", KNIGHT_FILE, "--b", "@goblin",
                   "--hardcore-armour", "--hardcore-weapons", "--json")  # fmt: skip
    assert done.status == 0, done.stderr
    assert done.json()["a"] == "Ser Aldric (Poleaxe, 10D6)"
