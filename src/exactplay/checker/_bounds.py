"""What a certificate of one instance may contain, decided before anything is computed.

Standard library only: the solvers' limits are restated here (a test checks that
they agree with ``exactplay.games``), never imported.

For each game, :func:`instance_bounds` checks the parameters against the solver's
own limits and derives, from the parameters alone:

* the number of table rows (exact, or an upper bound);
* ``digits``: an upper bound on the digits of any numerator or denominator in
  a correct certificate of the instance (table, answer, gaps, winner vector),
  sound (derivations below) and capped by the global :data:`._load.MAX_DIGITS`;
  :func:`._load.rational` refuses longer numbers while the certificate is
  checked, before converting them;
* ``max_bytes``: the canonical rows can be no longer than rows x the longest
  row, capped by :data:`._load.MAX_TABLE_BYTES`; a gzip table is inflated only
  that far.

:meth:`Bounds.check_rows` then refuses an over-long table or number before the
game's checker parses a single one.  Every refusal is one short line naming the
field and the limit.
"""

from __future__ import annotations

import math

from ..errors import VerificationError
from ._load import MAX_DIGITS, MAX_TABLE_BYTES, clip, rational

# ---- the solvers' limits, restated (tests/test_hostile.py checks them against exactplay.games)
RACE_MAX_TARGET = 500  # games.race.MAX_AUDIT_TARGET: certify's limit (solve goes further, writes no certificate)
HOLD_MAX_TARGET = 150  # games.hold.MAX_TARGET
HOLD_MAX_FACES = 12  # games.hold.MAX_FACES
HOLD_FULL_TABLE_UP_TO = 30  # games.hold.FULL_TABLE_UP_TO: V(c, h) stored up to this target
CHEFS_MIN_N = 2  # games.chefs.MIN_N
CHEFS_MAX_N = 15  # games.chefs.MAX_CERTIFY_N (check at n = 14: 15 s CPU, 0.69 GB; ~4-5x, ~3x per chef)
CHEFS_FULL_TABLE_MAX_N = 8  # games.chefs.FULL_TABLE_MAX_N
COINS_MAX_COINS = 1000  # games.coins.MAX_COINS
WAR_MAX_RANKS = 26  # games.war.MAX_RANKS
WAR_MAX_SUITS = 8  # games.war.MAX_SUITS
WAR_MAX_CARDS = 104  # games.war.MAX_CARDS
# A coin or a skill is typed by a user (numbers.read_rational): at most
# MAX_INPUT_CHARS = 1000 characters and a decimal exponent of at most 1000, so
# its numerator and denominator have at most 1000 + 1000 + 1 digits.
INPUT_DIGITS = 2001


class Bounds:
    """Row count and number sizes allowed in the table of one instance."""

    def __init__(self, game: str, rows: int, digits: int, row_overhead: int, numbers_per_row: int,
                 exact_rows: bool = True, text_chars: int = 8, values_per_row: int = 8):
        self.game = game
        self.rows = rows
        self.exact_rows = exact_rows
        self.digits = min(int(digits), MAX_DIGITS)
        self.chars = max(2 * self.digits + 2, text_chars)  # "-p/q", or a word such as a policy string
        row_chars = row_overhead + text_chars + numbers_per_row * (self.chars + 3)
        self.max_bytes = min(MAX_TABLE_BYTES, 2 + rows * (row_chars + 1))
        self.max_values = rows * (values_per_row + 1)  # commas in the canonical rows

    def check_rows(self, table) -> None:
        """Row count and every string's length, before any number is parsed."""
        rows = table.rows
        if len(rows) > self.rows or (self.exact_rows and len(rows) != self.rows):
            want = f"{self.rows}" if self.exact_rows else f"at most {self.rows}"
            raise VerificationError(f"table has {len(rows)} rows; this instance has {want}", field="table")
        limit = self.chars
        for row in rows:
            for k, x in enumerate(row):
                if isinstance(x, str) and len(x) > limit:
                    name = table.columns[k] if k < len(table.columns) else str(k)
                    raise VerificationError(
                        f"entry of {len(x)} characters: longer than any in a correct {self.game} certificate "
                        f"of this instance (at most {self.digits} digits per numerator or denominator)",
                        field=f"table.{name}", state=_state(row))


def _state(row: list):
    head = row[:2]
    if all(isinstance(x, int) and not isinstance(x, bool) and abs(x) < 10**9 for x in head):
        return tuple(head)
    return clip(head)


