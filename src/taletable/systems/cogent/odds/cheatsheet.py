"""The narrator's Cheatsheet and the CL advisor (000 > Dice Pools > Narrator Declares the CL).

000's examples set CLs "using the Cheatsheet": the chance that a typical pool passes each CL.
The book does not print it; this module computes it exactly for pools 1-40, CL 0-20 and each
win threshold (3-6 with Advantage, 4-6, 5-6 with Disadvantage), and advises the CL whose chance
is nearest a wished one (Erin's fireball: a 4D6 pool and 31% give CL 3).
"""

from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction
from itertools import accumulate
from typing import TYPE_CHECKING

from taletable._model import Record
from taletable.errors import InputError
from taletable.prob.distribution import exact_fraction, fraction_text
from taletable.systems.cogent.dice import DIE_SIDES
from taletable.systems.cogent.odds.checks import wins_distribution

if TYPE_CHECKING:  # imported by the float sheet alone (a CL's advice needs none: CLI start-up)
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MAX_CHEATSHEET_CL",
    "MAX_CHEATSHEET_POOL",
    "Advice",
    "advise_challenge_level",
    "cheatsheet",
    "cheatsheet_floats",
    "cheatsheet_text",
]

MAX_CHEATSHEET_POOL = 200
MAX_CHEATSHEET_CL = 200
THRESHOLDS = (3, 4, 5)


def _check_size(max_pool: int, max_challenge_level: int) -> None:
    if not 1 <= max_pool <= MAX_CHEATSHEET_POOL:
        raise InputError("max_pool", f"{max_pool}", expected=f"1 to {MAX_CHEATSHEET_POOL}")
    if not 0 <= max_challenge_level <= MAX_CHEATSHEET_CL:
        raise InputError("max_cl", f"{max_challenge_level}", expected=f"0 to {MAX_CHEATSHEET_CL}")


def cheatsheet(
    max_pool: int = 40, max_challenge_level: int = 20, thresholds: tuple[int, ...] = THRESHOLDS
) -> dict[int, list[list[Fraction]]]:
    """``{win_on: rows}``: row ``pool - 1``, column ``CL`` is P(pass) for pools 1..max_pool."""
    _check_size(max_pool, max_challenge_level)
    sheet: dict[int, list[list[Fraction]]] = {}
    for win_on in thresholds:
        rows = []
        for pool in range(1, max_pool + 1):
            wins = wins_distribution(pool, win_on)
            # tail[i]: the weight of wins >= offset + i, summed once per pool
            tail = [*list(accumulate(reversed(wins.weights)))[::-1], 0]
            total, offset, last = tail[0], wins.offset, len(tail) - 1
            rows.append(
                [
                    exact_fraction(tail[min(last, max(0, level - offset))], total)
                    for level in range(max_challenge_level + 1)
                ]
            )
        sheet[win_on] = rows
    return sheet


def cheatsheet_floats(
    max_pool: int = 40, max_challenge_level: int = 20, thresholds: tuple[int, ...] = THRESHOLDS
) -> dict[int, npt.NDArray[np.float64]]:
    """The NumPy fast path: ``{win_on: array}``, ``array[pool - 1, CL]`` = P(pass) as a float.

    Pools grow one die at a time (wins' distribution times a die), so the whole sheet is
    O(pools^2) float work; it agrees with :func:`cheatsheet` to rounding (tests check 1e-12).
    """
    import numpy as np

    _check_size(max_pool, max_challenge_level)
    sheet: dict[int, npt.NDArray[np.float64]] = {}
    for win_on in thresholds:
        if not 1 <= win_on <= DIE_SIDES:
            raise InputError("win_on", f"{win_on}", expected=f"1 to {DIE_SIDES}")
        p_win = (DIE_SIDES + 1 - win_on) / DIE_SIDES
        wins = np.zeros(max_pool + 2)
        wins[0] = 1.0
        table = np.zeros((max_pool, max_challenge_level + 1))
        for pool in range(1, max_pool + 1):
            wins[1:] = wins[1:] * (1 - p_win) + wins[:-1] * p_win
            wins[0] *= 1 - p_win
            tail = np.cumsum(wins[::-1])[::-1]  # tail[k] = P(wins >= k)
            width = min(max_challenge_level + 1, tail.size)
            table[pool - 1, :width] = tail[:width]
        sheet[win_on] = np.clip(table, 0.0, 1.0)
    return sheet


class Advice(Record):
    """The CL whose chance of passing is nearest the wished chance, for a typical pool."""

    pool: int
    chance: Fraction
    challenge_level: int
    p_pass: Fraction


def advise_challenge_level(pool: int, chance: Fraction | float, *, win_on: int = 4) -> Advice:
    """The CL nearest ``chance`` of success for ``pool`` (ties go to the higher CL).

    000 > Narrator Declares the CL: "a Dice Pool of 4D6 and a difficulty of 31% pass rate ...
    generate a CL 3" (P = 5/16 = 31.25%).
    """
    if isinstance(chance, float) and not math.isfinite(chance):
        raise InputError("chance", f"{chance}", expected="0 to 100 percent")
    wished = Fraction(chance).limit_denominator(10_000)
    if not 0 <= wished <= 1:
        raise InputError("chance", f"{float(wished) * 100:g}%", expected="0 to 100 percent")
    if not 1 <= pool <= MAX_CHEATSHEET_POOL:
        raise InputError("pool", f"{pool}", expected=f"1 to {MAX_CHEATSHEET_POOL}")
    wins = wins_distribution(pool, win_on)
    best = min(range(pool + 2), key=lambda level: (abs(wins.at_least(level) - wished), -level))
    return Advice(pool=pool, chance=wished, challenge_level=best, p_pass=wins.at_least(best))


def cheatsheet_text(sheet: dict[int, list[list[Fraction]]], fmt: str) -> str:
    """The sheet as ``csv`` or ``md`` (probabilities to 6 places) or ``json`` (exact "a/b")."""
    if fmt == "json":
        data = {
            str(win_on): [
                {"pool": pool, "p_pass": [fraction_text(p) for p in row]}
                for pool, row in enumerate(rows, 1)
            ]
            for win_on, rows in sheet.items()
        }
        return json.dumps(data, indent=1) + "\n"
    columns = len(next(iter(sheet.values()))[0])
    header = ["win_on", "pool", *(f"cl{c}" for c in range(columns))]
    lines = [
        [str(win_on), str(pool), *(f"{float(p):.6f}" for p in row)]
        for win_on, rows in sheet.items()
        for pool, row in enumerate(rows, 1)
    ]
    if fmt == "md":
        table = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        table += ["| " + " | ".join(line) + " |" for line in lines]
        return "\n".join(table) + "\n"
    if fmt != "csv":
        raise InputError("format", f"{fmt}", expected="csv, md or json")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(lines)
    return buffer.getvalue()
