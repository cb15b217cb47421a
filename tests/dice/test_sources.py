"""The three dice sources (DESIGN > Principles 2)."""

from __future__ import annotations

import hashlib

import pytest

from taletable.dice import GivenFaces, SeededDice, SystemDice, parse_faces
from taletable.dice.sources import MAX_DICE_PER_ROLL, seed_state
from taletable.errors import InputError


def test_given_faces_are_consumed_in_order() -> None:
    """Faces come out in the order given, across rolls."""
    source = parse_faces("1,3 3,4")
    assert source.roll(6, 2) == (1, 3)
    assert source.roll(6, 2) == (3, 4)
    source.ensure_all_used()


def test_too_few_faces_says_how_many_more() -> None:
    """Asking for more dice than given names the shortfall."""
    source = GivenFaces([1, 2])
    with pytest.raises(InputError, match="needs 3 more"):
        source.roll(6, 5)


def test_face_outside_die_is_refused() -> None:
    """A 7 on a d6 is an error naming its position."""
    with pytest.raises(InputError, match="face 2 is 7, which a d6 cannot show"):
        GivenFaces([1, 7]).roll(6, 2)


def test_leftover_faces_are_refused() -> None:
    """Faces that were not used are an error."""
    source = GivenFaces([1, 2, 3])
    source.roll(6, 2)
    with pytest.raises(InputError, match="remove the last 1"):
        source.ensure_all_used()


def test_seeded_dice_are_reproducible() -> None:
    """The same seed gives the same faces."""
    assert SeededDice(42).roll(6, 50) == SeededDice(42).roll(6, 50)
    assert SeededDice(42).roll(6, 50) != SeededDice(43).roll(6, 50)


@pytest.mark.parametrize("seed", [1, 7, 42, 2**31, 2**64 + 5, 10**99])
def test_a_seed_and_its_negative_roll_differently(seed: int) -> None:
    """Issue 13: random.Random seeds with abs(n), so S and -S once rolled the same faces."""
    assert SeededDice(seed).roll(1000, 20) != SeededDice(-seed).roll(1000, 20)


def test_seed_state_is_sha256_of_the_signed_text() -> None:
    """The generator state is the SHA-256 of the seed's decimal text: documented, portable."""
    digest = hashlib.sha256(b"-5").digest()
    assert seed_state(-5) == int.from_bytes(digest, "big")
    assert len({seed_state(seed) for seed in range(-500, 501)}) == 1001


def test_a_seed_of_more_than_100_digits_is_refused() -> None:
    """A seed is a whole number of at most 100 digits: past it, a clear --seed error."""
    with pytest.raises(InputError, match=r"seed: the seed is too long; expected at most 100"):
        SeededDice(-(10**100))


def test_limits() -> None:
    """Past the documented dice limit: a clear error."""
    with pytest.raises(InputError, match="over the limit"):
        SystemDice().roll(6, MAX_DICE_PER_ROLL + 1)
    with pytest.raises(InputError, match="not a whole number"):
        parse_faces("1,x")
