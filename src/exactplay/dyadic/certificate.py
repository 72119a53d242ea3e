"""Ball certificates of games with cycles: a user's model (``recurrence: model``) or a built-in
game rebuilt by the checker from its rules (``recurrence: game``).

::

    format, version 2, kind "ball", recurrence "model" | "game"
    model (the explicit model) | game, params     model_sha256 (of the canonical model for a game)
    grid_bits     k: every end is an integer m meaning m 2^-k
    component     the value component c (the one every chooser optimises)
    feedback      {"states": [f...], "lower": [m...], "upper": [m...]}: the ends at a feedback
                  vertex set; every other state's ends are the rounded Bellman images of its
                  successors' (:mod:`exactplay.dyadic.fixpoint`), so they are not stored
    policy        per state: the first possibly optimal action on the enclosures (null at terminals)
    unresolved    the choice states with two possibly optimal actions or more
    decisions     {"certified", "unresolved"}: counts
    answer        {"name", "state", "component", "lower": [m, -k], "upper": [m, -k], "digits", "decimal"}
    tool_version, notes   informational

The checker (:mod:`exactplay.checker.ball_model`, standard library only) recomputes every
end, the decisions and the answer, and proves the enclosures from the fixed-point equations.
"""

from __future__ import annotations

import time
from fractions import Fraction

from .. import __version__
from ..model import Model
from ..numbers.decimals import decimal_digits
from ..progress import SILENT
from .fixpoint import Enclosure, dyadic_enclosure
from .form import IntForm

__all__ = ["BallCertRun", "decisions", "game_ball_certificate", "model_ball_certificate", "refuse_unverified"]

SAMPLE = 10


class BallCertRun:
    """What one run measured (for the CLI's line and the benchmarks)."""

    def __init__(self, enclosure: Enclosure, certified: int, unresolved: list, seconds: float):
        self.enclosure, self.certified, self.unresolved, self.seconds = enclosure, certified, unresolved, seconds


def decisions(form: IntForm, model: Model, E: Enclosure) -> tuple[list, list]:
    """``(policy, unresolved)``: per state the first possibly optimal action (``None`` at terminals,
    0 at single-action states), and the choice states where two actions or more may be optimal."""
    policy, unresolved = [], []
    for s in range(len(form)):
        if form.term[s] is not None:
            policy.append(None)
            continue
        acts = form.acts[s]
        if model.mover[s] is None or len(acts) < 2:
            policy.append(0)
            continue
        lo = [Fraction(*form.q_exact(s, a, E.lower, E.k)) for a in range(len(acts))]
        hi = [Fraction(*form.q_exact(s, a, E.upper, E.k)) for a in range(len(acts))]
        if form.sign[s] < 0:
            lo, hi = [-x for x in hi], [-x for x in lo]
        best = max(lo)
        maybe = [a for a in range(len(acts)) if hi[a] >= best]
        policy.append(maybe[0])
        if len(maybe) > 1:
            unresolved.append(s)
    return policy, unresolved


def _decimal(lo: Fraction, hi: Fraction, digits: int) -> str | None:
    a, b = decimal_digits(lo, digits), decimal_digits(hi, digits)
    return a if a == b else None


def _body(model: Model, form: IntForm, E: Enclosure, number: list, name: str, digits: int) -> dict:
    """The certificate's solution fields, states renumbered by ``number`` (old -> new)."""
    k = E.k
    n = len(model)
    policy, unresolved = decisions(form, model, E)
    pol = [None] * n
    for s in range(n):
        pol[number[s]] = policy[s]
    fb = sorted((number[f], E.lower[f], E.upper[f]) for f in E.feedback)
    s0 = model.initial
    lo, hi = Fraction(E.lower[s0], 1 << k), Fraction(E.upper[s0], 1 << k)
    return {
        "grid_bits": k,
        "component": form.c,
        "feedback": {"states": [f for f, _, _ in fb], "lower": [x for _, x, _ in fb], "upper": [x for _, _, x in fb]},
        "policy": pol,
        "unresolved": sorted(number[s] for s in unresolved),
        "decisions": {"certified": len(model.choice_states()) - len(unresolved), "unresolved": len(unresolved)},
        "answer": {"name": name, "state": number[s0], "component": form.c, "lower": [E.lower[s0], -k],
                   "upper": [E.upper[s0], -k], "digits": digits, "decimal": _decimal(lo, hi, digits)},
    }, BallCertRun(E, len(model.choice_states()) - len(unresolved), unresolved[:SAMPLE], 0.0)


