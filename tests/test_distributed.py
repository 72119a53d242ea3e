"""A run on Dask computes exactly what the serial run computes.

Every test that needs a cluster shares one 2-worker ``LocalCluster`` in this process
(``processes=False``: the same tile code, the same worker-to-worker transfers and
serialization of results, without the seconds of starting processes); the CLI test with
real worker processes is marked slow.
"""

from __future__ import annotations

import hashlib
import struct
import subprocess
import sys
from fractions import Fraction

import gmpy2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.certify.write import write_certificate
from exactplay.cli.main import main
from exactplay.distributed import chefs as dchefs
from exactplay.distributed import cluster
from exactplay.distributed import race as drace
from exactplay.distributed.wire import pack_floats, pack_numbers, unpack_floats, unpack_numbers
from exactplay.errors import EXIT_USAGE, UsageError
from exactplay.games import chefs, race
from exactplay.games.chefs import fast, fibonacci_skills

rationals = st.fractions(max_denominator=2**200) | st.integers(-2**300, 2**300).map(Fraction)


pytestmark = pytest.mark.xdist_group("test_distributed")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def client():
    with cluster.dask_client(2, processes=False) as c:
        yield c


def digest(cert: dict, tmp_path, name: str) -> str:
    return hashlib.sha256(write_certificate(cert, tmp_path / name).read_bytes()).hexdigest()


# ------------------------------------------------------------------ the wire


@settings(max_examples=60, deadline=None)
@given(st.lists(rationals, max_size=12))
def test_wire_returns_equal_numbers_of_the_same_type(xs):
    assert unpack_numbers(pack_numbers(xs)) == xs
    for conv in (gmpy2.mpq, lambda x: gmpy2.mpz(x.numerator)):
        ys = [conv(x) for x in xs]
        back = unpack_numbers(pack_numbers(ys))
        assert back == ys and [type(y) for y in back] == [type(y) for y in ys]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(allow_nan=False), max_size=12))
def test_wire_keeps_every_float_bit(xs):
    back = unpack_floats(pack_floats(xs))
    assert [struct.pack("<d", x) for x in back] == [struct.pack("<d", x) for x in xs]


def test_wire_sends_gmp_numbers_as_gmp_binary():
    x = gmpy2.mpq(3**500, 2**700 + 1)
    assert pack_numbers([x]).endswith(gmpy2.to_binary(x))


# ------------------------------------------------------------------ race


