"""Worked examples of Cogent checks, with the books' own numbers.

002 = Core Rule Book v1.3.1 (edition core); 000 = Playing the Game (edition tiered).
"""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.systems.cogent.assists import convert_assist, roll_assist, roll_collaboration
from taletable.systems.cogent.checks import roll_check
from taletable.systems.cogent.destiny import DestinyPurse
from taletable.systems.cogent.destiny_roll import chance_to_challenge_level, roll_destiny
from taletable.systems.cogent.pools import base_pool, pool_of
from taletable.systems.cogent.rules import CORE, TIERED, Rules
from taletable.systems.cogent.scale import adjust_for_scale, normalise_scales


def test_rob_athletics_check() -> None:
    """002 > Dice Pools: 2 Athletics and 1 Strength, no modifiers: Rob rolls 6D6."""
    pool = base_pool([("STR", 1), ("Athletics", 2)])
    assert pool.size == 6
    assert [(part.source, part.dice) for part in pool.contributions] == [
        ("base", 3),
        ("STR", 1),
        ("Athletics", 2),
    ]


def test_climb_a_wall_needs_three_wins() -> None:
    """002 > Actions and Challenge Levels: five dice at CL 3 need at least three wins."""
    three = roll_check(pool_of(5), 3, GivenFaces([4, 5, 6, 1, 2]))
    two = roll_check(pool_of(5), 3, GivenFaces([4, 5, 3, 1, 2]))
    assert (three.wins, three.passed, three.margin) == (3, True, 0)
    assert three.outcome == "narrative success of 0"
    assert (two.wins, two.passed, two.margin) == (2, False, -1)
    assert two.outcome == "narrative failure of -1"


def test_lock_picking() -> None:
    """002 > Assigning CL and Skills: 3 + 2 Sleight of Hand + 1 RFL = 6D6 vs CL 3; 4 wins pass."""
    pool = base_pool([("Sleight of Hand", 2), ("RFL", 1)])
    result = roll_check(pool, 3, GivenFaces([4, 5, 6, 4, 1, 2]))
    assert (result.pool, result.wins, result.passed, result.margin) == (6, 4, True, 1)


def test_lock_picking_six_successes_scaling() -> None:
    """002 > Success and Failure: a pool of 6 scoring 6 successes at CL 3 beats it by 3."""
    result = roll_check(pool_of(6), 3, GivenFaces([4, 5, 6, 4, 5, 6]))
    assert (result.wins, result.margin) == (6, 3)


def test_crime_scene_scaling_check() -> None:
    """002 > Success and Failure: with no CL set, a scaling check is CL 1."""
    result = roll_check(pool_of(5), None, GivenFaces([4, 1, 1, 5, 6]))
    assert result.scaling and result.challenge_level == 1
    assert (result.wins, result.margin, result.passed) == (3, 2, True)


@pytest.mark.parametrize(
    ("pool", "cl", "faces", "passed", "injury"),
    [
        (6, 4, [4, 5, 6, 1, 2, 3], False, 1),  # acrobatics while falling: missed by 1, level 1
        (7, 3, [4, 5, 6, 6, 1, 2, 3], True, None),  # survival for food: finds food
        (7, 6, [4, 5, 6, 1, 2, 3, 1], False, 3),  # endurance against poison: level 3 injury
    ],
)
def test_reflex_action_table(
    pool: int, cl: int, faces: list[int], passed: bool, injury: int | None
) -> None:
    """002 > Reflex Actions: the failed margin is the injury level (the book's three rows)."""
    result = roll_check(pool_of(pool), cl, GivenFaces(faces), reflex=True)
    assert result.passed is passed
    assert result.injury_level == injury


def test_acrobatics_assist() -> None:
    """002 > Assists: Martial Artist 7D6 at assist CL 3 rolls five wins, +2; then 5D6 at CL 4
    rolls four wins, +2 makes six: a pass."""
    assist = roll_assist(pool_of(7), 3, GivenFaces([4, 4, 5, 5, 6, 1, 1]))
    assert (assist.wins, assist.bonus) == (5, 2)
    check = roll_check(pool_of(5), 4, GivenFaces([4, 4, 5, 6, 1]), assist_bonus=assist.bonus)
    assert (check.dice_wins, check.wins, check.passed, check.margin) == (4, 6, True, 2)
    # The destiny-after cap (RULINGS.md) limits destiny only: the assist still makes six on 5D6,
    # and a destiny point spent on top adds nothing past the dice rolled.
    capped = Rules(destiny_after_cap=True)
    again = roll_check(
        pool_of(5), 4, GivenFaces([4, 4, 5, 6, 1]), assist_bonus=assist.bonus, rules=capped
    )
    assert (again.wins, again.margin) == (6, 2)
    spent = roll_check(
        pool_of(5), 4, GivenFaces([4, 4, 5, 6, 1]), assist_bonus=assist.bonus, rules=capped,
        destiny_after=1,
    )  # fmt: skip
    assert (spent.wins, spent.margin) == (6, 2)