def instance_bounds(cert: dict) -> Bounds | None:
    """The bounds of ``cert``'s instance, its parameters checked; ``None`` for an unknown game."""
    fn = _GAMES.get(cert.get("game"))
    if fn is None:
        return None
    params = cert.get("params")
    if not isinstance(params, dict):
        raise VerificationError("params is not an object", field="params")
    return fn(cert, params)


def _int_param(params: dict, name: str, lo: int, hi: int, game: str) -> int:
    if name not in params:
        raise VerificationError(f"missing {name}", field=f"params.{name}")
    v = params[name]
    if not isinstance(v, int) or isinstance(v, bool):
        raise VerificationError(f"{name} must be an integer, found {clip(v)}", field=f"params.{name}")
    if not lo <= v <= hi:
        raise VerificationError(f"{name} = {clip(v)} is outside {lo}..{hi}, the {game} solver's limits",
                                field=f"params.{name}")
    return v


# ---------------------------------------------------------------- race

def race_t_zero(b: int) -> int:
    return (b - 1).bit_length() + 1


def race_digits(N: int) -> int:
    """Digits of any numerator or denominator of F(a, b) or of a gap, 1 <= a, b <= N.

    The kept value of T = t at a cell is ``(2 S + (2^t - 1) F(a-1, b)) / (2^t + 1)``
    with ``2 S = F(a-1, b-d) + F(a, b-d)`` or 2, and F(a, b) is one of these
    (t <= t0(N) + 4 covers every t the tool or the checker uses).  So for every
    prime p, v_p(den F(a, b)) <= v_p(2^t + 1) + the largest v_p of the three
    cells it reads, each with a smaller a + b; F(0, .) = 0 and F(., 0) = 1.  By
    induction den F(a, b) divides L^(a+b-1), L = lcm(2^t + 1, t <= t0(N) + 4); a
    gap (a difference of two kept values) too.  F and the gaps lie in [0, 1],
    so their numerators are no longer than their denominators.
    """
    L = 1
    for t in range(1, race_t_zero(N) + 5):
        L = math.lcm(L, 2**t + 1)
    return math.floor((2 * N - 1) * math.log10(L)) + 2


def _race(cert, params) -> Bounds:
    N = _int_param(params, "target", 1, RACE_MAX_TARGET, "race")
    # + 1: the answer G(N, N) = (F(N-1, N) + F(N, N)) / 2
    return Bounds("race", N * N, race_digits(N) + 1, row_overhead=16, numbers_per_row=2, values_per_row=5)


# ---------------------------------------------------------------- hold

def hold_digits(T: int, F: int) -> int:
    """Digits of any numerator or denominator of V(c, h).

    A pair's values solve ``U = (A) / det`` with A built from reach
    probabilities (denominators dividing F^(2T)) and values of pairs with a
    larger c + h, and ``det = 1 - b_c b_h`` (or ``1 + b_c``) whose numerator is
    at most F^(2T).  So v_p(den) grows along a chain of at most 2T levels by at
    most 2T v_p(F) per level, plus v_p of the numerator of every pair's det
    (T^2 / 2 pairs): den V divides F^(4T^2) times a product of T^2 / 2
    numbers below F^(2T), at most (4T^2 + T^3) log10 F digits.  V is in [0, 1].
    The hold and continue values of a turn (the smallest margin) add at most
    T divisions by F: 2T log10 F more covers them.
    """
    return math.ceil((T**3 + 4 * T**2 + 6 * T) * math.log10(F)) + 3


def _hold(cert, params) -> Bounds:
    T = _int_param(params, "target", 2, HOLD_MAX_TARGET, "hold")
    F = _int_param(params, "faces", 2, HOLD_MAX_FACES, "hold")
    table = cert.get("table")
    columns = table.get("columns") if isinstance(table, dict) else None
    has_values = isinstance(columns, list) and "V" in columns
    if has_values and T > HOLD_FULL_TABLE_UP_TO:
        raise VerificationError(f"values V(c, h) are stored only up to target {HOLD_FULL_TABLE_UP_TO}, "
                                f"not {T}", field="table.columns")
    digits = hold_digits(T, F)
    # a policy string has T - c - 1 < T letters
    return Bounds("hold", T * T, digits, row_overhead=16, numbers_per_row=1 if has_values else 0,
                  text_chars=T, values_per_row=4)


# ---------------------------------------------------------------- chefs

