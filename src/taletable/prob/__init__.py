"""Exact and fast probability distributions (DESIGN > Principles 6). Knows no game rules."""

from taletable.prob.distribution import (
    MAX_OUTCOMES,
    Distribution,
    binomial,
    die,
    fraction_text,
    point,
    probability_rows,
)
from taletable.prob.montecarlo import Estimate, estimate_probability, proportion

__all__ = [
    "MAX_OUTCOMES",
    "Distribution",
    "Estimate",
    "binomial",
    "die",
    "estimate_probability",
    "fraction_text",
    "point",
    "probability_rows",
    "proportion",
]
