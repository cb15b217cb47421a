"""`taletable roll NOTATION`: everyday dice rolls in standard notation."""

from __future__ import annotations

import click

from taletable.cli.common import (
    console,
    dice_options,
    emit,
    finish_source,
    json_option,
    make_source,
)
from taletable.dice.notation import roll_notation

__all__ = ["roll"]


# ignore_unknown_options: a notation may start with "-" ("-1d4+2", "-5") and is not an option.
@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("notation")
@dice_options
@json_option
def roll(notation: str, faces: str | None, seed: int | None, as_json: bool) -> None:
    """Roll dice in standard notation: d20, 3d8+5, 4d6kh3, 2d20kl1, 8d6>=4 (count successes).

    Operators: k/p keep or drop, rr reroll, ro reroll once, ra reroll and add, e explode,
    mi/ma minimum/maximum; selectors N, hN, lN, >N, <N. At most 1,000 dice per roll.
    """
    source = make_source(faces, seed)
    result = roll_notation(notation, source)
    finish_source(source)

    def render() -> None:
        console.print(result.breakdown, markup=False)
        if result.successes is not None:
            console.print(f"successes: {result.successes}")

    emit(result, as_json, render)
