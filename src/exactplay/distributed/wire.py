"""Exact numbers on the wire: GMP binary (gmpy2 ``to_binary``) or integer pairs, never text.

A payload is ``kind + count + lengths + bodies``: ``kind`` ``b"G"`` for gmpy2 numbers
(``mpz`` or ``mpq``, each its ``to_binary`` bytes), ``b"P"`` for any other rationals
(``Fraction``, ``int``: numerator and denominator as signed little-endian bytes).  Floats
(the float shadows) travel as their 8 IEEE bytes.  Every value decodes to an equal value
of the same type: the bits are the same, so the distributed run computes what the serial
one does.
"""

from __future__ import annotations

import struct
from array import array
from fractions import Fraction

try:
    import gmpy2
except ImportError:  # pragma: no cover - gmpy2 is a dependency
    gmpy2 = None

_HEAD = struct.Struct("<cQ")


def _is_gmp(x) -> bool:
    return gmpy2 is not None and type(x) in (type(gmpy2.mpz(0)), type(gmpy2.mpq(0)))


def _int_bytes(x: int) -> bytes:
    return x.to_bytes((x.bit_length() + 8) // 8, "little", signed=True)


def pack_numbers(xs) -> bytes:
    """Exact numbers as bytes (all gmpy2, or all Fraction/int).

    >>> from fractions import Fraction
    >>> unpack_numbers(pack_numbers([Fraction(-7, 3), Fraction(0), Fraction(2**70, 3**40)]))
    [Fraction(-7, 3), Fraction(0, 1), Fraction(1180591620717411303424, 12157665459056928801)]
    """
    xs = list(xs)
    if xs and all(_is_gmp(x) for x in xs):
        kind, parts = b"G", [gmpy2.to_binary(x) for x in xs]
    else:
        kind, parts = b"P", []
        for x in xs:
            f = x if isinstance(x, Fraction) else Fraction(x)
            parts += [_int_bytes(f.numerator), _int_bytes(f.denominator)]
    lengths = array("Q", map(len, parts))
    return _HEAD.pack(kind, len(parts)) + lengths.tobytes() + b"".join(parts)


def unpack_numbers(data: bytes) -> list:
    """The numbers :func:`pack_numbers` wrote, of the same types and values."""
    kind, count = _HEAD.unpack_from(data, 0)
    pos = _HEAD.size
    lengths = array("Q")
    lengths.frombytes(data[pos:pos + 8 * count])
    pos += 8 * count
    view = memoryview(data)
    parts = []
    for n in lengths:
        parts.append(view[pos:pos + n])
        pos += n
    if kind == b"G":
        return [gmpy2.from_binary(bytes(p)) for p in parts]
    ints = [int.from_bytes(p, "little", signed=True) for p in parts]
    return [Fraction(ints[i], ints[i + 1]) for i in range(0, len(ints), 2)]


def pack_floats(xs) -> bytes:
    """Floats as their IEEE bytes (exact).

    >>> unpack_floats(pack_floats([0.1, -0.0, 2.0**-1074]))
    [0.1, -0.0, 5e-324]
    """
    return array("d", xs).tobytes()


def unpack_floats(data: bytes) -> list:
    out = array("d")
    out.frombytes(data)
    return out.tolist()
