"""One cell of the Race in arb balls: the cell target 10,000 leaves unresolved at 53 bits, (3914, 9287).

    python benchmarks/race_cell_arb.py [A B [TARGET [PREC]]]      (default 3914 9287 10000 128)

F(a, b) depends only on cells (a', b') with a' <= a, b' <= b (and the t range 1 .. t_limit(TARGET): 19 at 10,000),
so rows 1..A and columns 1..B of the ball recurrence (the same _float_cell as games/race/ball.py) settle it.
"""
import sys
import time

from exactplay.games.race.table import _float_cell, t_limit
from exactplay.numbers.backends import get_backend

args = [int(x) for x in sys.argv[1:]] + [3914, 9287, 10000, 128][len(sys.argv) - 1:]
A_, B_, TARGET, PREC = args[:4]
B = get_backend("ball", PREC)
gains = [(t, 2 ** (t - 1)) for t in range(1, t_limit(TARGET) + 1)]
t0, c0 = time.perf_counter(), time.process_time()
with B.precision():
    one, half = B.one, B.q(1, 2)
    prev = [B.zero] * (B_ + 1)
    for a in range(1, A_ + 1):
        Fa, Ga = [one] * (B_ + 1), [one] * (B_ + 1)
        for b in range(1, B_ + 1):
            best, bt, cands, sure = _float_cell(B, Fa, Ga, prev, b, gains, one, a == A_ and b == B_)
            Fa[b] = best
            Ga[b] = (prev[b] + best) * half
        prev = Fa
        if a % 200 == 0:
            print("row", a, round(time.process_time() - c0), "s CPU", flush=True)
print("cell", (A_, B_), "best t", bt, "certified", sure, flush=True)
for t, v in sorted(cands.items()):
    print(t, v.str(25, radius=True))
print("gap best - runner-up >=", sorted([(cands[bt] - v).lower() for t, v in cands.items() if t != bt])[0])
print(f"{time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU")