def test_assist_worked_numbers() -> None:
    """002 > Assists: 3 wins at CL 3 does nothing, 4 wins +1, 1 win -2; never beyond the CL."""
    three = roll_assist(pool_of(6), 3, GivenFaces([4, 4, 4, 1, 1, 1]))
    four = roll_assist(pool_of(6), 3, GivenFaces([4, 4, 4, 4, 1, 1]))
    one = roll_assist(pool_of(6), 3, GivenFaces([4, 1, 1, 1, 1, 1]))
    six_at_four = roll_assist(pool_of(6), 4, GivenFaces([4, 4, 4, 4, 4, 4]))
    assert (three.bonus, four.bonus, one.bonus) == (0, 1, -2)
    assert (six_at_four.bonus, six_at_four.capped) == (2, False)
    zero_at_four = roll_assist(pool_of(6), 4, GivenFaces([1] * 6))
    assert (zero_at_four.bonus, zero_at_four.capped) == (-4, False)
    eight_at_three = roll_assist(pool_of(8), 3, GivenFaces([6] * 8))
    assert (eight_at_three.bonus, eight_at_three.capped) == (3, True)


def test_lucy_group_assist() -> None:
    """002 > Group Assists: Lucy's 6D6 plus Bill and Ted is 8D6; 6 wins at CL 3 adds 3."""
    result = roll_assist(pool_of(6), 3, GivenFaces([4, 4, 5, 5, 6, 6, 1, 2]), helpers=2)
    assert result.pool == 8
    assert (result.wins, result.bonus) == (6, 3)


def test_erin_the_mage_fireball() -> None:
    """000 > Narrative Success or Failure: 6D6 with Advantage at CL 3; faces 1, 3, 3, 4, 4, 5
    give 5 wins, a narrative success of +2."""
    # The book lists 3 base + 1 INT + 1 Mage + 1 Sorcery and calls it 5D6, then adds the Wand of
    # Power "for a total of 6D6"; six faces are rolled. The parts add up to 6 (RULINGS.md
    # "Erin's pool"), so the roll is the book's 6D6: the listed parts without the wand.
    pool = base_pool([("INT", 1), ("Mage vocation", 1), ("Sorcery", 1)])
    assert pool.size == 6
    result = roll_check(pool, 3, GivenFaces([1, 3, 3, 4, 4, 5]), rules=TIERED, advantage=True)
    assert (result.pool, result.win_on, result.wins, result.margin) == (6, 3, 5, 2)
    assert result.outcome == "narrative success of +2"
    with_wand = roll_check(
        pool_of(5).plus("Wand of Power", 1), 3, GivenFaces([1, 3, 3, 4, 4, 5]), rules=TIERED,
        advantage=True,
    )  # fmt: skip
    assert (with_wand.pool, with_wand.wins, with_wand.margin) == (6, 5, 2)


def test_rick_the_ranger_camp() -> None:
    """000 > Assists and Collaborations: Paula's -1 becomes -1 destiny; Steve's +4 lowers the
    CL by 2; Rick rolls Wildcraft against CL 1 (3 - 2) for +3."""
    paula = roll_check(pool_of(5), 3, GivenFaces([4, 4, 1, 1, 1]), rules=TIERED)
    assert paula.margin == -1
    destiny = convert_assist(paula.margin, "destiny")
    assert destiny.temporary_destiny == -1
    steve = roll_check(pool_of(6), 2, GivenFaces([4, 4, 4, 5, 6, 6]), rules=TIERED)
    assert steve.margin == 4
    cl_change = convert_assist(steve.margin, "cl")
    assert cl_change.challenge_level_change == -2
    rick_cl = 3 + cl_change.challenge_level_change
    assert rick_cl == 1
    rick = roll_check(
        pool_of(6),
        rick_cl,
        GivenFaces([4, 5, 6, 6, 1, 2]),
        rules=TIERED,
        purse=DestinyPurse(points=1, temporary=destiny.temporary_destiny),
    )
    assert rick.margin == 3