@pytest.mark.parametrize("target,tile,backend", [(23, 5, "mpq"), (9, 4, "fraction"), (6, 1, "mpq")])
def test_race_tiles_give_the_serial_table(client, target, tile, backend):
    serial = race.solve_table(target, backend, keep_candidates=True)
    dist = drace.solve_table(target, backend, keep_candidates=True, client=client, tile=tile)
    assert dist.F == serial.F and dist.G == serial.G
    assert list(dist.best_t.items()) == list(serial.best_t.items())
    assert list(dist.candidates.items()) == list(serial.candidates.items())
    assert type(dist.answer) is type(serial.answer)
    assert dist.dask_stats["tiles"] == (-(-target // tile)) ** 2 and dist.dask_stats["boundary_bytes"] > 0


def test_race_boundaries_are_only_the_last_row_of_each_tile(client):
    """With strips of h rows the workers exchange N/h - 1 rows of N values, not the table."""
    N, h = 24, 6
    dist = drace.solve_table(N, client=client, tile=h)
    serial = race.solve_table(N, reference=True)  # whole rows of mpq (the fast table reads them lazily)
    one_row = sum(len(pack_numbers(serial.F[a][1:])) + 16 * N for a in (h, 2 * h, 3 * h)) / 3
    sent = dist.dask_stats["boundary_bytes"]  # every strip sends its last row, the last strip too
    assert N // h * one_row * 0.5 < sent < N // h * one_row * 1.5 + 1000
    table_bytes = len(pack_numbers([x for row in serial.F[1:] for x in row[1:]]))
    assert sent < table_bytes / 2


def test_race_rows_not_asked_for_stay_on_the_workers(client):
    dist = drace.solve_table(12, client=client, tile=5, rows=(11, 12))
    serial = race.solve_table(12)
    assert dist.answer == serial.answer and dist.F[11] == serial.F[11]
    assert dist.best_t == serial.best_t
    with pytest.raises(LookupError):  # row 5 stayed on its worker
        dist.F[5][3]


def test_race_fast_tiles_ship_unreduced_numerators_and_exponents_not_denominators(client):
    """The boundary of each tile is its last row's numerators (GMP binary), exponent vectors and
    float shadows: byte for byte what the serial fast table holds there."""
    from exactplay.distributed.race_fast import pack_exponents
    from exactplay.distributed.tiles import bounds
    from exactplay.games.race import exact

    N, h = 26, 7
    st = exact.solve(N, race.t_limit(N))
    dist = drace.solve_table(N, client=client, tile=h, rows=(N - 1, N))
    expected = sum(len(pack_numbers(st.Fn[i1 - 1][b0:b1])) + len(pack_exponents(st.Fe[i1 - 1][b0:b1], st.primes))
                   + 16 * (b1 - b0) for _, i1 in bounds(N, h) for b0, b1 in bounds(N, h))
    assert dist.dask_stats["boundary_bytes"] == expected
    assert dist.answer == race.solve_table(N).answer


def test_race_fast_tiles_taller_than_a_band_are_solved_band_by_band(client, monkeypatch):
    from exactplay.games.race import exact

    monkeypatch.setattr(exact, "BAND", 3)  # the workers are threads of this process here
    serial = race.solve_table(19, keep_candidates=True)
    dist = drace.solve_table(19, keep_candidates=True, client=client, tile=8)
    assert dist.F == serial.F and list(dist.best_t.items()) == list(serial.best_t.items())
    assert list(dist.candidates.items()) == list(serial.candidates.items())


def test_race_fast_boundary_switches_on_the_subnormal_guard():
    """A tiny shadow arriving from another worker lowers the state's smallest shadow, as in the
    serial run, where it was written by the same process."""
    from exactplay.distributed.race_fast import _receive, pack_exponents
    from exactplay.games.race import exact

    st = exact.RaceState.start(8, 5)
    floats = pack_floats([0.5, 0.25, 1.0, 2.0**-1000, 0.5, 0.75])  # F on 3 columns, then 1 - F
    _receive(st, 3, 2, 5, (pack_numbers([gmpy2.mpz(1)] * 3), pack_exponents([0, 1, 2], st.primes), floats))
    assert st.smallest == 2.0**-1000 < exact.TINY
    assert [int(d) for d in st.FD[3][2:5]] == [1, 3, 9] and st.shadow[0][1, 3, 3] == 0.5


@pytest.mark.parametrize("game, params", [
    ("race", {"target": 12}), ("chefs", {"n": 7}), ("hold", {"target": 14, "faces": 4}),
    ("coins", {"coins": (3, 1, 4, 1, 5)}), ("war", {"ranks": 4, "suits": 2}),
    pytest.param("chefs", {"n": 9}, marks=pytest.mark.slow, id="chefs-n9"),  # 1.4 s of CPU; n = 7 takes 0.3 s
])
def test_a_certificate_made_on_dask_is_the_serial_one_byte_for_byte(client, tmp_path, game, params):
    """certify --workers: the engine's levels of the game's model on the cluster, the same certificate
    (chefs at n = 7 by default, at n = 9 too with -m slow)."""
    from exactplay.distributed import engine as dengine
    from exactplay.games import get_game

    serial = get_game(game).certify(**params)
    dist = get_game(game).certify(**params, solver=lambda model, backend, progress: dengine.solve_model(
        model, backend, progress, client=client))
    assert digest(dist, tmp_path, "d.json") == digest(serial, tmp_path, "s.json")


# ------------------------------------------------------------------ chefs


# every field of the result; not ``peak_numbers``, ``peak_bits`` (memory statistics): the serial solver drops an alive
# set after its last reader, the groups keep a layer until the next group has read it
FIELDS = ("E", "W1", "ties", "policy", "exact_compares", "value_bits")


@pytest.mark.parametrize("skills,tie,split", [
    (list(fibonacci_skills(9)), "nearest", 2),
    (list(fibonacci_skills(7)), "farthest", 3),
    ([Fraction(1, 2)] * 6, "nearest", 1),  # equal skills: many exact ties
    ([Fraction(1, 3), Fraction(1, 2)], "nearest", 5),  # split clipped to n - 1
])
def test_chefs_groups_give_the_serial_solution(client, skills, tie, split):
    serial = fast.solve_fast(skills, tie=tie, keep_policy=True)
    dist = dchefs.solve_fast(skills, tie=tie, keep_policy=True, client=client, split=split)
    for f in FIELDS:
        a, b = getattr(serial, f), getattr(dist, f)
        assert (list(a.items()) if isinstance(a, dict) else a) == (list(b.items()) if isinstance(b, dict) else b), f
    assert (dist.full.members, dist.full.target, dist.full.den) == (serial.full.members, serial.full.target,
                                                                    serial.full.den)
    if skills[0] == skills[-1]:
        assert serial.ties  # the instance does exercise the tie rule


def test_chefs_layer_crosses_workers_as_gmp_binary_and_comes_back_equal():
    import pickle

    layers = {}
    fast.solve_fast(list(fibonacci_skills(6)), visit=lambda q, layer: layers.setdefault(q, dict(layer)))  # a copy: sets are dropped after their last reader
    layer = layers[4]
    data = pickle.dumps(dchefs.LayerPayload(layer))
    st = next(iter(layer.values()))
    assert gmpy2.to_binary(st.den) in data  # the numbers travel as GMP binary
    back = pickle.loads(data).layer
    assert list(back) == list(layer)
    for m, st in layer.items():
        b = back[m]
        assert (b.members, b.den, b.w, b.d, b.prev_win) == (st.members, st.den, st.w, st.d, st.prev_win)
        assert all(type(x) is type(st.den) for row in b.w for x in row)


def test_chefs_groups_are_balanced_by_estimated_work():
    own = dchefs.owners(14, 3, 2)
    work = [0, 0]
    for H, w in own.items():
        work[w] += sum(__import__("math").comb(11, q - bin(H).count("1")) * q**3
                       for q in dchefs.group_sizes(14, 3, H))
    assert sorted(own) == list(range(8)) and max(work) / min(work) < 1.1


def test_chefs_group_masks_partition_every_layer():
    n, k = 8, 3
    for q in range(1, n + 1):
        got = sorted(m for H in range(2**k) if q in dchefs.group_sizes(n, k, H)
                     for m in dchefs.group_masks(n, k, H, q))
        assert got == sorted(chefs.cycle.masks_of_size(n, q))


# ------------------------------------------------------------------ hold


def _same_hold_table(dist, serial):
    assert dist.V == serial.V and dist.policy == serial.policy
    assert [type(x) for row in dist.V for x in row] == [type(x) for row in serial.V for x in row]
    assert list(dist.rounds.items()) == list(serial.rounds.items())
    assert (dist.repairs, dist.exact_fallbacks) == (serial.repairs, serial.exact_fallbacks)


@pytest.mark.parametrize("target,faces,size,backend", [(17, 4, 3, "mpq"), (12, 2, 1, "fraction"), (10, 6, None, "mpq")])
def test_hold_pairs_give_the_serial_table(client, target, faces, size, backend):
    from exactplay.distributed import hold as dhold
    from exactplay.games.hold import tables

    serial = tables.solve_table(target, faces, backend, guide=tables.float_table(target, faces))
    dist = dhold.solve_table(target, faces, backend, client=client, size=size)
    _same_hold_table(dist, serial)
    assert dist.dask_stats["tiles"] > dist.dask_stats["groups"] == target and dist.dask_stats["boundary_bytes"] > 0


def test_hold_repairs_and_exact_fallbacks_are_counted_as_in_the_serial_run(client, monkeypatch):
    """A wrong first guess (always hold, instead of the float policies) forces repairs; an error bound too wide for the fixed-point
    shadow forces every turn to be compared exactly (the cluster's workers are threads here)."""
    from types import SimpleNamespace

    from exactplay.distributed import hold as dhold
    from exactplay.games.hold import solver

    def always_hold(T, F):
        return [["H" * len(p) for p in row] for row in solver.solve_table(T, F, "float").policy]

    def hold_guess(rp, c, h):
        return tuple("H" * len(p) for p in float_guess(rp, c, h))

    float_guess = dhold.float_guess
    monkeypatch.setattr(dhold, "float_guess", hold_guess)
    monkeypatch.setattr(solver, "fixed_error", lambda T: 1 << 140)
    serial = solver.solve_table(13, 5, guide=SimpleNamespace(policy=always_hold(13, 5)))
    dist = dhold.solve_table(13, 5, client=client, size=2)
    assert serial.repairs > 0 and serial.exact_fallbacks > 0
    _same_hold_table(dist, serial)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 24), st.integers(1, 4), st.integers(1, 9))
