"""Exact discrete distributions over whole numbers, as integer weights (DESIGN > Principles 6).

A :class:`Distribution` is immutable: integer outcomes ``offset .. offset + len(weights) - 1``
with non-negative integer ``weights`` over their sum, the denominator. Answers are exact
``Fraction`` values; :meth:`Distribution.floats` is the NumPy fast path when exactness is not
asked for. Only the operations the games need are here: sums and differences of independent
variables, maxima, keep-highest of a few dice, thresholds, mixtures and conditioning.
It knows no game (DESIGN > Layers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from functools import cache, reduce
from itertools import accumulate
from math import gcd
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # NumPy is the fast path, imported where it is used (CLI start-up)
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "MAX_OUTCOMES",
    "Distribution",
    "binomial",
    "die",
    "exact_fraction",
    "fraction_text",
    "point",
    "probability_rows",
]

#: The widest distribution the engine builds (DESIGN > Principles 8).
MAX_OUTCOMES = 1_000_000


def _slot_fraction(numerator: int, denominator: int) -> Fraction:
    """A Fraction from coprime ints, filling its two slots (what 3.12's private helper does)."""
    made = object.__new__(Fraction)
    made._numerator = numerator  # type: ignore[attr-defined]
    made._denominator = denominator  # type: ignore[attr-defined]
    return made


def _fraction_maker() -> Callable[[int, int], Fraction]:
    """The fastest way this Python offers to build a Fraction already in lowest terms.

    Each candidate is checked on a few values before use; plain ``Fraction`` is the fallback.
    """
    candidates: list[Callable[[int, int], Fraction]] = []
    coprime = getattr(Fraction, "_from_coprime_ints", None)
    if coprime is not None:  # Python 3.12 and later
        candidates.append(coprime)
    candidates.append(_slot_fraction)
    for candidate in candidates:
        try:
            made = [candidate(n, d) for n, d in ((3, 4), (0, 1), (7, 1), (-5, 12))]
        except (AttributeError, TypeError):  # pragma: no cover - a Python without the slots
            continue
        wanted = [Fraction(3, 4), Fraction(0), Fraction(7), Fraction(-5, 12)]
        if made == wanted and [hash(f) for f in made] == [hash(f) for f in wanted]:
            return candidate
    return Fraction  # pragma: no cover


_coprime_fraction = _fraction_maker()


def exact_fraction(numerator: int, denominator: int) -> Fraction:
    """``numerator / denominator`` as a Fraction (denominator > 0), built quickly."""
    divisor = gcd(numerator, denominator)
    return _coprime_fraction(numerator // divisor, denominator // divisor)


def fraction_text(value: Fraction) -> str:
    """An exact probability as the string ``"a/b"`` (``"1/1"`` for certainty, ``"0/1"``)."""
    return f"{value.numerator}/{value.denominator}"


def probability_rows(
    items: Iterable[tuple[int, Fraction]], key: str
) -> list[dict[str, int | str | float]]:
    """``[{key: outcome, "p": "a/b", "p_float": x}, ...]``: a distribution for JSON output."""
    return [{key: outcome, "p": fraction_text(p), "p_float": float(p)} for outcome, p in items]


class Distribution:
    """An immutable exact distribution over the integers ``offset ..`` with integer weights."""

    __slots__ = ("_offset", "_weights")

    def __init__(self, offset: int, weights: Iterable[int]) -> None:
        values = list(weights)
        if not values or min(values) < 0 or not any(values):
            raise ValueError("a distribution needs non-negative weights with a positive sum")
        if len(values) > MAX_OUTCOMES:
            raise ValueError(f"more than {MAX_OUTCOMES} outcomes")
        start = 0
        if not values[0] or not values[-1]:
            start = next(i for i, w in enumerate(values) if w)
            end = len(values) - next(i for i, w in enumerate(reversed(values)) if w)
            values = values[start:end]
        divisor = gcd(values[0], values[-1], *values)  # ends often coprime: gcd stops at 1
        self._offset = offset + start
        self._weights = tuple(w // divisor for w in values) if divisor > 1 else tuple(values)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_mapping(cls, weights: Mapping[int, int]) -> Distribution:
        """A distribution from ``{outcome: weight}``."""
        low, high = min(weights), max(weights)
        dense = [0] * (high - low + 1)
        for outcome, weight in weights.items():
            dense[outcome - low] += weight
        return cls(low, dense)

    # -- inspection ---------------------------------------------------------------------------
    @property
    def offset(self) -> int:
        """The lowest outcome."""
        return self._offset

    @property
    def weights(self) -> tuple[int, ...]:
        """Weights of ``offset``, ``offset + 1``, ... (reduced to lowest terms)."""
        return self._weights

    @property
    def denominator(self) -> int:
        """The sum of the weights."""
        return sum(self._weights)

    @property
    def low(self) -> int:
        return self._offset

    @property
    def high(self) -> int:
        return self._offset + len(self._weights) - 1

    def items(self) -> list[tuple[int, Fraction]]:
        """``(outcome, probability)`` for every outcome with a positive weight."""
        total, offset, make = self.denominator, self._offset, _coprime_fraction
        found = []
        for i, w in enumerate(self._weights):
            if w:
                divisor = gcd(w, total)
                found.append((offset + i, make(w // divisor, total // divisor)))
        return found

    def probability(self, predicate: Callable[[int], bool]) -> Fraction:
        """The exact probability that ``predicate(outcome)`` holds."""
        hits = sum(w for i, w in enumerate(self._weights) if predicate(self._offset + i))
        return exact_fraction(hits, self.denominator)

    def at_least(self, value: int) -> Fraction:
        """P(X >= value)."""
        index = max(0, value - self._offset)
        return exact_fraction(sum(self._weights[index:]), self.denominator)

    def mean(self) -> Fraction:
        """The exact expected value."""
        total = sum((self._offset + i) * w for i, w in enumerate(self._weights))
        return Fraction(total, self.denominator)

    def floats(self) -> npt.NDArray[np.float64]:
        """The probabilities of ``offset ..`` as floats (the NumPy fast path)."""
        import numpy as np

        array = np.array([float(w) for w in self._weights], dtype=np.float64)
        result: npt.NDArray[np.float64] = array / array.sum()
        return result

    # -- combination ---------------------------------------------------------------------------
    def __add__(self, other: Distribution | int) -> Distribution:
        """The sum of two independent variables (or a shift by a constant)."""
        if isinstance(other, int):
            return Distribution(self._offset + other, self._weights)
        return Distribution(self._offset + other._offset, _convolve(self._weights, other._weights))

    __radd__ = __add__

    def __neg__(self) -> Distribution:
        return Distribution(-self.high, reversed(self._weights))

    def __sub__(self, other: Distribution | int) -> Distribution:
        """The difference of two independent variables (or a shift)."""
        return self + (-other)

    def map(self, function: Callable[[int], int]) -> Distribution:
        """The distribution of ``function(X)``."""
        mapped: dict[int, int] = {}
        for i, w in enumerate(self._weights):
            if w:
                key = function(self._offset + i)
                mapped[key] = mapped.get(key, 0) + w
        return Distribution.from_mapping(mapped)

    def maximum(self, other: Distribution) -> Distribution:
        """The distribution of max(X, Y) for independent X and Y."""
        low = max(self.low, other.low)
        high = max(self.high, other.high)
        a_cdf = [self._cdf_weight(v) for v in range(low, high + 1)]
        b_cdf = [other._cdf_weight(v) for v in range(low, high + 1)]
        joint = [a * b for a, b in zip(a_cdf, b_cdf, strict=True)]
        return Distribution(
            low, [joint[0], *(joint[i] - joint[i - 1] for i in range(1, len(joint)))]
        )

    def _cdf_weight(self, value: int) -> int:
        index = value - self._offset
        if index < 0:
            return 0
        return sum(self._weights[: index + 1])

    def condition(self, predicate: Callable[[int], bool]) -> Distribution:
        """X given that ``predicate(X)`` holds (refused when it never does)."""
        kept = {
            self._offset + i: w
            for i, w in enumerate(self._weights)
            if w and predicate(self._offset + i)
        }
        if not kept:
            raise ValueError("the condition never holds")
        return Distribution.from_mapping(kept)

    @staticmethod
    def mixture(parts: Iterable[tuple[Fraction, Distribution]]) -> Distribution:
        """A mixture: with probability ``p`` the outcome comes from each distribution."""
        listed = [(Fraction(p), d) for p, d in parts if p]
        if not listed:
            raise ValueError("a mixture needs a part with positive probability")
        scale = reduce(
            lambda a, b: a * b // gcd(a, b), (p.denominator * d.denominator for p, d in listed), 1
        )
        low = min(d.low for _, d in listed)
        high = max(d.high for _, d in listed)
        dense = [0] * (high - low + 1)
        for p, d in listed:
            factor = p * scale / d.denominator
            assert factor.denominator == 1
            for i, w in enumerate(d.weights):
                dense[d.offset - low + i] += w * factor.numerator
        return Distribution(low, dense)

    # -- comparison and display ---------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self._offset == other._offset and self._weights == other._weights

    def __hash__(self) -> int:
        return hash((self._offset, self._weights))

    def __repr__(self) -> str:
        return f"Distribution({self._offset}, {list(self._weights)})"


#: Below this bound every partial sum fits a signed 64-bit integer, so NumPy convolves exactly.
_INT64_SAFE = 2**62
#: From this many products NumPy convolves faster than Python (7 x 2: Python 1.6 us, NumPy
#: 3.6 us; 20 x 7: 12.8 us against 4.4 us), so a small sum never waits for NumPy's import.
_NUMPY_FROM = 64


def _convolve(a: tuple[int, ...], b: tuple[int, ...]) -> list[int]:
    """Exact convolution of two integer weight sequences.

    Adding a fair die (equal weights) is a sliding window over running sums; otherwise NumPy
    convolves a large sum when int64 cannot overflow, and Python ints do it exactly when it
    could, or when the sum is small.
    """
    if len(a) < len(b):
        a, b = b, a
    if b.count(b[0]) == len(b):
        return _add_uniform(a, len(b), b[0])
    if len(a) * len(b) >= _NUMPY_FROM and max(a) * max(b) * len(b) < _INT64_SAFE:
        import numpy as np

        result: list[int] = np.convolve(
            np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)
        ).tolist()
        return result
    result = [0] * (len(a) + len(b) - 1)
    for j, weight in enumerate(b):
        if weight:
            for i, other in enumerate(a):
                result[i + j] += other * weight
    return result


def _add_uniform(a: tuple[int, ...], width: int, weight: int) -> list[int]:
    """``a`` convolved with ``width`` equal weights: each entry is a window sum of ``a``."""
    running = [*([0] * width), *accumulate(a)]
    running += [running[-1]] * (width - 1)
    windows = [high - low for high, low in zip(running[width:], running, strict=False)]
    return windows if weight == 1 else [weight * w for w in windows]


def point(value: int) -> Distribution:
    """A certain outcome."""
    return Distribution(value, [1])


@cache
def die(sides: int) -> Distribution:
    """A fair die with faces 1..sides."""
    if not 1 <= sides <= MAX_OUTCOMES:
        raise ValueError(f"a d{sides} cannot be built")
    return Distribution(1, [1] * sides)


@cache
def binomial(trials: int, successes_in: int, out_of: int) -> Distribution:
    """Successes in ``trials`` independent tries, each succeeding ``successes_in`` of ``out_of``.

    Built in closed form: C(n, k) a^k b^(n-k) over ``out_of ** n`` (reduced), with a and b
    divided by their common factor first and each weight stepped from the one before, so thousands
    of trials take well under a second.
    """
    if trials < 0 or not 0 <= successes_in <= out_of or out_of < 1:
        raise ValueError("a binomial needs trials >= 0 and 0 <= successes_in <= out_of")
    fail = out_of - successes_in
    common = gcd(successes_in, fail)
    success, fail = successes_in // common, fail // common
    if not success or not fail:
        return point(trials if success else 0)
    weight = fail**trials
    weights = [weight]
    for k in range(trials):  # C(n, k+1) s^(k+1) f^(n-k-1) from C(n, k) s^k f^(n-k), exactly
        weight = weight * (trials - k) * success // ((k + 1) * fail)
        weights.append(weight)
    return Distribution(0, weights)