def model_ball_certificate(model: Model, k: int, digits: int = 8, progress=SILENT, notes: str = "",
                           params: dict | None = None):
    """``(certificate, run)`` of a user's model on the grid ``2^-k``; ``params``: the factory's
    parameters as recorded (``{}``, a model file's, by default)."""
    from ..model.initial_values import one_initial_state
    from ..model import model_to_json
    from ..model.canonical import model_digest

    one_initial_state(model, "a ball certificate")
    start = time.perf_counter()
    form = IntForm(model)
    E = dyadic_enclosure(form, k, progress)
    progress.start("writing the ball certificate", None)
    model_json = model_to_json(model)
    s0 = model.initial
    name = f"value of {model_json['states'][s0].get('name', str(s0))} to {model.player_names[form.c]}"
    body, run = _body(model, form, E, list(range(len(model))), name, digits)
    run.seconds = time.perf_counter() - start
    cert = {"format": "exactplay-certificate", "version": 2, "kind": "ball", "recurrence": "model",
            "params": params or {}, "model": model_json, "model_sha256": model_digest(model_json), **body,
            "tool_version": __version__, "notes": notes or _NOTES}
    return cert, run


def game_ball_certificate(game: str, params: dict, model_params: dict, answer_name: str, k: int,
                          digits: int = 8, progress=SILENT):
    """``(certificate, run)`` of a built-in game's model (states in canonical order)."""
    from ..registry import MODELS
    from ..model import build_model
    from ..model.canonical import canonical_model, canonical_order, model_digest

    start = time.perf_counter()
    model = build_model(MODELS[game](**model_params), progress=progress)
    form = IntForm(model)
    E = dyadic_enclosure(form, k, progress)
    progress.start("writing the ball certificate (canonical order, digest)", None)
    order = canonical_order(model)
    number = [0] * len(model)
    for i, old in enumerate(order):
        number[old] = i
    digest = model_digest(canonical_model(model, order))
    body, run = _body(model, form, E, number, answer_name, digits)
    run.seconds = time.perf_counter() - start
    cert = {"format": "exactplay-certificate", "version": 2, "kind": "ball", "recurrence": "game", "game": game,
            "params": params, "model_sha256": digest, **body, "tool_version": __version__, "notes": _NOTES}
    return cert, run


_NOTES = ("Ends are integers m meaning m * 2^-grid_bits. Only the feedback states' ends are stored: every other "
          "state's lower (upper) end is its Bellman image rounded down (up) from its successors' ends.")


def refuse_unverified(cert: dict, progress, writer: str = "exactplay.dyadic") -> None:
    """The last line of defence before a ball certificate is written: the stdlib checker verifies
    it; if it refuses, one error line (exit status 1) and nothing is written.  The dict is checked
    as it is (the checker does not modify it; the writer's dicts hold only JSON values, so the file
    parses back to the same dict: tests/test_ball_writer_verified.py), not its text parsed again,
    which would hold a second copy of a certificate of millions of states in memory."""
    from ..checker import verify_certificate
    from ..errors import VerificationError

    progress.start("verifying the certificate with the stdlib checker before writing it", None)
    try:
        verify_certificate(cert, "the ball certificate")
    except VerificationError as exc:
        raise VerificationError(f"not written: the checker refuses {exc} (a bug of the writer, "
                                f"{writer}; please report it with the model)") from None
