"""An a-priori bound on the error of the published float solver (first order in u = 2^-53).

Per alive set of q chefs, with ``P = b_0 ... b_{q-1}``, ``kappa = P / (1 - P)`` and
``beta = max_k (1 + p_k / b_k)`` (the relative error of ``b = fl(1 - fl(p))``):

* ``X_0 = sum_r w_r U_r`` with weights ``w_r = b_0..b_{r-1} p_r / (1 - P)`` summing to 1,
  so errors of the success states are not amplified; the new rounding is at most
  ``(2q + 3 + q beta + kappa (q - 1 + q beta)) u`` relative (the products ``b_0..b_{r-1}``,
  ``p U``, the sum of q terms, ``1 - P`` with its cancellation, the division);
* back substitution ``X_r = p_r U_r + b_r X_{r+1}`` (again weights summing to 1)
  adds at most ``5u`` per step, q - 1 steps.

Winner probabilities are at most 1, so the absolute error of layer q is at most
the error of layer q - 1 plus ``delta_q u``; the dish counts ``D`` obey the same
weights with one more rounding (``1 + p V``), scaled by the largest ``D`` of the
layer.  A factor 1.01 covers the second-order terms.

Hypothesis: the float solver takes the exact solution's decisions.  Where an exact gap is
within the bound (an exact tie above all) the float may choose otherwise and follow another
policy, whose values differ by far more than rounding (skills 1, 2/3, 2/5, 2/3: E(4) 4.40888889
against 4.58666667); the audit tests the bound against the exact error and says where it fails.
"""

from __future__ import annotations

from exactplay.games.chefs.cycle import members
from exactplay.numbers.backends import UNIT_ROUNDOFF

SECOND_ORDER = 1.01


def mask_delta(p: list[float], mem: list[int]) -> float:
    """The new relative rounding (in units of u) of one alive set's values."""
    q = len(mem)
    P = 1.0
    beta = 1.0
    for m in mem:
        b = 1.0 - p[m]
        P *= b
        if b > 0:
            beta = max(beta, 1.0 + p[m] / b)
    kappa = P / (1.0 - P)
    return (2 * q + 3 + q * beta + kappa * (q - 1 + q * beta)) + 5 * (q - 1)


def a_priori_bounds(p: list[float], flt) -> tuple[float, float, str]:
    """(bound on |W error|, bound on |D error|, derivation) for the float solution ``flt``
    (which must keep its layers: the bound on D uses the largest D of each layer)."""
    n = len(p)
    err_w = err_d = 0.0
    worst = 0.0
    for q in range(2, n + 1):
        layer = flt.layers[q]
        delta = max(mask_delta(p, members(mask)) for mask in layer)
        dmax = max(max(st.D) for st in layer.values())
        worst = max(worst, delta)
        err_w += delta * UNIT_ROUNDOFF
        err_d += (delta + 1) * dmax * UNIT_ROUNDOFF
    label = (f"first-order: per layer (2q+3+q*beta+kappa*(q-1+q*beta)+5(q-1)) u, largest {worst:.1f} u, "
             f"summed over {n - 1} layers, x{SECOND_ORDER}")
    return err_w * SECOND_ORDER, err_d * SECOND_ORDER, label
