"""The chefs' skills: the Fibonacci instance ``S(k) = F_k / F_{n+1}`` and the float skills of the
published programs."""

from __future__ import annotations

from fractions import Fraction


def fibonacci(k: int) -> int:
    """F_k with F_1 = F_2 = 1.

    >>> [fibonacci(k) for k in range(1, 9)]
    [1, 1, 2, 3, 5, 8, 13, 21]
    """
    a, b = 0, 1
    for _ in range(k):
        a, b = b, a + b
    return a


def fibonacci_skills(n: int) -> tuple[Fraction, ...]:
    """S(k) = F_k / F_{n+1}, k = 1..n.

    >>> [str(s) for s in fibonacci_skills(4)]
    ['1/5', '1/5', '2/5', '3/5']
    """
    top = fibonacci(n + 1)
    return tuple(Fraction(fibonacci(k), top) for k in range(1, n + 1))


def float_skills(skills) -> list[float]:
    """The published programs' skills: ``F_k / F_{n+1}`` as one float division each."""
    return [s.numerator / s.denominator for s in skills]
