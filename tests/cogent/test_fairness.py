"""The dice sources are fair: chi-squared over many d6 rolls."""

from __future__ import annotations

from collections import Counter

from taletable.dice import SeededDice, SystemDice
from taletable.systems.cogent.dice import count_wins

ROLLS = 60_000


def chi_squared(faces: tuple[int, ...], sides: int = 6) -> float:
    """Pearson's statistic of ``faces`` against a fair die."""
    expected = len(faces) / sides
    counts = Counter(faces)
    return sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, sides + 1))


def test_system_dice_are_fair() -> None:
    """System randomness passes chi-squared (df 5) at p = 1.4e-9 (critical value 50)."""
    source = SystemDice()
    faces = tuple(face for _ in range(ROLLS // 1000) for face in source.roll(6, 1000))
    assert chi_squared(faces) < 50.0


def test_seeded_dice_are_fair_at_one_in_a_thousand() -> None:
    """A fixed seed's 60,000 faces pass chi-squared (df 5) at p = 0.001 (critical 20.515)."""
    source = SeededDice(20261123)
    faces = tuple(face for _ in range(60) for face in source.roll(6, 1000))
    assert chi_squared(faces) < 20.515


def test_half_of_the_faces_win() -> None:
    """Wins on 4-6 come up about half the time (seeded, within 1%)."""
    source = SeededDice(8)
    faces = tuple(face for _ in range(50) for face in source.roll(6, 1000))
    assert abs(count_wins(faces) / len(faces) - 0.5) < 0.01


def test_destiny_die_is_fair() -> None:
    """The destiny roll's d20: 60,000 seeded faces pass chi-squared (df 19) at p = 0.001
    (critical 43.82); system randomness at p = 1.9e-9 (critical 80)."""
    seeded, system = SeededDice(2026), SystemDice()
    seeded_faces = tuple(face for _ in range(60) for face in seeded.roll(20, 1000))
    system_faces = tuple(face for _ in range(60) for face in system.roll(20, 1000))
    assert chi_squared(seeded_faces, sides=20) < 43.82
    assert chi_squared(system_faces, sides=20) < 80.0
