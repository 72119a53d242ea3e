"""Integers for the fast exact race table: the primes of ``2^t + 1``, packed exponent vectors,
cofactors, and correctly rounded floats of unreduced fractions.

A denominator ``D = prod p^e_p`` over the primes of the numbers ``2^t + 1`` is described by
its exponent vector ``e``, packed into one integer, :data:`LANE` bits per prime, so that
the vector operations the solver needs are a few integer operations: ``L - e`` is a
subtraction (when ``L >= e`` lane-wise), adding the exponents of ``2^t + 1`` an addition,
and the lane-wise maximum :func:`lane_max` six bit operations.
"""

from __future__ import annotations

from math import ldexp

from gmpy2 import mpz

def ratio_pair(n, D) -> tuple[float, float]:
    """``n / D`` and ``1 - n / D``, each correctly rounded to the nearest float (0 <= n <= D, D > 0).

    With ``q, r = divmod(n 2^s, D)``, ``(D - n) 2^s / D = (2^s - q - [r > 0]) + (D - r) / D``
    (for ``r > 0``), so one division gives both quotients.  ``s`` makes each quotient
    at least 55 bits long; or-ing in a sticky bit for a nonzero remainder leaves
    round-to-nearest-even of that integer equal to that of the exact quotient,
    ``float(int)`` rounds correctly, and ``ldexp`` is exact while the result is
    normal.  Results that may be subnormal take Python's ``int / int`` (also
    correctly rounded, slower).

    >>> ratio_pair(mpz(1), mpz(3)) == (1 / 3, 2 / 3)
    True
    >>> n, D = mpz(3)**600 - 1, mpz(3)**600; ratio_pair(n, D) == (int(n) / int(D), 1 / int(D))
    True
    >>> n, D = mpz(3)**900 - 1, mpz(3)**900; ratio_pair(n, D) == (int(n) / int(D), 1 / int(D))
    True
    """
    c = D - n
    if not n or not c:
        return (0.0, 1.0) if not n else (1.0, 0.0)
    k = int(D.bit_length()) - min(n.bit_length(), c.bit_length())
    if k > 1000:
        return int(n) / int(D), int(c) / int(D)
    s = 56 + k
    q, r = divmod(n << s, D)
    sticky = 1 if r else 0
    if k < 900:  # both quotients have 56 .. s+1 < 1000 bits: float(int) neither overflows nor needs a cut
        return ldexp(float(int(q) | sticky), -s), ldexp(float(int((1 << s) - q - sticky) | sticky), -s)
    return _round(q, sticky, s), _round((1 << s) - q - sticky, sticky, s)


def _round(Q, sticky: int, s: int) -> float:
    """``(Q + f) 2^-s`` correctly rounded, for ``0 <= f < 1``, ``f > 0`` iff ``sticky``, ``Q >= 2^55``.

    Q is first cut to 64 bits (the cut bits join the sticky bit), so that
    ``float(int)`` cannot overflow."""
    extra = int(Q.bit_length()) - 64
    if extra > 0:
        if Q & ((1 << extra) - 1):
            sticky = 1
        Q >>= extra
        s -= extra
    return ldexp(float(int(Q) | sticky), -s)


def prime_factors(m: int) -> dict[int, int]:
    """Trial division: ``{p: k}`` with ``m = prod p^k``.

    >>> prime_factors(2**6 + 1), prime_factors(2**9 + 1)
    ({5: 1, 13: 1}, {3: 3, 19: 1})
    """
    out: dict[int, int] = {}
    p = 2
    while p * p <= m:
        while m % p == 0:
            out[p] = out.get(p, 0) + 1
            m //= p
        p += 1
    if m > 1:
        out[m] = out.get(m, 0) + 1
    return out


LANE = 24  # bits per prime in a packed exponent vector; exponents stay below 2^23
GUARD = LANE - 1


def pack(vec) -> int:
    """An exponent vector as one integer, ``LANE`` bits per prime (lane i = prime i).

    >>> pack((1, 0, 2)) == 1 + (2 << 2 * LANE)
    True
    """
    return sum(e << (LANE * i) for i, e in enumerate(vec))


def unpack(x: int, k: int) -> tuple[int, ...]:
    """The first ``k`` lanes of ``x``.

    >>> unpack(pack((5, 0, 7)), 3)
    (5, 0, 7)
    """
    mask = (1 << LANE) - 1
    return tuple((x >> (LANE * i)) & mask for i in range(k))


def lane_max(x: int, y: int, guards: int) -> int:
    """Lane-wise ``max`` of two packed vectors (SWAR; ``guards`` has bit GUARD of every lane set).

    Each lane of ``(x | guards) - y`` is ``2^GUARD + x_i - y_i >= 0`` (no borrow crosses
    lanes), so its guard bit is set exactly where ``x_i >= y_i``; that bit, spread
    over the lane, selects x there and y elsewhere.

    >>> g = pack((1 << GUARD,) * 3); unpack(lane_max(pack((3, 9, 4)), pack((5, 2, 4)), g), 3)
    (5, 9, 4)
    """
    sel = ((x | guards) - y) & guards
    sel >>= GUARD
    mask = (sel << GUARD) - sel
    return y ^ ((x ^ y) & mask)


def denominator_primes(t_max: int) -> tuple[tuple[int, ...], list[int]]:
    """The primes of ``2^t + 1`` for t = 1..t_max, and each ``2^t + 1`` as a packed exponent vector
    (index 0: the empty product).

    >>> primes, fexp = denominator_primes(4); primes, [unpack(f, 3) for f in fexp]
    ((3, 5, 17), [(0, 0, 0), (1, 0, 0), (0, 1, 0), (2, 0, 0), (0, 0, 1)])
    """
    facts = [prime_factors(2**t + 1) for t in range(1, t_max + 1)]
    primes = tuple(sorted({p for f in facts for p in f}))
    vec = [0] + [pack(tuple(f.get(p, 0) for p in primes)) for f in facts]
    return primes, vec


class Cofactors(dict):
    """``c(k) = prod p^k_p`` for packed exponent vectors ``k``, memoised (the differences repeat).

    The memo is emptied when it reaches :attr:`limit` entries: most cofactors are used by
    neighbouring cells only, and at target 2000 keeping all of them would take gigabytes."""

    limit = 100_000

    def __init__(self, primes):
        super().__init__()
        self.primes = tuple(mpz(p) for p in primes)
        self.guards = pack((1 << GUARD,) * len(primes))

    def __missing__(self, k):
        if len(self) >= self.limit:
            self.clear()
        v, x, mask = mpz(1), k, (1 << LANE) - 1
        for p in self.primes:
            e = x & mask
            if e:
                v *= p**e
            x >>= LANE
            if not x:
                break
        self[k] = v
        return v
