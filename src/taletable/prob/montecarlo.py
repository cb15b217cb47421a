"""Monte Carlo estimates with a stated error bound, for anything without an exact form.

Samples come from a NumPy generator (seeded, so runs are reproducible). The bound is the
half-width of a 99.9% normal confidence interval, ``3.29 * sqrt(p (1 - p) / n)``; when the
estimate sits at 0 or 1 (no spread to measure) it is the exact one-sided 99.9% bound
``1 - 0.001 ** (1 / n)`` (Clopper-Pearson with no hits, or no misses).
"""

from __future__ import annotations

from collections.abc import Callable
from math import sqrt
from typing import TYPE_CHECKING

from taletable._model import Record

if TYPE_CHECKING:  # imported where samples are drawn (CLI start-up)
    import numpy as np
    import numpy.typing as npt

__all__ = ["MAX_SAMPLES", "Estimate", "estimate_probability", "proportion"]

#: The most samples one estimate draws (DESIGN > Principles 8).
MAX_SAMPLES = 10_000_000
CONFIDENCE = 0.999
Z_999 = 3.2905


class Estimate(Record):
    """A Monte Carlo probability: the estimate, its error bound and the samples drawn."""

    probability: float
    bound: float
    samples: int
    confidence: float = CONFIDENCE

    def agrees_with(self, exact: float) -> bool:
        """Whether an exact value lies within the bound."""
        return abs(self.probability - exact) <= self.bound


def estimate_probability(
    event: Callable[[np.random.Generator, int], npt.NDArray[np.bool_]],
    samples: int = 100_000,
    *,
    seed: int = 0,
) -> Estimate:
    """Estimate P(event) from vectorised draws: ``event(generator, n)`` returns n booleans."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 1 to {MAX_SAMPLES}")
    import numpy as np

    generator = np.random.default_rng(seed)
    hits = np.asarray(event(generator, samples), dtype=bool)
    if hits.shape != (samples,):
        raise ValueError("the event must return one boolean per sample")
    return proportion(int(hits.sum()), samples)


def proportion(hits: int, samples: int) -> Estimate:
    """The estimate ``hits / samples`` with its 99.9% bound (for samples drawn one by one)."""
    if not 1 <= samples <= MAX_SAMPLES or not 0 <= hits <= samples:
        raise ValueError(f"need 0 <= hits <= samples <= {MAX_SAMPLES}")
    p = hits / samples
    if 0 < p < 1:
        bound = Z_999 * sqrt(p * (1 - p) / samples)
    else:
        bound = 1 - (1 - CONFIDENCE) ** (1 / samples)
    return Estimate(probability=p, bound=bound, samples=samples)