def test_rick_cannot_spend_the_destiny_paula_cost_him() -> None:
    """000 > Assists: with 1 point and -1 temporary destiny, Rick has none to spend."""
    with pytest.raises(RulesError, match="only 0 are available"):
        roll_check(
            pool_of(6),
            1,
            GivenFaces([4] * 7),
            rules=TIERED,
            destiny_before=["die"],
            purse=DestinyPurse(points=1, temporary=-1),
        )


def test_portcullis_collaboration() -> None:
    """000 > Collaborations: CL 3 x 4 characters = CL 12; 3, 2, 2, 3 wins = 10: -2."""
    faces = [*(4, 4, 4, 1), *(4, 4, 1, 1), *(4, 4, 1, 1), *(4, 4, 4, 1)]
    result = roll_collaboration([4, 4, 4, 4], 3, GivenFaces(faces))
    assert result.challenge_level == 12
    assert [roll.wins for roll in result.rolls] == [3, 2, 2, 3]
    assert (result.wins, result.margin, result.passed) == (10, -2, False)
    assert result.capable  # 16 dice > CL 12: a narrative failure, not a literal one


def test_ogre_and_pixie_normalised_scales() -> None:
    """000 > Scale: Ogre +1 and Pixie -1 become +2 and 0."""
    assert normalise_scales(1, -1) == (2, 0)


def test_ogre_and_pixie_book_numbers_by_difference() -> None:
    """000 > Scale, the book's arithmetic (scale_method="difference", the default): "The Ogre
    rolls Narrative Success of 0 and adds the +2 Scale modifier to get a total of Narrative
    Success of 2"; "The Pixie rolls a Narrative Success of 1 and subtracts the +2 Scale modifier
    to get a total Narrative Success of 0"."""
    rules = Rules(edition="tiered", scale_method="difference")
    assert Rules(edition="tiered").scale_method == "difference"
    ogre = adjust_for_scale(0, 1, -1, rules)
    pixie = adjust_for_scale(1, -1, 1, rules)
    assert (ogre.margin, pixie.margin, pixie.clamped) == (2, 0, True)


def test_ogre_and_pixie_by_the_table() -> None:
    """000 > Scale by its table (the switch `scale_method="table"`; RULINGS.md): a target two
    scales smaller is +3, two scales larger -3, so the Ogre's 0 is 3 (book: 2) and the Pixie's 1
    is clamped to 0."""
    table = Rules(edition="tiered", scale_method="table")
    ogre = adjust_for_scale(0, 1, -1, table)
    pixie = adjust_for_scale(1, -1, 1, table)
    assert (ogre.adjustment, ogre.margin) == (3, 3)
    assert (pixie.adjustment, pixie.margin, pixie.clamped) == (-3, 0, True)


def test_ogre_and_pixie_without_clamp() -> None:
    """001's unclamped scale: the Pixie's success of 1 becomes a failure of -1 by the examples'
    arithmetic (the default), of -2 by the table."""
    rules = Rules(edition="tiered", scale_clamp=False)
    assert adjust_for_scale(1, -1, 1, rules).margin == -1
    table = rules.model_copy(update={"scale_method": "table"})
    assert adjust_for_scale(1, -1, 1, table).margin == -2


def test_king_john_convoy() -> None:
    """000 > Destiny Rolls: a 25% chance is CL 16; a roll of 13 is a close failure (-3)."""
    assert chance_to_challenge_level(25) == (25, 16)
    result = roll_destiny(GivenFaces([13]), TIERED, chance=25)
    assert (result.challenge_level, result.roll, result.margin, result.passed) == (
        16,
        13,
        -3,
        False,
    )
    assert result.critical is None


def test_core_destiny_roll_criticals() -> None:
    """002 > The Destiny Roll: 20 is a critical success, 1 a critical failure."""
    assert roll_destiny(GivenFaces([20]), CORE).critical == "success"
    assert roll_destiny(GivenFaces([1]), CORE).critical == "failure"
    middle = roll_destiny(GivenFaces([10]), CORE)
    assert (middle.critical, middle.band) == (None, "neutral")