def chefs_digits(n: int, log10_F: float) -> int:
    """Digits of any numerator or denominator of a stored D or W (full tables).

    With p_k = a_k / F (F the lcm of the skills' denominators), an alive set M
    of q chefs is a cycle whose solution has denominator dividing
    F^(2q) N_M L, N_M = F^q - prod(F - a_k) < F^q and L the lcm of the
    denominators of the sets M minus one chef.  So v_p(den) <= the sum over the
    sizes q of 2q v_p(F) plus the sum of v_p(N_S) over the subsets S of M:
    den divides F^(n^2 + n) prod_S N_S, at most (n^2 + n + n 2^(n-1)) log10 F
    digits.  W is in [0, 1]; D <= (n - 1) / min p <= (n - 1) F adds log10(n F).
    """
    return math.ceil(log10_F * (n * n + n + n * 2 ** (n - 1) + 1) + math.log10(n)) + 3


def _chefs(cert, params) -> Bounds:
    raw = cert.get("skills")
    if not isinstance(raw, list) or not CHEFS_MIN_N <= len(raw) <= CHEFS_MAX_N:
        raise VerificationError(f"skills must be a list of {CHEFS_MIN_N}..{CHEFS_MAX_N} rationals "
                                f"(the chefs solver's limits)", field="skills")
    skills = [rational(s, "skills", k + 1, max_digits=INPUT_DIGITS) for k, s in enumerate(raw)]
    n = len(skills)
    full = cert.get("full_table")
    log10_F = sum(math.log10(s.denominator) for s in skills)
    per_state = n * 2 ** (n - 1)
    if full is True:
        if n > CHEFS_FULL_TABLE_MAX_N:
            raise VerificationError(f"full tables are written only up to n = {CHEFS_FULL_TABLE_MAX_N}, not {n}",
                                    field="full_table")
        return Bounds("chefs", per_state, chefs_digits(n, log10_F), row_overhead=24, numbers_per_row=n + 1,
                      values_per_row=n + 4)
    return Bounds("chefs", per_state - n, chefs_digits(n, log10_F), row_overhead=24, numbers_per_row=0,
                  values_per_row=3)


# ---------------------------------------------------------------- coins

def coins_digits(coin_texts: list[str]) -> int:
    """Digits of any numerator or denominator of V, left or right.

    Each is a signed sum of coins of the row, so its denominator divides the
    product of the coins' denominators and its absolute value is at most
    n max |v_k|: digits <= sum of the denominators' digits + the longest
    numerator's digits + digits of n.
    """
    dens = 0
    nums = 0
    for c in coin_texts:
        num, _, den = c.partition("/")
        dens += len(den) if den else 1
        nums = max(nums, len(num.lstrip("-")))
    return dens + nums + len(str(len(coin_texts))) + 1


def _coins(cert, params) -> Bounds:
    coins = params.get("coins")
    if not isinstance(coins, list) or not coins:
        raise VerificationError("missing or empty coin row", field="params.coins")
    if len(coins) > COINS_MAX_COINS:
        raise VerificationError(f"{len(coins)} coins: beyond the coins solver's limit of {COINS_MAX_COINS}",
                                field="params.coins")
    for k, c in enumerate(coins):
        rational(c, "params.coins", k, max_digits=INPUT_DIGITS)
    n = len(coins)
    return Bounds("coins", n * (n + 1) // 2, coins_digits(coins), row_overhead=24, numbers_per_row=3,
                  values_per_row=6)


# ---------------------------------------------------------------- war

def war_digits(cards: int) -> int:
    """P_t(d) = W / (n (n-1) ... (n-2t+1)) <= 1: its denominator divides n!; so
    does p's, and 1 / (2p) has numerator <= n! and denominator <= 2 n!."""
    return len(str(math.factorial(cards))) + 2


def _war(cert, params) -> Bounds:
    R = _int_param(params, "ranks", 1, WAR_MAX_RANKS, "war")
    S = _int_param(params, "suits", 1, WAR_MAX_SUITS, "war")
    if R * S > WAR_MAX_CARDS:
        raise VerificationError(f"{R} x {S} = {R * S} cards: beyond the war solver's limit of {WAR_MAX_CARDS}",
                                field="params")
    T = R * S // 2
    decks = math.comb(R + S, S)  # sorted count tuples of length <= R with entries 1..S
    return Bounds("war", (T + 1) * decks, war_digits(R * S), row_overhead=16 + 3 * R, numbers_per_row=1,
                  exact_rows=False, values_per_row=R + 3)


_GAMES = {"race": _race, "hold": _hold, "chefs": _chefs, "coins": _coins, "war": _war}