def test_hold_plan_gives_every_tile_the_values_it_reads(target, workers, size):
    """Replaying the plan: a tile's worker holds every V(c', h') its pairs read (all pairs of a larger
    score sum, by the order of the recurrence) when the tile runs, from its own tiles or a dependency."""
    from exactplay.distributed.hold import groups, plan

    steps = plan(target, workers, size)
    assert sorted(p for *_, pairs, _ in steps for p in pairs) == sorted(p for g in groups(target) for p in g)
    made, held = {}, {w: set() for w in range(workers)}
    last = {}
    for key, g, w, pairs, deps in steps:
        mine = [last[w]] if w in last else []
        assert [d for d in deps if made[d][0] == w] == mine == list(deps[:len(mine)])
        for d in deps[len(mine):]:
            held[w] |= made[d][1]
        for c, h in pairs:
            assert {(x, y) for x, y in made_pairs(made) if x + y >= c + h + 2} <= held[w]
        held[w] |= set(pairs)
        made[key] = (w, set(pairs))
        last[w] = key


def made_pairs(made):
    return {p for _, ps in made.values() for p in ps}


# ------------------------------------------------------------------ command line


def test_unreachable_scheduler_is_one_usage_line(capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    status = main(["solve", "race", "--target", "3", "--scheduler", "tcp://127.0.0.1:9", "--quiet"])
    err = capsys.readouterr().err.strip()
    assert status == EXIT_USAGE and len(err.splitlines()) == 1
    assert "cannot reach the Dask scheduler" in err and "Traceback" not in err


@pytest.mark.parametrize("argv,words", [
    (["--workers", "2", "--scheduler", "tcp://x:1"], "give one"),
    (["--workers", "0"], "between 1 and 256"),
    (["--scheduler", ""], "needs an address"),
    (["--scheduler", "nonsense://x"], "not a Dask scheduler address"),
    (["--scheduler", "host:8786x"], "not a Dask scheduler address"),
])
def test_bad_distributed_options_are_one_usage_line(capsys, argv, words):
    status = main(["solve", "race", "--target", "3", "--quiet", *argv])
    err = capsys.readouterr().err.strip()
    assert status == EXIT_USAGE and len(err.splitlines()) == 1 and words in err


def test_chefs_fraction_backend_is_refused_on_dask(capsys):
    status = main(["solve", "chefs", "--n", "5", "--backend", "fraction", "--workers", "2", "--quiet"])
    assert status == EXIT_USAGE and "--backend mpq" in capsys.readouterr().err


def test_dask_client_refuses_no_workers():
    with pytest.raises(UsageError):
        with cluster.dask_client(0):
            pass


def _cli(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "exactplay", *argv], capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_cli_workers_print_and_certify_what_the_serial_run_does(tmp_path):
    """Real worker processes (LocalCluster, processes=True), through the command line."""
    for argv in (["solve", "race", "--target", "30"], ["solve", "chefs", "--n", "10"],
                 ["solve", "hold", "--target", "20", "--faces", "5"]):
        serial, dist = _cli(*argv), _cli(*argv, "--workers", "2", "--quiet")
        assert dist.returncode == 0 and dist.stdout == serial.stdout
    for game, argv in (("race", ["--target", "20"]), ("chefs", ["--n", "10"]), ("hold", ["--target", "12"])):
        s, d = tmp_path / f"{game}-s.json", tmp_path / f"{game}-d.json"
        assert _cli("certify", game, *argv, "-o", str(s)).returncode == 0
        assert _cli("certify", game, *argv, "-o", str(d), "--workers", "2").returncode == 0
        assert hashlib.sha256(d.read_bytes()).digest() == hashlib.sha256(s.read_bytes()).digest()
    game = ["--game", "exactplay.games.hold.model:make_game", "--param", "target=8", "--param", "faces=3"]
    serial, dist = _cli("solve", *game), _cli("solve", *game, "--workers", "2", "--quiet")
    assert dist.returncode == 0 and dist.stdout == serial.stdout


# ------------------------------------------------------------------ the engine's condensation


ENGINE_GAMES = [
    ("exactplay.games.race.model:make_game", ["target=6"]),
    ("exactplay.games.hold.model:make_game", ["target=6", "faces=3"]),
    ("exactplay.games.chefs.model:make_game", ["skills=1/4,1/2,1,1/3"]),
    ("exactplay.games.coins.model:make_game", ["coins=10,20,8,7,3"]),
    ("exactplay.games.war.model:make_game", ["ranks=4", "suits=2", "abstract=true"]),
]


@pytest.mark.parametrize("spec,params", ENGINE_GAMES)
def test_engine_levels_give_the_serial_solution_and_certificate(client, tmp_path, spec, params):
    from exactplay.distributed import engine as dengine
    from exactplay.engine import solve_model
    from exactplay.model import build_model
    from exactplay.model.load import make_game, parse_params
    from exactplay.certify.model import model_certificate

    model = build_model(make_game(spec, parse_params(params)))
    serial = solve_model(model)
    dist = dengine.solve_model(model, client=client)
    for f in ("values", "policy", "ranks", "never_ends", "components", "witness"):
        assert getattr(dist, f) == getattr(serial, f), f
    for f in ("margins", "ties", "q"):
        assert list(getattr(dist, f).items()) == list(getattr(serial, f).items()), f
    assert dist.stats.to_dict() == serial.stats.to_dict()
    assert dist.dask_stats["levels"] > 1
    assert digest(model_certificate(dist), tmp_path, "d.json") == digest(model_certificate(serial), tmp_path, "s.json")


def test_levels_put_every_component_above_its_successors():
    from exactplay.distributed.engine import levels
    from exactplay.graph import tarjan

    succ = [[1, 2], [3], [3, 4], [], [2], [0, 5]]
    comps = tarjan(succ)
    lev = levels(comps, succ)
    where = {s: i for i, c in enumerate(comps) for s in c}
    for s, ts in enumerate(succ):
        for t in ts:
            assert where[s] == where[t] or lev[where[s]] > lev[where[t]]
    assert min(lev) == 0
