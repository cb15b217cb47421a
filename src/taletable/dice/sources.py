"""Dice sources: where every random event in taletable comes from (DESIGN > Principles 2).

One protocol, three kinds:

* :class:`SystemDice` — operating-system randomness (``random.SystemRandom``), for live play;
* :class:`SeededDice` — a seeded generator, for reproducible runs (``--seed``);
* :class:`GivenFaces` — faces a person rolled on physical dice (``--faces 1,3,3,4``), and tests.

A source hands out faces one die at a time, in order. Given faces are consumed in the order
the engine asks for them, rerolls included.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from taletable.errors import InputError

__all__ = [
    "MAX_DICE_PER_ROLL",
    "MAX_SEED_DIGITS",
    "MAX_SIDES",
    "DiceSource",
    "GivenFaces",
    "SeededDice",
    "SystemDice",
    "check_dice_request",
    "parse_faces",
    "seed_state",
]

#: The most dice any one roll may ask for (DESIGN > Principles 8). Past it: InputError.
MAX_DICE_PER_ROLL = 1000
#: The most sides a die may have.
MAX_SIDES = 1000
#: The most decimal digits a seed may have (a seed is a whole number, negative or not).
MAX_SEED_DIGITS = 100


def check_dice_request(sides: int, count: int, *, field: str = "dice") -> None:
    """Refuse a request for dice that cannot be rolled or exceeds the documented limits."""
    if sides < 1:
        raise InputError(field, f"a die needs at least 1 side, got {sides}", expected="sides >= 1")
    if sides > MAX_SIDES:
        raise InputError(field, f"a d{sides} has too many sides", expected=f"at most {MAX_SIDES}")
    if count < 0:
        raise InputError(field, f"cannot roll {count} dice", expected="0 or more dice")
    if count > MAX_DICE_PER_ROLL:
        raise InputError(
            field,
            f"{count} dice in one roll is over the limit",
            expected=f"at most {MAX_DICE_PER_ROLL} dice per roll",
        )


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll dice for the engine."""

    @property
    def kind(self) -> str:
        """``system``, ``seeded`` or ``given``: shown in results so a roll can be audited."""
        ...

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        """Roll ``count`` dice of ``sides`` sides; each face is in 1..sides."""
        ...


class _RandomDice:
    """Shared body of the two generator-backed sources."""

    def __init__(self, generator: random.Random) -> None:
        self._generator = generator

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        check_dice_request(sides, count)
        draw = self._generator.randrange
        return tuple(draw(sides) + 1 for _ in range(count))


class SystemDice(_RandomDice):
    """Operating-system randomness, for live play (the default)."""

    def __init__(self) -> None:
        super().__init__(random.SystemRandom())

    @property
    def kind(self) -> str:
        return "system"


def seed_state(seed: int, *, field: str = "seed") -> int:
    """The generator state of ``seed``: SHA-256 of its signed decimal text, as a whole number.

    ``random.Random`` seeds with the absolute value of an int, so ``S`` and ``-S`` would roll
    alike; hashing the text keeps every distinct seed a distinct stream of faces.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InputError(field, f"{seed!r} is not a whole number", expected="a whole number")
    if abs(seed) >= 10**MAX_SEED_DIGITS:
        raise InputError(
            field, "the seed is too long", expected=f"at most {MAX_SEED_DIGITS} digits"
        )
    return int.from_bytes(hashlib.sha256(str(seed).encode("ascii")).digest(), "big")


class SeededDice(_RandomDice):
    """A seeded generator: the same seed gives the same faces, for reproducible runs.

    Two different seeds give two different streams (:func:`seed_state`).
    """

    def __init__(self, seed: int) -> None:
        super().__init__(random.Random(seed_state(seed)))
        self.seed = seed

    @property
    def kind(self) -> str:
        return "seeded"


class GivenFaces:
    """Faces rolled at the table on physical dice, consumed in order (rerolls included).

    Asking for more dice than are left, or a face that the die cannot show, is an
    :class:`~taletable.errors.InputError` naming ``field`` and saying how to fix it.
    """

    def __init__(self, faces: Iterable[int], *, field: str = "faces") -> None:
        self._faces = tuple(faces)
        self._next = 0
        self.field = field

    @property
    def kind(self) -> str:
        return "given"

    @property
    def remaining(self) -> int:
        """How many given faces are not used yet."""
        return len(self._faces) - self._next

    @property
    def used(self) -> int:
        """How many given faces have been used."""
        return self._next

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        check_dice_request(sides, count, field=self.field)
        if count > self.remaining:
            short = count - self.remaining
            raise InputError(
                self.field,
                f"{len(self._faces)} faces given but this roll needs {short} more "
                f"(a roll of {count}d{sides} with {self.remaining} left); "
                f"add {short} more face{'s' if short != 1 else ''}",
            )
        taken = self._faces[self._next : self._next + count]
        for position, face in enumerate(taken, start=self._next + 1):
            if not 1 <= face <= sides:
                raise InputError(
                    self.field,
                    f"face {position} is {face}, which a d{sides} cannot show",
                    expected=f"a face from 1 to {sides}",
                )
        self._next += count
        return taken

    def ensure_all_used(self) -> None:
        """Refuse faces left over: a person gave more dice than the roll used."""
        if self.remaining:
            raise InputError(
                self.field,
                f"{len(self._faces)} faces given but only {self._next} were used; "
                f"remove the last {self.remaining}",
            )


def parse_faces(text: str | Sequence[int], *, field: str = "faces") -> GivenFaces:
    """Read a comma- or space-separated list of faces (``"1,3,3,4"``) into a source."""
    if not isinstance(text, str):
        return GivenFaces(text, field=field)
    parts = [part for part in text.replace(",", " ").split() if part]
    if not parts:
        raise InputError(field, "no faces given", expected="a list like 1,3,3,4")
    faces: list[int] = []
    for part in parts:
        try:
            faces.append(int(part))
        except ValueError:
            raise InputError(
                field, f"{part!r} is not a whole number", expected="a list like 1,3,3,4"
            ) from None
    if len(faces) > MAX_DICE_PER_ROLL * 10:
        raise InputError(field, f"{len(faces)} faces is too many", expected="at most 10000")
    return GivenFaces(faces, field=field)
