"""Markov chains (no choices): the value as a rational function of p against Storm's parametric
engine (stormpy, a parametric DTMC built from PRISM text) and against sympy's linear solve."""

from fractions import Fraction

import pytest
import stormpy
import sympy

from exactplay.parametric.build import build_parametric
from exactplay.parametric.interval import default_range
from exactplay.parametric.poly import Param
from exactplay.parametric.regions import solve_parametric

P = sympy.Symbol("p")


def _chain(target: int, coin: str):
    from exactplay.games.race.model import make_game

    return build_parametric(make_game(target=target, t_max=1, p=Param.symbol(), coin=coin))


def _sym(poly) -> sympy.Expr:
    return sum(sympy.Rational(int(c.p), int(c.q)) * P**k for k, c in enumerate(poly.coeffs()))


def _prism_poly(poly) -> str:
    terms = []
    for k, c in enumerate(poly.coeffs()):
        if c != 0:
            terms.append("*".join([f"({int(c.p)}/{int(c.q)})"] + ["p"] * k))
    return "+".join(terms) or "0"


def _prism(pm) -> str:
    """The chain as a parametric PRISM DTMC; label "won" on the terminal states paying 1 to player 0."""
    n = len(pm)
    lines = ["dtmc", "const double p;", "module chain", f"  s : [0..{n - 1}] init 0;"]
    for s in range(n):
        if pm.terminal[s] is not None:
            lines.append(f"  [] s={s} -> 1 : (s'={s});")
        else:
            (dist,) = pm.trans[s]
            lines.append(f"  [] s={s} -> " + " + ".join(f"{_prism_poly(q)} : (s'={t})" for t, q in dist) + ";")
    lines.append("endmodule")
    won = [s for s in range(n) if pm.terminal[s] is not None and pm.terminal[s][0] == 1]
    lines.append('label "won" = ' + " | ".join(f"s={s}" for s in won) + ";")
    return "\n".join(lines) + "\n"


def _storm_value(pm, tmp_path) -> sympy.Expr:
    path = tmp_path / "chain.pm"
    path.write_text(_prism(pm))
    program = stormpy.parse_prism_program(str(path))
    props = stormpy.parse_properties('P=? [F "won"]', program)
    model = stormpy.build_model[stormpy.RationalFunction](program, props)
    result = stormpy.model_checking(model, props[0])
    text = str(result[model.initial_states[0]])
    return sympy.sympify(text.replace("^", "**"), locals={"p": P})


def _ours(pm) -> sympy.Expr:
    lo, hi = default_range(pm)
    ps = solve_parametric(pm, lo, hi)
    assert len(ps.regions) == 1  # a chain: one policy
    v = ps.regions[0].values[0][0]
    return _sym(v.num) / _sym(v.den)


@pytest.mark.parametrize("target,coin", [(2, "both"), (3, "1"), (3, "2"), (4, "both")])
def test_the_value_of_a_chain_is_storms_parametric_rational_function(target, coin, tmp_path):
    pm = _chain(target, coin)
    assert all(pm.mover[s] is None or len(pm.trans[s]) == 1 for s in range(len(pm)))
    ours, storm = _ours(pm), _storm_value(pm, tmp_path)
    assert sympy.cancel(ours - storm) == 0


@pytest.mark.parametrize("target,coin", [(2, "both"), (3, "2")])
def test_the_value_of_a_chain_is_sympys_solution_of_the_linear_equations(target, coin):
    pm = _chain(target, coin)
    n = len(pm)
    xs = sympy.symbols(f"v0:{n}")
    eqs = []
    for s in range(n):
        if pm.terminal[s] is not None:
            eqs.append(sympy.Eq(xs[s], sympy.Rational(pm.terminal[s][0].numerator, pm.terminal[s][0].denominator)))
        else:
            (dist,) = pm.trans[s]
            eqs.append(sympy.Eq(xs[s], sum(_sym(q) * xs[t] for t, q in dist)))
    sol = sympy.solve(eqs, xs, dict=True)[0]
    assert sympy.cancel(_ours(pm) - sol[xs[0]]) == 0
    # and at a sample point, the exact engine agrees
    from exactplay.engine import solve_model

    x = Fraction(2, 7)
    assert solve_model(pm.at(x)).values[0][0] == Fraction(str(sol[xs[0]].subs(P, sympy.Rational(2, 7))))
