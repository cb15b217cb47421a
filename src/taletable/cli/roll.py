"""`taletable roll NOTATION`: everyday dice rolls in standard notation."""

from __future__ import annotations

import click

from taletable.cli.common import ask, console, dice_options, emit, json_option, table_for
from taletable.play.dice_notation import RollRequest
from taletable.play.dice_notation import roll as play_roll

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
    request = ask(RollRequest, notation=notation, faces=faces)
    result = play_roll(request, table_for(seed=seed, faces=faces)).result

    def render() -> None:
        console.print(result.breakdown, markup=False)
        if result.successes is not None:
            console.print(f"successes: {result.successes}")

    emit(result, as_json, render)
